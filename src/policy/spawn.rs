//! Sub-agent spawns: the child session the release creates for a requester, what it stores for
//! the child at spawn time (depth; in 2026.9 the requester's effective allowlist and denies) and
//! whether the requester may spawn it at all (`sessions_spawn` admission).

use serde_json::Value;

use super::Resolution;
use super::context::{SessionContext, SpawnEnvelope};
use super::rules::{Entry, Policy, Source};
use super::steps::StepKind;
use crate::OpenClawVersion;
use crate::config::view::agents;
use crate::config::view::ids::normalize_agent_id;

/// The tool a session spawns sub-agents with.
pub const SPAWN_TOOL: &str = "sessions_spawn";

/// The child run a requester asks for: `child_agent` (default: the requester's agent), spawned
/// by the `requester` session, on the requester's model and with its plugin tools.
pub fn request(requester: SessionContext, child_agent: Option<String>) -> SessionContext {
    SessionContext {
        agent_id: child_agent,
        model_provider: requester.model_provider.clone(),
        model_id: requester.model_id.clone(),
        plugin_tools: requester.plugin_tools.clone(),
        turn: requester.turn,
        requester: Some(Box::new(requester)),
        ..SessionContext::default()
    }
}

/// The child of `run` spawned by `spawner` (`AGENT`, its main session, or `AGENT:SESSION`, the
/// key after `agent:AGENT:`): `run` describes the requester's run, its agent is the child's.
pub fn spawned_by(run: SessionContext, spawner: &str) -> Result<SessionContext, String> {
    let (agent, session) = spawner.split_once(':').unwrap_or((spawner, "main"));
    if agent.trim().is_empty() || session.trim().is_empty() {
        return Err(format!("wants AGENT or AGENT:SESSION, got `{spawner}`"));
    }
    let child_agent = run.agent_id.clone();
    let requester = SessionContext {
        session_key: Some(format!("agent:{}:{}", agent.trim(), session.trim())),
        agent_id: Some(agent.trim().to_string()),
        ..run
    };
    Ok(request(requester, child_agent))
}

/// The `AGENT:SESSION` form of a child's requester (the inverse of [`spawned_by`]), when it has
/// an agent session key.
pub fn spawner_of(ctx: &SessionContext) -> Option<String> {
    let requester = ctx.requester.as_deref()?;
    let key = requester.session_key.as_deref()?;
    let (agent, rest) = super::session::split_agent_key(key)?;
    Some(format!("{agent}:{rest}"))
}

/// At most this many spawns are enumerated per config: an `allowAgents: ["*"]` on a large fleet
/// allows one spawn per pair of agents (four million for 2,000 agents).
pub const MAX_ENUMERATED_SPAWNS: usize = 4096;

/// The spawns the config allows, as (requester, child): every agent may spawn itself, then the
/// targets of each agent's `allowAgents` in roster order; at most [`MAX_ENUMERATED_SPAWNS`],
/// each agent's own spawn first. Whether the requester has `sessions_spawn` is a question for
/// its resolved session.
pub fn allowed_pairs(version: OpenClawVersion, config: &Value) -> Vec<(String, String)> {
    let agents = agents::agent_ids(config, version);
    let agents = agents.as_slice();
    let targets = SpawnTargets::new(version, config, agents);
    let own = agents.iter().map(|agent| (agent, agent));
    let cross = agents.iter().enumerate().flat_map(|(at, requester)| {
        let positions: Vec<usize> = match targets.of(requester) {
            Targets::Every => (0..agents.len()).collect(),
            Targets::Named(positions) => positions,
        };
        positions.into_iter().filter(move |&child| child != at).map(move |child| (requester, &agents[child]))
    });
    let pairs = own.chain(cross).take(MAX_ENUMERATED_SPAWNS);
    pairs.map(|(requester, child)| (requester.clone(), child.clone())).collect()
}

/// How many spawns the config allows beyond [`MAX_ENUMERATED_SPAWNS`] (counted, not listed).
pub fn spawns_beyond_cap(version: OpenClawVersion, config: &Value) -> usize {
    let agents = agents::agent_ids(config, version);
    let targets = SpawnTargets::new(version, config, &agents);
    let cross: usize = (agents.iter().enumerate())
        .map(|(at, requester)| match targets.of(requester) {
            Targets::Every => agents.len() - 1,
            Targets::Named(positions) => positions.iter().filter(|&&child| child != at).count(),
        })
        .sum();
    (agents.len() + cross).saturating_sub(MAX_ENUMERATED_SPAWNS)
}

/// Whom a requester may spawn, as positions in the configured agents.
enum Targets {
    Every,
    /// In roster order, each once.
    Named(Vec<usize>),
}

/// The configured agents indexed once, so that enumerating a fleet's spawns reads each
/// `allowAgents` once instead of scanning the roster per requester.
struct SpawnTargets<'a> {
    config: &'a Value,
    roster: agents::Roster<'a>,
    position: std::collections::HashMap<&'a str, usize>,
}

impl<'a> SpawnTargets<'a> {
    fn new(version: OpenClawVersion, config: &'a Value, agents: &'a [String]) -> Self {
        let position = agents.iter().enumerate().map(|(at, agent)| (agent.as_str(), at)).collect();
        SpawnTargets { config, roster: agents::Roster::new(config, version), position }
    }

    /// The agents `requester`'s `subagents.allowAgents` (else the defaults') names among the
    /// configured ones; none without a list (it may spawn only itself).
    fn of(&self, requester: &str) -> Targets {
        let list = agents::spawn_allow_agents(self.config, self.roster.find(requester));
        let Some(Value::Array(list)) = list.map(|l| l.value) else { return Targets::Named(Vec::new()) };
        let names: Vec<&str> = list.iter().filter_map(Value::as_str).map(str::trim).collect();
        if names.contains(&"*") {
            return Targets::Every;
        }
        let mut positions: Vec<usize> = (names.iter().filter(|n| !n.is_empty()))
            .filter_map(|n| self.position.get(normalize_agent_id(n).as_str()).copied())
            .collect();
        positions.sort_unstable();
        positions.dedup();
        Targets::Named(positions)
    }
}

/// Why the release would not create this child at all: the spawn is refused, or the requester
/// has no `sessions_spawn` tool to ask for it.
pub fn not_made(envelope: &SpawnEnvelope) -> Option<String> {
    if let Some(refused) = &envelope.refused {
        return Some(format!("{} cannot spawn it: {refused}", envelope.requester_key));
    }
    (!envelope.requester_has_spawn_tool).then(|| format!("{} has no sessions_spawn tool", envelope.requester_key))
}

/// `resolved`, unless it is a child the release would not create: the answer for enumerated
/// spawns, where a spawn that cannot happen gives no session rather than a tool list.
pub fn made(resolved: Resolution) -> Result<Resolution, super::session::SessionError> {
    match resolved.spawn.as_ref().and_then(not_made) {
        Some(why) => Err(super::session::SessionError::SpawnNotMade(why)),
        None => Ok(resolved),
    }
}

/// The session key given to a spawned child (the release uses a random id after `subagent:`).
pub fn child_session_key(agent: &str, depth: u32) -> String {
    format!("agent:{agent}:subagent:spawn-{depth}")
}

/// What a spawned child's run takes from its requester's resolved session. Small and kept per
/// requester ([`super::requester_in`]): a requester's main session is also asked by the spawn
/// enumeration and by every child it spawns.
#[derive(Debug, Clone)]
pub struct Requester {
    pub agent_id: String,
    pub session_key: String,
    pub spawn_depth: u32,
    pub has_spawn_tool: bool,
    /// The policy the child inherits, in a release that passes it on.
    pub inherited: Option<Policy>,
}

impl Requester {
    pub fn of(version: OpenClawVersion, resolved: &Resolution) -> Self {
        Requester {
            agent_id: resolved.agent_id.clone(),
            session_key: resolved.session_key.clone(),
            spawn_depth: resolved.spawn_depth,
            has_spawn_tool: resolved.tools.iter().any(|t| t == SPAWN_TOOL),
            inherited: version
                .policy()
                .subagents
                .inherits_requester_policy
                .then(|| inherited_policy(resolved))
                .flatten(),
        }
    }
}

/// The child's run: `ctx` with its derived key, the stored envelope and no external sender.
pub fn child_context(
    version: OpenClawVersion,
    config: &Value,
    ctx: &SessionContext,
    requester: &Requester,
) -> SessionContext {
    let agent = ctx.agent_id.as_deref().map_or_else(|| requester.agent_id.clone(), normalize_agent_id);
    let depth = requester.spawn_depth + 1;
    let envelope = SpawnEnvelope {
        requester_key: requester.session_key.clone(),
        requester_agent: requester.agent_id.clone(),
        depth,
        inherited: requester.inherited.clone(),
        refused: refusal(version, config, requester, &agent),
        requester_has_spawn_tool: requester.has_spawn_tool,
    };
    SessionContext {
        agent_id: Some(agent.clone()),
        session_key: Some(child_session_key(&agent, depth)),
        spawned_by: Some(requester.session_key.clone()),
        sender_id: None,
        sender_name: None,
        sender_username: None,
        sender_e164: None,
        sender_is_owner: None,
        spawn_depth: None,
        requester: None,
        spawn: Some(envelope),
        ..ctx.clone()
    }
}

/// The requester's effective allowlist (when some layer restricted it) and its explicit denies
/// plus owner-only denies, as the release captures them for `sessions_spawn`.
fn inherited_policy(requester: &Resolution) -> Option<Policy> {
    let from = |what: &str| Source::Context {
        what: format!("inherited from requester {} ({what})", requester.session_key).into(),
    };
    let restrictive = requester.steps.iter().any(|r| {
        r.step.kind != StepKind::OwnerOnly
            && (r.step.kind != StepKind::Runtime || r.step.label == super::RUNTIME_STEP_LABEL)
            && r.step.policy.allow.as_ref().is_some_and(|allow| restricts(requester.version, allow))
    });
    let allow: Vec<Entry> = if restrictive {
        // The release captures the list before the per-run cap, which runs later in the attempt.
        let mut names: Vec<&String> = requester
            .tools
            .iter()
            .chain(requester.removed.iter().filter(|(_, r)| &*r.step == super::RUNTIME_CAP_LABEL).map(|(t, _)| t))
            .collect();
        names.sort();
        names.dedup();
        // One source for every entry: a requester's policy is kept for as long as its roster.
        let effective = from("its effective tools");
        names.into_iter().map(|t| Entry { pattern: t.clone(), source: effective.clone() }).collect()
    } else {
        Vec::new()
    };
    let deny: Vec<Entry> = requester
        .steps
        .iter()
        .filter(|r| r.step.label != super::RUNTIME_CAP_LABEL)
        .flat_map(|r| r.step.policy.deny.iter().flatten())
        .filter(|e| !e.pattern.trim().is_empty())
        .map(|e| Entry { pattern: e.pattern.trim().to_string(), source: from(&e.source.to_string()) })
        .collect();
    let policy = Policy { allow: (!allow.is_empty()).then_some(allow), deny: (!deny.is_empty()).then_some(deny) };
    (!policy.is_empty()).then_some(policy)
}

/// `hasRestrictiveAllowPolicy`: an allowlist without `*` that names something.
fn restricts(version: OpenClawVersion, allow: &[Entry]) -> bool {
    let pack = version.policy();
    let names: Vec<String> = allow.iter().map(|e| pack.normalize(&e.pattern)).collect();
    !names.iter().any(|n| n == "*") && names.iter().any(|n| !n.is_empty())
}

/// Why `sessions_spawn` would refuse this child: depth, the requester's `allowAgents`, or a
/// sandboxed requester with an unsandboxed target.
fn refusal(version: OpenClawVersion, config: &Value, requester: &Requester, child_agent: &str) -> Option<String> {
    let max = super::session::max_spawn_depth(config, version);
    if requester.spawn_depth >= max {
        return Some(format!(
            "sessions_spawn is not allowed at this depth (current depth: {}, max: {max})",
            requester.spawn_depth
        ));
    }
    if child_agent != requester.agent_id {
        let allowed = allowed_targets(version, config, &requester.agent_id);
        if !allowed.iter().any(|a| a == child_agent) {
            let text = if allowed.is_empty() { "none".to_string() } else { allowed.join(", ") };
            return Some(format!("agentId is not allowed for sessions_spawn (allowed: {text})"));
        }
    }
    None
}

/// The agents `requester` may name in `sessions_spawn`: its `subagents.allowAgents` (else the
/// defaults'), intersected with the configured agents; `*` means every configured agent.
pub fn allowed_targets(version: OpenClawVersion, config: &Value, requester: &str) -> Vec<String> {
    targets_among(version, config, &agents::agent_ids(config, version), requester)
}

/// [`allowed_targets`] with the configured agents read once by the caller.
fn targets_among(version: OpenClawVersion, config: &Value, configured: &[String], requester: &str) -> Vec<String> {
    let requester_entry = agents::find_agent(config, version, requester);
    let list = agents::spawn_allow_agents(config, requester_entry.as_ref());
    let Some(Value::Array(list)) = list.map(|l| l.value) else {
        return vec![requester.to_string()];
    };
    let names: Vec<&str> = list.iter().filter_map(Value::as_str).map(str::trim).collect();
    let mut allowed: Vec<String> = if names.contains(&"*") {
        configured.iter().cloned().chain([requester.to_string()]).collect()
    } else {
        names
            .iter()
            .filter(|n| !n.is_empty())
            .map(|n| normalize_agent_id(n))
            .filter(|n| configured.contains(n))
            .collect()
    };
    allowed.sort();
    allowed.dedup();
    allowed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spawns_beyond_the_enumeration_cap_are_counted() {
        let version = OpenClawVersion::V2026_9;
        let roster = |n: usize| {
            let entries: serde_json::Map<String, Value> =
                (0..n).map(|i| (format!("a{i}"), serde_json::json!({}))).collect();
            serde_json::json!({"agents": {"ownership": "explicit", "entries": entries,
                "defaults": {"subagents": {"allowAgents": ["*"]}}}})
        };
        // 64 agents: 64 own spawns + 64 x 63 cross spawns = 4,096, all listed.
        assert_eq!(allowed_pairs(version, &roster(64)).len(), MAX_ENUMERATED_SPAWNS);
        assert_eq!(spawns_beyond_cap(version, &roster(64)), 0);
        // 70 agents: 70 + 70 x 69 = 4,900, of which 804 are not listed.
        assert_eq!(spawns_beyond_cap(version, &roster(70)), 804);
    }

    #[test]
    fn named_spawn_targets_follow_roster_order_once_each() {
        let version = OpenClawVersion::V2026_9;
        // `lead` names its targets out of roster order, twice, in another case, with an unknown
        // agent and itself; `dev` names none (it may spawn only itself).
        let config = serde_json::json!({"agents": {"ownership": "explicit", "entries": {
            "lead": {"subagents": {"allowAgents": ["qa", " Dev ", "qa", "ghost", "lead", ""]}},
            "dev": {}, "qa": {"subagents": {"allowAgents": ["*"]}}}}});
        let pairs: Vec<(String, String)> = allowed_pairs(version, &config);
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(r, c)| (r.as_str(), c.as_str())).collect();
        assert_eq!(
            pairs,
            [
                ("lead", "lead"),
                ("dev", "dev"),
                ("qa", "qa"),
                ("lead", "dev"),
                ("lead", "qa"),
                ("qa", "lead"),
                ("qa", "dev")
            ]
        );
        assert_eq!(spawns_beyond_cap(version, &config), 0);
    }
}
