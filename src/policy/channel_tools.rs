//! The conditions under which a plugin registers its tools (`toolGates` in the version pack): a
//! channel plugin's account and credential switches, a plugin's own config. 2026.2's Feishu plugin registers its document tools only for a configured account, each
//! behind a `tools.<flag>` switch of that account, and its Bitable tools only when the channel block
//! itself holds the app credentials. Hand-written after the plugin's account resolution
//! (`listEnabledFeishuAccounts`), whose ordering and id normalization decide which account's
//! switches count.

use std::cmp::Ordering;

use serde_json::Value;

use crate::base::js::{js_trim, js_truthy};
use crate::config::view::channels::{AccountSettings, ChannelAccounts};
use crate::config::view::ids::{DEFAULT_ACCOUNT_ID, normalize_account_id};
use crate::config::view::plugins::{PluginsSection, setting_is_false};
use crate::release::pack::{BundledPlugin, ToolGate};
use crate::release::plugins::PluginRules;

/// Why the plugin does not register `tool`, or `None` when it does.
pub fn gate_rejects(plugin: &BundledPlugin, tool: &str, config: &Value, registry: &PluginRules) -> Option<String> {
    let channel_path = || format!("channels.{}", plugin.id);
    let channel = || ChannelAccounts::of(config, &plugin.id);
    let credentials = || plugin.credentials.join(" and ");
    match plugin.tool_gates.get(tool)? {
        ToolGate::AccountTool { flag, default } => {
            let Some((account, settings)) = channel().and_then(|c| first_enabled_account(c, &plugin.credentials))
            else {
                return Some(format!("needs an enabled `{}` account with {} set", channel_path(), credentials()));
            };
            match settings.tool_flag(flag) {
                Some(value) if !js_truthy(value) => {
                    Some(format!("the `{}` account `{account}` turns `tools.{flag}` off", channel_path()))
                }
                None if !default => Some(format!(
                    "the `{}` account `{account}` does not turn `tools.{flag}` on (off by default)",
                    channel_path()
                )),
                _ => None,
            }
        }
        ToolGate::ChannelCredentials => {
            let channel = channel();
            let present = |key: &String| channel.and_then(|c| c.own(key)).is_some_and(js_truthy);
            (!plugin.credentials.iter().all(present)).then(|| {
                format!("needs {} set directly in `{}` (accounts do not count)", credentials(), channel_path())
            })
        }
        ToolGate::PluginConfig { keys } => {
            let entries = PluginsSection::of(config).entries_for(&plugin.id, |key| registry.normalize_id(key));
            (!entries.iter().any(|entry| entry.configures_any(keys)))
                .then(|| format!("needs plugins.entries.{}.config with {} set", plugin.id, keys.join(" or ")))
        }
        ToolGate::NotSwitchedOff { setting } => {
            setting_is_false(config, setting).then(|| format!("{setting} is false"))
        }
    }
}

/// The first account, in the plugin's order, that is enabled and has every credential as a
/// non-blank string: its id and its settings (the account's own over the channel block's).
fn first_enabled_account(channel: ChannelAccounts<'_>, credentials: &[String]) -> Option<(String, AccountSettings)> {
    let mut ids = channel.account_ids();
    if ids.is_empty() {
        ids.push(DEFAULT_ACCOUNT_ID);
    }
    ids.sort_by(|a, b| locale_compare(a, b));
    ids.into_iter().find_map(|id| {
        // The plugin looks the account up by its normalized id, so `Ops` finds no `Ops` entry.
        let id = normalize_account_id(id);
        let settings = channel.account(&id);
        let enabled = channel.enabled() && settings.enabled();
        let configured = credentials.iter().all(|key| settings.string(key).is_some_and(|v| !js_trim(v).is_empty()));
        (enabled && configured).then_some((id, settings))
    })
}

/// `String.prototype.localeCompare` for account ids, as ICU's root collation orders ASCII:
/// punctuation before digits before letters, letters without regard to case, then lowercase
/// before uppercase.
fn locale_compare(a: &str, b: &str) -> Ordering {
    fn primary(c: char) -> (u8, char) {
        match c {
            '_' => (0, c),
            '-' => (1, c),
            c if c.is_ascii_digit() => (3, c),
            c if c.is_alphabetic() => (4, c.to_lowercase().next().unwrap_or(c)),
            c => (2, c),
        }
    }
    let primary_order = a.chars().map(primary).cmp(b.chars().map(primary));
    primary_order.then_with(|| a.chars().map(|c| c.is_uppercase()).cmp(b.chars().map(|c| c.is_uppercase())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;

    use serde_json::json;

    fn rejects(tool: &str, channel: Value) -> Option<String> {
        let pack = OpenClawVersion::V2026_2.policy();
        let feishu = pack.plugins.iter().find(|p| p.id == "feishu").unwrap();
        gate_rejects(feishu, tool, &json!({"channels": {"feishu": channel}}), OpenClawVersion::V2026_2.data().plugins())
    }

    #[test]
    fn onepassword_registers_its_tool_once_a_vault_or_items_are_configured() {
        let version = OpenClawVersion::V2026_9;
        let plugin = version.policy().plugins.iter().find(|p| p.id == "onepassword").unwrap();
        let gate = |plugins: Value| {
            gate_rejects(plugin, "onepassword", &json!({ "plugins": plugins }), version.data().plugins())
        };
        assert!(gate(json!({"entries": {"onepassword": {"enabled": true}}})).unwrap().contains("vault or items"));
        assert!(gate(json!({"entries": {"onepassword": {"config": {}}}})).is_some());
        assert_eq!(gate(json!({"entries": {"OnePassword": {"config": {"vault": "Private"}}}})), None);
    }

    #[test]
    fn document_tools_follow_the_first_configured_account() {
        let creds = json!({"appId": "a", "appSecret": "s"});
        assert_eq!(rejects("feishu_doc", creds.clone()), None);
        assert!(rejects("feishu_perm", creds.clone()).unwrap().contains("off by default"));
        // Accounts in localeCompare order (`a` before `B`); each over the channel block's settings.
        let channel = json!({"tools": {"wiki": false}, "accounts": {
            "B": {"appId": "a", "appSecret": "s", "tools": {"drive": false}},
            "a": {"appId": "a", "appSecret": "s"}}});
        assert_eq!(rejects("feishu_drive", channel.clone()), None);
        assert!(rejects("feishu_wiki", channel).unwrap().contains("account `a`"));
        // `Zed` is looked up as `zed`, finds no settings, and has no credentials.
        let renamed = json!({"accounts": {"Zed": {"appId": "a", "appSecret": "s"}}});
        assert!(rejects("feishu_doc", renamed).unwrap().starts_with("needs an enabled"));
        let disabled = json!({"enabled": false, "appId": "a", "appSecret": "s"});
        assert!(rejects("feishu_doc", disabled).is_some());
        assert!(rejects("feishu_doc", json!({"appId": "a", "appSecret": " "})).is_some());
    }

    #[test]
    fn bitable_tools_need_credentials_in_the_channel_block_itself() {
        assert_eq!(rejects("feishu_bitable_get_meta", json!({"enabled": false, "appId": "a", "appSecret": " "})), None);
        let in_account = json!({"accounts": {"main": {"appId": "a", "appSecret": "s"}}});
        assert!(rejects("feishu_bitable_get_meta", in_account).is_some());
    }

    #[test]
    fn account_ids_normalize_and_sort_like_the_release() {
        assert_eq!(normalize_account_id(" Ops "), "ops");
        assert_eq!(normalize_account_id("my bot!"), "my-bot");
        assert_eq!(normalize_account_id("a-!b"), "a--b");
        assert_eq!(normalize_account_id("!!!"), "default");
        let mut ids = vec!["b", "B", "a2", "_x", "A", "10"];
        ids.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(ids, ["_x", "10", "A", "a2", "b", "B"]);
    }
}
