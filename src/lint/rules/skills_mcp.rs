//! 2026.9's check that agent skill allowlists do not fence host exec off from MCP servers: an agent
//! (or `agents.defaults`) with a `skills` allowlist whose exec runs on the gateway or a node with a
//! security other than `deny`, while MCP servers are configured (`mcp.servers`) or, on the install
//! being linted, listed in the state directory's `skills/config/mcporter.json`. Exec security is
//! the runtime's (unset means `full` on a host), capped by the approvals store when there is one.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::audit::audit_rule;
use super::install::install_state_dir;
use super::walk::agents;
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::exec::approvals::resolve_for_agent;
use crate::exec::posture::Security;
use crate::exec::settings::{self, WhatIf};
use crate::lint::{Emitter, LintContext, Rule};

pub const RULES: &[Rule] = &[
    audit_rule!(Exec, "CP415", "skill-allowlist-not-an-mcp-boundary", Security,
        "tools.exec.agent_skill_mcp_boundary_drift", boundary_drift,
        summary: "An agent with a `skills` allowlist can run exec on the gateway or a node host while MCP servers are \
                  configured (`mcp.servers`, or the install's `skills/config/mcporter.json`).",
        why: "`skills` only filters which skills the agent sees; a host shell can still start any MCP client or read \
              the global MCP registry.",
        example: "// OpenClaw 2026.9, 2026.8:\nagents: { entries: { ops: { skills: [\"github\"] } } }, mcp: { servers: { gh: { command: \"gh-mcp\" } } }\n// OpenClaw 2026.7:\nagents: { list: [{ id: \"ops\", skills: [\"github\"] }] }, mcp: { servers: { gh: { command: \"gh-mcp\" } } }",
        fix: "Give agents that need MCP isolation exec security `deny` or a tight allowlist, or run them sandboxed.",
    ),
    audit_rule!(Exec, "CP416", "mcporter-registry-unreadable", Security,
        "tools.exec.mcporter_registry_inspection_incomplete", registry_unreadable,
        summary: "On the install being linted, `<state>/skills/config/mcporter.json` exists but cannot be inspected \
                  (not a regular file, unreadable, over 16 MiB, or not JSON), while an agent has a skills allowlist \
                  and host exec.",
        why: "Nobody can tell which MCP servers a host exec process can reach.",
        example: "// <state>/skills/config/mcporter.json holding invalid JSON",
        fix: "Repair or remove the file.",
    ),
];

/// A scope with a skills allowlist whose exec reaches a host.
struct Scope {
    path: KeyPath,
    label: String,
}

/// `collectAgentSkillMcpBoundaryScopes`.
fn scopes(ctx: &LintContext<'_>) -> Vec<Scope> {
    let defaults_have = ctx
        .get(&[keys::AGENTS, keys::DEFAULTS])
        .and_then(Value::as_object)
        .is_some_and(|d| d.contains_key(keys::SKILLS));
    let mut candidates: Vec<(Option<String>, KeyPath)> = Vec::new();
    if defaults_have {
        candidates.push((None, KeyPath::keys(&[keys::AGENTS, keys::DEFAULTS, keys::SKILLS])));
    }
    for agent in agents(ctx) {
        let Some(entry) = &agent.path else { continue };
        let own = entry.lookup(ctx.config()).and_then(Value::as_object).is_some_and(|e| e.contains_key(keys::SKILLS));
        if own {
            candidates.push((Some(agent.id.clone()), entry.key(keys::SKILLS)));
        } else if defaults_have {
            candidates.push((Some(agent.id.clone()), KeyPath::keys(&[keys::AGENTS, keys::DEFAULTS, keys::SKILLS])));
        }
    }
    candidates
        .into_iter()
        .filter_map(|(agent, path)| {
            let id = agent.clone().unwrap_or_else(|| "main".into());
            let sandbox_mode = match &agent {
                Some(agent) => ctx.sandbox_mode(agent)?,
                None => ctx
                    .get(&[keys::AGENTS, keys::DEFAULTS, keys::SANDBOX, keys::MODE])
                    .and_then(Value::as_str)
                    .unwrap_or("off")
                    .to_string(),
            };
            let requested = match &agent {
                Some(agent) => ctx.exec_settings(agent),
                None => settings::resolve(&defaults_only(ctx.config()), "main", &WhatIf::default(), ctx.version),
            };
            let effective_host = match requested.host.value.as_str() {
                "auto" if sandbox_mode != "off" => "sandbox",
                "auto" => "gateway",
                host => host,
            };
            let capped = ctx.approvals.map(|store| {
                resolve_for_agent(&store.document, &id, requested.security.clone(), requested.ask.clone(), ctx.version)
                    .security
                    .value
            });
            let security = capped.map_or(requested.security.value, |store| store.min(requested.security.value));
            (security != Security::Deny && effective_host != "sandbox").then(|| Scope {
                label: agent.map_or_else(|| "agents.defaults".to_string(), |a| format!("agent `{a}`")),
                path,
            })
        })
        .collect()
}

/// The config without agent entries: what the `agents.defaults` scope's exec settings read.
fn defaults_only(config: &Value) -> Value {
    let mut stripped = config.clone();
    if let Some(agents) = stripped.get_mut("agents").and_then(Value::as_object_mut) {
        agents.remove("entries");
        agents.remove("list");
    }
    stripped
}

/// The state directory's `skills/config/mcporter.json`, on the install being linted.
fn mcporter_registry(ctx: &LintContext<'_>) -> Option<PathBuf> {
    Some(install_state_dir(ctx)?.join("skills").join("config").join("mcporter.json"))
}

/// The registry's servers (enabled ones), or why it cannot be inspected.
fn registry_servers(path: &Path) -> Result<Vec<String>, &'static str> {
    const MAX_BYTES: u64 = 16 * 1024 * 1024;
    let Ok(meta) = std::fs::symlink_metadata(path) else { return Ok(Vec::new()) };
    if !meta.is_file() {
        return Err("not a regular file");
    }
    if meta.len() > MAX_BYTES {
        return Err("larger than 16 MiB");
    }
    let text = std::fs::read_to_string(path).map_err(|_| "unreadable")?;
    let doc: Value = crate::base::json::from_str(&text).map_err(|e| match e {
        crate::base::json::JsonError::TooManyValues => "too many values to read",
        crate::base::json::JsonError::Syntax(_) => "not valid JSON",
    })?;
    let servers = doc.get("mcpServers").and_then(Value::as_object).into_iter().flatten();
    Ok(servers.filter(|(_, s)| s.get("enabled") != Some(&Value::Bool(false))).map(|(name, _)| name.clone()).collect())
}

fn boundary_drift(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let scopes = scopes(ctx);
    if scopes.is_empty() {
        return;
    }
    let mut servers: Vec<String> = ctx
        .get(&[keys::MCP, keys::SERVERS])
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(_, s)| s.get(keys::ENABLED) != Some(&Value::Bool(false)))
        .map(|(name, _)| name.clone())
        .collect();
    if let Some(Ok(registry)) = mcporter_registry(ctx).map(|p| registry_servers(&p)) {
        servers.extend(registry);
    }
    if servers.is_empty() {
        return;
    }
    for scope in scopes {
        out.report(
            &scope.path,
            format!(
                "{} filters skills, but its host exec can still reach MCP servers ({})",
                scope.label,
                super::audit::preview(&servers, 4)
            ),
        )
        .help("set exec security `deny` or a tight allowlist for it, or run it sandboxed");
    }
}

fn registry_unreadable(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(path) = mcporter_registry(ctx) else { return };
    let Err(why) = registry_servers(&path) else { return };
    if scopes(ctx).is_empty() {
        return;
    }
    out.report_global(format!("{} cannot be inspected: {why}", path.display())).help("repair or remove the file");
}
