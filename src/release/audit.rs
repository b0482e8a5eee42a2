//! The lists a release's `openclaw security audit` reads (`data/<release>/audit.json`), for the lint
//! rules that mirror it; generated from the npm packages by `data/extract-audit-lists.mjs`.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_json::Value;

/// The release-specific lists the audit reads, as data.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditLists {
    /// Tools `POST /tools/invoke` denies unless `gateway.tools.allow` re-enables them.
    pub gateway_http_tool_deny: Vec<String>,
    /// Control-plane tools (automations, gateway, plugins); empty when the release has no such check.
    pub control_plane_tools: Vec<String>,
    pub dangerous_node_commands: Vec<String>,
    /// Node commands some platform allows by default (the deny check's vocabulary).
    pub known_node_commands: BTreeSet<String>,
    pub node_command_keys: NodeCommandKeys,
    pub interpreter_safe_bins: BTreeSet<String>,
    /// Safe bins with broad semantics, with the release's own warning.
    pub broad_safe_bins: BTreeMap<String, String>,
    pub blocked_bind_paths: Vec<String>,
    pub blocked_home_subpaths: Vec<String>,
    /// 2026.9 also blocks a bind whose source contains a blocked path (`/` covers `/etc`).
    pub bind_source_covering_blocked_path: bool,
    /// 2026.9 counts open DM policies as open inbound paths; 2026.2 only open group policies.
    pub open_inbound_includes_dms: bool,
    pub elevated_allow_from_large_over: usize,
    /// Flags reported one by one as insecure: a dotted path (`*` = any key or index) and the value.
    pub dangerous_flags: Vec<DangerousFlag>,
    /// The `groupPolicy` the loader gives a channel, and an account of it, that sets none.
    pub channel_group_policy_defaults: BTreeMap<String, GroupPolicyDefaults>,
    /// Environment variables whose value counts as a configured web-search credential.
    pub web_search_env_vars: Vec<String>,
}

/// A channel's loader defaults for `groupPolicy` (`None`: the loader adds none).
#[derive(Debug, Deserialize)]
pub struct GroupPolicyDefaults {
    pub channel: Option<String>,
    pub account: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct DangerousFlag {
    pub path: String,
    pub equals: Value,
}

/// Where the node command lists live (`gateway.nodes.commands.allow` or `gateway.nodes.allowCommands`).
#[derive(Debug, Deserialize)]
pub struct NodeCommandKeys {
    pub allow: String,
    pub deny: String,
}
