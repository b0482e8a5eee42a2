//! Who the session is: agent, session key, sandbox state and sub-agent role, as OpenClaw derives
//! them from the config and the session key.

use serde::Serialize;
use serde_json::Value;

use super::context::{SandboxChoice, SessionContext};
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::config::view::agents::{self, AgentDefaults, AgentEntry, DefaultAgent};
use crate::config::view::ids::normalize_agent_id;
use crate::config::view::sandbox::{self as sandbox_view, SandboxSetting};
use crate::config::view::session::SessionScopes;
use crate::config::view::tools::ToolsScope;
use crate::release::pack::{OwnerCondition, SessionKeyAgent};

/// A session fact the answer depended on that the user did not give, so the tool assumed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Assumption {
    pub fact: String,
    pub assumed: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SubagentRole {
    Main,
    Orchestrator,
    Leaf,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SandboxState {
    pub mode: String,
    /// Where the mode was set; `None` when it is the built-in default `off`.
    pub mode_path: Option<KeyPath>,
    pub sandboxed: bool,
    pub forced: bool,
    pub main_session_key: String,
    pub workspace_access: String,
    /// Where `workspaceAccess` was set; `None` when it is the built-in default `none`.
    pub workspace_access_path: Option<KeyPath>,
}

/// The resolved identity of a session.
#[derive(Debug, Clone)]
pub struct Session<'a> {
    pub agent_id: String,
    /// The agent's roster entry, if the agent is configured.
    pub agent: Option<AgentEntry<'a>>,
    /// The agent's `tools` block: the entry's, or `agents.defaults.tools` when there is no roster.
    pub agent_tools: Option<ToolsScope<'a>>,
    pub session_key: String,
    pub sandbox: SandboxState,
    /// The `tools` block whose `sandbox.tools` shape the sandbox step: the sandbox agent's (see
    /// `SandboxRules::follows_session_key_agent`), usually the same as `agent_tools`.
    pub sandbox_agent_tools: Option<ToolsScope<'a>>,
    pub depth: u32,
    pub max_spawn_depth: u32,
    pub role: SubagentRole,
    pub assumptions: Vec<Assumption>,
    /// What plugin auto-enable reads from the whole config (shared by every session of a run).
    pub config_use: std::sync::Arc<super::auto_enable::ConfigUse>,
    /// What every session of this config shares.
    pub memo: std::sync::Arc<super::memo::Memo>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("Malformed agent session key; refusing default-agent resolution.")]
    MalformedSessionKey,
    #[error("agent `{explicit}` does not match the session key's agent `{from_key}`")]
    AgentMismatch { explicit: String, from_key: String },
    #[error(
        "Multiple agents are configured, but this session has no explicit owner. Pass --agent <id> (configured: {configured}); 2026.9 picks a default only from agents.defaults.systemAgent.agentId, not from a `default: true` marker"
    )]
    NoDefaultAgent { configured: String },
    /// A sub-agent the release would not create (see [`super::spawn::not_made`]).
    #[error("this spawn cannot happen: {0}")]
    SpawnNotMade(String),
    /// An automation run the release would not start (see [`super::automation`]).
    #[error("this automation run cannot happen: {0}")]
    AutomationNotRun(String),
}

/// `agents.defaults.subagents.maxSpawnDepth`, or the release's default.
pub fn max_spawn_depth(config: &Value, version: OpenClawVersion) -> u32 {
    let configured = AgentDefaults::of(config).max_spawn_depth();
    configured.map_or(version.policy().subagents.default_max_spawn_depth, |m| m.floor().max(1.0) as u32)
}

/// The roster indexed by agent id, built once for every session resolved against one config
/// under one release (a scan of the whole roster per session made a fleet's sessions quadratic
/// in its agents), with what those sessions share.
#[derive(Debug, Clone)]
pub struct Roster<'a> {
    version: OpenClawVersion,
    agents: agents::Roster<'a>,
    /// Step policies every session of the config shares, and what plugin auto-enable reads
    /// from every agent.
    memo: std::sync::Arc<super::memo::Memo>,
}

impl<'a> Roster<'a> {
    pub fn new(config: &'a Value, version: OpenClawVersion) -> Self {
        Roster::sharing(config, version, std::sync::Arc::default())
    }

    /// A roster that shares `memo`, which must be the memo of this very config (by address) and
    /// release: only [`HeldConfig`] builds one with a memo of its own.
    fn sharing(config: &'a Value, version: OpenClawVersion, memo: std::sync::Arc<super::memo::Memo>) -> Self {
        Roster { version, agents: agents::Roster::new(config, version), memo }
    }

    /// The entry of `agent_id` (normalized), if the agent is configured.
    pub fn find(&self, agent_id: &str) -> Option<&AgentEntry<'a>> {
        self.agents.find(agent_id)
    }

    /// The agents' entries, indexed by id.
    pub fn agents(&self) -> &agents::Roster<'a> {
        &self.agents
    }

    /// What the sessions of this roster's config share.
    pub(super) fn memo(&self) -> &super::memo::Memo {
        &self.memo
    }

    pub fn len(&self) -> usize {
        self.agents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }
}

/// A config kept with what its sessions share, for callers that answer about one config again
/// and again over time (a batch whose cases repeat a config): each roster built from it shares
/// the policies earlier rosters compiled. The memo names the config's blocks by address, so the
/// config is owned here and never moves while the memo lives.
#[derive(Debug)]
pub struct HeldConfig {
    version: OpenClawVersion,
    config: Value,
    memo: std::sync::Arc<super::memo::Memo>,
}

impl HeldConfig {
    pub fn new(config: Value, version: OpenClawVersion) -> Self {
        HeldConfig { version, config, memo: std::sync::Arc::default() }
    }

    pub fn config(&self) -> &Value {
        &self.config
    }

    pub fn roster(&self) -> Roster<'_> {
        Roster::sharing(&self.config, self.version, self.memo.clone())
    }
}

/// The default agent, or the error the release gives when it cannot pick one.
fn default_agent_id(config: &Value, version: OpenClawVersion) -> Result<String, SessionError> {
    match agents::default_agent(config, version) {
        DefaultAgent::Agent(id) => Ok(id),
        DefaultAgent::Undecided(configured) => Err(SessionError::NoDefaultAgent { configured: configured.join(", ") }),
    }
}

/// `agent:<id>:<rest>` → (`id`, `rest`).
pub fn split_agent_key(key: &str) -> Option<(&str, &str)> {
    let rest = key.strip_prefix("agent:")?;
    let (agent, tail) = rest.split_once(':')?;
    Some((agent, tail))
}

/// Scheduled-run session keys (`agent:<id>:cron:<job>`).
pub fn is_cron_session(key: &str) -> bool {
    split_agent_key(key).is_some_and(|(_, tail)| tail.starts_with("cron:"))
}

/// Whether a session key names a sub-agent session.
pub fn is_subagent_key(key: &str) -> bool {
    split_agent_key(key).map_or(key, |(_, tail)| tail).starts_with("subagent:")
}

/// The number of `subagent:` segments in a session key. Up to 2026.6 only the segments after a
/// colon count (`:subagent:`), so a bare `subagent:x` key is a sub-agent of depth 0 there.
pub fn key_depth(key: &str, version: OpenClawVersion) -> u32 {
    if !is_subagent_key(key) {
        return 0;
    }
    if version.policy().subagents.depth_needs_agent_prefix {
        return key.to_lowercase().matches(":subagent:").count() as u32;
    }
    let tail = split_agent_key(key).map_or(key, |(_, tail)| tail);
    let mut depth = 0;
    let mut rest = tail;
    while let Some(pos) = rest.find("subagent:") {
        let at_boundary = pos == 0 || rest.as_bytes()[pos - 1] == b':';
        if at_boundary {
            depth += 1;
        }
        rest = &rest[pos + "subagent:".len()..];
    }
    depth
}

impl<'a> Session<'a> {
    pub fn resolve(config: &'a Value, ctx: &SessionContext, version: OpenClawVersion) -> Result<Self, SessionError> {
        Self::resolve_in(config, &Roster::new(config, version), ctx, version)
    }

    /// [`Session::resolve`] with the roster of `config` already indexed.
    pub fn resolve_in(
        config: &'a Value,
        roster: &Roster<'a>,
        ctx: &SessionContext,
        version: OpenClawVersion,
    ) -> Result<Self, SessionError> {
        debug_assert_eq!(roster.version, version, "a roster serves the release it was built for");
        let pack = version.policy();
        let mut assumptions = Vec::new();

        let key_agent = match ctx.session_key.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
            Some(key) if key.starts_with("agent:") => match split_agent_key(key) {
                Some((agent, tail)) if !agent.is_empty() && !tail.is_empty() => Some(normalize_agent_id(agent)),
                _ => return Err(SessionError::MalformedSessionKey),
            },
            _ => None,
        };
        let explicit = ctx.agent_id.as_deref().map(normalize_agent_id);
        // 2026.2 resolves the sandbox for the session key's agent and the tool policy for the
        // explicit one, so the two may differ; 2026.9 refuses the combination.
        let sandbox_follows_key = pack.sandbox.follows_session_key_agent;
        let agent_id = match (explicit, key_agent) {
            (Some(explicit), Some(from_key)) if explicit != from_key && !sandbox_follows_key => {
                return Err(SessionError::AgentMismatch { explicit, from_key });
            }
            (Some(id), _) => id,
            // 2026.9 needs an explicit owner in a multi-agent roster even when the key names one.
            (None, Some(id)) if pack.agents.session_key_agent == SessionKeyAgent::Always || roster.len() < 2 => id,
            (None, _) => default_agent_id(config, version)?,
        };

        let entry_of = |id: &str| roster.find(id).cloned();
        let agent = entry_of(&agent_id);
        let agent_tools = agents::agent_tools(config, version, agent.as_ref());

        let session_key = match ctx.session_key.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
            Some(key) => key.to_string(),
            None => match ctx.spawn_depth.filter(|d| *d > 0) {
                Some(depth) => {
                    let chain: Vec<String> = (1..=depth).map(|i| format!("subagent:s{i}")).collect();
                    format!("agent:{agent_id}:{}", chain.join(":"))
                }
                None => {
                    assumptions.push(Assumption {
                        fact: "session".into(),
                        assumed: format!("the agent's main (direct message) session agent:{agent_id}:main"),
                    });
                    format!("agent:{agent_id}:main")
                }
            },
        };

        let sandbox_agent_id = match split_agent_key(&session_key) {
            _ if !sandbox_follows_key => agent_id.clone(),
            Some((agent, _)) => normalize_agent_id(agent),
            None => default_agent_id(config, version)?,
        };
        let sandbox_agent = entry_of(&sandbox_agent_id);
        let sandbox_agent_tools = agents::agent_tools(config, version, sandbox_agent.as_ref());
        let sandbox = sandbox_state(config, sandbox_agent.as_ref(), &sandbox_agent_id, &session_key, ctx.sandbox);
        // A spawned child's depth is the one stored at spawn time, not its key's shape.
        let depth = ctx.spawn.as_ref().map_or_else(|| key_depth(&session_key, version), |s| s.depth);
        let max_spawn_depth = max_spawn_depth(config, version);
        let role = match depth {
            0 if is_subagent_key(&session_key) => SubagentRole::Orchestrator,
            0 => SubagentRole::Main,
            d if d < max_spawn_depth => SubagentRole::Orchestrator,
            _ => SubagentRole::Leaf,
        };
        // A cron run has no sender at all: what the release makes of that is a fact, not an assumption.
        if ctx.sender_is_owner.is_none()
            && ctx.run != super::automation::run::RunKind::Cron
            && pack.owner_only.filters_sessions()
        {
            let assumed = match pack.owner_only.applies_when {
                OwnerCondition::SenderIsOwnerFalse => {
                    format!("the owner ({version} treats an unknown sender as the owner)")
                }
                OwnerCondition::SenderIsOwnerNotTrue => {
                    format!("not the owner ({version} treats an unknown sender as a non-owner)")
                }
            };
            assumptions.push(Assumption { fact: "sender".into(), assumed });
        }
        if ctx.model_provider.is_none() {
            assumptions.push(Assumption {
                fact: "model provider".into(),
                assumed: "none, so tools.byProvider entries do not apply".into(),
            });
        }

        // Gathered once per config, with the policies its sessions share.
        #[derive(PartialEq, Eq, Hash)]
        struct ConfigUseOfConfig;
        let config_use = roster
            .memo
            .get_or(ConfigUseOfConfig, || std::sync::Arc::new(super::auto_enable::ConfigUse::of(config, version)));
        Ok(Session {
            agent_id,
            agent,
            agent_tools,
            session_key,
            sandbox,
            sandbox_agent_tools,
            depth,
            max_spawn_depth,
            role,
            assumptions,
            config_use,
            memo: roster.memo.clone(),
        })
    }
}

/// Sandbox mode and whether this session is sandboxed (`resolveSandboxRuntimeStatus`).
fn sandbox_state(
    config: &Value,
    agent: Option<&AgentEntry<'_>>,
    agent_id: &str,
    session_key: &str,
    choice: SandboxChoice,
) -> SandboxState {
    let setting = |which| sandbox_view::setting(config, agent, which).map(|(value, path)| (value.to_string(), path));
    let (mode, mode_path) = match setting(SandboxSetting::Mode) {
        Some((mode, path)) => (mode, Some(path)),
        None => ("off".to_string(), None),
    };
    let (workspace_access, workspace_access_path) = match setting(SandboxSetting::WorkspaceAccess) {
        Some((access, path)) => (access, Some(path)),
        None => ("none".to_string(), None),
    };
    let global_scope = SessionScopes::read(config).global;
    let main_session_key = if global_scope { "global".to_string() } else { format!("agent:{agent_id}:main") };
    let comparable = comparable_session_key(session_key, agent_id, &main_session_key);
    let by_config = match mode.as_str() {
        "all" => true,
        "non-main" => !comparable.is_empty() && comparable != main_session_key,
        _ => false,
    };
    let (sandboxed, forced) = match choice {
        SandboxChoice::Auto => (by_config, false),
        SandboxChoice::On => (true, true),
        SandboxChoice::Off => (false, true),
    };
    SandboxState { mode, mode_path, sandboxed, forced, main_session_key, workspace_access, workspace_access_path }
}

/// Canonicalizes main-session aliases (`main`, `agent:main:main`, …) to the agent's main key.
fn comparable_session_key(raw: &str, agent_id: &str, main_key: &str) -> String {
    let key = raw.trim();
    let aliases = ["main".to_string(), format!("agent:{agent_id}:main"), "agent:main:main".to_string()];
    if aliases.iter().any(|a| a == key) { main_key.to_string() } else { key.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn session(config: &Value, ctx: SessionContext) -> Session<'_> {
        Session::resolve(config, &ctx, OpenClawVersion::V2026_9).unwrap()
    }

    #[test]
    fn agent_ids_normalize_like_openclaw() {
        assert_eq!(normalize_agent_id("Work"), "work");
        assert_eq!(normalize_agent_id(" My Agent! "), "my-agent");
        assert_eq!(normalize_agent_id("!!!"), "main");
        assert_eq!(normalize_agent_id("a-!b"), "a--b");
        assert_eq!(normalize_agent_id("_x"), "_x");
    }

    #[test]
    fn depth_counts_subagent_segments() {
        let v = OpenClawVersion::V2026_9;
        assert_eq!(key_depth("agent:main:subagent:a", v), 1);
        assert_eq!(key_depth("agent:main:subagent:a:subagent:b", v), 2);
        assert_eq!(key_depth("agent:main:discord:channel:subagent:x", v), 0);
        assert_eq!(key_depth("agent:main:main", v), 0);
        assert_eq!(key_depth("subagent:x", v), 1);
        assert_eq!(key_depth("subagent:x", OpenClawVersion::V2026_2), 0);
        // up to 2026.6 only the segments after a colon count
        assert_eq!(key_depth("subagent:a:subagent:b", OpenClawVersion::V2026_6), 1);
        assert_eq!(key_depth("agent:main:subagent:a:subagent:b", OpenClawVersion::V2026_6), 2);
    }

    #[test]
    fn non_main_sandbox_depends_on_the_key() {
        let config = json!({"agents": {"defaults": {"sandbox": {"mode": "non-main"}}}});
        let main = session(&config, SessionContext::default());
        assert!(!main.sandbox.sandboxed);
        let group = session(
            &config,
            SessionContext { session_key: Some("agent:main:discord:channel:1".into()), ..Default::default() },
        );
        assert!(group.sandbox.sandboxed);
    }

    #[test]
    fn roles_follow_max_spawn_depth() {
        let config = json!({"agents": {"defaults": {"subagents": {"maxSpawnDepth": 2}}}});
        let depth = |d| session(&config, SessionContext { spawn_depth: Some(d), ..Default::default() }).role;
        assert_eq!(depth(1), SubagentRole::Orchestrator);
        assert_eq!(depth(2), SubagentRole::Leaf);
    }

    #[test]
    fn a_session_finds_its_agent_like_a_scan_of_the_whole_roster() {
        let config = json!({"agents": {"entries": {"Work": {"n": 1}, "work": {"n": 2}, "My Agent!": {"n": 3}, "x": {}},
            "list": [{"id": "A"}, {"id": "a"}, {"id": " b "}]}});
        for version in [OpenClawVersion::V2026_9, OpenClawVersion::V2026_2] {
            for id in ["work", "my-agent", "x", "a", "b", "nobody"] {
                let scanned = agents::roster(&config, version).into_iter().find(|e| e.id() == id);
                let indexed = Roster::new(&config, version).find(id).cloned();
                assert_eq!(
                    indexed.map(|e| e.path.clone()),
                    scanned.as_ref().map(|e| e.path.clone()),
                    "{version:?} {id}"
                );
                let found = agents::find_agent(&config, version, id);
                assert_eq!(found.map(|e| e.path.clone()), scanned.map(|e| e.path.clone()), "{version:?} {id}");
            }
        }
    }

    #[test]
    fn seed_sandbox_belongs_to_the_session_keys_agent() {
        let config = json!({"agents": {"list": [{"id": "main"}, {"id": "work", "sandbox": {"mode": "all"}}]}});
        let resolve = |key: &str| {
            let ctx =
                SessionContext { agent_id: Some("work".into()), session_key: Some(key.into()), ..Default::default() };
            Session::resolve(&config, &ctx, OpenClawVersion::V2026_2).unwrap()
        };
        let global = resolve("global");
        assert_eq!(global.agent_id, "work");
        assert!(!global.sandbox.sandboxed, "the sandbox is the default agent's");
        assert!(!resolve("agent:main:telegram:group:g1").sandbox.sandboxed);
        assert!(resolve("agent:work:main").sandbox.sandboxed);
        let current = json!({"agents": {"entries": {"work": {"sandbox": {"mode": "all"}}}}});
        let ctx =
            SessionContext { agent_id: Some("work".into()), session_key: Some("global".into()), ..Default::default() };
        assert!(Session::resolve(&current, &ctx, OpenClawVersion::V2026_9).unwrap().sandbox.sandboxed);
    }

    #[test]
    fn multiple_agents_without_owner_is_an_error() {
        let config = json!({"agents": {"ownership": "explicit", "entries": {"a": {}, "b": {}}}});
        let err = Session::resolve(&config, &SessionContext::default(), OpenClawVersion::V2026_9).unwrap_err();
        assert!(matches!(err, SessionError::NoDefaultAgent { .. }));
        let by_key = SessionContext { session_key: Some("agent:b:main".into()), ..Default::default() };
        assert!(Session::resolve(&config, &by_key, OpenClawVersion::V2026_9).is_err());
        let seed = json!({"agents": {"list": [{"id": "a"}, {"id": "b"}]}});
        let s = Session::resolve(&seed, &SessionContext::default(), OpenClawVersion::V2026_2).unwrap();
        assert_eq!(s.agent_id, "a");
    }
}
