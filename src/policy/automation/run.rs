//! What kind of run a session is, and what the release derived for an automation run: the
//! facts the rest of the resolver reads (the derivation is the parent module's).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The kind of run a session is: a chat turn, a scheduled (cron) job's isolated agent turn, or a
/// heartbeat. Automation runs have no person at the keyboard to answer an exec approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    #[default]
    Chat,
    Cron,
    Heartbeat,
}

impl RunKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RunKind::Chat => "chat",
            RunKind::Cron => "cron",
            RunKind::Heartbeat => "heartbeat",
        }
    }

    /// Whether an exec approval in this run can be answered by a person.
    pub fn has_approver(self) -> bool {
        self == RunKind::Chat
    }
}

impl std::str::FromStr for RunKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "chat" => Ok(RunKind::Chat),
            "cron" => Ok(RunKind::Cron),
            "heartbeat" => Ok(RunKind::Heartbeat),
            other => Err(format!("run must be chat, cron or heartbeat, got `{other}`")),
        }
    }
}

impl std::fmt::Display for RunKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the release derived for one automation run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AutomationRun {
    pub run: RunKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_name: Option<String>,
    /// How the session key was chosen (`isolated job`, `heartbeat.session`, …).
    pub session_from: String,
    /// The job's `payload.toolsAllow`, the run's per-run cap (where the release applies one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools_allow: Option<Vec<String>>,
    /// Tools this run does not build, with why.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub not_built: BTreeMap<String, String>,
    /// Tools this run builds that a chat turn does not, kept past the profile.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra_built: Vec<String>,
    /// What else the release decided (an unlisted agent replaced, a cap the release ignores).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}
