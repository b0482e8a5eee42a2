//! 2026.9's plugin auto-enable, as far as it concerns plugins with agent tools. The release's
//! config loader enables a bundled plugin that the config uses (`plugins.entries.<id>.enabled:
//! true`, and the id joins a restrictive `plugins.allow`), and adds every plugin whose entry
//! carries material settings to a restrictive `plugins.allow`. Hand-written after the release's
//! `plugin-auto-enable` module because the triggers are exact JavaScript checks on the raw config.
//!
//! Not modelled: triggers that need runtime state or concern no tool plugin (configured
//! channels, auth profiles, speech and realtime-voice providers, model ids without a
//! `provider/` prefix).

use std::collections::HashSet;

use serde_json::Value;

use crate::OpenClawVersion;
use crate::base::js::js_trim;
use crate::config::view::agents::roster;
use crate::config::view::models::configured_model_refs;
use crate::config::view::plugins::{PluginsSection, block_switched_off, own_block};
use crate::config::view::tools::{ListKind, ToolsScope};
use crate::release::pack::{AutoEnable, BundledPlugin};

/// What the triggers read from every agent of the config (model settings, tool lists), gathered
/// once per config: read again for every plugin of every session, a fleet's roster made
/// resolution quadratic in its agents.
#[derive(Debug, Default)]
pub struct ConfigUse {
    /// Providers of the explicit `provider/model` references the loader collects.
    model_providers: HashSet<String>,
    /// Names in `allow` / `alsoAllow` of the global and every agent's tool policy, trimmed and
    /// lowercased.
    allowed_names: HashSet<String>,
}

impl ConfigUse {
    pub fn of(config: &Value, version: OpenClawVersion) -> Self {
        let model_providers = configured_model_refs(config, version).iter().filter_map(|r| ref_provider(r)).collect();
        let agents = roster(config, version);
        let blocks = std::iter::once(ToolsScope::global(config)).chain(agents.iter().map(|agent| agent.tools()));
        let allowed_names = blocks
            .flatten()
            .flat_map(|tools| [ListKind::Allow, ListKind::AlsoAllow].map(|kind| tools.list(kind)))
            .flatten()
            .flatten()
            .map(|(_, name)| js_trim(name).to_lowercase())
            .collect();
        ConfigUse { model_providers, allowed_names }
    }
}

/// Whether the loader auto-enables `plugin` (before `plugins.deny` and `enabled: false` entries,
/// which the caller checks). `uses` is [`ConfigUse::of`] the same config.
pub fn auto_enabled(config: &Value, uses: &ConfigUse, plugin: &BundledPlugin) -> bool {
    let Some(rules) = &plugin.auto_enable else { return false };
    let id = plugin.id.as_str();
    let entry = PluginsSection::of(config).entry(id);
    entry.is_some_and(|e| e.configures_any(&rules.tool_config_keys))
        || rules.model_providers.iter().any(|provider| uses.model_providers.contains(provider))
        || web_search_selected(config, rules)
        || (rules.when_referenced && referenced(config, uses, id))
}

/// The browser probe: a top-level block or a plugin entry of that name, or a tool policy naming it.
fn referenced(config: &Value, uses: &ConfigUse, id: &str) -> bool {
    let top_level = own_block(config, id);
    let entry = PluginsSection::of(config).entry(id);
    if block_switched_off(top_level.as_ref()) || entry.as_ref().is_some_and(|e| e.switched_off()) {
        return false;
    }
    top_level.is_some() || entry.is_some() || uses.allowed_names.contains(id)
}

fn web_search_selected(config: &Value, rules: &AutoEnable) -> bool {
    let global = ToolsScope::global(config);
    let enabled = !block_switched_off(global.as_ref().and_then(ToolsScope::web_search).as_ref());
    let provider = global.as_ref().and_then(ToolsScope::web_search_provider);
    enabled && provider.is_some_and(|p| rules.web_search_providers.iter().any(|w| *w == js_trim(p).to_lowercase()))
}

/// The provider of an explicit `provider/model` reference, normalized.
fn ref_provider(model_ref: &str) -> Option<String> {
    let (provider, model) = js_trim(model_ref).split_once('/')?;
    let provider = js_trim(provider).to_lowercase();
    (!provider.is_empty() && !model.is_empty()).then_some(provider)
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn plugin(id: &str) -> &'static BundledPlugin {
        OpenClawVersion::V2026_9.policy().plugins.iter().find(|p| p.id == id).unwrap()
    }

    fn auto(config: Value, id: &str) -> bool {
        auto_enabled(&config, &ConfigUse::of(&config, OpenClawVersion::V2026_9), plugin(id))
    }

    #[test]
    fn browser_probe_follows_references() {
        assert!(auto(json!({"tools": {"allow": [" Browser "]}}), "browser"));
        assert!(auto(json!({"agents": {"entries": {"work": {"tools": {"alsoAllow": ["browser"]}}}}}), "browser"));
        assert!(auto(json!({"browser": {}}), "browser"));
        assert!(auto(json!({"plugins": {"entries": {"browser": {}}}}), "browser"));
        assert!(!auto(json!({"tools": {"allow": ["browser"]}, "browser": {"enabled": false}}), "browser"));
        assert!(!auto(json!({"tools": {"allow": ["browser*", "group:ui"], "deny": ["browser"]}}), "browser"));
        assert!(!auto(json!({"tools": {"byProvider": {"openai": {"allow": ["browser"]}}}}), "browser"));
    }

    #[test]
    fn tool_config_model_refs_and_search_providers() {
        assert!(auto(json!({"plugins": {"entries": {"llm-task": {"config": {"defaultModel": "x"}}}}}), "llm-task"));
        assert!(!auto(json!({"plugins": {"entries": {"llm-task": {"config": {}}}}}), "llm-task"));
        assert!(auto(json!({"agents": {"defaults": {"model": {"primary": "Ollama/llama3"}}}}), "ollama"));
        assert!(!auto(json!({"agents": {"defaults": {"model": "llama3"}}}), "ollama"));
        assert!(auto(json!({"tools": {"web": {"search": {"provider": "grok"}}}}), "xai"));
        assert!(!auto(json!({"tools": {"web": {"search": {"provider": "grok", "enabled": false}}}}), "xai"));
    }
}
