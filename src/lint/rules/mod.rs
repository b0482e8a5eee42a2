//! The rules, one module per category. Each module exports `RULES`; the registry collects them.

mod audit;
mod dead;
mod exec;
mod exposure;
mod gateway;
mod sandbox;
mod tool_names;
mod validity;
pub(super) mod walk;

use super::Rule;

/// Every rule group; the registry sorts the rules by code.
pub const ALL: &[&[Rule]] =
    &[validity::RULES, tool_names::RULES, dead::RULES, exec::RULES, sandbox::RULES, exposure::RULES, gateway::RULES];
