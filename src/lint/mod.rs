//! `clawpolicy lint`: a registry of rules with stable codes, run over a loaded config. Rules see
//! the config through [`LintContext`] (values, provenance, validation issues, the resolver) and
//! report through an [`Emitter`], which stamps every finding with its rule and location.

pub mod docs;
mod registry;
mod rules;
pub mod suppress;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;

pub use registry::{Category, Rule, Severity, no_rule_message};
pub use rules::{all_rules, find_rule};

use crate::OpenClawVersion;
use crate::config::edit::Autofix;
use crate::config::path::KeyPath;
use crate::config::validate::ValidationIssue;
use crate::config::{ConfigWarning, LoadedConfig, ProblemKind};
use crate::exec::approvals::LoadedApprovals;
use crate::policy::{Resolution, SandboxChoice, SessionContext};
use crate::release::pack::VersionPack;

/// Where a finding points: the file and position of the value, with the span for snippets.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// The config key path (`tools.deny[0]`), as every command prints key paths.
    pub path: String,
    #[serde(skip)]
    pub origin: Option<crate::config::source::Origin>,
}

impl Location {
    fn of(origin: &crate::config::source::Origin, path: &KeyPath) -> Self {
        Location {
            file: origin.file().display().to_string(),
            line: origin.line,
            column: origin.column,
            path: path.to_string(),
            origin: Some(origin.clone()),
        }
    }
}

/// One problem a rule found.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub code: &'static str,
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
    /// The key path the finding is about (even when no file location is known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// How to fix this occurrence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// OpenClaw's `security audit` checkId this finding mirrors, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openclaw_check: Option<String>,
    /// The agent the finding is about, for findings computed per agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// For config problems: `migrated`, `doctor` or `fatal` (what the release does about it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<ProblemKind>,
    /// The edit that fixes this occurrence, where it is exact (`clawpolicy fix` applies it).
    #[serde(rename = "fix", skip_serializing_if = "Option::is_none")]
    pub autofix: Option<Autofix>,
}

impl Finding {
    pub fn help(&mut self, help: impl Into<String>) -> &mut Self {
        self.help = Some(help.into());
        self
    }

    /// Findings whose severity depends on the situation (OpenClaw's critical-vs-warn checks).
    pub fn severity(&mut self, severity: Severity) -> &mut Self {
        self.severity = severity;
        self
    }

    /// What the release does about the config problem this finding reports.
    pub fn kind(&mut self, kind: ProblemKind) -> &mut Self {
        self.kind = Some(kind);
        self
    }

    pub fn agent(&mut self, agent: impl Into<String>) -> &mut Self {
        self.agent = Some(agent.into());
        self
    }

    /// The machine-applicable edit that fixes this occurrence.
    pub fn autofix(&mut self, autofix: Autofix) -> &mut Self {
        self.autofix = Some(autofix);
        self
    }

    /// A templated checkId (`tools.elevated.allowFrom.telegram.wildcard`).
    pub fn check_id(&mut self, id: impl Into<String>) -> &mut Self {
        self.openclaw_check = Some(id.into());
        self
    }
}

/// What a rule can see of the config.
pub struct LintContext<'a> {
    pub version: OpenClawVersion,
    pub pack: &'static VersionPack,
    pub loaded: &'a LoadedConfig,
    /// What the release would reject; empty means OpenClaw accepts the config.
    pub issues: &'a [ValidationIssue],
    /// The exec approvals store, when one was found or given.
    pub approvals: Option<&'a LoadedApprovals>,
    /// Warnings the release's validation adds to the config (ignored plugin settings, a roster
    /// without a heartbeat owner), besides the loader's own ([`LoadedConfig::warnings`]).
    pub validation_warnings: &'a [ConfigWarning],
    /// The stored cron jobs, when a jobs store was found or given.
    pub jobs: &'a [crate::policy::automation::jobs::CronJob],
    /// Each agent's main session, resolved once on first use and shared by every rule.
    main_sessions: OnceLock<BTreeMap<String, Resolution>>,
    /// Each agent's session with the sandbox forced on, likewise.
    sandboxed_sessions: OnceLock<BTreeMap<String, Resolution>>,
    /// The roster, indexed once for every session resolved.
    roster: OnceLock<crate::policy::Roster<'a>>,
    /// The agents the rules walk ([`rules::walk::agents`]), listed once.
    agents: OnceLock<Vec<rules::walk::Agent>>,
    /// A saved `openclaw mcp probe --json`: the MCP server tools present at runtime.
    pub mcp_probe: Option<&'a crate::policy::mcp::McpProbe>,
    /// The sessions the MCP rules check, resolved once with the MCP tools declared.
    mcp_sessions: OnceLock<rules::mcp::McpSessions>,
    /// The release's doctor-fixable legacy rules that match the config, found once for the rules
    /// that read them.
    legacy_matches: OnceLock<Vec<crate::config::migrate::legacy::LegacyMatch>>,
    /// The audit's tool contexts (`agents.defaults` and each agent), built once for the rules
    /// that check them.
    tool_contexts: OnceLock<Vec<rules::audit::ToolContext>>,
}

impl<'a> LintContext<'a> {
    pub fn new(
        version: OpenClawVersion,
        loaded: &'a LoadedConfig,
        issues: &'a [ValidationIssue],
        approvals: Option<&'a LoadedApprovals>,
    ) -> Self {
        LintContext {
            version,
            pack: version.policy(),
            loaded,
            issues,
            approvals,
            validation_warnings: &[],
            jobs: &[],
            main_sessions: OnceLock::new(),
            sandboxed_sessions: OnceLock::new(),
            roster: OnceLock::new(),
            agents: OnceLock::new(),
            mcp_probe: None,
            mcp_sessions: OnceLock::new(),
            legacy_matches: OnceLock::new(),
            tool_contexts: OnceLock::new(),
        }
    }

    /// The same context, with the MCP server tools of a saved probe.
    pub fn with_mcp_probe(self, probe: Option<&'a crate::policy::mcp::McpProbe>) -> Self {
        LintContext { mcp_probe: probe, ..self }
    }

    /// The same context, with the warnings the release's validation adds to the config.
    pub fn with_validation_warnings(self, warnings: &'a [ConfigWarning]) -> Self {
        LintContext { validation_warnings: warnings, ..self }
    }

    /// The same context, with the stored cron jobs whose runs the automation rules check.
    pub fn with_jobs(self, jobs: &'a [crate::policy::automation::jobs::CronJob]) -> Self {
        LintContext { jobs, ..self }
    }

    pub fn config(&self) -> &'a Value {
        self.loaded.value()
    }

    /// The value at a path given as keys: `ctx.get(&["tools", "exec", "security"])`.
    pub fn get(&self, keys: &[&str]) -> Option<&'a Value> {
        KeyPath::keys(keys).lookup(self.config())
    }

    /// Runs the resolver, the same one `tools` and `explain` use. `None` when the context
    /// cannot be resolved (rules then have nothing to say about it).
    fn resolve(&self, session: &SessionContext) -> Option<Resolution> {
        crate::policy::resolve_in(self.version, self.config(), self.roster(), session).ok()
    }

    /// The doctor-fixable legacy rules that match the config as the release validates it.
    pub fn legacy_matches(&self) -> &[crate::config::migrate::legacy::LegacyMatch] {
        self.legacy_matches.get_or_init(|| {
            crate::config::migrate::legacy::find(self.config(), || self.loaded.authored(), self.version)
        })
    }

    /// The audit's tool contexts: `agents.defaults`, then each agent's main session.
    pub fn tool_contexts(&self) -> &[rules::audit::ToolContext] {
        self.tool_contexts.get_or_init(|| rules::audit::tool_contexts(self))
    }

    /// The roster, indexed by agent id on first use.
    pub fn roster(&self) -> &crate::policy::Roster<'a> {
        self.roster.get_or_init(|| crate::policy::Roster::new(self.config(), self.version))
    }

    /// An agent's exec settings as the config requests them (no what-if).
    pub fn exec_settings(&self, agent: &str) -> crate::exec::settings::RequestedSettings {
        let what_if = crate::exec::WhatIf::default();
        crate::exec::settings::resolve_in(self.roster().agents(), self.config(), agent, &what_if, self.version)
    }

    /// The resolution of an agent's main session (`None` when it cannot be resolved).
    pub fn main_resolution(&self, agent: &str) -> Option<&Resolution> {
        self.agent_sessions(&self.main_sessions, SandboxChoice::Auto).get(agent)
    }

    /// The resolution of an agent's session with the sandbox forced on.
    pub fn sandboxed_resolution(&self, agent: &str) -> Option<&Resolution> {
        self.agent_sessions(&self.sandboxed_sessions, SandboxChoice::On).get(agent)
    }

    /// An agent's resolved sandbox mode, from its main session.
    pub fn sandbox_mode(&self, agent: &str) -> Option<String> {
        self.main_resolution(agent).map(|r| r.sandbox.mode.clone())
    }

    fn agent_sessions<'s>(
        &'s self,
        cell: &'s OnceLock<BTreeMap<String, Resolution>>,
        sandbox: SandboxChoice,
    ) -> &'s BTreeMap<String, Resolution> {
        cell.get_or_init(|| {
            let agents = rules::walk::agents(self);
            let resolved = crate::base::parallel::par_map(agents, |agent| {
                let session = SessionContext { sandbox, ..rules::walk::main_session(&agent.id) };
                let resolution = self.resolve(&session)?;
                // A spawn from a main session that can spawn (the spawn rules resolve each) need not
                // resolve the session again.
                let can_spawn = resolution.tools.iter().any(|t| t == crate::policy::spawn::SPAWN_TOOL);
                if matches!(sandbox, SandboxChoice::Auto) && can_spawn {
                    crate::policy::remember_requester(self.version, self.roster(), &session, &resolution);
                }
                Some(resolution)
            });
            let resolved = agents.iter().zip(resolved);
            resolved.filter_map(|(agent, resolution)| Some((agent.id.clone(), resolution?))).collect()
        })
    }

    fn locate(&self, path: &KeyPath) -> Option<Location> {
        let origin = self.loaded.origin(path.segments()).or_else(|| self.loaded.nearest_origin(path.segments()))?;
        Some(Location::of(&origin, path))
    }
}

/// Collects the findings of one rule.
pub struct Emitter<'c, 'a> {
    rule: &'static Rule,
    ctx: &'c LintContext<'a>,
    findings: Vec<Finding>,
    /// What the run keeps of what the rule reports, and what it only counts.
    keep: &'c Keep<'c>,
    kept_per_file: HashMap<String, usize>,
    omitted: BTreeMap<(String, Severity), usize>,
}

/// What a run keeps of each rule's findings: those at or above the severity asked for, and of
/// them at most [`Selection::finding_cap`] per file (suppressed findings aside, so that they
/// are still reported as suppressed); the rest is counted as it is reported, never held.
struct Keep<'s> {
    severity_min: Severity,
    cap: Option<usize>,
    suppressions: &'s suppress::Suppressions,
}

impl Emitter<'_, '_> {
    /// Decides on the finding reported last, now that its reporter has set its severity.
    fn settle_last(&mut self) {
        let Some(last) = self.findings.last() else { return };
        if last.severity < self.keep.severity_min {
            self.findings.pop();
            return;
        }
        let Some(cap) = self.keep.cap else { return };
        let file = last.location.as_ref().map(|l| l.file.clone()).unwrap_or_default();
        if self.keep.suppressions.suppresses(last) {
            return;
        }
        let kept = self.kept_per_file.entry(file.clone()).or_default();
        if *kept < cap {
            *kept += 1;
            return;
        }
        *self.omitted.entry((file, last.severity)).or_default() += 1;
        self.findings.pop();
    }

    /// Reports a problem about the value at `path`.
    pub fn report(&mut self, path: &KeyPath, message: impl Into<String>) -> &mut Finding {
        let location = self.ctx.locate(path);
        self.push(Some(path), location, message.into())
    }

    /// Reports a problem whose location is known from the loader (a duplicate key inside a file,
    /// where the resolved config has only the surviving value).
    pub fn report_at(
        &mut self,
        path: &KeyPath,
        origin: Option<&crate::config::source::Origin>,
        message: impl Into<String>,
    ) -> &mut Finding {
        let location = match origin {
            Some(origin) => Some(Location::of(origin, path)),
            None => self.ctx.locate(path),
        };
        self.push(Some(path), location, message.into())
    }

    /// Reports a problem about a value in a file of the install that is not a config file (a
    /// store, a package manifest): located at the file's start, with `path` naming the value.
    pub fn report_file(&mut self, file: &std::path::Path, path: &str, message: impl Into<String>) -> &mut Finding {
        let location =
            Location { file: file.display().to_string(), line: 1, column: 1, path: path.to_string(), origin: None };
        let finding = self.push(None, Some(location), message.into());
        finding.path = Some(path.to_string());
        finding
    }

    /// Reports a problem about the config as a whole (no single value to point at).
    pub fn report_global(&mut self, message: impl Into<String>) -> &mut Finding {
        self.push(None, None, message.into())
    }

    fn push(&mut self, path: Option<&KeyPath>, location: Option<Location>, message: String) -> &mut Finding {
        self.settle_last();
        self.findings.push(Finding {
            code: self.rule.code,
            rule: self.rule.name,
            severity: self.rule.severity,
            message,
            path: path.map(ToString::to_string),
            location,
            help: None,
            openclaw_check: self.rule.openclaw_check.map(str::to_string),
            agent: None,
            kind: None,
            autofix: None,
        });
        self.findings.last_mut().expect("just pushed")
    }
}

/// Which findings to keep.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Findings below this severity are dropped.
    pub severity_min: Severity,
    /// Only these rules (codes or names); empty = all.
    pub only: Vec<String>,
    /// Never these rules (codes or names).
    pub skip: Vec<String>,
    /// At most this many findings of one rule in one file are kept; the others are counted
    /// ([`LintReport::omitted`]). `None` keeps every finding.
    pub finding_cap: Option<usize>,
}

/// The findings of one rule in one file that `lint` shows by default; `--all-findings` shows
/// every one. A config can make a rule report hundreds of thousands (a deny list of as many
/// unknown names), which nobody reads and which would cost memory and output in proportion.
pub const FINDINGS_PER_RULE_AND_FILE: usize = 100;

/// Findings of one rule, in one file, at one severity, that were counted but not kept.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OmittedFindings {
    pub code: &'static str,
    /// Empty for findings about the config as a whole.
    pub file: String,
    pub severity: Severity,
    pub count: usize,
    /// What to tell the reader: how many, of which rule, and how to see them.
    pub note: String,
}

impl OmittedFindings {
    fn new(code: &'static str, file: String, severity: Severity, count: usize) -> Self {
        let place = if file.is_empty() { String::new() } else { format!(" in {file}") };
        let noun = if count == 1 { "finding" } else { "findings" };
        let note = format!(
            "{count} more {severity} {noun} of {code}{place} not shown (at most {FINDINGS_PER_RULE_AND_FILE} per rule and file); --all-findings shows every one"
        );
        OmittedFindings { code, file, severity, count, note }
    }
}

impl Selection {
    fn selects(&self, rule: &Rule) -> bool {
        let named = |list: &[String]| list.iter().any(|s| rule.is_named(s));
        (self.only.is_empty() || named(&self.only)) && !named(&self.skip)
    }

    /// Codes or names given to `--only`/`--skip` that name no rule.
    pub fn unknown_rule_names(&self) -> Vec<String> {
        self.only.iter().chain(&self.skip).filter(|s| find_rule(s).is_none()).cloned().collect()
    }
}

/// A rule that did not run, and why.
#[derive(Debug, Clone, Serialize)]
pub struct SkippedRule {
    pub code: &'static str,
    pub reason: String,
}

/// The result of linting one config.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LintReport {
    pub openclaw_version: OpenClawVersion,
    /// The config files linted (overlays in order).
    pub files: Vec<String>,
    pub findings: Vec<Finding>,
    pub suppressed: Vec<suppress::SuppressedFinding>,
    /// Rules that could not run on this input.
    pub skipped: Vec<SkippedRule>,
    pub rules_run: usize,
    /// Findings beyond [`Selection::finding_cap`], counted by rule, file and severity.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub omitted: Vec<OmittedFindings>,
}

impl LintReport {
    /// The highest severity among unsuppressed findings.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// Unsuppressed findings of `severity`, those omitted from the report included.
    pub fn count(&self, severity: Severity) -> usize {
        let omitted: usize = self.omitted.iter().filter(|o| o.severity == severity).map(|o| o.count).sum();
        self.findings.iter().filter(|f| f.severity == severity).count() + omitted
    }
}

/// Runs the selected rules. Rules that need a config OpenClaw accepts are skipped (and listed)
/// when it would refuse it: their answers would describe a gateway that never starts.
pub fn lint(ctx: &LintContext<'_>, selection: &Selection, suppressions: &suppress::Suppressions) -> LintReport {
    let mut findings = Vec::new();
    let mut skipped = Vec::new();
    let mut rules_run = 0;
    let mut omitted = Vec::new();
    let keep = Keep { severity_min: selection.severity_min, cap: selection.finding_cap, suppressions };
    for &rule in all_rules().iter().filter(|r| selection.selects(r)) {
        if !rule.applies_to(ctx.version) {
            continue;
        }
        if rule.needs_valid_config && !ctx.issues.is_empty() {
            skipped.push(SkippedRule {
                code: rule.code,
                reason: format!("OpenClaw {} would refuse this config; fix the config errors first", ctx.version),
            });
            continue;
        }
        let mut emitter = Emitter {
            rule,
            ctx,
            findings: Vec::new(),
            keep: &keep,
            kept_per_file: HashMap::new(),
            omitted: BTreeMap::new(),
        };
        (rule.check)(ctx, &mut emitter);
        emitter.settle_last();
        rules_run += 1;
        findings.extend(emitter.findings.into_iter().map(|finding| mask_secrets(ctx, finding)));
        omitted.extend(
            emitter
                .omitted
                .into_iter()
                .map(|((file, severity), count)| OmittedFindings::new(rule.code, file, severity, count)),
        );
    }
    findings.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
    dedup_findings(&mut findings);
    let (findings, suppressed) = suppressions.apply(findings);
    LintReport {
        openclaw_version: ctx.version,
        files: ctx.loaded.config_paths().iter().map(|p| p.display().to_string()).collect(),
        findings,
        suppressed,
        skipped,
        rules_run,
        omitted,
    }
}

/// A finding whose message and help repeat no secret of the config (a value substituted from
/// the environment or the `env` block, a URL password, a token).
fn mask_secrets(ctx: &LintContext<'_>, mut finding: Finding) -> Finding {
    finding.message = ctx.loaded.mask_secrets(&finding.message);
    finding.help = finding.help.map(|help| ctx.loaded.mask_secrets(&help));
    finding
}

/// The rule codes a config OpenClaw accepts produces, at every severity and without
/// suppressions: what policy test suites assert on.
pub fn finding_codes(version: OpenClawVersion, files: &crate::config::loading::LoadedFiles) -> Vec<String> {
    let ctx = LintContext::new(version, files.loaded(), &[], None);
    let selection = Selection { severity_min: Severity::Suggestion, ..Selection::default() };
    lint(&ctx, &selection, &suppress::Suppressions::default()).findings.iter().map(|f| f.code.to_string()).collect()
}

fn sort_key(f: &Finding) -> (String, usize, usize, &'static str, String) {
    let (file, line, column) =
        f.location.as_ref().map_or((String::new(), 0, 0), |l| (l.file.clone(), l.line, l.column));
    (file, line, column, f.code, f.message.clone())
}

/// Two rules never report the same thing twice at one place, but one rule may reach a value
/// through two scopes; keep one.
fn dedup_findings(findings: &mut Vec<Finding>) {
    let mut seen = BTreeSet::new();
    findings.retain(|f| seen.insert((f.code, f.path.clone(), f.message.clone())));
}

#[cfg(test)]
mod tests;
