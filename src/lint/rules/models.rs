//! The models agents run on, as `openclaw security audit` classifies them: legacy families, tiers
//! below the recommended ones, and small models (300B parameters or fewer) that can reach web or
//! browser tools. The patterns are the release's own; they are hand-written here because the
//! release's regular expressions use JavaScript's ASCII `\b` and, for model sizes, a lookahead
//! (2026.9) or a consumed separator (2026.2) that a regex crate does not reproduce.

use crate::release::lint::{ModelIds, WebSearch};
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::audit::{ToolContext, agent_tool_context, audit_rule, defaults_tool_context, lists};
use super::gateway_auth::env_var;
use super::walk::agents;
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::lint::{Emitter, LintContext, Rule, Severity};

pub const RULES: &[Rule] = &[
    audit_rule!(Models, "CP801", "model-legacy", Security, "models.legacy", legacy_models,
        summary: "A configured model (primary, fallback, image model, or an agent's) is from a legacy family: \
                  GPT-3.5, Claude 2/Instant, or a 2023 GPT-4 snapshot.",
        why: "Older models follow injected instructions more readily and misuse tools more often.",
        example: "agents: { defaults: { model: \"openai/gpt-3.5-turbo\" } }",
        fix: "Use a current, instruction-hardened model for any agent with tools.",
    ),
    audit_rule!(Models, "CP802", "model-weak-tier", Security, "models.weak_tier", weak_tier_models,
        summary: "A configured model is below the recommended tiers: a Haiku model, a GPT model before GPT-5, or a \
                  Claude model before 4.5.",
        why: "Smaller and older models are more susceptible to prompt injection and tool misuse.",
        example: "agents: { defaults: { model: \"anthropic/claude-3-5-haiku\" } }",
        fix: "Use the latest top-tier model for agents with tools or untrusted inboxes.",
    ),
    audit_rule!(Models, "CP803", "small-model-exposed", Error, "models.small_params", small_models,
        summary: "A text model with 300B parameters or fewer (read from its name, e.g. `llama3.1:8b`) is configured; \
                  an error when it can reach web_search, web_fetch or the browser (2026.2: or runs outside a full \
                  sandbox), else a note.",
        why: "Small models are easily steered by injected content; with web or browser tools every page they read \
              is an untrusted input.",
        example: "agents: { defaults: { model: \"ollama/llama3.1:8b\" } }",
        fix: "Deny `group:web` and `browser` for the model (`tools.byProvider[\"ollama/llama3.1:8b\"].deny`) and use \
              `agents.defaults.sandbox.mode: \"all\"`.",
    ),
];

/// A configured model reference and where it is written.
struct ModelRef {
    /// The id the audit classifies (2026.9: resolved through aliases to `provider/model`).
    id: String,
    path: KeyPath,
    /// The agent whose model it is (`None`: `agents.defaults`).
    agent: Option<String>,
    image: bool,
}

/// `resolveAuditModelId` (2026.9): an alias of `agents.defaults.models` gives its model, a bare
/// id gets the default provider (`openai`).
fn resolve_id(ctx: &LintContext<'_>, raw: &str) -> String {
    if ctx.version.lint().model_ids == ModelIds::AsWritten {
        return raw.to_string();
    }
    let aliases = ctx.get(&[keys::AGENTS, keys::DEFAULTS, keys::MODELS]).and_then(Value::as_object);
    let alias = aliases.into_iter().flatten().find(|(_, entry)| {
        entry.get(keys::ALIAS).and_then(Value::as_str).is_some_and(|a| a.trim().eq_ignore_ascii_case(raw))
    });
    let model = alias.map_or(raw, |(key, _)| key.as_str());
    match model.split_once('/') {
        Some((provider, rest)) if !provider.is_empty() => format!("{}/{rest}", provider.trim().to_lowercase()),
        _ => format!("openai/{model}"),
    }
}

/// Every configured model: `agents.defaults.model` and `imageModel` (primary, fallbacks), then each
/// agent's `model`, in the audit's order.
fn model_refs(ctx: &LintContext<'_>) -> Vec<ModelRef> {
    let mut out = Vec::new();
    let mut add = |value: Option<&Value>, path: KeyPath, agent: Option<&str>, image: bool| {
        if let Some(raw) = value.and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()) {
            out.push(ModelRef { id: resolve_id(ctx, raw), path, agent: agent.map(String::from), image });
        }
    };
    for key in ["model", "imageModel"] {
        let path = KeyPath::keys(&[keys::AGENTS, keys::DEFAULTS, key]);
        let image = key == "imageModel";
        match path.lookup(ctx.config()) {
            Some(value @ Value::String(_)) => add(Some(value), path, None, image),
            Some(Value::Object(model)) => {
                add(model.get(keys::PRIMARY), path.key(keys::PRIMARY), None, image);
                for (i, fallback) in
                    model.get(keys::FALLBACKS).and_then(Value::as_array).into_iter().flatten().enumerate()
                {
                    add(Some(fallback), path.key(keys::FALLBACKS).index(i), None, image);
                }
            }
            _ => {}
        }
    }
    for agent in agents(ctx) {
        let Some(entry) = &agent.path else { continue };
        let path = entry.key(keys::MODEL);
        match path.lookup(ctx.config()) {
            Some(value @ Value::String(_)) => add(Some(value), path, Some(&agent.id), false),
            Some(Value::Object(model)) => {
                add(model.get(keys::PRIMARY), path.key(keys::PRIMARY), Some(&agent.id), false);
                for (i, fallback) in
                    model.get(keys::FALLBACKS).and_then(Value::as_array).into_iter().flatten().enumerate()
                {
                    add(Some(fallback), path.key(keys::FALLBACKS).index(i), Some(&agent.id), false);
                }
            }
            _ => {}
        }
    }
    out
}

/// A pattern of the release's; `(?-u:\b)` is JavaScript's ASCII word boundary.
fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("the audit's model patterns compile")
}

/// Whether a model id holds each literal in any case: a pattern that starts with one cannot
/// match an id without it, so it is neither compiled nor run (compiling the case-insensitive
/// patterns was a third of a small `lint`). Lower-casing maps every case variant of an ASCII
/// letter to it (the Kelvin sign to `k`), except `ſ`, which no literal here holds.
fn has_literal(id: &str) -> impl Fn(&str) -> bool {
    let lower = id.to_lowercase();
    move |literal| {
        debug_assert!(!literal.contains('s'));
        lower.contains(literal)
    }
}

/// The legacy family of a model id (first match wins), if any.
fn legacy_family(id: &str) -> Option<&'static str> {
    let has = has_literal(id);
    if !has("gpt-") && !has("claude-") {
        return None;
    }
    static PATTERNS: std::sync::OnceLock<Vec<(Regex, &'static str)>> = std::sync::OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        vec![
            (regex(r"(?i)(?-u:\b)gpt-3\.5(?-u:\b)"), "GPT-3.5 family"),
            (regex(r"(?i)(?-u:\b)claude-(instant|2)(?-u:\b)"), "Claude 2/Instant family"),
            (regex(r"(?i)(?-u:\b)gpt-4-(0314|0613)(?-u:\b)"), "legacy GPT-4 snapshot"),
        ]
    });
    patterns.iter().find(|(re, _)| re.is_match(id)).map(|(_, label)| *label)
}

/// Why a model id is below the recommended tiers (empty: it is not). Each pattern is compiled
/// the first time an id holds its literal; the ones that tell a current model from an older one
/// of its family only for an id of that family.
fn weak_reasons(id: &str) -> Vec<&'static str> {
    static HAIKU: LazyLock<Regex> = LazyLock::new(|| regex(r"(?i)(?-u:\b)haiku(?-u:\b)"));
    static GPT: LazyLock<Regex> = LazyLock::new(|| regex(r"(?i)(?-u:\b)gpt-"));
    static GPT5: LazyLock<Regex> = LazyLock::new(|| regex(r"(?i)(?-u:\b)gpt-5(?:(?-u:\b)|[.-])"));
    static CLAUDE: LazyLock<Regex> = LazyLock::new(|| regex(r"(?i)(?-u:\b)claude-"));
    static CLAUDE_45: LazyLock<Regex> = LazyLock::new(|| {
        regex(
            r"(?i)(?-u:\b)claude-[^\s/]*?(?:-4-?(?:[5-9]|[1-9][0-9])(?-u:\b)|4\.(?:[5-9]|[1-9][0-9])(?-u:\b)|-[5-9](?:(?-u:\b)|[.-]))",
        )
    });
    let has = has_literal(id);
    let mut reasons = Vec::new();
    if has("haiku") && HAIKU.is_match(id) {
        reasons.push("Haiku tier");
    }
    if has("gpt-") && GPT.is_match(id) && !GPT5.is_match(id) {
        reasons.push("below the GPT-5 family");
    }
    if has("claude-") && CLAUDE.is_match(id) && !CLAUDE_45.is_match(id) {
        reasons.push("below Claude 4.5");
    }
    reasons
}

fn legacy_models(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for model in model_refs(ctx) {
        if let Some(family) = legacy_family(&model.id) {
            out.report(&model.path, format!("`{}` is a {family} model", model.id))
                .help("use a current, instruction-hardened model for agents with tools");
        }
    }
}

fn weak_tier_models(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for model in model_refs(ctx) {
        let reasons = weak_reasons(&model.id);
        if !reasons.is_empty() {
            out.report(&model.path, format!("`{}` is {}", model.id, reasons.join(" and ")))
                .help("prefer GPT-5+ or Claude 4.5+ for agents with tools or untrusted inboxes");
        }
    }
}

/// `inferParamBFromIdOrName`: the largest `<n>b` size token (`8b`, `q4b`, `1.5b`) of the lower-cased
/// id. The token must be preceded by the start or a character outside `[a-z0-9]` and followed by
/// the end or such a character; 2026.2 consumes that following character, so `7b-8b` gives 7.
fn parameter_billions(version: OpenClawVersion, id: &str) -> Option<f64> {
    static TOKEN: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let text = id.trim().to_lowercase();
    // A size token ends in a digit and `b`: most ids have none, and need no pattern compiled.
    if !text.as_bytes().windows(2).any(|pair| pair[0].is_ascii_digit() && pair[1] == b'b') {
        return None;
    }
    let token = TOKEN.get_or_init(|| regex(r"(?:^|[^a-z0-9])[a-z]?([0-9]+(?:\.[0-9]+)?)b"));
    let separator = |c: char| !c.is_ascii_lowercase() && !c.is_ascii_digit();
    let mut best: Option<f64> = None;
    let mut at = 0;
    while let Some(found) = token.captures_at(&text, at) {
        let whole = found.get(0).expect("group 0");
        let next = text[whole.end()..].chars().next();
        if next.is_some_and(|c| !separator(c)) {
            at = whole.start() + text[whole.start()..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        if let Some(value) = found[1].parse::<f64>().ok().filter(|v| v.is_finite() && *v > 0.0) {
            best = Some(best.map_or(value, |b| b.max(value)));
        }
        at = match next {
            Some(c) if version.lint().size_scan_skips_separator => whole.end() + c.len_utf8(),
            _ => whole.end(),
        };
    }
    best
}

/// The largest size the audit counts as small.
const SMALL_MODEL_MAX_BILLIONS: f64 = 300.0;

/// Whether web search counts as configured: `tools.web.search.enabled`, else a credential in the
/// config or the environment.
fn web_search_enabled(ctx: &LintContext<'_>) -> bool {
    let search = ctx.get(&[keys::TOOLS, keys::WEB, keys::SEARCH]);
    match search.and_then(|s| s.get(keys::ENABLED)) {
        Some(Value::Bool(enabled)) => return *enabled,
        _ if ctx.version.lint().web_search == WebSearch::SearchKeys => {
            let truthy = |v: Option<&Value>| v.is_some_and(crate::base::js::js_truthy);
            let env = ctx.loaded.effective_env();
            return truthy(search.and_then(|s| s.get(keys::API_KEY)))
                || truthy(search.and_then(|s| s.get(keys::PERPLEXITY).and_then(|p| p.get(keys::API_KEY))))
                || lists(ctx.version)
                    .web_search_env_vars
                    .iter()
                    .any(|name| env.get(name).is_some_and(|v| !v.is_empty()));
        }
        _ => {}
    }
    let configured = |value: &Value| match value {
        Value::String(s) => !s.trim().is_empty(),
        Value::Null => false,
        _ => true,
    };
    let has_candidate = |section: Option<&Value>| {
        section.and_then(Value::as_object).is_some_and(|s| s.iter().any(|(k, v)| k != keys::ENABLED && configured(v)))
    };
    let plugin_entries = ctx.get(&[keys::PLUGINS, keys::ENTRIES]).and_then(Value::as_object);
    has_candidate(search)
        || plugin_entries
            .into_iter()
            .flatten()
            .any(|(_, entry)| has_candidate(entry.get(keys::CONFIG).and_then(|c| c.get(keys::WEB_SEARCH))))
        || lists(ctx.version).web_search_env_vars.iter().any(|name| env_var(ctx, name).is_some())
}

/// Whether the browser tool is on: `browser.enabled` is not `false` and (2026.9) the plugin policy
/// lets the bundled browser plugin load.
fn browser_enabled(ctx: &LintContext<'_>) -> bool {
    if ctx.get(&[keys::BROWSER, keys::ENABLED]) == Some(&Value::Bool(false)) {
        return false;
    }
    // Without a bundled browser plugin, nothing but `browser.enabled` can turn the browser off.
    if ctx.version.plugins().plugin("browser").is_none() {
        return true;
    }
    let plugins = |key: &str| ctx.get(&[keys::PLUGINS, key]);
    let ids = |value: Option<&Value>| -> Vec<String> {
        value
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|s| s.trim().to_lowercase())
            .collect()
    };
    let allow = ids(plugins(keys::ALLOW));
    plugins(keys::ENABLED) != Some(&Value::Bool(false))
        && !ids(plugins(keys::DENY)).iter().any(|id| id == "browser")
        && ctx.get(&[keys::PLUGINS, keys::ENTRIES, "browser", keys::ENABLED]) != Some(&Value::Bool(false))
        && (allow.is_empty() || allow.iter().any(|id| id == "browser"))
}

/// The web and browser tools a small model's context can use.
fn exposed_tools(ctx: &LintContext<'_>, context: &ToolContext) -> Vec<&'static str> {
    let mut exposed = Vec::new();
    if web_search_enabled(ctx) && context.allows("web_search") {
        exposed.push("web_search");
    }
    if ctx.get(&[keys::TOOLS, keys::WEB, keys::FETCH, keys::ENABLED]) != Some(&Value::Bool(false))
        && context.allows("web_fetch")
    {
        exposed.push("web_fetch");
    }
    if browser_enabled(ctx) && context.allows("browser") {
        exposed.push("browser");
    }
    exposed
}

fn small_models(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let small: Vec<(ModelRef, f64)> = model_refs(ctx)
        .into_iter()
        .filter(|m| !m.image)
        .filter_map(|m| {
            parameter_billions(ctx.version, &m.id).filter(|b| *b <= SMALL_MODEL_MAX_BILLIONS).map(|b| (m, b))
        })
        .collect();
    let mut verdicts = Vec::new();
    for (model, billions) in &small {
        // 2026.9 also applies the model's `byProvider` policies.
        let provider_model = ctx
            .version
            .lint()
            .small_models_by_provider
            .then(|| model.id.split_once('/').map(|(p, m)| (p.to_string(), m.to_string())))
            .flatten();
        let context = match &model.agent {
            Some(agent) => agent_tool_context(ctx, agent, provider_model),
            None => defaults_tool_context(ctx, provider_model),
        };
        let Some(context) = context else { continue };
        let exposed = exposed_tools(ctx, &context);
        let unsafe_ = !exposed.is_empty()
            || (ctx.version.lint().unsandboxed_small_models_unsafe && context.sandbox_mode != "all");
        verdicts.push((model, *billions, context.sandbox_mode.clone(), exposed, unsafe_));
    }
    let severity = if verdicts.iter().any(|v| v.4) { Severity::Error } else { Severity::Suggestion };
    for (model, billions, sandbox, exposed, unsafe_) in verdicts {
        let web = if exposed.is_empty() { "no web or browser tools".to_string() } else { exposed.join(", ") };
        let verdict = if unsafe_ { "unsafe" } else { "ok" };
        out.report(
            &model.path,
            format!("`{}` is a small model ({billions}B): {verdict}, sandbox {sandbox}, {web}", model.id),
        )
        .severity(severity)
        .help("deny group:web and browser for it (tools.byProvider) and use sandbox mode `all`");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_sizes_are_read_as_each_release_reads_them() {
        let v9 = OpenClawVersion::V2026_9;
        assert_eq!(parameter_billions(v9, "ollama/llama3.1:8b"), Some(8.0));
        assert_eq!(parameter_billions(v9, "qwen2.5-coder:32b"), Some(32.0));
        assert_eq!(parameter_billions(v9, "mistral-7b-instruct"), Some(7.0));
        assert_eq!(parameter_billions(v9, "x-q4b"), Some(4.0));
        assert_eq!(parameter_billions(v9, "7b-8b"), Some(8.0));
        assert_eq!(parameter_billions(OpenClawVersion::V2026_2, "7b-8b"), Some(7.0));
        assert_eq!(parameter_billions(v9, "gpt-4o"), None);
        assert_eq!(parameter_billions(v9, "llama3b70"), None);
    }

    #[test]
    fn weak_and_legacy_models_are_the_audits() {
        // `-5-` in `claude-3-5-haiku` passes the release's 4.5+ pattern; only the Haiku tier counts.
        assert_eq!(weak_reasons("anthropic/claude-3-5-haiku"), ["Haiku tier"]);
        assert_eq!(weak_reasons("claude-3-opus"), ["below Claude 4.5"]);
        assert_eq!(weak_reasons("openai/gpt-4o"), ["below the GPT-5 family"]);
        assert!(weak_reasons("openai/gpt-5.1").is_empty());
        assert!(weak_reasons("anthropic/claude-opus-4-5").is_empty());
        assert!(weak_reasons("anthropic/claude-sonnet-4.5").is_empty());
        assert_eq!(weak_reasons("claude-sonnet-4"), ["below Claude 4.5"]);
        // The literal checks find every spelling the case-insensitive patterns match.
        assert_eq!(weak_reasons("ANTHROPIC/Claude-3-HAI\u{212a}U"), ["Haiku tier", "below Claude 4.5"]);
        assert_eq!(weak_reasons("OpenAI/GPT-4o"), ["below the GPT-5 family"]);
        assert_eq!(legacy_family("CLAUDE-INSTANT-1"), Some("Claude 2/Instant family"));
        assert_eq!(legacy_family("claude-in\u{17f}tant-1"), Some("Claude 2/Instant family"));
        assert_eq!(legacy_family("Gpt-4-0613"), Some("legacy GPT-4 snapshot"));
        assert_eq!(legacy_family("gpt-3.5-turbo"), Some("GPT-3.5 family"));
        assert_eq!(legacy_family("openai/gpt-4-0613"), Some("legacy GPT-4 snapshot"));
        assert_eq!(legacy_family("claude-instant-1"), Some("Claude 2/Instant family"));
    }
}
