//! The two halves of an exec decision that differ between releases as whole algorithms: how a
//! command is analysed and its segments satisfied, and how the gateway composes the decision
//! from that. The release's data names its pipeline (`pipeline` in `data/<line>/exec.json`);
//! each one lives in its own folder ([`crate::exec::v2026_9`], [`crate::exec::v2026_2`]).
//!
//! A release whose exec analysis works differently altogether gets a new folder with a type
//! implementing [`Pipeline`], and a variant of [`release::exec::Pipeline`](crate::release::exec::Pipeline)
//! mapped in [`of`].

use super::ExecOutcome;
use super::decide::DecisionInput;
use super::posture::{Ask, Security};
use super::segments::{EvalContext, Evaluation, PlanFailure};
use crate::release::exec::{ExecRules, Pipeline as Kind};

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

/// The pipeline a release runs.
pub fn of(rules: &ExecRules) -> &'static dyn Pipeline {
    match rules.pipeline {
        Kind::TreeSitterPlan => &super::v2026_9::TreeSitterPlan,
        Kind::ChainSplitter => &super::v2026_2::ChainSplitter,
    }
}

/// Analyses `command` with the release's pipeline (Windows shells are not simulated).
pub fn analyse(command: &str, ctx: &EvalContext) -> Result<Evaluation, String> {
    if ctx.windows {
        let reason = "windows shell analysis is not simulated".to_string();
        return Ok(Evaluation {
            analysis_ok: false,
            allowlist_satisfied: false,
            segments: Vec::new(),
            plan_failure: Some(PlanFailure { reason, span: None }),
            candidates: Vec::new(),
        });
    }
    of(ctx.rules).analyse(command, ctx)
}
