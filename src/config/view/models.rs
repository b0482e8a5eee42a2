//! Model settings as the tool builder and the plugin loader read them: a model selector
//! (`"provider/model"` or `{primary, fallbacks}`), the provider blocks of `models.providers`, and
//! every model reference the config names (`collectConfiguredModelRefs`).

use serde_json::Value;

use super::agents::{AgentDefaults, roster};
use super::channels;
use super::located::Located;
pub use super::model_setting::ModelSetting;
use crate::OpenClawVersion;
use crate::base::js::js_trim;
use crate::config::path::KeyPath;

/// `models.providers.<provider>`.
pub fn provider<'a>(config: &'a Value, provider: &str) -> Option<Located<'a>> {
    Located::lookup(config, KeyPath::keys(&["models", "providers", provider]))
}

/// Whether `models.providers.<provider>.baseUrl` is set (a custom endpoint).
pub fn provider_has_base_url(config: &Value, id: &str) -> bool {
    provider(config, id).and_then(|p| p.member("baseUrl")).is_some()
}

/// `resolveProviderVisionModelFromConfig`: `models.providers.<provider>.models` lists a model
/// with a non-blank id whose `input` names `image`.
pub fn provider_lists_vision_model(config: &Value, id: &str) -> bool {
    let models = provider(config, id).and_then(|p| p.member("models"));
    let models = models.as_ref().and_then(|m| m.value.as_array()).into_iter().flatten();
    models.into_iter().any(|model| {
        let id = model.get("id").and_then(Value::as_str).is_some_and(|id| !js_trim(id).is_empty());
        let image = model.get("input").and_then(Value::as_array).is_some_and(|i| i.iter().any(|x| x == "image"));
        id && image
    })
}

/// The model references the 2026.9 loader collects (`collectConfiguredModelRefs` without
/// per-channel overrides): tool, agent, hook and TTS model settings, as written.
pub fn configured_model_refs(config: &Value, version: OpenClawVersion) -> Vec<String> {
    let root = Located::new(KeyPath::root(), config);
    let mut refs = Vec::new();
    selector(&mut refs, &root, &["tools", "exec", "reviewer", "model"]);
    for kind in ["image", "audio", "video"] {
        plain(&mut refs, &root, &["tools", "media", kind, "preferredModel"]);
    }
    if let Some(defaults) = AgentDefaults::of(config).block() {
        agent_model_refs(&mut refs, defaults, false);
    }
    for entry in roster(config, version) {
        agent_model_refs(&mut refs, &entry, true);
    }
    let mappings = root.at(&["hooks", "mappings"]);
    for mapping in mappings.iter().flat_map(|m| m.value.as_array()).flatten() {
        plain(&mut refs, &Located::new(KeyPath::root(), mapping), &["model"]);
    }
    plain(&mut refs, &root, &["hooks", "gmail", "model"]);
    plain(&mut refs, &root, &["tts", "summaryModel"]);
    for voice in channels::discord_voices(config) {
        plain(&mut refs, &voice, &["model"]);
        plain(&mut refs, &voice, &["tts", "summaryModel"]);
    }
    refs
}

fn agent_model_refs(refs: &mut Vec<String>, agent: &Located<'_>, is_entry: bool) {
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
    refs.extend(agent.value.get("models").and_then(Value::as_object).into_iter().flat_map(|m| m.keys().cloned()));
    if is_entry {
        selector(refs, agent, &["tools", "exec", "reviewer", "model"]);
        plain(refs, agent, &["tts", "summaryModel"]);
    }
}

/// A model selector's references.
fn selector(refs: &mut Vec<String>, root: &Located<'_>, keys: &[&str]) {
    if let Some(setting) = root.at(keys) {
        ModelSetting(setting).refs(refs);
    }
}

/// A model setting that is only ever a string.
fn plain(refs: &mut Vec<String>, root: &Located<'_>, keys: &[&str]) {
    refs.extend(root.at(keys).and_then(|l| l.as_str()).map(str::to_string));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn selectors_read_strings_and_objects() {
        let config =
            json!({"a": "openai/gpt-5", "b": {"primary": " ", "fallbacks": ["", "x/y"]}, "c": {"fallbacks": []}});
        let setting = |key: &str| ModelSetting(Located::lookup(&config, KeyPath::keys(&[key])).unwrap());
        assert_eq!(setting("a").primary(), Some("openai/gpt-5"));
        assert!(setting("a").names_a_model() && setting("b").names_a_model() && !setting("c").names_a_model());
        let mut refs = Vec::new();
        setting("b").refs(&mut refs);
        assert_eq!(refs, [" ", "", "x/y"]);
    }

    #[test]
    fn the_collector_reaches_agents_hooks_and_voices() {
        let config = json!({
            "agents": {"defaults": {"model": {"primary": "Ollama/llama3"}}, "entries": {"w": {"tools": {"exec": {"reviewer": {"model": "xai/grok"}}}}}},
            "hooks": {"mappings": [{"model": "a/b"}], "gmail": {"model": "c/d"}},
            "channels": {"discord": {"voice": {"model": "e/f"}, "accounts": {"x": {"voice": {"tts": {"summaryModel": "g/h"}}}}}}
        });
        let refs = configured_model_refs(&config, OpenClawVersion::V2026_9);
        for wanted in ["Ollama/llama3", "xai/grok", "a/b", "c/d", "e/f", "g/h"] {
            assert!(refs.contains(&wanted.to_string()), "{wanted}: {refs:?}");
        }
        let entry = roster(&config, OpenClawVersion::V2026_9).remove(0);
        let mut own = Vec::new();
        agent_model_refs(&mut own, &entry, true);
        assert_eq!(own, ["xai/grok"]);
    }

    #[test]
    fn providers_list_vision_models() {
        let config = json!({"models": {"providers": {"p": {"baseUrl": "http://x", "models": [{"id": " ", "input": ["image"]}, {"id": "v", "input": ["image"]}]}}}});
        assert!(provider_lists_vision_model(&config, "p") && provider_has_base_url(&config, "p"));
        assert!(!provider_lists_vision_model(&config, "q"));
    }
}
