//! The audit's trust-model checks: signs that several people share the gateway (open or
//! allowlisted group policies, `"*"` in sender lists), group rooms routed into an agent's main
//! session (globally or by a route binding that wins routing), and agents that can read each
//! other's sessions. The channel `groupPolicy` defaults the release's loader adds are release data
//! (`data/<release>/audit.json`), and 2026.9 reads each account merged over its channel.

use crate::release::lint::AccountSettings;
use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::audit::{agent_tool_context, audit_rule, lists};
use super::exposure::risky_contexts;
use super::walk::agents;
use crate::config::path::KeyPath;
use crate::config::view::ids::{normalize_account_id, normalize_channel};
use crate::config::view::keys;
use crate::lint::{Emitter, LintContext, Rule, Severity};

pub const RULES: &[Rule] = &[
    audit_rule!(Exposure, "CP605", "multi-user-gateway", Security, "security.trust_model.multi_user_heuristic",
        multi_user,
        summary: "Signs that several people can reach the gateway: an open group or DM policy, an allowlist group \
                  policy (written or the loader's default) with groups configured, `\"*\"` in a sender list.",
        why: "OpenClaw's security model is one trusted operator per gateway. Users who reach the same agents share \
              its tools, files and credentials.",
        example: "channels: { telegram: { groupPolicy: \"allowlist\", groups: { \"-100123\": {} } } }",
        fix: "Run one gateway per trust boundary; if sharing is intended, use sandbox mode `all`, \
              `tools.fs.workspaceOnly`, and deny runtime/fs/web tools.",
    ),
    audit_rule!(Exposure, "CP606", "group-scope-main", Security, "security.trust_model.group_scope_main", group_scope_main,
        summary: "Group rooms share the agent's main session: `session.groupScope` is `main`, or a route binding \
                  that wins routing for group traffic sets `session.groupScope: \"main\"`.",
        why: "Every member of every such room sees and steers the same context as the owner's direct chat.",
        example: "session: { groupScope: \"main\" }",
        fix: "Use `session.groupScope: \"per-group\"` and drop binding overrides, or keep `main` only for rooms whose \
              members you trust.",
    ),
    audit_rule!(Exposure, "CP608", "cross-agent-session-access", Security,
        "security.trust_model.cross_agent_session_access_default", cross_agent_sessions,
        summary: "Several agents, session tools visible Gateway-wide (`tools.sessions.visibility` `all`, the default) \
                  and agent-to-agent access on without an allowlist: agents can read each other's sessions.",
        why: "Any agent with session tools outside a clamped sandbox reads every other agent's transcripts, including \
              other users'. It is a warning when sandboxing, agent tool restrictions or shared-user channels suggest \
              different trust levels, otherwise a note.",
        example: "// OpenClaw 2026.9, 2026.8:\nagents: { ownership: \"explicit\", defaults: { systemAgent: { agentId: \"main\" } }, entries: { main: {}, work: {} } }\n\
                  // OpenClaw 2026.2:\nagents: { list: [{ id: \"main\" }, { id: \"work\" }] }",
        fix: "Set `tools.sessions.visibility` to `agent`, `tree` or `self`, restrict `tools.agentToAgent.allow`, or set \
              `tools.agentToAgent.enabled: false`.",
    ),
];

/// A setting of a section as the audit sees it: its value, and where it is written (`None`: the
/// loader's default).
type Setting = (Value, Option<KeyPath>);

/// A channel section or account as the audit inspects it: loader defaults applied and, in 2026.9,
/// an account's settings merged over its channel's.
struct Section {
    path: KeyPath,
    settings: Vec<(String, Setting)>,
}

impl Section {
    /// The last setting of `key` (an account's own settings come after its channel's).
    fn get(&self, key: &str) -> Option<&Setting> {
        self.settings.iter().rev().find(|(k, _)| k == key).map(|(_, s)| s)
    }

    fn text(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(|(v, _)| v.as_str())
    }

    /// Where a signal about `key` points: where it is written, else the section.
    fn at(&self, key: &str) -> KeyPath {
        self.get(key).and_then(|(_, p)| p.clone()).unwrap_or_else(|| self.path.clone())
    }
}

/// A section's own settings, with the loader's `groupPolicy` default when it writes none.
fn own_settings(map: &Map<String, Value>, path: &KeyPath, default: Option<&str>) -> Vec<(String, Setting)> {
    let mut settings: Vec<(String, Setting)> = Vec::new();
    if let Some(policy) = default.filter(|_| !map.contains_key(keys::GROUP_POLICY)) {
        settings.push((keys::GROUP_POLICY.into(), (Value::String(policy.into()), None)));
    }
    settings.extend(map.iter().map(|(k, v)| (k.clone(), (v.clone(), Some(path.key(k))))));
    settings
}

/// Every channel section and account under `channels`, as the multi-user check reads them.
fn sections(ctx: &LintContext<'_>) -> Vec<Section> {
    let defaults = &lists(ctx.version).channel_group_policy_defaults;
    let mut out = Vec::new();
    for (id, channel) in ctx.get(&[keys::CHANNELS]).and_then(Value::as_object).into_iter().flatten() {
        let Some(channel) = channel.as_object() else { continue };
        let path = KeyPath::keys(&[keys::CHANNELS, id]);
        let default = defaults.get(id.as_str());
        let channel_settings = own_settings(channel, &path, default.and_then(|d| d.channel.as_deref()));
        let mut accounts = Vec::new();
        for (account, value) in channel.get(keys::ACCOUNTS).and_then(Value::as_object).into_iter().flatten() {
            let Some(account_map) = value.as_object() else { continue };
            let account_path = path.key(keys::ACCOUNTS).key(account);
            let own = own_settings(account_map, &account_path, default.and_then(|d| d.account.as_deref()));
            let settings = match ctx.version.lint().account_settings {
                AccountSettings::OverChannel => {
                    let inherited = channel_settings.iter().filter(|(k, _)| k != keys::ACCOUNTS).cloned();
                    inherited.chain(own).collect()
                }
                AccountSettings::Own => own,
            };
            accounts.push(Section { path: account_path, settings });
        }
        out.push(Section { path, settings: channel_settings });
        out.extend(accounts);
    }
    out
}

fn has_group_targets(section: &Section) -> bool {
    ["groups", "guilds", "channels", "rooms"].iter().any(|key| match section.get(key) {
        Some((Value::Object(map), _)) => !map.is_empty(),
        Some((Value::Array(items), _)) => !items.is_empty(),
        _ => false,
    })
}

/// `String(entry).trim() === "*"`.
fn wildcard(list: Option<&Value>) -> bool {
    list.and_then(Value::as_array).into_iter().flatten().any(|entry| match entry {
        Value::String(s) => s.trim() == "*",
        _ => false,
    })
}

/// `listPotentialMultiUserSignals`: (where, what) for each signal, de-duplicated by text.
pub fn multi_user_signals(ctx: &LintContext<'_>) -> Vec<(KeyPath, String)> {
    let mut seen = BTreeSet::new();
    let mut signals = Vec::new();
    for section in sections(ctx) {
        let name = crate::config::path::dotted(section.path.segments());
        let mut add = |path: KeyPath, what: String| {
            if seen.insert(format!("{name}.{what}")) {
                signals.push((path, format!("{name}: {what}")));
            }
        };
        match section.text(keys::GROUP_POLICY) {
            Some("open") => add(section.at(keys::GROUP_POLICY), "groupPolicy is open".into()),
            Some("allowlist") if has_group_targets(&section) => {
                add(section.at(keys::GROUP_POLICY), "groupPolicy is allowlist with group targets".into())
            }
            _ => {}
        }
        if section.text(keys::DM_POLICY) == Some("open") {
            add(section.at(keys::DM_POLICY), "dmPolicy is open".into());
        }
        for key in ["allowFrom", "groupAllowFrom"] {
            if wildcard(section.get(key).map(|(v, _)| v)) {
                add(section.at(key), format!("{key} includes \"*\""));
            }
        }
        if let Some((dm @ Value::Object(_), dm_path)) = section.get(keys::DM).cloned() {
            let dm_at = |key: &str| dm_path.as_ref().map_or_else(|| section.path.clone(), |p| p.key(key));
            if dm.get(keys::POLICY).and_then(Value::as_str) == Some("open") {
                add(dm_at(keys::POLICY), "dm.policy is open".into());
            }
            if wildcard(dm.get(keys::ALLOW_FROM)) {
                add(dm_at(keys::ALLOW_FROM), "dm.allowFrom includes \"*\"".into());
            }
        }
    }
    signals
}

fn multi_user(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let signals = multi_user_signals(ctx);
    if signals.is_empty() {
        return;
    }
    let (risky, runtime_risk) = risky_contexts(ctx);
    let impact = if runtime_risk {
        "runtime tools are exposed without a full sandbox".to_string()
    } else if risky.is_empty() {
        "no unguarded runtime or filesystem tools".to_string()
    } else {
        format!(
            "unguarded file tools in {}",
            risky.iter().map(|(c, _)| c.label.as_str()).collect::<Vec<_>>().join(", ")
        )
    };
    for (path, what) in signals {
        out.report(&path, format!("{what}: this gateway may be shared by several users ({impact})")).help(
            "run one gateway per trust boundary, or use sandbox mode `all`, fs.workspaceOnly and no runtime tools",
        );
    }
}

/// A route binding's match, normalized as the router reads it.
struct RouteMatch {
    channel: String,
    /// `*` or a normalized account id.
    account: String,
    peer: Peer,
    guild: Option<String>,
    team: Option<String>,
    roles: Option<Vec<String>>,
}

#[derive(Clone, PartialEq)]
enum Peer {
    None,
    Invalid,
    /// A kind with id `*`.
    AnyOf(String),
    Exact(String, String),
}

/// `normalizeRouteBindingId`: strings and numbers, trimmed.
fn binding_id(value: Option<&Value>) -> Option<String> {
    let text = match value? {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    (!text.is_empty()).then_some(text)
}

/// `normalizeChatType`.
fn chat_type(value: Option<&Value>) -> Option<String> {
    match value?.as_str()?.trim().to_lowercase().as_str() {
        "direct" | "dm" => Some("direct".into()),
        kind @ ("group" | "channel") => Some(kind.into()),
        _ => None,
    }
}

impl RouteMatch {
    fn read(binding: &Value) -> Option<Self> {
        if binding.get(keys::TYPE).and_then(Value::as_str) == Some("acp") {
            return None;
        }
        let matcher = binding.get(keys::MATCH)?;
        let channel = matcher.get(keys::CHANNEL)?.as_str()?.trim().to_lowercase();
        if channel.is_empty() {
            return None;
        }
        let pattern = matcher.get(keys::ACCOUNT_ID).and_then(Value::as_str).unwrap_or_default().trim();
        let peer = match matcher.get(keys::PEER) {
            None | Some(Value::Null) => Peer::None,
            Some(peer) => match (chat_type(peer.get(keys::KIND)), binding_id(peer.get(keys::ID))) {
                (Some(kind), Some(id)) if id == "*" => Peer::AnyOf(kind),
                (Some(kind), Some(id)) => Peer::Exact(kind, id),
                _ => Peer::Invalid,
            },
        };
        let roles = matcher.get(keys::ROLES).and_then(Value::as_array).filter(|r| !r.is_empty());
        Some(RouteMatch {
            channel,
            account: if pattern == "*" { "*".into() } else { normalize_account_id(pattern) },
            peer,
            guild: binding_id(matcher.get(keys::GUILD_ID)),
            team: binding_id(matcher.get(keys::TEAM_ID)),
            roles: roles.map(|r| r.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), String::from)).collect()),
        })
    }
}

/// A synthetic conversation the router is asked about.
struct Probe<'p> {
    peer: (String, String),
    guild: Option<&'p str>,
    team: Option<&'p str>,
    roles: Vec<String>,
}

fn kinds_match(binding: &str, scope: &str) -> bool {
    binding == scope || matches!((binding, scope), ("group", "channel") | ("channel", "group"))
}

/// `matchesBindingScope`.
fn matches_scope(m: &RouteMatch, probe: &Probe<'_>) -> bool {
    let peer_ok = match &m.peer {
        Peer::Exact(kind, id) => kinds_match(kind, &probe.peer.0) && *id == probe.peer.1,
        Peer::AnyOf(kind) => kinds_match(kind, &probe.peer.0),
        _ => true,
    };
    let id_ok =
        |constraint: &Option<String>, exact: Option<&str>| constraint.as_deref().is_none_or(|c| Some(c) == exact);
    peer_ok
        && id_ok(&m.guild, probe.guild)
        && id_ok(&m.team, probe.team)
        && m.roles.as_ref().is_none_or(|roles| roles.iter().any(|r| probe.roles.contains(r)))
}

/// The index of the binding the router picks for `probe` on `channel`/`account`
/// (`resolveAgentRoute`'s tiers over the bindings of that channel and account, in order).
fn routed(matches: &[(usize, RouteMatch)], channel: &str, account: &str, probe: &Probe<'_>) -> Option<usize> {
    let scoped: Vec<&(usize, RouteMatch)> = matches
        .iter()
        .filter(|(_, m)| m.channel == channel && m.peer != Peer::Invalid && (m.account == "*" || m.account == account))
        .collect();
    let peer_key = |kind: &str, id: &str| format!("{}:{id}", if kind == "channel" { "group" } else { kind });
    type Tier<'t> = Box<dyn Fn(&RouteMatch) -> bool + 't>;
    let tiers: Vec<Tier<'_>> = vec![
        Box::new(
            |m| matches!(&m.peer, Peer::Exact(k, id) if peer_key(k, id) == peer_key(&probe.peer.0, &probe.peer.1)),
        ),
        Box::new(|m| matches!(m.peer, Peer::AnyOf(_))),
        Box::new(|m| {
            m.peer == Peer::None
                && probe.guild.is_some()
                && !probe.roles.is_empty()
                && m.roles.is_some()
                && m.guild.as_deref() == probe.guild
        }),
        Box::new(|m| {
            m.peer == Peer::None && probe.guild.is_some() && m.roles.is_none() && m.guild.as_deref() == probe.guild
        }),
        Box::new(|m| {
            m.peer == Peer::None && m.guild.is_none() && probe.team.is_some() && m.team.as_deref() == probe.team
        }),
        Box::new(|m| m.peer == Peer::None && m.guild.is_none() && m.team.is_none() && m.account != "*"),
        Box::new(|m| m.peer == Peer::None && m.guild.is_none() && m.team.is_none() && m.account == "*"),
    ];
    tiers.iter().find_map(|in_tier| scoped.iter().find(|(_, m)| in_tier(m) && matches_scope(m, probe)).map(|(i, _)| *i))
}

/// `listEffectiveGroupRouteBindings`: the bindings (by index in `bindings`) that win routing for
/// at least one group or channel conversation.
fn effective_group_route_bindings(config: &Value) -> Vec<usize> {
    let list = config.get(keys::BINDINGS).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let matches: Vec<(usize, RouteMatch)> =
        list.iter().enumerate().filter_map(|(i, b)| Some((i, RouteMatch::read(b)?))).collect();
    let mut used: BTreeSet<String> = matches.iter().map(|(_, m)| m.account.clone()).collect();
    for (_, m) in &matches {
        if let Peer::Exact(_, id) = &m.peer {
            used.insert(id.clone());
        }
        used.extend(m.guild.iter().chain(&m.team).cloned());
    }
    let mut sentinel = "openclaw-audit-route".to_string();
    while used.contains(&sentinel) {
        sentinel.push_str("-next");
    }
    matches
        .iter()
        .filter(|(index, m)| {
            let peer = match &m.peer {
                Peer::Invalid => return false,
                Peer::Exact(kind, _) | Peer::AnyOf(kind) if kind == "direct" => return false,
                Peer::Exact(kind, id) => (kind.clone(), id.clone()),
                Peer::AnyOf(kind) => (kind.clone(), sentinel.clone()),
                Peer::None => ("group".into(), sentinel.clone()),
            };
            let account = if m.account == "*" { normalize_account_id(&sentinel) } else { m.account.clone() };
            let role_sets: Vec<Vec<String>> = match &m.roles {
                Some(roles) => roles.iter().map(|r| vec![r.clone()]).collect(),
                None => vec![Vec::new()],
            };
            role_sets.into_iter().any(|roles| {
                let probe = Probe { peer: peer.clone(), guild: m.guild.as_deref(), team: m.team.as_deref(), roles };
                routed(&matches, &m.channel, &account, &probe) == Some(*index)
            })
        })
        .map(|(index, _)| *index)
        .collect()
}

fn group_scope_main(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let path = KeyPath::keys(&[keys::SESSION, keys::GROUP_SCOPE]);
    if path.lookup(ctx.config()).and_then(Value::as_str) == Some("main") {
        out.report(&path, "every group room shares the agent's main session")
            .help("use `per-group`, or keep `main` only for rooms whose members you trust");
    }
    for index in effective_group_route_bindings(ctx.config()) {
        let binding = KeyPath::keys(&[keys::BINDINGS]).index(index);
        let scope = binding.key(keys::SESSION).key(keys::GROUP_SCOPE);
        if scope.lookup(ctx.config()).and_then(Value::as_str) != Some("main") {
            continue;
        }
        let channel = binding
            .key(keys::MATCH)
            .key(keys::CHANNEL)
            .lookup(ctx.config())
            .and_then(Value::as_str)
            .unwrap_or_default();
        out.report(
            &scope,
            format!("group rooms this binding routes ({}) share the agent's main session", normalize_channel(channel)),
        )
        .help("drop the binding's `session.groupScope` override, or keep it only for rooms whose members you trust");
    }
}

/// The session tools whose reach the cross-agent check looks at.
const SESSION_TOOLS: &[&str] =
    &["sessions_list", "sessions_history", "sessions_search", "sessions_send", "session_status"];

fn cross_agent_sessions(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let roster = agents(ctx);
    let mut ids: Vec<String> = Vec::new();
    for agent in roster {
        if !ids.contains(&agent.id) {
            ids.push(agent.id.clone());
        }
    }
    let visibility = ctx
        .get(&[keys::TOOLS, keys::SESSIONS, keys::VISIBILITY])
        .and_then(Value::as_str)
        .map(|v| v.trim().to_lowercase());
    let a2a = |key: &str| ctx.get(&[keys::TOOLS, keys::AGENT_TO_AGENT, key]);
    let a2a_allow = a2a(keys::ALLOW).and_then(Value::as_array).is_some_and(|a| !a.is_empty());
    if ids.len() < 2
        || visibility.as_deref().unwrap_or("all") != "all"
        || a2a(keys::ENABLED) == Some(&Value::Bool(false))
        || a2a_allow
    {
        return;
    }
    let clamp = ctx
        .get(&[keys::AGENTS, keys::DEFAULTS, keys::SANDBOX, keys::SESSION_TOOLS_VISIBILITY])
        .and_then(Value::as_str)
        .unwrap_or("spawned");
    let mut reachers = Vec::new();
    let mut signals = 0usize;
    for agent in roster {
        let Some(context) = agent_tool_context(ctx, &agent.id, None) else { continue };
        if context.sandbox_mode != "off" {
            signals += 1;
        }
        let restricted = context
            .agent_tools
            .as_ref()
            .is_some_and(|t| ["profile", "allow", "deny"].iter().any(|k| t.get(k).is_some()));
        signals += usize::from(restricted);
        let allowed = context.allowed(SESSION_TOOLS);
        if (context.sandbox_mode != "all" || clamp == "all") && !allowed.is_empty() {
            reachers.push(format!("{} ({})", agent.id, allowed.join(", ")));
        }
    }
    if reachers.is_empty() {
        return;
    }
    signals += multi_user_signals(ctx).len();
    let severity = if signals > 0 { Severity::Security } else { Severity::Suggestion };
    let at = if ctx.get(&[keys::TOOLS, keys::SESSIONS, keys::VISIBILITY]).is_some() {
        KeyPath::keys(&[keys::TOOLS, keys::SESSIONS, keys::VISIBILITY])
    } else {
        KeyPath::keys(&[keys::TOOLS])
    };
    out.report(
        &at,
        format!(
            "agents {} share Gateway-wide session access; these can read the others' sessions: {}",
            ids.join(", "),
            reachers.join("; ")
        ),
    )
    .severity(severity)
    .help("set `tools.sessions.visibility` to `agent`, `tree` or `self`, or restrict `tools.agentToAgent`");
}
