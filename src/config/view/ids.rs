//! How OpenClaw normalizes the ids a config names: agents, accounts and channels. Written out
//! once here, since every command compares ids the way the release does.

use crate::base::js::js_trim;

/// OpenClaw's agent-id normalization: lowercase valid ids, slug anything else, fall back to `main`.
pub fn normalize_agent_id(raw: &str) -> String {
    canonical_id(raw).unwrap_or_else(|| "main".into())
}

/// The id canonicalization agent and account ids share: a valid id (`[a-z0-9][a-z0-9_-]{0,63}`,
/// any case) lowercased; otherwise lowercased, each run of other characters replaced by `-`, edge
/// dashes removed, at most 64 characters. `None` when nothing is left.
pub fn canonical_id(raw: &str) -> Option<String> {
    let trimmed = js_trim(raw);
    if is_plain_id(trimmed) {
        return Some(trimmed.to_ascii_lowercase());
    }
    let mut slug = String::new();
    let mut in_invalid_run = false;
    for c in trimmed.to_lowercase().chars() {
        let keep = c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-';
        if keep {
            slug.push(c);
        } else if !in_invalid_run {
            slug.push('-');
        }
        in_invalid_run = !keep;
    }
    let slug: String = slug.trim_matches('-').chars().take(64).collect();
    (!slug.is_empty()).then_some(slug)
}

/// An id OpenClaw keeps as it is, lowercased.
fn is_plain_id(trimmed: &str) -> bool {
    trimmed.len() <= 64
        && trimmed.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && trimmed.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// `normalize_agent_id(raw) == agent_id`, without allocating for plain ids.
pub fn normalizes_to(raw: &str, agent_id: &str) -> bool {
    let trimmed = js_trim(raw);
    if is_plain_id(trimmed) { trimmed.eq_ignore_ascii_case(agent_id) } else { normalize_agent_id(raw) == agent_id }
}

pub const DEFAULT_ACCOUNT_ID: &str = "default";

/// `normalizeAccountId`: the canonical id, `default` when nothing is left or the id is an
/// object-prototype key.
pub fn normalize_account_id(raw: &str) -> String {
    canonical_id(raw)
        .filter(|id| !["__proto__", "prototype", "constructor"].contains(&id.as_str()))
        .unwrap_or_else(|| DEFAULT_ACCOUNT_ID.to_string())
}

/// Channel aliases of the message-channel registry.
pub fn normalize_channel(raw: &str) -> String {
    let channel = js_trim(raw).to_lowercase();
    match channel.as_str() {
        "teams" => "msteams".into(),
        "gchat" | "google-chat" => "googlechat".into(),
        _ => channel,
    }
}
