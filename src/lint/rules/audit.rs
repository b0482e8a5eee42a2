//! What the rules that mirror `openclaw security audit` share: the release's audit lists
//! (`data/audit-<release>.json`), the open inbound paths, the audit's tool contexts (the
//! configured policies of `agents.defaults` and of each agent, decided by the resolver's own
//! steps) and the audit's view of exec security per scope.

use crate::release::pack::RosterForm;
use std::collections::BTreeSet;

use serde_json::Value;

use super::walk::{agents, main_session};
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::exec::posture::{Security, mode_policy};
use crate::lint::LintContext;
use crate::lint::registry::Severity;
use crate::policy::matcher::{CompiledPolicy, PluginGroups};
use crate::policy::steps::StepKind;
use crate::policy::{Resolution, SessionContext};
use crate::release::audit::{AuditLists, NodeCommandKeys};
use crate::release::pack::VersionPack;

/// Where the node command lists are in the config.
pub fn node_command_paths(keys: &NodeCommandKeys) -> (KeyPath, KeyPath) {
    (dotted_path(&keys.allow), dotted_path(&keys.deny))
}

fn dotted_path(dotted: &str) -> KeyPath {
    KeyPath::keys(&dotted.split('.').collect::<Vec<_>>())
}

/// A rule that mirrors one audit check (the registry's fields in a fixed order; every such rule
/// runs only on a config the release accepts, as the audit does).
macro_rules! audit_rule {
    ($category:ident, $code:literal, $name:literal, $severity:ident, $check_id:literal, $check:expr,
     summary: $summary:literal, why: $why:literal, example: $example:literal, fix: $fix:literal $(,)?) => {
        $crate::lint::Rule {
            code: $code,
            name: $name,
            severity: $crate::lint::Severity::$severity,
            category: $crate::lint::Category::$category,
            summary: $summary,
            why: $why,
            example: $example,
            fix: $fix,
            openclaw_check: Some($check_id),
            applies: $crate::lint::registry::Applies::WhereAuditRuns,
            needs_valid_config: true,
            check: $check,
        }
    };
}
pub(crate) use audit_rule;

/// The audit lists of `version`.
pub fn lists(version: OpenClawVersion) -> &'static AuditLists {
    version.audit()
}

/// The audit's severities: `critical` → error, `warn` → security.
pub fn critical_if(critical: bool) -> Severity {
    if critical { Severity::Error } else { Severity::Security }
}

/// Trimmed strings of a list value (non-strings stringified, as the audit's allowFrom lists are).
pub fn string_entries(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|v| match v {
            Value::String(s) => s.trim().to_string(),
            other => other.to_string(),
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// `channels.<id>` and `channels.<id>.accounts.<account>` sections, with their paths.
fn channel_sections<'a>(ctx: &LintContext<'a>) -> Vec<(KeyPath, &'a Value)> {
    let mut out = Vec::new();
    for (id, channel) in ctx.get(&[keys::CHANNELS]).and_then(Value::as_object).into_iter().flatten() {
        if !channel.is_object() {
            continue;
        }
        let path = KeyPath::keys(&[keys::CHANNELS, id]);
        out.push((path.clone(), channel));
        for (account, value) in channel.get(keys::ACCOUNTS).and_then(Value::as_object).into_iter().flatten() {
            if value.is_object() {
                out.push((path.key(keys::ACCOUNTS).key(account), value));
            }
        }
    }
    out
}

/// The open inbound policies the exposure checks list (`listOpenInboundPolicies`): open group
/// policies and (2026.9) open DM policies, on channels and their accounts, in config order.
pub fn open_inbound_paths(ctx: &LintContext<'_>) -> Vec<KeyPath> {
    let with_dms = lists(ctx.version).open_inbound_includes_dms;
    let mut out = Vec::new();
    for (path, section) in channel_sections(ctx) {
        if section.get(keys::GROUP_POLICY).and_then(Value::as_str) == Some("open") {
            out.push(path.key(keys::GROUP_POLICY));
        }
        if !with_dms {
            continue;
        }
        match section.get(keys::DM_POLICY) {
            Some(Value::Null) | None => {
                if section.get(keys::DM).and_then(|dm| dm.get(keys::POLICY)).and_then(Value::as_str) == Some("open") {
                    out.push(path.key(keys::DM).key(keys::POLICY));
                }
            }
            Some(policy) if policy.as_str() == Some("open") => out.push(path.key(keys::DM_POLICY)),
            Some(_) => {}
        }
    }
    out
}

/// The open paths the exec exposure checks list (`collectOpenExecSurfacePaths`, 2026.9): any
/// object under `channels` with `groupPolicy` or `dmPolicy` `"open"`, at any depth, sorted.
pub fn open_exec_surface_paths(ctx: &LintContext<'_>) -> Vec<String> {
    fn visit(value: &Value, scope: &str, hits: &mut BTreeSet<String>) {
        let Some(map) = value.as_object() else { return };
        for key in ["groupPolicy", "dmPolicy"] {
            if map.get(key).and_then(Value::as_str) == Some("open") {
                hits.insert(format!("{scope}.{key}"));
            }
        }
        for (key, nested) in map {
            visit(nested, &format!("{scope}.{key}"), hits);
        }
    }
    let mut hits = BTreeSet::new();
    for (id, channel) in ctx.get(&[keys::CHANNELS]).and_then(Value::as_object).into_iter().flatten() {
        visit(channel, &format!("channels.{id}"), &mut hits);
    }
    hits.into_iter().collect()
}

/// `path.resolve` of an absolute POSIX path: `.`/`..` resolved, duplicate and trailing `/` removed.
pub fn normalize_posix(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// A short list for messages: `a, b, c` or `a, b, c, +2 more`.
pub fn preview(items: &[String], max: usize) -> String {
    let shown = items.iter().take(max).cloned().collect::<Vec<_>>().join(", ");
    match items.len().saturating_sub(max) {
        0 => shown,
        more => format!("{shown}, +{more} more"),
    }
}

/// One of the audit's tool contexts: `agents.defaults` or one agent, with the policies the
/// audit checks (profile, global, agent, and the sandbox policy when the sandbox mode is `all`).
pub struct ToolContext {
    /// The audit's label (`agents.defaults`, `agents.entries.dev`, `agents.list.dev`).
    pub label: String,
    pub agent: Option<String>,
    /// Where the context's tool policy is written (the agent's `tools`, or the global `tools`).
    pub path: KeyPath,
    /// The agent's own `tools` object, if any.
    pub agent_tools: Option<Value>,
    pub sandbox_mode: String,
    pub workspace_access: String,
    policies: Vec<CompiledPolicy>,
    pack: &'static VersionPack,
}

impl ToolContext {
    /// Whether every configured policy of the context allows `tool` (`isToolAllowedByPolicies`).
    pub fn allows(&self, tool: &str) -> bool {
        let name = self.pack.normalize(tool);
        self.policies.iter().all(|p| p.evaluate(&name).keeps())
    }

    /// The tools of `candidates` the context allows.
    pub fn allowed<'t>(&self, candidates: &[&'t str]) -> Vec<&'t str> {
        candidates.iter().copied().filter(|t| self.allows(t)).collect()
    }
}

/// The audit's label for an agent.
pub fn agent_label(version: OpenClawVersion, id: &str) -> String {
    // The audit names an agent where the release's preferred roster form keeps it.
    match version.policy().agents.roster.first() {
        Some(RosterForm::Entries) => format!("agents.entries.{id}"),
        _ => format!("agents.list.{id}"),
    }
}

/// Builds a context from the resolver's steps for the main session of `agent` (the implicit
/// `main` agent for `agents.defaults`) in `config`, resolved as `resolution`.
fn tool_context(
    ctx: &LintContext<'_>,
    config: &Value,
    resolution: &Resolution,
    agent: Option<&str>,
    label: String,
    path: KeyPath,
    provider_policies: bool,
) -> ToolContext {
    let sandbox_all = resolution.sandbox.mode == "all";
    let plugins = PluginGroups::default();
    let policies = resolution
        .steps
        .iter()
        .filter(|record| match record.step.kind {
            StepKind::Profile | StepKind::Global | StepKind::Agent => true,
            StepKind::Sandbox => sandbox_all,
            kind if with_provider_steps(kind) => provider_policies,
            _ => false,
        })
        .map(|record| CompiledPolicy::compile(ctx.pack, &record.step.policy, &plugins))
        .collect();
    ToolContext {
        label,
        agent: agent.map(String::from),
        agent_tools: agent.and_then(|_| path.lookup(config).cloned()),
        path,
        sandbox_mode: resolution.sandbox.mode.clone(),
        workspace_access: resolution.sandbox.workspace_access.clone(),
        policies,
        pack: ctx.pack,
    }
}

/// The config without its agent roster: what the `agents.defaults` context sees.
fn without_roster(config: &Value) -> Value {
    let mut stripped = config.clone();
    if let Some(agents) = stripped.get_mut("agents").and_then(Value::as_object_mut) {
        for key in ["entries", "list", "ownership"] {
            agents.remove(key);
        }
        if let Some(defaults) = agents.get_mut("defaults").and_then(Value::as_object_mut) {
            defaults.remove("systemAgent");
        }
    }
    stripped
}

/// `agents.defaults` (global policy only) and one context per configured agent.
pub fn tool_contexts(ctx: &LintContext<'_>) -> Vec<ToolContext> {
    let mut out = Vec::new();
    out.extend(defaults_tool_context(ctx, None));
    // Each agent's main session is the one the lint context has already resolved.
    for agent in agents(ctx) {
        let (Some(path), Some(resolution)) = (&agent.path, ctx.main_resolution(&agent.id)) else { continue };
        let label = agent_label(ctx.version, &agent.id);
        out.push(tool_context(ctx, ctx.config(), resolution, Some(&agent.id), label, path.key(keys::TOOLS), false));
    }
    out
}

/// A model as the audit passes it to the provider policies (`byProvider`): provider and model id.
pub type ProviderModel = Option<(String, String)>;

/// The steps a context checks: profile, global and agent policies, the `byProvider` policies of
/// the model when one is given, and the sandbox policy when the sandbox mode is `all`.
fn with_provider_steps(kind: StepKind) -> bool {
    matches!(kind, StepKind::GlobalProvider | StepKind::AgentProvider)
}

/// Resolves `agent`'s main session in `config` with the model set.
fn resolve_with_model(
    ctx: &LintContext<'_>,
    config: &Value,
    agent: &str,
    model: &(String, String),
) -> Option<Resolution> {
    let session = SessionContext {
        model_provider: Some(model.0.clone()),
        model_id: Some(model.1.clone()),
        ..main_session(agent)
    };
    crate::policy::resolve(ctx.version, config, &session).ok()
}

/// The audit's context of one agent (configured or the implicit `main`), from its main session;
/// with a model, its `byProvider` policies count too.
pub fn agent_tool_context(ctx: &LintContext<'_>, agent: &str, model: ProviderModel) -> Option<ToolContext> {
    let path = agents(ctx)
        .iter()
        .find(|a| a.id == agent)
        .and_then(|a| a.path.as_ref())
        .map_or_else(|| KeyPath::keys(&[keys::TOOLS]), |p| p.key(keys::TOOLS));
    let label = agent_label(ctx.version, agent);
    let context = match &model {
        Some(model) => {
            let resolution = resolve_with_model(ctx, ctx.config(), agent, model)?;
            tool_context(ctx, ctx.config(), &resolution, Some(agent), label, path, true)
        }
        None => tool_context(ctx, ctx.config(), ctx.main_resolution(agent)?, Some(agent), label, path, false),
    };
    Some(context)
}

/// The `agents.defaults` context (global policies only); with a model, its global `byProvider`
/// policy counts too.
pub fn defaults_tool_context(ctx: &LintContext<'_>, model: ProviderModel) -> Option<ToolContext> {
    let defaults = without_roster(ctx.config());
    let resolution = match &model {
        Some(model) => resolve_with_model(ctx, &defaults, "main", model)?,
        None => crate::policy::resolve(ctx.version, &defaults, &main_session("main")).ok()?,
    };
    let path = KeyPath::keys(&[keys::TOOLS]);
    Some(tool_context(ctx, &defaults, &resolution, None, "agents.defaults".into(), path, model.is_some()))
}

/// One exec scope as the audit sees it: security from `mode`, else `security` with **`deny`
/// when unset** (unlike the runtime, whose default is `full`).
pub struct ExecScope {
    pub id: String,
    /// The `tools.exec` object the scope reads.
    pub path: KeyPath,
    pub security: Security,
    pub host: String,
}

/// `resolveExecModePolicy({mode, security, ask}).security`.
fn mode_or_security(exec: Option<&Value>, inherited: Security) -> Security {
    let text = |key: &str| exec.and_then(|e| e.get(key)).and_then(Value::as_str).map(str::trim);
    if let Some((security, _)) = text("mode").and_then(mode_policy) {
        return security;
    }
    text("security").and_then(|s| s.parse().ok()).unwrap_or(inherited)
}

/// The audit's id for the global exec scope: the agent with `default: true`, else the sole
/// agent, else `global`.
fn global_scope_id(ctx: &LintContext<'_>) -> String {
    let roster = agents(ctx);
    let marked = roster
        .iter()
        .find(|a| a.path.as_ref().and_then(|p| p.key(keys::DEFAULT).lookup(ctx.config())) == Some(&Value::Bool(true)));
    match (marked, roster) {
        (Some(agent), _) => agent.id.clone(),
        (None, [only]) if only.path.is_some() => only.id.clone(),
        _ => "global".into(),
    }
}

/// The global scope then one per agent; an agent whose id is the global scope's replaces it.
pub fn exec_scopes(ctx: &LintContext<'_>) -> Vec<ExecScope> {
    let global_path = KeyPath::keys(&[keys::TOOLS, keys::EXEC]);
    let global = global_path.lookup(ctx.config());
    let host_of = |exec: Option<&Value>| exec.and_then(|e| e.get(keys::HOST)).and_then(Value::as_str).map(String::from);
    let global_security = mode_or_security(global, Security::Deny);
    let global_host = host_of(global).unwrap_or_else(|| "auto".into());
    let mut scopes = vec![ExecScope {
        id: global_scope_id(ctx),
        path: global_path,
        security: global_security,
        host: global_host.clone(),
    }];
    for agent in agents(ctx) {
        let Some(path) = &agent.path else { continue };
        let exec_path = path.key(keys::TOOLS).key(keys::EXEC);
        let exec = exec_path.lookup(ctx.config());
        // An agent that sets no security of its own inherits the global one: point there.
        let sets_security = exec.is_some_and(|e| e.get(keys::SECURITY).is_some() || e.get(keys::MODE).is_some());
        let scope = ExecScope {
            id: agent.id.clone(),
            path: if sets_security { exec_path } else { scopes[0].path.clone() },
            security: mode_or_security(exec, global_security),
            host: host_of(exec).unwrap_or_else(|| global_host.clone()),
        };
        match scopes.iter_mut().find(|s| s.id == agent.id) {
            Some(existing) => *existing = scope,
            None => scopes.push(scope),
        }
    }
    scopes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_releases_parse() {
        for version in OpenClawVersion::ALL {
            let lists = lists(version);
            assert!(lists.gateway_http_tool_deny.contains(&"gateway".to_string()));
            assert!(lists.interpreter_safe_bins.contains("python3"));
            assert!(lists.blocked_bind_paths.contains(&"/etc".to_string()));
        }
        assert!(lists(OpenClawVersion::V2026_9).broad_safe_bins.contains_key("jq"));
        assert!(lists(OpenClawVersion::V2026_2).control_plane_tools.is_empty());
    }
}
