//! Whether 2026.2 builds its `image` tool. With `agents.defaults.imageModel` set it always does;
//! without, `resolveImageModelConfigForTool` tries to pair a vision model with the provider
//! credentials it finds, and the tool exists only when that succeeds. Hand-written after the
//! release's JavaScript because the pairing reads model references and credentials exactly as it
//! does (the provider tables are data: `imageModelPairing` in the version pack).
//!
//! Credentials: the release looks in the process environment (after applying the config's `env`
//! block) and in the agent's `auth-profiles.json`. Offline, only the config's own `env` block is
//! known; the gateway's environment and auth profiles are taken to hold none, as the conformance
//! oracle runs it.

use std::collections::HashMap;

use serde_json::Value;

use crate::OpenClawVersion;
use crate::base::js::js_trim;
use crate::config::env::export_env_block;
use crate::config::view::agents::AgentDefaults;
use crate::config::view::models::provider_lists_vision_model;
use crate::release::pack::ImageModelPairing;

/// Whether the `image` tool is built: an explicit image model, or a pairing from credentials.
pub fn image_tool_built(rules: &ImageModelPairing, config: &Value, version: OpenClawVersion) -> bool {
    explicit_image_model(config) || pairs_vision_model(rules, config, version)
}

/// `coerceImageModelConfig`: a non-blank primary (the string itself, or `primary`), or any
/// `fallbacks` entry at all.
fn explicit_image_model(config: &Value) -> bool {
    let Some(setting) = AgentDefaults::of(config).image_model() else { return false };
    let fallbacks = setting.fallbacks().is_some_and(|f| !f.is_empty());
    setting.primary().is_some_and(|p| !js_trim(p).is_empty()) || fallbacks
}

fn pairs_vision_model(rules: &ImageModelPairing, config: &Value, version: OpenClawVersion) -> bool {
    let env = config_env(config, version);
    let has_credentials = |provider: &str| {
        let provider = normalize_provider(rules, provider);
        rules.credential_env.get(&provider).into_iter().flatten().any(|var| env.get(var).is_some_and(|v| secret_set(v)))
    };
    if rules.any_model_providers.iter().any(|p| has_credentials(p)) {
        return true;
    }
    let provider = default_model_provider(rules, config);
    has_credentials(&provider)
        && (rules.paired_providers.contains(&provider) || provider_lists_vision_model(config, &provider))
}

/// The variables the config's `env` block puts into the gateway's environment.
fn config_env(config: &Value, version: OpenClawVersion) -> HashMap<String, String> {
    let mut env = HashMap::new();
    export_env_block(config, &mut env, version);
    env
}

/// `normalizeOptionalSecretInput`: line breaks removed, trimmed, non-empty.
fn secret_set(value: &str) -> bool {
    let cleaned: String = value.chars().filter(|c| !matches!(c, '\r' | '\n' | '\u{2028}' | '\u{2029}')).collect();
    !js_trim(&cleaned).is_empty()
}

/// `normalizeProviderId`: trimmed, lowercased, known alternative spellings mapped.
fn normalize_provider(rules: &ImageModelPairing, provider: &str) -> String {
    let lowered = js_trim(provider).to_lowercase();
    rules.provider_aliases.get(&lowered).cloned().unwrap_or(lowered)
}

/// The provider of the default model (`resolveConfiguredModelRef` on `agents.defaults.model`):
/// `provider/model`, a model alias from `agents.defaults.models`, else the default provider.
fn default_model_provider(rules: &ImageModelPairing, config: &Value) -> String {
    let setting = AgentDefaults::of(config).model();
    let raw = setting.as_ref().and_then(|m| m.primary()).map_or("", js_trim);
    let provider = if raw.is_empty() {
        None
    } else if raw.contains('/') {
        model_ref_provider(rules, raw)
    } else {
        alias_provider(rules, config, raw)
    };
    provider.unwrap_or_else(|| rules.default_provider.clone())
}

/// `parseModelRef`'s provider: the part before the first `/` (the default provider without one);
/// `None` when either side is blank.
fn model_ref_provider(rules: &ImageModelPairing, raw: &str) -> Option<String> {
    let trimmed = js_trim(raw);
    match trimmed.split_once('/') {
        None if trimmed.is_empty() => None,
        None => Some(rules.default_provider.clone()),
        Some((provider, model)) if js_trim(provider).is_empty() || js_trim(model).is_empty() => None,
        Some((provider, _)) => Some(normalize_provider(rules, provider)),
    }
}

/// The provider of the `agents.defaults.models` entry whose `alias` is `name` (case-insensitive;
/// the last such entry wins).
fn alias_provider(rules: &ImageModelPairing, config: &Value, name: &str) -> Option<String> {
    let wanted = js_trim(name).to_lowercase();
    let aliases = AgentDefaults::of(config).model_aliases();
    let named = aliases.into_iter().filter(|(_, alias)| !alias.is_empty() && *alias == wanted);
    named.filter_map(|(model, _)| model_ref_provider(rules, model)).next_back()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn built(config: Value) -> bool {
        let pack = OpenClawVersion::V2026_2.policy();
        image_tool_built(pack.image_model_pairing.as_ref().unwrap(), &config, OpenClawVersion::V2026_2)
    }

    #[test]
    fn an_explicit_image_model_needs_a_primary_or_any_fallback() {
        assert!(built(json!({"agents": {"defaults": {"imageModel": "openai/gpt-5-mini"}}})));
        assert!(built(json!({"agents": {"defaults": {"imageModel": {"fallbacks": [""]}}}})));
        assert!(!built(json!({"agents": {"defaults": {"imageModel": {"primary": "  ", "fallbacks": []}}}})));
        assert!(!built(json!({"agents": {"defaults": {"imageModel": {}}}})));
    }

    #[test]
    fn openai_or_anthropic_credentials_in_the_env_block_pair_a_model() {
        assert!(built(json!({"env": {"ANTHROPIC_API_KEY": "sk"}})));
        assert!(built(json!({"env": {"vars": {"OPENAI_API_KEY": "sk"}}})));
        assert!(built(json!({"env": {"vars": {"ANTHROPIC_OAUTH_TOKEN": "t"}}})));
        // A blank direct entry is not exported; a blank `vars` entry is, but holds no secret.
        assert!(!built(json!({"env": {"OPENAI_API_KEY": "  ", "vars": {"ANTHROPIC_API_KEY": " \n"}}})));
        assert!(!built(json!({"env": {"OPENROUTER_API_KEY": "sk"}})));
    }

    #[test]
    fn the_default_provider_pairs_when_it_is_known_or_lists_a_vision_model() {
        let minimax = json!({"agents": {"defaults": {"model": "MiniMax/MiniMax-M2"}}, "env": {"MINIMAX_API_KEY": "k"}});
        assert!(built(minimax));
        let zai = json!({"agents": {"defaults": {"model": {"primary": "z.ai/glm-4.6"}}}, "env": {"Z_AI_API_KEY": "k"}});
        assert!(built(zai));
        let router = |models: Value| {
            json!({"agents": {"defaults": {"model": "openrouter/meta/llama"}}, "env": {"OPENROUTER_API_KEY": "k"},
                "models": {"providers": {"openrouter": {"models": models}}}})
        };
        assert!(built(router(json!([{"id": "vl", "input": ["text", "image"]}]))));
        assert!(!built(router(json!([{"id": " ", "input": ["image"]}, {"id": "t", "input": ["text"]}]))));
        // Credentials for another provider than the default model's do not pair.
        let other = json!({"agents": {"defaults": {"model": "openrouter/x"}}, "env": {"MINIMAX_API_KEY": "k"}});
        assert!(!built(other));
    }

    #[test]
    fn a_model_alias_names_the_default_provider() {
        let config = json!({"agents": {"defaults": {"model": "Fast", "models": {
            "minimax/MiniMax-M2": {"alias": "fast"}}}}, "env": {"MINIMAX_API_KEY": "k"}});
        assert!(built(config));
        // Without a matching alias a bare model id belongs to the default provider (anthropic).
        let bare = json!({"agents": {"defaults": {"model": "MiniMax-M2"}}, "env": {"MINIMAX_API_KEY": "k"}});
        assert!(!built(bare));
    }
}
