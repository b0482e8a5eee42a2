//! Exec approval simulator (issue 3).

pub mod allowlist;
pub mod data;
pub mod explain;
pub mod pkg_manager;
pub mod plan;
pub mod policy;
pub mod resolve;
pub mod safe_bins;
pub mod segments;
pub mod wrappers;
