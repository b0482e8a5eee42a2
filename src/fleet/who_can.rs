//! `who-can <tool>`: every agent and context whose session has the tool; for `exec` with a
//! command, every one whose decision for that command is allow or ask.

use serde::Serialize;

use crate::exec::ExecError;
use crate::fleet::contexts::Evaluated;
use crate::fleet::probe::{ExecProber, ExecVerdict};

/// One agent × context that can use the tool.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Match {
    pub agent_id: String,
    pub context: String,
    pub description: String,
    pub session_key: String,
    /// Who can send messages into this session.
    pub audience: crate::config::view::inbound::Audience,
    /// For `exec --command`: allow or ask.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<ExecVerdict>,
}

/// The answer.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WhoCan {
    pub tool: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// How many agent × context cells were checked.
    pub checked: usize,
    pub matches: Vec<Match>,
    /// Cells that could not be resolved, as `agent/context: reason`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<String>,
}

/// Who has `tool` (already normalized) among sessions resolved under `config`. With `command`, the tool is `exec` and a cell matches
/// when the command would run there with or without approval.
pub fn who_can(
    evaluated: &[Evaluated],
    tool: &str,
    config: &serde_json::Value,
    command: Option<(&str, &ExecProber)>,
) -> Result<WhoCan, ExecError> {
    let mut answer = WhoCan {
        tool: tool.to_string(),
        command: command.as_ref().map(|(c, _)| c.to_string()),
        checked: evaluated.len(),
        matches: Vec::new(),
        unresolved: Vec::new(),
    };
    for cell in evaluated {
        let resolution = match &cell.result {
            Ok(resolution) => resolution,
            Err(e) => {
                answer.unresolved.push(format!("{}: {e}", cell.context.cell()));
                continue;
            }
        };
        if !resolution.tools.iter().any(|t| t == tool) {
            continue;
        }
        let decision = match command {
            Some((text, prober)) => Some(prober.verdict(config, resolution, text)?).filter(|v| v.reachable()),
            None => None,
        };
        if command.is_some() && decision.is_none() {
            continue;
        }
        answer.matches.push(Match {
            agent_id: cell.context.agent_id.clone(),
            context: cell.context.id.clone(),
            description: cell.context.description.clone(),
            session_key: resolution.session_key.clone(),
            audience: cell.context.audience.clone(),
            decision,
        });
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use crate::exec::ApprovalsInput;
    use crate::fleet::contexts;
    use serde_json::json;

    #[test]
    fn exec_with_a_command_keeps_allow_and_ask() {
        let v = OpenClawVersion::V2026_9;
        let config = json!({"agents": {"entries": {
            "open": {"tools": {"exec": {"security": "full"}}},
            "careful": {"tools": {"exec": {"security": "allowlist", "ask": "on-miss"}}},
            "locked": {"tools": {"exec": {"security": "deny"}}},
            "none": {"tools": {"deny": ["exec"]}}
        }}});
        let cells = contexts::evaluate(v, &config, contexts::enumerate(v, &config, &[]));
        let agents = |answer: &WhoCan| {
            let mut ids: Vec<String> = answer.matches.iter().map(|m| m.agent_id.clone()).collect();
            ids.dedup();
            ids
        };
        let has_exec = who_can(&cells, "exec", &config, None).unwrap();
        assert_eq!(agents(&has_exec), ["open", "careful", "locked"]);
        let prober = ExecProber::new(v, ApprovalsInput::None, "/".into());
        let runs = who_can(&cells, "exec", &config, Some(("rm -rf build", &prober))).unwrap();
        assert_eq!(agents(&runs), ["open", "careful"]);
        let careful = runs.matches.iter().find(|m| m.agent_id == "careful").unwrap();
        assert_eq!(careful.decision, Some(ExecVerdict::Ask));
    }
}
