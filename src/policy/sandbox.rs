//! The sandbox tool policy (`resolveSandboxToolPolicyForAgent`): per-field precedence between
//! the agent, the global block and the release's defaults.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::matcher::{CompiledList, PluginGroups};
use super::rules::{Entry, Policy, Source, entries, unique_entries};
pub use crate::config::view::sandbox::FieldSource;
use crate::config::view::sandbox::{tool_list, tool_list_key};
use crate::config::view::tools::{ListKind, ToolsScope};
use crate::release::pack::VersionPack;

/// The resolved sandbox policy plus where its lists came from, for fix-it hints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SandboxPolicy {
    pub policy: Arc<Policy>,
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

fn resolve_field(global: Option<&ToolsScope<'_>>, agent_tools: Option<&ToolsScope<'_>>, kind: ListKind) -> Field {
    let (items, source) = tool_list(global, agent_tools, kind);
    Field { entries: items.map(entries), source }
}

fn builtin(names: &[String], what: &str) -> Vec<Entry> {
    names.iter().map(|n| Entry { pattern: n.clone(), source: Source::builtin(what) }).collect()
}

/// Resolves the sandbox step's policy for an agent.
pub fn resolve(pack: &VersionPack, config: &Value, agent_tools: Option<&ToolsScope<'_>>) -> SandboxPolicy {
    let rules = &pack.sandbox;
    let global = ToolsScope::global(config);
    let field = |kind| resolve_field(global.as_ref(), agent_tools, kind);
    let allow = field(ListKind::Allow);
    let also = if rules.also_allow {
        field(ListKind::AlsoAllow)
    } else {
        Field { entries: None, source: FieldSource::Default }
    };
    let deny = field(ListKind::Deny);
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
        .flat_map(|layer| [(layer, &allow, ListKind::Allow), (layer, &also, ListKind::AlsoAllow)])
        .find(|(layer, field, _)| field.source == *layer && field.entries.is_some())
        .map_or((FieldSource::Default, ListKind::Allow), |(layer, _, kind)| (layer, kind));
    let key = |source, kind| tool_list_key(&rules.agent_key_prefix, source, kind);
    SandboxPolicy {
        policy: Arc::new(Policy { allow: Some(allow_list), deny: Some(deny_list) }),
        allow_source: allow_source.0,
        allow_key: key(allow_source.0, allow_source.1),
        deny_source: deny.source,
        deny_key: key(deny.source, ListKind::Deny),
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
        let agent = crate::config::view::agents::find_agent(&config, OpenClawVersion::V2026_9, "main");
        let resolved = resolve(pack, &config, agent.and_then(|a| a.tools()).as_ref());
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
