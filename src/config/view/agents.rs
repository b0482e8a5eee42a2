//! The agents of a config as the release reads them: the roster (`agents.entries`, or the legacy
//! `agents.list`, as `agents.roster` in the release's policy data says), each entry and its
//! `tools` block, agent ids, the default agent, the `agents.defaults.*` settings the policy reads,
//! and the agent list every command enumerates ([`agent_list`]).

use std::collections::{HashMap, HashSet};
use std::ops::Deref;

use serde_json::Value;

use super::ids::{normalize_agent_id, normalizes_to};
use super::located::Located;
use super::model_setting::ModelSetting;
use super::tools::ToolsScope;
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::release::pack::{AgentOverGlobal, DefaultAgentRule, RosterForm};

/// The agent a config without a roster has, and the fallback of every default.
pub const MAIN: &str = "main";

/// One roster entry: `agents.entries.<id>` or `agents.list[<i>]`.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentEntry<'a> {
    entry: Located<'a>,
    /// The id as written: the key in `agents.entries`, the `id` field in `agents.list` (a
    /// non-string id reads as empty).
    raw_id: &'a str,
}

impl<'a> Deref for AgentEntry<'a> {
    type Target = Located<'a>;
    fn deref(&self) -> &Located<'a> {
        &self.entry
    }
}

impl<'a> AgentEntry<'a> {
    /// The id as written.
    pub fn raw_id(&self) -> &'a str {
        self.raw_id
    }

    /// The agent id the entry stands for, normalized.
    pub fn id(&self) -> String {
        normalize_agent_id(self.raw_id)
    }

    /// The entry's own `tools` block.
    pub fn tools(&self) -> Option<ToolsScope<'a>> {
        ToolsScope::of(&self.entry)
    }

    /// Whether the entry is marked `default: true` (2026.2's way of naming the default agent).
    pub fn marked_default(&self) -> bool {
        self.value.get("default").and_then(Value::as_bool) == Some(true)
    }

    /// `experimental.localModelLean`, whatever its type.
    pub fn local_model_lean(&self) -> Option<Located<'a>> {
        self.at(&["experimental", "localModelLean"])
    }

    /// `<block>.executionContract` (`embeddedAgent`; 2026.4: `embeddedPi`), when it is a string.
    pub fn execution_contract(&self, block: &str) -> Option<&'a str> {
        self.at(&[block, "executionContract"])?.as_str()
    }
}

/// The key of one way of writing the roster.
fn form_key(form: RosterForm) -> &'static str {
    match form {
        RosterForm::Entries => "entries",
        RosterForm::List => "list",
    }
}

fn agents_block(config: &Value) -> Option<Located<'_>> {
    Located::lookup(config, KeyPath::keys(&["agents"]))
}

/// The roster block in force: the first form of the release's `agents.roster` written with its
/// type (an object of entries, an array of `{id}`).
fn roster_block(config: &Value, version: OpenClawVersion) -> Option<(RosterForm, Located<'_>)> {
    let agents = agents_block(config)?;
    version.policy().agents.roster.iter().find_map(|form| {
        let block = agents.member(form_key(*form))?;
        let typed = match form {
            RosterForm::Entries => block.value.is_object(),
            RosterForm::List => block.value.is_array(),
        };
        typed.then_some((*form, block))
    })
}

/// The id a `agents.list` item is written with (a non-string id reads as empty).
fn list_item_id(item: &Value) -> &str {
    item.get("id").and_then(Value::as_str).unwrap_or("")
}

/// The roster in order; empty when the config writes none.
pub fn roster(config: &Value, version: OpenClawVersion) -> Vec<AgentEntry<'_>> {
    let Some((form, block)) = roster_block(config, version) else { return Vec::new() };
    match form {
        RosterForm::Entries => block.members().map(|(key, entry)| AgentEntry { entry, raw_id: key }).collect(),
        RosterForm::List => {
            let items = block.value.as_array().into_iter().flatten().enumerate();
            items
                .map(|(i, item)| AgentEntry {
                    entry: Located::new(block.path.index(i), item),
                    raw_id: list_item_id(item),
                })
                .collect()
        }
    }
}

/// The first roster entry whose id normalizes to `agent_id` (what [`Roster::find`] answers),
/// found by a scan that builds nothing but the hit.
pub fn find_agent<'a>(config: &'a Value, version: OpenClawVersion, agent_id: &str) -> Option<AgentEntry<'a>> {
    let (form, block) = roster_block(config, version)?;
    match form {
        RosterForm::Entries => {
            let (key, value) = block.as_object()?.iter().find(|(key, _)| normalizes_to(key, agent_id))?;
            Some(AgentEntry { entry: Located::new(block.path.key(key), value), raw_id: key })
        }
        RosterForm::List => {
            let items = block.value.as_array()?.iter().enumerate();
            let (i, item) = items.into_iter().find(|(_, item)| normalizes_to(list_item_id(item), agent_id))?;
            Some(AgentEntry { entry: Located::new(block.path.index(i), item), raw_id: list_item_id(item) })
        }
    }
}

/// Whether the config writes a roster key at all (of any type), which turns off the
/// `agents.defaults.tools` fallback of an unlisted agent.
pub fn has_roster_key(config: &Value, version: OpenClawVersion) -> bool {
    let agents = agents_block(config);
    version.policy().agents.roster.iter().any(|form| agents.as_ref().and_then(|a| a.member(form_key(*form))).is_some())
}

/// The roster indexed by agent id, built once for every session resolved against one config.
#[derive(Debug, Clone)]
pub struct Roster<'a> {
    entries: Vec<AgentEntry<'a>>,
    /// Normalized id → index of the first entry with that id, as a scan in roster order finds it.
    by_id: HashMap<String, usize>,
}

impl<'a> Roster<'a> {
    pub fn new(config: &'a Value, version: OpenClawVersion) -> Self {
        let entries = roster(config, version);
        let mut by_id = HashMap::with_capacity(entries.len());
        for (index, entry) in entries.iter().enumerate() {
            by_id.entry(entry.id()).or_insert(index);
        }
        Roster { entries, by_id }
    }

    /// The entry of `agent_id` (normalized), if the agent is configured.
    pub fn find(&self, agent_id: &str) -> Option<&AgentEntry<'a>> {
        self.by_id.get(agent_id).map(|&index| &self.entries[index])
    }

    /// Every entry, in roster order (ids may repeat).
    pub fn entries(&self) -> &[AgentEntry<'a>] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// `agents.defaults`: the settings every agent inherits.
#[derive(Debug, Clone)]
pub struct AgentDefaults<'a>(Option<Located<'a>>);

impl<'a> AgentDefaults<'a> {
    pub fn of(config: &'a Value) -> Self {
        AgentDefaults(Located::lookup(config, defaults_path()))
    }

    fn at(&self, keys: &[&str]) -> Option<Located<'a>> {
        self.0.as_ref()?.at(keys)
    }

    /// The block itself, whatever its type.
    pub fn block(&self) -> Option<&Located<'a>> {
        self.0.as_ref()
    }

    /// `agents.defaults.tools`: the tool policy of an agent when the config has no roster.
    pub fn tools(&self) -> Option<ToolsScope<'a>> {
        self.0.as_ref().and_then(ToolsScope::of)
    }

    /// `subagents.maxSpawnDepth`, when it is a number.
    pub fn max_spawn_depth(&self) -> Option<f64> {
        self.at(&["subagents", "maxSpawnDepth"])?.value.as_f64()
    }

    /// `systemAgent.agentId`, when it is a string.
    pub fn system_agent_id(&self) -> Option<&'a str> {
        self.at(&["systemAgent", "agentId"])?.as_str()
    }

    /// `model`: the default model.
    pub fn model(&self) -> Option<ModelSetting<'a>> {
        self.at(&["model"]).map(ModelSetting)
    }

    /// `imageModel`: the vision model of image tools.
    pub fn image_model(&self) -> Option<ModelSetting<'a>> {
        self.at(&["imageModel"]).map(ModelSetting)
    }

    /// `pdfModel`: the model of the document tool.
    pub fn pdf_model(&self) -> Option<ModelSetting<'a>> {
        self.at(&["pdfModel"]).map(ModelSetting)
    }

    /// The model of a generation tool at a dotted path: `mediaModels.image` (2026.9),
    /// `imageGenerationModel` (2026.5).
    pub fn media_model(&self, path: &str) -> Option<ModelSetting<'a>> {
        self.at(&path.split('.').collect::<Vec<_>>()).map(ModelSetting)
    }

    /// `<block>.executionContract` (`embeddedAgent`; 2026.4: `embeddedPi`), when it is a string.
    pub fn execution_contract(&self, block: &str) -> Option<&'a str> {
        self.at(&[block, "executionContract"])?.as_str()
    }

    /// The `models` map (model reference → settings), each entry's key with its `alias`, read
    /// as the model resolver reads it: a string trimmed and lowercased, a number as its text,
    /// anything else as no alias.
    pub fn model_aliases(&self) -> Vec<(&'a str, String)> {
        let models = self.at(&["models"]);
        let entries = models.as_ref().and_then(Located::as_object).into_iter().flatten();
        entries
            .map(|(key, entry)| {
                let alias = match entry.get("alias") {
                    Some(Value::String(alias)) => crate::base::js::js_trim(alias).to_lowercase(),
                    Some(Value::Number(n)) => n.to_string(),
                    _ => String::new(),
                };
                (key.as_str(), alias)
            })
            .collect()
    }

    /// `experimental.localModelLean`, whatever its type.
    pub fn local_model_lean(&self) -> Option<Located<'a>> {
        self.at(&["experimental", "localModelLean"])
    }
}

/// The path of `agents.defaults`.
pub fn defaults_path() -> KeyPath {
    KeyPath::keys(&["agents", "defaults"])
}

/// An agent's `tools` block: its entry's, or `agents.defaults.tools` for an agent the config has
/// no roster for at all.
pub fn agent_tools<'a>(
    config: &'a Value,
    version: OpenClawVersion,
    agent: Option<&AgentEntry<'a>>,
) -> Option<ToolsScope<'a>> {
    match agent {
        Some(entry) => entry.tools(),
        None if !has_roster_key(config, version) => AgentDefaults::of(config).tools(),
        None => None,
    }
}

/// A setting an agent's entry can override, at paths the release's data names: the agent's
/// value when it is set (whatever its type), else the global one.
pub fn agent_over_global<'a>(
    config: &'a Value,
    agent: Option<&AgentEntry<'a>>,
    setting: &AgentOverGlobal,
) -> Option<Located<'a>> {
    let own = agent.and_then(|entry| entry.at_dotted(&setting.agent));
    own.or_else(|| Located::lookup_dotted(config, &setting.global))
}

/// A setting an agent's entry can override in `agents.defaults`: the entry's value when it is set
/// (whatever its type), else the defaults'.
fn over_defaults<'a>(config: &'a Value, agent: Option<&AgentEntry<'a>>, keys: &[&str]) -> Option<Located<'a>> {
    agent.and_then(|entry| entry.at(keys)).or_else(|| AgentDefaults::of(config).at(keys))
}

/// `subagents.allowAgents`: the agents an agent may name in `sessions_spawn`.
pub fn spawn_allow_agents<'a>(config: &'a Value, agent: Option<&AgentEntry<'a>>) -> Option<Located<'a>> {
    over_defaults(config, agent, &["subagents", "allowAgents"])
}

/// `sandbox.workspaceRoot`: where an agent's sandbox workspaces live.
pub fn sandbox_workspace_root<'a>(config: &'a Value, agent: Option<&AgentEntry<'a>>) -> Option<Located<'a>> {
    over_defaults(config, agent, &["sandbox", "workspaceRoot"])
}

/// The agent of a session no agent was given for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefaultAgent {
    Agent(String),
    /// Several agents and nothing that picks one (the configured ids, in roster order).
    Undecided(Vec<String>),
}

/// The default agent, by the release's `agents.defaultAgent` rule.
pub fn default_agent(config: &Value, version: OpenClawVersion) -> DefaultAgent {
    let entries = roster(config, version);
    match version.policy().agents.default_agent {
        DefaultAgentRule::MarkedOrFirst => {
            let marked = entries.iter().find(|e| e.marked_default());
            DefaultAgent::Agent(marked.or(entries.first()).map_or_else(|| MAIN.into(), AgentEntry::id))
        }
        DefaultAgentRule::SystemAgentOrOnlyEntry => {
            if let Some(id) = AgentDefaults::of(config).system_agent_id() {
                return DefaultAgent::Agent(normalize_agent_id(id));
            }
            match entries.as_slice() {
                [] => DefaultAgent::Agent(MAIN.into()),
                [only] => DefaultAgent::Agent(only.id()),
                many => DefaultAgent::Undecided(many.iter().map(AgentEntry::id).collect()),
            }
        }
    }
}

/// An agent as commands enumerate them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedAgent {
    pub id: String,
    /// Its roster entry; `None` for the default agent of a config without a roster.
    pub path: Option<KeyPath>,
}

/// The ids of [`agent_list`], in roster order.
pub fn agent_ids(config: &Value, version: OpenClawVersion) -> Vec<String> {
    agent_list(config, version).into_iter().map(|agent| agent.id).collect()
}

/// The agents every command enumerates: the roster's ids in order, each once (the first entry
/// with an id is the one the release finds), or the default agent when the roster names none.
/// A roster the loader added itself (2026.9's implicit `agents.entries.main`) is listed like a
/// written one; callers that know it was implicit drop its path.
pub fn agent_list(config: &Value, version: OpenClawVersion) -> Vec<ListedAgent> {
    let mut seen = HashSet::new();
    let listed: Vec<ListedAgent> = roster(config, version)
        .iter()
        .filter_map(|entry| {
            let id = entry.id();
            seen.insert(id.clone()).then(|| ListedAgent { id, path: Some(entry.path.clone()) })
        })
        .collect();
    if !listed.is_empty() {
        return listed;
    }
    let id = match default_agent(config, version) {
        DefaultAgent::Agent(id) => id,
        DefaultAgent::Undecided(_) => MAIN.into(),
    };
    vec![ListedAgent { id, path: None }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_roster_follows_the_releases_forms() {
        let config = json!({"agents": {"entries": {"Work": {"n": 1}, "work": {"n": 2}, "My Agent!": {}},
            "list": [{"id": "A"}, {"id": 5}]}});
        let current: Vec<String> = roster(&config, OpenClawVersion::V2026_9).iter().map(AgentEntry::id).collect();
        assert_eq!(current, ["work", "work", "my-agent"]);
        let seed: Vec<String> = roster(&config, OpenClawVersion::V2026_2).iter().map(AgentEntry::id).collect();
        assert_eq!(seed, ["a", "main"]);
        let found = find_agent(&config, OpenClawVersion::V2026_9, "work").unwrap();
        assert_eq!(found.path.to_string(), "agents.entries.Work");
        let indexed = Roster::new(&config, OpenClawVersion::V2026_9);
        assert_eq!(indexed.find("work").unwrap().path, found.path);
        assert_eq!(indexed.len(), 3);
        // A legacy list still counts in 2026.9 when `entries` is not an object.
        let legacy = json!({"agents": {"entries": [], "list": [{"id": "ops"}]}});
        assert_eq!(roster(&legacy, OpenClawVersion::V2026_9)[0].path.to_string(), "agents.list[0]");
    }

    #[test]
    fn default_agents_per_release() {
        let marked = json!({"agents": {"list": [{"id": "a"}, {"id": "b", "default": true}]}});
        assert_eq!(default_agent(&marked, OpenClawVersion::V2026_2), DefaultAgent::Agent("b".into()));
        let many = json!({"agents": {"entries": {"a": {}, "b": {"default": true}}}});
        assert_eq!(
            default_agent(&many, OpenClawVersion::V2026_9),
            DefaultAgent::Undecided(vec!["a".into(), "b".into()])
        );
        let system =
            json!({"agents": {"defaults": {"systemAgent": {"agentId": "Ops"}}, "entries": {"a": {}, "b": {}}}});
        assert_eq!(default_agent(&system, OpenClawVersion::V2026_9), DefaultAgent::Agent("ops".into()));
        assert_eq!(default_agent(&json!({}), OpenClawVersion::V2026_9), DefaultAgent::Agent("main".into()));
    }

    #[test]
    fn the_agent_list_names_each_agent_once() {
        let config = json!({"agents": {"entries": {"Work": {}, "work": {}, "ops": {}}}});
        let listed = agent_list(&config, OpenClawVersion::V2026_9);
        let ids: Vec<&str> = listed.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["work", "ops"]);
        assert_eq!(listed[0].path.as_ref().unwrap().to_string(), "agents.entries.Work");
        let system = json!({"agents": {"ownership": "explicit", "defaults": {"systemAgent": {"agentId": "ops"}}}});
        assert_eq!(agent_list(&system, OpenClawVersion::V2026_9), [ListedAgent { id: "ops".into(), path: None }]);
    }

    #[test]
    fn agent_tools_fall_back_to_the_defaults_only_without_a_roster() {
        let defaults = json!({"agents": {"defaults": {"tools": {"deny": ["exec"]}}}});
        let tools = agent_tools(&defaults, OpenClawVersion::V2026_9, None).unwrap();
        assert_eq!(tools.path.to_string(), "agents.defaults.tools");
        let with_roster = json!({"agents": {"list": [], "defaults": {"tools": {}}}});
        assert!(agent_tools(&with_roster, OpenClawVersion::V2026_9, None).is_none());
    }
}
