//! What satisfies a segment: the allowlist and safe bins.

pub mod allowlist;
pub mod safe_bins;
