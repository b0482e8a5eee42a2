//! Validation per release: the release's own JSON Schema ([`schema`]) plus the checks OpenClaw
//! writes as custom refinements ([`refinements`]). An empty result means the release accepts the
//! config.

mod issue;
mod refinements;
mod schema;

pub use issue::{IssueCategory, ValidationIssue};
pub use schema::did_you_mean;

use super::LoadedConfig;
use super::path::substitution_path;
use crate::OpenClawVersion;

/// Everything `version` would reject in `cfg`, in OpenClaw's `{path, message}` form with categories
/// and origins.
pub fn validate(cfg: &LoadedConfig, version: OpenClawVersion) -> Vec<ValidationIssue> {
    // 2026.2 aborts loading at the first missing `${VAR}`: a single root issue, nothing else runs.
    if version == OpenClawVersion::V2026_2
        && let Some(missing) = cfg.missing_env_vars().first()
    {
        let message = format!(
            "Missing env var \"{}\" referenced at config path: {}",
            missing.name,
            substitution_path(&missing.path, version)
        );
        let mut issue = ValidationIssue::new(Vec::new(), message, IssueCategory::MissingEnvVar);
        issue.origin = missing.origin.as_deref().cloned();
        return vec![issue];
    }
    let mut issues = schema::check(cfg.value(), version);
    issues.extend(refinements::check(cfg.value(), version));
    for issue in &mut issues {
        if issue.origin.is_none() {
            issue.origin = cfg.origin(&issue.path).or_else(|| cfg.nearest_origin(&issue.path));
        }
        let key_path = |key: &String| [issue.path.as_slice(), &[super::PathSeg::Key(key.clone())]].concat();
        issue.message = cfg.mask_secrets(&issue.message);
        issue.unknown_key_origins = issue.unknown_keys.iter().filter_map(|key| cfg.origin(&key_path(key))).collect();
    }
    issues
}

#[cfg(test)]
mod tests;
