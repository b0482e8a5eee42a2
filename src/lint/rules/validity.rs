//! Config validity: what the selected release would refuse at startup, and what its loader
//! changes behind the user's back (duplicate keys, missing variables, retired keys).

use serde_json::Value;

use crate::OpenClawVersion;
use crate::config::WarningKind;
use crate::config::validate::{IssueCategory, ValidationIssue};
use crate::keypath::KeyPath;
use crate::lint::registry::ALL_VERSIONS;
use crate::lint::{Category, Emitter, LintContext, Rule, Severity};

pub const RULES: &[Rule] = &[
    Rule {
        code: "CP101",
        name: "unknown-key",
        severity: Severity::Error,
        category: Category::Validity,
        summary: "A key the release's config schema does not know.",
        why: "OpenClaw validates strictly: an unknown key makes the gateway refuse the whole config. Typos in \
              policy keys (`alsoAlow`) are the usual cause.",
        example: "tools: { alsoAlow: [\"browser\"] }",
        fix: "Rename the key to the one suggested, or remove it.",
        openclaw_check: None,
        versions: ALL_VERSIONS,
        needs_valid_config: false,
        check: |ctx, out| issues(ctx, out, &[IssueCategory::UnknownKey]),
    },
    Rule {
        code: "CP102",
        name: "invalid-type",
        severity: Severity::Error,
        category: Category::Validity,
        summary: "A value of the wrong type or shape (a string where a list is expected, …).",
        why: "The release refuses a config whose values do not have the schema's types.",
        example: "tools: { deny: \"exec\" }",
        fix: "Write the value in the expected shape (`deny: [\"exec\"]`).",
        openclaw_check: None,
        versions: ALL_VERSIONS,
        needs_valid_config: false,
        check: |ctx, out| issues(ctx, out, &[IssueCategory::WrongType, IssueCategory::InvalidUnion]),
    },
    Rule {
        code: "CP103",
        name: "invalid-value",
        severity: Severity::Error,
        category: Category::Validity,
        summary: "A value outside the allowed set or range (`profile: \"default\"`, `sandbox.mode: \"lenient\"`).",
        why: "The release refuses values its schema does not list; there is no fallback to a default.",
        example: "tools: { profile: \"default\" }",
        fix: "Use one of the values the message lists.",
        openclaw_check: None,
        versions: ALL_VERSIONS,
        needs_valid_config: false,
        check: |ctx, out| {
            issues(ctx, out, &[IssueCategory::InvalidEnum, IssueCategory::OutOfRange, IssueCategory::InvalidFormat])
        },
    },
    Rule {
        code: "CP104",
        name: "missing-key",
        severity: Severity::Error,
        category: Category::Validity,
        summary: "A required key is absent (an `agents.list` entry without `id`, …).",
        why: "The release refuses objects that lack required keys.",
        example: "agents: { list: [{ name: \"Dev\" }] }",
        fix: "Add the key the message names.",
        openclaw_check: None,
        versions: ALL_VERSIONS,
        needs_valid_config: false,
        check: |ctx, out| issues(ctx, out, &[IssueCategory::MissingKey]),
    },
    Rule {
        code: "CP105",
        name: "config-rule-violation",
        severity: Severity::Error,
        category: Category::Validity,
        summary: "A cross-field rule of the release is broken: `allow` and `alsoAllow` in one scope, roster and \
                  ownership rules, sandbox and exec combinations.",
        why: "OpenClaw checks these by hand after the schema and refuses the config with the message shown.",
        example: "tools: { allow: [\"read\"], alsoAllow: [\"exec\"] }",
        fix: "Follow the message: merge `alsoAllow` into `allow`, or drop `allow` and use a profile with `alsoAllow`.",
        openclaw_check: None,
        versions: ALL_VERSIONS,
        needs_valid_config: false,
        check: |ctx, out| issues(ctx, out, &[IssueCategory::Refinement]),
    },
    Rule {
        code: "CP106",
        name: "missing-env-var",
        severity: Severity::Error,
        category: Category::Validity,
        summary: "A `${VAR}` substitution whose variable is not set.",
        why: "2026.2 refuses the config. 2026.9 keeps the literal `${VAR}` text, so a token or an allowlist entry \
              silently becomes the placeholder.",
        example: "gateway: { auth: { token: \"${GATEWAY_TOKEN}\" } }",
        fix: "Set the variable (process environment, `.env`, or the config's `env` block) where the gateway runs.",
        openclaw_check: None,
        versions: ALL_VERSIONS,
        needs_valid_config: false,
        check: missing_env_vars,
    },
    Rule {
        code: "CP107",
        name: "duplicate-key",
        severity: Severity::Warning,
        category: Category::Validity,
        summary: "The same key twice in one JSON5 object.",
        why: "Only one of the two values is used, and nothing says which was dropped: a second `tools` block \
              silently replaces the first.",
        example: "{ tools: { deny: [\"exec\"] }, tools: { profile: \"coding\" } }",
        fix: "Merge the two entries into one.",
        openclaw_check: None,
        versions: ALL_VERSIONS,
        needs_valid_config: false,
        check: duplicate_keys,
    },
    Rule {
        code: "CP108",
        name: "legacy-key",
        severity: Severity::Warning,
        category: Category::Validity,
        summary: "A key the release has retired or renamed (`agents.list`, `timeoutSec`, `agents.entries.*.default`).",
        why: "2026.9 refuses retired keys at startup (until `openclaw doctor --fix` migrates them) or strips them \
              with a warning, so the config does not mean what it says.",
        example: "agents: { entries: { dev: { default: true } } }",
        fix: "Apply the migration the help names (or run `openclaw doctor --fix`).",
        openclaw_check: None,
        versions: &[OpenClawVersion::V2026_9],
        needs_valid_config: false,
        check: legacy_keys,
    },
];

/// Legacy keys 2026.9 knows how to migrate: (parent kind, key, what replaces it).
const LEGACY_KEYS: &[(&str, &str, &str)] = &[
    ("agents", "list", "`agents.entries.<id>` (keyed by agent id) with `agents.ownership: \"explicit\"`"),
    ("exec", "timeoutSec", "`timeoutSeconds`"),
    ("agent", "default", "`agents.defaults.systemAgent.agentId` (the marker is stripped at load)"),
];

/// The unknown keys an issue names (`Unrecognized keys: "a", "b"`).
fn unknown_keys(issue: &ValidationIssue) -> Vec<&str> {
    issue.message.split('"').skip(1).step_by(2).collect()
}

fn is_legacy_unknown_key(ctx: &LintContext<'_>, issue: &ValidationIssue, key: &str) -> bool {
    ctx.version == OpenClawVersion::V2026_9 && legacy_key_at(&KeyPath(issue.path.clone()).key(key)).is_some()
}

/// Whether the release refuses the key at `path` (its schema reports it as unknown).
fn is_refused(ctx: &LintContext<'_>, path: &KeyPath) -> bool {
    let Some((key, parent)) = path.segments().split_last() else { return false };
    ctx.issues.iter().any(|issue| {
        issue.category == IssueCategory::UnknownKey
            && issue.path == parent
            && key.as_key().is_some_and(|k| unknown_keys(issue).contains(&k))
    })
}

/// Reports the validation issues of some categories, each at the value it is about.
fn issues(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>, categories: &[IssueCategory]) {
    for issue in ctx.issues.iter().filter(|i| categories.contains(&i.category)) {
        let object = KeyPath(issue.path.clone());
        if issue.category == IssueCategory::UnknownKey {
            // One finding per key, pointing at the key itself; retired keys belong to CP108.
            for key in unknown_keys(issue).into_iter().filter(|k| !is_legacy_unknown_key(ctx, issue, k)) {
                let finding = out.report(&object.key(key), format!("{}: unknown key \"{key}\"", issue_path(issue)));
                if let Some(hint) =
                    issue.help.as_deref().and_then(|h| h.lines().find(|l| l.contains(&format!("`{key}`"))))
                {
                    finding.help(hint.to_string());
                }
            }
            continue;
        }
        let finding = out.report(&object, issue.to_string());
        if let Some(help) = &issue.help {
            finding.help(help.clone());
        }
    }
}

fn issue_path(issue: &ValidationIssue) -> String {
    let path = issue.dotted_path();
    if path.is_empty() { "<root>".into() } else { path }
}

fn missing_env_vars(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for missing in ctx.loaded.missing_env_vars() {
        let consequence = match ctx.version {
            OpenClawVersion::V2026_2 => "OpenClaw 2026.2 refuses the config",
            OpenClawVersion::V2026_9 => "OpenClaw 2026.9 keeps the literal text",
        };
        out.report(&KeyPath(missing.path.clone()), format!("${{{}}} is not set: {consequence}", missing.name))
            .help(format!("set {} in the gateway's environment, `.env`, or the config `env` block", missing.name));
    }
}

fn duplicate_keys(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for warning in ctx.loaded.warnings().iter().filter(|w| w.kind == WarningKind::DuplicateKey) {
        let finding = out.report_at(&KeyPath(warning.path.clone()), warning.origin.as_deref(), warning.message.clone());
        if let Some(earlier) = &warning.related {
            finding.help(format!("the other occurrence is at {earlier}; merge the two into one"));
        }
    }
}

/// The legacy key at `path`, if it is one: (key, replacement).
fn legacy_key_at(path: &KeyPath) -> Option<(&'static str, &'static str)> {
    let keys: Vec<&str> = path.segments().iter().filter_map(|s| s.as_key()).collect();
    let last = *keys.last()?;
    LEGACY_KEYS.iter().find_map(|&(parent, key, replacement)| {
        let parent_matches = match parent {
            "agents" => keys.len() == 2 && keys[0] == "agents",
            "exec" => keys.len() >= 2 && keys[keys.len() - 2] == "exec",
            "agent" => keys.len() == 4 && keys[0] == "agents" && keys[1] == "entries",
            _ => false,
        };
        (parent_matches && last == key).then_some((key, replacement))
    })
}

fn legacy_keys(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let mut candidates = vec![KeyPath::keys(&["agents", "list"]), KeyPath::keys(&["tools", "exec", "timeoutSec"])];
    for agent in super::walk::agents(ctx) {
        if let Some(path) = agent.path {
            candidates.push(path.key("default"));
            candidates.push(path.key("tools").key("exec").key("timeoutSec"));
        }
    }
    if let Some(entries) = ctx.get(&["agents", "entries"]).and_then(Value::as_object) {
        for id in entries.keys() {
            candidates.push(KeyPath::keys(&["agents", "entries", id, "default"]));
        }
    }
    candidates.sort();
    candidates.dedup();
    for path in candidates.into_iter().filter(|p| p.lookup(ctx.config()).is_some()) {
        let Some((key, replacement)) = legacy_key_at(&path) else { continue };
        let refused = is_refused(ctx, &path);
        let consequence =
            if refused { "OpenClaw 2026.9 refuses to start with it" } else { "OpenClaw 2026.9 ignores it" };
        out.report(&path, format!("`{key}` is a retired key: {consequence}"))
            .severity(if refused { Severity::Error } else { Severity::Warning })
            .help(format!("use {replacement}; `openclaw doctor --fix` migrates it"));
    }
}
