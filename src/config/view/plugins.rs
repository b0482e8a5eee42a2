//! `plugins.*` as plugin loading reads it (the global switch, `allow`, `deny`, `entries.<id>`,
//! `slots.memory`), a plugin's own top-level block, and the MCP servers that add tools.

use serde_json::Value;

use super::located::{Located, strings};
use crate::config::path::KeyPath;

/// The `plugins` section.
#[derive(Debug, Clone)]
pub struct PluginsSection<'a>(Option<Located<'a>>);

impl<'a> PluginsSection<'a> {
    pub fn of(config: &'a Value) -> Self {
        PluginsSection(Located::lookup(config, KeyPath::keys(&["plugins"])))
    }

    /// Whether the config has a `plugins` section (of any type but `null`).
    pub fn is_present(&self) -> bool {
        self.0.as_ref().is_some_and(|p| !p.value.is_null())
    }

    fn member(&self, key: &str) -> Option<Located<'a>> {
        self.0.as_ref()?.member(key)
    }

    /// `plugins.enabled`, whatever its type.
    pub fn enabled(&self) -> Option<Located<'a>> {
        self.member("enabled")
    }

    /// `plugins.allow`: the string entries (a restrictive allowlist when non-empty).
    pub fn allow(&self) -> Vec<String> {
        strings(self.member("allow").as_ref())
    }

    /// `plugins.deny`: the string entries.
    pub fn deny(&self) -> Vec<String> {
        strings(self.member("deny").as_ref())
    }

    /// `plugins.entries.<id>`, whatever its type.
    pub fn entry(&self, id: &str) -> Option<PluginEntry<'a>> {
        self.member("entries")?.member(id).map(PluginEntry)
    }

    /// The `plugins.entries` whose key, as the release normalizes plugin ids, is `id`, in the
    /// order written (the release merges them: a later `enabled` wins).
    pub fn entries_for(&self, id: &str, normalize: impl Fn(&str) -> String) -> Vec<PluginEntry<'a>> {
        let Some(entries) = self.member("entries") else { return Vec::new() };
        let keys: Vec<&String> = entries.as_object().map(|e| e.keys().collect()).unwrap_or_default();
        keys.into_iter()
            .filter(|key| normalize(key) == id)
            .filter_map(|key| entries.member(key))
            .map(PluginEntry)
            .collect()
    }

    /// `plugins.load.paths`: the string entries (folders of plugins installed from disk).
    pub fn load_paths(&self) -> Vec<String> {
        strings(self.member("load").and_then(|load| load.member("paths")).as_ref())
    }

    /// `plugins.slots.memory`, whatever its type.
    pub fn memory_slot(&self) -> Option<&'a Value> {
        Some(self.member("slots")?.member("memory")?.value)
    }

    /// What `plugins.slots.memory` selects, as both releases read it: trimmed, `none` (any case)
    /// turns the slot off, and a blank or non-string value leaves it at `default`.
    pub fn memory_slot_selection(&self, default: &str) -> MemorySlot {
        match self.memory_slot().and_then(Value::as_str).map(crate::base::js::js_trim) {
            Some(slot) if slot.eq_ignore_ascii_case("none") => MemorySlot::Off,
            Some(slot) if !slot.is_empty() => MemorySlot::Plugin(slot.to_string()),
            _ => MemorySlot::Plugin(default.to_string()),
        }
    }
}

/// The plugin that holds the memory slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemorySlot {
    /// `none`: no memory plugin runs.
    Off,
    /// This plugin id, compared as written (the releases do not normalize the slot's case).
    Plugin(String),
}

impl MemorySlot {
    pub fn selects(&self, id: &str) -> bool {
        matches!(self, MemorySlot::Plugin(selected) if selected == id)
    }
}

/// `plugins.entries.<id>`.
#[derive(Debug, Clone)]
pub struct PluginEntry<'a>(pub Located<'a>);

impl PluginEntry<'_> {
    /// `enabled`, when it is a boolean.
    pub fn enabled(&self) -> Option<bool> {
        self.0.member("enabled")?.as_bool()
    }

    /// Whether `config` is an object that sets one of `keys` (the plugin's tool configuration).
    pub fn configures_any(&self, keys: &[String]) -> bool {
        let config = self.0.member("config");
        let config = config.as_ref().and_then(Located::as_object);
        config.is_some_and(|c| keys.iter().any(|k| c.get(k).is_some()))
    }

    /// Whether the entry carries material settings (`enabled: true`, a `config`, `hooks`,
    /// `subagent` or `llm` object, `apiKey` or `env`), which make 2026.9's loader add the
    /// plugin to a restrictive `plugins.allow`.
    pub fn has_material_settings(&self) -> bool {
        let Some(entry) = self.0.as_object() else { return false };
        let is_object = |key: &str| entry.get(key).is_some_and(Value::is_object);
        entry.get("enabled") == Some(&Value::Bool(true))
            || ["config", "hooks", "subagent", "llm"].into_iter().any(is_object)
            || entry.contains_key("apiKey")
            || entry.contains_key("env")
    }

    /// `enabled: false`.
    pub fn switched_off(&self) -> bool {
        self.0.member("enabled").is_some_and(|e| e.is_false())
    }
}

/// Whether the setting at `dotted` holds a value (`hasConfiguredValue`): a non-blank string, a
/// non-empty list or object, or any other non-null value.
pub fn holds_value(config: &Value, dotted: &str) -> bool {
    match Located::lookup_dotted(config, dotted).map(|l| l.value) {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(_) => true,
    }
}

/// Whether the setting at `dotted` is `false`.
pub fn setting_is_false(config: &Value, dotted: &str) -> bool {
    Located::lookup_dotted(config, dotted).is_some_and(|l| l.value == &Value::Bool(false))
}

/// A plugin's own top-level block (`browser`), whatever its type.
pub fn own_block<'a>(config: &'a Value, id: &str) -> Option<Located<'a>> {
    Located::lookup(config, KeyPath::keys(&[id]))
}

/// Whether a block says `enabled: false`.
pub fn block_switched_off(block: Option<&Located<'_>>) -> bool {
    block.and_then(|b| b.member("enabled")).is_some_and(|e| e.is_false())
}

/// The names of the MCP servers in `mcp.servers`, whose tools are `<server>__<tool>`.
pub fn mcp_server_names(config: &Value) -> Vec<&String> {
    let servers = Located::lookup(config, KeyPath::keys(&["mcp", "servers"]));
    servers.and_then(|s| s.as_object()).map(|s| s.keys().collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sections_entries_and_slots() {
        let config = json!({"plugins": {"enabled": false, "allow": ["a", 1], "deny": "b",
            "entries": {"canvas": {"config": {"host": "x"}}, "llm": {"enabled": false}, "x": 5}, "slots": {"memory": "m"}},
            "mcp": {"servers": {"one": {}}}, "browser": {"enabled": false}});
        let plugins = PluginsSection::of(&config);
        assert!(plugins.enabled().unwrap().is_false());
        assert_eq!((plugins.allow(), plugins.deny()), (vec!["a".to_string()], Vec::<String>::new()));
        let canvas = plugins.entry("canvas").unwrap();
        assert!(canvas.configures_any(&["host".into()]) && canvas.has_material_settings());
        assert!(plugins.entry("llm").unwrap().switched_off() && !plugins.entry("x").unwrap().has_material_settings());
        let material = |entry: Value| PluginEntry(Located::new(KeyPath::root(), &entry)).has_material_settings();
        assert!(material(json!({"enabled": true})) && material(json!({"apiKey": null})));
        assert!(!material(json!({})) && !material(json!({"enabled": false, "config": 1})));
        assert_eq!(plugins.memory_slot(), Some(&json!("m")));
        assert_eq!(mcp_server_names(&config), ["one"]);
        assert!(block_switched_off(own_block(&config, "browser").as_ref()));
    }
}
