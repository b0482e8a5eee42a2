//! Which tools are constructed for a run (the pipeline's input), and the filters OpenClaw applies
//! to that list before the pipeline. Construction depends on config and session in ways the
//! policy lists do not show (sandbox, sub-agent, owner, provider, plugin loading), so `explain`
//! reports "not constructed" separately from "removed by a step".

use std::collections::BTreeMap;

use ahash::AHashSet;
use std::sync::Arc;

use serde_json::Value;

use super::auto_enable;
use super::channel_tools;
use super::construction::{ExplicitLists, InventoryTool, allowed, passes_steps, shared_explicit_lists};
use super::context::SessionContext;
use super::core_tools::{self, is_primary, read_only_sandbox, update_plan_off};
use super::mcp::{self, McpServers, Placement};
use super::sandbox::SandboxPolicy;
use super::session::{Assumption, Session};
use super::shared::NameSet;
use super::steps::{Step, is_non_owner};
use crate::OpenClawVersion;
use crate::config::view::agents::{AgentDefaults, agent_over_global};
use crate::config::view::channels;
use crate::config::view::located::{Located, switched_off};
use crate::config::view::models::provider_has_base_url;
use crate::config::view::plugins::{MemorySlot, PluginEntry, PluginsSection, holds_value};
use crate::config::view::tools::{ToolsScope, WebTool};
use crate::release::pack::{BundledPlugin, OwnerOnlyPlacement, PluginToolSelection, PreFilterReport, VersionPack};
use crate::release::plugins::PluginRecord;

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
    /// Plugin tool names known to exist even when not built (for unknown-entry analysis): what
    /// the run's plugin metadata declares.
    pub declared_tools: Vec<String>,
    pub assumptions: Vec<Assumption>,
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
    let explicit = shared_explicit_lists(&session.memo, pack, steps, sandbox, ctx);
    let mut built = core_tools::build(version, config, session, ctx, steps, &explicit);
    let mut inventory = Inventory::default();
    // An automation run builds tools a chat turn does not (a heartbeat's response tool), and
    // leaves out others (`message` when the job delivers its result itself).
    if let Some(run) = &ctx.automation {
        built.retain(|t| !run.not_built.contains_key(&t.name));
        inventory.not_constructed.extend(run.not_built.clone());
        for tool in &run.extra_built {
            if !built.iter().any(|t| t.name == *tool) {
                built.push(InventoryTool { name: tool.clone(), plugin: None });
            }
        }
    }
    let (plugin_tools, not_built) = bundled_plugin_tools(pack, version, config, session, ctx, &explicit);
    built.extend(plugin_tools);
    inventory.not_constructed.extend(not_built);
    // The bundled plugins the unknown-allowlist warning knows without loading them: 2026.7
    // declares them to every run; 2026.8 and 2026.9 only through the plugin metadata of a run's
    // own attempt.
    if pack.declared_bundled_tools || (ctx.turn && pack.plugin_loading.manifest_profiles) {
        declare_bundled(version, config, session, &explicit, &mut inventory);
    }
    let mcp_owner = pack.plugin_loading.mcp_plugin_id.as_deref();
    let mcp_tools_plugin: &str = match mcp_owner {
        Some(owner) => owner,
        None => mcp::mcp_plugin_id(),
    };
    let mut mcp = None;
    for tool in &ctx.plugin_tools {
        let plugin_id = tool.plugin.trim().to_lowercase();
        if mcp_tools_plugin == plugin_id {
            let rejected = match mcp_owner {
                Some(_) => mcp
                    .get_or_insert_with(|| McpRun::of(pack, config, session, ctx, &explicit))
                    .rejects(pack, &tool.name),
                None => Some("this release has no MCP servers (`mcp.servers`)".to_string()),
            };
            match rejected {
                None => built.push(InventoryTool { name: tool.name.clone(), plugin: Some(tool.plugin.clone()) }),
                Some(reason) => {
                    inventory.not_constructed.insert(tool.name.clone(), reason);
                }
            }
            inventory.declared_plugins.push(plugin_id);
            continue;
        }
        match plugin_tool_selection(pack, &plugin_id, &tool.name, tool.optional, &explicit) {
            None => built.push(InventoryTool { name: tool.name.clone(), plugin: Some(tool.plugin.clone()) }),
            Some(reason) => {
                inventory.not_constructed.insert(tool.name.clone(), reason.to_string());
            }
        }
        inventory.declared_plugins.push(plugin_id);
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
    let built_names: AHashSet<&str> = built.iter().map(|t| t.name.as_str()).collect();
    for tool in &pack.tools {
        if !built_names.contains(tool.id.as_str()) && !inventory.not_constructed.contains_key(&tool.id) {
            let reason = not_built_reason(pack, config, session, ctx, &tool.id);
            inventory.not_constructed.insert(tool.id.clone(), reason);
        }
    }
    inventory.tools = built;
    inventory
}

/// Why `tool` is not built when it belongs to a bundled plugin that is off for this run. The
/// inventory leaves these reasons out for tools outside the catalog (see [`construct`]).
pub fn plugin_off_reason(version: OpenClawVersion, config: &Value, ctx: &SessionContext, tool: &str) -> Option<String> {
    let plugin = version.policy().plugins.iter().find(|p| p.tools.iter().any(|t| t == tool))?;
    let uses = auto_enable::ConfigUse::of(config, version);
    not_activated(config, ctx, plugin, tool).or_else(|| plugin_switched_off(version, config, &uses, plugin))
}

/// Why a bundled plugin that loads only for one provider, or with a setting, does not load
/// `tool` for this run.
fn not_activated(config: &Value, ctx: &SessionContext, plugin: &BundledPlugin, tool: &str) -> Option<String> {
    let activation = plugin.activation.as_ref()?;
    let provider = ctx.model_provider.as_deref().map(|p| p.trim().to_lowercase());
    let own_key = activation.tool_keys.get(tool).is_some_and(|keys| keys.iter().any(|k| holds_value(config, k)));
    let setting = Located::lookup_dotted(config, &activation.config_key);
    let configured = own_key || setting.is_some_and(|s| !s.value.is_null() && s.value != "");
    let wrong_provider = activation.provider.as_ref().is_some_and(|p| provider.as_deref() != Some(p.as_str()));
    (wrong_provider || !configured).then(|| match &activation.provider {
        Some(p) => format!("plugin `{}` loads only for provider `{p}` with {} set", plugin.id, activation.config_key),
        None => format!("plugin `{}` loads only with {} set", plugin.id, activation.config_key),
    })
}

/// The memo key of why the config switches each of the release's bundled plugins off, in the
/// release's order (one value per config).
#[derive(PartialEq, Eq, Hash)]
struct PluginsSwitchedOff;

/// Why the config switches a bundled plugin off (`plugins.*`, its memory slot, its channel), or
/// `None` when it loads. The same for every session of a config once the plugin is activated.
fn plugin_switched_off(
    version: OpenClawVersion,
    config: &Value,
    uses: &auto_enable::ConfigUse,
    plugin: &BundledPlugin,
) -> Option<String> {
    let id = plugin.id.as_str();
    let rules = &version.policy().plugin_loading;
    let plugins = PluginsSection::of(config);
    if switched_off(plugins.enabled().as_ref()) {
        return Some("plugins.enabled is false".into());
    }
    // Plugin ids in `allow`, `deny` and entry keys compare as the release normalizes them.
    let registry = version.data().plugins();
    let names_plugin = |written: &String| registry.normalize_id(written) == id;
    if plugins.deny().iter().any(names_plugin) {
        return Some(format!("plugins.deny names `{id}`"));
    }
    let allow = plugins.allow();
    let is_memory_kind = plugin.enabled_by_default.is_none();
    let slot = plugins.memory_slot_selection(&registry.default_memory_slot);
    // A channel plugin named in the slot loads without its channel's agent tools (2026.2's
    // `whatsapp`: the oracle's fresh process builds no `whatsapp_login`).
    let in_slot = slot.selects(id) && !plugin.channel_agent_tools;
    let entries = plugins.entries_for(id, |key| registry.normalize_id(key));
    let entry_enabled = entries.iter().filter_map(|e| e.enabled()).next_back();
    // The loader enables a plugin the config uses (its `autoEnable` data), unless its entry says
    // `enabled: false`.
    let auto_enabled = entry_enabled != Some(false) && auto_enable::auto_enabled(config, uses, plugin);
    let entry_enabled = if auto_enabled { Some(true) } else { entry_enabled };
    // 2026.9 lets the plugin in the memory slot pass plugins.allow, and its loader adds
    // auto-enabled plugins and entries with material settings to it.
    let allowlisted = allow.iter().any(names_plugin)
        || (in_slot && rules.memory_slot_bypasses_allow)
        || auto_enabled
        || (rules.material_entries_join_allow && entries.iter().any(|e| e.has_material_settings()));
    if !allow.is_empty() && !allowlisted {
        return Some(format!("plugins.allow does not name `{id}`"));
    }
    let slot_ignores_entry = in_slot && rules.memory_slot_ignores_entry_switch;
    if entry_enabled == Some(false) && !slot_ignores_entry {
        return Some(format!("plugins.entries.{id}.enabled is false"));
    }
    // The memory slot switches on the plugin it names, whatever its kind; a memory plugin runs
    // only there.
    if in_slot {
        return None;
    }
    if is_memory_kind {
        return Some(match slot {
            MemorySlot::Off => "plugins.slots.memory is `none`".to_string(),
            MemorySlot::Plugin(_) => format!("plugins.slots.memory selects another memory plugin than `{id}`"),
        });
    }
    // 2026.2 also loads a built-in chat channel's plugin that its own channel block switches on.
    let channel_on = plugin.enabled_by_channel && channels::switched_on(config, id);
    let on = entry_enabled == Some(true) || plugin.enabled_by_default == Some(true) || channel_on;
    let channel_switch = if plugin.enabled_by_channel { format!(" or channels.{id}.enabled") } else { String::new() };
    (!on).then(|| format!("plugin `{id}` is off unless plugins.entries.{id}.enabled{channel_switch} is true"))
}

/// OpenClaw's plugin-tool selection (§4.7): wholesale by `*`/`group:plugins`/plugin id, by
/// default for non-optional tools when an allowlist includes defaults, or by name. Returns why
/// the tool is not selected, or `None` when it is. `plugin_id` is trimmed and lowercased;
/// `names` says whether an allowlist names the tool (by glob, or only exactly).
fn plugin_tool_rejected(
    plugin_id: &str,
    tool: &str,
    optional: bool,
    explicit: &ExplicitLists,
    names: fn(&NameSet, &str) -> bool,
) -> Option<&'static str> {
    let deny = &explicit.plugin_deny;
    if deny.matches(plugin_id) || deny.matches("group:plugins") || deny.matches(tool) {
        return Some("a deny list names the tool, its plugin or group:plugins, so it is not loaded");
    }
    let named = &explicit.plugin_allow;
    let wholesale = named.lists("*") || named.lists("group:plugins") || named.lists(plugin_id);
    if wholesale || (explicit.includes_defaults && !optional) || names(named, tool) {
        return None;
    }
    Some(if optional {
        "optional plugin tool: no allowlist names it, its plugin, group:plugins or `*`"
    } else {
        "plugin tool not selected: an allowlist is set and names neither the tool nor its plugin"
    })
}

/// The MCP servers of this run's config, and whether the run starts the MCP runtime at all.
struct McpRun {
    servers: std::sync::Arc<McpServers>,
    runtime_allowed: bool,
    /// The session's deny entries, normalized.
    deny: Vec<String>,
}

impl McpRun {
    fn of(
        pack: &VersionPack,
        config: &Value,
        session: &Session<'_>,
        ctx: &SessionContext,
        explicit: &ExplicitLists,
    ) -> Self {
        let servers = McpServers::shared(&session.memo, config);
        let runtime_allowed = mcp::runtime_allows_mcp(pack, ctx.tools_allow.as_deref(), servers.namespaces());
        let deny = explicit.deny.iter().map(|entry| pack.normalize(entry)).collect();
        McpRun { servers, runtime_allowed, deny }
    }

    /// Why the declared MCP tool `name` is not built for this run, or `None` when it is: its
    /// server is missing, off or filters it out, the run's toolsAllow keeps the MCP runtime from
    /// starting, or a deny list stops its server before its tools are listed.
    fn rejects(&self, pack: &VersionPack, name: &str) -> Option<String> {
        let server = match self.servers.place(name) {
            Placement::Served { server, .. } => server,
            Placement::Dropped(reason) => return Some(reason),
        };
        if !self.runtime_allowed {
            return Some(
                "the run's toolsAllow names no MCP tool, `bundle-mcp`, `group:plugins` or a pattern reaching an MCP \
                 namespace, so no MCP server is started"
                    .into(),
            );
        }
        mcp::deny_stops_server(pack, &self.deny, &server.namespace).map(|entry| {
            format!("the deny entry `{entry}` stops MCP server `{}` before its tools are listed", server.name)
        })
    }
}

/// Why the release's plugin loading does not select a tool of a loaded plugin, or `None` when it
/// does: by the allowlists (2026.9), or only optional tools and only when named exactly (2026.2).
fn plugin_tool_selection(
    pack: &VersionPack,
    plugin_id: &str,
    tool: &str,
    optional: bool,
    explicit: &ExplicitLists,
) -> Option<&'static str> {
    match pack.plugin_loading.tool_selection {
        PluginToolSelection::Allowlists => plugin_tool_rejected(plugin_id, tool, optional, explicit, NameSet::matches),
        PluginToolSelection::AllowlistsByExactName => {
            plugin_tool_rejected(plugin_id, tool, optional, explicit, NameSet::lists)
        }
        PluginToolSelection::OptionalNamedExactly => {
            let allow = &explicit.plugin_allow;
            let named = allow.lists(tool) || allow.lists(plugin_id) || allow.lists("group:plugins");
            (optional && !named)
                .then_some("optional plugin tool: 2026.2 needs it, its plugin or group:plugins named in an allowlist")
        }
    }
}

/// Declares the bundled plugins the release knows without loading them to the unknown-allowlist
/// warning: those the config lets count ([`declarable_plugins`]), less what the session's deny
/// lists name (the plugin, `group:plugins`, or the tool).
fn declare_bundled(
    version: OpenClawVersion,
    config: &Value,
    session: &Session<'_>,
    explicit: &ExplicitLists,
    inventory: &mut Inventory,
) {
    let declarable = session.memo.get_or(DeclarablePlugins, || declarable_plugins(version, config));
    let deny = &explicit.plugin_deny;
    if deny.matches("group:plugins") {
        return;
    }
    for (id, tools) in declarable.iter().filter(|(id, _)| !deny.matches(id)) {
        let tools: Vec<String> = tools.iter().filter(|tool| !deny.matches(tool)).cloned().collect();
        if !tools.is_empty() {
            inventory.declared_plugins.push(id.clone());
            inventory.declared_tools.extend(tools);
        }
    }
}

/// The bundled plugins the config lets count as declared, as (lowercased id, its normalized
/// tools), the same for every session of a config.
#[derive(PartialEq, Eq, Hash)]
struct DeclarablePlugins;

/// Where the release declares them: 2026.7 (`declaredBundledTools`) each bundled plugin with
/// agent tools, unless its entry is switched off or `plugins.deny` lists it, with its tools when
/// their availability settings, if any, hold a value; 2026.8 and 2026.9, in a run's own attempt,
/// every bundled manifest the plugin settings allow (`buildDeclaredToolAllowlistContext`), less
/// the tools available only on a configured credential (not simulated). Nothing when plugins
/// are off.
fn declarable_plugins(version: OpenClawVersion, config: &Value) -> Arc<[(String, Vec<String>)]> {
    let plugins = PluginsSection::of(config);
    if plugins.enabled().is_some_and(|e| e.is_false()) {
        return Arc::new([]);
    }
    let pack = version.policy();
    let registry = version.data().plugins();
    let normalized = |tools: &mut dyn Iterator<Item = &String>| -> Vec<String> {
        tools.map(|tool| pack.normalize(tool)).filter(|tool| !tool.is_empty()).collect()
    };
    if pack.declared_bundled_tools {
        let denied_ids = plugins.deny();
        return pack
            .plugins
            .iter()
            .filter(|plugin| {
                let id = plugin.id.as_str();
                let entries = plugins.entries_for(id, |key| registry.normalize_id(key));
                !entries.iter().any(PluginEntry::switched_off)
                    && !denied_ids.iter().any(|d| registry.normalize_id(d) == id)
            })
            .map(|plugin| {
                let available = plugin.declared_when_configured.is_empty()
                    || plugin.declared_when_configured.iter().any(|path| holds_value(config, path));
                let tools = if available { normalized(&mut plugin.tools.iter()) } else { Vec::new() };
                (plugin.id.trim().to_lowercase(), tools)
            })
            .collect();
    }
    registry
        .plugins
        .iter()
        .filter(|plugin| plugin.is_bundled() && bundled_manifest_allowed(version, config, &plugins, plugin))
        .map(|plugin| {
            let mut available = plugin.tools.iter().filter(|tool| !plugin.credential_gated_tools.contains(tool));
            (plugin.id.trim().to_lowercase(), normalized(&mut available))
        })
        .collect()
}

/// Whether the plugin settings let a bundled plugin's manifest count
/// (`isManifestPluginOwnerAllowedByControlPlanePolicy`): not denied, its entry not switched off,
/// and named by a restrictive `plugins.allow` unless one of its channels is configured.
fn bundled_manifest_allowed(
    version: OpenClawVersion,
    config: &Value,
    plugins: &PluginsSection<'_>,
    plugin: &PluginRecord,
) -> bool {
    if !plugins.is_present() {
        return true;
    }
    let registry = version.data().plugins();
    let id = registry.normalize_id(&plugin.id);
    let names_plugin = |written: &String| registry.normalize_id(written) == id;
    if plugins.deny().iter().any(names_plugin) {
        return false;
    }
    let entries = plugins.entries_for(&id, |key| registry.normalize_id(key));
    if entries.iter().filter_map(|e| e.enabled()).next_back() == Some(false) {
        return false;
    }
    let allow = plugins.allow();
    if allow.is_empty() || allow.iter().any(names_plugin) {
        return true;
    }
    let own = [plugin.id.clone()];
    let channel_ids = if plugin.enablement_channels.is_empty() { &own[..] } else { &plugin.enablement_channels[..] };
    channel_ids.iter().any(|channel| channels::configured(config, channel))
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
    let switch = agent_over_global(config, session.agent.as_ref(), &pack.plugin_loading.memory_search_switch);
    let memory_search_on = !switched_off(switch.as_ref());
    let mut built = Vec::new();
    let mut not_built = Vec::new();
    let switched_off = session.memo.get_or(PluginsSwitchedOff, || -> Arc<[Option<String>]> {
        pack.plugins.iter().map(|plugin| plugin_switched_off(version, config, &session.config_use, plugin)).collect()
    });
    for (plugin, switched_off) in pack.plugins.iter().zip(switched_off.iter()) {
        let plugin_id = plugin.id.trim().to_lowercase();
        for tool in &plugin.tools {
            // The first reason found is the one given, so the later ones are only worked out
            // when the earlier ones let the tool through.
            let disabled = not_activated(config, ctx, plugin, tool).or_else(|| switched_off.clone());
            // Tools of a plugin that is off are reported only when they are catalog tools, so
            // the answer does not list every tool of every bundled plugin.
            if disabled.is_some() && !pack.is_catalog_tool(tool) {
                continue;
            }
            let selection = || {
                let optional = plugin.optional.contains(tool);
                plugin_tool_selection(pack, &plugin_id, tool, optional, explicit).map(str::to_string)
            };
            let gate = || {
                let gate = match tool.as_str() {
                    "intent" if ctx.sender_is_owner != Some(true) => Some("built only when the sender is the owner"),
                    "memory_search" | "memory_get" if !memory_search_on => Some("memory search is off"),
                    "lobster" if session.sandbox.sandboxed => Some("not built in sandboxed sessions"),
                    _ => None,
                };
                gate.map(str::to_string)
                    .or_else(|| channel_tools::gate_rejects(plugin, tool, config, version.data().plugins()))
            };
            match disabled.or_else(selection).or_else(gate) {
                None => {
                    let owner = (!plugin.channel_agent_tools).then(|| plugin.id.clone());
                    built.push(InventoryTool { name: tool.clone(), plugin: owner })
                }
                Some(reason) => not_built.push((tool.clone(), reason)),
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
    if pack.owner_only.placement == OwnerOnlyPlacement::BeforePipeline && is_non_owner(pack, ctx) {
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
        let agent = session.agent.as_ref().and_then(|a| a.local_model_lean());
        let setting = agent.or_else(|| AgentDefaults::of(config).local_model_lean());
        let on = setting.and_then(|s| s.as_bool()) == Some(true);
        if on {
            let run_allowed = ctx.tools_allow.as_deref().unwrap_or_default();
            let keep = match (pack.local_model_lean_keeps_allowed, pack.local_model_lean_keeps_run_allowed) {
                (true, _) => explicit.override_allow.as_slice(),
                (false, true) => run_allowed,
                (false, false) => &[],
            };
            let keep = NameSet::construction(pack, keep.iter().filter(|p| p.as_str() != "*").map(String::as_str));
            for tool in built.iter() {
                let name = pack.normalize(&tool.name);
                let kept = !keep.is_blank() && allowed(pack, &name, Some(&keep), &NameSet::default());
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
    let global = ToolsScope::global(config);
    let search_provider = global.as_ref().and_then(ToolsScope::web_search_provider);
    let custom_endpoint = provider_has_base_url(config, &native.provider);
    !switched_off(global.as_ref().and_then(|g| g.web_enabled(WebTool::Search)).as_ref())
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
        "progress_card" if update_plan_off(config) => "tools.updatePlan is false".into(),
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
        inventory_in(version, config, SessionContext { sender_is_owner: Some(true), ..Default::default() })
    }

    fn inventory_in(version: OpenClawVersion, config: &Value, ctx: SessionContext) -> Inventory {
        let session = Session::resolve(config, &ctx, version).unwrap();
        let built = steps::build(version, config, &session, &ctx);
        construct(version.policy(), version, config, &session, &ctx, &built.steps, built.sandbox.as_deref())
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
    fn a_run_attempts_plugin_metadata_declares_the_bundled_plugins_the_settings_allow() {
        let declared = |v: OpenClawVersion, config: Value| {
            let built = inventory_in(v, &config, SessionContext { turn: true, ..Default::default() });
            (
                built.declared_plugins.contains(&"memory-wiki".to_string()),
                built.declared_tools.contains(&"wiki_search".to_string()),
            )
        };
        let v = OpenClawVersion::V2026_9;
        // Off by default, yet declared: the run's metadata holds every bundled manifest.
        assert_eq!(declared(v, json!({})), (true, true));
        assert_eq!(declared(v, json!({"plugins": {"allow": ["browser"]}})), (false, false));
        assert_eq!(declared(v, json!({"plugins": {"deny": ["memory-wiki"]}})), (false, false));
        assert_eq!(declared(v, json!({"plugins": {"entries": {"memory-wiki": {"enabled": false}}}})), (false, false));
        assert_eq!(declared(v, json!({"plugins": {"enabled": false}})), (false, false));
        assert_eq!(declared(v, json!({"tools": {"deny": ["wiki_search"]}})), (true, false));
        assert_eq!(declared(v, json!({"tools": {"deny": ["group:plugins"]}})), (false, false));
        // A tool offered only with a credential is not declared; a release without the metadata declares none.
        let turn = SessionContext { turn: true, ..Default::default() };
        assert!(!inventory_in(v, &json!({}), turn).declared_tools.contains(&"x_search".to_string()));
        assert_eq!(declared(OpenClawVersion::V2026_5, json!({})), (false, false));
        // The effective-tools listing builds without the metadata: nothing is declared.
        assert!(inventory(v, &json!({})).declared_tools.is_empty());
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
