//! The rules, one module per category. Each module exports `RULES`; the registry collects them.

mod dead;
mod tool_names;
mod validity;
mod walk;

use super::Rule;

/// Every rule group; the registry sorts the rules by code.
pub const ALL: &[&[Rule]] = &[validity::RULES, tool_names::RULES, dead::RULES];
