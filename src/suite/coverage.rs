//! Which enumerated sessions ([`crate::fleet::contexts`]) a suite's cases exercised, and which they
//! never did. A case covers a context when it applied everything that makes the context special
//! (its group, sender or provider block, sub-agent role, non-owner sender, non-main session);
//! the main DM is covered by a case that applied nothing beyond what the main DM applies.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use crate::OpenClawVersion;
use crate::fleet::contexts::{self, MAIN};
use crate::policy::{Resolution, SessionContext};

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentCoverage {
    pub agent_id: String,
    pub covered: Vec<String>,
    pub uncovered: Vec<String>,
}

/// Coverage of the sessions of one config (file set).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigCoverage {
    pub config: Vec<String>,
    pub agents: Vec<AgentCoverage>,
}

impl ConfigCoverage {
    pub fn counts(&self) -> (usize, usize) {
        let covered = self.agents.iter().map(|a| a.covered.len()).sum();
        (covered, covered + self.agents.iter().map(|a| a.uncovered.len()).sum::<usize>())
    }
}

/// Coverage of `config`'s contexts by the sessions the cases resolved.
pub fn coverage(
    version: OpenClawVersion,
    files: &[PathBuf],
    config: &Value,
    sessions: &[(SessionContext, Resolution)],
) -> ConfigCoverage {
    let exercised: Vec<(&str, BTreeSet<String>)> = sessions
        .iter()
        .map(|(ctx, resolution)| (resolution.agent_id.as_str(), contexts::features(version, ctx, resolution)))
        .collect();
    let evaluated = contexts::evaluate(version, config, contexts::enumerate(version, config, &[]));
    let mut agents: Vec<AgentCoverage> = Vec::new();
    for agent in contexts::agent_ids(version, config) {
        let features_of = |id: &str| {
            let cell = evaluated.iter().find(|e| e.context.agent_id == agent && e.context.id == id)?;
            let resolution = cell.result.as_ref().ok()?;
            Some(contexts::features(version, &cell.context.ctx, resolution))
        };
        let main = features_of(MAIN).unwrap_or_default();
        let cases: Vec<&BTreeSet<String>> =
            exercised.iter().filter(|(a, _)| *a == agent).map(|(_, features)| features).collect();
        let mut row = AgentCoverage { agent_id: agent.clone(), covered: Vec::new(), uncovered: Vec::new() };
        for context in evaluated.iter().filter(|e| e.context.agent_id == agent) {
            let defining: BTreeSet<String> =
                features_of(&context.context.id).unwrap_or_default().difference(&main).cloned().collect();
            let covered =
                cases.iter().any(|case| if defining.is_empty() { **case == main } else { defining.is_subset(case) });
            let list = if covered { &mut row.covered } else { &mut row.uncovered };
            list.push(context.context.id.clone());
        }
        agents.push(row);
    }
    ConfigCoverage { config: files.iter().map(|f| f.display().to_string()).collect(), agents }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy;
    use serde_json::json;

    #[test]
    fn cases_cover_the_contexts_they_apply() {
        let v = OpenClawVersion::V2026_9;
        let config = json!({
            "agents": {"entries": {"a": {}, "b": {}}},
            "channels": {"telegram": {"groups": {"-1": {"tools": {"deny": ["read"]}}}}}
        });
        let session = |ctx: SessionContext| {
            let resolution = policy::resolve(v, &config, &ctx).unwrap();
            (ctx, resolution)
        };
        let group = SessionContext {
            agent_id: Some("a".into()),
            session_key: Some("agent:a:telegram:group:-1".into()),
            // Group senders are not the owner, so only a non-owner case covers the group.
            sender_is_owner: Some(false),
            ..Default::default()
        };
        let main = SessionContext { agent_id: Some("a".into()), ..Default::default() };
        let report = coverage(v, &[], &config, &[session(group), session(main)]);
        let a = &report.agents[0];
        assert!(a.covered.contains(&"group:telegram:-1".to_string()), "{a:?}");
        assert!(a.covered.contains(&"non-main".to_string()), "a group session is a non-main session: {a:?}");
        assert!(a.covered.contains(&"main".to_string()));
        assert!(a.uncovered.contains(&"subagent:leaf".to_string()));
        assert!(report.agents[1].covered.is_empty());
        let (covered, total) = report.counts();
        assert!(covered == a.covered.len() && total > covered);
    }
}
