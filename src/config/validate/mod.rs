//! Validation per release: the release's own JSON Schema ([`schema`]) plus the checks OpenClaw
//! writes as custom refinements ([`refinements`]), then, once those pass, its post-schema checks
//! ([`post_schema`]) and its plugin registry stage, run on the config as the release's loader left
//! it (after its load-time migrations). An empty result means the release accepts the config.
//!
//! Every issue says what repairs it ([`ProblemKind`]): `doctor` when the release reports a
//! doctor-fixable legacy rule for it ([`crate::config::migrate::legacy`]), else `fatal`.

mod issue;
mod plugin_schema;
mod plugins;
mod post_schema;
mod quick_schema;
mod refinements;
mod schema;

pub use issue::{IssueCategory, ValidationIssue};
pub use post_schema::agent_workspaces;
pub use schema::{did_you_mean, known_channel_ids};

use super::LoadedConfig;
use super::error::{ConfigWarning, WarningKind};
use super::migrate::MigrationEnv;
use super::migrate::legacy::{self, LegacyMatch};
use super::path::{PathSeg, parse_dotted, substitution_path};
use super::problem::ProblemKind;
use crate::OpenClawVersion;
use crate::base::js::js_truthy;
use crate::config::view::ids::normalize_agent_id;
use crate::config::view::keys;
use crate::release::loader::MissingVariable;

/// What the release's validation says about a loaded config.
#[derive(Debug)]
pub struct Validation {
    /// What the release refuses; empty when it accepts the config.
    pub issues: Vec<ValidationIssue>,
    /// The release's `legacyIssues`: doctor-fixable rules it reports (only for a refused config),
    /// in its order.
    pub legacy: Vec<LegacyMatch>,
    /// Warnings the release's validation adds to an accepted config.
    pub warnings: Vec<ConfigWarning>,
}

/// Everything `version` would reject in `cfg`, in OpenClaw's `{path, message}` form with
/// categories, kinds and origins.
pub fn validate(cfg: &LoadedConfig, version: OpenClawVersion) -> Vec<ValidationIssue> {
    check(cfg, version).issues
}

/// The full validation result: issues, legacy issues, warnings.
pub fn check(cfg: &LoadedConfig, version: OpenClawVersion) -> Validation {
    let rules = version.loader();
    // A release that refuses a missing `${VAR}` aborts loading at the first one: a single root
    // issue, nothing else runs.
    if rules.env.missing_variable == MissingVariable::Refuse
        && let Some(missing) = cfg.missing_env_vars().first()
    {
        let message = format!(
            "Missing env var \"{}\" referenced at config path: {}",
            missing.name,
            substitution_path(&missing.path, rules.env.reference_path)
        );
        let mut issue = ValidationIssue::new(Vec::new(), message, IssueCategory::MissingEnvVar);
        issue.origin = missing.origin.as_deref().cloned();
        return Validation { issues: vec![issue], legacy: Vec::new(), warnings: Vec::new() };
    }
    let legacy = legacy::find(cfg.value(), || cfg.authored(), version);
    let (mut issues, warnings) = if rules.validation.legacy_rules_replace_validation && !legacy.is_empty() {
        (legacy.iter().map(legacy_issue).collect(), Vec::new())
    } else {
        let unavailable = plugins::unavailable_load_paths(cfg.value(), cfg.effective_env(), cfg.cwd());
        let mut issues = schema::check(cfg.value(), version);
        keep_uninspected_channels(&mut issues, cfg.value(), version, &unavailable);
        issues.extend(refinements::check(cfg.value(), version, cfg.legacy_owner()));
        let mut warnings = Vec::new();
        let locate = |at: &[PathSeg]| cfg.origin(at).or_else(|| cfg.nearest_origin(at));
        if issues.is_empty() {
            let context = post_schema::Context {
                config: cfg.value(),
                source: cfg.authored(),
                version,
                legacy_owner: cfg.legacy_owner(),
                env: cfg.effective_env(),
                cwd: cfg.cwd(),
            };
            issues = post_schema::check(&context).into_iter().map(|f| located_issue(f, locate)).collect();
        }
        // What the release checks with its plugin registry, once the rest passes.
        if issues.is_empty() {
            let stage = registry_stage(cfg.value(), version, &unavailable);
            issues = stage.issues.into_iter().map(|f| located_issue(f, locate)).collect();
            warnings = validation_warnings(cfg, version);
            warnings.extend(stage.warnings.into_iter().map(|found| ConfigWarning {
                kind: WarningKind::Plugin,
                message: cfg.mask_secrets(&found.message),
                origin: locate(&found.at).map(std::sync::Arc::new),
                path: found.path,
                related: None,
                excerpt: Default::default(),
            }));
        }
        for issue in &mut issues {
            classify(issue, &legacy);
        }
        (issues, warnings)
    };
    for issue in &mut issues {
        if issue.origin.is_none() {
            issue.origin = cfg.origin(&issue.path).or_else(|| cfg.nearest_origin(&issue.path));
        }
        if issue.category == IssueCategory::UnknownKey {
            issue.unknown_key_origins = issue.subjects().iter().filter_map(|path| cfg.origin(path)).collect();
        }
        issue.message = cfg.mask_secrets(&issue.message);
    }
    // Legacy issues come with a refusal only (where they replace validation, a match is one).
    let legacy = if issues.is_empty() { Vec::new() } else { legacy };
    Validation { issues, legacy, warnings }
}

/// Where a missing plugin load path makes the release preserve what it cannot inspect, the
/// configs of `channels.<id>` are not checked (the release checks them against their channel's
/// schema in its plugin stage, which it skips): their schema issues go.
fn keep_uninspected_channels(
    issues: &mut Vec<ValidationIssue>,
    config: &serde_json::Value,
    version: OpenClawVersion,
    unavailable: &[plugins::UnavailablePath],
) {
    if plugins::preserved(config, version, unavailable).is_none() {
        return;
    }
    let reserved = &version.loader().validation.reserved_channel_keys;
    issues.retain(|issue| match issue.path.as_slice() {
        [PathSeg::Key(channels), PathSeg::Key(id), ..] if channels == keys::CHANNELS => {
            reserved.iter().any(|key| key == id)
        }
        _ => true,
    });
}

/// The checks the release runs with its plugin registry after the schema and the hand-written
/// rules pass: channel ids, then `plugins.*`. Its warnings come with its issues.
fn registry_stage(
    config: &serde_json::Value,
    version: OpenClawVersion,
    unavailable: &[plugins::UnavailablePath],
) -> plugins::Findings {
    if let Some(preserved) = plugins::preserved(config, version, unavailable) {
        return preserved;
    }
    let mut stage = refinements::unknown_channels(config, version);
    let plugins = plugins::check(config, version, unavailable);
    stage.issues.extend(plugins.issues);
    stage.warnings.extend(plugins.warnings);
    stage
}

/// A finding of the registry stage as a validation issue, located where it is written.
fn located_issue(
    found: plugin_schema::Finding,
    locate: impl Fn(&[PathSeg]) -> Option<super::Origin>,
) -> ValidationIssue {
    let mut issue = ValidationIssue::new(found.path, found.message, found.category);
    issue.help = found.help;
    issue.origin = locate(&found.at);
    issue
}

/// Where legacy rules replace validation: a matching rule is the issue, with the rule's own
/// message.
fn legacy_issue(found: &LegacyMatch) -> ValidationIssue {
    let mut issue = ValidationIssue::new(parse_dotted(found.path()), found.message(), IssueCategory::Legacy);
    issue.kind = ProblemKind::Doctor;
    issue.help = Some(
        "`openclaw doctor --fix` migrates it (`openclaw gateway` also migrates it at startup and rewrites the file)"
            .to_string(),
    );
    issue
}

/// `doctor` when a legacy rule the release reports covers everything the issue is about; a
/// retired key's did-you-mean gives way to the release's own legacy message.
fn classify(issue: &mut ValidationIssue, legacy: &[LegacyMatch]) {
    let subjects = issue.subjects();
    let covering: Vec<Option<&LegacyMatch>> =
        subjects.iter().map(|subject| legacy.iter().find(|m| m.covers(subject))).collect();
    if !covering.is_empty() && covering.iter().all(Option::is_some) {
        issue.kind = ProblemKind::Doctor;
    }
    let keys = issue.unknown_keys().into_iter().map(str::to_string).collect::<Vec<_>>();
    let mut lines: Vec<String> = issue.help.iter().flat_map(|h| h.lines().map(str::to_string)).collect();
    let mut notes = Vec::new();
    for (index, found) in covering.iter().enumerate() {
        let Some(found) = found else { continue };
        match keys.get(index) {
            Some(key) => {
                lines.retain(|line| !line.starts_with(&format!("`{key}` →")));
                notes.push(format!("`{key}`: {}", found.message()));
            }
            None => notes.push(found.message().to_string()),
        }
    }
    notes.dedup();
    lines.extend(notes);
    issue.help = (!lines.is_empty()).then(|| lines.join("\n"));
}

/// Warnings 2026.9's validation adds to an accepted config: a multi-agent roster nobody owns
/// heartbeats for (`collectHeartbeatOwnerWarnings`).
fn validation_warnings(cfg: &LoadedConfig, version: OpenClawVersion) -> Vec<ConfigWarning> {
    let Some(text) = version.migrations().validation_warnings.get("heartbeatOwner") else {
        return Vec::new();
    };
    let config = cfg.value();
    let agents = &config[keys::AGENTS];
    let entries: Vec<(&String, &serde_json::Value)> =
        agents[keys::ENTRIES].as_object().into_iter().flatten().filter(|(_, e)| e.is_object()).collect();
    let mut ids: Vec<String> = entries.iter().map(|(id, _)| normalize_agent_id(id)).collect();
    ids.sort();
    ids.dedup();
    let system_agent =
        agents[keys::DEFAULTS][keys::SYSTEM_AGENT][keys::AGENT_ID].as_str().is_some_and(|s| !s.trim().is_empty());
    let owned = system_agent
        || (agents[keys::OWNERSHIP] != "explicit" && cfg.legacy_owner().is_some_and(|o| ids.iter().any(|id| id == o)));
    if ids.len() < 2
        || entries.iter().any(|(_, e)| js_truthy(&e[keys::HEARTBEAT]))
        || js_truthy(&agents[keys::DEFAULTS][keys::HEARTBEAT])
        || owned
    {
        return Vec::new();
    }
    let path = parse_dotted(&text.path);
    let origin = cfg.nearest_origin(&path).map(std::sync::Arc::new);
    vec![ConfigWarning {
        kind: WarningKind::NoHeartbeatOwner,
        message: text.message.clone(),
        path,
        origin,
        related: None,
        excerpt: Default::default(),
    }]
}

/// What `version` would reject in a config value that has no files behind it (an edit being
/// tried out): the release's load-time migrations, then the schema, the hand-written rules and
/// the post-schema checks (paths resolved with an empty environment from `/`), without origins. A value taken from a loaded config is already migrated; there, a multi-agent
/// roster without ownership or markers whose system agent is set can only come from a legacy
/// `default: true` the loader migrated (the loaded config would otherwise have been refused), so
/// it is validated as the release validates that roster.
pub fn validate_value(value: &serde_json::Value, version: OpenClawVersion) -> Vec<ValidationIssue> {
    let source = value;
    let mut tree = super::Node::from_value(value);
    let env = std::collections::HashMap::new();
    let migration =
        super::migrate::run(&mut tree, version, &MigrationEnv { env: &env, cwd: std::path::Path::new("/") });
    let value = tree.to_value();
    let agents = &value[keys::AGENTS];
    let entries = agents[keys::ENTRIES].as_object();
    let migrated_owner = agents[keys::DEFAULTS][keys::SYSTEM_AGENT][keys::AGENT_ID].as_str().filter(|_| {
        agents.get(keys::OWNERSHIP).is_none()
            && entries.is_some_and(|e| e.len() > 1 && e.values().all(|entry| entry.get(keys::DEFAULT).is_none()))
    });
    let legacy_owner = migration.legacy_owner.as_deref().or(migrated_owner);
    let unavailable = plugins::unavailable_load_paths(&value, &env, std::path::Path::new("/"));
    let mut issues = schema::check(&value, version);
    keep_uninspected_channels(&mut issues, &value, version, &unavailable);
    issues.extend(refinements::check(&value, version, legacy_owner));
    if issues.is_empty() {
        let context = post_schema::Context {
            config: &value,
            source,
            version,
            legacy_owner,
            env: &env,
            cwd: std::path::Path::new("/"),
        };
        issues = post_schema::check(&context).into_iter().map(|f| located_issue(f, |_| None)).collect();
    }
    if issues.is_empty() {
        issues = registry_stage(&value, version, &unavailable)
            .issues
            .into_iter()
            .map(|f| located_issue(f, |_| None))
            .collect();
    }
    issues
}

#[cfg(test)]
mod tests;
