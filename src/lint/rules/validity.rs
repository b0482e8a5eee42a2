//! Config validity: what the selected release would refuse at startup, and what its loader
//! changes behind the user's back (duplicate keys, missing variables, retired keys).

use crate::config::edit::{Autofix, Change, ConfigEdit, Safety};
use crate::config::path::KeyPath;
use crate::config::validate::{IssueCategory, ValidationIssue};
use crate::config::view::keys;
use crate::config::{PathSeg, ProblemKind, WarningKind};
use crate::lint::registry::Applies;
use crate::lint::{Category, Emitter, LintContext, Rule, Severity};
use crate::release::loader::MissingVariable;

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
        applies: Applies::Always,
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
        applies: Applies::Always,
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
        applies: Applies::Always,
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
        summary: "A required key is absent (an auth profile without `mode`, …).",
        why: "The release refuses objects that lack required keys.",
        example: "auth: { profiles: { \"openai:me\": { provider: \"openai\" } } }",
        fix: "Add the key the message names.",
        openclaw_check: None,
        applies: Applies::Always,
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
        applies: Applies::Always,
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
        applies: Applies::Always,
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
        applies: Applies::Always,
        needs_valid_config: false,
        check: duplicate_keys,
    },
    Rule {
        code: "CP108",
        name: "legacy-key",
        severity: Severity::Warning,
        category: Category::Validity,
        summary: "A retired key the release reports as doctor-fixable (`meta.lastTouchedAt`, `tools.bash` in 2026.2, \
                  `image` in a tool list, an `agents.list` the loader cannot convert).",
        why: "The release does not migrate these while loading. 2026.9 refuses a config that still has a retired key \
              its schema dropped and lists the key as a legacy issue for `openclaw doctor --fix`; 2026.2 refuses \
              every legacy key with the rule's own message. Keys the release still accepts are rewritten the next \
              time doctor runs.",
        example: "memorySearch: { enabled: true }",
        fix: "Apply the release's message (or run `openclaw doctor --fix`). An error means the release refuses to \
              start until then.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: false,
        check: legacy_keys,
    },
    Rule {
        code: "CP109",
        name: "migrated-at-load",
        severity: Severity::Warning,
        category: Category::Validity,
        summary: "A retired form the release rewrites in memory while loading: a legacy `agents.list`, a \
                  `default: true` marker, provider-wide `contextTokens`/`contextWindow`, agent-wide `contextTokens`.",
        why: "2026.9 accepts these and prints a warning at every start, but what runs is the rewritten config: the \
              list becomes keyed `agents.entries`, a marker in a multi-agent roster makes its agent the owner of \
              heartbeats, the system agent, talk and every unbound channel, and budgets move or disappear. The \
              file no longer says what the gateway does.",
        example: "agents: { list: [{ id: \"main\", default: true }, { id: \"work\" }] }",
        fix: "Make the rewrite permanent: edit the file as the help says, or run `openclaw doctor --fix`.",
        openclaw_check: None,
        applies: Applies::When(|release| !release.migrations().migrated_forms.is_empty()),
        needs_valid_config: false,
        check: migrated_forms,
    },
    Rule {
        code: "CP110",
        name: "plugin-setting-ignored",
        severity: Severity::Warning,
        category: Category::Validity,
        summary: "A `plugins.*` setting the release ignores while loading: a plugin id it does not know or no longer \
                  ships, a plugin that is not installed, the config of a disabled plugin.",
        why: "The release starts and prints a warning, but the setting does nothing: a deny of a plugin that does not \
              exist denies nothing, and a typo in an allow list leaves the intended plugin out.",
        example: "plugins: { entries: { telegram: { enabled: false, config: {} } } }",
        fix: "Correct the plugin id, install the plugin, or remove the setting, as the release's message says.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: false,
        check: |ctx, out| validation_warnings(ctx, out, WarningKind::Plugin),
    },
    Rule {
        code: "CP111",
        name: "no-heartbeat-owner",
        severity: Severity::Warning,
        category: Category::Validity,
        summary: "A multi-agent roster in which no agent owns heartbeats.",
        why: "2026.9 accepts the config and warns at every start: with explicit ownership and neither \
              `agents.defaults.heartbeat.agentId` nor `agents.defaults.systemAgent.agentId` set, heartbeats stay \
              off for every agent.",
        example: "agents: { ownership: \"explicit\", entries: { main: {}, work: {} } }",
        fix: "Set `agents.defaults.heartbeat.agentId` (or `agents.defaults.systemAgent.agentId`) to the agent that \
              should run heartbeats.",
        openclaw_check: None,
        applies: Applies::When(|release| release.migrations().validation_warnings.contains_key("heartbeatOwner")),
        needs_valid_config: false,
        check: |ctx, out| validation_warnings(ctx, out, WarningKind::NoHeartbeatOwner),
    },
];

/// Reports the validation issues of some categories, each at the value it is about, with what
/// repairs it. Unknown keys a doctor-fixable legacy rule covers belong to CP108.
fn issues(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>, categories: &[IssueCategory]) {
    let legacy = ctx.legacy_matches();
    for issue in ctx.issues.iter().filter(|i| categories.contains(&i.category)) {
        let object = KeyPath(issue.path.clone());
        if issue.category == IssueCategory::UnknownKey {
            // One finding per key, pointing at the key itself.
            for key in issue.unknown_keys() {
                let path = object.key(key);
                if legacy.iter().any(|m| m.covers(path.segments())) {
                    continue;
                }
                let finding = out.report(&path, format!("{}: unknown key \"{key}\"", issue_path(issue)));
                let hint = issue.help.as_deref().and_then(|h| h.lines().find(|l| l.starts_with(&format!("`{key}`"))));
                finding.kind(ProblemKind::Fatal).help(with_kind(hint, ProblemKind::Fatal));
                let taken = |name: &str| object.lookup(ctx.config()).is_some_and(|o| o.get(name).is_some());
                if let Some(name) = issue.suggested_key(key).filter(|name| !taken(name)) {
                    let edit = ConfigEdit::in_force(path.segments(), Change::RenameKey(name.to_string()));
                    finding.autofix(Autofix::new(format!("rename `{key}` to `{name}`"), Safety::Unsafe, vec![edit]));
                }
            }
            continue;
        }
        let finding =
            out.report(&object, issue.to_string()).kind(issue.kind).help(with_kind(issue.help.as_deref(), issue.kind));
        if let Some(fix) = merge_also_allow(ctx, issue, &object) {
            finding.autofix(fix);
        }
    }
}

/// For `allow` + `alsoAllow` in one scope, the release's first remedy: merge `alsoAllow` into
/// `allow`. It makes a refused config start, so it changes access.
fn merge_also_allow(ctx: &LintContext<'_>, issue: &ValidationIssue, scope: &KeyPath) -> Option<Autofix> {
    let object = scope.lookup(ctx.config())?;
    let (allow, also) = (object.get(keys::ALLOW)?.as_array()?, object.get(keys::ALSO_ALLOW)?.as_array()?);
    if issue.category != IssueCategory::Refinement || !issue.message.contains(keys::ALSO_ALLOW) {
        return None;
    }
    let mut edits: Vec<ConfigEdit> = also
        .iter()
        .filter(|entry| !allow.contains(entry))
        .map(|entry| ConfigEdit::in_force(scope.key(keys::ALLOW).segments(), Change::Append(entry.clone())))
        .collect();
    edits.push(ConfigEdit::in_force(scope.key(keys::ALSO_ALLOW).segments(), Change::Remove));
    Some(Autofix::new("merge `alsoAllow` into `allow`", Safety::Unsafe, edits))
}

/// A finding's help followed by what the kind of problem means.
fn with_kind(help: Option<&str>, kind: ProblemKind) -> String {
    match help {
        Some(help) => format!("{help}\n{}", kind.explanation()),
        None => kind.explanation().to_string(),
    }
}

fn issue_path(issue: &ValidationIssue) -> String {
    let path = issue.dotted_path();
    if path.is_empty() { "<root>".into() } else { path }
}

fn missing_env_vars(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let (consequence, severity) = match ctx.version.loader().env.missing_variable {
        MissingVariable::Refuse => ("the release refuses the config", Severity::Error),
        MissingVariable::KeepLiteralAndWarn => ("the release keeps the literal text", Severity::Warning),
    };
    for missing in ctx.loaded.unset_env_vars() {
        out.report(&KeyPath(missing.path.clone()), format!("${{{}}} is not set: {consequence}", missing.name))
            .severity(severity)
            .help(format!(
                "set {} where the gateway runs, in the config `env` block, or here with --env/--env-file",
                missing.name
            ));
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

/// Every place a doctor-fixable legacy rule matches, with the release's message. Matches a
/// validation issue of CP102–CP105 already reports (with its kind) are left to that rule.
fn legacy_keys(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let reported_elsewhere = |path: &[PathSeg]| {
        ctx.issues
            .iter()
            .any(|i| !matches!(i.category, IssueCategory::UnknownKey | IssueCategory::Legacy) && i.path == path)
    };
    // Renamed tool names in policy lists are CP202's, entry by entry.
    for found in ctx.legacy_matches().iter().filter(|m| m.rule.detector.as_deref() != Some("legacyToolName")) {
        for matched in found.matched.iter().filter(|m| !reported_elsewhere(&m.path)) {
            let path = &matched.path;
            let refused = ctx
                .issues
                .iter()
                .any(|i| i.kind == ProblemKind::Doctor && i.subjects().iter().any(|s| found.covers(s)));
            let release = ctx.version.id();
            let consequence = if refused && ctx.version.lint().gateway_migrates_refused_legacy {
                format!(
                    "OpenClaw {release} refuses it: `openclaw gateway` migrates it and rewrites the file at startup, other \
                     commands stop and ask for `openclaw doctor --fix`"
                )
            } else if refused {
                format!("OpenClaw {release} refuses to start until `openclaw doctor --fix` repairs it")
            } else {
                format!("OpenClaw {release} accepts this as it is; `openclaw doctor --fix` rewrites it")
            };
            let key = KeyPath(path.clone());
            let help = match matched.fix {
                Some(fix) => format!("{fix}\n{consequence}"),
                None => consequence,
            };
            out.report(&key, format!("`{key}`: {}", found.message()))
                .severity(if refused { Severity::Error } else { Severity::Warning })
                .kind(ProblemKind::Doctor)
                .help(help);
        }
    }
}

/// The release's validation warnings of one kind, with its own text, where the setting is written.
fn validation_warnings(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>, kind: WarningKind) {
    let release = ctx.version.id();
    for warning in ctx.validation_warnings.iter().filter(|w| w.kind == kind) {
        let finding = out.report_at(&KeyPath(warning.path.clone()), warning.origin.as_deref(), warning.message.clone());
        finding.help(format!("OpenClaw {release} starts and prints this warning at every start"));
        if let Some(problem) = warning.kind.problem_kind() {
            finding.kind(problem);
        }
    }
}

fn migrated_forms(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for form in ctx.loaded.migrated_forms() {
        let finding = out
            .report_at(&KeyPath(form.path.clone()), form.origin.as_deref(), form.message.clone())
            .kind(ProblemKind::Migrated)
            .help(with_kind(Some(&form.fix), ProblemKind::Migrated));
        if let Some(fix) = &form.autofix {
            finding.autofix(fix.clone());
        }
    }
}
