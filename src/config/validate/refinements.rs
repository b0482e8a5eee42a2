//! Checks OpenClaw writes by hand (zod refinements); they are in neither release's JSON Schema.
//! Texts are the releases' own (read from the 2026.2.25 and 2026.9.6 bundles and oracle runs).

use serde_json::{Map, Value};

use super::issue::{IssueCategory, ValidationIssue};
use super::plugin_schema::Finding;
use super::plugins::Findings;
use super::schema::known_channel_ids;
use crate::OpenClawVersion;
use crate::base::js::js_trim;
use crate::config::path::PathSeg;
use crate::config::source::SharedKeyPath;
use crate::config::view::ids::normalize_agent_id;
use crate::config::view::keys;
use crate::release::loader::{BindSources, Refinement, RosterForm, ValidationRules};

const ALSO_ALLOW_FIX: &str = "cannot set both allow and alsoAllow in the same scope (merge alsoAllow into allow, or remove allow and use profile + alsoAllow)";

pub fn check(config: &Value, version: OpenClawVersion, legacy_owner: Option<&str>) -> Vec<ValidationIssue> {
    let mut rules = Rules { version, release: &version.loader().validation, issues: Vec::new() };
    let root = At::root(config);
    rules.tool_scopes(&root);
    rules.agent_roster(&root, legacy_owner);
    rules.agent_references(&root);
    rules.mcp_servers(&root);
    rules.sandboxes(&root);
    rules.channels(&root);
    rules.loop_detection(&root);
    rules.issues
}

/// 2026.9's evidence that `channels.<id>` is stale config of an uninstalled channel plugin: the id
/// is not a plugin the release ships, and `plugins.allow` or `plugins.entries` names it (plugin-id
/// normalization on both sides). Plugins installed in the state directory count too in the
/// release; offline they are unknown. (`plugins.installs` also counts, but 2026.9's schema refuses
/// that key.)
fn stale_channel_plugin(version: OpenClawVersion, config: &Value, channel: &str) -> bool {
    let rules = version.data().plugins();
    let channel = rules.normalize_id(channel);
    if !rules.validation.stale_channel_plugin_config || channel.is_empty() || rules.plugin(&channel).is_some() {
        return false;
    }
    let plugins = &config[keys::PLUGINS];
    let allowed = plugins[keys::ALLOW]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .any(|id| rules.normalize_id(id) == channel);
    allowed
        || plugins[keys::ENTRIES]
            .as_object()
            .is_some_and(|entries| entries.keys().any(|id| rules.normalize_id(id) == channel))
}

/// The channel ids the release checks after its schema, with its plugin registry at hand
/// (`channels.<id>` must be a channel it knows; 2026.9 warns about, and ignores, the leftover
/// config of a channel plugin that is not installed).
pub(super) fn unknown_channels(config: &Value, version: OpenClawVersion) -> Findings {
    let mut findings = Findings::default();
    let release = &version.loader().validation;
    if !release.runs(Refinement::ChannelIds) {
        return findings;
    }
    let known = known_channel_ids(version);
    for (key, _) in At::root(config).key(keys::CHANNELS).members() {
        let id = js_trim(key);
        if id.is_empty() || release.reserved_channel_keys.iter().any(|k| k == id) || known.contains(&id) {
            continue;
        }
        let path = vec![PathSeg::key(keys::CHANNELS), PathSeg::key(id)];
        let at = vec![PathSeg::key(keys::CHANNELS), PathSeg::key(key)];
        let message = format!("unknown channel id: {id}");
        if stale_channel_plugin(version, config, id) {
            let message = format!(
                "{message} (stale channel plugin config ignored; run openclaw doctor --fix to remove stale config, or install the plugin)"
            );
            findings.warnings.push(Finding::new(path, at, message));
        } else {
            findings.issues.push(Finding::new(path, at, message));
        }
    }
    findings
}

/// A value of the config and its key path, walked together so each key is spelled once. A
/// missing key reads as `null`, as `config["a"]["b"]` does.
/// The path shares its parent's (most places walked have no issue: their paths are never spelled
/// out).
#[derive(Clone)]
struct At<'v> {
    value: &'v Value,
    path: SharedKeyPath,
}

impl<'v> At<'v> {
    fn root(config: &'v Value) -> Self {
        At { value: config, path: SharedKeyPath::default() }
    }

    fn key(&self, key: &str) -> At<'v> {
        At { value: &self.value[key], path: self.path.child(PathSeg::key(key)) }
    }

    fn keys(&self, keys: &[&str]) -> At<'v> {
        keys.iter().fold(self.clone(), |at, key| at.key(key))
    }

    /// The members of an object, in order (none for anything else).
    fn members(&self) -> impl Iterator<Item = (&'v String, At<'v>)> + 'v {
        let path = self.path.clone();
        let members = self.value.as_object().into_iter().flatten();
        members.map(move |(key, value)| (key, At { value, path: path.child(PathSeg::key(key)) }))
    }

    /// The items of an array (none for anything else).
    fn items(&self) -> impl Iterator<Item = At<'v>> + 'v {
        let path = self.path.clone();
        let items = self.value.as_array().into_iter().flatten().enumerate();
        items.map(move |(index, value)| At { value, path: path.child(PathSeg::Index(index)) })
    }

    fn str(&self) -> Option<&'v str> {
        self.value.as_str()
    }
}

fn non_empty_array(obj: &Map<String, Value>, name: &str) -> bool {
    obj.get(name).and_then(Value::as_array).is_some_and(|a| !a.is_empty())
}

/// Agent blocks of the roster the release validates.
fn agent_entries<'v>(root: &At<'v>, roster: RosterForm) -> Vec<At<'v>> {
    match roster {
        RosterForm::List => root.keys(&[keys::AGENTS, keys::LIST]).items().collect(),
        RosterForm::Entries => root.keys(&[keys::AGENTS, keys::ENTRIES]).members().map(|(_, agent)| agent).collect(),
    }
}

struct Rules {
    version: OpenClawVersion,
    /// What the release checks.
    release: &'static ValidationRules,
    issues: Vec<ValidationIssue>,
}

impl Rules {
    fn push(&mut self, at: &At<'_>, message: String) {
        self.issues.push(ValidationIssue::new(at.path.to_vec(), message, IssueCategory::Refinement));
    }

    fn unknown_key(&mut self, at: &At<'_>, key: &str) {
        let issue = format!("Unrecognized key: \"{key}\"");
        self.issues.push(ValidationIssue::new(at.path.to_vec(), issue, IssueCategory::UnknownKey));
    }

    /// allow + alsoAllow (both non-empty) in one scope; the message prefix names the scope kind.
    fn also_allow(&mut self, scope: &At<'_>, kind: &str) {
        if self.release.runs(Refinement::AllowWithAlsoAllow)
            && let Some(obj) = scope.value.as_object()
            && non_empty_array(obj, keys::ALLOW)
            && non_empty_array(obj, keys::ALSO_ALLOW)
        {
            self.push(scope, format!("{kind} {ALSO_ALLOW_FIX}"));
        }
    }

    fn tool_scopes(&mut self, root: &At<'_>) {
        let tools = root.key(keys::TOOLS);
        self.tool_block(&tools, keys::TOOLS);
        self.policy(&tools.keys(&[keys::SUBAGENTS, keys::TOOLS]));
        for agent in agent_entries(root, self.release.roster) {
            self.tool_block(&agent.key(keys::TOOLS), "agent tools");
        }
        // 2026.9 validates channel groups with the channel plugins' own schemas, which do not
        // carry this refinement (checked against the release).
        if self.release.runs(Refinement::ChannelGroupToolPolicies) {
            for group in channel_groups(root) {
                self.policy(&group.key(keys::TOOLS));
                self.sender_policies(&group.key(keys::TOOLS_BY_SENDER));
            }
        }
    }

    /// Global or per-agent `tools`: its own scope, byProvider entries, sandbox tools, senders, exec.
    fn tool_block(&mut self, tools: &At<'_>, kind: &str) {
        self.also_allow(tools, kind);
        for (_, policy) in tools.key(keys::BY_PROVIDER).members() {
            self.also_allow(&policy, "tools.byProvider policy");
        }
        self.policy(&tools.keys(&[keys::SANDBOX, keys::TOOLS]));
        self.sender_policies(&tools.key(keys::TOOLS_BY_SENDER));
        if self.release.runs(Refinement::ExecModeConflict) {
            self.exec_mode(&tools.key(keys::EXEC));
        }
    }

    fn policy(&mut self, policy: &At<'_>) {
        self.also_allow(policy, "tools policy");
    }

    fn sender_policies(&mut self, senders: &At<'_>) {
        for (_, policy) in senders.members() {
            self.policy(&policy);
        }
    }

    /// `mode` may not sit beside the legacy `security`/`ask` in one exec object.
    fn exec_mode(&mut self, exec: &At<'_>) {
        let Some(obj) = exec.value.as_object() else { return };
        if !obj.contains_key(keys::MODE) || !(obj.contains_key(keys::SECURITY) || obj.contains_key(keys::ASK)) {
            return;
        }
        let security = exec.key(keys::SECURITY).str();
        let ask = exec.key(keys::ASK).str();
        let equivalent = match (security, ask) {
            (Some(keys::DENY), _) => keys::DENY,
            (Some("allowlist"), Some("off")) => "allowlist",
            (Some("full"), ask) if ask != Some("always") => "full",
            _ => keys::ASK,
        };
        let legacy: Vec<String> = [(keys::SECURITY, security), (keys::ASK, ask)]
            .into_iter()
            .filter_map(|(name, value)| Some(format!("{name}=\"{}\"", value?)))
            .collect();
        self.push(
            &exec.key(keys::MODE),
            format!(
                "mode cannot be combined with security or ask in the same exec object. Update the deploy script, template, or patch at this scope. Replace security/ask with mode=\"{equivalent}\" (the equivalent of {}). Doctor migrates supported legacy policies to mode; run \"openclaw doctor --fix\" only when the saved file still needs migration.",
                legacy.join(" + ")
            ),
        );
    }

    /// Roster rules on `agents` (2026.9's zod `AgentsSchema` refinement). `legacy_owner`: the
    /// release validates a roster whose single legacy marker it has just migrated as if it said
    /// `ownership: "explicit"`.
    fn agent_roster(&mut self, root: &At<'_>, legacy_owner: Option<&str>) {
        if !self.release.runs(Refinement::AgentRoster) {
            return;
        }
        let agents_at = root.key(keys::AGENTS);
        let Some(agents) = agents_at.value.as_object() else {
            return;
        };
        let empty = Map::new();
        let entries = match agents.get(keys::ENTRIES) {
            None => &empty,
            Some(Value::Object(entries)) => entries,
            Some(_) => return,
        };
        let entries_at = agents_at.key(keys::ENTRIES);
        if entries.is_empty() {
            self.push(&entries_at, "agents.entries must contain at least one configured agent".to_string());
        }
        let mut seen: Vec<(String, &String)> = Vec::new();
        for id in entries.keys() {
            let normalized = normalize_agent_id(id);
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == normalized) {
                self.push(
                    &entries_at.key(id),
                    format!("agents.entries keys \"{first}\" and \"{id}\" resolve to the same agent id \"{normalized}\"; rename one key so each agent has a unique id"),
                );
            } else {
                seen.push((normalized, id));
            }
        }
        let markers = entries.values().filter(|e| e[keys::DEFAULT] == Value::Bool(true)).count();
        if markers > 1 {
            self.push(
                &entries_at,
                format!("agents.entries must contain at most one default=true entry (found {markers})"),
            );
        }
        let ownership = agents_at.key(keys::OWNERSHIP);
        let synthetic = legacy_owner.is_some() && entries.len() > 1 && !agents.contains_key(keys::OWNERSHIP);
        let explicit = ownership.str() == Some("explicit") || synthetic;
        if explicit && markers > 0 {
            self.push(
                &ownership,
                "agents.ownership=explicit cannot be combined with a legacy default=true marker".to_string(),
            );
        }
        if !explicit && markers == 0 && entries.len() > 1 {
            self.push(
                &ownership,
                "multi-agent rosters require agents.ownership=\"explicit\" or one legacy default=true marker; add agents.ownership=\"explicit\" or run openclaw doctor".to_string(),
            );
        }
    }

    /// The root refinement (2026.9): agent ids named by heartbeat, system agent, talk and bindings
    /// must be in the roster (`main` when there is none).
    fn agent_references(&mut self, root: &At<'_>) {
        if !self.release.runs(Refinement::AgentReferences) {
            return;
        }
        let ids: Vec<&String> = root
            .keys(&[keys::AGENTS, keys::ENTRIES])
            .members()
            .filter(|(_, entry)| entry.value.is_object())
            .map(|(id, _)| id)
            .collect();
        let known = |id: &str| {
            let id = normalize_agent_id(id);
            if ids.is_empty() { id == "main" } else { ids.iter().any(|k| normalize_agent_id(k) == id) }
        };
        let unknown = |id: &str| format!("Unknown agent id \"{id}\" (not in agents.entries).");
        let defaults = root.keys(&[keys::AGENTS, keys::DEFAULTS]);
        for target in [
            defaults.keys(&[keys::HEARTBEAT, keys::AGENT_ID]),
            defaults.keys(&[keys::SYSTEM_AGENT, keys::AGENT_ID]),
            root.keys(&[keys::TALK, keys::AGENT_ID]),
        ] {
            if let Some(id) = target.str()
                && !known(id)
            {
                self.push(&target, unknown(id));
            }
        }
        if ids.is_empty() {
            return;
        }
        for binding in root.key(keys::BINDINGS).items() {
            let target = binding.key(keys::AGENT_ID);
            if let Some(id) = target.str()
                && id != "main"
                && !known(id)
            {
                self.push(&target, unknown(id));
            }
        }
    }

    /// The `McpServerSchema` refinement (2026.9) (`mcp.servers.*`, `nodeHost.mcp.servers.*`): retired
    /// key spellings, `disabled`, per-requester OAuth and stdio without a command.
    fn mcp_servers(&mut self, root: &At<'_>) {
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
        for servers in [root.keys(&[keys::MCP, keys::SERVERS]), root.keys(&[keys::NODE_HOST, keys::MCP, keys::SERVERS])]
        {
            for (_, server) in servers.members() {
                let Some(fields) = server.value.as_object() else { continue };
                for retired in RETIRED.iter().filter(|k| fields.contains_key(**k)) {
                    self.unknown_key(&server, retired);
                }
                let codex = server.key(keys::CODEX);
                if codex.value.as_object().is_some_and(|c| c.contains_key("default_tools_approval_mode")) {
                    self.unknown_key(&codex, "default_tools_approval_mode");
                }
                if fields.contains_key(keys::DISABLED) {
                    let disabled = server.key(keys::DISABLED);
                    let replacement = match disabled.value.as_bool() {
                        Some(disabled) => format!(
                            "\"enabled: {}\" instead, then run \"openclaw doctor --fix\" to migrate existing config",
                            !disabled
                        ),
                        None => "the canonical \"enabled\" boolean instead".to_string(),
                    };
                    self.push(&disabled, format!("unsupported key \"disabled\"; use {replacement}"));
                }
                let oauth = server.key(keys::OAUTH);
                let identity = oauth.key(keys::IDENTITY);
                let transport = server.key(keys::TRANSPORT);
                if identity.value == "per-requester" {
                    if server.value[keys::AUTH] != "oauth" {
                        self.push(&identity, "oauth.identity \"per-requester\" requires auth: \"oauth\"".to_string());
                    }
                    let profile = oauth.key(keys::AUTH_PROFILE_ID);
                    if profile.str().is_some_and(|s| !s.is_empty()) {
                        self.push(
                            &profile,
                            "oauth.authProfileId cannot be used with oauth.identity \"per-requester\"".to_string(),
                        );
                    }
                    if server.key(keys::URL).str().is_none_or(str::is_empty) {
                        self.push(
                            &identity,
                            "oauth.identity \"per-requester\" requires an HTTP server URL".to_string(),
                        );
                    }
                    if fields.contains_key(keys::COMMAND) || transport.value == "stdio" {
                        self.push(
                            &identity,
                            "oauth.identity \"per-requester\" cannot be combined with a command or \"stdio\" transport"
                                .to_string(),
                        );
                    }
                }
                if transport.value == "stdio" && server.key(keys::COMMAND).str().is_none_or(|c| c.trim().is_empty()) {
                    self.push(&transport, "\"stdio\" transport requires a non-empty command".to_string());
                }
                // The release trims `toolFilter` patterns before their length check, which the
                // exported schema cannot say: a blank pattern is too short.
                let filter = server.key(keys::TOOL_FILTER);
                for list in [keys::INCLUDE, keys::EXCLUDE].map(|key| filter.key(key)) {
                    for pattern in list.items() {
                        if pattern.str().is_some_and(|p| !p.is_empty() && js_trim(p).is_empty()) {
                            self.push(&pattern, "Too small: expected string to have >=1 characters".to_string());
                        }
                    }
                }
            }
        }
    }

    fn sandboxes(&mut self, root: &At<'_>) {
        if !self.release.runs(Refinement::SandboxSecurity) {
            return;
        }
        self.sandbox(&root.keys(&[keys::AGENTS, keys::DEFAULTS, keys::SANDBOX]));
        for agent in agent_entries(root, self.release.roster) {
            self.sandbox(&agent.key(keys::SANDBOX));
        }
    }

    fn sandbox(&mut self, sandbox: &At<'_>) {
        let docker = sandbox.key(keys::DOCKER);
        for bind_at in docker.key(keys::BINDS).items() {
            let Some(bind) = bind_at.str().map(str::trim) else {
                continue;
            };
            if bind.is_empty() {
                self.push(&bind_at, "Sandbox security: bind mount entry must be a non-empty string.".to_string());
                continue;
            }
            let source = match bind.find(':') {
                Some(colon) if colon > 0 => bind[..colon].trim(),
                _ => bind,
            };
            let sources = self.release.bind_sources;
            let absolute =
                source.starts_with('/') || (sources == BindSources::PosixOrWindowsDrive && is_windows_drive_path(bind));
            if !absolute {
                self.push(
                    &bind_at,
                    format!("Sandbox security: bind mount \"{bind}\" uses a non-absolute source path \"{source}\". Only {} supported for sandbox binds.", sources.supported()),
                );
            }
        }
        let join_allowed = docker.value[keys::DANGEROUSLY_ALLOW_CONTAINER_NAMESPACE_JOIN] == Value::Bool(true);
        let network = docker.key(keys::NETWORK);
        match network_mode(network.value) {
            Some("host") => self.push(&network, "Sandbox security: network mode \"host\" is blocked. Use \"bridge\" or \"none\" instead.".to_string()),
            Some(mode) if mode.starts_with("container:") && !join_allowed => self.push(
                &network,
                "Sandbox security: network mode \"container:*\" is blocked by default. Use a custom bridge network, or set dangerouslyAllowContainerNamespaceJoin=true only when you fully trust this runtime.".to_string(),
            ),
            _ => {}
        }
        for (field, name, fix) in [
            (keys::SECCOMP_PROFILE, "seccomp", "Use a custom seccomp profile file or omit this setting."),
            (keys::APPARMOR_PROFILE, "apparmor", "Use a named AppArmor profile or omit this setting."),
        ] {
            let profile = docker.key(field);
            if network_mode(profile.value) == Some("unconfined") {
                self.push(&profile, format!("Sandbox security: {name} profile \"unconfined\" is blocked. {fix}"));
            }
        }
        let browser_network = sandbox.keys(&[keys::BROWSER, keys::NETWORK]);
        if network_mode(browser_network.value) == Some("host") {
            self.push(
                &browser_network,
                "Sandbox security: browser network mode \"host\" is blocked. Use \"bridge\" or a custom bridge network instead.".to_string(),
            );
        }
    }

    /// Rules of the channels the release knows (unknown ones are [`unknown_channels`]'s).
    fn channels(&mut self, root: &At<'_>) {
        if !self.release.runs(Refinement::OpenDmPolicy) {
            return;
        }
        let known = known_channel_ids(self.version);
        for (id, channel) in root.key(keys::CHANNELS).members() {
            if known.contains(&js_trim(id)) {
                self.open_dm_policy(id, &channel);
            }
        }
    }

    /// `dmPolicy: "open"` (2026.2) needs `"*"` in `allowFrom` (Discord/Slack also accept `dm.allowFrom`).
    fn open_dm_policy(&mut self, id: &str, channel: &At<'_>) {
        if channel.value[keys::DM_POLICY] != "open" {
            return;
        }
        let has_wildcard =
            |at: At<'_>| at.value.as_array().into_iter().flatten().any(|e| e.as_str().map(str::trim) == Some("*"));
        let nested_dm = matches!(id, "discord" | "slack");
        let allow_from = channel.key(keys::ALLOW_FROM);
        if has_wildcard(allow_from.clone()) || (nested_dm && has_wildcard(channel.keys(&[keys::DM, keys::ALLOW_FROM])))
        {
            return;
        }
        let alternative = if nested_dm { format!(" (or channels.{id}.dm.allowFrom)") } else { String::new() };
        self.push(
            &allow_from,
            format!("channels.{id}.dmPolicy=\"open\" requires channels.{id}.allowFrom{alternative} to include \"*\""),
        );
    }

    /// Loop-detection thresholds (2026.2) must increase.
    fn loop_detection(&mut self, root: &At<'_>) {
        if !self.release.runs(Refinement::LoopDetectionThresholds) {
            return;
        }
        let detection = root.keys(&[keys::TOOLS, keys::LOOP_DETECTION]);
        let pairs = [
            (
                keys::WARNING_THRESHOLD,
                keys::CRITICAL_THRESHOLD,
                "tools.loopDetection.warningThreshold must be lower than criticalThreshold.",
            ),
            (
                keys::CRITICAL_THRESHOLD,
                keys::GLOBAL_CIRCUIT_BREAKER_THRESHOLD,
                "tools.loopDetection.criticalThreshold must be lower than globalCircuitBreakerThreshold.",
            ),
        ];
        for (lower, higher, message) in pairs {
            let higher = detection.key(higher);
            if let (Some(l), Some(h)) = (detection.key(lower).value.as_f64(), higher.value.as_f64())
                && l >= h
            {
                self.push(&higher, message.to_string());
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
fn channel_groups<'v>(root: &At<'v>) -> Vec<At<'v>> {
    let mut out = Vec::new();
    for (_, channel) in root.key(keys::CHANNELS).members() {
        let accounts = channel.key(keys::ACCOUNTS);
        for scope in std::iter::once(channel).chain(accounts.members().map(|(_, account)| account)) {
            out.extend(scope.key(keys::GROUPS).members().map(|(_, group)| group));
        }
    }
    out
}
