//! The approvals document's shape: its keys (spelled here only), the document OpenClaw behaves as
//! when there is none or it fails closed, the strict read schema, the per-agent scopes
//! (`agents.default` merged into `agents.main` on load) and allowlist entries.

use serde_json::{Map, Value, json};

use crate::exec::posture::{Ask, Security};
use crate::exec::satisfy::allowlist::{ALLOW_ALWAYS, AllowlistEntry};

const VERSION: &str = "version";
const DEFAULTS: &str = "defaults";
const AGENTS: &str = "agents";
const ALLOWLIST: &str = "allowlist";
const PATTERN: &str = "pattern";
const ARG_PATTERN: &str = "argPattern";
const SOURCE: &str = "source";
const COMMAND_TEXT: &str = "commandText";
/// The agents-map key of the legacy default agent, merged into [`MAIN`].
const LEGACY_DEFAULT: &str = "default";
const MAIN: &str = "main";
/// The agents-map key every agent inherits from.
pub const WILDCARD: &str = "*";

/// A policy field of a scope (`defaults`, `agents.<id>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Security,
    Ask,
    AskFallback,
    AutoAllowSkills,
}

impl Field {
    pub fn key(self) -> &'static str {
        match self {
            Field::Security => "security",
            Field::Ask => "ask",
            Field::AskFallback => "askFallback",
            Field::AutoAllowSkills => "autoAllowSkills",
        }
    }
}

/// `{version:1, agents:{}}`: what no document reads as.
pub fn empty() -> Value {
    json!({VERSION: 1, AGENTS: {}})
}

/// The document 2026.9 substitutes when the store is unreadable or invalid.
pub fn fail_closed() -> Value {
    let defaults = json!({
        (Field::Security.key()): "deny",
        (Field::Ask.key()): "off",
        (Field::AskFallback.key()): "deny",
        (Field::AutoAllowSkills.key()): false,
    });
    json!({VERSION: 1, DEFAULTS: defaults, AGENTS: {}})
}

/// What the tolerant reader accepts: an object of version 1.
pub fn is_version_one(doc: &Value) -> bool {
    doc.get(VERSION).and_then(Value::as_i64) == Some(1) && doc.is_object()
}

/// 2026.9's strict read schema for a stored document (invalid enum values, non-string patterns…).
pub fn validate_strict(doc: &Value) -> Result<(), String> {
    let obj = doc.as_object().ok_or("document is not an object")?;
    if obj.get(VERSION).and_then(Value::as_i64) != Some(1) {
        return Err("version must be 1".into());
    }
    let check_policy = |scope: &Map<String, Value>, at: &str| -> Result<(), String> {
        for (field, parse) in [
            (Field::Security, is_security as fn(&str) -> bool),
            (Field::Ask, is_ask),
            (Field::AskFallback, is_security),
        ] {
            if scope.get(field.key()).is_some_and(|v| !v.as_str().is_some_and(parse)) {
                return Err(format!("{at}.{} is invalid", field.key()));
            }
        }
        if scope.get(Field::AutoAllowSkills.key()).is_some_and(|v| !v.is_boolean()) {
            return Err(format!("{at}.{} is invalid", Field::AutoAllowSkills.key()));
        }
        Ok(())
    };
    if let Some(defaults) = obj.get(DEFAULTS) {
        check_policy(defaults.as_object().ok_or("defaults is not an object")?, "defaults")?;
    }
    if let Some(agents) = obj.get(AGENTS) {
        for (id, agent) in agents.as_object().ok_or("agents is not an object")? {
            if id == "__proto__" {
                return Err("agents.__proto__ is rejected".into());
            }
            let agent = agent.as_object().ok_or(format!("agents.{id} is not an object"))?;
            check_policy(agent, &format!("agents.{id}"))?;
            for (i, entry) in agent.get(ALLOWLIST).and_then(Value::as_array).into_iter().flatten().enumerate() {
                let ok =
                    entry.is_string() || entry.get(PATTERN).is_some_and(|p| p.as_str().is_some_and(|s| !s.is_empty()));
                if !ok {
                    return Err(format!("agents.{id}.allowlist[{i}] has no valid pattern"));
                }
            }
        }
    }
    Ok(())
}

fn is_security(s: &str) -> bool {
    s.parse::<Security>().is_ok()
}

fn is_ask(s: &str) -> bool {
    s.parse::<Ask>().is_ok()
}

/// The scopes one agent's policy is read from: its own, the wildcard's, the defaults.
pub struct Scopes {
    pub agent: Map<String, Value>,
    pub wildcard: Map<String, Value>,
    pub defaults: Map<String, Value>,
}

impl Scopes {
    pub fn of(doc: &Value, agent_id: &str) -> Self {
        let agents = agents_map(doc);
        let obj = |v: Option<&Value>| v.and_then(Value::as_object).cloned().unwrap_or_default();
        Scopes {
            agent: obj(agents.get(agent_id)),
            wildcard: obj(agents.get(WILDCARD)),
            defaults: obj(doc.get(DEFAULTS)),
        }
    }
}

/// The allowlists of every agent bucket but `agent_id`'s and the wildcard's, by agent id.
pub fn other_agents_allowlists(doc: &Value, agent_id: &str) -> Vec<(String, Vec<AllowlistEntry>)> {
    let agents = agents_map(doc);
    let others = agents.iter().filter(|(id, _)| id.as_str() != agent_id && id.as_str() != WILDCARD);
    others
        .filter_map(|(id, scope)| Some((id.clone(), allowlist(scope.as_object()?, &format!("agents.{id}")))))
        .filter(|(_, entries)| !entries.is_empty())
        .collect()
}

/// A scope's allowlist entries OpenClaw keeps, each labelled `<label>.allowlist[i]`.
pub fn allowlist(scope: &Map<String, Value>, label: &str) -> Vec<AllowlistEntry> {
    let entries = scope.get(ALLOWLIST).and_then(Value::as_array).into_iter().flatten().enumerate();
    entries.filter_map(|(i, entry)| allowlist_entry(entry, format!("{label}.allowlist[{i}]"))).collect()
}

/// Reads a string or `{pattern, argPattern?, source?, commandText?}` entry; `None` for entries
/// OpenClaw drops.
pub fn allowlist_entry(value: &Value, origin: String) -> Option<AllowlistEntry> {
    let (pattern, arg_pattern, source, command_text) = match value {
        Value::String(s) => (s.clone(), None, None, None),
        Value::Object(o) => {
            let pattern = o.get(PATTERN)?.as_str()?.to_string();
            let text = |k: &str| o.get(k).and_then(Value::as_str).map(String::from);
            let source = text(SOURCE).filter(|s| s == ALLOW_ALWAYS);
            (pattern, text(ARG_PATTERN), source, text(COMMAND_TEXT))
        }
        _ => return None,
    };
    (!pattern.trim().is_empty()).then_some(AllowlistEntry { pattern, arg_pattern, source, command_text, origin })
}

/// A document with `entries` added to one agent's allowlist, as the oracle's harness adds a
/// case's `allowlist` (an agents map or agent that is no object is left alone; an allowlist that
/// is no list is replaced).
pub fn with_allowlist(mut doc: Map<String, Value>, agent_id: &str, entries: &[Value]) -> Value {
    doc.entry(VERSION).or_insert(json!(1));
    if !entries.is_empty() {
        let agents = doc.entry(AGENTS).or_insert_with(|| json!({}));
        if let Some(agent) =
            agents.as_object_mut().and_then(|a| a.entry(agent_id).or_insert_with(|| json!({})).as_object_mut())
        {
            let mut list: Vec<Value> = agent.get(ALLOWLIST).and_then(Value::as_array).cloned().unwrap_or_default();
            list.extend(entries.iter().cloned());
            agent.insert(ALLOWLIST.into(), Value::Array(list));
        }
    }
    Value::Object(doc)
}

/// Merges `agents.default` into `agents.main` (normalization on load; both releases).
fn agents_map(doc: &Value) -> Map<String, Value> {
    let mut agents = doc.get(AGENTS).and_then(Value::as_object).cloned().unwrap_or_default();
    if let Some(Value::Object(legacy)) = agents.remove(LEGACY_DEFAULT) {
        let mut main = agents.get(MAIN).and_then(Value::as_object).cloned().unwrap_or_default();
        let mut merged_list: Vec<Value> = legacy.get(ALLOWLIST).and_then(Value::as_array).cloned().unwrap_or_default();
        merged_list.extend(main.get(ALLOWLIST).and_then(Value::as_array).cloned().unwrap_or_default());
        for (k, v) in legacy {
            main.entry(k).or_insert(v);
        }
        if !merged_list.is_empty() {
            main.insert(ALLOWLIST.into(), Value::Array(merged_list));
        }
        agents.insert(MAIN.into(), Value::Object(main));
    }
    agents
}
