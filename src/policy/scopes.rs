//! Choosing the config block that applies in a scope: `byProvider` keys, `toolsBySender` keys and
//! channel group entries.

use super::context::SessionContext;
use super::session::split_agent_key;
use crate::base::js::js_trim;
use crate::config::view::channels::{self, GroupEntry};
use crate::config::view::ids::normalize_channel;
use crate::config::view::located::Located;
use crate::config::view::tools::ToolsScope;
use crate::release::pack::{DuplicateKeyRule, GroupIdSource, ModelIdPrefix, VersionPack};

fn lower_trim(s: &str) -> String {
    js_trim(s).to_lowercase()
}

/// The `byProvider` entry for a run's provider and model (`resolveProviderToolPolicy`).
pub fn provider_block<'a>(
    pack: &VersionPack,
    by_provider: Option<Located<'a>>,
    provider: Option<&str>,
    model: Option<&str>,
) -> Option<ToolsScope<'a>> {
    let by_provider = by_provider?;
    by_provider.as_object()?;
    let provider = lower_trim(provider?);
    if provider.is_empty() {
        return None;
    }
    let rules = &pack.by_provider;
    let model = model.map(lower_trim).filter(|m| !m.is_empty());
    let model_key = model.map(|m| match rules.model_id_prefix {
        ModelIdPrefix::UnlessModelHasSlash if m.contains('/') => m,
        _ => format!("{provider}/{m}"),
    });
    let normalize_key = |key: &str| {
        let whole = lower_trim(key);
        match whole.find('/') {
            Some(slash) if rules.split_model_keys && slash > 0 => {
                let (p, m) = (&whole[..slash], &whole[slash + 1..]);
                if m.is_empty() { p.to_string() } else { whole.clone() }
            }
            _ => whole,
        }
    };
    let find = |wanted: &str| -> Option<Located<'a>> {
        let mut hits = by_provider.members().filter(|(k, v)| v.value.is_object() && normalize_key(k) == wanted);
        let hit = match rules.duplicate_keys {
            DuplicateKeyRule::Last => hits.last(),
            DuplicateKeyRule::First => hits.next(),
        };
        hit.map(|(_, entry)| entry)
    };
    model_key.as_deref().and_then(find).or_else(|| find(&provider)).map(ToolsScope)
}

/// The sender facts used for `toolsBySender` matching, normalized once.
#[derive(Debug, Clone, Default)]
pub struct Sender {
    pub channel: Option<String>,
    pub id: Option<String>,
    pub e164: Option<String>,
    pub username: Option<String>,
    pub name: Option<String>,
}

impl Sender {
    pub fn from_context(ctx: &SessionContext, channel: Option<String>) -> Sender {
        let norm = |v: &Option<String>| v.as_deref().map(lower_trim).filter(|s| !s.is_empty());
        Sender {
            channel,
            id: norm(&ctx.sender_id),
            e164: norm(&ctx.sender_e164),
            username: norm(&ctx.sender_username).map(|u| u.strip_prefix('@').map(str::to_string).unwrap_or(u)),
            name: norm(&ctx.sender_name),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.id.is_none() && self.e164.is_none() && self.username.is_none() && self.name.is_none()
    }
}

/// A parsed `toolsBySender` key.
#[derive(Debug, PartialEq, Eq)]
enum SenderKey {
    Channel(String, String),
    Typed(&'static str, String),
    Wildcard,
}

fn parse_sender_key(pack: &VersionPack, raw: &str) -> SenderKey {
    if raw.trim() == "*" {
        return SenderKey::Wildcard;
    }
    for prefix in ["channel", "id", "e164", "username", "name"] {
        if !pack.tools_by_sender.key_prefixes.iter().any(|p| p == prefix) {
            continue;
        }
        let head = format!("{prefix}:");
        if raw.len() >= head.len() && raw.is_char_boundary(head.len()) && raw[..head.len()].eq_ignore_ascii_case(&head)
        {
            let value = lower_trim(&raw[head.len()..]);
            return match prefix {
                "channel" => match value.split_once(':') {
                    Some((channel, id)) => SenderKey::Channel(normalize_channel(channel), lower_trim(id)),
                    None => SenderKey::Channel(normalize_channel(&value), String::new()),
                },
                "username" => SenderKey::Typed("username", value.strip_prefix('@').unwrap_or(&value).to_string()),
                "id" => SenderKey::Typed("id", value),
                "e164" => SenderKey::Typed("e164", value),
                _ => SenderKey::Typed("name", value),
            };
        }
    }
    // Legacy unprefixed keys are matched as ids, with one leading `@` stripped.
    let value = lower_trim(raw);
    SenderKey::Typed("id", value.strip_prefix('@').unwrap_or(&value).to_string())
}

/// The first `toolsBySender` entry matching the sender, in OpenClaw's fixed order.
pub fn sender_block<'a>(pack: &VersionPack, map: Option<Located<'a>>, sender: &Sender) -> Option<ToolsScope<'a>> {
    let map = map?;
    let keys: Vec<(SenderKey, Located<'a>)> =
        map.members().filter(|(_, v)| !v.value.is_null()).map(|(k, v)| (parse_sender_key(pack, k), v)).collect();
    let hit = |wanted: &SenderKey| keys.iter().find(|(key, _)| key == wanted);
    let ids: Vec<String> = sender
        .id
        .iter()
        .flat_map(|id| {
            let stripped = id.strip_prefix('@').map(str::to_string);
            std::iter::once(id.clone()).chain(stripped)
        })
        .collect();
    let mut order: Vec<SenderKey> = Vec::new();
    if let Some(channel) = &sender.channel {
        order.extend(ids.iter().map(|id| SenderKey::Channel(channel.clone(), id.clone())));
    }
    order.extend(ids.iter().map(|id| SenderKey::Typed("id", id.clone())));
    order.extend(sender.e164.iter().map(|v| SenderKey::Typed("e164", v.clone())));
    order.extend(sender.username.iter().map(|v| SenderKey::Typed("username", v.clone())));
    order.extend(sender.name.iter().map(|v| SenderKey::Typed("name", v.clone())));
    order.push(SenderKey::Wildcard);
    order.iter().find_map(hit).map(|(_, entry)| ToolsScope(entry.clone()))
}

/// Where a group conversation's tool policy comes from.
#[derive(Debug, Clone)]
pub struct GroupScope {
    pub channel: String,
    pub candidates: Vec<String>,
}

/// The channel named by a session key's delivery route (`agent:main:telegram:group:1` → telegram).
pub fn session_channel(session_key: &str) -> Option<String> {
    group_key_parts(strip_thread(session_key)).map(|(channel, _, _)| normalize_channel(channel))
}

/// `<channel>:(group|channel):<id…>` after stripping the agent and sub-agent prefixes.
fn group_key_parts(session_key: &str) -> Option<(&str, &str, &str)> {
    let tail = split_agent_key(session_key).map_or(session_key, |(_, tail)| tail);
    let tail = tail.strip_prefix("subagent:").unwrap_or(tail);
    let mut parts = tail.splitn(3, ':');
    let (channel, kind, id) = (parts.next()?, parts.next()?, parts.next()?);
    (matches!(kind, "group" | "channel") && !channel.is_empty() && !id.is_empty()).then_some((channel, kind, id))
}

/// Strips a trailing `:thread:<id>` suffix.
fn strip_thread(key: &str) -> &str {
    key.rfind(":thread:").map_or(key, |pos| &key[..pos])
}

/// Candidate group ids for a raw id, most specific first.
fn candidate_ids(raw: &str) -> Vec<String> {
    if let Some((base, _sender)) = raw.split_once(":sender:") {
        let mut out = vec![raw.to_string()];
        out.extend(candidate_ids(base).into_iter().filter(|c| c != raw));
        return dedupe(out);
    }
    if let Some((chat, _topic)) = raw.split_once(":topic:") {
        return dedupe(vec![raw.to_string(), chat.to_string()]);
    }
    vec![raw.to_string()]
}

fn dedupe(items: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    items.into_iter().filter(|i| seen.insert(i.clone())).collect()
}

/// Works out the group scope of a session, or `None` when it is not a group conversation.
pub fn group_scope(pack: &VersionPack, session_key: &str, ctx: &SessionContext) -> Option<GroupScope> {
    let from_key = group_key_parts(strip_thread(session_key));
    let from_spawner = ctx.spawned_by.as_deref().and_then(|k| group_key_parts(strip_thread(k)));
    let provider = ctx.message_provider.as_deref().map(normalize_channel).filter(|c| !c.is_empty());
    let caller_group = ctx.group_id.as_deref().map(str::trim).filter(|g| !g.is_empty());
    let key_channel = from_key.or(from_spawner).map(|(c, _, _)| normalize_channel(c));
    match pack.group_ids {
        GroupIdSource::SessionKey => {
            // Only server-derived ids count: a caller-supplied group id that the session key does not
            // imply is dropped as untrusted, and one it does imply adds nothing new.
            let candidates = from_key.or(from_spawner).map(|(_, _, id)| candidate_ids(id)).unwrap_or_default();
            let channel = key_channel.or(provider)?;
            (!candidates.is_empty()).then_some(GroupScope { channel, candidates })
        }
        GroupIdSource::CallerFirst => {
            // The caller's group id is trusted as is. A forum topic (`<chat>:topic:<t>…`) maps to
            // its chat; nothing else (such as `:sender:`) is expanded.
            let raw = caller_group
                .map(str::to_string)
                .or_else(|| from_key.or(from_spawner).map(|(_, _, id)| id.to_string()))?;
            let channel = provider.or(key_channel.clone())?;
            // 2026.3 reads a topic off a session key of its topic channels only, and takes a
            // caller's group id as given.
            let topics = match &pack.topic_channels {
                None => true,
                Some(channels) => caller_group.is_none() && key_channel.is_some_and(|c| channels.contains(&c)),
            };
            let group = match raw.split_once(":topic:") {
                Some((chat, _)) if topics => chat.to_string(),
                _ => raw,
            };
            Some(GroupScope { channel, candidates: vec![group] })
        }
    }
}

/// The configured group entry for a scope: the first candidate with an exact key, else `*`.
/// Returns `(selected, wildcard)` so the caller can fall back from one to the other.
pub fn group_entries<'a>(
    config: &'a serde_json::Value,
    scope: &GroupScope,
    account: Option<&str>,
) -> (Option<GroupEntry<'a>>, Option<GroupEntry<'a>>) {
    let Some(groups) = channels::group_map(config, &scope.channel, account) else {
        return (None, None);
    };
    let selected = scope.candidates.iter().find_map(|id| groups.member(id)).map(GroupEntry);
    let wildcard = groups.member("*").map(GroupEntry);
    (selected, wildcard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use crate::config::path::KeyPath;
    use serde_json::{Value, json};

    fn pack() -> &'static VersionPack {
        OpenClawVersion::V2026_9.policy()
    }

    fn block<'a>(value: &'a Value, path: &[&str]) -> Option<Located<'a>> {
        Some(Located::new(KeyPath::keys(path), value))
    }

    #[test]
    fn provider_keys_prefer_model_then_provider() {
        let map = json!({"OpenAI/GPT-5": {"profile": "minimal"}, "openai": {"deny": ["exec"]}});
        let by = || block(&map, &["tools", "byProvider"]);
        let hit = provider_block(pack(), by(), Some("openai"), Some("gpt-5")).unwrap();
        assert_eq!(hit.path.to_string(), r#"tools.byProvider["OpenAI/GPT-5"]"#);
        let hit = provider_block(pack(), by(), Some("OpenAI"), Some("gpt-4")).unwrap();
        assert_eq!(hit.path.to_string(), "tools.byProvider.openai");
        assert!(provider_block(pack(), by(), None, Some("gpt-5")).is_none());
    }

    #[test]
    fn provider_model_with_slash_differs_by_version() {
        let map = json!({"anthropic/claude": {"deny": ["a"]}, "openrouter/anthropic/claude": {"deny": ["b"]}});
        let by = || block(&map, &["tools", "byProvider"]);
        let current = provider_block(pack(), by(), Some("openrouter"), Some("anthropic/claude")).unwrap();
        assert!(current.path.to_string().contains("openrouter/anthropic/claude"));
        let seed = OpenClawVersion::V2026_2.policy();
        let old = provider_block(seed, by(), Some("openrouter"), Some("anthropic/claude")).unwrap();
        assert_eq!(old.path.to_string(), r#"tools.byProvider["anthropic/claude"]"#);
    }

    #[test]
    fn duplicate_provider_keys() {
        let map = json!({"OpenAI": {"deny": ["a"]}, "openai": {"deny": ["b"]}, "OPENAI": {"deny": ["c"]}});
        let by = || block(&map, &["p"]);
        // 2026.9: the first key in object order wins (checked against the release).
        assert_eq!(provider_block(pack(), by(), Some("openai"), None).unwrap().path.to_string(), "p.OpenAI");
        let seed = OpenClawVersion::V2026_2.policy();
        assert_eq!(provider_block(seed, by(), Some("openai"), None).unwrap().path.to_string(), "p.OPENAI");
    }

    #[test]
    fn sender_match_order() {
        let map = json!({"*": {}, "username:@Bob": {"allow": ["read"]}, "id:42": {}, "channel:teams:42": {}});
        let by = || block(&map, &["s"]);
        let bob = Sender { username: Some("bob".into()), ..Default::default() };
        assert_eq!(sender_block(pack(), by(), &bob).unwrap().path.to_string(), r#"s["username:@Bob"]"#);
        let id = Sender { id: Some("42".into()), username: Some("bob".into()), ..Default::default() };
        assert_eq!(sender_block(pack(), by(), &id).unwrap().path.to_string(), r#"s["id:42"]"#);
        let teams = Sender { channel: Some("msteams".into()), id: Some("42".into()), ..Default::default() };
        assert_eq!(sender_block(pack(), by(), &teams).unwrap().path.to_string(), r#"s["channel:teams:42"]"#);
        assert_eq!(sender_block(pack(), by(), &Sender::default()).unwrap().path.to_string(), r#"s["*"]"#);
    }

    #[test]
    fn group_candidates_from_session_keys() {
        let ctx = SessionContext::default();
        let scope = group_scope(pack(), "agent:main:telegram:group:-100:topic:7", &ctx).unwrap();
        assert_eq!(scope.channel, "telegram");
        assert_eq!(scope.candidates, ["-100:topic:7", "-100"]);
        let untrusted = SessionContext { group_id: Some("-100".into()), ..Default::default() };
        assert!(group_scope(pack(), "agent:main:main", &untrusted).is_none());
        let with_provider = SessionContext { message_provider: Some("telegram".into()), ..untrusted };
        let seed = group_scope(OpenClawVersion::V2026_2.policy(), "agent:main:main", &with_provider).unwrap();
        assert_eq!(seed.candidates, ["-100"]);
    }
}
