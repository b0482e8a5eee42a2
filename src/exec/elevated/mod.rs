//! Elevated gates: may the message that started a run switch its session to elevated exec
//! (`resolveElevatedPermissions`, checked by the reply pipeline before a `/elevated` directive or
//! an `elevated` exec call is honoured)? Four gates, in the release's order:
//!
//! 1. `tools.elevated.enabled` and the agent's `tools.elevated.enabled` (on unless `false`);
//! 2. the message has a channel (`ctx.Provider`): a run without an inbound message has none;
//! 3. `tools.elevated.allowFrom.<channel>` names the sender (or the channel's fallback list when
//!    that is not a list);
//! 4. the agent's `allowFrom.<channel>`, when the agent has an `allowFrom` at all.
//!
//! How senders are matched is [`sender`]; channel normalisation is [`format`]; what differs
//! between releases is `elevated` in `data/<line>/exec.json`. Each failing gate carries the
//! release's own key label, the key path to edit in this config and the edit that opens it.

pub mod format;
pub mod sender;

use serde::Serialize;
use serde_json::Value;

use super::Elevated;
use crate::OpenClawVersion;
use crate::base::js::{js_string, js_trim, js_truthy};
use crate::config::path::KeyPath;
use crate::config::view::agents::find_agent;
use crate::config::view::elevated::{ElevatedBlock, elevated_default, first_set};
use crate::config::view::ids::normalize_agent_id;
use crate::config::view::located::{Located, switched_off};
use crate::policy::context::SessionContext;
use format::Formatter;
use sender::{Sender, Verdict};

/// The inbound message a run answers, in the release's context field names. A run that answers
/// no message (an automation run) is [`Origin::Detached`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inbound {
    /// `Provider`: the channel the message arrived on.
    pub provider: Option<String>,
    pub sender_id: Option<String>,
    pub from: Option<String>,
    pub sender_e164: Option<String>,
    pub sender_name: Option<String>,
    pub sender_username: Option<String>,
    pub sender_tag: Option<String>,
    pub chat_type: Option<String>,
    pub account_id: Option<String>,
}

/// What started the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// An inbound message (a chat turn): its gates decide.
    Message(Inbound),
    /// A run that answers no message (named by its kind, e.g. `cron`): exec gets no elevated
    /// grant at all, whatever the config says.
    Detached(String),
}

/// A gate of [`evaluate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Gate {
    Enabled,
    Provider,
    AllowFrom,
    /// The run answers no message (no elevated grant is handed to exec).
    Run,
}

impl Gate {
    pub fn as_str(self) -> &'static str {
        match self {
            Gate::Enabled => "enabled",
            Gate::Provider => "provider",
            Gate::AllowFrom => "allowFrom",
            Gate::Run => "run",
        }
    }
}

/// One failing gate.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GateFailure {
    pub gate: Gate,
    /// The release's own label (`tools.elevated.allowFrom.telegram`, `agents.list[].…`).
    pub key: String,
    /// The key to edit in this config (written or not); `None` when no config edit opens it.
    pub path: Option<KeyPath>,
    /// Why it fails, in words.
    pub why: String,
    /// The edit that opens it.
    pub fix: String,
    /// For an allowFrom gate: the entry to add to `path` (the narrowest that names the sender, or
    /// `"*"` when the message names none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub add_entry: Option<String>,
}

/// Which list let the sender in, and by which entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Admission {
    pub path: KeyPath,
    pub verdict: Verdict,
}

/// The answer for one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ElevatedGates {
    pub enabled: bool,
    pub allowed: bool,
    /// The message's channel, the key the lists are looked up by (trimmed, lowercase).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    pub failures: Vec<GateFailure>,
    /// The lists that admitted the sender (global, then the agent's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub admitted_by: Vec<Admission>,
    /// The level an allowed sender's session starts at (`agents.defaults.elevatedDefault`, else
    /// the release's default), and where it is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_level: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_level_path: Option<KeyPath>,
    /// Caveats: a channel whose plugin (and so whose allowFrom formatter) the release does not ship.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl ElevatedGates {
    /// The level the release gives the session when no `/elevated` directive set one: the
    /// default level for an allowed sender, else off.
    pub fn session_level(&self) -> Elevated {
        match (&self.default_level, self.allowed) {
            (Some(level), true) => Elevated::from_level(level),
            _ => Elevated::Off,
        }
    }
}

impl Origin {
    /// What started the run a session context describes: a spawned sub-agent's run answers no
    /// message (the gateway starts it without an elevated grant); otherwise the message the
    /// context's channel and sender flags describe.
    pub fn of_context(ctx: &SessionContext) -> Self {
        if ctx.requester.is_some() || ctx.spawned_by.is_some() {
            Origin::Detached("spawned sub-agent".into())
        } else {
            Origin::Message(Inbound::of_context(ctx))
        }
    }
}

impl Inbound {
    /// The message a session context describes (`--channel`, `--sender`, `--account` …).
    pub fn of_context(ctx: &SessionContext) -> Self {
        Inbound {
            provider: ctx.message_provider.clone(),
            sender_id: ctx.sender_id.clone(),
            sender_e164: ctx.sender_e164.clone(),
            sender_name: ctx.sender_name.clone(),
            sender_username: ctx.sender_username.clone(),
            account_id: ctx.account_id.clone(),
            ..Inbound::default()
        }
    }
}

/// The gates of `agent_id`'s session for a run of `origin`, as `version` checks them.
pub fn evaluate(config: &Value, version: OpenClawVersion, agent_id: &str, origin: &Origin) -> ElevatedGates {
    let rules = &version.exec().elevated;
    let global = ElevatedBlock::global(config);
    let agent = find_agent(config, version, &normalize_agent_id(agent_id)).map(|entry| ElevatedBlock::of_agent(&entry));
    let agent_label = |key: &str| format!("{}.{key}", rules.agent_scope_label);
    let mut out = ElevatedGates {
        enabled: false,
        allowed: false,
        channel: None,
        failures: Vec::new(),
        admitted_by: Vec::new(),
        default_level: None,
        default_level_path: None,
        notes: Vec::new(),
    };
    let inbound = match origin {
        Origin::Detached(kind) => {
            // The exec tool then reports the enabled gates, in the release's words.
            out.failures.push(GateFailure {
                gate: Gate::Run,
                key: format!("tools.elevated.enabled / {}", agent_label("tools.elevated.enabled")),
                path: None,
                why: format!("a {kind} run answers no message, so exec is given no elevated grant"),
                fix: "none in config: elevated exec needs a chat turn from an allowed sender".into(),
                add_entry: None,
            });
            return out;
        }
        Origin::Message(inbound) => inbound,
    };
    let channel = inbound.provider.as_deref().map(|p| js_trim(p).to_lowercase()).unwrap_or_default();
    out.channel = Some(channel.clone()).filter(|c| !c.is_empty());
    for (block, label) in
        [(Some(&global), "tools.elevated.enabled".to_string()), (agent.as_ref(), agent_label("tools.elevated.enabled"))]
    {
        let Some(block) = block else { continue };
        if switched_off(block.enabled().as_ref()) {
            out.failures.push(GateFailure {
                gate: Gate::Enabled,
                key: label,
                path: Some(block.enabled_path()),
                why: "elevated mode is switched off here".into(),
                fix: format!("delete `{}` (or set it to true)", block.enabled_path()),
                add_entry: None,
            });
        }
    }
    out.enabled = out.failures.is_empty();
    if !out.enabled {
        return out;
    }
    if channel.is_empty() {
        out.failures.push(GateFailure {
            gate: Gate::Provider,
            key: "ctx.Provider".into(),
            path: None,
            why: "the message names no channel".into(),
            fix: "none in config: only a message that arrived on a channel can be elevated".into(),
            add_entry: None,
        });
        return out;
    }
    let channel_rules = rules.channels.get(&channel);
    if channel_rules.is_none() && rules.external_channels.contains(&channel) {
        out.notes.push(format!(
            "the {channel} channel plugin is published apart from OpenClaw {}: its allowFrom formatting is not simulated; entries are compared as written (trimmed, case-insensitively)",
            version.id()
        ));
    }
    let formatter = Formatter { steps: channel_rules.map_or(&[], |c| c.format.as_slice()) };
    let fallback = channel_rules.and_then(|c| first_set(config, &c.fallback_allow_from));
    let sender = Sender::new(rules, formatter, inbound);
    let checks = [
        (Some(&global), "tools.elevated.allowFrom".to_string()),
        (agent.as_ref(), agent_label("tools.elevated.allowFrom")),
    ];
    for (i, (block, label)) in checks.into_iter().enumerate() {
        let Some(block) = block else { continue };
        let allow_from = block.allow_from();
        // The agent's list is a gate only when the agent has an `allowFrom` at all.
        if i == 1 && !allow_from.as_ref().is_some_and(|l| js_truthy(l.value)) {
            continue;
        }
        let (path, list) = allow_list(allow_from.as_ref(), block, &channel, fallback.as_ref());
        let entries = list.map(|l| entries_of(l)).unwrap_or_default();
        let verdict = sender.check(&entries);
        if verdict.allows() {
            out.admitted_by.push(Admission { path, verdict });
            continue;
        }
        out.failures.push(allow_from_failure(
            format!("{label}.{channel}"),
            path,
            &channel,
            list.map(|_| entries.as_slice()),
            &verdict,
            inbound,
            &sender,
        ));
        // A global miss ends the check, as in the release.
        return out;
    }
    out.allowed = true;
    let configured = elevated_default(config);
    out.default_level = Some(configured.as_ref().and_then(Located::as_str).unwrap_or(&rules.default_level).to_string());
    out.default_level_path = configured.map(|l| l.path);
    out
}

/// `resolveElevatedAllowList`: the channel's list in `allowFrom`, else the channel's fallback
/// list; with the path of the list used (or where the channel's list would be written).
fn allow_list<'a>(
    allow_from: Option<&Located<'a>>,
    block: &ElevatedBlock<'a>,
    channel: &str,
    fallback: Option<&Located<'a>>,
) -> (KeyPath, Option<&'a Vec<Value>>) {
    let own = allow_from.filter(|l| js_truthy(l.value)).and_then(|l| l.member(channel)).filter(|l| l.value.is_array());
    match own.or_else(|| fallback.filter(|l| l.value.is_array()).cloned()) {
        Some(list) => (list.path.clone(), list.value.as_array()),
        None => (block.allow_from_path(channel), None),
    }
}

/// The entries as the release reads them: `String(entry)`, trimmed, blanks dropped.
fn entries_of(list: &[Value]) -> Vec<String> {
    list.iter().map(|v| js_trim(&js_string(v)).to_string()).filter(|v| !v.is_empty()).collect()
}

fn allow_from_failure(
    key: String,
    path: KeyPath,
    channel: &str,
    entries: Option<&[String]>,
    verdict: &Verdict,
    inbound: &Inbound,
    sender: &Sender<'_>,
) -> GateFailure {
    let listed = entries.is_some();
    let who = describe_sender(inbound);
    let quoted = |entry: &str| serde_json::to_string(entry).unwrap_or_default();
    let shown: Vec<String> = entries.unwrap_or_default().iter().take(5).map(|e| quoted(e)).collect();
    let more = entries.map_or(0, |e| e.len().saturating_sub(shown.len()));
    let list = if more > 0 { format!("{} and {more} more", shown.join(", ")) } else { shown.join(", ") };
    let why = match (listed, verdict) {
        (false, _) => format!("no list for `{channel}`, so no sender on it is allowed"),
        (true, Verdict::Empty) => "the list is empty".to_string(),
        _ if sender.is_anonymous() => format!(
            "the message carries no sender identity ({}), so only \"*\" would match",
            if channel == "webchat" { "the Control UI sends none" } else { "no id, phone number or name" }
        ),
        _ => format!("no entry names the sender ({who}); the list has {list}"),
    };
    let entry = suggested_entry(inbound, sender);
    let fix = match &entry {
        Some(entry) => format!("add {} to `{path}`", quoted(entry)),
        None => format!("add \"*\" to `{path}` (everyone on {channel})"),
    };
    let add_entry = Some(entry.unwrap_or_else(|| "*".to_string()));
    GateFailure { gate: Gate::AllowFrom, key, path: Some(path), why, fix, add_entry }
}

/// The sender's facts, for a human.
fn describe_sender(inbound: &Inbound) -> String {
    let facts: Vec<String> = [
        ("id", &inbound.sender_id),
        ("from", &inbound.from),
        ("e164", &inbound.sender_e164),
        ("name", &inbound.sender_name),
        ("username", &inbound.sender_username),
        ("tag", &inbound.sender_tag),
    ]
    .into_iter()
    .filter_map(|(field, value)| {
        value.as_deref().map(js_trim).filter(|v| !v.is_empty()).map(|v| format!("{field} {v}"))
    })
    .collect();
    if facts.is_empty() { "no identity".into() } else { facts.join(", ") }
}

/// The narrowest entry that names this sender and that the release would match: an explicit
/// `id:`, else the phone number, the username, the name (mutable labels last).
fn suggested_entry(inbound: &Inbound, sender: &Sender<'_>) -> Option<String> {
    let candidates = [
        ("id", &inbound.sender_id),
        ("e164", &inbound.sender_e164),
        ("username", &inbound.sender_username),
        ("name", &inbound.sender_name),
    ];
    candidates
        .into_iter()
        .filter_map(|(field, value)| {
            value.as_deref().map(js_trim).filter(|v| !v.is_empty()).map(|v| format!("{field}:{v}"))
        })
        .find(|entry| sender.check(std::slice::from_ref(entry)).allows())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn telegram(sender: &str) -> Origin {
        Origin::Message(Inbound {
            provider: Some("telegram".into()),
            sender_id: Some(sender.into()),
            ..Inbound::default()
        })
    }

    #[test]
    fn a_run_without_a_message_gets_no_grant() {
        let config = json!({"tools": {"elevated": {"allowFrom": {"telegram": ["*"]}}}});
        let gates = evaluate(&config, OpenClawVersion::V2026_9, "main", &Origin::Detached("cron".into()));
        assert!(!gates.allowed);
        assert_eq!(gates.failures[0].gate, Gate::Run);
        assert_eq!(gates.session_level(), Elevated::Off);
    }

    #[test]
    fn a_spawned_sub_agent_run_is_detached() {
        let run = SessionContext {
            message_provider: Some("telegram".into()),
            sender_id: Some("1".into()),
            ..SessionContext::default()
        };
        assert!(matches!(Origin::of_context(&run), Origin::Message(_)));
        let child = crate::policy::spawn::spawned_by(run, "main").unwrap();
        assert_eq!(Origin::of_context(&child), Origin::Detached("spawned sub-agent".into()));
    }

    #[test]
    fn an_allowed_sender_starts_at_the_default_level() {
        let config = json!({"tools": {"elevated": {"allowFrom": {"telegram": ["tg:1"]}}}});
        let gates = evaluate(&config, OpenClawVersion::V2026_9, "main", &telegram("1"));
        assert!(gates.allowed);
        assert_eq!(gates.session_level(), Elevated::Ask);
        let full = json!({"agents": {"defaults": {"elevatedDefault": "full"}}, "tools": {"elevated": {"allowFrom": {"telegram": ["*"]}}}});
        let gates = evaluate(&full, OpenClawVersion::V2026_9, "main", &telegram("2"));
        assert_eq!(gates.session_level(), Elevated::Full);
        assert_eq!(gates.default_level_path.unwrap().to_string(), "agents.defaults.elevatedDefault");
    }

    #[test]
    fn the_suggested_edit_opens_the_gate() {
        // Telegram lowercases; the suggested `id:` entry must match after formatting.
        let config = json!({"tools": {"elevated": {"allowFrom": {"telegram": ["tg:1"]}}}});
        let gates = evaluate(&config, OpenClawVersion::V2026_9, "main", &telegram("TG:ABC"));
        let failure = &gates.failures[0];
        assert_eq!(failure.path.as_ref().unwrap().to_string(), "tools.elevated.allowFrom.telegram");
        assert_eq!(failure.fix, "add \"id:TG:ABC\" to `tools.elevated.allowFrom.telegram`");
        let opened = json!({"tools": {"elevated": {"allowFrom": {"telegram": ["tg:1", "id:TG:ABC"]}}}});
        assert!(evaluate(&opened, OpenClawVersion::V2026_9, "main", &telegram("TG:ABC")).allowed);
    }

    proptest::proptest! {
        /// The edit a failing allowFrom gate suggests opens it, on every release and channel, and
        /// `"*"` admits everyone (the release checks it before any sender field).
        #[test]
        fn the_suggested_entry_opens_the_gate(
            channel in proptest::sample::select(vec!["telegram", "whatsapp", "discord", "signal", "slack", "reef", "webchat", "irc"]),
            id in proptest::option::of("[ -~]{0,12}"),
            e164 in proptest::option::of("\\+?[0-9 ()-]{0,12}"),
            name in proptest::option::of("[ -~é]{0,12}"),
            listed in proptest::collection::vec("[ -~]{0,10}", 0..4),
            legacy in proptest::bool::ANY,
        ) {
            let version = if legacy { OpenClawVersion::V2026_2 } else { OpenClawVersion::V2026_9 };
            let inbound = Inbound {
                provider: Some(channel.to_string()),
                sender_id: id,
                sender_e164: e164,
                sender_name: name,
                ..Inbound::default()
            };
            let origin = Origin::Message(inbound);
            let config = json!({"tools": {"elevated": {"allowFrom": {channel: listed.clone()}}}});
            let gates = evaluate(&config, version, "main", &origin);
            if let Some(entry) = gates.failures.first().and_then(|f| f.add_entry.as_deref()) {
                let mut opened = listed.clone();
                opened.push(entry.to_string());
                let config = json!({"tools": {"elevated": {"allowFrom": {channel: opened}}}});
                proptest::prop_assert!(evaluate(&config, version, "main", &origin).allowed, "{entry}");
            }
            let mut everyone = listed;
            everyone.push(" * ".to_string());
            let config = json!({"tools": {"elevated": {"allowFrom": {channel: everyone}}}});
            proptest::prop_assert!(evaluate(&config, version, "main", &origin).allowed);
        }
    }

    #[test]
    fn release_labels_for_the_agent_scope() {
        let list = json!({"agents": {"list": [{"id": "main", "tools": {"elevated": {"enabled": false}}}]}});
        let gates = evaluate(&list, OpenClawVersion::V2026_2, "main", &telegram("1"));
        assert_eq!(gates.failures[0].key, "agents.list[].tools.elevated.enabled");
        assert_eq!(gates.failures[0].path.as_ref().unwrap().to_string(), "agents.list[0].tools.elevated.enabled");
    }
}
