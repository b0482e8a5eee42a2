//! A release's SSRF guard (`data/<release>/ssrf.json`): blocked host names, special address ranges
//! and the parsing quirks that differ between releases.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SsrfRules {
    pub release: String,
    pub about: String,
    /// IPv6 range names (`ipaddr.js` names) blocked outright.
    pub ipv6_blocked_ranges: Vec<String>,
    /// Cloud-metadata addresses blocked in every form (2026.9); 2026.2 has no such list.
    pub cloud_metadata: Vec<String>,
    /// RFC 8215 local-use NAT64 (`64:ff9b:1::/48`) blocked as a whole (2026.9), rather than by
    /// the IPv4 address it embeds (2026.2).
    pub blocks_local_use_nat64: bool,
    /// Hostnames lose every trailing dot (2026.9) or only one (2026.2).
    pub strips_all_trailing_dots: bool,
    /// 2026.2 retries an IPv6 literal ending in dotted IPv4 by rewriting the IPv4 as groups.
    pub embedded_ipv4_fallback_parse: bool,
    /// Policy fields the release's guard reads; a flag for any other is refused.
    pub policy_fields: Vec<String>,
    /// Explicitly allowed hostnames still may not resolve to loopback, link-local, metadata …
    pub checks_trusted_hostname_addresses: bool,
    /// Text before `Blocked hostname (not in allowlist)`, and whether the patterns follow.
    pub allowlist_message_detailed: bool,
    /// The start URL counts as visited for redirect-loop detection (2026.9).
    pub start_url_visited: bool,
    /// Where web_fetch reads its SSRF policy in config; 2026.2's web_fetch passes none.
    pub web_fetch_policy_path: Option<Vec<String>>,
    /// 2026.9's web_fetch trims stray whitespace in the URL parameter before parsing.
    pub sanitizes_web_fetch_url: bool,
}

impl SsrfRules {
    /// Whether the release's guard reads the policy field `field`.
    pub fn reads_policy_field(&self, field: &str) -> bool {
        self.policy_fields.iter().any(|f| f == field)
    }
}
