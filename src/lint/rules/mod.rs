//! The rules, one module per category. Each module exports `RULES`; [`all_rules`] collects them.

pub(super) mod audit;
mod automation;
mod browser;
mod dead;
mod exec;
mod exposure;
mod extensions;
mod gateway;
mod gateway_auth;
mod install;
mod installs;
pub(super) mod mcp;
mod models;
mod sandbox;
mod secrets;
mod skills_mcp;
mod tool_names;
mod trust;
mod validity;
pub(super) mod walk;
mod workspace_skills;

use std::sync::OnceLock;

use super::Rule;

/// Every rule group; [`all_rules`] sorts the rules by code.
pub const ALL: &[&[Rule]] = &[
    validity::RULES,
    tool_names::RULES,
    dead::RULES,
    automation::RULES,
    exec::RULES,
    sandbox::RULES,
    exposure::RULES,
    gateway::RULES,
    gateway_auth::RULES,
    secrets::RULES,
    trust::RULES,
    models::RULES,
    install::RULES,
    installs::RULES,
    extensions::RULES,
    workspace_skills::RULES,
    browser::RULES,
    skills_mcp::RULES,
    mcp::RULES,
];

/// Every rule, ordered by code.
pub fn all_rules() -> &'static [&'static Rule] {
    static RULES: OnceLock<Vec<&'static Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        let mut all: Vec<&'static Rule> = ALL.iter().flat_map(|group| group.iter()).collect();
        all.sort_by_key(|r| r.code);
        all
    })
}

/// A rule by code (any case) or name.
pub fn find_rule(name: &str) -> Option<&'static Rule> {
    all_rules().iter().copied().find(|r| r.is_named(name))
}
