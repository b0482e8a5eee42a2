//! `session.*`: how conversations map to session keys (`scope`, `mainKey`, `dmScope`,
//! `groupScope`, also as a route binding's own `session` overrides), and whether transcripts are
//! kept.

use serde_json::Value;

use super::located::Located;
use crate::config::path::KeyPath;

/// The session settings in force, with the release's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionScopes {
    /// `session.scope: "global"`: every conversation shares one session.
    pub global: bool,
    /// `session.mainKey`, trimmed and lowercased; `main` when unset or blank.
    pub main_key: String,
    /// `session.dmScope`; `main` when unset.
    pub dm_scope: String,
    /// `session.groupScope`; `per-group` when unset.
    pub group_scope: String,
}

impl SessionScopes {
    pub fn read(config: &Value) -> Self {
        let session = config.get("session");
        let text = |key: &str| session.and_then(|s| s.get(key)).and_then(Value::as_str);
        let main_key =
            text("mainKey").map(str::trim).filter(|k| !k.is_empty()).map_or("main".into(), str::to_lowercase);
        SessionScopes {
            global: text("scope") == Some("global"),
            main_key,
            dm_scope: text("dmScope").map_or("main", str::trim).to_string(),
            group_scope: text("groupScope").map_or("per-group", str::trim).to_string(),
        }
    }

    /// The DM scope of a route whose binding may set its own (`binding.session.dmScope`).
    pub fn dm_scope<'s>(&'s self, binding: Option<&'s Value>) -> &'s str {
        binding.and_then(|s| s.get("dmScope")).and_then(Value::as_str).unwrap_or(&self.dm_scope)
    }

    /// The group scope of a route whose binding may set its own (`binding.session.groupScope`).
    pub fn group_scope<'s>(&'s self, binding: Option<&'s Value>) -> &'s str {
        binding.and_then(|s| s.get("groupScope")).and_then(Value::as_str).unwrap_or(&self.group_scope)
    }

    /// An agent's main session key: `agent:<id>:<mainKey>`.
    pub fn main_session_key(&self, agent: &str) -> String {
        format!("agent:{agent}:{}", self.main_key)
    }
}

/// `transcripts.enabled`, whatever its type.
pub fn transcripts_switch(config: &Value) -> Option<Located<'_>> {
    Located::lookup(config, KeyPath::keys(&["transcripts", "enabled"]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scopes_and_their_defaults() {
        let defaults = SessionScopes::read(&json!({}));
        assert_eq!(
            (defaults.main_key.as_str(), defaults.dm_scope.as_str(), defaults.group_scope.as_str()),
            ("main", "main", "per-group")
        );
        assert!(!defaults.global);
        let set =
            SessionScopes::read(&json!({"session": {"scope": "global", "mainKey": " Home ", "dmScope": "per-peer"}}));
        assert!(set.global);
        assert_eq!(set.main_session_key("ops"), "agent:ops:home");
        let binding = json!({"dmScope": "per-channel-peer"});
        assert_eq!((set.dm_scope(Some(&binding)), set.group_scope(Some(&binding))), ("per-channel-peer", "per-group"));
    }
}
