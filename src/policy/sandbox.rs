//! The sandbox tool policy (`resolveSandboxToolPolicyForAgent`): per-field precedence between
//! the agent, the global block and the release's defaults.

use serde::Serialize;
use serde_json::Value;

use super::matcher::{CompiledList, PluginGroups};
use super::rules::{Entry, Policy, Source, list_entries, unique_entries};
use super::session::AgentEntry;
use crate::config::path::KeyPath;
use crate::release::pack::VersionPack;

/// Which layer a sandbox field came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldSource {
    Agent,
    Global,
    Default,
}

/// The resolved sandbox policy plus where its lists came from, for fix-it hints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SandboxPolicy {
    pub policy: Policy,
    pub allow_source: FieldSource,
    /// The config key to edit to change the allow list (`tools.sandbox.tools.allow`…).
    pub allow_key: String,
    pub deny_source: FieldSource,
    pub deny_key: String,
}

struct Field {
    entries: Option<Vec<Entry>>,
    source: FieldSource,
}

fn resolve_field(config: &Value, agent_tools: Option<&AgentEntry<'_>>, field: &str) -> Field {
    let agent_path = agent_tools.map(|t| t.path.key("sandbox").key("tools").key(field));
    if let Some(path) = agent_path
        && let Some(entries) = list_entries(path.lookup(config), &path)
    {
        return Field { entries: Some(entries), source: FieldSource::Agent };
    }
    let global = KeyPath::keys(&["tools", "sandbox", "tools", field]);
    match list_entries(global.lookup(config), &global) {
        Some(entries) => Field { entries: Some(entries), source: FieldSource::Global },
        None => Field { entries: None, source: FieldSource::Default },
    }
}

fn builtin(names: &[String], what: &str) -> Vec<Entry> {
    names.iter().map(|n| Entry { pattern: n.clone(), source: Source::builtin(what) }).collect()
}

fn field_key(pack: &VersionPack, source: FieldSource, field: &str) -> String {
    match source {
        FieldSource::Agent => format!("{}.tools.sandbox.tools.{field}", pack.sandbox.agent_key_prefix),
        _ => format!("tools.sandbox.tools.{field}"),
    }
}

/// Resolves the sandbox step's policy for an agent.
pub fn resolve(pack: &VersionPack, config: &Value, agent_tools: Option<&AgentEntry<'_>>) -> SandboxPolicy {
    let rules = &pack.sandbox;
    let allow = resolve_field(config, agent_tools, "allow");
    let also = if rules.also_allow {
        resolve_field(config, agent_tools, "alsoAllow")
    } else {
        Field { entries: None, source: FieldSource::Default }
    };
    let deny = resolve_field(config, agent_tools, "deny");
    let also_entries = also.entries.clone().unwrap_or_default();

    let mut allow_list = match &allow.entries {
        Some(a) if a.is_empty() => Vec::new(),
        Some(a) if also_entries.is_empty() => a.clone(),
        Some(a) => unique_entries(a.iter().chain(&also_entries)),
        None => {
            let defaults = builtin(&rules.default_allow, "sandbox default allow");
            unique_entries(defaults.iter().chain(&also_entries))
        }
    };

    let no_plugins = PluginGroups::default();
    let mut deny_list = match &deny.entries {
        Some(d) => d.clone(),
        None => {
            let reallowed: Vec<Entry> = allow.entries.iter().flatten().chain(&also_entries).cloned().collect();
            let reallow = CompiledList::compile(pack, &reallowed, &no_plugins);
            builtin(&rules.default_deny, "sandbox default deny")
                .into_iter()
                .filter(|d| !(rules.reallow_subtracts_default_deny && reallow.find(&d.pattern).is_some()))
                .collect()
        }
    };

    let compiled_deny = CompiledList::compile(pack, &deny_list, &no_plugins);
    if let Some(extra) = &rules.legacy_image_deny_also_denies
        && compiled_deny.find("image").is_some()
        && compiled_deny.find(extra).is_none()
    {
        deny_list.push(Entry {
            pattern: extra.clone(),
            source: Source::builtin("legacy `image` deny also denies view_image"),
        });
    }
    let forced = &rules.forced_allow;
    let expanded_contains = |list: &[Entry]| {
        list.iter()
            .any(|e| super::matcher::expand_entry(pack, &e.pattern, &no_plugins).iter().any(|(n, _)| n == forced))
    };
    if !allow_list.is_empty() && !expanded_contains(&allow_list) && !expanded_contains(&deny_list) {
        allow_list
            .push(Entry { pattern: forced.clone(), source: Source::builtin("sandbox always allows the image viewer") });
    }

    // The allow list is attributed to the most specific field that shaped it.
    let allow_source = [FieldSource::Agent, FieldSource::Global]
        .into_iter()
        .flat_map(|layer| [(layer, &allow, "allow"), (layer, &also, "alsoAllow")])
        .find(|(layer, field, _)| field.source == *layer && field.entries.is_some())
        .map_or((FieldSource::Default, "allow"), |(layer, _, name)| (layer, name));
    SandboxPolicy {
        policy: Policy { allow: Some(allow_list), deny: Some(deny_list) },
        allow_source: allow_source.0,
        allow_key: field_key(pack, allow_source.0, allow_source.1),
        deny_source: deny.source,
        deny_key: field_key(pack, deny.source, "deny"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use serde_json::json;

    fn names(list: &Option<Vec<Entry>>) -> Vec<String> {
        list.iter().flatten().map(|e| e.pattern.clone()).collect()
    }

    #[test]
    fn defaults_and_also_allow_subtract_from_deny() {
        let pack = OpenClawVersion::V2026_9.policy();
        let config = json!({"tools": {"sandbox": {"tools": {"alsoAllow": ["browser"]}}}});
        let resolved = resolve(pack, &config, None);
        assert!(names(&resolved.policy.allow).contains(&"browser".to_string()));
        assert!(!names(&resolved.policy.deny).contains(&"browser".to_string()));
        assert_eq!(resolved.allow_key, "tools.sandbox.tools.alsoAllow");
        assert_eq!(resolved.deny_source, FieldSource::Default);
    }

    #[test]
    fn agent_image_deny_adds_view_image() {
        let pack = OpenClawVersion::V2026_9.policy();
        let config = json!({"tools": {"sandbox": {"tools": {"allow": ["read"]}}},
            "agents": {"entries": {"main": {"tools": {"sandbox": {"tools": {"deny": ["image"]}}}}}}});
        let agent_tools = AgentEntry {
            path: KeyPath::keys(&["agents", "entries", "main", "tools"]),
            value: &config["agents"]["entries"]["main"]["tools"],
        };
        let resolved = resolve(pack, &config, Some(&agent_tools));
        assert_eq!(names(&resolved.policy.allow), ["read"]);
        assert_eq!(names(&resolved.policy.deny), ["image", "view_image"]);
        assert_eq!(resolved.deny_key, "agents.entries.*.tools.sandbox.tools.deny");
    }

    #[test]
    fn empty_allow_ignores_also_allow() {
        let pack = OpenClawVersion::V2026_9.policy();
        let config = json!({"tools": {"sandbox": {"tools": {"allow": [], "alsoAllow": ["browser"]}}}});
        let resolved = resolve(pack, &config, None);
        assert!(names(&resolved.policy.allow).is_empty());
    }

    #[test]
    fn seed_release_has_no_also_allow_and_forces_image() {
        let pack = OpenClawVersion::V2026_2.policy();
        let config = json!({"tools": {"sandbox": {"tools": {"allow": ["read"], "alsoAllow": ["browser"]}}}});
        let resolved = resolve(pack, &config, None);
        assert_eq!(names(&resolved.policy.allow), ["read", "image"]);
        assert!(names(&resolved.policy.deny).contains(&"browser".to_string()));
    }
}
