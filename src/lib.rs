//! clawpolicy: an offline linter and simulator for OpenClaw tool policy and exec approvals.

pub mod exec;
pub mod version;

pub use version::OpenClawVersion;
