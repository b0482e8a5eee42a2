//! `matrix`: every agent × context of a config with its tool set, each cell compared with the
//! agent's main DM; and `--why`, the step-by-step difference between two cells.

use ahash::AHashSet;
use serde::Serialize;

use crate::config::view::inbound::Audience;
use serde_json::Value;

use crate::OpenClawVersion;
use crate::fleet::contexts::{self, Evaluated, MAIN, NamedContext, Sessions};
use crate::fleet::delta::{self, Locate, Side, ToolChange};
use crate::policy::steps::StepKind;
use crate::policy::{Resolution, StepRecord};

/// One agent's row.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentRow {
    pub agent_id: String,
    /// The tools of the agent's main DM, which every other cell is compared with.
    pub main_tools: Vec<String>,
    pub cells: Vec<MatrixCell>,
}

/// One agent × context cell.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatrixCell {
    pub context: String,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
    /// Who can send messages into this session.
    pub audience: Audience,
    pub tools: Vec<String>,
    /// Tools this cell has and the main DM lacks.
    pub added: Vec<String>,
    /// Tools the main DM has and this cell lacks.
    pub removed: Vec<String>,
    pub differs_from_main: bool,
    /// Why the session could not be resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Resolves the contexts (agents in the order they come) into rows. Of each session only its
/// tool list is kept, so memory grows with the cells, not with their step records.
pub fn build(sessions: &Sessions<'_>, contexts: &[NamedContext]) -> Vec<AgentRow> {
    let cells = sessions.evaluate_with(contexts, |context, result| {
        let (session_key, tools, error) = match result {
            Ok(resolution) => (Some(resolution.session_key), resolution.tools, None),
            Err(e) => (None, Vec::new(), Some(e.to_string())),
        };
        MatrixCell {
            context: context.id.clone(),
            description: context.description.clone(),
            session_key,
            audience: context.audience.clone(),
            tools,
            added: Vec::new(),
            removed: Vec::new(),
            differs_from_main: false,
            error,
        }
    });
    let mut rows: Vec<AgentRow> = Vec::new();
    for (context, cell) in contexts.iter().zip(cells) {
        if rows.last().is_none_or(|row| row.agent_id != context.agent_id) {
            rows.push(AgentRow { agent_id: context.agent_id.clone(), main_tools: Vec::new(), cells: Vec::new() });
        }
        rows.last_mut().expect("pushed above").cells.push(cell);
    }
    crate::base::parallel::par_for_each_mut(&mut rows, |row| {
        row.main_tools = row.cells.iter().find(|c| c.context == MAIN).map(|c| c.tools.clone()).unwrap_or_default();
        // Looked up in sets: a session can have thousands of tools (declared plugin tools).
        let in_main: AHashSet<&String> = row.main_tools.iter().collect();
        for cell in &mut row.cells {
            let in_cell: AHashSet<&String> = cell.tools.iter().collect();
            cell.added = cell.tools.iter().filter(|t| !in_main.contains(t)).cloned().collect();
            cell.removed = row.main_tools.iter().filter(|t| !in_cell.contains(t)).cloned().collect();
            cell.differs_from_main = !cell.added.is_empty() || !cell.removed.is_empty() || cell.error.is_some();
        }
    });
    rows
}

/// A cell named on the command line that the config does not have.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("no cell `{cell}` in this config")]
#[diagnostic(code(matrix::unknown_cell))]
pub struct UnknownCell {
    pub cell: String,
    #[help]
    pub help: String,
}

/// Finds a cell by its `agent/context` name.
pub fn find_cell<'a>(contexts: &'a [NamedContext], name: &str) -> Result<&'a NamedContext, UnknownCell> {
    if let Some(context) = contexts.iter().find(|c| c.cell() == name) {
        return Ok(context);
    }
    let agent = name.split_once('/').map_or(name, |(agent, _)| agent);
    let of_agent: Vec<&str> = contexts.iter().filter(|c| c.agent_id == agent).map(|c| c.id.as_str()).collect();
    let help = if of_agent.is_empty() {
        let mut agents: Vec<&str> = contexts.iter().map(|c| c.agent_id.as_str()).collect();
        agents.dedup();
        format!("cells are named agent/context; agents: {}", agents.join(", "))
    } else {
        format!("contexts of agent {agent}: {}", of_agent.join(", "))
    };
    Err(UnknownCell { cell: name.to_string(), help })
}

/// The facts of one cell that policy reads.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CellFacts {
    pub cell: String,
    pub description: String,
    pub session_key: String,
    pub sandboxed: bool,
    pub subagent_role: String,
    /// The config blocks and session facts that made this session special.
    pub features: Vec<String>,
}

/// A step that removed different tools in the two cells (or applied in only one of them).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepDifference {
    pub step: String,
    /// Tools the step removed in the first cell; `None` when the step does not apply there.
    pub from: Option<Vec<String>>,
    pub to: Option<Vec<String>>,
}

/// Why two cells have different tools.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Why {
    pub from: CellFacts,
    pub to: CellFacts,
    pub steps: Vec<StepDifference>,
    pub tools: Vec<ToolChange>,
}

/// Explains the difference between two resolved cells.
pub fn why(
    version: OpenClawVersion,
    config: &Value,
    from: &NamedContext,
    to: &NamedContext,
    locate: Locate<'_>,
) -> Why {
    let resolve = |context: &NamedContext| Evaluated {
        context: context.clone(),
        result: crate::policy::resolve(version, config, &context.ctx),
    };
    let (from, to) = (&resolve(from), &resolve(to));
    let facts = |cell: &Evaluated| {
        let resolution = cell.result.as_ref().ok();
        CellFacts {
            cell: cell.context.cell(),
            description: cell.context.description.clone(),
            session_key: resolution.map(|r| r.session_key.clone()).unwrap_or_default(),
            sandboxed: resolution.is_some_and(|r| r.sandbox.sandboxed),
            subagent_role: resolution.map(|r| format!("{:?}", r.subagent_role).to_lowercase()).unwrap_or_default(),
            features: resolution
                .map(|r| contexts::features(version, &cell.context.ctx, r).into_iter().collect())
                .unwrap_or_default(),
        }
    };
    Why {
        from: facts(from),
        to: facts(to),
        steps: step_differences(from.result.as_ref().ok(), to.result.as_ref().ok()),
        tools: delta::tool_changes(&side(from, locate), &side(to, locate)),
    }
}

fn side<'a>(cell: &'a Evaluated, locate: Locate<'a>) -> Side<'a> {
    Side { resolution: cell.result.as_ref().map_err(ToString::to_string), locate }
}

fn records(resolution: Option<&Resolution>) -> &[StepRecord] {
    resolution.map(|r| r.steps.as_slice()).unwrap_or_default()
}

fn step_differences(from: Option<&Resolution>, to: Option<&Resolution>) -> Vec<StepDifference> {
    let mut labels: Vec<(StepKind, &str)> = Vec::new();
    for record in records(from).iter().chain(records(to)) {
        let key = (record.step.kind, record.step.label.as_str());
        if !labels.contains(&key) {
            labels.push(key);
        }
    }
    labels.sort_by_key(|(kind, _)| *kind);
    let removed_at =
        |records: &[StepRecord], label: &str| records.iter().find(|r| r.step.label == label).map(|r| r.removed.clone());
    labels
        .into_iter()
        .filter_map(|(_, label)| {
            let (a, b) = (removed_at(records(from), label), removed_at(records(to), label));
            (a != b).then(|| StepDifference { step: label.to_string(), from: a, to: b })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn config() -> Value {
        json!({
            "agents": {"entries": {"solo": {}}},
            "channels": {"telegram": {"groups": {"*": {"tools": {"deny": ["exec", "process"]}}}}}
        })
    }

    const V: OpenClawVersion = OpenClawVersion::V2026_9;

    #[test]
    fn cells_are_compared_with_the_main_dm() {
        let config = config();
        let sessions = Sessions::new(V, &config);
        let rows = build(&sessions, &sessions.contexts_of(sessions.agents(), &[]));
        assert_eq!(rows.len(), 1);
        let group = rows[0].cells.iter().find(|c| c.context == "group:telegram:*").unwrap();
        // The group's deny, and the owner-only tools: group senders are not the owner.
        for tool in ["exec", "process", "gateway", "nodes"] {
            assert!(group.removed.iter().any(|t| t == tool), "{tool}: {:?}", group.removed);
        }
        assert_eq!(group.audience.reach, crate::config::view::inbound::Reach::Anyone);
        assert!(group.differs_from_main);
        assert!(!rows[0].cells[0].differs_from_main);
    }

    #[test]
    fn why_names_the_step() {
        let config = config();
        let all = contexts::enumerate(V, &config, &[]);
        let from = find_cell(&all, "solo/main").unwrap();
        let to = find_cell(&all, "solo/group:telegram:*").unwrap();
        let why = why(V, &config, from, to, &|_| None);
        let labels: Vec<&str> = why.steps.iter().map(|s| s.step.as_str()).collect();
        assert_eq!(labels, ["group tools.allow", "gateway sender owner-only tools"]);
        assert_eq!(why.steps[0].from, None);
        assert_eq!(why.steps[0].to.as_deref(), Some(&["exec".to_string(), "process".to_string()][..]));
        let err = find_cell(&all, "solo/nope").unwrap_err();
        assert!(err.help.contains("group:telegram:*"), "{}", err.help);
    }
}
