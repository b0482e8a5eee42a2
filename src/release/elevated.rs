//! Who may switch a session to elevated exec (`resolveElevatedPermissions`), as a release's data:
//! the `elevated` block of `data/<release>/exec.json`. The gates themselves are evaluated in
//! `exec::elevated`; this is what differs between releases: how a failing gate's key is labelled,
//! which sender fields count as identities, the prefixes stripped from sender ids, each channel's
//! allowFrom formatter and fallback list, and what an allowed sender's default level is.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ElevatedRules {
    /// Where these facts come from in the release.
    pub about: String,
    /// How a failing agent gate names the agent's block (`agents.entries.*`, `agents.list[]`).
    pub agent_scope_label: String,
    /// How names, usernames and tags are slugged before comparing (`normalizeAtHashSlug`).
    pub name_slug: NameSlug,
    /// `From` counts as a sender identity only in a direct chat (or one without a chat type) and
    /// never when it names a conversation (2026.9); otherwise whenever it is set (2026.2).
    pub from_only_in_direct_chats: bool,
    /// Prefixes (`telegram:`, `user:` …, without the colon) stripped from sender ids and entries
    /// before comparing, case-insensitively: the release's channel order, its internal channel and
    /// `user`, `group`, `channel`.
    pub sender_prefixes: Vec<String>,
    /// The allowFrom formatter of each channel whose plugin (or core dock) the release ships;
    /// any other channel's entries are only trimmed.
    pub channels: BTreeMap<String, ChannelRules>,
    /// The level an allowed sender's session starts at without a directive or stored level
    /// (`agents.defaults.elevatedDefault` unset).
    pub default_level: String,
    /// Channels the release knows whose plugin it does not ship: their formatter is not known
    /// here, so answers for them say so.
    #[serde(default)]
    pub external_channels: Vec<String>,
}

/// One channel's elevated handling.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChannelRules {
    /// The steps applied to every allowFrom entry and sender value, in order.
    #[serde(default)]
    pub format: Vec<FormatStep>,
    /// Config lists read, first present wins, when `tools.elevated.allowFrom.<channel>` is not a
    /// list (discord's DM allowlist in 2026.2), as dotted key paths.
    #[serde(default)]
    pub fallback_allow_from: Vec<String>,
}

/// One step of a channel's allowFrom formatter (each mirrors a line of the release's formatter).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FormatStep {
    /// JavaScript `trim()`; an entry left empty is dropped.
    Trim,
    /// Lowercase (JavaScript `toLowerCase()`).
    Lowercase,
    /// Remove the first of these prefixes the entry starts with, ASCII case-insensitively, once
    /// (the release's anchored `/^(a|b):/i`; `<@!?` is written as `<@!`, `<@`).
    StripPrefix(Vec<String>),
    /// Remove this suffix once.
    StripSuffix(String),
    /// `normalizeE164`: keep digits and `+`, lead with one `+` (`*` stays).
    E164,
    /// `normalizeWhatsAppTarget`: a group JID, a user JID's or LID's phone, or a phone number;
    /// anything else is dropped (`*` stays).
    WhatsappTarget,
    /// `normalizeReefTarget(entry) ?? entry`: the lowercase handle without `reef:`/`@` when it
    /// is a valid handle, else the entry unchanged.
    ReefHandle,
}

/// `normalizeAtHashSlug`: lowercase, no leading `@`/`#`, runs of white space and `_` as `-`, then
/// every run of other characters as `-`, no doubled or edge `-`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NameSlug {
    /// Keeps only `a-z`, `0-9` (2026.2).
    Ascii,
    /// NFC-normalizes first and keeps Unicode letters, marks and numbers (2026.9).
    UnicodeNfc,
}
