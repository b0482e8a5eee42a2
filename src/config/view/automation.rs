//! The config that shapes automation runs: an agent's heartbeat (`agents.<id>.heartbeat` over
//! `agents.defaults.heartbeat`, field by field, as both releases merge them), which agents run
//! heartbeats, how visible replies are made (`messages.visibleReplies`) and where the cron jobs
//! are kept (`cron.store`).

use serde_json::Value;

use super::agents::{self, AgentDefaults, DefaultAgent};
use super::ids::normalize_agent_id;
use super::located::Located;
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::release::automation::HeartbeatEnrollment;

const HEARTBEAT: &str = super::keys::HEARTBEAT;

/// One agent's heartbeat settings: its own block over `agents.defaults.heartbeat`.
#[derive(Debug, Clone, Default)]
pub struct Heartbeat<'a> {
    own: Option<Located<'a>>,
    defaults: Option<Located<'a>>,
}

impl<'a> Heartbeat<'a> {
    pub fn of(config: &'a Value, version: OpenClawVersion, agent: &str) -> Self {
        let own = agents::find_agent(config, version, agent).and_then(|entry| entry.member(HEARTBEAT));
        Heartbeat { own, defaults: AgentDefaults::of(config).block().and_then(|d| d.member(HEARTBEAT)) }
    }

    /// A field, the agent's over the defaults'.
    fn field(&self, key: &str) -> Option<Located<'a>> {
        let of = |block: &Option<Located<'a>>| block.as_ref().and_then(|b| b.member(key));
        of(&self.own).or_else(|| of(&self.defaults))
    }

    /// `heartbeat.session`: the session the heartbeat runs in (default: the main session).
    pub fn session(&self) -> Option<Located<'a>> {
        self.field("session")
    }

    /// `heartbeat.isolatedSession: true`: the heartbeat runs beside that session, not in it.
    pub fn isolated_session(&self) -> bool {
        self.field("isolatedSession").and_then(|v| v.as_bool()) == Some(true)
    }

    /// `heartbeat.every`: the interval; `None` when unset (the release's default, 30 min).
    pub fn every(&self) -> Option<Located<'a>> {
        self.field("every")
    }

    /// Whether `every` switches the heartbeat off: blank, zero or not a duration.
    pub fn switched_off(&self) -> bool {
        let Some(every) = self.every() else { return false };
        let text = match &every.value {
            Value::String(s) => s.trim().to_string(),
            Value::Number(n) => n.to_string(),
            _ => return true,
        };
        !duration_is_positive(&text)
    }

    /// Where the heartbeat is configured: the agent's block, else the defaults'.
    pub fn path(&self) -> Option<KeyPath> {
        self.own.as_ref().or(self.defaults.as_ref()).map(|b| b.path.clone())
    }
}

/// OpenClaw's duration syntax (`parseDurationMs`, default unit minutes): a number with an
/// optional `ms`, `s`, `m`, `h` or `d`; true when it is more than zero.
fn duration_is_positive(text: &str) -> bool {
    let unit_at = text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len());
    let (number, unit) = text.split_at(unit_at);
    matches!(unit.trim().to_ascii_lowercase().as_str(), "" | "ms" | "s" | "m" | "h" | "d")
        && number.trim().parse::<f64>().is_ok_and(|n| n.is_finite() && n > 0.0)
}

/// The agents that run heartbeats, in roster order, by the release's enrollment rule.
pub fn heartbeat_agents(config: &Value, version: OpenClawVersion) -> Vec<String> {
    let roster = agents::roster(config, version);
    let explicit: Vec<String> = roster.iter().filter(|e| e.member(HEARTBEAT).is_some()).map(|e| e.id()).collect();
    if !explicit.is_empty() {
        return explicit;
    }
    let defaults_block = AgentDefaults::of(config).block().and_then(|d| d.member(HEARTBEAT));
    if version.automation().heartbeat.enrollment == HeartbeatEnrollment::EntriesOrDefaultsBlock
        && let Some(block) = defaults_block
    {
        if let Some(agent) = block.member("agentId").and_then(|a| a.as_str()).filter(|a| !a.trim().is_empty()) {
            return vec![normalize_agent_id(agent)];
        }
        return agents::agent_ids(config, version);
    }
    match agents::default_agent(config, version) {
        DefaultAgent::Agent(id) => vec![id],
        DefaultAgent::Undecided(_) => Vec::new(),
    }
}

/// `messages.visibleReplies`: `message_tool` makes a heartbeat answer through its response tool.
pub fn visible_replies(config: &Value) -> Option<Located<'_>> {
    Located::lookup(config, KeyPath::keys(&["messages", "visibleReplies"]))
}

/// `cron.store`: a jobs store elsewhere than the release's default.
pub fn cron_store(config: &Value) -> Option<&str> {
    Located::lookup(config, KeyPath::keys(&["cron", "store"]))?.as_str().map(str::trim).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn durations_and_enrollment() {
        for (every, off) in [("30m", false), ("0", true), ("0m", true), ("", true), ("1.5h", false), ("soon", true)] {
            let config = json!({"agents": {"defaults": {"heartbeat": {"every": every}}}});
            assert_eq!(Heartbeat::of(&config, OpenClawVersion::V2026_9, "main").switched_off(), off, "{every}");
        }
        let v9 = OpenClawVersion::V2026_9;
        let v2 = OpenClawVersion::V2026_2;
        let fleet = json!({"agents": {"defaults": {"heartbeat": {"every": "1h"}}, "entries": {"a": {}, "b": {}}}});
        assert_eq!(heartbeat_agents(&fleet, v9), ["a", "b"]);
        let listed =
            json!({"agents": {"defaults": {"heartbeat": {}}, "list": [{"id": "a"}, {"id": "b", "default": true}]}});
        assert_eq!(heartbeat_agents(&listed, v2), ["b"]);
        let own = json!({"agents": {"entries": {"a": {}, "b": {"heartbeat": {"every": "2h"}}}}});
        assert_eq!(heartbeat_agents(&own, v9), ["b"]);
        let named = json!({"agents": {"defaults": {"heartbeat": {"agentId": "B"}}, "entries": {"a": {}, "b": {}}}});
        assert_eq!(heartbeat_agents(&named, v9), ["b"]);
    }
}
