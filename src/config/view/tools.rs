//! Tool-policy blocks (`tools`-shaped objects) as the resolver reads them: the global `tools`, an
//! agent's `tools`, a `byProvider` or `toolsBySender` entry, a group's `tools`,
//! `tools.sandbox.tools` and `tools.subagents.tools`; and the settings inside them that decide
//! which tools are built (exec `applyPatch`, `swarm`, `web`, `updatePlan`, `loopDetection`).

use std::ops::Deref;

use serde_json::Value;

use super::located::Located;
use crate::config::path::KeyPath;

/// One of the three lists of a tool policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    Allow,
    AlsoAllow,
    Deny,
}

impl ListKind {
    pub const ALL: [ListKind; 3] = [ListKind::Allow, ListKind::AlsoAllow, ListKind::Deny];

    /// The config key of the list.
    pub fn key(self) -> &'static str {
        match self {
            ListKind::Allow => "allow",
            ListKind::AlsoAllow => "alsoAllow",
            ListKind::Deny => "deny",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        ListKind::ALL.into_iter().find(|kind| kind.key() == key)
    }
}

/// The path of the global tool policy (`tools`), where edits to it go.
pub fn global_path() -> KeyPath {
    KeyPath::keys(&["tools"])
}

/// A tool-policy block: an object with `profile`, `allow`, `alsoAllow`, `deny` and friends.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolsScope<'a>(pub Located<'a>);

impl<'a> Deref for ToolsScope<'a> {
    type Target = Located<'a>;
    fn deref(&self) -> &Located<'a> {
        &self.0
    }
}

impl<'a> ToolsScope<'a> {
    /// The global `tools` block.
    pub fn global(config: &'a Value) -> Option<Self> {
        Located::lookup(config, global_path()).map(ToolsScope)
    }

    /// The `tools` member of an object that holds one (an agent entry, a group entry).
    pub fn of(holder: &Located<'a>) -> Option<Self> {
        holder.member("tools").map(ToolsScope)
    }

    /// `profile`, when it is a string.
    pub fn profile(&self) -> Option<(&'a str, KeyPath)> {
        let profile = self.member("profile")?;
        Some((profile.as_str()?, profile.path))
    }

    /// The string entries of one list, each with its element's path; `None` when the list is
    /// not an array.
    pub fn list(&self, kind: ListKind) -> Option<Vec<(KeyPath, &'a str)>> {
        self.member(kind.key())?.string_items()
    }

    /// Whether the block has this list (an array; [`ToolsScope::list`] is `Some`).
    pub fn has_list(&self, kind: ListKind) -> bool {
        self.value.get(kind.key()).is_some_and(Value::is_array)
    }

    /// The path where a list of this block is (or would be) written.
    pub fn list_path(&self, kind: ListKind) -> KeyPath {
        self.path.key(kind.key())
    }

    /// The `byProvider` map.
    pub fn by_provider(&self) -> Option<Located<'a>> {
        self.member("byProvider")
    }

    /// The `toolsBySender` map.
    pub fn tools_by_sender(&self) -> Option<Located<'a>> {
        self.member("toolsBySender")
    }

    /// `sandbox.tools`: the sandbox step's lists.
    pub fn sandbox_tools(&self) -> Option<ToolsScope<'a>> {
        self.at(&["sandbox", "tools"]).map(ToolsScope)
    }

    /// `subagents.tools`: the sub-agent step's lists.
    pub fn subagent_tools(&self) -> Option<ToolsScope<'a>> {
        self.at(&["subagents", "tools"]).map(ToolsScope)
    }

    /// `exec.applyPatch`, whatever its type.
    pub fn apply_patch(&self) -> Option<ApplyPatch<'a>> {
        self.at(&["exec", "applyPatch"]).map(ApplyPatch)
    }

    /// Whether `swarm` switches swarm tools on or off: `swarm` itself when it is a boolean, else
    /// `swarm.enabled` when that is one (`resolveSwarmConfig`); `None` leaves the choice to the
    /// enclosing block or the release's default.
    pub fn swarm_switch(&self) -> Option<bool> {
        let swarm = self.member("swarm")?;
        swarm.as_bool().or_else(|| swarm.member("enabled")?.as_bool())
    }

    /// `web.<tool>.enabled` (`web.search.enabled`, `web.fetch.enabled`), whatever its type.
    pub fn web_enabled(&self, tool: WebTool) -> Option<Located<'a>> {
        self.at(&["web", tool.key(), "enabled"])
    }

    /// `web.search.provider`, when it is a string.
    pub fn web_search_provider(&self) -> Option<&'a str> {
        self.at(&["web", "search", "provider"])?.as_str()
    }

    /// `web.search`, whatever its type.
    pub fn web_search(&self) -> Option<Located<'a>> {
        self.at(&["web", "search"])
    }

    /// `updatePlan`, whatever its type.
    pub fn update_plan(&self) -> Option<Located<'a>> {
        self.member("updatePlan")
    }

    /// `experimental.planTool`, when it is a boolean.
    pub fn experimental_plan_tool(&self) -> Option<bool> {
        self.at(&["experimental", "planTool"])?.value.as_bool()
    }

    /// `loopDetection`, whatever its type.
    pub fn loop_detection(&self) -> Option<Located<'a>> {
        self.member("loopDetection")
    }
}

/// The managed web tools a `tools.web` block switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebTool {
    Search,
    Fetch,
}

impl WebTool {
    fn key(self) -> &'static str {
        match self {
            WebTool::Search => "search",
            WebTool::Fetch => "fetch",
        }
    }
}

/// `exec.applyPatch` of a tool-policy block.
#[derive(Debug, Clone)]
pub struct ApplyPatch<'a>(pub Located<'a>);

impl ApplyPatch<'_> {
    /// `enabled`, when it is a boolean.
    pub fn enabled(&self) -> Option<bool> {
        self.0.member("enabled")?.as_bool()
    }

    /// `allowModels`: trimmed, lowercased, non-empty strings.
    pub fn allow_models(&self) -> Vec<String> {
        let models = self.0.member("allowModels").and_then(|m| m.string_items()).unwrap_or_default();
        models.into_iter().map(|(_, m)| m.trim().to_lowercase()).filter(|m| !m.is_empty()).collect()
    }
}

/// The path of the global exec settings (`tools.exec`).
pub fn exec_path() -> KeyPath {
    global_path().key("exec")
}

/// The path of `tools.exec.applyPatch.enabled`, the switch that builds `apply_patch`.
pub fn apply_patch_switch_path() -> KeyPath {
    exec_path().key("applyPatch").key("enabled")
}

/// The path of `tools.updatePlan`.
pub fn update_plan_path() -> KeyPath {
    global_path().key("updatePlan")
}

/// The path of `tools.swarm.enabled`.
pub fn swarm_switch_path() -> KeyPath {
    global_path().key("swarm").key("enabled")
}

/// The path of `tools.web.<tool>.enabled`.
pub fn web_switch_path(tool: WebTool) -> KeyPath {
    global_path().key("web").key(tool.key()).key("enabled")
}

/// The path of the global sandbox tool lists (`tools.sandbox.tools`).
pub fn sandbox_tools_path() -> KeyPath {
    global_path().key("sandbox").key("tools")
}

/// The path of the global sub-agent tool lists (`tools.subagents.tools`).
pub fn subagent_tools_path() -> KeyPath {
    global_path().key("subagents").key("tools")
}

/// `tools.loopDetection`, the agent's block field by field over the global one.
#[derive(Debug, Clone, Default)]
pub struct LoopDetection<'a> {
    agent: Option<Located<'a>>,
    global: Option<Located<'a>>,
}

/// A count of `tools.loopDetection`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopCount {
    HistorySize,
    WarningThreshold,
    CriticalThreshold,
    GlobalCircuitBreakerThreshold,
}

/// A detector switch of `tools.loopDetection.detectors`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopDetector {
    GenericRepeat,
    KnownPollNoProgress,
    PingPong,
}

impl<'a> LoopDetection<'a> {
    pub fn new(global: Option<&ToolsScope<'a>>, agent: Option<&ToolsScope<'a>>) -> Self {
        LoopDetection {
            agent: agent.and_then(ToolsScope::loop_detection),
            global: global.and_then(ToolsScope::loop_detection),
        }
    }

    fn field(&self, keys: &[&str]) -> Option<&'a Value> {
        let pick = |block: &Option<Located<'a>>| block.as_ref()?.at(keys).map(|l| l.value);
        pick(&self.agent).or_else(|| pick(&self.global))
    }

    pub fn enabled(&self) -> Option<&'a Value> {
        self.field(&["enabled"])
    }

    pub fn count(&self, count: LoopCount) -> Option<&'a Value> {
        self.field(&[match count {
            LoopCount::HistorySize => "historySize",
            LoopCount::WarningThreshold => "warningThreshold",
            LoopCount::CriticalThreshold => "criticalThreshold",
            LoopCount::GlobalCircuitBreakerThreshold => "globalCircuitBreakerThreshold",
        }])
    }

    pub fn detector(&self, detector: LoopDetector) -> Option<&'a Value> {
        self.field(&[
            "detectors",
            match detector {
                LoopDetector::GenericRepeat => "genericRepeat",
                LoopDetector::KnownPollNoProgress => "knownPollNoProgress",
                LoopDetector::PingPong => "pingPong",
            },
        ])
    }
}

/// The keys of a `toolsBySender` map other than the wildcard (which every sender matches).
pub fn sender_keys(map: Option<&Located<'_>>) -> Vec<String> {
    let keys = map.into_iter().flat_map(|m| m.members().map(|(key, _)| key));
    keys.filter(|k| k.trim() != "*").cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn swarm_is_switched_by_a_boolean_or_its_enabled_member() {
        let switch = |swarm: Value| ToolsScope::global(&json!({"tools": {"swarm": swarm}})).unwrap().swarm_switch();
        assert_eq!(switch(json!(false)), Some(false));
        assert_eq!(switch(json!(true)), Some(true));
        assert_eq!(switch(json!({"enabled": true})), Some(true));
        // Settings without `enabled` leave the choice to the enclosing block or the default.
        assert_eq!(switch(json!({"maxConcurrent": 2})), None);
        assert_eq!(switch(json!({"enabled": "yes"})), None);
    }

    #[test]
    fn scopes_read_lists_and_settings_with_their_paths() {
        let config = json!({"tools": {"profile": "coding", "deny": ["exec"], "alsoAllow": "x",
            "sandbox": {"tools": {"allow": ["read"]}}, "exec": {"applyPatch": {"enabled": true, "allowModels": [" GPT-5 ", ""]}},
            "toolsBySender": {"*": {}, "id:42": {}}}});
        let tools = ToolsScope::global(&config).unwrap();
        assert_eq!(tools.profile().unwrap().1.to_string(), "tools.profile");
        assert_eq!(tools.list(ListKind::Deny).unwrap()[0].0.to_string(), "tools.deny[0]");
        assert!(tools.list(ListKind::AlsoAllow).is_none());
        let sandbox = tools.sandbox_tools().unwrap();
        assert_eq!(sandbox.list(ListKind::Allow).unwrap()[0].0.to_string(), "tools.sandbox.tools.allow[0]");
        let patch = tools.apply_patch().unwrap();
        assert_eq!((patch.enabled(), patch.allow_models()), (Some(true), vec!["gpt-5".to_string()]));
        assert_eq!(sender_keys(tools.tools_by_sender().as_ref()), ["id:42"]);
        assert_eq!(apply_patch_switch_path().to_string(), "tools.exec.applyPatch.enabled");
    }

    #[test]
    fn loop_detection_reads_the_agent_field_over_the_global_one() {
        let config = json!({"tools": {"loopDetection": {"enabled": true, "historySize": 5}},
            "agent": {"loopDetection": {"historySize": 7, "detectors": {"pingPong": false}}}});
        let global = ToolsScope::global(&config);
        let agent = Located::lookup(&config, KeyPath::keys(&["agent"])).map(ToolsScope);
        let loops = LoopDetection::new(global.as_ref(), agent.as_ref());
        assert_eq!(loops.enabled(), Some(&json!(true)));
        assert_eq!(loops.count(LoopCount::HistorySize), Some(&json!(7)));
        assert_eq!(loops.detector(LoopDetector::PingPong), Some(&json!(false)));
        assert_eq!(loops.count(LoopCount::WarningThreshold), None);
    }
}
