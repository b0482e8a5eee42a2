//! Channel blocks (`channels.<id>`) as the tool policy reads them: group entries and their tool
//! policies, a channel's own switch, and its accounts with their settings merged over the
//! channel's (what channel plugins read before registering tools). Who can send into which
//! session is [`super::inbound`].

use serde_json::{Map, Value};

use super::located::Located;
use super::tools::ToolsScope;
use crate::config::path::KeyPath;

fn channels_path() -> KeyPath {
    KeyPath::keys(&["channels"])
}

/// Every member of `channels`, in config order (channel sections and shared settings alike).
pub fn sections(config: &Value) -> Vec<(&String, Located<'_>)> {
    let channels = Located::lookup(config, channels_path());
    channels.map(|c| c.members().collect()).unwrap_or_default()
}

/// `channels` keys that hold settings shared by every channel rather than a channel.
pub fn holds_shared_settings(key: &str) -> bool {
    ["defaults", "modelByChannel"].contains(&key.trim())
}

/// `channels.<id>`.
pub fn channel<'a>(config: &'a Value, id: &str) -> Option<Located<'a>> {
    Located::lookup(config, channels_path().key(id))
}

/// `channels.defaults.groupPolicy`'s path: the group policy of channels that set none.
pub fn default_group_policy_path() -> KeyPath {
    channels_path().key("defaults").key("groupPolicy")
}

/// Whether `channels.<id>.enabled` is `true` (2026.2 loads a built-in channel's plugin then).
pub fn switched_on(config: &Value, id: &str) -> bool {
    channel(config, id).and_then(|c| c.member("enabled")).is_some_and(|e| e.value == &Value::Bool(true))
}

/// Whether `channels.<id>` is an object that is not switched off and sets something that
/// activates it: any key besides `enabled`, or `enabled: true` alone.
pub fn configured(config: &Value, id: &str) -> bool {
    let Some(block) = channel(config, id) else { return false };
    let Some(members) = block.value.as_object() else { return false };
    match members.get("enabled") {
        Some(Value::Bool(false)) => false,
        Some(enabled) if members.len() == 1 => enabled == &Value::Bool(true),
        _ => !members.is_empty(),
    }
}

/// A group entry (`channels.<ch>[.accounts.<a>].groups.<id>`): its tool policy and per-sender
/// policies.
#[derive(Debug, Clone)]
pub struct GroupEntry<'a>(pub Located<'a>);

impl<'a> GroupEntry<'a> {
    pub fn tools(&self) -> Option<ToolsScope<'a>> {
        ToolsScope::of(&self.0)
    }

    pub fn tools_by_sender(&self) -> Option<Located<'a>> {
        self.0.member("toolsBySender")
    }
}

/// The `groups` map a group conversation reads: the account's, when it has one, else the
/// channel's (each only when it is an object).
pub fn group_map<'a>(config: &'a Value, channel_id: &str, account: Option<&str>) -> Option<Located<'a>> {
    let channel_path = channels_path().key(channel_id);
    let groups = |path: KeyPath| Located::lookup(config, path).filter(|g| g.value.is_object());
    let account_groups = account.and_then(|a| groups(channel_path.key("accounts").key(a).key("groups")));
    account_groups.or_else(|| groups(channel_path.key("groups")))
}

/// A configured group entry and where it is.
#[derive(Debug, Clone)]
pub struct ConfiguredGroup<'a> {
    pub channel: String,
    /// The account whose `groups` holds the entry; `None` for the channel's own `groups`.
    pub account: Option<String>,
    pub id: String,
    pub entry: GroupEntry<'a>,
}

/// Every group entry of every channel: each channel's own `groups`, then each account's.
pub fn configured_groups(config: &Value) -> Vec<ConfiguredGroup<'_>> {
    let mut out = Vec::new();
    for (channel, section) in sections(config) {
        let accounts = section.member("accounts");
        let account_scopes = accounts.iter().flat_map(|a| a.members()).map(|(name, value)| (Some(name), value));
        for (account, scope) in std::iter::once((None, section.clone())).chain(account_scopes) {
            for (id, entry) in scope.member("groups").iter().flat_map(|g| g.members()) {
                out.push(ConfiguredGroup {
                    channel: channel.clone(),
                    account: account.cloned(),
                    id: id.clone(),
                    entry: GroupEntry(entry),
                });
            }
        }
    }
    out
}

/// Discord's voice blocks (`channels.discord.voice` and each account's), which name models.
pub fn discord_voices(config: &Value) -> Vec<Located<'_>> {
    let Some(discord) = channel(config, "discord") else { return Vec::new() };
    let accounts: Vec<Located<'_>> =
        discord.member("accounts").iter().flat_map(|a| a.members()).map(|(_, a)| a).collect();
    std::iter::once(discord).chain(accounts).filter_map(|block| block.member("voice")).collect()
}

/// A channel block as a channel plugin resolves its accounts.
#[derive(Debug, Clone, Copy)]
pub struct ChannelAccounts<'a> {
    channel: &'a Map<String, Value>,
}

impl<'a> ChannelAccounts<'a> {
    /// `channels.<id>`, when it is an object.
    pub fn of(config: &'a Value, id: &str) -> Option<Self> {
        channel(config, id)?.as_object().map(|channel| ChannelAccounts { channel })
    }

    /// The channel is on unless `enabled: false`.
    pub fn enabled(&self) -> bool {
        self.channel.get("enabled") != Some(&Value::Bool(false))
    }

    /// The ids of `accounts`, as written (empty ids skipped).
    pub fn account_ids(&self) -> Vec<&'a str> {
        let accounts = self.channel.get("accounts").and_then(Value::as_object);
        accounts.into_iter().flat_map(|a| a.keys()).map(String::as_str).filter(|id| !id.is_empty()).collect()
    }

    /// The settings of account `id`: the channel's (without `accounts`) with the account's own
    /// over them.
    pub fn account(&self, id: &str) -> AccountSettings {
        let mut settings: Map<String, Value> =
            self.channel.iter().filter(|(key, _)| *key != "accounts").map(|(k, v)| (k.clone(), v.clone())).collect();
        let accounts = self.channel.get("accounts").and_then(Value::as_object);
        if let Some(own) = accounts.and_then(|a| a.get(id)).and_then(Value::as_object) {
            settings.extend(own.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        AccountSettings(settings)
    }

    /// A setting written directly in the channel block (accounts do not count).
    pub fn own(&self, key: &str) -> Option<&'a Value> {
        self.channel.get(key)
    }
}

/// One account's settings, merged over its channel's.
#[derive(Debug, Clone)]
pub struct AccountSettings(Map<String, Value>);

impl AccountSettings {
    /// The account is on unless `enabled: false`.
    pub fn enabled(&self) -> bool {
        self.0.get("enabled") != Some(&Value::Bool(false))
    }

    /// A setting, when it is a string.
    pub fn string(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(Value::as_str)
    }

    /// `tools.<flag>`, whatever its type.
    pub fn tool_flag(&self, flag: &str) -> Option<&Value> {
        self.0.get("tools").and_then(Value::as_object).and_then(|t| t.get(flag))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn groups_of_channels_and_accounts() {
        let config = json!({"channels": {"telegram": {"groups": {"*": {"tools": {"deny": ["exec"]}}},
            "accounts": {"work": {"groups": {"-100": {"toolsBySender": {"id:1": {}}}}}}}}});
        let groups = configured_groups(&config);
        let names: Vec<(Option<&str>, &str)> = groups.iter().map(|g| (g.account.as_deref(), g.id.as_str())).collect();
        assert_eq!(names, [(None, "*"), (Some("work"), "-100")]);
        assert_eq!(groups[0].entry.tools().unwrap().path.to_string(), r#"channels.telegram.groups["*"].tools"#);
        assert!(groups[1].entry.tools_by_sender().is_some());
        let map = group_map(&config, "telegram", Some("work")).unwrap();
        assert_eq!(map.path.to_string(), "channels.telegram.accounts.work.groups");
        assert_eq!(group_map(&config, "telegram", Some("home")).unwrap().path.to_string(), "channels.telegram.groups");
    }

    #[test]
    fn accounts_merge_over_the_channel() {
        let config = json!({"channels": {"feishu": {"appId": "a", "tools": {"doc": false},
            "accounts": {"ops": {"appSecret": "s", "tools": {"doc": true}}, "": {}}}}});
        let channel = ChannelAccounts::of(&config, "feishu").unwrap();
        assert_eq!(channel.account_ids(), ["ops"]);
        let ops = channel.account("ops");
        assert_eq!((ops.string("appId"), ops.string("appSecret")), (Some("a"), Some("s")));
        assert_eq!(ops.tool_flag("doc"), Some(&json!(true)));
        assert!(channel.enabled() && ops.enabled() && channel.own("accounts").is_some());
        assert!(!switched_on(&config, "feishu"));
    }
}
