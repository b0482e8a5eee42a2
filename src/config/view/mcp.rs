//! `mcp.servers`: the MCP servers whose tools a 2026.9 run adds as `<server>__<tool>`, each with
//! its switch and its `toolFilter`, in the order the release enumerates them.

use serde_json::Value;

use super::located::Located;
use crate::base::js::js_key_order;
use crate::config::path::KeyPath;

/// One entry of `mcp.servers` that is an object (the release drops the others).
#[derive(Debug, Clone)]
pub struct McpServer<'a> {
    /// The key as written.
    pub name: &'a str,
    pub block: Located<'a>,
}

/// `mcp.servers.<name>.toolFilter`: its string entries, each with its path.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolFilter<'a> {
    pub include: Vec<(KeyPath, &'a str)>,
    pub exclude: Vec<(KeyPath, &'a str)>,
}

impl<'a> McpServer<'a> {
    /// `enabled: false` switches the server off; anything else leaves it on.
    pub fn enabled(&self) -> bool {
        !self.block.member("enabled").is_some_and(|e| e.is_false())
    }

    /// Where `enabled` is written, if it is.
    pub fn enabled_setting(&self) -> Option<Located<'a>> {
        self.block.member("enabled")
    }

    /// The `toolFilter`, as the release normalizes it: `None` when it is no object or lists no
    /// string in either list.
    pub fn tool_filter(&self) -> Option<ToolFilter<'a>> {
        let filter = self.block.member("toolFilter").filter(|f| f.value.is_object())?;
        let list = |key: &str| filter.member(key).and_then(|l| l.string_items()).unwrap_or_default();
        let filter = ToolFilter { include: list("include"), exclude: list("exclude") };
        (!filter.include.is_empty() || !filter.exclude.is_empty()).then_some(filter)
    }
}

/// The object entries of `mcp.servers`, in the release's enumeration order.
pub fn servers(config: &Value) -> Vec<McpServer<'_>> {
    let Some(servers) = Located::lookup(config, KeyPath::keys(&["mcp", "servers"])) else { return Vec::new() };
    let members: Vec<(&String, Located<'_>)> = servers.members().collect();
    js_key_order(members)
        .into_iter()
        .filter(|(_, block)| block.value.is_object())
        .map(|(name, block)| McpServer { name: name.as_str(), block })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn servers_in_release_order_with_switch_and_filter() {
        let config = json!({"mcp": {"servers": {
            "zeta": {"enabled": false}, "9": {}, "bad": 5,
            "alpha": {"toolFilter": {"include": ["read_*", 3], "exclude": []}},
            "empty": {"toolFilter": {"include": [], "exclude": [1]}}}}});
        let all = servers(&config);
        let names: Vec<&str> = all.iter().map(|s| s.name).collect();
        assert_eq!(names, ["9", "zeta", "alpha", "empty"]);
        assert!(!all[1].enabled() && all[0].enabled());
        let filter = all[2].tool_filter().unwrap();
        assert_eq!(filter.include.len(), 1);
        assert_eq!(filter.include[0].0.to_string(), "mcp.servers.alpha.toolFilter.include[0]");
        assert!(all[3].tool_filter().is_none() && all[0].tool_filter().is_none());
        assert!(servers(&json!({"mcp": {"servers": []}})).is_empty());
    }
}
