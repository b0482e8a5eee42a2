//! The rules, one module per category. Each module exports `RULES`; the registry collects them.

mod audit;
mod browser;
mod dead;
mod exec;
mod exposure;
mod gateway;
mod gateway_auth;
mod install;
mod models;
mod sandbox;
mod secrets;
mod skills_mcp;
mod tool_names;
mod trust;
mod validity;
pub(super) mod walk;

use super::Rule;

/// Every rule group; the registry sorts the rules by code.
pub const ALL: &[&[Rule]] = &[
    validity::RULES,
    tool_names::RULES,
    dead::RULES,
    exec::RULES,
    sandbox::RULES,
    exposure::RULES,
    gateway::RULES,
    gateway_auth::RULES,
    secrets::RULES,
    trust::RULES,
    models::RULES,
    install::RULES,
    browser::RULES,
    skills_mcp::RULES,
];
