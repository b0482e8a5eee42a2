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

use super::session::roster;
use crate::OpenClawVersion;
use crate::base::js::js_trim;
use crate::config::path::KeyPath;
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
        let blocks = std::iter::once(config.get("tools")).chain(agents.iter().map(|agent| agent.value.get("tools")));
        let allowed_names = blocks
            .flat_map(|tools| ["allow", "alsoAllow"].map(|field| tools.and_then(|t| t.get(field))))
            .filter_map(|list| list.and_then(Value::as_array))
            .flatten()
            .filter_map(Value::as_str)
            .map(|name| js_trim(name).to_lowercase())
            .collect();
        ConfigUse { model_providers, allowed_names }
    }
}

/// Whether the loader auto-enables `plugin` (before `plugins.deny` and `enabled: false` entries,
/// which the caller checks). `uses` is [`ConfigUse::of`] the same config.
pub fn auto_enabled(config: &Value, uses: &ConfigUse, plugin: &BundledPlugin) -> bool {
    let Some(rules) = &plugin.auto_enable else { return false };
    let id = plugin.id.as_str();
    let entry = KeyPath::keys(&["plugins", "entries", id]).lookup(config);
    let tool_configured = entry
        .and_then(|e| e.get("config"))
        .and_then(Value::as_object)
        .is_some_and(|c| rules.tool_config_keys.iter().any(|k| c.get(k).is_some()));
    tool_configured
        || rules.model_providers.iter().any(|provider| uses.model_providers.contains(provider))
        || web_search_selected(config, rules)
        || (rules.when_referenced && referenced(config, uses, id))
}

/// Whether a restrictive `plugins.allow` gains `id` because its entry has material settings
/// (`enabled: true`, a `config`, `hooks`, `subagent` or `llm` object, `apiKey` or `env`).
pub fn entry_allowlisted(config: &Value, id: &str) -> bool {
    let Some(entry) = KeyPath::keys(&["plugins", "entries", id]).lookup(config).and_then(Value::as_object) else {
        return false;
    };
    let is_object = |key: &str| entry.get(key).is_some_and(Value::is_object);
    entry.get("enabled") == Some(&Value::Bool(true))
        || ["config", "hooks", "subagent", "llm"].into_iter().any(is_object)
        || entry.contains_key("apiKey")
        || entry.contains_key("env")
}

/// The browser probe: a top-level block or a plugin entry of that name, or a tool policy naming it.
fn referenced(config: &Value, uses: &ConfigUse, id: &str) -> bool {
    let top_level = config.get(id);
    let entry = KeyPath::keys(&["plugins", "entries", id]).lookup(config);
    let disabled = |block: Option<&Value>| block.and_then(|b| b.get("enabled")) == Some(&Value::Bool(false));
    if disabled(top_level) || disabled(entry) {
        return false;
    }
    top_level.is_some() || entry.is_some() || uses.allowed_names.contains(id)
}

fn web_search_selected(config: &Value, rules: &AutoEnable) -> bool {
    let search = KeyPath::keys(&["tools", "web", "search"]).lookup(config);
    let enabled = search.and_then(|s| s.get("enabled")) != Some(&Value::Bool(false));
    let provider = search.and_then(|s| s.get("provider")).and_then(Value::as_str);
    enabled && provider.is_some_and(|p| rules.web_search_providers.iter().any(|w| *w == js_trim(p).to_lowercase()))
}

/// The provider of an explicit `provider/model` reference, normalized.
fn ref_provider(model_ref: &str) -> Option<String> {
    let (provider, model) = js_trim(model_ref).split_once('/')?;
    let provider = js_trim(provider).to_lowercase();
    (!provider.is_empty() && !model.is_empty()).then_some(provider)
}

/// The model references the loader collects (`collectConfiguredModelRefs` without per-channel
/// overrides): tool, agent, hook and TTS model settings.
fn configured_model_refs(config: &Value, version: OpenClawVersion) -> Vec<String> {
    let mut refs = Vec::new();
    selector(&mut refs, config, &["tools", "exec", "reviewer", "model"]);
    for kind in ["image", "audio", "video"] {
        plain(&mut refs, config, &["tools", "media", kind, "preferredModel"]);
    }
    if let Some(defaults) = KeyPath::keys(&["agents", "defaults"]).lookup(config) {
        agent_model_refs(&mut refs, defaults, false);
    }
    for entry in roster(config, version) {
        agent_model_refs(&mut refs, entry.value, true);
    }
    let mappings = KeyPath::keys(&["hooks", "mappings"]).lookup(config).and_then(Value::as_array);
    for mapping in mappings.into_iter().flatten() {
        plain(&mut refs, mapping, &["model"]);
    }
    plain(&mut refs, config, &["hooks", "gmail", "model"]);
    plain(&mut refs, config, &["tts", "summaryModel"]);
    let discord = KeyPath::keys(&["channels", "discord"]).lookup(config);
    let accounts = discord.and_then(|d| d.get("accounts")).and_then(Value::as_object);
    let voices =
        discord.into_iter().chain(accounts.into_iter().flat_map(|a| a.values())).filter_map(|d| d.get("voice"));
    for voice in voices {
        plain(&mut refs, voice, &["model"]);
        plain(&mut refs, voice, &["tts", "summaryModel"]);
    }
    refs
}

fn agent_model_refs(refs: &mut Vec<String>, agent: &Value, is_entry: bool) {
    for key in ["model", "utilityModel", "imageModel", "voiceModel", "pdfModel"] {
        selector(refs, agent, &[key]);
    }
    for kind in ["image", "video", "music"] {
        selector(refs, agent, &["mediaModels", kind]);
    }
    plain(refs, agent, &["heartbeat", "model"]);
    selector(refs, agent, &["subagents", "model"]);
    plain(refs, agent, &["compaction", "model"]);
    plain(refs, agent, &["compaction", "memoryFlush", "model"]);
    refs.extend(agent.get("models").and_then(Value::as_object).into_iter().flat_map(|m| m.keys().cloned()));
    if is_entry {
        selector(refs, agent, &["tools", "exec", "reviewer", "model"]);
        plain(refs, agent, &["tts", "summaryModel"]);
    }
}

/// A model setting: `"provider/model"` or `{primary, fallbacks}`.
fn selector(refs: &mut Vec<String>, root: &Value, path: &[&str]) {
    match KeyPath::keys(path).lookup(root) {
        Some(Value::Object(m)) => {
            refs.extend(m.get("primary").and_then(Value::as_str).map(str::to_string));
            let fallbacks = m.get("fallbacks").and_then(Value::as_array).into_iter().flatten();
            refs.extend(fallbacks.filter_map(Value::as_str).map(str::to_string));
        }
        other => refs.extend(other.and_then(Value::as_str).map(str::to_string)),
    }
}

/// A model setting that is only ever a string.
fn plain(refs: &mut Vec<String>, root: &Value, path: &[&str]) {
    refs.extend(KeyPath::keys(path).lookup(root).and_then(Value::as_str).map(str::to_string));
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

    #[test]
    fn material_entries_join_the_allowlist() {
        assert!(entry_allowlisted(&json!({"plugins": {"entries": {"canvas": {"config": {}}}}}), "canvas"));
        assert!(entry_allowlisted(&json!({"plugins": {"entries": {"canvas": {"enabled": true}}}}), "canvas"));
        assert!(!entry_allowlisted(&json!({"plugins": {"entries": {"canvas": {}}}}), "canvas"));
        assert!(!entry_allowlisted(&json!({"plugins": {"entries": {"canvas": {"enabled": false}}}}), "canvas"));
    }
}
