//! Policy test suites: YAML files of cases, each a session (the same fields as the session
//! context flags) and what must hold there (tools present, absent or exactly, the step that
//! removes a tool, exec decisions, lint findings). [`run`] checks them through the one resolver,
//! [`coverage`] reports which enumerated sessions they exercised, [`bless`] writes the current
//! behaviour back. The format is published as a JSON Schema ([`schema`],
//! `docs/suite.schema.json`).

pub mod bless;
pub mod coverage;
pub mod run;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fleet::probe::ExecVerdict;
use crate::policy::{RunKind, SandboxChoice, SessionContext};

/// A policy test suite.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[schemars(title = "clawpolicy policy test suite")]
pub struct Suite {
    /// Editors' schema reference; ignored by clawpolicy.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// The OpenClaw release to simulate (`2026.9`, `2026.2`); default: `--openclaw-version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openclaw_version: Option<String>,
    /// Config files for every case (later files overlay earlier ones), relative to the suite file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<PathBuf>,
    pub cases: Vec<Case>,
}

/// One session and what must hold in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Case {
    /// Unique within the suite.
    pub name: String,
    /// Config files for this case instead of the suite's, relative to the suite file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<PathBuf>,
    #[serde(default, skip_serializing_if = "CaseContext::is_default")]
    pub context: CaseContext,
    pub expect: Expect,
}

/// The session, with the names of the session context flags (`--agent`, `--sender-username`, …).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CaseContext {
    /// Agent id (default: the config's default agent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Session key, e.g. `agent:main:telegram:group:-100123` (default: the agent's main DM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender_username: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender_e164: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender_name: Option<String>,
    /// `true` = `--owner`, `false` = `--not-owner`; unset: the release's assumption.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<Sandbox>,
    /// Sub-agent depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Per-run runtime allowlist; `[]` means no tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_allow: Option<Vec<String>>,
    /// The session that spawned this one, `AGENT` (its main session) or `AGENT:SESSION`: the
    /// other fields then describe the requester's run, `agent` names the spawned agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawned_by: Option<String>,
    /// The kind of run: `chat` (default), `cron` (the scheduled job `job` describes) or
    /// `heartbeat`; in cron and heartbeat runs nobody answers an exec approval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<RunKind>,
    /// The job a `cron` run executes, as the jobs store holds it (`id`, `agentId`,
    /// `sessionTarget`, `payload`, `delivery`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<serde_json::Value>,
    /// Plugin tools present at runtime, as `plugin:tool` (`plugin:tool?` = optional).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugin_tool: Vec<String>,
    /// A JSON file listing plugin tools, relative to the suite file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugins: Option<PathBuf>,
    /// A saved `openclaw mcp probe --json`, relative to the suite file: its MCP server tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_probe: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Sandbox {
    Auto,
    On,
    Off,
}

/// What must hold in the session. At least one expectation is required.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Expect {
    /// Tools the session must have.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub present: Vec<String>,
    /// Tools the session must not have.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<String>,
    /// The session's exact tool set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exactly: Option<Vec<String>>,
    /// Tool → the step that removes it, as `tools` prints it (`group tools.allow`, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub removed_by: BTreeMap<String, String>,
    /// Exec decisions for commands in this session.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exec: Vec<ExecExpectation>,
    /// Lint findings for the case's config, by code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lint: Option<LintExpectation>,
}

impl Expect {
    pub fn is_empty(&self) -> bool {
        self.present.is_empty()
            && self.absent.is_empty()
            && self.exactly.is_none()
            && self.removed_by.is_empty()
            && self.exec.is_empty()
            && self.lint.as_ref().is_none_or(|l| l.present.is_empty() && l.absent.is_empty())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ExecExpectation {
    pub command: String,
    /// `allow`, `ask`, `deny`, `error`, or `unavailable` (the session has no exec tool).
    pub decision: ExecVerdict,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct LintExpectation {
    /// Codes that must be reported.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub present: Vec<String>,
    /// Codes that must not be reported.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<String>,
}

impl CaseContext {
    fn is_default(&self) -> bool {
        self == &CaseContext::default()
    }

    /// The session facts, with plugin files resolved against `base_dir`.
    pub fn to_session(&self, base_dir: &Path) -> miette::Result<SessionContext> {
        let plugins = self.plugins.as_ref().map(|p| base_dir.join(p));
        let mcp_probe = self.mcp_probe.as_ref().map(|p| base_dir.join(p));
        let run = SessionContext {
            agent_id: self.agent.clone(),
            session_key: self.session.clone(),
            model_provider: self.provider.clone(),
            model_id: self.model.clone(),
            message_provider: self.channel.clone(),
            group_id: self.group.clone(),
            account_id: self.account.clone(),
            sender_id: self.sender.clone(),
            sender_name: self.sender_name.clone(),
            sender_username: self.sender_username.clone(),
            sender_e164: self.sender_e164.clone(),
            sender_is_owner: self.owner,
            spawn_depth: self.depth,
            sandbox: match self.sandbox {
                None | Some(Sandbox::Auto) => SandboxChoice::Auto,
                Some(Sandbox::On) => SandboxChoice::On,
                Some(Sandbox::Off) => SandboxChoice::Off,
            },
            tools_allow: self.tools_allow.clone(),
            plugin_tools: crate::policy::declared::declared_plugin_tools(
                &self.plugin_tool,
                plugins.as_deref(),
                mcp_probe.as_deref(),
            )?,
            run: self.run.unwrap_or_default(),
            job: self.job.clone().map(crate::policy::automation::jobs::CronJob),
            ..SessionContext::default()
        };
        match &self.spawned_by {
            Some(spawner) => crate::policy::spawn::spawned_by(run, spawner)
                .map_err(|e| miette::miette!(code = "test::spawned-by", "spawned-by {e}")),
            None => Ok(run),
        }
    }

    /// The fields that describe `ctx` (the inverse of [`CaseContext::to_session`]).
    pub fn from_session(ctx: &SessionContext) -> CaseContext {
        if let (Some(requester), Some(spawner)) = (ctx.requester.as_deref(), crate::policy::spawn::spawner_of(ctx)) {
            return CaseContext {
                agent: ctx.agent_id.clone(),
                session: None,
                spawned_by: Some(spawner),
                ..CaseContext::from_session(requester)
            };
        }
        let sandbox = match ctx.sandbox {
            SandboxChoice::Auto => None,
            SandboxChoice::On => Some(Sandbox::On),
            SandboxChoice::Off => Some(Sandbox::Off),
        };
        CaseContext {
            agent: ctx.agent_id.clone(),
            session: ctx.session_key.clone(),
            provider: ctx.model_provider.clone(),
            model: ctx.model_id.clone(),
            channel: ctx.message_provider.clone(),
            group: ctx.group_id.clone(),
            account: ctx.account_id.clone(),
            sender: ctx.sender_id.clone(),
            sender_username: ctx.sender_username.clone(),
            sender_e164: ctx.sender_e164.clone(),
            sender_name: ctx.sender_name.clone(),
            owner: ctx.sender_is_owner,
            sandbox,
            depth: ctx.spawn_depth,
            tools_allow: ctx.tools_allow.clone(),
            spawned_by: None,
            run: (ctx.run != RunKind::Chat).then_some(ctx.run),
            job: ctx.job.as_ref().map(|job| job.0.clone()),
            plugin_tool: ctx
                .plugin_tools
                .iter()
                .map(|p| format!("{}:{}{}", p.plugin, p.name, if p.optional { "?" } else { "" }))
                .collect(),
            plugins: None,
            mcp_probe: None,
        }
    }
}

/// A suite file that cannot be used.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{path}: {message}")]
#[diagnostic(code(suite::invalid))]
pub struct SuiteError {
    pub path: String,
    pub message: String,
}

/// Reads and checks a suite file: YAML syntax, known fields, unique case names, no empty case.
pub fn load(path: &Path) -> Result<Suite, SuiteError> {
    let error = |message: String| SuiteError { path: path.display().to_string(), message };
    let text = crate::base::userfile::read_text(path, crate::base::userfile::MAX_INPUT_BYTES)
        .map_err(|e| error(format!("cannot read: {e}")))?;
    parse(path, &text)
}

/// Parses and checks the text of the suite file `path` (named in messages).
pub fn parse(path: &Path, text: &str) -> Result<Suite, SuiteError> {
    let error = |message: String| SuiteError { path: path.display().to_string(), message };
    let suite: Suite = crate::base::yaml::from_str(text)
        .map_err(|e| error(crate::config::secrets::parse_error_message(&e.to_string())))?;
    if suite.cases.is_empty() {
        return Err(error("the suite has no cases".into()));
    }
    let mut names = std::collections::HashSet::new();
    for case in &suite.cases {
        if !names.insert(case.name.as_str()) {
            return Err(error(format!("two cases are named `{}`", case.name)));
        }
        if case.expect.is_empty() {
            return Err(error(format!("case `{}` expects nothing", case.name)));
        }
    }
    Ok(suite)
}

/// The suite as YAML, with a comment naming the format.
pub fn to_yaml(suite: &Suite) -> Result<String, serde_yaml_ng::Error> {
    let body = serde_yaml_ng::to_string(suite)?;
    Ok(format!("# clawpolicy policy test suite (JSON Schema: `clawpolicy test --schema`)\n{body}"))
}

/// The JSON Schema of the suite format, as published in `docs/suite.schema.json`.
pub fn schema() -> String {
    let schema = schemars::schema_for!(Suite);
    serde_json::to_string_pretty(&schema).expect("a schema serializes") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("suite.yaml");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn unknown_fields_are_errors() {
        let (_dir, path) = write("cases:\n  - name: a\n    expect: {present: [read]}\n    contxt: {agent: x}\n");
        let err = load(&path).unwrap_err();
        assert!(err.message.contains("unknown field `contxt`"), "{}", err.message);
        let (_dir, path) = write("cases:\n  - name: a\n    expect: {presnt: [read]}\n");
        assert!(load(&path).unwrap_err().message.contains("presnt"));
    }

    #[test]
    fn a_deeply_nested_suite_is_refused_quickly() {
        let (_dir, path) = write(&format!("cases: {}", "[".repeat(40_000)));
        let started = std::time::Instant::now();
        assert!(load(&path).unwrap_err().message.contains("nested more than 128 deep"));
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
    }

    #[test]
    fn cases_must_expect_something_and_have_unique_names() {
        let (_dir, path) = write("cases:\n  - name: a\n    expect: {}\n");
        assert!(load(&path).unwrap_err().message.contains("expects nothing"));
        let (_dir, path) = write("cases: []\n");
        assert!(load(&path).unwrap_err().message.contains("no cases"));
        let (_dir, path) =
            write("cases:\n  - {name: a, expect: {present: [read]}}\n  - {name: a, expect: {absent: [x]}}\n");
        assert!(load(&path).unwrap_err().message.contains("two cases"));
    }

    #[test]
    fn contexts_round_trip() {
        let context = CaseContext {
            agent: Some("support".into()),
            sender_username: Some("@lead".into()),
            owner: Some(false),
            depth: Some(2),
            plugin_tool: vec!["acme:search?".into()],
            ..CaseContext::default()
        };
        let session = context.to_session(Path::new(".")).unwrap();
        assert_eq!(CaseContext::from_session(&session), context);
    }

    #[test]
    fn the_published_schema_is_current() {
        let published = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/suite.schema.json"));
        assert_eq!(
            published.ok().as_deref(),
            Some(schema().as_str()),
            "regenerate: clawpolicy test --schema > docs/suite.schema.json"
        );
    }
}
