//! MCP server tools, as 2026.9 adds them to a run ("bundle-mcp"): each enabled server of
//! `mcp.servers` gets a provider-safe namespace, its listed tools pass the server's `toolFilter`
//! (matched against the server's own tool names), and the run then offers them as
//! `<namespace>__<tool>`, owned by the plugin id `bundle-mcp`, to the same policy steps as every
//! other tool. The tool lists come from a saved `openclaw mcp probe --json`.
//!
//! Name sanitizing and the filter's `*` matching are written by hand: they must agree with the
//! release's JavaScript character for character (UTF-16 code units, its `trim`).

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use super::context::PluginTool;
use super::memo::Memo;
use crate::base::glob::Glob;
use crate::base::js::js_trim;
use crate::config::path::KeyPath;
use crate::config::view::mcp;
use crate::release::pack::VersionPack;

/// The longest namespace the release gives a server.
const MAX_NAMESPACE: usize = 30;

/// OpenClaw's MCP server name sanitizing: `[A-Za-z0-9_-]` kept and every other UTF-16 code unit
/// turned into `-`, `mcp` for a blank name, a `mcp-` prefix unless it starts with a letter, at
/// most 30 characters.
pub fn safe_mcp_name(raw: &str) -> String {
    let replaced: String = js_trim(raw)
        .chars()
        .flat_map(|c| {
            let kept = c.is_ascii_alphanumeric() || c == '_' || c == '-';
            let units = if kept { 1 } else { c.len_utf16() };
            std::iter::repeat_n(if kept { c } else { '-' }, units)
        })
        .collect();
    let named = if replaced.is_empty() { "mcp".to_string() } else { replaced };
    let prefixed = if named.starts_with(|c: char| c.is_ascii_alphabetic()) { named } else { format!("mcp-{named}") };
    prefixed.chars().take(MAX_NAMESPACE).collect()
}

/// The namespaces of `names`, assigned in order: a name whose namespace is taken (compared
/// without case) gets `-2`, `-3`, … in place of its tail.
pub fn assign_namespaces<'n>(names: impl IntoIterator<Item = &'n str>) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::new();
    names
        .into_iter()
        .map(|name| {
            let base = safe_mcp_name(name);
            let mut candidate = base.clone();
            let mut n = 2;
            while used.contains(&candidate.to_lowercase()) {
                let suffix = format!("-{n}");
                let keep = MAX_NAMESPACE.saturating_sub(suffix.len()).max(1);
                candidate = format!("{}{suffix}", &base[..keep.min(base.len())]);
                n += 1;
            }
            used.insert(candidate.to_lowercase());
            candidate
        })
        .collect()
}

/// One `toolFilter` pattern against a server's own tool name: exact text, or `*` for any run
/// of characters; the pattern is trimmed and a blank one matches nothing.
pub fn filter_pattern_matches(pattern: &str, tool: &str) -> bool {
    let pattern = js_trim(pattern);
    if pattern.is_empty() {
        return false;
    }
    if !pattern.contains('*') {
        return pattern == tool;
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    let Some(tail) = tool.strip_prefix(first) else { return false };
    let Some(mut middle) = tail.strip_suffix(last) else { return false };
    for part in &parts[1..parts.len() - 1] {
        match middle.find(part) {
            Some(at) => middle = &middle[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// A server's `toolFilter`: include (when it lists anything) then exclude.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolFilter {
    pub include: Vec<(KeyPath, String)>,
    pub exclude: Vec<(KeyPath, String)>,
}

impl ToolFilter {
    /// Why the filter hides `tool`, or `None` when it lets it through.
    pub fn hides(&self, tool: &str) -> Option<String> {
        let matching = |list: &[(KeyPath, String)]| list.iter().find(|(_, p)| filter_pattern_matches(p, tool)).cloned();
        if !self.include.is_empty() && matching(&self.include).is_none() {
            let mut path = self.include[0].0.clone();
            path.0.pop();
            return Some(format!("{path} has no pattern that matches the server's own tool name `{tool}`"));
        }
        matching(&self.exclude).map(|(path, pattern)| format!("{path} (`{pattern}`) hides the server's tool `{tool}`"))
    }
}

/// One server of `mcp.servers`, as every session of the config sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpServerEntry {
    pub name: String,
    pub namespace: String,
    pub enabled: bool,
    pub path: KeyPath,
    pub filter: Option<ToolFilter>,
}

/// The MCP servers of one config (worked out once per config, see [`super::memo`]).
#[derive(Debug, Clone, Default)]
pub struct McpServers {
    pub servers: Vec<McpServerEntry>,
    /// The enabled servers' `<namespace>__`, lowercased.
    namespaces: Vec<String>,
}

/// Where a declared MCP tool lands in this config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement<'s> {
    /// Offered by this enabled server as its tool `tool`.
    Served { server: &'s McpServerEntry, tool: String },
    /// Not offered, and why.
    Dropped(String),
}

/// The memo key of a config's MCP servers (one value per config).
#[derive(PartialEq, Eq, Hash)]
struct ConfigMcpServers;

impl McpServers {
    /// The config's MCP servers, worked out once for every session of it.
    pub fn shared(memo: &Memo, config: &Value) -> Arc<Self> {
        memo.get_or(ConfigMcpServers, || Arc::new(Self::of(config)))
    }

    pub fn of(config: &Value) -> Self {
        let all = mcp::servers(config);
        // Namespaces are assigned over the enabled servers only, in the release's order.
        let mut enabled = assign_namespaces(all.iter().filter(|s| s.enabled()).map(|s| s.name)).into_iter();
        let servers = all
            .iter()
            .map(|server| {
                let on = server.enabled();
                let namespace = if on { enabled.next().unwrap_or_default() } else { safe_mcp_name(server.name) };
                let owned = |list: Vec<(KeyPath, &str)>| list.into_iter().map(|(p, s)| (p, s.to_string())).collect();
                let filter =
                    server.tool_filter().map(|f| ToolFilter { include: owned(f.include), exclude: owned(f.exclude) });
                McpServerEntry {
                    name: server.name.to_string(),
                    namespace,
                    enabled: on,
                    path: server.block.path.clone(),
                    filter,
                }
            })
            .collect::<Vec<McpServerEntry>>();
        let namespaces =
            servers.iter().filter(|s| s.enabled).map(|s| format!("{}__", s.namespace).to_lowercase()).collect();
        McpServers { servers, namespaces }
    }

    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }

    /// The enabled servers' namespaces with their `__`, lowercased.
    pub fn namespaces(&self) -> &[String] {
        &self.namespaces
    }

    /// The server whose namespace `name` carries (the longest one, enabled servers first).
    pub fn owner(&self, name: &str) -> Option<(&McpServerEntry, String)> {
        let owns = |s: &&McpServerEntry| name.strip_prefix(s.namespace.as_str()).is_some_and(|t| t.starts_with("__"));
        let best = |enabled: bool| {
            self.servers.iter().filter(|s| s.enabled == enabled).filter(owns).max_by_key(|s| s.namespace.len())
        };
        let server = best(true).or_else(|| best(false))?;
        Some((server, name[server.namespace.len() + 2..].to_string()))
    }

    /// Where the declared MCP tool `name` (`<namespace>__<tool>`) lands.
    pub fn place(&self, name: &str) -> Placement<'_> {
        let Some((server, tool)) = self.owner(name) else {
            return Placement::Dropped(format!("no server in mcp.servers has the namespace of `{name}`"));
        };
        if !server.enabled {
            return Placement::Dropped(format!("{}.enabled is false", server.path));
        }
        match server.filter.as_ref().and_then(|f| f.hides(&tool)) {
            Some(reason) => Placement::Dropped(reason),
            None => Placement::Served { server, tool },
        }
    }
}

/// The deny entry that keeps a server from starting at all: `bundle-mcp` or `group:plugins`,
/// or a pattern ending in `*` that covers the server's `<namespace>__`. `deny` is normalized.
pub fn deny_stops_server<'d>(pack: &VersionPack, deny: &'d [String], namespace: &str) -> Option<&'d String> {
    let prefix = pack.normalize(&format!("{namespace}__"));
    deny.iter().find(|entry| {
        *entry == "bundle-mcp"
            || *entry == "group:plugins"
            || (entry.ends_with('*') && Glob::compile(entry).matches(&prefix))
    })
}

/// Whether a run's `toolsAllow` lets the MCP runtime start: it names `*`, `bundle-mcp`,
/// `group:plugins` or a `__` name, or a glob whose literal head fits a server's namespace.
pub fn runtime_allows_mcp(pack: &VersionPack, tools_allow: Option<&[String]>, namespaces: &[String]) -> bool {
    let Some(allow) = tools_allow else { return true };
    let names: Vec<String> = allow.iter().map(|entry| pack.normalize(entry)).collect();
    !names.is_empty()
        && names.iter().any(|name| {
            name == "*"
                || name == "bundle-mcp"
                || name == "group:plugins"
                || name.contains("__")
                || name.find('*').is_some_and(|star| {
                    let head = &name[..star];
                    namespaces.iter().any(|ns| ns.starts_with(head) || head.starts_with(ns.as_str()))
                })
        })
}

/// `openclaw mcp probe --json`: the servers it reached and the tool names it would offer.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpProbe {
    #[serde(default)]
    pub servers: BTreeMap<String, ProbedServer>,
    #[serde(default)]
    pub tools: Vec<String>,
    #[serde(default)]
    pub diagnostics: Vec<ProbeDiagnostic>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProbedServer {
    /// How many tools the server offered after its `toolFilter`.
    #[serde(default)]
    pub tools: usize,
    /// How many listed tools the `toolFilter` hid.
    #[serde(default)]
    pub filtered_tools: usize,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProbeDiagnostic {
    #[serde(default)]
    pub server_name: String,
    #[serde(default)]
    pub message: String,
}

impl McpProbe {
    /// The probe's tools as declared plugin tools of `plugin_id`, the release's owner of MCP
    /// server tools (`bundle-mcp`).
    pub fn plugin_tools(&self, plugin_id: &str) -> Vec<PluginTool> {
        self.tools
            .iter()
            .map(|name| PluginTool {
                plugin: plugin_id.into(),
                name: name.clone(),
                optional: false,
                profiles: Vec::new(),
            })
            .collect()
    }
}

/// For a tool name no one declared that carries the namespace of a server in `config`: how to
/// declare that server's tools.
pub fn undeclared_tool_help(config: &Value, name: &str) -> Option<String> {
    let servers = McpServers::of(config);
    let (server, _) = servers.owner(name)?;
    Some(format!(
        "`{name}` would be a tool of MCP server `{}`: declare the servers' tools with --mcp-probe FILE (a saved \
         `openclaw mcp probe --json`) or --plugin-tool {}:{name}",
        server.name,
        mcp_plugin_id()
    ))
}

/// The plugin id that owns MCP server tools in the releases that have them (`bundle-mcp`), for
/// tools read from a probe before a release is chosen.
pub fn mcp_plugin_id() -> &'static str {
    crate::OpenClawVersion::ALL
        .iter()
        .find_map(|version| version.policy().plugin_loading.mcp_plugin_id.as_deref())
        .unwrap_or("bundle-mcp")
}

/// Reads a saved `openclaw mcp probe --json`.
pub fn read_probe(path: &std::path::Path) -> miette::Result<McpProbe> {
    let text = crate::base::userfile::read_text(path, crate::base::userfile::MAX_INPUT_BYTES)
        .map_err(|e| miette::miette!(code = "cli::mcp-probe", "cannot read {}: {e}", path.display()))?;
    crate::base::json::from_str::<McpProbe>(&text).map_err(|e| {
        let message = crate::config::secrets::parse_error_message(&e.to_string());
        miette::miette!(
            code = "cli::mcp-probe",
            help = "save it with `openclaw mcp probe --json > FILE`",
            "{}: not an MCP probe: {message}",
            path.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use serde_json::json;

    #[test]
    fn names_are_sanitized_as_the_release_does() {
        assert_eq!(safe_mcp_name("outlook"), "outlook");
        assert_eq!(safe_mcp_name("my server"), "my-server");
        assert_eq!(safe_mcp_name("1password"), "mcp-1password");
        assert_eq!(safe_mcp_name("  "), "mcp");
        assert_eq!(safe_mcp_name("é"), "mcp--");
        // One character outside the BMP is two UTF-16 code units, so two dashes.
        assert_eq!(safe_mcp_name("a😀b"), "a--b");
        assert_eq!(safe_mcp_name(&"x".repeat(40)).len(), 30);
    }

    #[test]
    fn colliding_namespaces_get_numbered() {
        assert_eq!(assign_namespaces(["a b", "a-b", "A_B", "a_b"]), ["a-b", "a-b-2", "A_B", "a_b-2"]);
        let long = "y".repeat(35);
        assert_eq!(assign_namespaces([long.as_str(), long.as_str()])[1], format!("{}-2", "y".repeat(28)));
    }

    #[test]
    fn filter_patterns_match_raw_tool_names() {
        assert!(filter_pattern_matches("read_*", "read_file"));
        assert!(filter_pattern_matches(" search ", "search"));
        assert!(filter_pattern_matches("*_issue*", "create_issue"));
        assert!(filter_pattern_matches("a*b*c", "abc"));
        assert!(!filter_pattern_matches("a*a", "a"));
        assert!(!filter_pattern_matches("", "x") && !filter_pattern_matches("Read", "read"));
        assert!(!filter_pattern_matches("github__search", "search"));
    }

    #[test]
    fn tools_land_on_their_server_through_its_filter() {
        let config = json!({"mcp": {"servers": {
            "git hub": {"toolFilter": {"include": ["search*"], "exclude": ["search_code"]}},
            "off": {"enabled": false},
            "git": {}}}});
        let servers = McpServers::of(&config);
        assert_eq!(servers.namespaces(), ["git-hub__", "git__"]);
        assert!(
            matches!(servers.place("git-hub__search_issues"), Placement::Served { tool, .. } if tool == "search_issues")
        );
        let Placement::Dropped(why) = servers.place("git-hub__create_issue") else { panic!() };
        assert!(why.contains("mcp.servers[\"git hub\"].toolFilter.include has no pattern"), "{why}");
        let Placement::Dropped(why) = servers.place("git-hub__search_code") else { panic!() };
        assert!(why.contains("exclude[0]"), "{why}");
        assert!(matches!(servers.place("git__x__y"), Placement::Served { tool, .. } if tool == "x__y"));
        assert_eq!(servers.place("off__a"), Placement::Dropped("mcp.servers.off.enabled is false".into()));
        assert!(matches!(servers.place("other__a"), Placement::Dropped(_)));
        assert!(undeclared_tool_help(&config, "git__search").unwrap().contains("MCP server `git`"));
        assert_eq!(undeclared_tool_help(&config, "search"), None);
    }

    #[test]
    fn deny_lists_and_runtime_allowlists_decide_whether_servers_start() {
        let pack = OpenClawVersion::V2026_9.policy();
        let deny = |entries: &[&str]| entries.iter().map(|e| pack.normalize(e)).collect::<Vec<_>>();
        assert!(deny_stops_server(pack, &deny(&["Bundle-MCP"]), "gh").is_some());
        assert!(deny_stops_server(pack, &deny(&["gh__*"]), "gh").is_some());
        assert!(deny_stops_server(pack, &deny(&["*"]), "gh").is_some());
        assert!(deny_stops_server(pack, &deny(&["gh__search", "other__*"]), "gh").is_none());
        let ns = vec!["gh__".to_string()];
        let allow = |entries: &[&str]| Some(entries.iter().map(|e| e.to_string()).collect::<Vec<_>>());
        assert!(runtime_allows_mcp(pack, None, &ns));
        assert!(!runtime_allows_mcp(pack, allow(&[]).as_deref(), &ns));
        assert!(!runtime_allows_mcp(pack, allow(&["read", "group:fs"]).as_deref(), &ns));
        for yes in [&["g*"][..], &["gh__search"], &["bundle-mcp"], &["group:plugins"], &["*"], &["gh__x*"]] {
            assert!(runtime_allows_mcp(pack, allow(yes).as_deref(), &ns), "{yes:?}");
        }
        assert!(!runtime_allows_mcp(pack, allow(&["x*"]).as_deref(), &ns));
    }

    #[test]
    fn a_spawned_child_inherits_the_mcp_tools_its_requester_keeps() {
        let version = OpenClawVersion::V2026_9;
        let tools = |names: &[&str]| -> Vec<PluginTool> {
            names
                .iter()
                .map(|n| PluginTool {
                    plugin: "bundle-mcp".into(),
                    name: n.to_string(),
                    optional: false,
                    profiles: vec![],
                })
                .collect()
        };
        // The requester `main` is restricted; the agent it spawns, `helper`, is not.
        let child_tools = |allow: Value| {
            let config = json!({
                "agents": {"ownership": "explicit", "defaults": {"systemAgent": {"agentId": "main"}},
                    "entries": {"main": {"tools": {"allow": allow}, "subagents": {"allowAgents": ["helper"]}}, "helper": {}}},
                "mcp": {"servers": {"gh": {"command": "gh-mcp"}}}});
            let run = crate::policy::SessionContext {
                agent_id: Some("helper".into()),
                plugin_tools: tools(&["gh__search", "gh__delete"]),
                ..Default::default()
            };
            let child = crate::policy::spawn::spawned_by(run, "main").unwrap();
            crate::policy::resolve(version, &config, &child).unwrap()
        };
        // The requester's effective tools, its MCP tools among them, are what the child inherits.
        let narrow = child_tools(json!(["read", "sessions_spawn", "gh__search"]));
        assert!(narrow.tools.contains(&"gh__search".to_string()), "{:?}", narrow.tools);
        assert_eq!(&*narrow.removed["gh__delete"].step, crate::policy::INHERITED_STEP_LABEL);
        let wide = child_tools(json!(["read", "sessions_spawn", "bundle-mcp"]));
        assert!(wide.tools.contains(&"gh__delete".to_string()), "{:?}", wide.tools);
    }

    #[test]
    fn probes_parse_and_declare_bundle_mcp_tools() {
        let probe: McpProbe = serde_json::from_value(json!({"generatedAt": "x",
            "servers": {"gh": {"launch": "gh-mcp", "tools": 2, "codexApprovalMode": "auto", "filteredTools": 3}},
            "tools": ["gh__a", "gh__b"], "diagnostics": []}))
        .unwrap();
        assert_eq!(probe.servers["gh"].filtered_tools, 3);
        let tools = probe.plugin_tools("bundle-mcp");
        assert_eq!((tools[1].plugin.as_str(), tools[1].name.as_str()), ("bundle-mcp", "gh__b"));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the server names, every namespace is provider-safe and no two collide
        /// without case.
        #[test]
        fn namespaces_are_safe_and_distinct(names in prop::collection::vec("\\PC{0,40}", 0..12)) {
            let assigned = assign_namespaces(names.iter().map(String::as_str));
            let mut seen = HashSet::new();
            for namespace in &assigned {
                prop_assert!(namespace.len() <= MAX_NAMESPACE && namespace.starts_with(|c: char| c.is_ascii_alphabetic()));
                prop_assert!(namespace.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
                prop_assert!(seen.insert(namespace.to_lowercase()), "{namespace} assigned twice");
            }
        }

        /// A pattern made of a tool name's pieces joined by `*` matches that name, and a pattern
        /// without `*` matches only itself.
        #[test]
        fn star_patterns_match_the_names_they_are_cut_from(tool in "[a-z_]{0,16}", cuts in prop::collection::vec(0usize..17, 0..4)) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(tool.len())).collect();
            cuts.sort_unstable();
            let mut pattern = String::new();
            let mut from = 0;
            for cut in cuts {
                pattern.push_str(&tool[from..cut]);
                pattern.push('*');
                from = cut;
            }
            pattern.push_str(&tool[from..]);
            prop_assert_eq!(filter_pattern_matches(&pattern, &tool), !pattern.is_empty());
            if !pattern.contains('*') && !tool.is_empty() {
                let longer = format!("{}x", tool);
                prop_assert!(!filter_pattern_matches(&pattern, &longer));
            }
        }
    }
}
