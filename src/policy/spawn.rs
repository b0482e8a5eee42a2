//! Sub-agent spawns: the child session the release creates for a requester, what it stores for
//! the child at spawn time (depth; in 2026.9 the requester's effective allowlist and denies) and
//! whether the requester may spawn it at all (`sessions_spawn` admission).

use serde_json::Value;

use super::Resolution;
use super::context::{SessionContext, SpawnEnvelope};
use super::rules::{Entry, Policy, Source};
use super::steps::StepKind;
use crate::OpenClawVersion;
use crate::config::view::ids::normalize_agent_id;

/// The session key given to a spawned child (the release uses a random id after `subagent:`).
pub fn child_session_key(agent: &str, depth: u32) -> String {
    format!("agent:{agent}:subagent:spawn-{depth}")
}

/// The child's run: `ctx` with its derived key, the stored envelope and no external sender.
pub fn child_context(
    version: OpenClawVersion,
    config: &Value,
    ctx: &SessionContext,
    requester: &Resolution,
) -> SessionContext {
    let agent = ctx.agent_id.as_deref().map_or_else(|| requester.agent_id.clone(), normalize_agent_id);
    let depth = requester.spawn_depth + 1;
    let envelope = SpawnEnvelope {
        requester_key: requester.session_key.clone(),
        requester_agent: requester.agent_id.clone(),
        depth,
        inherited: version.policy().subagents.inherits_requester_policy.then(|| inherited_policy(requester)).flatten(),
        refused: refusal(version, config, requester, &agent),
        requester_has_spawn_tool: requester.tools.iter().any(|t| t == "sessions_spawn"),
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
    let from =
        |what: &str| Source::Context { what: format!("inherited from requester {} ({what})", requester.session_key) };
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
            .chain(requester.removed.iter().filter(|(_, r)| r.step == super::RUNTIME_CAP_LABEL).map(|(t, _)| t))
            .collect();
        names.sort();
        names.dedup();
        names.into_iter().map(|t| Entry { pattern: t.clone(), source: from("its effective tools") }).collect()
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
fn refusal(version: OpenClawVersion, config: &Value, requester: &Resolution, child_agent: &str) -> Option<String> {
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
    let configured =
        crate::config::view::agents::agent_list(config, version).into_iter().map(|agent| agent.id).collect::<Vec<_>>();
    let own = crate::config::view::agents::find_agent(config, version, requester)
        .and_then(|a| a.value.get("subagents").and_then(|s| s.get("allowAgents")).cloned());
    let list = own.or_else(|| config.pointer("/agents/defaults/subagents/allowAgents").cloned());
    let Some(Value::Array(list)) = list else {
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
