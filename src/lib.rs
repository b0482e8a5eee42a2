//! clawpolicy: an offline linter and simulator for OpenClaw tool policy and exec approvals.

pub mod batch;
pub mod cli;
pub mod config;
pub mod exec;
pub mod explain;
pub mod guards;
pub mod keypath;
pub mod lint;
pub mod loading;
pub mod pack;
pub mod policy;
pub mod report;
pub mod simulate;
pub mod version;

pub use version::OpenClawVersion;
