//! Unknown allowlist entries: 2026.9 warns about them (2026.8 too, but not twice: see
//! [`UnknownEntryHandling::WarnUnlessReadProbeWarned`]); 2026.2 also drops allowlists that name no
//! core tool ("plugin-only allowlists") so core tools stay available. The names a release knows
//! without building them (bundled plugins it declares) come with the inventory.

use ahash::AHashSet;
use std::borrow::Cow;
use std::collections::BTreeMap;

use super::Removal;
use super::inventory::Inventory;
use super::rules::{Entry, Source};
use super::steps::Step;
use crate::base::js::lower_case;
use crate::release::pack::{UnknownEntryHandling, VersionPack};

/// The names the pipeline starts from, split into core and plugin tools, borrowed from the
/// session's inventory (copied only where lower-casing changes a name).
pub struct InputNames<'a> {
    core: AHashSet<&'a str>,
    plugin_tools: AHashSet<Cow<'a, str>>,
    plugin_ids: AHashSet<Cow<'a, str>>,
    /// The enabled MCP servers' `<namespace>__`, lowercased.
    mcp_namespaces: &'a [String],
}

impl<'a> InputNames<'a> {
    pub fn new(
        inventory: &'a Inventory,
        removed_before: &BTreeMap<String, Removal>,
        mcp_namespaces: &'a [String],
    ) -> Self {
        let present = inventory.tools.iter().filter(|t| !removed_before.contains_key(&t.name));
        let mut names = InputNames {
            core: AHashSet::with_capacity(inventory.tools.len()),
            plugin_tools: AHashSet::new(),
            plugin_ids: AHashSet::new(),
            mcp_namespaces,
        };
        for tool in present {
            match &tool.plugin {
                Some(plugin) => {
                    names.plugin_tools.insert(lower_case(&tool.name));
                    names.plugin_ids.insert(lower_case(plugin.trim()));
                }
                None => {
                    names.core.insert(&tool.name);
                }
            }
        }
        names.plugin_ids.extend(inventory.declared_plugins.iter().map(|id| Cow::Borrowed(id.as_str())));
        names.plugin_tools.extend(inventory.declared_tools.iter().map(|t| lower_case(t)));
        names
    }

    /// The input of 2026.8's one-tool projection: `read` alone, no plugin tool, no MCP server.
    fn read_probe() -> InputNames<'static> {
        InputNames {
            core: AHashSet::from_iter(["read"]),
            plugin_tools: AHashSet::new(),
            plugin_ids: AHashSet::new(),
            mcp_namespaces: &[],
        }
    }

    /// Whether the run has a plugin with this id or a plugin tool of this name.
    fn has_plugin_or_plugin_tool(&self, name: &str) -> bool {
        self.plugin_ids.contains(name) || self.plugin_tools.contains(name)
    }
}

pub struct Analysis {
    pub strip_allowlist: bool,
    pub warning: Option<String>,
}

/// Analyses one step's allowlist the way the release does.
pub fn analyze(pack: &VersionPack, step: &Step, input: &InputNames) -> Analysis {
    let allow = step.policy.allow.as_deref().unwrap_or_default();
    if allow.is_empty() {
        return Analysis { strip_allowlist: false, warning: None };
    }
    match pack.unknown_allowlist_entries {
        UnknownEntryHandling::Warn => {
            Analysis { strip_allowlist: false, warning: warn_unknown(pack, step, allow, input) }
        }
        UnknownEntryHandling::StripPluginOnly | UnknownEntryHandling::StripPluginOnlyClassified => {
            strip_plugin_only(pack, step, allow, input)
        }
        UnknownEntryHandling::WarnUnlessReadProbeWarned => {
            let warning = warn_unknown(pack, step, allow, input).filter(|text| {
                // The projection reads the configured policies: without what this run adds
                // (a runtime allowlist's `message`, a heartbeat's response tool).
                let configured: Vec<Entry> =
                    allow.iter().filter(|e| !matches!(e.source, Source::Context { .. })).cloned().collect();
                warn_unknown(pack, step, &configured, &InputNames::read_probe()).as_ref() != Some(text)
            });
            Analysis { strip_allowlist: false, warning }
        }
    }
}

/// Whether an entry names at least one core tool present in this run: after static group
/// expansion, exact membership. Globs are not expanded here, so a glob-only allowlist counts as
/// naming no core tool.
fn names_present_core(pack: &VersionPack, entry: &str, input: &InputNames) -> bool {
    let name = pack.normalized(entry);
    match pack.group(&name) {
        Some(members) => members.iter().any(|m| input.core.contains(m.as_str())),
        None => input.core.contains(name.as_ref()),
    }
}

fn warn_unknown(pack: &VersionPack, step: &Step, allow: &[Entry], input: &InputNames) -> Option<String> {
    let mcp = input.mcp_namespaces;
    let mut gated = Vec::new();
    let mut other = Vec::new();
    let mut seen = AHashSet::new();
    for entry in allow {
        let normalized = pack.normalized(&entry.pattern);
        let (members, single) = match pack.expansion(&normalized) {
            Some(members) => (members, None),
            None => (&[][..], Some(normalized)),
        };
        for name in members.iter().map(|m| Cow::Borrowed(m.as_str())).chain(single) {
            if name.is_empty() || name == "*" || !seen.insert(name.clone()) {
                continue;
            }
            let known = names_present_core(pack, &name, input)
                || name == "group:plugins"
                || input.has_plugin_or_plugin_tool(&name)
                || (!mcp.is_empty()
                    && (name == "bundle-mcp"
                        || mcp.iter().any(|p| name.starts_with(p.as_str()) && name.len() > p.len())));
            if known || step.suppress.iter().any(|s| *s == name) {
                continue;
            }
            match pack.is_catalog_tool(&name) {
                true => gated.push(name),
                false => other.push(name),
            }
        }
    }
    if gated.is_empty() && other.is_empty() {
        return None;
    }
    let suffix = unknown_detail(!gated.is_empty(), !other.is_empty());
    let entries = gated.into_iter().chain(other).collect::<Vec<_>>().join(", ");
    Some(format!("tools: {} allowlist contains unknown entries ({entries}). {suffix}", step.label))
}

/// What the warning says about unknown entries: core tools this run does not build (`gated`),
/// names of no tool (`other`), or both.
fn unknown_detail(gated: bool, other: bool) -> &'static str {
    match (gated, other) {
        (true, false) => {
            "These entries are shipped core tools but unavailable in the current runtime/provider/model/config."
        }
        (true, true) => {
            "Some entries are shipped core tools but unavailable in the current runtime/provider/model/config; other entries won't match any tool unless the plugin is enabled."
        }
        _ => "These entries won't match any tool unless the plugin is enabled.",
    }
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
        } else if !(name == "group:plugins" || input.has_plugin_or_plugin_tool(&name) || unknown.contains(&name)) {
            unknown.push(name);
        }
    }
    let strip = !has_core;
    let warning = if unknown.is_empty() {
        None
    } else if pack.unknown_allowlist_entries == UnknownEntryHandling::StripPluginOnlyClassified {
        let gated = unknown.iter().any(|n| pack.is_catalog_tool(n));
        let other = unknown.iter().any(|n| !pack.is_catalog_tool(n));
        // A profile step without alsoAllow (its `suppress` then lists every entry) is quiet
        // about core tools this run does not build.
        let quiet = gated && !other && unknown.iter().all(|n| step.suppress.contains(n));
        let detail = unknown_detail(gated, other);
        let tail =
            if strip { format!("Ignoring allowlist so core tools remain available. {detail}") } else { detail.into() };
        (!quiet).then(|| {
            format!("tools: {} allowlist contains unknown entries ({}). {tail}", step.label, unknown.join(", "))
        })
    } else {
        let tail = if strip {
            "Ignoring allowlist so core tools remain available. Use tools.alsoAllow for additive plugin tool enablement."
        } else {
            unknown_detail(false, true)
        };
        Some(format!("tools: {} allowlist contains unknown entries ({}). {tail}", step.label, unknown.join(", ")))
    };
    Analysis { strip_allowlist: strip, warning }
}
