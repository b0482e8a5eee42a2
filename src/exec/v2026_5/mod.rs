//! 2026.5's pipeline ([`SplitterWithApprovalGates`]): the hand-written chain splitter of
//! [`crate::exec::v2026_2`] analyses the command (with the release's `chainSplitter` rules: every
//! chain part analysed first, the allowlist matched with globs), its single-quoted command is the
//! enforced one, and the gateway composes the decision as 2026.9's does ([`crate::exec::v2026_9::compose`]:
//! durable approvals, strict inline eval, heredocs, audit-suppression edits, a missing plan).
//!
//! A release whose exec works like 2026.5's names `"pipeline": "splitterWithApprovalGates"` in
//! its data and needs no code here.

use crate::exec::ExecOutcome;
use crate::exec::pipeline::{Gate, Pipeline};
use crate::exec::segments::{EvalContext, Evaluation};
use crate::exec::v2026_2::splitter;
use crate::exec::v2026_9::compose;

/// The chain splitter's analysis under 2026.9's approval gates.
pub struct SplitterWithApprovalGates;

impl Pipeline for SplitterWithApprovalGates {
    fn analyse(&self, command: &str, ctx: &EvalContext) -> Result<Evaluation, String> {
        let mut evaluation = splitter::evaluate(command, ctx).map_err(|e| e.message)?;
        if evaluation.analysis_ok {
            evaluation.pinned =
                Some(splitter::enforced_command(command, &evaluation, splitter::Dialect::of(ctx.rules)));
        }
        Ok(evaluation)
    }

    fn compose(&self, out: ExecOutcome, gate: &Gate) -> ExecOutcome {
        compose::compose(out, gate)
    }

    fn stops_at_first_miss(&self) -> bool {
        true
    }
}
