//! Finding the tool-policy lists and the agents of a config, for rules that look at all of them.

use serde_json::Value;

use crate::config::path::{KeyPath, PathSeg};
pub use crate::config::view::tools::ListKind;
use crate::policy::SessionContext;

use super::super::LintContext;

/// One `allow` / `alsoAllow` / `deny` list of tool names.
pub struct PolicyList<'a> {
    /// The policy object holding the list (`agents.entries.dev.tools`).
    pub scope: KeyPath,
    pub kind: ListKind,
    /// Each string entry with its own path.
    pub entries: Vec<(KeyPath, &'a str)>,
}

impl PolicyList<'_> {
    pub fn path(&self) -> KeyPath {
        self.scope.key(self.kind.key())
    }
}

/// Whether the object at `scope` is a tool policy: a `tools` object (global, agent, group,
/// sandbox, subagent), or an entry of `byProvider` / `toolsBySender`. Gateway HTTP tool lists and
/// node command lists are other vocabularies.
fn is_policy_scope(scope: &[PathSeg]) -> bool {
    if scope.first().and_then(PathSeg::as_key) == Some("gateway") {
        return false;
    }
    let key_from_end = |i: usize| scope.len().checked_sub(i).and_then(|j| scope[j].as_key());
    key_from_end(1) == Some("tools") || matches!(key_from_end(2), Some("byProvider" | "toolsBySender"))
}

/// Every tool-policy list in the config, in document order.
pub fn policy_lists(config: &Value) -> Vec<PolicyList<'_>> {
    let mut lists = Vec::new();
    collect(config, &mut Vec::new(), &mut lists);
    lists
}

fn collect<'a>(value: &'a Value, path: &mut Vec<PathSeg>, out: &mut Vec<PolicyList<'a>>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                if let (Some(kind), Value::Array(items)) = (ListKind::from_key(key), child)
                    && is_policy_scope(path)
                {
                    let scope = KeyPath(path.clone());
                    let list_path = scope.key(key);
                    let entries = items
                        .iter()
                        .enumerate()
                        .filter_map(|(i, item)| item.as_str().map(|s| (list_path.index(i), s)))
                        .collect();
                    out.push(PolicyList { scope, kind, entries });
                    continue;
                }
                path.push(PathSeg::Key(key.clone()));
                collect(child, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                path.push(PathSeg::Index(i));
                collect(child, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// A configured agent: its id and where its entry is.
pub struct Agent {
    pub id: String,
    pub path: Option<KeyPath>,
}

/// The agents of the config, listed once per lint run; a config without a roster has the implicit
/// default agent (2026.9's loader adds it as `agents.entries.main`, which is configured nowhere).
pub fn agents<'c>(ctx: &'c LintContext<'_>) -> &'c [Agent] {
    ctx.agents.get_or_init(|| {
        let entries = ctx.roster().agents().entries();
        if entries.is_empty() || ctx.loaded.implicit_roster() {
            return vec![Agent { id: "main".into(), path: None }];
        }
        entries.iter().map(|e| Agent { id: e.id(), path: Some(e.path.clone()) }).collect()
    })
}

/// The main direct-message session of an agent, as an owner would run it.
pub fn main_session(agent: &str) -> SessionContext {
    SessionContext { agent_id: Some(agent.to_string()), ..SessionContext::default() }
}
