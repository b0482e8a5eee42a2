//! The facts about a session that policy depends on, as given by the user or a batch case.

use serde::{Deserialize, Serialize};

use super::automation::jobs::CronJob;
use super::automation::run::{AutomationRun, RunKind};
use super::rules::Policy;

/// Whether the session runs in a sandbox: decided from config, or forced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SandboxChoice {
    #[default]
    Auto,
    On,
    Off,
}

impl<'de> Deserialize<'de> for SandboxChoice {
    /// Batch cases use the oracle's form: `"auto"`, `true` or `false`; the CLI uses auto/on/off.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::Bool(true) => Ok(SandboxChoice::On),
            serde_json::Value::Bool(false) => Ok(SandboxChoice::Off),
            serde_json::Value::Null => Ok(SandboxChoice::Auto),
            serde_json::Value::String(s) => s.parse().map_err(serde::de::Error::custom),
            other => Err(serde::de::Error::custom(format!("sandbox must be auto, true or false, got {other}"))),
        }
    }
}

impl std::str::FromStr for SandboxChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(SandboxChoice::Auto),
            "on" | "true" => Ok(SandboxChoice::On),
            "off" | "false" => Ok(SandboxChoice::Off),
            other => Err(format!("sandbox must be auto, on or off, got `{other}`")),
        }
    }
}

/// A plugin tool the user declares present (OpenClaw loads plugins at runtime; we cannot).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginTool {
    pub plugin: String,
    pub name: String,
    /// Optional plugin tools load only when named explicitly.
    #[serde(default)]
    pub optional: bool,
    /// The tool profiles its plugin's manifest adds it to (`toolMetadata[tool].profiles`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profiles: Vec<String>,
}

/// Everything about one session that the tool policy reads besides the config. Field names are
/// the oracle's case fields, so one JSONL file drives both the oracle and clawpolicy.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionContext {
    pub agent_id: Option<String>,
    pub session_key: Option<String>,
    pub model_provider: Option<String>,
    pub model_id: Option<String>,
    /// The channel the message came in on (`telegram`, `discord`, `node`, `voice`…).
    #[serde(alias = "channel")]
    pub message_provider: Option<String>,
    pub group_id: Option<String>,
    pub account_id: Option<String>,
    pub spawned_by: Option<String>,
    pub sender_id: Option<String>,
    pub sender_name: Option<String>,
    pub sender_username: Option<String>,
    #[serde(rename = "senderE164")]
    pub sender_e164: Option<String>,
    /// `None`: unknown. 2026.9 then treats the sender as the owner, 2026.2 as a non-owner.
    pub sender_is_owner: Option<bool>,
    pub spawn_depth: Option<u32>,
    /// Whether the model accepts images; `None`: unknown (vision tools follow the config).
    pub model_has_vision: Option<bool>,
    /// The model's API family (`openai-responses`, …); native web search depends on it.
    pub model_api: Option<String>,
    #[serde(default)]
    pub sandbox: SandboxChoice,
    /// The per-run runtime allowlist (`toolsAllow`); `Some([])` means no tools at all.
    pub tools_allow: Option<Vec<String>>,
    #[serde(default)]
    pub plugin_tools: Vec<PluginTool>,
    /// 2026.9 embedded runs: the per-run `toolsAllow` is also the pipeline step `runtime tools.allow`
    /// (and part of what a child it spawns inherits).
    #[serde(default)]
    pub inherit_runtime_tools_allow: bool,
    /// The session that spawned this one (`--spawned-by`, batch `requester`), with its own run
    /// facts and, for a chain, its own requester. This session is then the child the release
    /// creates for it: the fields above describe the child's run, whose key is derived.
    pub requester: Option<Box<SessionContext>>,
    /// What the release stored for the child at spawn time; set by the resolver from `requester`.
    #[serde(skip)]
    pub spawn: Option<SpawnEnvelope>,
    /// The kind of run (`--run`, batch `run`): a chat turn unless said otherwise.
    #[serde(default, skip_serializing_if = "is_chat")]
    pub run: RunKind,
    /// The stored job a cron run executes (`--job`, batch `job`: the job object as stored). The
    /// fields above then describe nothing of the run but the model and plugin tools: the job
    /// decides the agent, session and cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<CronJob>,
    /// What the release derives for an automation run; set by the resolver from `run` and `job`.
    #[serde(skip)]
    pub automation: Option<AutomationRun>,
    /// Build the tools as the run's own attempt does (`--turn`, batch `turn`): with the plugin
    /// metadata it prepares, so the bundled plugins' manifests put their tools in profiles and
    /// count as known names to the unknown-allowlist warning (releases whose
    /// `pluginLoading.manifestProfiles` is set). Otherwise as the release's effective-tools
    /// listing builds them, without that metadata.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub turn: bool,
}

impl SessionContext {
    /// Whether the context as serialized holds all it says: a spawn envelope and an automation
    /// run's derivation are set by the resolver and left out of it, so a context carrying either
    /// cannot be known by its serialization.
    pub fn serializes_whole(&self) -> bool {
        self.spawn.is_none() && self.automation.is_none()
    }
}

fn is_chat(run: &RunKind) -> bool {
    *run == RunKind::Chat
}

/// What the release stores on the child's session entry when it is spawned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpawnEnvelope {
    /// The requester's session key (`spawnedBy`).
    pub requester_key: String,
    pub requester_agent: String,
    /// The stored `spawnDepth`: the requester's depth plus one.
    pub depth: u32,
    /// 2026.9 `inheritedToolAllow`/`inheritedToolDeny`, the policy of step `inherited tools`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inherited: Option<Policy>,
    /// Why the release would refuse this spawn, if it would.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Whether the requester's session has the `sessions_spawn` tool at all.
    pub requester_has_spawn_tool: bool,
}
