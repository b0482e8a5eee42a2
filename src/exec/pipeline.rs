//! The two halves of an exec decision that differ between releases as whole algorithms: how a
//! command is analysed and its segments satisfied, and how the gateway composes the decision
//! from that. The release's data names its pipeline (`pipeline` in `data/<line>/exec.json`);
//! each one lives in its own folder ([`crate::exec::v2026_9`], [`crate::exec::v2026_2`],
//! [`crate::exec::v2026_5`]).
//!
//! This module is the contract every pipeline works to: what a decision starts from
//! ([`DecisionInput`], [`Gate`]), the triggers it reports ([`ApprovalFlags`]) and the helpers both
//! compositions share. A release whose exec analysis works differently altogether gets a new
//! folder with a type implementing [`Pipeline`], and a variant of
//! [`release::exec::Pipeline`](crate::release::exec::Pipeline) mapped in [`crate::exec::decide::of`].

use std::path::PathBuf;

use super::approvals::LoadedApprovals;
use super::posture::{Ask, Security};
use super::segments::{EvalContext, Evaluation, SkillBin};
use super::settings::RequestedSettings;
use super::{Decision, Elevated, ExecOutcome};

/// The inputs of one decision besides the config-derived settings.
pub struct DecisionInput<'a> {
    pub command: &'a str,
    pub settings: &'a RequestedSettings,
    pub approvals: &'a LoadedApprovals,
    pub cwd: PathBuf,
    pub path_var: String,
    pub home: Option<String>,
    pub windows: bool,
    pub sandboxed: bool,
    pub skill_bins: Vec<SkillBin>,
    pub elevated: Elevated,
    pub elevated_gates: Option<&'a super::elevated::ElevatedGates>,
    /// The kind of run: only a chat turn has a person to answer an approval.
    pub run: crate::policy::RunKind,
}

/// `requiresExecApproval` (2026.2 has no durable parameter: pass `false`).
pub fn requires_approval(ask: Ask, security: Security, analysis_ok: bool, allowlist_ok: bool, durable: bool) -> bool {
    if ask == Ask::Always {
        return true;
    }
    if durable {
        return false;
    }
    ask == Ask::OnMiss && security == Security::Allowlist && (!analysis_ok || !allowlist_ok)
}

/// Sets the decision, observed as made, with its message.
pub(crate) fn finish(mut out: ExecOutcome, decision: Decision, message: Option<String>) -> ExecOutcome {
    out.decision = decision;
    out.observed_decision = decision;
    out.message = message;
    out
}

/// Whether a segment holds a heredoc.
pub(crate) fn has_heredoc_token(eval: &Evaluation) -> bool {
    eval.segments.iter().any(|s| s.argv.iter().any(|t| t.starts_with("<<")))
}

/// Which approval triggers fired (the oracle's `reasons` keys).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ApprovalFlags {
    /// `requiresExecApproval` itself (ask=always or an allowlist-mode miss with ask=on-miss).
    pub base: bool,
    pub allowlist_plan: bool,
    pub heredoc: bool,
    pub inline_eval: bool,
    pub audit_suppression: bool,
    pub obfuscation: bool,
}

/// What a composition decides from, besides the outcome so far.
pub struct Gate<'a> {
    pub input: &'a DecisionInput<'a>,
    pub ctx: &'a EvalContext,
    pub eval: &'a Evaluation,
    pub security: Security,
    pub ask: Ask,
    pub ask_fallback: Security,
}

/// A release's analysis and gateway composition.
pub trait Pipeline: Sync {
    /// Analyses `command` and satisfies its segments; `Err` is OpenClaw's own error for the whole
    /// call (2026.2's invalid allowlist pattern).
    fn analyse(&self, command: &str, ctx: &EvalContext) -> Result<Evaluation, String>;

    /// Completes `out` (settings, host and analysis filled in) with the gateway's decision.
    fn compose(&self, out: ExecOutcome, gate: &Gate) -> ExecOutcome;

    /// Segments after the first unsatisfied one are not evaluated, so not reported as satisfied
    /// or not (2026.2's `evaluateShellAllowlist`).
    fn stops_at_first_miss(&self) -> bool;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requires_approval_table() {
        assert!(requires_approval(Ask::Always, Security::Full, true, true, true));
        assert!(!requires_approval(Ask::OnMiss, Security::Full, false, false, false));
        assert!(requires_approval(Ask::OnMiss, Security::Allowlist, true, false, false));
        assert!(!requires_approval(Ask::OnMiss, Security::Allowlist, true, false, true));
        assert!(!requires_approval(Ask::Off, Security::Allowlist, false, false, false));
    }
}
