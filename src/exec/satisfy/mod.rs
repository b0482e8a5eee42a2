//! What satisfies a segment without a prompt: an allowlist entry of the approvals document
//! ([`allowlist`]), a safe bin used as a stdin filter ([`safe_bins`]), a safe shell builtin
//! ([`builtins`]) or a skill CLI ([`skills`]). Each release's pipeline asks these in its own
//! order (`exec::v2026_9::plan`, `exec::v2026_2::splitter`).
//!
//! A new safe bin, profile or builtin is data (`data/<line>/exec.json`); a new kind of
//! satisfaction is a file here and a `SatisfiedBy` variant (`exec::segments`).

pub mod allowlist;
pub mod builtins;
pub mod near_miss;
pub mod safe_bins;
pub mod skills;
