//! Checks OpenClaw writes by hand (zod refinements); they are in neither release's JSON Schema.
//! Texts are the releases' own (read from the 2026.2.25 and 2026.9.6 bundles and oracle runs).

use serde_json::{Map, Value};

use super::issue::{IssueCategory, ValidationIssue};
use super::schema::known_channel_ids;
use crate::OpenClawVersion;
use crate::base::js::js_trim;
use crate::config::path::PathSeg;
use crate::config::view::ids::normalize_agent_id;
use crate::release::loader::{BindSources, Refinement, RosterForm, ValidationRules};

const ALSO_ALLOW_FIX: &str = "cannot set both allow and alsoAllow in the same scope (merge alsoAllow into allow, or remove allow and use profile + alsoAllow)";

pub fn check(config: &Value, version: OpenClawVersion, legacy_owner: Option<&str>) -> Vec<ValidationIssue> {
    let mut rules = Rules { version, release: &version.loader().validation, issues: Vec::new() };
    rules.tool_scopes(config);
    rules.agent_roster(config, legacy_owner);
    rules.agent_references(config);
    rules.mcp_servers(config);
    rules.sandboxes(config);
    rules.channels(config);
    rules.loop_detection(config);
    rules.issues
}

/// 2026.9's evidence that `channels.<id>` is stale config of an uninstalled channel plugin: the id
/// is not a plugin the release ships, and `plugins.allow` or `plugins.entries` names it (plugin-id
/// normalization on both sides). Plugins installed in the state directory count too in the
/// release; offline they are unknown. (`plugins.installs` also counts, but 2026.9's schema refuses
/// that key.)
fn stale_channel_plugin(version: OpenClawVersion, config: &Value, channel: &str) -> bool {
    let plugins = version.data().plugins();
    // A release without a list of shipped plugins has no such rule.
    let Some(shipped) = plugins["bundledPluginIds"].as_array() else {
        return false;
    };
    let normalize = |id: &str| {
        let lowered = js_trim(id).to_lowercase();
        plugins["pluginIdAliases"][&lowered].as_str().map_or(lowered, str::to_string)
    };
    let channel = normalize(channel);
    if channel.is_empty() || shipped.iter().any(|id| *id == *channel) {
        return false;
    }
    let plugins = &config["plugins"];
    let allowed =
        plugins["allow"].as_array().into_iter().flatten().filter_map(Value::as_str).any(|id| normalize(id) == channel);
    allowed || plugins["entries"].as_object().is_some_and(|entries| entries.keys().any(|id| normalize(id) == channel))
}

fn key(k: &str) -> PathSeg {
    PathSeg::Key(k.to_string())
}

fn child(path: &[PathSeg], seg: PathSeg) -> Vec<PathSeg> {
    let mut p = path.to_vec();
    p.push(seg);
    p
}

fn non_empty_array(obj: &Map<String, Value>, name: &str) -> bool {
    obj.get(name).and_then(Value::as_array).is_some_and(|a| !a.is_empty())
}

/// Agent blocks of the roster the release validates, with their paths.
fn agent_entries(config: &Value, roster: RosterForm) -> Vec<(Vec<PathSeg>, &Value)> {
    let agents = &config["agents"];
    let base = vec![key("agents")];
    match roster {
        RosterForm::List => agents["list"]
            .as_array()
            .map(|list| {
                list.iter()
                    .enumerate()
                    .map(|(i, a)| (child(&child(&base, key("list")), PathSeg::Index(i)), a))
                    .collect()
            })
            .unwrap_or_default(),
        RosterForm::Entries => agents["entries"]
            .as_object()
            .map(|entries| entries.iter().map(|(id, a)| (child(&child(&base, key("entries")), key(id)), a)).collect())
            .unwrap_or_default(),
    }
}

struct Rules {
    version: OpenClawVersion,
    /// What the release checks.
    release: &'static ValidationRules,
    issues: Vec<ValidationIssue>,
}

impl Rules {
    fn push(&mut self, path: Vec<PathSeg>, message: String) {
        self.issues.push(ValidationIssue::new(path, message, IssueCategory::Refinement));
    }

    /// allow + alsoAllow (both non-empty) in one scope; the message prefix names the scope kind.
    fn also_allow(&mut self, value: &Value, path: Vec<PathSeg>, scope: &str) {
        if self.release.runs(Refinement::AllowWithAlsoAllow)
            && let Some(obj) = value.as_object()
            && non_empty_array(obj, "allow")
            && non_empty_array(obj, "alsoAllow")
        {
            self.push(path, format!("{scope} {ALSO_ALLOW_FIX}"));
        }
    }

    fn tool_scopes(&mut self, config: &Value) {
        let tools_path = vec![key("tools")];
        self.tool_block(&config["tools"], tools_path.clone(), "tools");
        self.policy(&config["tools"]["subagents"]["tools"], child(&child(&tools_path, key("subagents")), key("tools")));
        for (path, agent) in agent_entries(config, self.release.roster) {
            self.tool_block(&agent["tools"], child(&path, key("tools")), "agent tools");
        }
        // 2026.9 validates channel groups with the channel plugins' own schemas, which do not
        // carry this refinement (checked against the release).
        if self.release.runs(Refinement::ChannelGroupToolPolicies) {
            for (path, group) in channel_groups(config) {
                self.policy(&group["tools"], child(&path, key("tools")));
                self.sender_policies(&group["toolsBySender"], child(&path, key("toolsBySender")));
            }
        }
    }

    /// Global or per-agent `tools`: its own scope, byProvider entries, sandbox tools, senders, exec.
    fn tool_block(&mut self, tools: &Value, path: Vec<PathSeg>, scope: &str) {
        self.also_allow(tools, path.clone(), scope);
        if let Some(by_provider) = tools["byProvider"].as_object() {
            for (provider, policy) in by_provider {
                self.also_allow(
                    policy,
                    child(&child(&path, key("byProvider")), key(provider)),
                    "tools.byProvider policy",
                );
            }
        }
        self.policy(&tools["sandbox"]["tools"], child(&child(&path, key("sandbox")), key("tools")));
        self.sender_policies(&tools["toolsBySender"], child(&path, key("toolsBySender")));
        if self.release.runs(Refinement::ExecModeConflict) {
            self.exec_mode(&tools["exec"], child(&path, key("exec")));
        }
    }

    fn policy(&mut self, value: &Value, path: Vec<PathSeg>) {
        self.also_allow(value, path, "tools policy");
    }

    fn sender_policies(&mut self, value: &Value, path: Vec<PathSeg>) {
        for (sender, policy) in value.as_object().into_iter().flatten() {
            self.policy(policy, child(&path, key(sender)));
        }
    }

    /// `mode` may not sit beside the legacy `security`/`ask` in one exec object.
    fn exec_mode(&mut self, exec: &Value, path: Vec<PathSeg>) {
        let Some(obj) = exec.as_object() else { return };
        if !obj.contains_key("mode") || !(obj.contains_key("security") || obj.contains_key("ask")) {
            return;
        }
        let security = obj.get("security").and_then(Value::as_str);
        let ask = obj.get("ask").and_then(Value::as_str);
        let equivalent = match (security, ask) {
            (Some("deny"), _) => "deny",
            (Some("allowlist"), Some("off")) => "allowlist",
            (Some("full"), ask) if ask != Some("always") => "full",
            _ => "ask",
        };
        let legacy: Vec<String> = [("security", security), ("ask", ask)]
            .into_iter()
            .filter_map(|(name, value)| Some(format!("{name}=\"{}\"", value?)))
            .collect();
        self.push(
            child(&path, key("mode")),
            format!(
                "mode cannot be combined with security or ask in the same exec object. Update the deploy script, template, or patch at this scope. Replace security/ask with mode=\"{equivalent}\" (the equivalent of {}). Doctor migrates supported legacy policies to mode; run \"openclaw doctor --fix\" only when the saved file still needs migration.",
                legacy.join(" + ")
            ),
        );
    }

    /// Roster rules on `agents` (2026.9's zod `AgentsSchema` refinement). `legacy_owner`: the
    /// release validates a roster whose single legacy marker it has just migrated as if it said
    /// `ownership: "explicit"`.
    fn agent_roster(&mut self, config: &Value, legacy_owner: Option<&str>) {
        if !self.release.runs(Refinement::AgentRoster) {
            return;
        }
        let Some(agents) = config["agents"].as_object() else {
            return;
        };
        let empty = Map::new();
        let entries = match agents.get("entries") {
            None => &empty,
            Some(Value::Object(entries)) => entries,
            Some(_) => return,
        };
        let base = vec![key("agents")];
        let entries_path = child(&base, key("entries"));
        if entries.is_empty() {
            self.push(entries_path.clone(), "agents.entries must contain at least one configured agent".to_string());
        }
        let mut seen: Vec<(String, &String)> = Vec::new();
        for id in entries.keys() {
            let normalized = normalize_agent_id(id);
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == normalized) {
                self.push(
                    child(&entries_path, key(id)),
                    format!("agents.entries keys \"{first}\" and \"{id}\" resolve to the same agent id \"{normalized}\"; rename one key so each agent has a unique id"),
                );
            } else {
                seen.push((normalized, id));
            }
        }
        let markers = entries.values().filter(|e| e["default"] == Value::Bool(true)).count();
        if markers > 1 {
            self.push(
                entries_path,
                format!("agents.entries must contain at most one default=true entry (found {markers})"),
            );
        }
        let synthetic = legacy_owner.is_some() && entries.len() > 1 && !agents.contains_key("ownership");
        let explicit = agents.get("ownership").and_then(Value::as_str) == Some("explicit") || synthetic;
        let ownership = child(&base, key("ownership"));
        if explicit && markers > 0 {
            self.push(
                ownership.clone(),
                "agents.ownership=explicit cannot be combined with a legacy default=true marker".to_string(),
            );
        }
        if !explicit && markers == 0 && entries.len() > 1 {
            self.push(
                ownership,
                "multi-agent rosters require agents.ownership=\"explicit\" or one legacy default=true marker; add agents.ownership=\"explicit\" or run openclaw doctor".to_string(),
            );
        }
    }

    /// The root refinement (2026.9): agent ids named by heartbeat, system agent, talk and bindings
    /// must be in the roster (`main` when there is none).
    fn agent_references(&mut self, config: &Value) {
        if !self.release.runs(Refinement::AgentReferences) {
            return;
        }
        let ids: Vec<&String> = config["agents"]["entries"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(_, entry)| entry.is_object())
            .map(|(id, _)| id)
            .collect();
        let known = |id: &str| {
            let id = normalize_agent_id(id);
            if ids.is_empty() { id == "main" } else { ids.iter().any(|k| normalize_agent_id(k) == id) }
        };
        let unknown = |id: &str| format!("Unknown agent id \"{id}\" (not in agents.entries).");
        for target in [["agents", "defaults", "heartbeat", "agentId"], ["agents", "defaults", "systemAgent", "agentId"]]
        {
            if let Some(id) = target.iter().try_fold(config, |v, k| v.get(k)).and_then(Value::as_str)
                && !known(id)
            {
                self.push(target.iter().map(|k| key(k)).collect(), unknown(id));
            }
        }
        if let Some(id) = config["talk"]["agentId"].as_str()
            && !known(id)
        {
            self.push(vec![key("talk"), key("agentId")], unknown(id));
        }
        if ids.is_empty() {
            return;
        }
        for (index, binding) in config["bindings"].as_array().into_iter().flatten().enumerate() {
            if let Some(id) = binding["agentId"].as_str()
                && id != "main"
                && !known(id)
            {
                self.push(vec![key("bindings"), PathSeg::Index(index), key("agentId")], unknown(id));
            }
        }
    }

    /// The `McpServerSchema` refinement (2026.9) (`mcp.servers.*`, `nodeHost.mcp.servers.*`): retired
    /// key spellings, `disabled`, per-requester OAuth and stdio without a command.
    fn mcp_servers(&mut self, config: &Value) {
        if !self.release.runs(Refinement::McpServers) {
            return;
        }
        const RETIRED: [&str; 8] = [
            "connectTimeout",
            "connect_timeout",
            "timeout",
            "workingDirectory",
            "supports_parallel_tool_calls",
            "ssl_verify",
            "client_cert",
            "client_key",
        ];
        for base in [vec![key("mcp"), key("servers")], vec![key("nodeHost"), key("mcp"), key("servers")]] {
            let servers = base.iter().try_fold(config, |v, seg| v.get(seg.as_key().unwrap_or_default()));
            for (name, server) in servers.and_then(Value::as_object).into_iter().flatten() {
                let Some(fields) = server.as_object() else { continue };
                let path = child(&base, key(name));
                for retired in RETIRED.iter().filter(|k| fields.contains_key(**k)) {
                    let issue = format!("Unrecognized key: \"{retired}\"");
                    self.issues.push(ValidationIssue::new(path.clone(), issue, IssueCategory::UnknownKey));
                }
                if server["codex"].as_object().is_some_and(|c| c.contains_key("default_tools_approval_mode")) {
                    let issue = "Unrecognized key: \"default_tools_approval_mode\"";
                    self.issues.push(ValidationIssue::new(
                        child(&path, key("codex")),
                        issue,
                        IssueCategory::UnknownKey,
                    ));
                }
                if let Some(disabled) = fields.get("disabled") {
                    let replacement = match disabled.as_bool() {
                        Some(disabled) => format!(
                            "\"enabled: {}\" instead, then run \"openclaw doctor --fix\" to migrate existing config",
                            !disabled
                        ),
                        None => "the canonical \"enabled\" boolean instead".to_string(),
                    };
                    self.push(
                        child(&path, key("disabled")),
                        format!("unsupported key \"disabled\"; use {replacement}"),
                    );
                }
                if server["oauth"]["identity"] == "per-requester" {
                    let identity = child(&child(&path, key("oauth")), key("identity"));
                    if server["auth"] != "oauth" {
                        self.push(
                            identity.clone(),
                            "oauth.identity \"per-requester\" requires auth: \"oauth\"".to_string(),
                        );
                    }
                    if server["oauth"]["authProfileId"].as_str().is_some_and(|s| !s.is_empty()) {
                        self.push(
                            child(&child(&path, key("oauth")), key("authProfileId")),
                            "oauth.authProfileId cannot be used with oauth.identity \"per-requester\"".to_string(),
                        );
                    }
                    if server["url"].as_str().is_none_or(str::is_empty) {
                        self.push(
                            identity.clone(),
                            "oauth.identity \"per-requester\" requires an HTTP server URL".to_string(),
                        );
                    }
                    if fields.contains_key("command") || server["transport"] == "stdio" {
                        self.push(
                            identity,
                            "oauth.identity \"per-requester\" cannot be combined with a command or \"stdio\" transport"
                                .to_string(),
                        );
                    }
                }
                if server["transport"] == "stdio" && server["command"].as_str().is_none_or(|c| c.trim().is_empty()) {
                    self.push(
                        child(&path, key("transport")),
                        "\"stdio\" transport requires a non-empty command".to_string(),
                    );
                }
            }
        }
    }

    fn sandboxes(&mut self, config: &Value) {
        if !self.release.runs(Refinement::SandboxSecurity) {
            return;
        }
        let defaults = vec![key("agents"), key("defaults"), key("sandbox")];
        self.sandbox(&config["agents"]["defaults"]["sandbox"], defaults);
        for (path, agent) in agent_entries(config, self.release.roster) {
            self.sandbox(&agent["sandbox"], child(&path, key("sandbox")));
        }
    }

    fn sandbox(&mut self, sandbox: &Value, path: Vec<PathSeg>) {
        let docker = &sandbox["docker"];
        let docker_path = child(&path, key("docker"));
        for (i, bind) in docker["binds"].as_array().into_iter().flatten().enumerate() {
            let Some(bind) = bind.as_str().map(str::trim) else {
                continue;
            };
            let bind_path = child(&child(&docker_path, key("binds")), PathSeg::Index(i));
            if bind.is_empty() {
                self.push(bind_path, "Sandbox security: bind mount entry must be a non-empty string.".to_string());
                continue;
            }
            let source = match bind.find(':') {
                Some(colon) if colon > 0 => bind[..colon].trim(),
                _ => bind,
            };
            let sources = self.release.bind_sources;
            let absolute =
                source.starts_with('/') || (sources == BindSources::PosixOrWindowsDrive && is_windows_drive_path(bind));
            let supported = sources.supported();
            if !absolute {
                self.push(
                    bind_path,
                    format!("Sandbox security: bind mount \"{bind}\" uses a non-absolute source path \"{source}\". Only {supported} supported for sandbox binds."),
                );
            }
        }
        let join_allowed = docker["dangerouslyAllowContainerNamespaceJoin"] == Value::Bool(true);
        match network_mode(&docker["network"]) {
            Some("host") => self.push(child(&docker_path, key("network")), "Sandbox security: network mode \"host\" is blocked. Use \"bridge\" or \"none\" instead.".to_string()),
            Some(mode) if mode.starts_with("container:") && !join_allowed => self.push(
                child(&docker_path, key("network")),
                "Sandbox security: network mode \"container:*\" is blocked by default. Use a custom bridge network, or set dangerouslyAllowContainerNamespaceJoin=true only when you fully trust this runtime.".to_string(),
            ),
            _ => {}
        }
        for (field, name, fix) in [
            ("seccompProfile", "seccomp", "Use a custom seccomp profile file or omit this setting."),
            ("apparmorProfile", "apparmor", "Use a named AppArmor profile or omit this setting."),
        ] {
            if network_mode(&docker[field]) == Some("unconfined") {
                self.push(
                    child(&docker_path, key(field)),
                    format!("Sandbox security: {name} profile \"unconfined\" is blocked. {fix}"),
                );
            }
        }
        if network_mode(&sandbox["browser"]["network"]) == Some("host") {
            self.push(
                child(&child(&path, key("browser")), key("network")),
                "Sandbox security: browser network mode \"host\" is blocked. Use \"bridge\" or a custom bridge network instead.".to_string(),
            );
        }
    }

    fn channels(&mut self, config: &Value) {
        let Some(channels) = config["channels"].as_object().filter(|_| self.release.runs(Refinement::ChannelIds))
        else {
            return;
        };
        let known = known_channel_ids(self.version);
        for (id, body) in channels {
            let path = vec![key("channels"), key(id)];
            let reserved = self.release.reserved_channel_keys.contains(id);
            if !reserved && !known.contains(&id.as_str()) {
                // 2026.9 ignores (with a warning) the leftover config of a channel plugin that is
                // not installed, when the plugin config still names it.
                if !stale_channel_plugin(self.version, config, id) {
                    self.push(path, format!("unknown channel id: {id}"));
                }
                continue;
            }
            if self.release.runs(Refinement::OpenDmPolicy) {
                self.open_dm_policy(id, body, path);
            }
        }
    }

    /// `dmPolicy: "open"` (2026.2) needs `"*"` in `allowFrom` (Discord/Slack also accept `dm.allowFrom`).
    fn open_dm_policy(&mut self, channel: &str, body: &Value, path: Vec<PathSeg>) {
        if body["dmPolicy"] != "open" {
            return;
        }
        let has_wildcard =
            |v: &Value| v.as_array().into_iter().flatten().any(|e| e.as_str().map(str::trim) == Some("*"));
        let nested_dm = matches!(channel, "discord" | "slack");
        if has_wildcard(&body["allowFrom"]) || (nested_dm && has_wildcard(&body["dm"]["allowFrom"])) {
            return;
        }
        let alternative = if nested_dm { format!(" (or channels.{channel}.dm.allowFrom)") } else { String::new() };
        self.push(
            child(&path, key("allowFrom")),
            format!("channels.{channel}.dmPolicy=\"open\" requires channels.{channel}.allowFrom{alternative} to include \"*\""),
        );
    }

    /// Loop-detection thresholds (2026.2) must increase.
    fn loop_detection(&mut self, config: &Value) {
        if !self.release.runs(Refinement::LoopDetectionThresholds) {
            return;
        }
        let ld = &config["tools"]["loopDetection"];
        let path = vec![key("tools"), key("loopDetection")];
        let threshold = |name: &str| ld[name].as_f64();
        let pairs = [
            (
                "warningThreshold",
                "criticalThreshold",
                "tools.loopDetection.warningThreshold must be lower than criticalThreshold.",
            ),
            (
                "criticalThreshold",
                "globalCircuitBreakerThreshold",
                "tools.loopDetection.criticalThreshold must be lower than globalCircuitBreakerThreshold.",
            ),
        ];
        for (lower, higher, message) in pairs {
            if let (Some(l), Some(h)) = (threshold(lower), threshold(higher))
                && l >= h
            {
                self.push(child(&path, key(higher)), message.to_string());
            }
        }
    }
}

/// Trimmed, lower-cased string value (network modes and profiles compare that way).
fn network_mode(value: &Value) -> Option<&'static str> {
    let mode = value.as_str()?.trim().to_lowercase();
    match mode.as_str() {
        "host" => Some("host"),
        "unconfined" => Some("unconfined"),
        m if m.starts_with("container:") => Some("container:"),
        _ => None,
    }
}

fn is_windows_drive_path(bind: &str) -> bool {
    let b = bind.as_bytes();
    b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/')
}

/// `channels.<ch>.groups.<gid>` and `channels.<ch>.accounts.<acc>.groups.<gid>`.
fn channel_groups(config: &Value) -> Vec<(Vec<PathSeg>, &Value)> {
    let mut out = Vec::new();
    for (ch, body) in config["channels"].as_object().into_iter().flatten() {
        let base = vec![key("channels"), key(ch)];
        let accounts = body["accounts"].as_object().into_iter().flatten();
        let scopes = std::iter::once((base.clone(), body))
            .chain(accounts.map(|(acc, account)| (child(&child(&base, key("accounts")), key(acc)), account)));
        for (path, scope) in scopes {
            for (gid, group) in scope["groups"].as_object().into_iter().flatten() {
                out.push((child(&child(&path, key("groups")), key(gid)), group));
            }
        }
    }
    out
}
