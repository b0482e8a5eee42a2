//! The sessions worth asking about, enumerated from the config itself: every session a sender
//! can reach (each channel's DMs, groups, Slack channels and Discord guilds, per account, as
//! routed to agents; see [`inbound`]), and for every agent its main DM, a non-main session, each
//! sender-specific policy, the sub-agent orchestrator and leaf, the sub-agent each allowed spawn
//! creates (spawned by another agent's or its own main session), its heartbeat and the scheduled
//! (cron) jobs it runs (from a jobs store, when one is given), a non-owner sender and each
//! `byProvider` key. Each context carries its audience: who can send messages into it. Shared by
//! `diff`, `matrix`, `who-can` and the policy test suites, so they all ask the same questions.
//! Every context is resolved with [`policy::resolve`].

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;

use crate::OpenClawVersion;
use crate::base::{escape, parallel::par_map};
use crate::config::path::{KeyPath, PathSeg};
use crate::config::view::agents::{self, DefaultAgent};
use crate::config::view::automation::{Heartbeat, heartbeat_agents};
use crate::config::view::channels::{ConfiguredGroup, configured_groups};
use crate::config::view::inbound::{self, Audience, InboundRoute, RouteKind};
use crate::config::view::tools::{ToolsScope, sender_keys};
use crate::policy::automation::jobs::CronJob;
use crate::policy::session::{self, SessionError, SubagentRole};
use crate::policy::steps::{self, StepKind};
use crate::policy::{self, PluginTool, Resolution, RunKind, SessionContext, automation, spawn};

/// One enumerated session of one agent.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NamedContext {
    pub agent_id: String,
    /// Stable name of the context within the agent: `main`, `non-main`, `dm:telegram`,
    /// `group:telegram:-100`, `group:telegram@work:*`, `channel:slack:C1`, `sender:id:42`,
    /// `group:telegram:-100+sender:id:42`, `subagent:orchestrator`, `subagent:leaf`,
    /// `spawned-by:planner`, `heartbeat`, `cron:nightly`, `non-owner`, `provider:openai/gpt-5`.
    pub id: String,
    pub description: String,
    /// Who can send messages into this session.
    pub audience: Audience,
    /// The inbound routes that reach it (`telegram DMs (channels.telegram.dmPolicy)`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reached_by: Vec<String>,
    /// The session facts this context stands for.
    #[serde(skip)]
    pub ctx: SessionContext,
}

impl NamedContext {
    /// `agent/context`, the name a cell goes by on the command line (`matrix --why`).
    pub fn cell(&self) -> String {
        format!("{}/{}", self.agent_id, self.id)
    }
}

/// The id of the agent's main DM context.
pub const MAIN: &str = "main";

/// The agents of a config: the roster's ids in order, or the default agent when there is none
/// ([`agents::agent_list`]).
pub fn agent_ids(version: OpenClawVersion, config: &Value) -> Vec<String> {
    agents::agent_ids(config, version)
}

/// The agent unbound traffic goes to; `None` when the release cannot pick one.
fn default_agent(version: OpenClawVersion, config: &Value) -> Option<String> {
    match agents::default_agent(config, version) {
        DefaultAgent::Agent(id) => Some(id),
        DefaultAgent::Undecided(_) => None,
    }
}

/// Every context of every agent, agents in roster order. `plugin_tools` are declared present in
/// every context (OpenClaw loads plugins at runtime).
pub fn enumerate(version: OpenClawVersion, config: &Value, plugin_tools: &[PluginTool]) -> Vec<NamedContext> {
    let sessions = Sessions::new(version, config);
    sessions.contexts_of(sessions.agents(), plugin_tools)
}

/// A config's agents and inbound routes, read once, from which each agent's contexts are built.
pub struct Sessions<'a> {
    version: OpenClawVersion,
    config: &'a Value,
    agents: Vec<String>,
    /// The roster entries by agent id (each agent's contexts read its `tools`), and what the
    /// config's sessions share: the spawn enumeration and the resolution of the contexts
    /// ([`Sessions::evaluate_with`]) resolve with this one roster, so a requester's session
    /// asked by both is resolved once.
    roster: policy::Roster<'a>,
    routes: Vec<InboundRoute>,
    /// Each agent's routes, as positions in `routes` (a fleet's agents each look up their own).
    routes_by_agent: HashMap<String, Vec<usize>>,
    /// The spawns the config allows, as (requester, child), found on first use.
    spawns: OnceLock<Vec<(String, String)>>,
    /// The stored cron jobs, each with the agent that runs it ([`Sessions::with_jobs`]).
    jobs: Vec<(String, CronJob)>,
    /// The agents that run heartbeats.
    heartbeats: Vec<String>,
}

impl<'a> Sessions<'a> {
    pub fn new(version: OpenClawVersion, config: &'a Value) -> Self {
        let agents = agent_ids(version, config);
        let default = default_agent(version, config);
        let roster = inbound::Roster { agents: &agents, default_agent: default.as_deref() };
        let routes = inbound::routes(config, &roster);
        let heartbeats = heartbeat_agents(config, version);
        let mut routes_by_agent: HashMap<String, Vec<usize>> = HashMap::new();
        for (at, route) in routes.iter().enumerate() {
            routes_by_agent.entry(route.agent.clone()).or_default().push(at);
        }
        Sessions {
            version,
            config,
            agents,
            roster: policy::Roster::new(config, version),
            routes,
            routes_by_agent,
            spawns: OnceLock::new(),
            jobs: Vec::new(),
            heartbeats,
        }
    }

    /// Also enumerate the enabled jobs of a jobs store, each under the agent that runs it (a job
    /// the release would refuse to run stays listed, under the agent it names or the default).
    pub fn with_jobs(mut self, jobs: &[CronJob]) -> Self {
        let fallback = default_agent(self.version, self.config);
        self.jobs = jobs
            .iter()
            .filter(|job| job.enabled() && job.id().is_some())
            .filter_map(|job| {
                let agent = automation::job_agent(self.version, self.config, job)
                    .map(|(agent, _)| agent)
                    .ok()
                    .or_else(|| fallback.clone())?;
                Some((agent, job.clone()))
            })
            .collect();
        self
    }

    /// An agent's main DM session with its owner: the session every other context is compared
    /// with, and the requester of the spawns enumerated.
    fn main_context(&self, agent: &str, plugin_tools: &[PluginTool]) -> SessionContext {
        SessionContext {
            agent_id: Some(agent.to_string()),
            session_key: Some(inbound::main_session_key(self.config, agent)),
            sender_is_owner: Some(true),
            plugin_tools: plugin_tools.to_vec(),
            ..SessionContext::default()
        }
    }

    /// The spawns the config allows ([`spawn::allowed_pairs`]): every target `allowAgents` names,
    /// and an agent spawning itself when its main session has `sessions_spawn` (found without
    /// declared plugin tools, which never build it). A named target whose requester lacks the
    /// tool stays listed: its context says the spawn cannot happen.
    fn spawns(&self) -> &[(String, String)] {
        self.spawns.get_or_init(|| {
            let pairs = spawn::allowed_pairs(self.version, self.config);
            // Only an agent's spawn of itself depends on its tools: resolve just those agents.
            let spawns_itself: Vec<&String> = pairs.iter().filter(|(r, c)| r == c).map(|(r, _)| r).collect();
            let has_spawn_tool = par_map(&spawns_itself, |agent| {
                let main = self.main_context(agent, &[]);
                policy::requester_in(self.version, self.config, &self.roster, &main).is_ok_and(|r| r.has_spawn_tool)
            });
            let can_spawn: HashSet<&String> =
                spawns_itself.iter().zip(has_spawn_tool).filter(|(_, can)| *can).map(|(agent, _)| *agent).collect();
            pairs
                .iter()
                .filter(|(requester, child)| requester != child || can_spawn.contains(requester))
                .cloned()
                .collect()
        })
    }

    pub fn version(&self) -> OpenClawVersion {
        self.version
    }

    pub fn config(&self) -> &'a Value {
        self.config
    }

    /// The config's agents, in roster order.
    pub fn agents(&self) -> &[String] {
        &self.agents
    }

    /// Every inbound route of the config.
    pub fn routes(&self) -> &[InboundRoute] {
        &self.routes
    }

    /// The routes into `agent`'s sessions, in config order.
    fn routes_of<'s>(&'s self, agent: &str) -> impl Iterator<Item = &'s InboundRoute> + use<'s> {
        self.routes_by_agent.get(agent).into_iter().flatten().map(|&at| &self.routes[at])
    }

    /// The routes that land in a context's session. A sub-agent is driven by whoever drives its
    /// parent, so it counts as the agent's main session.
    fn landing<'s>(&'s self, agent: &'s str, ctx: &SessionContext) -> impl Iterator<Item = &'s InboundRoute> + 's {
        let (agent, ctx) = driver(agent, ctx);
        let key = match (&ctx.session_key, ctx.spawn_depth) {
            (Some(key), None) => key.clone(),
            _ => inbound::main_session_key(self.config, agent),
        };
        self.routes_of(agent).filter(move |r| r.session_key == key)
    }

    /// Who can send messages into a context's session: the routes that land there, and the
    /// owner when the context stands for the owner (sub-agents are the owner's too).
    pub fn audience(&self, agent: &str, ctx: &SessionContext) -> (Audience, Vec<String>) {
        if ctx.run != RunKind::Chat {
            // Nobody sends messages into an automation run: the gateway's scheduler starts it.
            return (Audience::owner(), vec![format!("the gateway's scheduler ({} run, no sender)", ctx.run)]);
        }
        let (_, ctx) = driver(agent, ctx);
        let owner = !steps::is_non_owner(self.version.policy(), ctx) || ctx.spawn_depth.is_some();
        let start = if owner { Audience::owner() } else { Audience::unreachable() };
        self.landing(agent, ctx).fold((start, Vec::new()), |(audience, mut via), route| {
            let default = if route.default_policy { ", not set: the release's default" } else { "" };
            via.push(format!("{} ({}{default})", route.label(), route.opened_by));
            (audience.union(&route.audience), via)
        })
    }

    /// Where the widest route into a context's session is opened (its `dmPolicy`, `groupPolicy`
    /// or group entry).
    pub fn widest_route(&self, agent: &str, ctx: &SessionContext) -> Option<KeyPath> {
        self.landing(agent, ctx).max_by_key(|r| r.audience.reach).map(|r| r.opened_by.clone())
    }

    /// The contexts of `agents`, in their order (enumerated on every core: a fleet's agents are
    /// independent).
    pub fn contexts_of(&self, agents: &[impl AsRef<str> + Sync], plugin_tools: &[PluginTool]) -> Vec<NamedContext> {
        par_map(agents, |agent| self.agent_contexts(agent.as_ref(), plugin_tools)).into_iter().flatten().collect()
    }

    /// The contexts of one agent, most common first.
    pub fn agent_contexts(&self, agent: &str, plugin_tools: &[PluginTool]) -> Vec<NamedContext> {
        let (version, config) = (self.version, self.config);
        let main = self.main_context(agent, plugin_tools);
        let main_key = inbound::main_session_key(config, agent);
        let mut out = Vec::new();
        let mut push = |id: String, description: String, ctx: SessionContext| {
            let (audience, reached_by) = self.audience(agent, &ctx);
            // Names are built from the config's group ids and sender keys: shown, never obeyed.
            let (id, description) = (escape::visible(&id).into_owned(), escape::visible(&description).into_owned());
            out.push(NamedContext { agent_id: agent.to_string(), id, description, audience, reached_by, ctx });
        };
        push(MAIN.into(), "main DM session, owner".into(), main.clone());
        let direct = format!("agent:{agent}:direct:peer");
        push(
            "non-main".into(),
            format!("non-main session ({direct})"),
            SessionContext { session_key: Some(direct.clone()), ..main.clone() },
        );
        // A sender who comes in through a channel is not the owner.
        let outsider = SessionContext { sender_is_owner: Some(false), ..main.clone() };

        for route in self.routes_of(agent).filter(|r| r.session_key != main_key && r.session_key != direct) {
            let ctx = SessionContext {
                session_key: Some(route.session_key.clone()),
                message_provider: Some(route.channel.clone()),
                account_id: route.account.clone(),
                sender_id: route.peer.clone(),
                ..outsider.clone()
            };
            let (id, description) = route_context_name(route);
            push(id, description, ctx);
        }

        let agent_tools = self.roster.find(agent).and_then(|entry| entry.tools());
        let global_tools = ToolsScope::global(config);
        for group in configured_groups(config) {
            let session_key = format!("agent:{agent}:{}:group:{}", group.channel, group.id);
            let group_ctx = SessionContext {
                session_key: Some(session_key.clone()),
                message_provider: Some(group.channel.clone()),
                account_id: group.account.clone(),
                ..outsider.clone()
            };
            let group_name = group_name(&group);
            for key in sender_keys(group.entry.tools_by_sender().as_ref()) {
                let ctx = with_sender(group_ctx.clone(), &key);
                push(
                    format!("{group_name}+sender:{key}"),
                    format!("{} in group {}", sender_label(&key), group_label(&group)),
                    ctx,
                );
            }
            push(group_name, format!("group {} ({session_key})", group_label(&group)), group_ctx);
        }
        let maps = |of: fn(&ToolsScope<'a>) -> Option<crate::config::view::located::Located<'a>>| {
            [agent_tools.as_ref().and_then(of), global_tools.as_ref().and_then(of)]
        };
        for key in maps(ToolsScope::tools_by_sender).iter().flat_map(|map| sender_keys(map.as_ref())) {
            push(
                format!("sender:{key}"),
                format!("{} in the main DM", sender_label(&key)),
                with_sender(outsider.clone(), &key),
            );
        }

        let max_depth = session::max_spawn_depth(config, version).max(1);
        if max_depth > 1 {
            let ctx = SessionContext { session_key: None, spawn_depth: Some(1), ..main.clone() };
            push("subagent:orchestrator".into(), "sub-agent that may spawn (depth 1)".into(), ctx);
        }
        let ctx = SessionContext { session_key: None, spawn_depth: Some(max_depth), ..main.clone() };
        push("subagent:leaf".into(), format!("leaf sub-agent (depth {max_depth})"), ctx);
        for (requester, _) in self.spawns().iter().filter(|(_, child)| child == agent) {
            let ctx = spawn::request(self.main_context(requester, plugin_tools), Some(agent.to_string()));
            push(format!("spawned-by:{requester}"), format!("sub-agent spawned by {requester}'s main session"), ctx);
        }
        let automation = SessionContext { plugin_tools: plugin_tools.to_vec(), ..SessionContext::default() };
        if self.heartbeats.iter().any(|a| a == agent) && !Heartbeat::of(config, version, agent).switched_off() {
            let ctx =
                SessionContext { agent_id: Some(agent.to_string()), run: RunKind::Heartbeat, ..automation.clone() };
            push("heartbeat".into(), "heartbeat run (no approver)".into(), ctx);
        }
        for (_, job) in self.jobs.iter().filter(|(runner, _)| runner == agent) {
            let id = job.id().unwrap_or_default();
            let name = job.name().map(|n| format!(" ({n})")).unwrap_or_default();
            let ctx = SessionContext { run: RunKind::Cron, job: Some(job.clone()), ..automation.clone() };
            push(format!("cron:{id}"), format!("scheduled job {id}{name} (no approver)"), ctx);
        }
        push("non-owner".into(), "main DM, sender is not the owner".into(), outsider.clone());

        let [agent_providers, global_providers] = maps(ToolsScope::by_provider);
        let provider_keys = [global_providers, agent_providers]
            .into_iter()
            .flatten()
            .flat_map(|map| map.members().map(|(key, _)| key.clone()).collect::<Vec<_>>());
        for key in provider_keys {
            let (provider, model) = match key.split_once('/') {
                Some((provider, model)) if !model.is_empty() => (provider, Some(model.to_string())),
                _ => (key.trim_end_matches('/'), None),
            };
            let ctx = SessionContext { model_provider: Some(provider.to_string()), model_id: model, ..main.clone() };
            push(format!("provider:{key}"), format!("main DM on model provider {key}"), ctx);
        }

        let mut seen = HashSet::new();
        out.retain(|c| seen.insert(c.id.clone()));
        out
    }
}

/// The agent and session whose senders drive a context: a spawned child is driven by whoever
/// drives its requester.
fn driver<'c>(agent: &'c str, ctx: &'c SessionContext) -> (&'c str, &'c SessionContext) {
    match ctx.requester.as_deref() {
        Some(requester) => driver(requester.agent_id.as_deref().unwrap_or(agent), requester),
        None => (agent, ctx),
    }
}

/// The context id and description of a route's own session.
fn route_context_name(route: &InboundRoute) -> (String, String) {
    let channel = match &route.account {
        Some(account) => format!("{}@{account}", route.channel),
        None => route.channel.clone(),
    };
    let target = route.target.as_deref().unwrap_or("*");
    let id = match (route.kind, &route.peer) {
        (RouteKind::Direct, Some(peer)) => format!("dm:{channel}:{peer}"),
        (RouteKind::Direct, None) => format!("dm:{channel}"),
        (RouteKind::Group, _) => format!("group:{channel}:{target}"),
        (RouteKind::Channel, _) => format!("channel:{channel}:{target}"),
    };
    (id, format!("{} ({})", route.label(), route.session_key))
}

/// A group's context name: `group:<channel>[@<account>]:<id>`.
fn group_name(group: &ConfiguredGroup<'_>) -> String {
    match &group.account {
        Some(account) => format!("group:{}@{account}:{}", group.channel, group.id),
        None => format!("group:{}:{}", group.channel, group.id),
    }
}

fn group_label(group: &ConfiguredGroup<'_>) -> String {
    let account = group.account.as_ref().map(|a| format!(" (account {a})")).unwrap_or_default();
    format!("{} {}{account}", group.channel, group.id)
}

/// A sender whose facts match a `toolsBySender` key (`id:`, `e164:`, `username:`, `name:`,
/// `channel:<channel>:<id>`, or a legacy unprefixed id).
fn with_sender(mut ctx: SessionContext, key: &str) -> SessionContext {
    let (prefix, value) = match key.split_once(':') {
        Some((prefix, value)) => (prefix.to_ascii_lowercase(), value.trim().to_string()),
        None => (String::new(), key.trim().to_string()),
    };
    match prefix.as_str() {
        "e164" => ctx.sender_e164 = Some(value),
        "username" => ctx.sender_username = Some(value),
        "name" => ctx.sender_name = Some(value),
        "channel" => {
            let (channel, id) = value.split_once(':').unwrap_or((value.as_str(), ""));
            ctx.message_provider = ctx.message_provider.or_else(|| Some(channel.to_string()));
            ctx.sender_id = Some(id.to_string());
        }
        "id" => ctx.sender_id = Some(value),
        _ => ctx.sender_id = Some(key.trim().to_string()),
    }
    ctx
}

fn sender_label(key: &str) -> String {
    format!("sender matching toolsBySender \"{key}\"")
}

/// A tool name that names no tool, with the closest known one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{name}` is not a tool of OpenClaw {release} (nor a declared plugin tool){}", closest.as_ref().map(|c| format!("; did you mean `{c}`?")).unwrap_or_default())]
pub struct UnknownTool {
    pub name: String,
    pub release: &'static str,
    pub closest: Option<String>,
}

/// A tool name as OpenClaw normalizes it, if the release's catalog, a bundled or declared plugin,
/// or one of the `resolved` sessions (tools built only under some config) has such a tool;
/// otherwise an error naming the closest known tool.
pub fn known_tool(
    version: OpenClawVersion,
    name: &str,
    plugin_tools: &[PluginTool],
    resolved: &[&Resolution],
) -> Result<String, UnknownTool> {
    let pack = version.policy();
    let normalized = pack.normalize(name);
    let bundled = pack.plugins.iter().flat_map(|p| p.tools.iter().chain(&p.optional));
    let declared = plugin_tools.iter().map(|p| &p.name);
    let built = resolved.iter().flat_map(|r| r.candidates.iter().chain(r.not_constructed.keys()));
    let known: Vec<String> = pack
        .tools
        .iter()
        .map(|t| &t.id)
        .chain(bundled)
        .chain(declared)
        .chain(built)
        .map(|t| pack.normalize(t))
        .collect();
    if known.contains(&normalized) {
        return Ok(normalized);
    }
    let closest = known
        .iter()
        .max_by(|a, b| strsim::jaro_winkler(a, &normalized).total_cmp(&strsim::jaro_winkler(b, &normalized)));
    Err(UnknownTool { name: name.to_string(), release: version.id(), closest: closest.cloned() })
}

/// One context resolved.
#[derive(Debug, Clone)]
pub struct Evaluated {
    pub context: NamedContext,
    pub result: Result<Resolution, SessionError>,
}

impl Evaluated {
    /// The final tool list, or none when the session could not be resolved.
    pub fn tools(&self) -> &[String] {
        self.result.as_ref().map_or(&[], |r| r.tools.as_slice())
    }
}

/// Resolves every context with the one resolver.
pub fn evaluate(version: OpenClawVersion, config: &Value, contexts: Vec<NamedContext>) -> Vec<Evaluated> {
    let results = evaluate_with(version, config, &contexts, |_, result| result);
    paired(contexts, results)
}

fn paired(contexts: Vec<NamedContext>, results: Vec<Result<Resolution, SessionError>>) -> Vec<Evaluated> {
    contexts.into_iter().zip(results).map(|(context, result)| Evaluated { context, result }).collect()
}

/// Resolves every context with the one resolver and keeps only what `keep` takes from each
/// answer: a fleet of thousands of sessions would otherwise hold every step record at once.
pub fn evaluate_with<R: Send>(
    version: OpenClawVersion,
    config: &Value,
    contexts: &[NamedContext],
    keep: impl Fn(&NamedContext, Result<Resolution, SessionError>) -> R + Sync,
) -> Vec<R> {
    evaluate_in(version, config, &policy::Roster::new(config, version), contexts, keep)
}

impl Sessions<'_> {
    /// [`evaluate`] for contexts these sessions enumerated, sharing what their enumeration
    /// resolved.
    pub fn evaluate(&self, contexts: Vec<NamedContext>) -> Vec<Evaluated> {
        let results = self.evaluate_with(&contexts, |_, result| result);
        paired(contexts, results)
    }

    /// [`evaluate_with`] for contexts these sessions enumerated, sharing what their enumeration
    /// resolved.
    pub fn evaluate_with<R: Send>(
        &self,
        contexts: &[NamedContext],
        keep: impl Fn(&NamedContext, Result<Resolution, SessionError>) -> R + Sync,
    ) -> Vec<R> {
        evaluate_in(self.version, self.config, &self.roster, contexts, keep)
    }
}

fn evaluate_in<R: Send>(
    version: OpenClawVersion,
    config: &Value,
    roster: &policy::Roster<'_>,
    contexts: &[NamedContext],
    keep: impl Fn(&NamedContext, Result<Resolution, SessionError>) -> R + Sync,
) -> Vec<R> {
    par_map(contexts, |context| {
        keep(context, policy::resolve_in(version, config, roster, &context.ctx).and_then(spawn::made))
    })
}

/// What made a resolved session special: the config blocks that applied to it (group, sender and
/// provider blocks, by key path), its sub-agent role, a non-owner sender and a non-main session.
/// Two sessions with the same features exercise the same policy.
pub fn features(version: OpenClawVersion, ctx: &SessionContext, resolution: &Resolution) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for record in &resolution.steps {
        let kind = match record.step.kind {
            StepKind::Group => "group",
            StepKind::Sender => "sender",
            StepKind::ProviderProfile | StepKind::GlobalProvider | StepKind::AgentProvider => "provider",
            _ => continue,
        };
        if let Some(scope) = &record.step.scope {
            out.insert(format!("{kind}:{}", block_of(scope)));
        }
    }
    match resolution.subagent_role {
        SubagentRole::Main => {}
        SubagentRole::Orchestrator => {
            out.insert("subagent:orchestrator".into());
        }
        SubagentRole::Leaf => {
            out.insert("subagent:leaf".into());
        }
    }
    if let Some(spawn) = &resolution.spawn {
        out.insert(format!("spawned-by:{}", spawn.requester_agent));
    }
    if steps::is_non_owner(version.policy(), ctx) {
        out.insert("non-owner".into());
    }
    if resolution.session_key != resolution.sandbox.main_session_key && resolution.subagent_role == SubagentRole::Main {
        out.insert("non-main".into());
    }
    out
}

/// A provider profile step points at the `profile` key; its block is the parent.
fn block_of(scope: &KeyPath) -> KeyPath {
    match scope.segments().last() {
        Some(PathSeg::Key(key)) if key == "profile" => KeyPath(scope.segments()[..scope.segments().len() - 1].to_vec()),
        _ => scope.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn team() -> Value {
        json!({
            "agents": {
                "defaults": {"systemAgent": {"agentId": "dev"}, "subagents": {"maxSpawnDepth": 2}},
                "entries": {
                    "dev": {"tools": {"byProvider": {"openai/gpt-5": {"deny": ["exec"]}}}},
                    "support": {"tools": {"toolsBySender": {"username:@lead": {"alsoAllow": ["read"]}}}}
                }
            },
            "tools": {"toolsBySender": {"*": {"deny": ["gateway"]}}},
            "channels": {"telegram": {
                "groups": {"*": {"tools": {"deny": ["exec"]}}},
                "accounts": {"work": {"groups": {"-100": {"toolsBySender": {"id:42": {"deny": ["read"]}}}}}}
            }}
        })
    }

    fn ids(contexts: &[NamedContext], agent: &str) -> Vec<String> {
        contexts.iter().filter(|c| c.agent_id == agent).map(|c| c.id.clone()).collect()
    }

    #[test]
    fn a_heartbeat_keeps_its_response_tool_past_a_profile_the_main_session_shares() {
        let config =
            serde_json::json!({"messages": {"visibleReplies": "message_tool"}, "tools": {"profile": "minimal"}});
        let evaluated = evaluate(OpenClawVersion::V2026_9, &config, enumerate(OpenClawVersion::V2026_9, &config, &[]));
        let tools = |id: &str| {
            let cell = evaluated.iter().find(|e| e.context.id == id).unwrap();
            cell.result.as_ref().unwrap().tools.clone()
        };
        assert!(tools("heartbeat").contains(&"heartbeat_respond".to_string()), "{:?}", tools("heartbeat"));
        assert!(!tools("main").contains(&"heartbeat_respond".to_string()));
        assert!(!tools("non-main").contains(&"heartbeat_respond".to_string()), "the profile step is not shared");
    }

    #[test]
    fn stored_jobs_are_listed_under_the_agent_that_runs_them() {
        let job = |id: &str, agent: &str, enabled: bool| {
            CronJob(
                serde_json::json!({"id": id, "agentId": agent, "enabled": enabled, "payload": {"kind": "agentTurn"}}),
            )
        };
        let jobs = [job("nightly", "support", true), job("off", "support", false), job("lost", "ghost", true)];
        let config = team();
        let sessions = Sessions::new(OpenClawVersion::V2026_9, &config).with_jobs(&jobs);
        let support = sessions.agent_contexts("support", &[]);
        let cron: Vec<&str> = support.iter().filter(|c| c.id.starts_with("cron:")).map(|c| c.id.as_str()).collect();
        assert_eq!(cron, ["cron:nightly"], "a disabled job does not run");
        // A job whose agent 2026.9 refuses stays visible under the default agent, as a run that cannot happen.
        let dev = sessions.agent_contexts("dev", &[]);
        let lost = dev.iter().find(|c| c.id == "cron:lost").expect("listed under the default agent");
        assert!(crate::policy::resolve(OpenClawVersion::V2026_9, &config, &lost.ctx).is_err());
    }

    #[test]
    fn contexts_come_from_the_config() {
        let contexts = enumerate(OpenClawVersion::V2026_9, &team(), &[]);
        assert_eq!(
            ids(&contexts, "dev"),
            [
                "main",
                "non-main",
                "group:telegram@work:-100",
                "group:telegram:*",
                "group:telegram@work:-100+sender:id:42",
                "subagent:orchestrator",
                "subagent:leaf",
                "spawned-by:dev",
                "heartbeat",
                "non-owner",
                "provider:openai/gpt-5",
            ]
        );
        // The default agent runs the release's default heartbeat; the others none.
        assert!(!ids(&contexts, "support").contains(&"heartbeat".to_string()));
        assert!(ids(&contexts, "support").contains(&"sender:username:@lead".to_string()));
        assert!(!ids(&contexts, "support").iter().any(|id| id.starts_with("provider:")));
    }

    #[test]
    fn every_context_applies_the_block_it_is_named_after() {
        let version = OpenClawVersion::V2026_9;
        let config = team();
        let evaluated = evaluate(version, &config, enumerate(version, &config, &[]));
        let feature_of = |agent: &str, id: &str| {
            let cell = evaluated.iter().find(|e| e.context.agent_id == agent && e.context.id == id).unwrap();
            features(version, &cell.context.ctx, cell.result.as_ref().unwrap())
        };
        assert!(feature_of("dev", "group:telegram:*").contains(r#"group:channels.telegram.groups["*"].tools"#));
        let sender = feature_of("dev", "group:telegram@work:-100+sender:id:42");
        assert!(sender.iter().any(|f| f.contains(r#"toolsBySender["id:42"]"#)), "{sender:?}");
        assert!(feature_of("support", "sender:username:@lead").iter().any(|f| f.contains("username:@lead")));
        assert!(feature_of("dev", "provider:openai/gpt-5").iter().any(|f| f.starts_with("provider:")));
        assert!(feature_of("dev", "subagent:leaf").contains("subagent:leaf"));
        assert!(feature_of("dev", "non-owner").contains("non-owner"));
        assert!(feature_of("dev", "non-main").contains("non-main"));
        assert!(!feature_of("dev", "main").contains("non-main"));
        let leaf = evaluated.iter().find(|e| e.context.agent_id == "dev" && e.context.id == "subagent:leaf").unwrap();
        assert_eq!(leaf.result.as_ref().unwrap().spawn_depth, 2);
    }

    #[test]
    fn every_allowed_spawn_is_a_context_of_the_child() {
        let version = OpenClawVersion::V2026_9;
        let config = json!({"agents": {"ownership": "explicit", "entries": {
            "lead": {"tools": {"allow": ["read", "sessions_spawn"]}, "subagents": {"allowAgents": ["writer"]}},
            "writer": {"tools": {"allow": ["write"]}},
            "mute": {"tools": {"allow": ["read"]}, "subagents": {"allowAgents": ["writer"]}}
        }}});
        let evaluated = evaluate(version, &config, enumerate(version, &config, &[]));
        let cell = |agent: &str, id: &str| evaluated.iter().find(|e| e.context.cell() == format!("{agent}/{id}"));
        // The P1 shape: the requester passes down read, the child only has write.
        let spawned = cell("writer", "spawned-by:lead").unwrap();
        assert_eq!(spawned.tools(), [] as [String; 0]);
        assert_eq!(spawned.context.audience, Audience::owner());
        assert!(cell("lead", "spawned-by:lead").is_some(), "an agent with sessions_spawn may spawn itself");
        assert!(cell("writer", "spawned-by:writer").is_none(), "writer has no sessions_spawn");
        // mute names writer but cannot call sessions_spawn: the spawn is listed as impossible.
        let impossible = cell("writer", "spawned-by:mute").unwrap().result.as_ref().unwrap_err().to_string();
        assert!(impossible.contains("agent:mute:main has no sessions_spawn tool"), "{impossible}");
        let features = features(version, &spawned.context.ctx, spawned.result.as_ref().unwrap());
        assert!(features.contains("spawned-by:lead"), "{features:?}");
    }

    #[test]
    fn tool_names_are_checked() {
        let v = OpenClawVersion::V2026_9;
        assert_eq!(known_tool(v, " EXEC ", &[], &[]).unwrap(), "exec");
        let err = known_tool(v, "exce", &[], &[]).unwrap_err();
        assert_eq!(err.closest.as_deref(), Some("exec"));
        assert!(err.to_string().contains("did you mean `exec`"), "{err}");
        let plugin =
            PluginTool { plugin: "acme".into(), name: "acme_search".into(), optional: false, profiles: Vec::new() };
        assert_eq!(known_tool(v, "acme_search", &[plugin], &[]).unwrap(), "acme_search");
    }

    #[test]
    fn a_config_without_roster_has_its_default_agent() {
        assert_eq!(agent_ids(OpenClawVersion::V2026_9, &json!({})), ["main"]);
        let contexts = enumerate(OpenClawVersion::V2026_2, &json!({}), &[]);
        // The default maxSpawnDepth is 1: the first sub-agent is already a leaf.
        assert!(ids(&contexts, "main").contains(&"subagent:leaf".to_string()));
    }
}
