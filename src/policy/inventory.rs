//! Which tools are constructed for a run (the pipeline's input), and the filters OpenClaw applies
//! to that list before the pipeline. Construction depends on config and session in ways the
//! policy lists do not show (sandbox, sub-agent, owner, provider, plugin loading), so `explain`
//! reports "not constructed" separately from "removed by a step".

use std::collections::BTreeMap;

use serde_json::Value;

use super::auto_enable;
use super::channel_tools;
use super::context::SessionContext;
use super::image_pairing;
use super::matcher::{CompiledPolicy, PluginGroups, expand_static_groups};
use super::rules::{Entry, Policy, Source};
use super::sandbox::SandboxPolicy;
use super::session::{Assumption, Session, split_agent_key};
use super::steps::{Step, StepKind, is_non_owner};
use crate::OpenClawVersion;
use crate::base::glob::glob_matches;
use crate::config::path::KeyPath;
use crate::release::pack::{PreFilterReport, VersionPack};

/// A tool constructed for the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InventoryTool {
    pub name: String,
    /// The owning plugin; `None` for core tools.
    pub plugin: Option<String>,
}

/// A filter that removed a constructed tool before the pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreFilter {
    pub label: String,
    pub reason: String,
}

#[derive(Debug, Clone, Default)]
pub struct Inventory {
    pub tools: Vec<InventoryTool>,
    pub not_constructed: BTreeMap<String, String>,
    pub pre_filtered: Vec<(String, PreFilter)>,
    /// Plugin ids known to exist even without tools present (for unknown-entry analysis).
    pub declared_plugins: Vec<String>,
    pub assumptions: Vec<Assumption>,
}

/// The policies that decide which plugin tools load (`collectExplicitAllowlist`).
struct ExplicitLists {
    /// Allow entries of every policy; `None` marks an alsoAllow-only policy ("include defaults").
    allow: Vec<Option<String>>,
    /// Allow entries of the non-profile policies (local-model-lean overrides).
    override_allow: Vec<String>,
    /// Deny entries of every policy, plus owner-only denies for non-owners.
    deny: Vec<String>,
    /// Plugin selection's view, normalized once: the named allow patterns, whether an empty or
    /// alsoAllow-only allowlist includes default plugin tools, and the deny patterns.
    plugin_allow: Vec<String>,
    includes_defaults: bool,
    plugin_deny: Vec<String>,
}

fn explicit_lists(
    pack: &VersionPack,
    steps: &[Step],
    sandbox: Option<&SandboxPolicy>,
    ctx: &SessionContext,
) -> ExplicitLists {
    let mut lists = ExplicitLists {
        allow: Vec::new(),
        override_allow: Vec::new(),
        deny: Vec::new(),
        plugin_allow: Vec::new(),
        includes_defaults: false,
        plugin_deny: Vec::new(),
    };
    let runtime = ctx.tools_allow.as_ref().map(|allow| Policy {
        allow: Some(allow.iter().map(|p| Entry { pattern: p.clone(), source: Source::builtin("runtime") }).collect()),
        deny: None,
    });
    let sandbox_policy = sandbox.map(|s| (StepKind::Sandbox, &s.policy));
    let policies = steps
        .iter()
        .filter(|s| !matches!(s.kind, StepKind::Sandbox | StepKind::OwnerOnly))
        .map(|s| (s.kind, &s.policy))
        .chain(sandbox_policy)
        .chain(runtime.as_ref().map(|p| (StepKind::Runtime, p)));
    for (kind, policy) in policies {
        // Profile steps count with their profile list only; their alsoAllow shows in its own scope.
        let profile = matches!(kind, StepKind::Profile | StepKind::ProviderProfile);
        // The sandbox resolver hands over its lists with static groups already expanded, so a
        // sandbox `group:memory` names `memory_search` to plugin selection (other layers stay raw).
        let as_listed = |pattern: &str| -> Vec<String> {
            if kind == StepKind::Sandbox {
                expand_static_groups(pack, pattern)
            } else {
                Some(pattern.trim().to_string()).into_iter().filter(|p| !p.is_empty()).collect()
            }
        };
        let mut implicit = false;
        for entry in policy.allow.iter().flatten() {
            if profile && !matches!(&entry.source, Source::Builtin { .. }) {
                continue;
            }
            if entry.is_implicit_star() {
                implicit = true;
                continue;
            }
            for pattern in as_listed(&entry.pattern) {
                if !profile {
                    lists.override_allow.push(pattern.clone());
                }
                lists.allow.push(Some(pattern));
            }
        }
        if implicit {
            lists.allow.push(None);
        }
        lists.deny.extend(policy.deny_patterns().flat_map(as_listed));
    }
    if is_non_owner(pack, ctx) {
        lists.deny.extend(pack.owner_only.tools.iter().cloned());
    }
    lists.plugin_allow = lists.allow.iter().flatten().map(|p| pack.normalize(p)).collect();
    lists.includes_defaults = lists.allow.is_empty() || lists.allow.iter().any(Option::is_none);
    lists.plugin_deny = lists.deny.iter().map(|d| pack.normalize(d)).collect();
    lists
}

/// The construction-time check (`allowed_by`): static groups and globs, but none of the pipeline's
/// extras (no shipped renames, no plugin groups, no apply_patch piggyback).
fn allowed(pack: &VersionPack, tool: &str, allow: Option<&[String]>, deny: &[String]) -> bool {
    let name = pack.normalize(tool);
    let hits = |patterns: &[String]| {
        patterns.iter().any(|p| {
            let p = pack.normalize(p);
            match pack.group(&p) {
                Some(members) => members.contains(&name),
                None => pack.plain_glob_matches(&p, &name),
            }
        })
    };
    if hits(deny) {
        return false;
    }
    match allow {
        Some(allow) if allow.iter().any(|p| !pack.normalize(p).is_empty()) => hits(allow),
        _ => true,
    }
}

fn lookup<'a>(config: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    KeyPath::keys(keys).lookup(config)
}

fn is_false(value: Option<&Value>) -> bool {
    value.and_then(Value::as_bool) == Some(false)
}

/// A model setting (`"provider/model"` or `{primary, fallbacks}`) that names a model.
fn model_configured(value: Option<&Value>) -> bool {
    match value {
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(Value::Object(m)) => {
            m.get("primary").and_then(Value::as_str).is_some_and(|p| !p.trim().is_empty())
                || m.get("fallbacks")
                    .and_then(Value::as_array)
                    .is_some_and(|f| f.iter().any(|x| x.as_str().is_some_and(|s| !s.trim().is_empty())))
        }
        _ => false,
    }
}

/// Builds the inventory of a session.
pub fn construct(
    pack: &VersionPack,
    version: OpenClawVersion,
    config: &Value,
    session: &Session<'_>,
    ctx: &SessionContext,
    steps: &[Step],
    sandbox: Option<&SandboxPolicy>,
) -> Inventory {
    let explicit = explicit_lists(pack, steps, sandbox, ctx);
    let mut built: Vec<InventoryTool> = match version {
        OpenClawVersion::V2026_9 => core_tools_2026_9(pack, config, session, ctx, steps, &explicit),
        OpenClawVersion::V2026_2 => core_tools_2026_2(pack, config, session, ctx),
    };
    let (plugin_tools, not_built) = bundled_plugin_tools(pack, version, config, session, ctx, &explicit);
    built.extend(plugin_tools);
    let mut inventory = Inventory::default();
    inventory.not_constructed.extend(not_built);
    for tool in &ctx.plugin_tools {
        match plugin_tool_rejected(&tool.plugin, &tool.name, tool.optional, &explicit) {
            None => built.push(InventoryTool { name: tool.name.clone(), plugin: Some(tool.plugin.clone()) }),
            Some(reason) => {
                inventory.not_constructed.insert(tool.name.clone(), reason.into());
            }
        }
        inventory.declared_plugins.push(tool.plugin.trim().to_lowercase());
    }
    // A name another source built (a declared plugin tool shadowing a bundled one) is constructed.
    inventory.not_constructed.retain(|name, _| !built.iter().any(|t| t.name == *name));
    let dropped = pre_filter_drops(pack, config, session, ctx, steps, &explicit, &built);
    match pack.pre_filtered_tools {
        PreFilterReport::NotConstructed => {
            built.retain(|t| !dropped.iter().any(|(name, _)| *name == t.name));
            for (name, filter) in dropped {
                inventory.not_constructed.insert(name, filter.reason);
            }
        }
        PreFilterReport::Removed => inventory.pre_filtered = dropped,
    }
    for tool in &pack.tools {
        if !built.iter().any(|t| t.name == tool.id) && !inventory.not_constructed.contains_key(&tool.id) {
            let reason = not_built_reason(pack, config, session, ctx, &tool.id);
            inventory.not_constructed.insert(tool.id.clone(), reason);
        }
    }
    inventory.tools = built;
    inventory
}

fn core(names: &[&str]) -> impl Iterator<Item = InventoryTool> {
    names.iter().map(|n| InventoryTool { name: (*n).to_string(), plugin: None })
}

fn read_only_sandbox(session: &Session<'_>) -> bool {
    session.sandbox.sandboxed && session.sandbox.workspace_access == "ro"
}

/// Whether `apply_patch` is built: `tools.exec.applyPatch` (agent block over global), the model
/// allowlist, the provider gate (2026.2) and the sandbox.
fn apply_patch_built(pack: &VersionPack, config: &Value, session: &Session<'_>, ctx: &SessionContext) -> bool {
    let rules = &pack.apply_patch;
    let agent_setting =
        session.agent_tools.as_ref().and_then(|t| t.value.get("exec")).and_then(|e| e.get("applyPatch"));
    let settings = agent_setting.or_else(|| lookup(config, &["tools", "exec", "applyPatch"]));
    let enabled = settings.and_then(|s| s.get("enabled")).and_then(Value::as_bool);
    if !enabled.unwrap_or(rules.enabled_by_default) || read_only_sandbox(session) {
        return false;
    }
    let provider = ctx.model_provider.as_deref().map(|p| p.trim().to_lowercase()).unwrap_or_default();
    if rules.providers.as_ref().is_some_and(|providers| !providers.contains(&provider)) {
        return false;
    }
    let allow_models: Vec<String> = settings
        .and_then(|s| s.get("allowModels"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|m| m.trim().to_lowercase())
        .filter(|m| !m.is_empty())
        .collect();
    if allow_models.is_empty() {
        return true;
    }
    let model = ctx.model_id.as_deref().map(|m| m.trim().to_lowercase()).unwrap_or_default();
    let qualified =
        if !provider.is_empty() && !model.contains('/') { format!("{provider}/{model}") } else { model.clone() };
    !model.is_empty() && allow_models.iter().any(|m| *m == model || *m == qualified)
}

/// The session is a primary one: not a sub-agent and not an ACP session.
fn is_primary(session_key: &str) -> bool {
    let key = session_key.trim().to_lowercase();
    let rest = split_agent_key(&key).map_or(key.as_str(), |(_, rest)| rest).to_string();
    !rest.starts_with("subagent:") && !rest.starts_with("acp:")
}

/// Channels of the message-channel registry (transcripts need one).
const GATEWAY_CHANNELS: &[&str] = &[
    "a2a",
    "buzz",
    "clickclack",
    "discord",
    "feishu",
    "googlechat",
    "imessage",
    "irc",
    "line",
    "matrix",
    "mattermost",
    "msteams",
    "nextcloud-talk",
    "nostr",
    "qa-channel",
    "raft",
    "reef",
    "signal",
    "slack",
    "sms",
    "synology-chat",
    "telegram",
    "tlon",
    "twitch",
    "whatsapp",
    "zalo",
    "zalouser",
    "webchat",
];

/// Core tools of a 2026.9.6 agent turn (`createOpenClawCodingTools` + `createOpenClawTools`).
fn core_tools_2026_9(
    pack: &VersionPack,
    config: &Value,
    session: &Session<'_>,
    ctx: &SessionContext,
    steps: &[Step],
    explicit: &ExplicitLists,
) -> Vec<InventoryTool> {
    let sandboxed = session.sandbox.sandboxed;
    let mut tools: Vec<InventoryTool> = core(&["ls", "read", "exec", "process"]).collect();
    if !read_only_sandbox(session) {
        tools.extend(core(&["write", "edit"]));
    }
    if apply_patch_built(pack, config, session, ctx) {
        tools.extend(core(&["apply_patch"]));
    }
    tools.extend(core(&[
        "dashboard",
        "nodes",
        "mobile_ui",
        "automations",
        "sessions",
        "theme",
        "message",
        "tts",
        "gateway",
        "plugins",
        "agents_list",
        "get_goal",
        "create_goal",
        "update_goal",
        "sessions_list",
        "sessions_history",
        "sessions_search",
        "conversations_list",
        "conversations_send",
        "conversations_turn",
        "sessions_send",
        "sessions_spawn",
        "sessions_yield",
        "subagents",
        "session_status",
    ]));
    if ctx.model_has_vision != Some(false) {
        tools.extend(core(&["computer"]));
    }
    if !sandboxed {
        tools.extend(core(&["terminal", "portal", "skill_workshop"]));
        if session.agent_id != "openclaw" {
            tools.extend(core(&["openclaw"]));
        }
    }
    let agent_swarm = session.agent_tools.as_ref().and_then(|t| KeyPath::keys(&["swarm", "enabled"]).lookup(t.value));
    if !is_false(agent_swarm.or_else(|| lookup(config, &["tools", "swarm", "enabled"]))) {
        tools.extend(core(&["agents_wait"]));
    }
    if !is_false(lookup(config, &["tools", "web", "search", "enabled"])) {
        tools.extend(core(&["web_search"]));
    }
    if !is_false(lookup(config, &["tools", "web", "fetch", "enabled"])) {
        tools.extend(core(&["web_fetch"]));
    }
    let image_model = model_configured(lookup(config, &["agents", "defaults", "imageModel"]));
    if ctx.model_has_vision == Some(true) || image_model {
        tools.extend(core(&["view_image"]));
    }
    let global_allow: Vec<String> = string_list(lookup(config, &["tools", "allow"]));
    let global_deny: Vec<String> = string_list(lookup(config, &["tools", "deny"]));
    let construction_deny: Vec<String> = global_deny.iter().chain(&explicit.deny).cloned().collect();
    let plugins_on = !is_false(lookup(config, &["plugins", "enabled"]));
    let pdf_model = model_configured(lookup(config, &["agents", "defaults", "pdfModel"])) || image_model;
    let media = |kind: &str| model_configured(lookup(config, &["agents", "defaults", "mediaModels", kind]));
    let factory_tools: Vec<&str> = [
        ("pdf", pdf_model),
        ("image_generate", media("image")),
        ("video_generate", media("video")),
        ("music_generate", media("music")),
    ]
    .into_iter()
    .filter(|(_, configured)| *configured && plugins_on)
    .map(|(tool, _)| tool)
    .collect();
    if !factory_tools.is_empty() {
        let mut allow: Vec<String> = global_allow.clone();
        let mut includes_defaults = false;
        for entry in &explicit.allow {
            match entry {
                Some(pattern) => allow.push(pattern.clone()),
                None => includes_defaults = true,
            }
        }
        if includes_defaults {
            allow.insert(0, "*".into());
        }
        allow.dedup();
        let allow = (!allow.is_empty()).then_some(allow.as_slice());
        for tool in factory_tools {
            if allowed(pack, tool, allow, &construction_deny) {
                tools.extend(core(&[tool]));
            }
        }
    }
    let channel = ctx.message_provider.as_deref().map(|m| m.trim().to_lowercase());
    let sender = ctx.sender_id.as_deref().is_some_and(|s| !s.trim().is_empty());
    if !is_false(lookup(config, &["transcripts", "enabled"]))
        && channel.as_deref().is_some_and(|c| GATEWAY_CHANNELS.contains(&c))
        && sender
    {
        tools.extend(core(&["transcripts"]));
    }
    if is_primary(&session.session_key) {
        for tool in ["ask_user", "secrets"] {
            if allowed(pack, tool, None, &construction_deny) {
                tools.extend(core(&[tool]));
            }
        }
    }
    if progress_card_built(pack, config, ctx, steps, explicit) {
        tools.extend(core(&["progress_card"]));
    }
    tools
}

fn string_list(value: Option<&Value>) -> Vec<String> {
    value.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
}

/// `progress_card` must pass the profile, provider, global, agent and sub-agent policies (with
/// shipped renames), the plugin denylist and the runtime allowlist, unless `tools.updatePlan` is off.
fn progress_card_built(
    pack: &VersionPack,
    config: &Value,
    ctx: &SessionContext,
    steps: &[Step],
    explicit: &ExplicitLists,
) -> bool {
    if is_false(lookup(config, &["tools", "updatePlan"])) {
        return false;
    }
    // These checks apply the shipped renames, so a deny of `update_plan` blocks it.
    let renamed_deny = Policy {
        allow: None,
        deny: Some(
            explicit.deny.iter().map(|p| Entry { pattern: p.clone(), source: Source::builtin("deny") }).collect(),
        ),
    };
    if !CompiledPolicy::compile(pack, &renamed_deny, &PluginGroups::default()).evaluate("progress_card").keeps() {
        return false;
    }
    if let Some(runtime) = &ctx.tools_allow
        && (runtime.is_empty() || !allowed(pack, "progress_card", Some(runtime), &[]))
    {
        return false;
    }
    let gating = [
        StepKind::Profile,
        StepKind::ProviderProfile,
        StepKind::Global,
        StepKind::GlobalProvider,
        StepKind::Agent,
        StepKind::AgentProvider,
        StepKind::Subagent,
    ];
    passes_steps(pack, steps.iter().filter(|s| gating.contains(&s.kind)), "progress_card")
}

/// Whether every given step's policy (with the pipeline's renames) keeps `tool`.
fn passes_steps<'a>(pack: &VersionPack, mut steps: impl Iterator<Item = &'a Step>, tool: &str) -> bool {
    steps.all(|step| CompiledPolicy::compile(pack, &step.policy, &PluginGroups::default()).evaluate(tool).keeps())
}

/// Core tools of a 2026.2.25 agent turn.
fn core_tools_2026_2(
    pack: &VersionPack,
    config: &Value,
    session: &Session<'_>,
    ctx: &SessionContext,
) -> Vec<InventoryTool> {
    let mut tools: Vec<InventoryTool> = core(&[
        "read",
        "exec",
        "process",
        "browser",
        "canvas",
        "nodes",
        "cron",
        "message",
        "tts",
        "gateway",
        "agents_list",
        "sessions_list",
        "sessions_history",
        "sessions_send",
        "sessions_spawn",
        "subagents",
        "session_status",
    ])
    .collect();
    if !read_only_sandbox(session) {
        tools.extend(core(&["write", "edit"]));
    }
    if apply_patch_built(pack, config, session, ctx) {
        tools.extend(core(&["apply_patch"]));
    }
    if !is_false(lookup(config, &["tools", "web", "search", "enabled"])) {
        tools.extend(core(&["web_search"]));
    }
    if !is_false(lookup(config, &["tools", "web", "fetch", "enabled"])) {
        tools.extend(core(&["web_fetch"]));
    }
    if pack.image_model_pairing.as_ref().is_some_and(|rules| image_pairing::image_tool_built(rules, config)) {
        tools.extend(core(&["image"]));
    }
    tools
}

/// Why `tool` is not built when it belongs to a bundled plugin that is off for this run. The
/// inventory leaves these reasons out for tools outside the catalog (see [`construct`]).
pub fn plugin_off_reason(version: OpenClawVersion, config: &Value, ctx: &SessionContext, tool: &str) -> Option<String> {
    let plugin = version.policy().plugins.iter().find(|p| p.tools.iter().any(|t| t == tool))?;
    plugin_disabled(version, config, &auto_enable::ConfigUse::of(config, version), ctx, plugin)
}

/// Why a bundled plugin is off for this run (`plugins.*`, provider activation), or `None` when
/// it loads.
fn plugin_disabled(
    version: OpenClawVersion,
    config: &Value,
    uses: &auto_enable::ConfigUse,
    ctx: &SessionContext,
    plugin: &crate::release::pack::BundledPlugin,
) -> Option<String> {
    let id = plugin.id.as_str();
    if let Some(activation) = &plugin.activation {
        let provider = ctx.model_provider.as_deref().map(|p| p.trim().to_lowercase());
        let keys: Vec<&str> = activation.config_key.split('.').collect();
        let configured = lookup(config, &keys).is_some_and(|v| !v.is_null() && v != "");
        if provider.as_deref() != Some(activation.provider.as_str()) || !configured {
            return Some(format!(
                "plugin `{id}` loads only for provider `{}` with {} set",
                activation.provider, activation.config_key
            ));
        }
    }
    let plugins = config.get("plugins");
    let field = |key: &str| plugins.and_then(|p| p.get(key));
    if is_false(field("enabled")) {
        return Some("plugins.enabled is false".into());
    }
    if string_list(field("deny")).iter().any(|d| d == id) {
        return Some(format!("plugins.deny names `{id}`"));
    }
    let allow = string_list(field("allow"));
    let is_memory_slot = plugin.enabled_by_default.is_none();
    let entry_enabled = KeyPath::keys(&["plugins", "entries", id, "enabled"]).lookup(config).and_then(Value::as_bool);
    let current = version == OpenClawVersion::V2026_9;
    // 2026.9's loader enables a plugin the config uses, unless its entry says `enabled: false`.
    let auto_enabled = current && entry_enabled != Some(false) && auto_enable::auto_enabled(config, uses, plugin);
    let entry_enabled = if auto_enabled { Some(true) } else { entry_enabled };
    // 2026.9 exempts the memory slot plugin from plugins.allow, and its loader adds auto-enabled
    // plugins and entries with material settings to it.
    let allowlisted = allow.iter().any(|a| a == id)
        || (current && (is_memory_slot || auto_enabled || auto_enable::entry_allowlisted(config, id)));
    if !allow.is_empty() && !allowlisted {
        return Some(format!("plugins.allow does not name `{id}`"));
    }
    // 2026.2 ignores `entries.<id>.enabled: false` for the memory slot.
    let slot_ignores_entry = is_memory_slot && version == OpenClawVersion::V2026_2;
    if entry_enabled == Some(false) && !slot_ignores_entry {
        return Some(format!("plugins.entries.{id}.enabled is false"));
    }
    if is_memory_slot {
        return match lookup(config, &["plugins", "slots", "memory"]) {
            None | Some(Value::Null) => None,
            Some(slot) if slot.as_str() == Some(id) => None,
            Some(_) => Some(format!("plugins.slots.memory selects another memory plugin than `{id}`")),
        };
    }
    // 2026.2 also loads a built-in chat channel's plugin that its own channel block switches on.
    let channel_on = plugin.enabled_by_channel
        && KeyPath::keys(&["channels", id, "enabled"]).lookup(config) == Some(&Value::Bool(true));
    let on = entry_enabled == Some(true) || plugin.enabled_by_default == Some(true) || channel_on;
    let channel_switch = if plugin.enabled_by_channel { format!(" or channels.{id}.enabled") } else { String::new() };
    (!on).then(|| format!("plugin `{id}` is off unless plugins.entries.{id}.enabled{channel_switch} is true"))
}

/// OpenClaw's plugin-tool selection (§4.7): wholesale by `*`/`group:plugins`/plugin id, by
/// default for non-optional tools when an allowlist includes defaults, or by name. Returns why
/// the tool is not selected, or `None` when it is.
fn plugin_tool_rejected(plugin: &str, tool: &str, optional: bool, explicit: &ExplicitLists) -> Option<&'static str> {
    let plugin_id = plugin.trim().to_lowercase();
    let matches_any = |name: &str, patterns: &[String]| patterns.iter().any(|p| glob_matches(p, name));
    let deny = &explicit.plugin_deny;
    if matches_any(&plugin_id, deny) || matches_any("group:plugins", deny) || matches_any(tool, deny) {
        return Some("a deny list names the tool, its plugin or group:plugins, so it is not loaded");
    }
    let named = &explicit.plugin_allow;
    let wholesale = named.iter().any(|n| n == "*" || n == "group:plugins" || *n == plugin_id);
    if wholesale || (explicit.includes_defaults && !optional) || matches_any(tool, named) {
        return None;
    }
    Some(if optional {
        "optional plugin tool: no allowlist names it, its plugin, group:plugins or `*`"
    } else {
        "plugin tool not selected: an allowlist is set and names neither the tool nor its plugin"
    })
}

/// The tools of the bundled plugins: those built, and why each other one is not.
fn bundled_plugin_tools(
    pack: &VersionPack,
    version: OpenClawVersion,
    config: &Value,
    session: &Session<'_>,
    ctx: &SessionContext,
    explicit: &ExplicitLists,
) -> (Vec<InventoryTool>, Vec<(String, String)>) {
    let memory_search_on = match version {
        OpenClawVersion::V2026_9 => {
            let agent =
                session.agent.as_ref().and_then(|a| KeyPath::keys(&["memory", "search", "enabled"]).lookup(a.value));
            !is_false(agent.or_else(|| lookup(config, &["memory", "search", "enabled"])))
        }
        OpenClawVersion::V2026_2 => {
            let agent = session.agent.as_ref().and_then(|a| a.value.get("memorySearch")).and_then(|m| m.get("enabled"));
            let setting = agent.or_else(|| lookup(config, &["agents", "defaults", "memorySearch", "enabled"]));
            !is_false(setting)
        }
    };
    let mut built = Vec::new();
    let mut not_built = Vec::new();
    for plugin in &pack.plugins {
        let disabled = plugin_disabled(version, config, &session.config_use, ctx, plugin);
        for tool in &plugin.tools {
            let optional = plugin.optional.contains(tool);
            let rejected = match version {
                OpenClawVersion::V2026_9 => {
                    plugin_tool_rejected(&plugin.id, tool, optional, explicit).map(str::to_string)
                }
                // 2026.2 loads non-optional plugin tools whatever the allowlists say; optional ones
                // need the tool, its plugin or `group:plugins` named exactly (not `*`, not globs).
                OpenClawVersion::V2026_2 => {
                    let named = explicit.allow.iter().flatten().any(|entry| {
                        let name = pack.normalize(entry);
                        name == *tool || name == plugin.id || name == "group:plugins"
                    });
                    (optional && !named).then(|| {
                        "optional plugin tool: 2026.2 needs it, its plugin or group:plugins named in an allowlist"
                            .to_string()
                    })
                }
            };
            let gate = match tool.as_str() {
                "intent" if ctx.sender_is_owner != Some(true) => Some("built only when the sender is the owner"),
                "memory_search" | "memory_get" if !memory_search_on => Some("memory search is off"),
                "lobster" if session.sandbox.sandboxed => Some("not built in sandboxed sessions"),
                _ => None,
            };
            let gate = gate.map(str::to_string).or_else(|| channel_tools::gate_rejects(plugin, tool, config));
            match disabled.clone().or(rejected).or(gate) {
                None => {
                    let owner = (!plugin.channel_agent_tools).then(|| plugin.id.clone());
                    built.push(InventoryTool { name: tool.clone(), plugin: owner })
                }
                // Tools of a plugin that is off are reported only when they are catalog tools, so
                // the answer does not list every tool of every bundled plugin.
                Some(reason) if disabled.is_none() || pack.is_catalog_tool(tool) => {
                    not_built.push((tool.clone(), reason))
                }
                Some(_) => {}
            }
        }
    }
    (built, not_built)
}

/// The tools the pre-pipeline filters drop: the message-provider filter, the 2026.2 owner-only
/// filter, the 2026.9 local-model lean filter and native web search.
fn pre_filter_drops(
    pack: &VersionPack,
    config: &Value,
    session: &Session<'_>,
    ctx: &SessionContext,
    steps: &[Step],
    explicit: &ExplicitLists,
    built: &[InventoryTool],
) -> Vec<(String, PreFilter)> {
    let mut dropped: Vec<(String, PreFilter)> = Vec::new();
    let provider = ctx.message_provider.as_deref().map(|p| p.trim().to_lowercase()).unwrap_or_default();
    if let Some(filter) = pack.message_provider_filter.get(&provider) {
        for tool in built.iter() {
            let kept = filter.keep_only.as_ref().is_none_or(|keep| keep.contains(&tool.name));
            if !kept || filter.remove.contains(&tool.name) {
                dropped.push((
                    tool.name.clone(),
                    PreFilter {
                        label: format!("pre-policy: message provider ({provider})"),
                        reason: format!("the `{provider}` message provider does not offer this tool"),
                    },
                ));
            }
        }
    }
    if pack.owner_only.placement == crate::release::pack::OwnerOnlyPlacement::BeforePipeline && is_non_owner(pack, ctx)
    {
        for tool in built.iter().filter(|t| pack.owner_only.tools.contains(&t.name)) {
            dropped.push((
                tool.name.clone(),
                PreFilter {
                    label: "pre-policy: owner-only (senderIsOwner !== true)".into(),
                    reason: "owner-only tool and the sender is not known to be the owner".into(),
                },
            ));
        }
    }
    if let Some(lean) = &pack.local_model_lean {
        let agent =
            session.agent.as_ref().and_then(|a| KeyPath::keys(&["experimental", "localModelLean"]).lookup(a.value));
        let setting = agent.or_else(|| lookup(config, &["agents", "defaults", "experimental", "localModelLean"]));
        let on = setting.and_then(Value::as_bool) == Some(true);
        if on {
            let keep: Vec<String> = explicit.override_allow.iter().filter(|p| p.as_str() != "*").cloned().collect();
            for tool in built.iter() {
                let name = pack.normalize(&tool.name);
                let kept = !keep.is_empty() && allowed(pack, &name, Some(&keep), &[]);
                if lean.contains(&name) && !kept {
                    dropped.push((
                        tool.name.clone(),
                        PreFilter {
                            label: "pre-policy: local-model lean".into(),
                            reason: "experimental.localModelLean drops this tool for local models".into(),
                        },
                    ));
                }
            }
        }
    }
    if native_web_search(pack, config, ctx, steps) && built.iter().any(|t| t.name == "web_search") {
        let reason = "the provider searches natively, so the managed web_search tool is not offered".to_string();
        dropped.push(("web_search".into(), PreFilter { label: "pre-policy: native web search".into(), reason }));
    }
    dropped
}

/// Whether the run's provider searches natively: the provider and API match, search is on and not
/// pinned to another provider, no custom endpoint, and every policy layer allows `web_search`.
fn native_web_search(pack: &VersionPack, config: &Value, ctx: &SessionContext, steps: &[Step]) -> bool {
    let Some(native) = &pack.native_web_search else { return false };
    let lower = |v: &Option<String>| v.as_deref().map(|s| s.trim().to_lowercase());
    if lower(&ctx.model_provider).as_deref() != Some(native.provider.as_str())
        || lower(&ctx.model_api).as_deref() != Some(native.model_api.as_str())
    {
        return false;
    }
    let search_provider = lookup(config, &["tools", "web", "search", "provider"]).and_then(Value::as_str);
    let custom_endpoint = lookup(config, &["models", "providers", native.provider.as_str(), "baseUrl"]).is_some();
    !is_false(lookup(config, &["tools", "web", "search", "enabled"]))
        && search_provider.is_none_or(|p| p == "auto" || p == native.provider)
        && !custom_endpoint
        && passes_steps(pack, steps.iter(), "web_search")
}

/// A readable reason for a catalog tool that was not built.
fn not_built_reason(
    pack: &VersionPack,
    config: &Value,
    session: &Session<'_>,
    ctx: &SessionContext,
    tool: &str,
) -> String {
    let sandboxed = session.sandbox.sandboxed;
    match tool {
        "write" | "edit" | "apply_patch" if read_only_sandbox(session) => {
            "the sandbox workspace is read-only (workspaceAccess: ro)".into()
        }
        "apply_patch" => {
            let gate = pack
                .apply_patch
                .providers
                .as_ref()
                .map_or(String::new(), |p| format!(" and provider in {}", p.join(", ")));
            format!("needs tools.exec.applyPatch enabled{gate} and the model allowed by allowModels")
        }
        "terminal" | "portal" | "skill_workshop" | "openclaw" if sandboxed => "not built in sandboxed sessions".into(),
        "ask_user" | "secrets" if !is_primary(&session.session_key) => {
            "built only for primary (non-sub-agent) sessions".into()
        }
        "image" if pack.image_model_pairing.is_some() => "needs agents.defaults.imageModel, or credentials from which \
            OpenClaw pairs a vision model (OpenAI, Anthropic, or the default model's provider); clawpolicy sees those \
            in the config's env block only, not in the gateway's environment or auth profiles"
            .into(),
        "view_image" | "image" => "needs a vision model (agents.defaults.imageModel)".into(),
        "pdf" => "needs agents.defaults.pdfModel or imageModel".into(),
        "computer" if ctx.model_has_vision == Some(false) => "the model has no vision".into(),
        "progress_card" if is_false(lookup(config, &["tools", "updatePlan"])) => "tools.updatePlan is false".into(),
        "progress_card" => "blocked at construction by a profile, provider, global, agent or sub-agent policy".into(),
        "web_search" | "web_fetch" => "disabled by tools.web.*.enabled".into(),
        "agents_wait" => "tools.swarm.enabled is false".into(),
        _ => "needs a runtime capability OpenClaw does not have offline (provider, gateway service or channel)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::steps;
    use serde_json::json;

    fn inventory(version: OpenClawVersion, config: &Value) -> Inventory {
        let ctx = SessionContext { sender_is_owner: Some(true), ..Default::default() };
        let session = Session::resolve(config, &ctx, version).unwrap();
        let built = steps::build(version, config, &session, &ctx);
        construct(version.policy(), version, config, &session, &ctx, &built.steps, built.sandbox.as_ref())
    }

    fn has(inventory: &Inventory, tool: &str) -> bool {
        inventory.tools.iter().any(|t| t.name == tool)
    }

    #[test]
    fn sandbox_groups_name_plugin_tools_but_other_layers_do_not() {
        let v = OpenClawVersion::V2026_9;
        let sandboxed = json!({"agents": {"defaults": {"sandbox": {"mode": "all"}}},
            "tools": {"sandbox": {"tools": {"allow": ["group:memory", "group:ui"]}}}});
        let built = inventory(v, &sandboxed);
        assert!(has(&built, "memory_search") && has(&built, "browser") && has(&built, "canvas"));
        let global = inventory(v, &json!({"tools": {"allow": ["group:memory", "group:openclaw"]}}));
        assert!(!has(&global, "memory_search") && !has(&global, "browser"));
        let denied = json!({"agents": {"defaults": {"sandbox": {"mode": "all"}}},
            "tools": {"sandbox": {"tools": {"allow": ["*"], "deny": ["group:memory"]}}}});
        assert!(!has(&inventory(v, &denied), "memory_get"));
    }

    #[test]
    fn a_real_star_loads_optional_plugin_tools() {
        let v = OpenClawVersion::V2026_9;
        let with = |tools: Value| {
            inventory(v, &json!({"plugins": {"entries": {"llm-task": {"enabled": true}}}, "tools": tools}))
        };
        assert!(has(&with(json!({"allow": [], "alsoAllow": ["read"]})), "llm-task"));
        assert!(has(&with(json!({"alsoAllow": ["*"]})), "llm-task"));
        assert!(!has(&with(json!({"alsoAllow": ["read"]})), "llm-task"));
    }

    #[test]
    fn seed_channel_plugins_load_when_switched_on() {
        let v = OpenClawVersion::V2026_2;
        let whatsapp = |config: Value| inventory(v, &config).tools.into_iter().find(|t| t.name == "whatsapp_login");
        // The channel's own switch or its plugin entry; configuring the channel is not enough.
        let tool = whatsapp(json!({"channels": {"whatsapp": {"enabled": true}}})).unwrap();
        assert_eq!(tool.plugin, None, "an agent tool of the channel, not a plugin tool");
        assert!(whatsapp(json!({"plugins": {"entries": {"whatsapp": {"enabled": true}}}})).is_some());
        assert!(whatsapp(json!({"channels": {"whatsapp": {"allowFrom": ["+1555"]}}})).is_none());
        let entry_off = json!({"channels": {"whatsapp": {"enabled": true}}, "plugins": {"entries": {"whatsapp": {"enabled": false}}}});
        assert!(whatsapp(entry_off).is_none());
        let not_allowed = json!({"channels": {"whatsapp": {"enabled": true}}, "plugins": {"allow": ["memory-core"]}});
        assert!(whatsapp(not_allowed).is_none());
        // Feishu's channel block is no switch: only its plugin entry loads it.
        let feishu = json!({"channels": {"feishu": {"enabled": true, "appId": "a", "appSecret": "s"}}});
        assert!(!has(&inventory(v, &feishu), "feishu_doc"));
        let entries = json!({"channels": {"feishu": {"appId": "a", "appSecret": "s"}},
            "plugins": {"entries": {"feishu": {"enabled": true}, "zalouser": {"enabled": true}, "voice-call": {"enabled": true}}}});
        let built = inventory(v, &entries);
        for tool in ["feishu_doc", "feishu_bitable_get_meta", "zalouser", "voice_call"] {
            assert!(has(&built, tool), "{tool}");
        }
        assert!(built.not_constructed["feishu_perm"].contains("tools.perm"));
        assert!(!has(&inventory(OpenClawVersion::V2026_9, &entries), "feishu_doc"));
    }

    #[test]
    fn auto_enabled_plugins_pass_a_restrictive_plugin_allowlist() {
        let v = OpenClawVersion::V2026_9;
        let referenced = inventory(v, &json!({"plugins": {"allow": ["memory-core"]}, "tools": {"allow": ["browser"]}}));
        assert!(has(&referenced, "browser"));
        let off = inventory(v, &json!({"plugins": {"allow": ["memory-core"]}, "tools": {"allow": ["canvas"]}}));
        assert_eq!(off.not_constructed["canvas"], "plugins.allow does not name `canvas`");
        let configured = json!({"plugins": {"allow": ["memory-core"], "entries": {"canvas": {"config": {}}}}});
        assert!(has(&inventory(v, &configured), "canvas"));
        let seed = inventory(
            OpenClawVersion::V2026_2,
            &json!({"plugins": {"allow": ["llm-task"]}, "tools": {"allow": ["browser"]}}),
        );
        assert!(!has(&seed, "memory_search"));
    }
}
