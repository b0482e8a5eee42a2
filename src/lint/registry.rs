//! The rule registry: every rule's stable code, name, severity, category and documentation.
//! Codes never change meaning once released; retired codes are not reused.

use serde::Serialize;

use super::{Emitter, LintContext};
use crate::OpenClawVersion;
use crate::release::Release;

/// How serious a finding is, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// A better way to write something that works.
    Suggestion,
    /// Works, but probably not as meant (dead entries, typos OpenClaw ignores).
    #[default]
    Warning,
    /// Works as written and exposes more than it should (OpenClaw's audit `warn`).
    Security,
    /// OpenClaw refuses the config, or the exposure is critical (OpenClaw's audit `critical`).
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Suggestion => "suggestion",
            Severity::Warning => "warning",
            Severity::Security => "security",
            Severity::Error => "error",
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What part of the config a rule is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Whether the release accepts the config at all.
    Validity,
    /// Names in allow/deny lists.
    ToolNames,
    /// Entries that can never take effect across the policy layers.
    DeadRules,
    /// Exec security, approvals, safe bins, elevated mode.
    Exec,
    /// Sandbox mode, docker settings, binds.
    Sandbox,
    /// What open groups and DMs can reach.
    Exposure,
    /// Gateway HTTP, hooks, browser and other control surfaces.
    Gateway,
    /// The models agents run on: legacy, weak and small models.
    Models,
    /// The install's files: permissions of the config and state, recorded plugin and hook installs.
    Install,
}

impl Category {
    pub fn title(self) -> &'static str {
        match self {
            Category::Validity => "Config validity",
            Category::ToolNames => "Tool names",
            Category::DeadRules => "Dead and contradictory rules",
            Category::Exec => "Exec and approvals",
            Category::Sandbox => "Sandbox",
            Category::Exposure => "Exposure to open channels",
            Category::Gateway => "Gateway, hooks and browser",
            Category::Models => "Models",
            Category::Install => "Install files and records",
        }
    }
}

/// One lint rule.
pub struct Rule {
    /// Stable code: `CP` + category digit + number (`CP201`).
    pub code: &'static str,
    /// Stable kebab-case name (`unknown-tool`); accepted wherever a code is.
    pub name: &'static str,
    pub severity: Severity,
    pub category: Category,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// Why it matters.
    pub why: &'static str,
    /// A config snippet (JSON5: an object's body, or a whole object) that triggers the rule on every
    /// release it applies to (a test checks it). Lines `// OpenClaw <line>:` (or several lines,
    /// `// OpenClaw 2026.5, 2026.3, 2026.2:`) start the form those releases need; `// env: NAME=VALUE` sets a variable of the gateway's environment;
    /// `// exec approvals store: {…}` gives the approvals document; `// cron jobs store: […]` the
    /// stored jobs. Examples of the install's files describe them in a comment.
    pub example: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    /// The `openclaw security audit` checkId this rule mirrors (`<provider>` templated).
    pub openclaw_check: Option<&'static str>,
    /// The releases the rule applies to.
    pub applies: Applies,
    /// Whether the rule only makes sense on a config the release accepts.
    pub needs_valid_config: bool,
    pub check: fn(&LintContext<'_>, &mut Emitter<'_, '_>),
}

/// Which releases a rule applies to, asked of each release's data.
#[derive(Clone, Copy)]
pub enum Applies {
    /// Every release.
    Always,
    /// Releases whose security audit runs the rule's `openclaw_check` (`lint.json` → `auditChecks`).
    WhereAuditRuns,
    /// Releases that behave as the rule describes.
    When(fn(&Release) -> bool),
}

impl Rule {
    /// Whether the rule applies to `version`.
    pub fn applies_to(&self, version: OpenClawVersion) -> bool {
        match self.applies {
            Applies::Always => true,
            Applies::WhereAuditRuns => {
                self.openclaw_check.is_some_and(|check| version.lint().audit_checks.contains(check))
            }
            Applies::When(applies) => applies(version.data()),
        }
    }

    /// The releases the rule applies to, newest first.
    pub fn versions(&self) -> Vec<OpenClawVersion> {
        OpenClawVersion::ALL.into_iter().filter(|v| self.applies_to(*v)).collect()
    }

    /// Whether `name` is this rule's code or name (codes case-insensitively).
    pub fn is_named(&self, name: &str) -> bool {
        self.code.eq_ignore_ascii_case(name) || self.name == name
    }

    /// The anchor of the rule in docs/rules.md.
    pub fn anchor(&self) -> String {
        format!("{}-{}", self.code.to_ascii_lowercase(), self.name)
    }
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rule({} {})", self.code, self.name)
    }
}

/// Codes no longer in use, with why: never given to another rule.
pub const RETIRED: &[(&str, &str)] = &[
    (
        "CP502",
        "sandbox-bind-not-absolute: both releases refuse a non-absolute bind source at load, which CP105 \
         reports; the audit check never sees an accepted config with one",
    ),
    ("CP505", "sandbox-seccomp-unconfined: both releases refuse `seccompProfile: \"unconfined\"` at load (CP105)"),
    ("CP506", "sandbox-apparmor-unconfined: both releases refuse `apparmorProfile: \"unconfined\"` at load (CP105)"),
];

/// What to say of a name that is no rule: retired, or unknown.
pub fn no_rule_message(name: &str) -> String {
    match RETIRED.iter().find(|(code, _)| code.eq_ignore_ascii_case(name)) {
        Some((code, why)) => format!("{code} is retired ({why})"),
        None => format!("no rule is called `{name}`"),
    }
}
