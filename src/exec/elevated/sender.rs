//! Does an allowFrom list name the sender of a message (`isApprovedElevatedSender`)? Entries and
//! sender values go through the channel's formatter and are compared with their lowercase
//! variants: a bare entry against the sender's id, `From` and phone number (each also without a
//! `telegram:`/`user:`-style prefix); an `id:`/`from:`/`e164:` entry against that field only; a
//! `name:`/`username:`/`tag:` entry against that label or its slug. `"*"` lets everyone in.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use super::Inbound;
use super::format::{Formatter, slug, strip_prefix_ignore_ascii_case};
use crate::base::js::js_trim;
use crate::release::elevated::{ElevatedRules, NameSlug};

/// How an entry names the sender.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    /// The list lets everyone in (`"*"`).
    Wildcard,
    /// This entry names the sender.
    Entry(String),
    /// No entry names the sender.
    NoMatch,
    /// The list has no entries at all.
    Empty,
}

impl Verdict {
    pub fn allows(&self) -> bool {
        matches!(self, Verdict::Wildcard | Verdict::Entry(_))
    }
}

/// The explicit fields an entry may name (`id:…`).
const FIELDS: [&str; 6] = ["id", "from", "e164", "name", "username", "tag"];

/// The sender's identities, formatted as the channel formats them.
pub struct Sender<'r> {
    rules: &'r ElevatedRules,
    formatter: Formatter<'r>,
    id: BTreeSet<String>,
    from: BTreeSet<String>,
    e164: BTreeSet<String>,
    name: BTreeSet<String>,
    username: BTreeSet<String>,
    tag: BTreeSet<String>,
}

impl<'r> Sender<'r> {
    pub fn new(rules: &'r ElevatedRules, formatter: Formatter<'r>, inbound: &Inbound) -> Self {
        let mut sender = Sender {
            rules,
            formatter,
            id: BTreeSet::new(),
            from: BTreeSet::new(),
            e164: BTreeSet::new(),
            name: mutable_tokens(inbound.sender_name.as_deref(), rules.name_slug),
            username: mutable_tokens(inbound.sender_username.as_deref(), rules.name_slug),
            tag: mutable_tokens(inbound.sender_tag.as_deref(), rules.name_slug),
        };
        if let Some(id) = nonblank(inbound.sender_id.as_deref()) {
            sender.id = sender.formatted_tokens(&[id, &sender.strip_sender_prefix(id)]);
        }
        let from = nonblank(inbound.from.as_deref());
        if let Some(from) = from.filter(|from| !rules.from_only_in_direct_chats || from_is_sender(from, inbound)) {
            sender.from = sender.formatted_tokens(&[from, &sender.strip_sender_prefix(from)]);
        }
        if let Some(e164) = nonblank(inbound.sender_e164.as_deref()) {
            sender.e164 = sender.formatted_tokens(&[e164]);
        }
        sender
    }

    /// Whether the message names any identity (id, `From`, phone number, name, username, tag).
    pub fn is_anonymous(&self) -> bool {
        [&self.id, &self.from, &self.e164, &self.name, &self.username, &self.tag].iter().all(|t| t.is_empty())
    }

    /// Checks the (already stringified and trimmed) entries of one allowFrom list.
    pub fn check(&self, entries: &[String]) -> Verdict {
        if entries.is_empty() {
            return Verdict::Empty;
        }
        if entries.iter().any(|e| e == "*") {
            return Verdict::Wildcard;
        }
        let identity: BTreeSet<&String> = self.id.iter().chain(&self.from).chain(&self.e164).collect();
        let hit = entries.iter().find(|entry| match parse_explicit(entry) {
            None => self.probe(entry, true).iter().any(|t| identity.contains(t)),
            Some(("id", value)) => self.probe(value, true).iter().any(|t| self.id.contains(t)),
            Some(("from", value)) => self.probe(value, true).iter().any(|t| self.from.contains(t)),
            Some(("e164", value)) => self.probe(value, false).iter().any(|t| self.e164.contains(t)),
            Some(("name", value)) => matches_mutable(value, &self.name, self.rules.name_slug),
            Some(("username", value)) => matches_mutable(value, &self.username, self.rules.name_slug),
            Some((_, value)) => matches_mutable(value, &self.tag, self.rules.name_slug),
        });
        hit.map_or(Verdict::NoMatch, |entry| Verdict::Entry(entry.clone()))
    }

    /// `stripSenderPrefix`: trimmed, without a leading `<channel>:`, `user:`, `group:` … .
    fn strip_sender_prefix(&self, value: &str) -> String {
        let value = js_trim(value);
        let stripped = self.rules.sender_prefixes.iter().find_map(|prefix| {
            let rest = strip_prefix_ignore_ascii_case(value, std::slice::from_ref(prefix));
            (rest.len() < value.len()).then(|| rest.strip_prefix(':')).flatten()
        });
        stripped.unwrap_or(value).to_string()
    }

    /// `addFormattedTokens` of these values.
    fn formatted_tokens(&self, values: &[&str]) -> BTreeSet<String> {
        let mut tokens = BTreeSet::new();
        for value in self.formatter.format(values.iter().copied().filter(|v| !v.is_empty())) {
            add_variants(&mut tokens, &value);
        }
        tokens
    }

    /// The tokens an entry value is looked up by (`matchesFormattedTokens`).
    fn probe(&self, value: &str, include_stripped: bool) -> BTreeSet<String> {
        let stripped = include_stripped.then(|| self.strip_sender_prefix(value));
        let values: Vec<&str> = std::iter::once(value).chain(stripped.as_deref()).collect();
        self.formatted_tokens(&values)
    }
}

/// A value and its trimmed lowercase form (`addTokenVariants`).
fn add_variants(tokens: &mut BTreeSet<String>, value: &str) {
    if value.is_empty() {
        return;
    }
    tokens.insert(value.to_string());
    let lowered = js_trim(value).to_lowercase();
    if !lowered.is_empty() {
        tokens.insert(lowered);
    }
}

/// `buildMutableTokens`: a label, its slug, and their lowercase forms.
fn mutable_tokens(value: Option<&str>, kind: NameSlug) -> BTreeSet<String> {
    let mut tokens = BTreeSet::new();
    if let Some(trimmed) = nonblank(value) {
        add_variants(&mut tokens, trimmed);
        add_variants(&mut tokens, &slug(trimmed, kind));
    }
    tokens
}

/// `matchesMutableTokens`.
fn matches_mutable(value: &str, tokens: &BTreeSet<String>, kind: NameSlug) -> bool {
    if value.is_empty() || tokens.is_empty() {
        return false;
    }
    let mut probes = BTreeSet::new();
    add_variants(&mut probes, value);
    add_variants(&mut probes, &slug(value, kind));
    probes.iter().any(|p| tokens.contains(p))
}

/// `parseExplicitElevatedAllowEntry`: `(field, value)` for `id:…`, `name:…` and the like.
fn parse_explicit(entry: &str) -> Option<(&'static str, &str)> {
    let (field, value) = entry.split_once(':')?;
    if field.is_empty() {
        return None;
    }
    let field = js_trim(field).to_lowercase();
    let field = FIELDS.into_iter().find(|f| *f == field)?;
    let value = js_trim(value);
    (!value.is_empty()).then_some((field, value))
}

static CONVERSATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(^|:)(channel|group|thread|topic|room|space|spaces):").expect("static regex"));

/// `shouldUseFromAsSenderFallback`: `From` names the sender in a direct chat (or one without a
/// chat type), unless it names a conversation (`group:…`, `chat_id:…`).
fn from_is_sender(from: &str, inbound: &Inbound) -> bool {
    let chat_type = inbound.chat_type.as_deref().map(|t| js_trim(t).to_lowercase()).unwrap_or_default();
    if !chat_type.is_empty() && chat_type != "direct" {
        return false;
    }
    let normalized = js_trim(from).to_lowercase();
    !(normalized.starts_with("chat_id:") || CONVERSATION.is_match(&normalized))
}

/// A value that is not blank, trimmed.
fn nonblank(value: Option<&str>) -> Option<&str> {
    value.map(js_trim).filter(|v| !v.is_empty())
}
