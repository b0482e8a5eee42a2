//! `tools.elevated` (global and per agent), `agents.defaults.elevatedDefault` and the channel lists
//! a release falls back to, read as `resolveElevatedPermissions` reads them: `enabled` is on
//! unless it is `false`; `allowFrom` is a map from channel id to a list of senders.

use serde_json::Value;

use super::agents::{AgentEntry, defaults_path};
use super::keys::{ALLOW_FROM, ELEVATED, ENABLED, TOOLS};
use super::located::Located;
use crate::config::path::KeyPath;

/// A `tools.elevated` block: the global one or an agent's.
#[derive(Debug, Clone, PartialEq)]
pub struct ElevatedBlock<'a> {
    /// Where the block is (or would be) written.
    pub path: KeyPath,
    block: Option<Located<'a>>,
}

impl<'a> ElevatedBlock<'a> {
    /// `tools.elevated`, written or not.
    pub fn global(config: &'a Value) -> Self {
        let path = KeyPath::keys(&[TOOLS, ELEVATED]);
        ElevatedBlock { block: Located::lookup(config, path.clone()), path }
    }

    /// An agent entry's `tools.elevated`, written or not.
    pub fn of_agent(entry: &AgentEntry<'a>) -> Self {
        ElevatedBlock { path: entry.path.key(TOOLS).key(ELEVATED), block: entry.at(&[TOOLS, ELEVATED]) }
    }

    /// `enabled`, whatever its type.
    pub fn enabled(&self) -> Option<Located<'a>> {
        self.block.as_ref()?.member(ENABLED)
    }

    /// Where `enabled` is (or would be) written.
    pub fn enabled_path(&self) -> KeyPath {
        self.path.key(ENABLED)
    }

    /// `allowFrom` when it is set to anything but `null` (the release reads it when truthy; an
    /// object always is).
    pub fn allow_from(&self) -> Option<Located<'a>> {
        self.block.as_ref()?.member(ALLOW_FROM).filter(|l| !l.value.is_null())
    }

    /// Where `allowFrom.<channel>` is (or would be) written.
    pub fn allow_from_path(&self, channel: &str) -> KeyPath {
        self.path.key(ALLOW_FROM).key(channel)
    }
}

/// `agents.defaults.elevatedDefault`: the level an allowed sender's session starts at.
pub fn elevated_default(config: &Value) -> Option<Located<'_>> {
    Located::lookup(config, defaults_path().key("elevatedDefault"))
}

/// The first of these dotted paths (named by the release's data) holding a value other than
/// `null` (JavaScript `a ?? b`).
pub fn first_set<'a>(config: &'a Value, dotted: &[String]) -> Option<Located<'a>> {
    dotted.iter().filter_map(|path| Located::lookup_dotted(config, path)).find(|l| !l.value.is_null())
}
