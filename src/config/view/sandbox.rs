//! Sandbox settings per agent: `sandbox.mode` and `sandbox.workspaceAccess` of the agent's entry
//! over `agents.defaults.sandbox`, and the sandbox tool lists (`tools.sandbox.tools`) of the
//! agent's `tools` block over the global one, each with the layer it came from.

use serde::Serialize;

use super::agents::{AgentEntry, defaults_path};
use super::tools::{ListKind, ToolsScope, sandbox_tools_path};
use crate::config::path::KeyPath;

/// A per-agent sandbox setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SandboxSetting {
    /// `off`, `non-main` or `all`.
    Mode,
    /// `none`, `ro` or `rw`.
    WorkspaceAccess,
}

impl SandboxSetting {
    fn key(self) -> &'static str {
        match self {
            SandboxSetting::Mode => "mode",
            SandboxSetting::WorkspaceAccess => "workspaceAccess",
        }
    }
}

/// The path of `agents.defaults.sandbox.<setting>`, where the setting goes for every agent.
pub fn defaults_setting_path(setting: SandboxSetting) -> KeyPath {
    defaults_path().key("sandbox").key(setting.key())
}

/// The setting in force: the agent entry's `sandbox.<setting>` when it is a string, else
/// `agents.defaults.sandbox.<setting>` when that is; with where it is written.
pub fn setting<'a>(
    config: &'a serde_json::Value,
    agent: Option<&AgentEntry<'a>>,
    setting: SandboxSetting,
) -> Option<(&'a str, KeyPath)> {
    let own = agent.and_then(|entry| entry.at(&["sandbox", setting.key()])).and_then(|l| Some((l.as_str()?, l.path)));
    own.or_else(|| {
        let path = defaults_setting_path(setting);
        path.lookup(config).and_then(serde_json::Value::as_str).map(|value| (value, path))
    })
}

/// Which layer a sandbox tool list came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldSource {
    Agent,
    Global,
    Default,
}

/// One sandbox tool list: the agent's `tools.sandbox.tools.<list>` when it is an array, else the
/// global `tools.sandbox.tools.<list>` when that is; `Default` (no entries) otherwise.
pub fn tool_list<'a>(
    global: Option<&ToolsScope<'a>>,
    agent_tools: Option<&ToolsScope<'a>>,
    kind: ListKind,
) -> (Option<Vec<(KeyPath, &'a str)>>, FieldSource) {
    let layer = |tools: Option<&ToolsScope<'a>>| tools.and_then(ToolsScope::sandbox_tools)?.list(kind);
    if let Some(entries) = layer(agent_tools) {
        return (Some(entries), FieldSource::Agent);
    }
    match layer(global) {
        Some(entries) => (Some(entries), FieldSource::Global),
        None => (None, FieldSource::Default),
    }
}

/// The config key to edit for one sandbox tool list of a layer; `agent_prefix` names the
/// release's per-agent block (`agents.entries.*`).
pub fn tool_list_key(agent_prefix: &str, source: FieldSource, kind: ListKind) -> String {
    let global = sandbox_tools_path().key(kind.key());
    match source {
        FieldSource::Agent => format!("{agent_prefix}.{global}"),
        _ => global.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use crate::config::view::agents::find_agent;
    use serde_json::json;

    #[test]
    fn agent_settings_win_over_the_defaults() {
        let config = json!({"agents": {"defaults": {"sandbox": {"mode": "all", "workspaceAccess": "ro"}},
            "entries": {"a": {"sandbox": {"mode": "off", "workspaceAccess": 3}}}}});
        let agent = find_agent(&config, OpenClawVersion::V2026_9, "a");
        let (mode, path) = setting(&config, agent.as_ref(), SandboxSetting::Mode).unwrap();
        assert_eq!((mode, path.to_string().as_str()), ("off", "agents.entries.a.sandbox.mode"));
        let (access, path) = setting(&config, agent.as_ref(), SandboxSetting::WorkspaceAccess).unwrap();
        assert_eq!((access, path), ("ro", defaults_setting_path(SandboxSetting::WorkspaceAccess)));
    }

    #[test]
    fn tool_lists_come_from_the_most_specific_layer() {
        let config = json!({"tools": {"sandbox": {"tools": {"allow": ["read"], "deny": "x"}}},
            "agents": {"entries": {"a": {"tools": {"sandbox": {"tools": {"deny": ["exec"]}}}}}}});
        let agent = find_agent(&config, OpenClawVersion::V2026_9, "a").and_then(|a| a.tools());
        let global = ToolsScope::global(&config);
        assert_eq!(tool_list(global.as_ref(), agent.as_ref(), ListKind::Allow).1, FieldSource::Global);
        assert_eq!(tool_list(global.as_ref(), agent.as_ref(), ListKind::Deny).1, FieldSource::Agent);
        assert_eq!(tool_list(global.as_ref(), None, ListKind::Deny), (None, FieldSource::Default));
        assert_eq!(
            tool_list_key("agents.entries.*", FieldSource::Agent, ListKind::Deny),
            "agents.entries.*.tools.sandbox.tools.deny"
        );
    }
}
