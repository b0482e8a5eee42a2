//! Unknown allowlist entries: 2026.9 warns about them; 2026.2 also drops allowlists that name no
//! core tool ("plugin-only allowlists") so core tools stay available.

use ahash::AHashSet;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::Removal;
use super::inventory::Inventory;
use super::rules::Entry;
use super::steps::Step;
use crate::config::view::plugins::mcp_server_names;
use crate::release::pack::{UnknownEntryHandling, VersionPack};

/// The names the pipeline starts from, split into core and plugin tools.
pub struct InputNames {
    core: AHashSet<String>,
    plugin_tools: BTreeSet<String>,
    plugin_ids: BTreeSet<String>,
}

impl InputNames {
    pub fn new(inventory: &Inventory, removed_before: &BTreeMap<String, Removal>) -> Self {
        let present = inventory.tools.iter().filter(|t| !removed_before.contains_key(&t.name));
        let mut names =
            InputNames { core: AHashSet::new(), plugin_tools: BTreeSet::new(), plugin_ids: BTreeSet::new() };
        for tool in present {
            match &tool.plugin {
                Some(plugin) => {
                    names.plugin_tools.insert(tool.name.to_lowercase());
                    names.plugin_ids.insert(plugin.trim().to_lowercase());
                }
                None => {
                    names.core.insert(tool.name.clone());
                }
            }
        }
        names.plugin_ids.extend(inventory.declared_plugins.iter().cloned());
        names
    }
}

pub struct Analysis {
    pub strip_allowlist: bool,
    pub warning: Option<String>,
}

/// Analyses one step's allowlist the way the release does.
pub fn analyze(pack: &VersionPack, step: &Step, input: &InputNames, config: &Value) -> Analysis {
    let allow = step.policy.allow.as_deref().unwrap_or_default();
    if allow.is_empty() {
        return Analysis { strip_allowlist: false, warning: None };
    }
    match pack.unknown_allowlist_entries {
        UnknownEntryHandling::Warn => {
            Analysis { strip_allowlist: false, warning: warn_unknown(pack, step, allow, input, config) }
        }
        UnknownEntryHandling::StripPluginOnly => strip_plugin_only(pack, step, allow, input),
    }
}

/// Whether an entry names at least one core tool present in this run: after static group
/// expansion, exact membership. Globs are not expanded here, so a glob-only allowlist counts as
/// naming no core tool.
fn names_present_core(pack: &VersionPack, entry: &str, input: &InputNames) -> bool {
    let name = pack.normalized(entry);
    match pack.group(&name) {
        Some(members) => members.iter().any(|m| input.core.contains(m)),
        None => input.core.contains(name.as_ref()),
    }
}

/// Safe MCP server prefixes (`<server>__`) declared in `mcp.servers`.
fn mcp_prefixes(config: &Value) -> Vec<String> {
    mcp_server_names(config).into_iter().map(|name| format!("{}__", safe_mcp_name(name)).to_lowercase()).collect()
}

/// OpenClaw's MCP server name sanitizing: `[A-Za-z0-9_-]` kept, others `-`, must start with a
/// letter (else `mcp-` prefix), at most 30 characters.
pub fn safe_mcp_name(raw: &str) -> String {
    let replaced: String =
        raw.trim().chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '-' }).collect();
    let named = if replaced.is_empty() { "mcp".to_string() } else { replaced };
    let prefixed = if named.starts_with(|c: char| c.is_ascii_alphabetic()) { named } else { format!("mcp-{named}") };
    prefixed.chars().take(30).collect()
}

fn warn_unknown(
    pack: &VersionPack,
    step: &Step,
    allow: &[Entry],
    input: &InputNames,
    config: &Value,
) -> Option<String> {
    let mcp = mcp_prefixes(config);
    let mut gated = Vec::new();
    let mut other = Vec::new();
    let mut seen = BTreeSet::new();
    for entry in allow {
        let normalized = pack.normalized(&entry.pattern);
        let names = pack.expansion(&normalized).map_or_else(|| vec![normalized.to_string()], <[String]>::to_vec);
        for name in names {
            if name.is_empty() || name == "*" || !seen.insert(name.clone()) {
                continue;
            }
            let known = names_present_core(pack, &name, input)
                || name == "group:plugins"
                || input.plugin_ids.contains(&name)
                || input.plugin_tools.contains(&name)
                || (!mcp.is_empty()
                    && (name == "bundle-mcp" || mcp.iter().any(|p| name.starts_with(p) && name.len() > p.len())));
            if known {
                continue;
            }
            let suppressed = step.suppress.contains(&name);
            if pack.is_catalog_tool(&name) {
                if !suppressed {
                    gated.push(name);
                }
            } else if !suppressed {
                other.push(name);
            }
        }
    }
    if gated.is_empty() && other.is_empty() {
        return None;
    }
    let suffix = match (gated.is_empty(), other.is_empty()) {
        (false, true) => {
            "These entries are shipped core tools but unavailable in the current runtime/provider/model/config."
        }
        (false, false) => {
            "Some entries are shipped core tools but unavailable in the current runtime/provider/model/config; other entries won't match any tool unless the plugin is enabled."
        }
        _ => "These entries won't match any tool unless the plugin is enabled.",
    };
    let entries = gated.into_iter().chain(other).collect::<Vec<_>>().join(", ");
    Some(format!("tools: {} allowlist contains unknown entries ({entries}). {suffix}", step.label))
}

fn strip_plugin_only(pack: &VersionPack, step: &Step, allow: &[Entry], input: &InputNames) -> Analysis {
    let mut has_core = false;
    let mut unknown: Vec<String> = Vec::new();
    for entry in allow {
        let name = pack.normalize(&entry.pattern);
        if name.is_empty() {
            continue;
        }
        if name == "*" || names_present_core(pack, &name, input) {
            has_core = true;
        } else if !(name == "group:plugins"
            || input.plugin_ids.contains(&name)
            || input.plugin_tools.contains(&name)
            || unknown.contains(&name))
        {
            unknown.push(name);
        }
    }
    let strip = !has_core;
    let warning = (!unknown.is_empty()).then(|| {
        let tail = if strip {
            "Ignoring allowlist so core tools remain available. Use tools.alsoAllow for additive plugin tool enablement."
        } else {
            "These entries won't match any tool unless the plugin is enabled."
        };
        format!("tools: {} allowlist contains unknown entries ({}). {tail}", step.label, unknown.join(", "))
    });
    Analysis { strip_allowlist: strip, warning }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_names_are_sanitized() {
        assert_eq!(safe_mcp_name("outlook"), "outlook");
        assert_eq!(safe_mcp_name("my server"), "my-server");
        assert_eq!(safe_mcp_name("1password"), "mcp-1password");
        assert_eq!(safe_mcp_name(""), "mcp");
        assert_eq!(safe_mcp_name(&"x".repeat(40)).len(), 30);
    }
}
