//! clawpolicy: an offline linter and simulator for OpenClaw tool policy and exec approvals.

pub mod batch;
pub mod cli;
pub mod config;
pub mod contexts;
pub mod delta;
pub mod diff;
pub mod escape;
pub mod exec;
pub mod explain;
pub mod gitrev;
pub mod guards;
pub mod keypath;
pub mod lint;
pub mod loading;
pub mod matrix;
pub mod pack;
pub mod policy;
pub mod probe;
pub mod report;
pub mod simulate;
pub mod suite;
pub mod userfile;
pub mod version;
pub mod who_can;
pub mod yaml;

pub use version::OpenClawVersion;
