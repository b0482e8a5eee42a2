//! Who can message an agent: every inbound route a config opens, the agent and session it lands
//! in, and its audience.
//!
//! Each channel (and each of its accounts) opens a DM route unless its DM policy is `disabled`,
//! and group routes by its group policy: any group when it is `open`, the groups listed under
//! `groups` when it is `allowlist`. Slack's `channels.slack.channels.<id>` and Discord's
//! `channels.discord.guilds.<id>[.channels.<id>]` are routes of their own. A route goes to the
//! agent OpenClaw's router picks (a binding for that peer, guild or team, else an account-wide or
//! channel-wide binding, else the default agent) and lands in the session key that
//! `session.dmScope` / `session.groupScope` (or the binding's own `session`) give it. A sender
//! who comes in through a channel is not the owner unless `commands.ownerAllowFrom` names them.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value;

use super::channels;
use super::session::SessionScopes;
use crate::config::path::KeyPath;

/// How wide the circle of senders is, narrowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reach {
    /// No inbound route reaches the session as configured.
    Unreachable,
    /// Only the owner: the gateway's own UI and CLI.
    Owner,
    /// The senders an allowlist names.
    Allowlisted,
    /// Senders the owner approves at runtime by pairing (plus the pre-approved ones).
    Paired,
    /// Whoever is a member of the listed groups.
    Members,
    /// Anyone who can message the bot.
    Anyone,
}

impl Reach {
    pub fn as_str(self) -> &'static str {
        match self {
            Reach::Unreachable => "unreachable",
            Reach::Owner => "owner",
            Reach::Allowlisted => "allowlisted",
            Reach::Paired => "paired",
            Reach::Members => "members",
            Reach::Anyone => "anyone",
        }
    }
}

/// Who can send messages into a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Audience {
    pub reach: Reach,
    /// Who exactly, at that reach: allowlisted senders (`telegram:123`), groups
    /// (`telegram group -100`), or the channels that pair or are open (`telegram DMs`).
    pub principals: BTreeSet<String>,
}

impl Audience {
    pub fn unreachable() -> Self {
        Audience { reach: Reach::Unreachable, principals: BTreeSet::new() }
    }

    pub fn owner() -> Self {
        Audience { reach: Reach::Owner, principals: BTreeSet::new() }
    }

    fn of(reach: Reach, principal: String) -> Self {
        Audience { reach, principals: BTreeSet::from([principal]) }
    }

    /// The audience of a session reached both ways: the wider reach wins; at equal reach the
    /// principals add up.
    pub fn union(mut self, other: &Audience) -> Audience {
        match other.reach.cmp(&self.reach) {
            std::cmp::Ordering::Greater => other.clone(),
            std::cmp::Ordering::Equal => {
                self.principals.extend(other.principals.iter().cloned());
                self
            }
            std::cmp::Ordering::Less => self,
        }
    }

    /// Whether `self` lets in someone `before` did not: a wider reach, or at the same reach a
    /// sender, group or channel that was not there.
    pub fn widens(&self, before: &Audience) -> bool {
        self.reach > before.reach || (self.reach == before.reach && !self.principals.is_subset(&before.principals))
    }

    /// One phrase for people: `anyone (telegram DMs)`, `allowlisted senders telegram:1, telegram:2`.
    pub fn describe(&self) -> String {
        const SHOWN: usize = 4;
        let mut names: Vec<&str> = self.principals.iter().map(String::as_str).take(SHOWN).collect();
        let more = self.principals.len().saturating_sub(SHOWN);
        let more_text = format!("{more} more");
        if more > 0 {
            names.push(&more_text);
        }
        let list = names.join(", ");
        match self.reach {
            Reach::Unreachable => "nobody: no channel routes messages here".into(),
            Reach::Owner => "owner only".into(),
            Reach::Allowlisted => format!("allowlisted senders ({list})"),
            Reach::Paired => format!("paired senders ({list})"),
            Reach::Members => format!("group members ({list})"),
            Reach::Anyone => format!("anyone ({list})"),
        }
    }
}

/// The kind of conversation a route carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RouteKind {
    Direct,
    Group,
    Channel,
}

/// One way in: a channel account's DMs, a group, or a channel, and where it lands.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InboundRoute {
    pub channel: String,
    /// The channel account; `None` for a channel configured without `accounts`.
    pub account: Option<String>,
    pub kind: RouteKind,
    /// The group or channel id; `*` for any group; `None` for DMs.
    pub target: Option<String>,
    /// A specific sender the route is for (a peer binding); `None` for everyone it admits.
    pub peer: Option<String>,
    pub agent: String,
    pub session_key: String,
    pub audience: Audience,
    /// The setting that opens the route.
    pub opened_by: KeyPath,
    /// Whether `opened_by` is not written and the release's default applies.
    pub default_policy: bool,
    /// The binding that routes it here; `None`: the default agent.
    pub binding: Option<KeyPath>,
}

impl InboundRoute {
    /// `telegram DMs`, `telegram@work group -100`, `slack channel C123`, control characters of
    /// the config's ids made visible.
    pub fn label(&self) -> String {
        crate::base::escape::visible(&self.raw_label()).into_owned()
    }

    fn raw_label(&self) -> String {
        let channel = match &self.account {
            Some(account) => format!("{}@{account}", self.channel),
            None => self.channel.clone(),
        };
        match (self.kind, &self.target, &self.peer) {
            (RouteKind::Direct, _, Some(peer)) => format!("{channel} DMs from {peer}"),
            (RouteKind::Direct, _, None) => format!("{channel} DMs"),
            (RouteKind::Group, Some(target), _) if target == "*" => format!("{channel} any group"),
            (RouteKind::Group, Some(target), _) => format!("{channel} group {target}"),
            (_, target, _) => format!("{channel} channel {}", target.as_deref().unwrap_or("*")),
        }
    }
}

/// The agents a route can go to.
#[derive(Debug, Clone)]
pub struct Roster<'a> {
    /// Configured agent ids, normalized.
    pub agents: &'a [String],
    /// The agent unbound traffic goes to; `None` when the release cannot pick one (an explicit
    /// multi-agent roster without a system agent fails closed).
    pub default_agent: Option<&'a str>,
}

/// An agent's main session key: `agent:<id>:<session.mainKey>`.
pub fn main_session_key(config: &Value, agent: &str) -> String {
    SessionScopes::read(config).main_session_key(agent)
}

/// Every inbound route of the config, channels in config order.
pub fn routes(config: &Value, roster: &Roster<'_>) -> Vec<InboundRoute> {
    let bindings = Bindings::read(config);
    let sessions = SessionScopes::read(config);
    let mut out = Vec::new();
    for (channel, section) in
        channels::sections(config).into_iter().filter(|(key, _)| !channels::holds_shared_settings(key))
    {
        if !section.value.is_object() || section.value.get("enabled") == Some(&Value::Bool(false)) {
            continue;
        }
        for scope in account_scopes(channel, section.value, &section.path) {
            let router = Router { config, roster, bindings: &bindings, sessions: &sessions, scope: &scope };
            router.direct_routes(&mut out);
            router.group_routes(&mut out);
        }
    }
    out
}

/// A channel account: its own settings, falling back to the channel's.
struct AccountScope<'a> {
    channel: String,
    account: Option<String>,
    own: &'a Value,
    own_path: KeyPath,
    /// The channel section, when `own` is an account under it.
    parent: Option<(&'a Value, KeyPath)>,
}

impl<'a> AccountScope<'a> {
    /// A setting of the account, else of the channel, with where it is written.
    fn setting(&self, key: &str) -> Option<(&'a Value, KeyPath)> {
        let own = self.own.get(key).filter(|v| !v.is_null()).map(|v| (v, self.own_path.key(key)));
        own.or_else(|| {
            let (parent, path) = self.parent.as_ref()?;
            parent.get(key).filter(|v| !v.is_null()).map(|v| (v, path.key(key)))
        })
    }

    /// A setting, or its legacy spelling nested under `dm` (`dm.policy`, `dm.allowFrom`).
    fn dm_setting(&self, key: &str, legacy: &str) -> Option<(&'a Value, KeyPath)> {
        self.setting(key).or_else(|| {
            let (dm, path) = self.setting("dm")?;
            dm.get(legacy).filter(|v| !v.is_null()).map(|v| (v, path.key(legacy)))
        })
    }

    fn account_id(&self) -> &str {
        self.account.as_deref().unwrap_or("default")
    }

    fn principal(&self, what: &str) -> String {
        match &self.account {
            Some(account) => format!("{}@{account} {what}", self.channel),
            None => format!("{} {what}", self.channel),
        }
    }
}

/// The accounts of a channel: each of `accounts` (merged over the channel's settings), or the
/// channel itself when it has none.
fn account_scopes<'a>(channel: &str, section: &'a Value, path: &KeyPath) -> Vec<AccountScope<'a>> {
    let channel = crate::config::view::ids::normalize_channel(channel);
    let accounts: Vec<(&String, &Value)> = section
        .get("accounts")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(_, account)| account.is_object() && account.get("enabled") != Some(&Value::Bool(false)))
        .collect();
    if accounts.is_empty() {
        return vec![AccountScope { channel, account: None, own: section, own_path: path.clone(), parent: None }];
    }
    accounts
        .into_iter()
        .map(|(name, account)| AccountScope {
            channel: channel.clone(),
            account: Some(name.clone()),
            own: account,
            own_path: path.key("accounts").key(name),
            parent: Some((section, path.clone())),
        })
        .collect()
}

/// Entries of a string list, trimmed, numbers written as text.
fn entries(value: Option<&Value>) -> Vec<String> {
    let items = value.and_then(Value::as_array).into_iter().flatten();
    items
        .filter_map(|v| match v {
            Value::String(s) => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// The audience a sender allowlist gives: anyone for `*`, else the listed senders.
fn allowlist_audience(channel: &str, list: &[String], otherwise: Audience) -> Audience {
    if list.iter().any(|e| e == "*") {
        return Audience::of(Reach::Anyone, format!("{channel} (allowFrom \"*\")"));
    }
    if list.is_empty() {
        return otherwise;
    }
    // An entry still holding `${VAR}` names nobody until the variable is set: say so.
    let principal = |e: &String| match e.contains("${") {
        true => format!("{channel}:{e} (unset variable)"),
        false => format!("{channel}:{e}"),
    };
    Audience { reach: Reach::Allowlisted, principals: list.iter().map(principal).collect() }
}

/// The session key of a conversation (`buildAgentPeerSessionKey`) under `session.*`, `binding`
/// being a route binding's own `session` scopes, if it has them.
fn session_key(
    scopes: &SessionScopes,
    agent: &str,
    scope: &AccountScope<'_>,
    kind: RouteKind,
    peer: &str,
    binding: Option<&Value>,
) -> String {
    let main = scopes.main_session_key(agent);
    let channel = &scope.channel;
    let peer = peer.to_lowercase();
    match kind {
        RouteKind::Direct => match scopes.dm_scope(binding) {
            "per-account-channel-peer" => format!("agent:{agent}:{channel}:{}:direct:{peer}", scope.account_id()),
            "per-channel-peer" => format!("agent:{agent}:{channel}:direct:{peer}"),
            "per-peer" => format!("agent:{agent}:direct:{peer}"),
            _ => main,
        },
        _ if scopes.group_scope(binding) == "main" => main,
        RouteKind::Group => format!("agent:{agent}:{channel}:group:{peer}"),
        RouteKind::Channel => format!("agent:{agent}:{channel}:channel:{peer}"),
    }
}

/// A `bindings[]` route entry, normalized as the router reads it.
struct Binding<'a> {
    path: KeyPath,
    agent: String,
    channel: String,
    /// `*`, or a normalized account id (`default` when absent).
    account: String,
    peer: Option<(RouteKind, String)>,
    guild: Option<String>,
    team: Option<String>,
    session: Option<&'a Value>,
}

struct Bindings<'a>(Vec<Binding<'a>>);

impl<'a> Bindings<'a> {
    fn read(config: &'a Value) -> Self {
        let list = config.get("bindings").and_then(Value::as_array).into_iter().flatten().enumerate();
        let bindings = list
            .filter(|(_, b)| b.get("type").and_then(Value::as_str) != Some("acp"))
            .filter_map(|(i, binding)| {
                let text = |v: Option<&Value>| v.and_then(Value::as_str).map(|s| s.trim().to_lowercase());
                let matcher = binding.get("match")?;
                let channel = text(matcher.get("channel")).filter(|c| !c.is_empty())?;
                let peer = match matcher.get("peer") {
                    Some(peer) => {
                        let kind = match text(peer.get("kind"))?.as_str() {
                            "direct" | "dm" => RouteKind::Direct,
                            "group" => RouteKind::Group,
                            "channel" => RouteKind::Channel,
                            _ => return None,
                        };
                        let id = match peer.get("id")? {
                            Value::Number(n) => n.to_string(),
                            other => other.as_str()?.trim().to_lowercase(),
                        };
                        if id.is_empty() {
                            return None;
                        }
                        Some((kind, id))
                    }
                    None => None,
                };
                let account = text(matcher.get("accountId")).filter(|a| !a.is_empty()).unwrap_or("default".into());
                Some(Binding {
                    path: KeyPath::keys(&["bindings"]).index(i),
                    agent: crate::config::view::ids::normalize_agent_id(binding.get("agentId")?.as_str()?),
                    channel: crate::config::view::ids::normalize_channel(&channel),
                    account,
                    peer,
                    guild: text(matcher.get("guildId")).filter(|g| !g.is_empty()),
                    team: text(matcher.get("teamId")).filter(|t| !t.is_empty()),
                    session: binding.get("session"),
                })
            })
            .collect();
        Bindings(bindings)
    }

    /// The bindings that apply to a channel account, in config order.
    fn for_scope<'s>(&'s self, scope: &'s AccountScope<'_>) -> impl Iterator<Item = &'s Binding<'a>> + 's {
        let account = scope.account_id().to_lowercase();
        self.0.iter().filter(move |b| b.channel == scope.channel && (b.account == "*" || b.account == account))
    }
}

/// A conversation a channel account admits, before it is routed.
struct Opening {
    kind: RouteKind,
    target: Option<String>,
    peer: Option<String>,
    audience: Audience,
    opened_by: KeyPath,
    default_policy: bool,
    /// The Discord guild the conversation is in (guild bindings route it).
    guild: Option<String>,
}

impl Opening {
    fn new(kind: RouteKind, audience: Audience, opened_by: KeyPath) -> Self {
        Opening { kind, target: None, peer: None, audience, opened_by, default_policy: false, guild: None }
    }

    fn target(self, target: &str) -> Self {
        Opening { target: Some(target.to_string()), ..self }
    }

    fn peer(self, peer: String) -> Self {
        Opening { peer: Some(peer), ..self }
    }

    fn guild(self, guild: String) -> Self {
        Opening { guild: Some(guild), ..self }
    }

    fn by_default(self, default_policy: bool) -> Self {
        Opening { default_policy, ..self }
    }
}

/// Sends a channel account's traffic to agents and session keys.
struct Router<'r, 'a> {
    config: &'a Value,
    roster: &'r Roster<'r>,
    bindings: &'r Bindings<'a>,
    sessions: &'r SessionScopes,
    scope: &'r AccountScope<'a>,
}

impl Router<'_, '_> {
    /// The agent for a conversation (`resolveAgentRoute`): a binding for this peer, then for any
    /// peer of its kind, then the guild, then account-wide, then channel-wide bindings, then the
    /// default agent. `None` when the chosen agent does not exist or no default can be picked.
    fn route(
        &self,
        kind: RouteKind,
        peer: Option<&str>,
        guild: Option<&str>,
    ) -> Option<(String, Option<KeyPath>, Option<&Value>)> {
        let bindings: Vec<&Binding<'_>> = self.bindings.for_scope(self.scope).collect();
        let same_kind = |b: &RouteKind| *b == kind || (*b != RouteKind::Direct && kind != RouteKind::Direct);
        let exact = peer.and_then(|p| {
            bindings.iter().find(|b| b.peer.as_ref().is_some_and(|(k, id)| same_kind(k) && id == p && id != "*"))
        });
        let any_peer = || bindings.iter().find(|b| b.peer.as_ref().is_some_and(|(k, id)| same_kind(k) && id == "*"));
        let by_guild = || {
            let guild = guild?;
            bindings.iter().find(|b| b.peer.is_none() && b.guild.as_deref() == Some(guild))
        };
        let wide = |any_account: bool| {
            bindings.iter().find(|b| {
                b.peer.is_none() && b.guild.is_none() && b.team.is_none() && (b.account == "*") == any_account
            })
        };
        let chosen = exact.or_else(any_peer).or_else(by_guild).or_else(|| wide(false)).or_else(|| wide(true));
        match chosen {
            Some(binding) => self
                .roster
                .agents
                .iter()
                .find(|a| **a == binding.agent)
                .map(|agent| (agent.clone(), Some(binding.path.clone()), binding.session)),
            None => self.roster.default_agent.map(|agent| (agent.to_string(), None, None)),
        }
    }

    /// Routes a conversation the account admits and records where it lands.
    fn push(&self, out: &mut Vec<InboundRoute>, opening: Opening) {
        let Opening { kind, target, peer, audience, opened_by, default_policy, guild } = opening;
        let key_peer = peer.as_deref().or(target.as_deref()).unwrap_or("peer");
        let routing_peer = peer.as_deref().or(target.as_deref().filter(|t| *t != "*"));
        let Some((agent, binding, session)) = self.route(kind, routing_peer, guild.as_deref()) else {
            return;
        };
        let session_key = session_key(self.sessions, &agent, self.scope, kind, key_peer, session);
        out.push(InboundRoute {
            channel: self.scope.channel.clone(),
            account: self.scope.account.clone(),
            kind,
            target,
            peer,
            agent,
            session_key,
            audience,
            opened_by,
            default_policy,
            binding,
        });
    }

    /// DMs: everyone the DM policy admits, to the channel's agent; senders with a peer binding
    /// of their own, to theirs.
    fn direct_routes(&self, out: &mut Vec<InboundRoute>) {
        let scope = self.scope;
        let disabled_by_legacy = scope
            .setting("dm")
            .and_then(|(dm, path)| (dm.get("enabled") == Some(&Value::Bool(false))).then(|| path.key("enabled")));
        if disabled_by_legacy.is_some() {
            return;
        }
        let (policy, opened_by) = match scope.dm_setting("dmPolicy", "policy") {
            Some((value, path)) => (value.as_str().unwrap_or("pairing").to_string(), (path, false)),
            None => ("pairing".to_string(), (scope.own_path.key("dmPolicy"), true)),
        };
        let allow_from = entries(scope.dm_setting("allowFrom", "allowFrom").map(|(v, _)| v));
        let label = scope.principal("DMs");
        let audience = match policy.as_str() {
            "disabled" => return,
            "open" => Audience::of(Reach::Anyone, label),
            "allowlist" => {
                let audience = allowlist_audience(&scope.channel, &allow_from, Audience::unreachable());
                if audience.reach == Reach::Unreachable {
                    return;
                }
                audience
            }
            // Pairing: whoever the owner approves; the listed senders are pre-approved.
            _ if allow_from.iter().any(|e| e == "*") => {
                allowlist_audience(&scope.channel, &allow_from, Audience::owner())
            }
            _ => Audience::of(Reach::Paired, label),
        };
        let (opened_by, by_default) = opened_by;
        self.push(out, Opening::new(RouteKind::Direct, audience.clone(), opened_by.clone()).by_default(by_default));
        // Senders bound to an agent of their own.
        let peers = self.bindings.for_scope(scope).filter_map(|b| match &b.peer {
            Some((RouteKind::Direct, id)) if id != "*" => Some(id.clone()),
            _ => None,
        });
        for peer in peers.collect::<BTreeSet<_>>() {
            let admitted = audience.reach >= Reach::Paired || allow_from.iter().any(|e| e.to_lowercase() == peer);
            if admitted {
                let single = Audience::of(Reach::Allowlisted, format!("{}:{peer}", scope.channel));
                let opening = Opening::new(RouteKind::Direct, single, opened_by.clone()).by_default(by_default);
                self.push(out, opening.peer(peer));
            }
        }
    }

    /// Groups and channels the group policy admits.
    fn group_routes(&self, out: &mut Vec<InboundRoute>) {
        let scope = self.scope;
        let defaults = channels::default_group_policy_path();
        let (policy, opened_by) = match scope.setting("groupPolicy") {
            Some((value, path)) => (value.as_str().unwrap_or("allowlist").to_string(), (path, false)),
            None => match defaults.lookup(self.config).and_then(Value::as_str) {
                Some(policy) => (policy.to_string(), (defaults, false)),
                None => ("allowlist".to_string(), (scope.own_path.key("groupPolicy"), true)),
            },
        };
        if policy == "disabled" {
            return;
        }
        // Group senders: `groupAllowFrom`, else the DM `allowFrom` (both releases fall back).
        let senders = match scope.setting("groupAllowFrom") {
            Some((list, _)) => entries(Some(list)),
            None => entries(scope.setting("allowFrom").map(|(v, _)| v)),
        };
        let members = |what: String| allowlist_audience(&scope.channel, &senders, Audience::of(Reach::Members, what));
        let anyone = |what: String| allowlist_audience(&scope.channel, &senders, Audience::of(Reach::Anyone, what));

        let groups = scope.setting("groups");
        let listed: Vec<(&String, &Value, KeyPath)> = groups
            .iter()
            .flat_map(|(map, path)| {
                map.as_object().into_iter().flatten().map(move |(id, entry)| (id, entry, path.key(id)))
            })
            .filter(|(_, entry, _)| entry.get("enabled") != Some(&Value::Bool(false)))
            .collect();
        let has_wildcard = listed.iter().any(|(id, _, _)| id.as_str() == "*");
        if policy == "open" && !has_wildcard {
            let audience = anyone(scope.principal("any group"));
            let (path, by_default) = opened_by.clone();
            self.push(out, Opening::new(RouteKind::Group, audience, path).target("*").by_default(by_default));
        }
        for (id, entry, path) in listed {
            let own_senders = entries(entry.get("allowFrom"));
            let audience = if id == "*" {
                anyone(scope.principal("any group"))
            } else {
                members(scope.principal(&format!("group {id}")))
            };
            let audience = if own_senders.is_empty() {
                audience
            } else {
                allowlist_audience(&scope.channel, &own_senders, audience)
            };
            self.push(out, Opening::new(RouteKind::Group, audience, path).target(id));
        }
        self.room_routes(out, &policy, &senders);
    }

    /// Slack channels (`channels.<id>`) and Discord guilds and their channels.
    fn room_routes(&self, out: &mut Vec<InboundRoute>, policy: &str, senders: &[String]) {
        let scope = self.scope;
        let admits = |entry: &Value| {
            entry.get("allow") != Some(&Value::Bool(false)) && entry.get("enabled") != Some(&Value::Bool(false))
        };
        let audience_for = |entry: &Value, what: String| {
            let users = entries(entry.get("users"));
            let base = allowlist_audience(&scope.channel, senders, Audience::of(Reach::Members, what));
            if users.is_empty() { base } else { allowlist_audience(&scope.channel, &users, base) }
        };
        if let Some((rooms, path)) = scope.setting("channels").filter(|_| scope.channel == "slack") {
            for (id, entry) in rooms.as_object().into_iter().flatten().filter(|(_, e)| admits(e)) {
                let audience = audience_for(entry, scope.principal(&format!("channel {id}")));
                self.push(out, Opening::new(RouteKind::Channel, audience, path.key(id)).target(id));
            }
        }
        if let Some((guilds, path)) = scope.setting("guilds").filter(|_| scope.channel == "discord") {
            for (guild_id, guild) in guilds.as_object().into_iter().flatten() {
                let guild_path = path.key(guild_id);
                let channels: Vec<(&String, &Value)> = guild
                    .get("channels")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .filter(|(_, e)| admits(e))
                    .collect();
                let guild_key = guild_id.trim().to_lowercase();
                if channels.is_empty() || policy == "open" {
                    // Every channel of the guild.
                    let audience = audience_for(guild, scope.principal(&format!("guild {guild_id}")));
                    let opening = Opening::new(RouteKind::Channel, audience, guild_path.clone()).target("*");
                    self.push(out, opening.guild(guild_key.clone()));
                }
                for (id, entry) in channels {
                    let audience = audience_for(entry, scope.principal(&format!("guild {guild_id} channel {id}")));
                    let opening = Opening::new(RouteKind::Channel, audience, guild_path.key("channels").key(id));
                    self.push(out, opening.target(id).guild(guild_key.clone()));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn all(config: &Value) -> Vec<InboundRoute> {
        let agents = ["main".to_string(), "ops".to_string()];
        routes(config, &Roster { agents: &agents, default_agent: Some("main") })
    }

    fn find<'r>(routes: &'r [InboundRoute], label: &str) -> &'r InboundRoute {
        routes.iter().find(|r| r.label() == label).unwrap_or_else(|| {
            panic!("no route {label}: {:?}", routes.iter().map(InboundRoute::label).collect::<Vec<_>>())
        })
    }

    #[test]
    fn dm_policies_decide_the_dm_audience() {
        let config = json!({"channels": {
            "telegram": {"dmPolicy": "open", "allowFrom": ["*"]},
            "discord": {"dmPolicy": "allowlist", "allowFrom": ["123", 456]},
            "slack": {},
            "signal": {"dmPolicy": "disabled"},
            "whatsapp": {"dmPolicy": "allowlist"},
            "matrix": {"dm": {"policy": "open"}},
            "msteams": {"enabled": false, "dmPolicy": "open"}
        }});
        let routes = all(&config);
        let telegram = find(&routes, "telegram DMs");
        assert_eq!(telegram.audience.reach, Reach::Anyone);
        assert_eq!(telegram.session_key, "agent:main:main");
        assert_eq!(telegram.opened_by.to_string(), "channels.telegram.dmPolicy");
        let discord = find(&routes, "discord DMs");
        assert_eq!(discord.audience.reach, Reach::Allowlisted);
        assert_eq!(discord.audience.principals, BTreeSet::from(["discord:123".into(), "discord:456".into()]));
        let slack = find(&routes, "slack DMs");
        assert_eq!(slack.audience.reach, Reach::Paired);
        assert!(slack.default_policy);
        assert_eq!(find(&routes, "matrix DMs").opened_by.to_string(), "channels.matrix.dm.policy");
        // Disabled DMs, an empty allowlist and a disabled channel open nothing.
        for label in ["signal DMs", "whatsapp DMs"] {
            assert!(!routes.iter().any(|r| r.label() == label), "{label}");
        }
        assert!(!routes.iter().any(|r| r.channel == "msteams"));
    }

    #[test]
    fn group_policies_decide_which_groups_reach_in() {
        let config = json!({"channels": {
            "telegram": {"groupPolicy": "open"},
            "whatsapp": {"groups": {"g1": {}, "g2": {"allowFrom": ["+1555"]}}},
            "discord": {"groupPolicy": "disabled", "guilds": {"42": {}}},
            "signal": {"groupPolicy": "open", "groupAllowFrom": ["u1"]},
            "imessage": {"groupPolicy": "open", "allowFrom": ["+1555"]}
        }});
        let routes = all(&config);
        let any = find(&routes, "telegram any group");
        assert_eq!((any.audience.reach, any.session_key.as_str()), (Reach::Anyone, "agent:main:telegram:group:*"));
        assert_eq!(find(&routes, "whatsapp group g1").audience.reach, Reach::Members);
        assert_eq!(find(&routes, "whatsapp group g2").audience.reach, Reach::Allowlisted);
        assert!(!routes.iter().any(|r| r.label() == "whatsapp any group"), "allowlist admits only listed groups");
        assert!(!routes.iter().any(|r| r.channel == "discord" && r.kind != RouteKind::Direct));
        assert_eq!(find(&routes, "signal any group").audience.reach, Reach::Allowlisted);
        // Without groupAllowFrom, group senders are checked against the DM allowFrom.
        assert_eq!(find(&routes, "imessage any group").audience.reach, Reach::Allowlisted);
    }

    #[test]
    fn slack_channels_discord_guilds_and_accounts() {
        let config = json!({"channels": {
            "slack": {"channels": {"C1": {}, "C2": {"allow": false}}},
            "discord": {"groupPolicy": "open", "guilds": {"G": {"channels": {"general": {"users": ["u9"]}}}}},
            "telegram": {"dmPolicy": "open", "accounts": {
                "work": {"dmPolicy": "pairing"},
                "home": {},
                "off": {"enabled": false}
            }}
        }});
        let routes = all(&config);
        assert_eq!(find(&routes, "slack channel C1").session_key, "agent:main:slack:channel:c1");
        assert!(!routes.iter().any(|r| r.label() == "slack channel C2"));
        assert_eq!(find(&routes, "discord channel *").audience.reach, Reach::Members);
        assert_eq!(find(&routes, "discord channel general").audience.reach, Reach::Allowlisted);
        assert_eq!(find(&routes, "telegram@work DMs").audience.reach, Reach::Paired);
        // An account inherits the channel's settings.
        let home = find(&routes, "telegram@home DMs");
        assert_eq!(
            (home.audience.reach, home.opened_by.to_string()),
            (Reach::Anyone, "channels.telegram.dmPolicy".into())
        );
        assert!(!routes.iter().any(|r| r.account.as_deref() == Some("off")));
    }

    #[test]
    fn bindings_and_session_scopes_route_traffic() {
        let config = json!({
            "session": {"dmScope": "per-channel-peer"},
            "bindings": [
                {"agentId": "ops", "match": {"channel": "telegram", "peer": {"kind": "group", "id": "-100"}}},
                {"agentId": "ops", "match": {"channel": "discord"}},
                {"agentId": "ops", "match": {"channel": "telegram", "peer": {"kind": "direct", "id": "77"}}},
                {"agentId": "ghost", "match": {"channel": "slack"}}
            ],
            "channels": {
                "telegram": {"dmPolicy": "open", "groups": {"-100": {}, "-200": {}}},
                "discord": {"dmPolicy": "open"},
                "slack": {"dmPolicy": "open"}
            }
        });
        let routes = all(&config);
        assert_eq!(find(&routes, "telegram group -100").agent, "ops");
        assert_eq!(find(&routes, "telegram group -200").agent, "main");
        let discord = find(&routes, "discord DMs");
        assert_eq!((discord.agent.as_str(), discord.session_key.as_str()), ("ops", "agent:ops:discord:direct:peer"));
        assert_eq!(discord.binding.as_ref().unwrap().to_string(), "bindings[1]");
        let peer = find(&routes, "telegram DMs from 77");
        assert_eq!((peer.agent.as_str(), peer.audience.reach), ("ops", Reach::Allowlisted));
        // A binding to an agent that does not exist routes nowhere.
        assert!(!routes.iter().any(|r| r.channel == "slack"));
        let main_scope = json!({"session": {"groupScope": "main"}, "channels": {"telegram": {"groupPolicy": "open"}}});
        assert_eq!(find(&all(&main_scope), "telegram any group").session_key, "agent:main:main");
    }

    #[test]
    fn no_default_agent_means_unbound_traffic_goes_nowhere() {
        let agents = ["a".to_string(), "b".to_string()];
        let config = json!({"channels": {"telegram": {"dmPolicy": "open"}}});
        assert!(routes(&config, &Roster { agents: &agents, default_agent: None }).is_empty());
    }

    #[test]
    fn audiences_widen_and_union() {
        let paired = Audience::of(Reach::Paired, "telegram DMs".into());
        let anyone = Audience::of(Reach::Anyone, "telegram DMs".into());
        let listed = |names: &[&str]| Audience {
            reach: Reach::Allowlisted,
            principals: names.iter().map(|n| n.to_string()).collect(),
        };
        assert!(anyone.widens(&paired));
        assert!(!paired.widens(&anyone));
        assert!(listed(&["a", "b"]).widens(&listed(&["a"])));
        assert!(!listed(&["a"]).widens(&listed(&["a", "b"])));
        assert!(Audience::owner().widens(&Audience::unreachable()));
        assert_eq!(listed(&["a"]).union(&listed(&["b"])), listed(&["a", "b"]));
        assert_eq!(listed(&["a"]).union(&anyone), anyone);
        assert_eq!(anyone.describe(), "anyone (telegram DMs)");
    }
}
