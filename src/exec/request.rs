//! The one way into exec: an [`ExecRequest`] built from the loaded config, the session as the
//! tool policy resolved it (`policy::resolve`, which decides the agent, the default agent
//! included, and whether the session is sandboxed), the command and the what-ifs, after checking
//! that the session has the `exec` tool at all. `clawpolicy exec`, `exec --batch`, `simulate`,
//! `who-can --command`, `diff` probes and `test` exec expectations all come in here.

use std::borrow::Cow;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use super::Elevated;
use super::approvals::ApprovalsInput;
use super::elevated::ElevatedGates;
use super::segments::SkillBin;
use super::settings::{self, RequestedSettings, WhatIf};
use crate::OpenClawVersion;
use crate::config::view::agents::MAIN;
use crate::policy::{Removal, Resolution, RunKind};

/// One simulated exec call.
#[derive(Debug, Clone)]
pub struct ExecRequest<'c> {
    pub command: String,
    /// The loaded OpenClaw config (`openclaw.json` content).
    pub config: Cow<'c, Value>,
    /// The session's agent.
    pub agent_id: String,
    /// Whether the session has a sandbox runtime (decides `host=auto`).
    pub sandboxed: bool,
    pub what_if: WhatIf,
    pub site: CallSite,
    /// The kind of run the call is made in (a cron job or heartbeat has no approver).
    pub run: RunKind,
}

impl ExecRequest<'static> {
    /// A request with an empty config (whose only agent is `main`) in `cwd`, everything else
    /// defaulted: for exercising the simulator without a config.
    pub fn new(command: impl Into<String>, cwd: impl Into<PathBuf>) -> Self {
        ExecRequest {
            command: command.into(),
            config: Cow::Owned(serde_json::json!({})),
            agent_id: MAIN.to_string(),
            sandboxed: false,
            what_if: WhatIf::default(),
            site: CallSite::new(cwd),
            run: RunKind::Chat,
        }
    }
}

impl ExecRequest<'_> {
    /// The settings the session's agent requests from the config and what-ifs.
    pub fn settings(&self, version: OpenClawVersion) -> RequestedSettings {
        settings::resolve(&self.config, &self.agent_id, &self.what_if, version)
    }
}

/// Where exec calls are made, besides the session: the working directory and environment, the
/// approvals store, the platform, the elevated level and the skill CLIs the gateway reports.
#[derive(Debug, Clone)]
pub struct CallSite {
    pub cwd: PathBuf,
    /// `PATH` of the exec environment; `None` = this process's `PATH`.
    pub path_var: Option<String>,
    /// `HOME` for `~` expansion; `None` = this process's `HOME`.
    pub home: Option<String>,
    /// Node-style platform name (`linux`, `darwin`, `win32`).
    pub platform: String,
    pub approvals: ApprovalsInput,
    /// Skill CLIs the gateway reports (auto-allowed when the approvals document enables it).
    pub skill_bins: Vec<SkillBin>,
    /// The session's elevated level (`/elevated`, or the level the release gives the run).
    pub elevated: Elevated,
    /// The elevated gates of the run (`exec::elevated::evaluate`); `None`: not evaluated, a
    /// level other than `Off` is assumed available.
    pub elevated_gates: Option<ElevatedGates>,
}

impl CallSite {
    /// Calls in `cwd` on Linux, with this process's `PATH` and `HOME`, no approvals store, no
    /// skills, not elevated.
    pub fn new(cwd: impl Into<PathBuf>) -> Self {
        CallSite {
            cwd: cwd.into(),
            path_var: None,
            home: None,
            platform: "linux".into(),
            approvals: ApprovalsInput::None,
            skill_bins: Vec::new(),
            elevated: Elevated::Off,
            elevated_gates: None,
        }
    }
}

/// Whether the session must have the `exec` tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Availability {
    /// A session without it answers [`Unavailable`], as OpenClaw has nothing to call.
    Required,
    /// Answer as if it had it (`--assume-available`): what would happen once the tool is back.
    Assumed,
}

/// The tool an exec call is made with.
const EXEC_TOOL: &str = "exec";

/// Why a session cannot call exec: the tool-policy step that removed the tool, or why it was
/// never built.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Unavailable {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_by: Option<Box<Removal>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_constructed: Option<String>,
}

impl Unavailable {
    /// Why `session` has no `exec` tool; `None` when it has one.
    pub fn of(session: &Resolution) -> Option<Self> {
        if session.tools.iter().any(|t| t == EXEC_TOOL) {
            return None;
        }
        let removed_by = session.removed.get(EXEC_TOOL).cloned().map(Box::new);
        let not_constructed = match removed_by {
            Some(_) => None,
            None => Some(
                session
                    .not_constructed
                    .get(EXEC_TOOL)
                    .map_or_else(|| "not a tool of this session".into(), |why| why.to_string()),
            ),
        };
        Some(Unavailable { removed_by, not_constructed })
    }
}

/// The request for `command` in `session` (resolved under `config`), or why the session cannot
/// call exec.
pub fn request<'c>(
    config: &'c Value,
    session: &Resolution,
    command: impl Into<String>,
    what_if: WhatIf,
    site: &CallSite,
    availability: Availability,
) -> Result<ExecRequest<'c>, Unavailable> {
    if availability == Availability::Required
        && let Some(unavailable) = Unavailable::of(session)
    {
        return Err(unavailable);
    }
    Ok(ExecRequest {
        command: command.into(),
        config: Cow::Borrowed(config),
        agent_id: session.agent_id.clone(),
        sandboxed: session.sandbox.sandboxed,
        what_if,
        site: site.clone(),
        run: session.automation.as_ref().map_or(RunKind::Chat, |run| run.run),
    })
}
