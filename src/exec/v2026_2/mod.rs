//! 2026.2's pipeline ([`ChainSplitter`]): the hand-written chain and pipeline splitter that
//! evaluates segments until the first miss ([`splitter`]), the gateway composition with its
//! single-quoted enforced command ([`compose`]) and the obfuscation detector ([`obfuscation`]).
//!
//! A release whose analysis works like 2026.2's names `"pipeline": "chainSplitter"` in its data
//! and needs no code here.

pub mod allow_always;
pub mod compose;
pub mod obfuscation;
pub mod splitter;

use crate::exec::ExecOutcome;
use crate::exec::pipeline::{Gate, Pipeline};
use crate::exec::segments::{EvalContext, Evaluation};

/// The chain/pipeline splitter that stops at the first miss.
pub struct ChainSplitter;

impl Pipeline for ChainSplitter {
    fn analyse(&self, command: &str, ctx: &EvalContext) -> Result<Evaluation, String> {
        splitter::evaluate(command, ctx).map_err(|e| e.message)
    }

    fn compose(&self, out: ExecOutcome, gate: &Gate) -> ExecOutcome {
        compose::compose(out, gate)
    }

    fn stops_at_first_miss(&self) -> bool {
        true
    }
}
