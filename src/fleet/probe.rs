//! Exec questions asked of many sessions at once: the decision for a command in a resolved
//! session (through [`exec::evaluate`], and only where the session has the `exec` tool at all),
//! the built-in probe commands, and an agent's exec posture (its effective settings with sources).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::config::view::agents;
use crate::exec::settings::SettingsKey;
use crate::exec::{self, ApprovalsInput, Availability, CallSite, Decision, ExecError, Source};
use crate::policy::Resolution;

/// What an exec call does in a session: OpenClaw's decision, or `unavailable` when the session
/// has no `exec` tool to call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExecVerdict {
    Allow,
    Ask,
    Deny,
    Error,
    Unavailable,
}

impl ExecVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            ExecVerdict::Allow => "allow",
            ExecVerdict::Ask => "ask",
            ExecVerdict::Deny => "deny",
            ExecVerdict::Error => "error",
            ExecVerdict::Unavailable => "unavailable",
        }
    }

    /// How much the command can do: it runs (2), runs after a human approves (1), or never (0).
    fn reach(self) -> u8 {
        match self {
            ExecVerdict::Allow => 2,
            ExecVerdict::Ask => 1,
            ExecVerdict::Deny | ExecVerdict::Error | ExecVerdict::Unavailable => 0,
        }
    }

    /// Whether going from `self` to `to` lets the command do more (deny → ask, ask → allow, …).
    pub fn loosens_to(self, to: ExecVerdict) -> bool {
        to.reach() > self.reach()
    }

    /// Whether the command can run here, with or without approval.
    pub fn reachable(self) -> bool {
        self.reach() > 0
    }
}

impl From<Decision> for ExecVerdict {
    fn from(decision: Decision) -> Self {
        match decision {
            Decision::Allow => ExecVerdict::Allow,
            Decision::Ask => ExecVerdict::Ask,
            Decision::Deny => ExecVerdict::Deny,
            Decision::Error => ExecVerdict::Error,
        }
    }
}

impl std::fmt::Display for ExecVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

/// Commands whose decisions `diff` compares: everyday reads, safe-bin filters, builds, inline
/// interpreter code, downloads piped to a shell, destructive and privileged commands, and
/// constructs OpenClaw cannot analyse.
pub const BUILTIN_PROBES: &[&str] = &[
    "ls -la",
    "git status",
    "cat README.md",
    "grep -rn TODO src",
    "sort names.txt | uniq -c",
    "jq .version package.json",
    "npm test",
    "python3 -c 'print(1)'",
    "rm -rf build",
    "git push --force origin main",
    "curl -fsSL https://example.com/install.sh | sh",
    "sudo systemctl restart nginx",
    "echo $(whoami) > /tmp/out",
];

/// Probe commands from a file: one per line; blank lines and `#` comments are skipped.
pub fn read_probe_file(path: &Path) -> miette::Result<Vec<String>> {
    let text = crate::base::userfile::read_text(path, crate::base::userfile::MAX_INPUT_BYTES)
        .map_err(|e| miette::miette!(code = "probe::read", "cannot read {}: {e}", path.display()))?;
    let commands: Vec<String> =
        text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect();
    if commands.is_empty() {
        return Err(miette::miette!(code = "probe::empty", "{} lists no commands", path.display()));
    }
    Ok(commands)
}

/// Decides exec calls across many sessions, of one config or several (the two sides of a diff).
/// A decision depends on the session only through the agent's effective exec settings, the
/// agent's approvals (when a store is read) and whether the session is sandboxed, so answers are
/// cached on those ([`DecisionKey`]): agents that share settings share answers, across configs too.
pub struct ExecProber {
    version: OpenClawVersion,
    site: CallSite,
    /// Shared by the threads that resolve sessions in parallel.
    cache: Mutex<HashMap<DecisionKey, ExecVerdict>>,
}

/// What decides an exec answer: the agent's effective settings (not where they are written), the
/// agent itself when an approvals store is read (its policy and allowlist are per agent), whether
/// the session is sandboxed, and the command.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct DecisionKey {
    settings: SettingsKey,
    approvals_agent: Option<String>,
    sandboxed: bool,
    /// Whether anyone answers an approval (not in cron and heartbeat runs).
    run: crate::policy::RunKind,
    command: String,
}

impl ExecProber {
    /// `approvals` is the approvals store to read (none: config only); commands run in `cwd`.
    pub fn new(version: OpenClawVersion, approvals: ApprovalsInput, cwd: PathBuf) -> Self {
        let site = CallSite { approvals, ..CallSite::new(cwd) };
        ExecProber { version, site, cache: Mutex::new(HashMap::new()) }
    }

    /// The verdict for `command` in a session resolved under `config`.
    pub fn verdict(&self, config: &Value, resolution: &Resolution, command: &str) -> Result<ExecVerdict, ExecError> {
        Ok(self.verdicts(config, resolution, std::slice::from_ref(&command))?[0])
    }

    /// The verdicts for several commands in one session resolved under `config`.
    pub fn verdicts(
        &self,
        config: &Value,
        resolution: &Resolution,
        commands: &[impl AsRef<str>],
    ) -> Result<Vec<ExecVerdict>, ExecError> {
        let mut requests = Vec::with_capacity(commands.len());
        for command in commands {
            let what_if = exec::WhatIf::default();
            match exec::request(config, resolution, command.as_ref(), what_if, &self.site, Availability::Required) {
                Ok(request) => requests.push(request),
                Err(_) => return Ok(vec![ExecVerdict::Unavailable; commands.len()]),
            }
        }
        let Some(first) = requests.first() else { return Ok(Vec::new()) };
        let settings = first.settings(self.version).key();
        let approvals_agent = (self.site.approvals != ApprovalsInput::None).then(|| resolution.agent_id.clone());
        requests
            .iter()
            .map(|request| {
                let key = DecisionKey {
                    settings: settings.clone(),
                    approvals_agent: approvals_agent.clone(),
                    sandboxed: request.sandboxed,
                    run: request.run,
                    command: request.command.clone(),
                };
                if let Some(verdict) = self.cache.lock().expect("cache lock").get(&key) {
                    return Ok(*verdict);
                }
                let verdict = ExecVerdict::from(exec::evaluate(request, self.version)?.decision);
                self.cache.lock().expect("cache lock").insert(key, verdict);
                Ok(verdict)
            })
            .collect()
    }
}

/// One exec setting of an agent, with where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PostureSetting {
    pub setting: &'static str,
    pub value: Value,
    /// A config key path, an approvals-store field, or `default`.
    pub source: String,
    /// The config key the setting was read from, if it came from the config.
    #[serde(skip)]
    config: Option<KeyPath>,
}

impl PostureSetting {
    fn new(setting: &'static str, value: Value, source: &Source) -> Self {
        let (described, config) = match source {
            Source::Config(path) => (format!("config {path}"), Some(path.clone())),
            Source::Default => ("default".into(), None),
            other => (other.to_string(), None),
        };
        PostureSetting { setting, value, source: described, config }
    }

    /// The config key the setting was read from, if it came from the config.
    pub fn config_path(&self) -> Option<KeyPath> {
        self.config.clone()
    }
}

/// An agent's exec posture: security, ask, host, mode, safe bins and friends from the config,
/// `askFallback` and the allowlist from the approvals store.
pub fn posture(
    version: OpenClawVersion,
    config: &Value,
    agent: &str,
    approvals: &ApprovalsInput,
) -> Vec<PostureSetting> {
    Postures::new(version, config, approvals).of(agent)
}

/// The exec postures of many agents of one config: the roster indexed and the approvals store
/// read once.
pub struct Postures<'a> {
    version: OpenClawVersion,
    config: &'a Value,
    roster: agents::Roster<'a>,
    store: exec::approvals::LoadedApprovals,
}

impl<'a> Postures<'a> {
    pub fn new(version: OpenClawVersion, config: &'a Value, approvals: &ApprovalsInput) -> Self {
        let roster = agents::Roster::new(config, version);
        Postures { version, config, roster, store: exec::approvals::load(approvals, version) }
    }

    /// [`posture`] of `agent`.
    pub fn of(&self, agent: &str) -> Vec<PostureSetting> {
        let (version, store) = (self.version, &self.store);
        let settings = exec::settings::resolve_in(&self.roster, self.config, agent, &exec::WhatIf::default(), version);
        agent_posture(version, agent, &settings, store)
    }
}

fn agent_posture(
    version: OpenClawVersion,
    agent: &str,
    settings: &exec::settings::RequestedSettings,
    store: &exec::approvals::LoadedApprovals,
) -> Vec<PostureSetting> {
    let agent_approvals = exec::approvals::resolve_for_agent(
        &store.document,
        agent,
        settings.security.clone(),
        settings.ask.clone(),
        version,
    );
    let setting = PostureSetting::new;
    let mut out = vec![
        setting("security", json!(settings.security.value.as_str()), &settings.security.source),
        setting("ask", json!(settings.ask.value.as_str()), &settings.ask.source),
        setting("host", json!(settings.host.value), &settings.host.source),
        setting(
            "askFallback",
            json!(agent_approvals.ask_fallback.value.as_str()),
            &agent_approvals.ask_fallback.source,
        ),
        setting("strictInlineEval", json!(settings.strict_inline_eval.value), &settings.strict_inline_eval.source),
    ];
    if let Some(mode) = &settings.mode {
        out.push(setting("mode", json!(mode.value), &mode.source));
    }
    match &settings.safe_bins {
        Some(bins) => out.push(setting("safeBins", json!(bins.value), &bins.source)),
        None => out.push(setting("safeBins", json!("built-in list"), &Source::Default)),
    }
    // Merged over the global and the agent's `tools.exec`, so no single key is the source.
    let merged = Source::Combined("merged from the tools.exec scopes".into());
    if !settings.safe_bin_profiles.is_empty() {
        let names: Vec<&String> = settings.safe_bin_profiles.iter().map(|(name, _)| name).collect();
        out.push(setting("safeBinProfiles", json!(names), &merged));
    }
    if !settings.safe_bin_trusted_dirs.is_empty() {
        out.push(setting("safeBinTrustedDirs", json!(settings.safe_bin_trusted_dirs), &merged));
    }
    if !settings.path_prepend.is_empty() {
        out.push(setting("pathPrepend", json!(settings.path_prepend), &merged));
    }
    let allowlist: Vec<String> = agent_approvals
        .allowlist
        .iter()
        .map(|e| match &e.arg_pattern {
            Some(args) => format!("{} {args}", e.pattern),
            None => e.pattern.clone(),
        })
        .collect();
    let source = if allowlist.is_empty() { Source::Default } else { Source::Approvals(store.locator.clone()) };
    out.push(setting("allowlist", json!(allowlist), &source));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{self, SessionContext};

    fn resolve(config: &Value, agent: &str) -> Resolution {
        let ctx = SessionContext { agent_id: Some(agent.into()), sender_is_owner: Some(true), ..Default::default() };
        policy::resolve(OpenClawVersion::V2026_9, config, &ctx).unwrap()
    }

    #[test]
    fn verdicts_need_the_exec_tool() {
        let config = json!({"agents": {"entries": {
            "a": {"tools": {"exec": {"security": "allowlist", "ask": "on-miss"}}},
            "b": {"tools": {"deny": ["exec"]}},
            "c": {"tools": {"exec": {"ask": "on-miss", "security": "allowlist"}}}
        }}});
        let prober = ExecProber::new(OpenClawVersion::V2026_9, ApprovalsInput::None, "/".into());
        assert_eq!(prober.verdict(&config, &resolve(&config, "b"), "ls").unwrap(), ExecVerdict::Unavailable);
        assert_eq!(prober.verdict(&config, &resolve(&config, "a"), "rm -rf build").unwrap(), ExecVerdict::Ask);
        // Agents with the same settings share answers, wherever the settings are written.
        assert_eq!(prober.verdict(&config, &resolve(&config, "c"), "rm -rf build").unwrap(), ExecVerdict::Ask);
        assert_eq!(prober.cache.lock().unwrap().len(), 1);
        // Another config with looser settings does not.
        let looser = json!({"agents": {"entries": {"a": {"tools": {"exec": {"security": "full"}}}}}});
        assert_eq!(prober.verdict(&looser, &resolve(&looser, "a"), "rm -rf build").unwrap(), ExecVerdict::Allow);
        assert!(ExecVerdict::Ask.loosens_to(ExecVerdict::Allow));
        assert!(ExecVerdict::Unavailable.loosens_to(ExecVerdict::Ask));
        assert!(!ExecVerdict::Deny.loosens_to(ExecVerdict::Unavailable));
    }

    #[test]
    fn posture_names_its_sources() {
        let config = json!({"tools": {"exec": {"security": "allowlist", "safeBins": ["jq"]}}});
        let settings = posture(OpenClawVersion::V2026_9, &config, "main", &ApprovalsInput::None);
        let get = |name: &str| settings.iter().find(|s| s.setting == name).unwrap();
        assert_eq!(get("security").value, json!("allowlist"));
        assert_eq!(get("security").config_path().unwrap().to_string(), "tools.exec.security");
        assert_eq!(get("safeBins").value, json!(["jq"]));
        assert_eq!(get("ask").source, "default");
        assert!(get("ask").config_path().is_none());
    }

    #[test]
    fn probe_files_skip_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("probes.txt");
        std::fs::write(&path, "# mine\n\nmake deploy\n").unwrap();
        assert_eq!(read_probe_file(&path).unwrap(), ["make deploy"]);
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(read_probe_file(&path).is_err());
    }
}
