//! Exec approval simulator: answers allow / ask / deny for a shell command, segment by segment,
//! as each OpenClaw release would. Nothing here prints; human output is the CLI's
//! (`cli::exec_render`).
//!
//! The way in is [`request()`] (config, resolved session, command, what-ifs → [`ExecRequest`], or
//! [`Unavailable`] for a session without the exec tool); [`evaluate`] then runs:
//! [`settings`] (the config's `tools.exec` + what-ifs → requested policy with sources) →
//! [`approvals`] (the host document's floor) → [`decide`] (host, elevated mode) → the release's
//! [`pipeline`]: 2026.9's tree-sitter analysis and authorization plan ([`v2026_9`]) or 2026.2's
//! hand-written splitter ([`v2026_2`]), both reading argv through [`argv`] (one option scanner,
//! wrappers, shells) and satisfying segments through [`satisfy`] (allowlist, safe bins,
//! builtins, skills), executables found by [`lookup`]; the vocabulary is [`posture`].
//!
//! Around the decision: [`elevated`] (the gates that grant a message's session elevated mode),
//! [`approvals::allow_always`] and [`coverage`] (what an "allow always" answer stores and covers),
//! [`satisfy::near_miss`] (why the nearest allowlist entries missed), [`review`] (mode `auto`).
//!
//! Where a newcomer adds things: a release that behaves like an existing one is data
//! (`data/<line>/exec.json`, `src/release/exec.rs`); a release whose analysis works differently
//! is a new `v<line>/` folder implementing [`pipeline::Pipeline`]; a new wrapper or safe bin is a
//! data entry; a new kind of wrapper is a file in [`argv::wrappers`]; a new way a segment is
//! satisfied is a file in [`satisfy`].

pub mod approvals;
pub mod argv;
pub mod coverage;
pub mod decide;
pub mod elevated;
pub mod lookup;
pub mod pipeline;
pub mod posture;
pub mod request;
pub mod review;
pub mod satisfy;
pub mod segments;
pub mod settings;
pub mod unattended;
pub mod v2026_2;
pub mod v2026_5;
pub mod v2026_9;

use serde::Serialize;

pub use approvals::ApprovalsInput;
pub use pipeline::ApprovalFlags;
pub use posture::{Ask, Security, Source, Sourced};
pub use request::{Availability, CallSite, ExecRequest, Unavailable, request};
pub use segments::{PlanFailure, SatisfiedBy, Segment, SkillBin};
pub use settings::WhatIf;

use crate::OpenClawVersion;

/// Commands longer than this are rejected before analysis (OpenClaw itself refuses to analyse
/// more than 131,072 characters, an answer the simulator gives too; this cap only keeps the
/// simulator's memory bounded).
pub const MAX_COMMAND_BYTES: usize = 1 << 20;

/// Elevated exec levels (spec §2.8): `on` behaves as `ask`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Elevated {
    #[default]
    Off,
    Ask,
    Full,
}

impl Elevated {
    /// A level as the exec tool reads a session's level (`resolveExecElevatedMode`): `full`,
    /// `ask` or `on` (as ask); anything else is off.
    pub fn from_level(level: &str) -> Elevated {
        match level {
            "full" => Elevated::Full,
            "ask" | "on" => Elevated::Ask,
            _ => Elevated::Off,
        }
    }

    pub fn is_off(&self) -> bool {
        *self == Elevated::Off
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Elevated::Off => "off",
            Elevated::Ask => "ask",
            Elevated::Full => "full",
        }
    }
}

/// The simulated outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Allow,
    Ask,
    Deny,
    /// OpenClaw throws (invalid host, 2026.2 invalid allowlist regex, sandbox unavailable…).
    Error,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
            Decision::Error => "error",
        }
    }
}

/// Everything the simulator found out about one exec call.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecOutcome {
    pub version: OpenClawVersion,
    /// What finally happens.
    pub decision: Decision,
    /// The decision at the point OpenClaw computes `policyRequiresAsk` (before a later
    /// "allowlist miss" / "ask-fallback-deny" refusal); this is what the oracle's gateway reports.
    pub observed_decision: Decision,
    /// OpenClaw's deny/error text, or a note (sandbox hosts).
    pub message: Option<String>,
    /// Short reason labels (`allowlist-miss`, `analysis-failed: redirect`, `ask=always`…).
    pub reasons: Vec<String>,
    pub host: Sourced<String>,
    pub security: Sourced<Security>,
    pub ask: Sourced<Ask>,
    pub ask_fallback: Sourced<Security>,
    pub policy_requires_ask: bool,
    /// False when the decision was reached before command analysis (deny, error, sandbox).
    pub evaluated: bool,
    pub analysis_ok: bool,
    /// Allowlist satisfied *and* security=allowlist (as OpenClaw's gateway reports it).
    pub allowlist_satisfied: bool,
    pub segments: Vec<Segment>,
    pub plan_failure: Option<PlanFailure>,
    pub enforced_command: Option<String>,
    pub plan_unavailable_reason: Option<String>,
    pub durable_approval: bool,
    #[serde(skip)]
    pub approval_flags: ApprovalFlags,
    pub warnings: Vec<String>,
    pub approvals_locator: Option<String>,
    /// 2026.9: the approvals store could not be read and fail-closed defaults were used.
    pub approvals_fail_closed: Option<String>,
    /// What was wrong with it: `locked`, `missing`, `broken` or `invalid-document`.
    pub approvals_store_problem: Option<approvals::StoreProblem>,
    /// The elevated level the call runs at (`off` unless requested or given by the release).
    #[serde(skip_serializing_if = "Elevated::is_off")]
    pub elevated: Elevated,
    /// The run's elevated gates, when elevated mode was requested or is in force and the gates
    /// were evaluated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elevated_gates: Option<elevated::ElevatedGates>,
    /// What an "allow always" answer would store for this command, as the release stores it;
    /// `None` when the command was not analysed (denied or decided before analysis).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_always: Option<approvals::allow_always::Persistence>,
    /// Mode `auto`: whether the automatic reviewer sees this call before a human.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_review: Option<review::AutoReview>,
    /// In a run nobody can answer (cron, heartbeat): what the approval became.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_approver: Option<unattended::NoApprover>,
}

/// Input that cannot be simulated at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum ExecError {
    #[error("the command is empty")]
    #[diagnostic(code(clawpolicy::exec::empty_command))]
    EmptyCommand,
    #[error("the command contains NUL bytes (binary input?)")]
    #[diagnostic(code(clawpolicy::exec::binary_command), help("pass the command as text"))]
    BinaryCommand,
    #[error("the command is not valid UTF-8")]
    #[diagnostic(code(clawpolicy::exec::not_utf8))]
    NotUtf8,
    #[error("the command is {0} bytes long; at most {MAX_COMMAND_BYTES} are simulated")]
    #[diagnostic(code("exec::command-too-long"))]
    TooLarge(usize),
    #[error(
        "the command has more than {} pipes and brackets; such commands are not simulated",
        v2026_9::analysis::MAX_OPERATORS
    )]
    #[diagnostic(
        code("exec::command-too-long"),
        help("tree-sitter needs time quadratic in them to recover from a syntax error; OpenClaw spends it")
    )]
    TooManyOperators,
    #[error("the command nests commands too deeply to simulate (its nested commands add up to more than {} MiB of text)", v2026_9::analysis::MAX_COPIED_BYTES >> 20)]
    #[diagnostic(
        code("exec::command-too-deep"),
        help("OpenClaw answers such a command as unanalyzable (ask or deny); the simulator does not follow it")
    )]
    TooDeep,
}

/// Turns raw bytes (a file, stdin) into command text, refusing binary input.
pub fn command_from_bytes(bytes: &[u8]) -> Result<String, ExecError> {
    let text = std::str::from_utf8(bytes).map_err(|_| ExecError::NotUtf8)?;
    check_command(text)?;
    Ok(text.to_string())
}

fn check_command(command: &str) -> Result<(), ExecError> {
    if command.len() > MAX_COMMAND_BYTES {
        return Err(ExecError::TooLarge(command.len()));
    }
    if command.contains('\0') {
        return Err(ExecError::BinaryCommand);
    }
    if command.trim().is_empty() {
        return Err(ExecError::EmptyCommand);
    }
    Ok(())
}

/// Simulates one exec call as `version` would decide it.
pub fn evaluate(request: &ExecRequest, version: OpenClawVersion) -> Result<ExecOutcome, ExecError> {
    check_command(&request.command)?;
    let settings = request.settings(version);
    let site = &request.site;
    let approvals = approvals::load(&site.approvals, version);
    let input = pipeline::DecisionInput {
        command: &request.command,
        settings: &settings,
        approvals: &approvals,
        cwd: site.cwd.clone(),
        path_var: site.path_var.clone().unwrap_or_else(|| std::env::var("PATH").unwrap_or_default()),
        home: site.home.clone().or_else(|| std::env::var("HOME").ok()),
        windows: site.platform.trim().to_lowercase().starts_with("win"),
        sandboxed: request.sandboxed,
        skill_bins: site.skill_bins.clone(),
        elevated: site.elevated,
        elevated_gates: site.elevated_gates.as_ref(),
        run: request.run,
    };
    let outcome = decide::decide(&input, version);
    match outcome.plan_failure.as_ref().and_then(|failure| limit_error(&failure.reason)) {
        Some(limit) => Err(limit),
        None => Ok(outcome),
    }
}

/// The error a plan failure stands for when it is one of the simulator's own limits rather than
/// OpenClaw's answer.
pub(crate) fn limit_error(plan_failure: &str) -> Option<ExecError> {
    match v2026_9::analysis::ExplainError::simulator_limit(plan_failure)? {
        v2026_9::analysis::ExplainError::TooManyOperators => Some(ExecError::TooManyOperators),
        _ => Some(ExecError::TooDeep),
    }
}
