//! 2026.9's pipeline ([`TreeSitterPlan`]): the command is parsed by tree-sitter-bash
//! ([`analysis`]), turned into an authorization plan whose candidates are resolved and satisfied
//! ([`plan`]), pinned to resolved paths ([`pin`]) and checked for inline interpreter code
//! ([`inline_eval`]); package-manager execs are matched as their tool ([`pkg_manager`]); the
//! gateway composes the decision in [`compose`].
//!
//! A release whose analysis works like 2026.9's names `"pipeline": "treeSitterPlan"` in its data
//! and needs no code here.

pub mod allow_always;
pub mod analysis;
pub mod compose;
pub mod inline_eval;
pub mod pin;
pub mod pkg_manager;
pub mod plan;

use crate::exec::ExecOutcome;
use crate::exec::pipeline::{Gate, Pipeline};
use crate::exec::segments::{EvalContext, Evaluation};

/// tree-sitter analysis, authorization plan, pinned commands.
pub struct TreeSitterPlan;

impl Pipeline for TreeSitterPlan {
    fn analyse(&self, command: &str, ctx: &EvalContext) -> Result<Evaluation, String> {
        let (mut evaluation, candidates) = plan::evaluate(command, ctx);
        if evaluation.analysis_ok {
            let satisfied: Vec<_> = evaluation.segments.iter().map(|s| s.satisfied_by).collect();
            evaluation.pinned =
                Some(pin::enforced_command(command, &candidates, &satisfied, ctx.rules.pins_safe_builtins));
        }
        Ok(evaluation)
    }

    fn compose(&self, out: ExecOutcome, gate: &Gate) -> ExecOutcome {
        compose::compose(out, gate)
    }

    fn stops_at_first_miss(&self) -> bool {
        false
    }
}
