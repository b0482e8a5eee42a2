//! OpenClaw's SSRF guard (web_fetch and the other guarded fetches): would a URL, and every hop
//! of its redirect chain, be fetched or refused? Offline: host names are checked before DNS,
//! IP literals completely; DNS answers can be supplied or looked up (`Resolver`).

use std::collections::BTreeMap;

use serde::Serialize;
use url::Url;

use super::ipaddr::{self, Ip};
use crate::OpenClawVersion;
use crate::release::ssrf::SsrfRules;

/// Redirects followed when neither config nor caller says otherwise (both releases).
pub const DEFAULT_MAX_REDIRECTS: u32 = 3;

/// The SSRF policy a guarded fetch runs with (OpenClaw's `ssrfPolicy` fields).
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase", default)]
pub struct SsrfPolicy {
    pub allow_private_network: bool,
    pub dangerously_allow_private_network: bool,
    pub allow_rfc2544_benchmark_range: bool,
    pub allow_ipv6_unique_local_range: bool,
    pub allowed_hostnames: Vec<String>,
    pub hostname_allowlist: Vec<String>,
    pub blocked_hostnames: Vec<String>,
}

impl SsrfPolicy {
    fn private_network_allowed(&self) -> bool {
        self.allow_private_network || self.dangerously_allow_private_network
    }

    /// The policy fields that are set, by their OpenClaw names.
    pub fn fields_set(&self) -> Vec<&'static str> {
        let flags = [
            ("allowPrivateNetwork", self.allow_private_network),
            ("dangerouslyAllowPrivateNetwork", self.dangerously_allow_private_network),
            ("allowRfc2544BenchmarkRange", self.allow_rfc2544_benchmark_range),
            ("allowIpv6UniqueLocalRange", self.allow_ipv6_unique_local_range),
            ("allowedHostnames", !self.allowed_hostnames.is_empty()),
            ("hostnameAllowlist", !self.hostname_allowlist.is_empty()),
            ("blockedHostnames", !self.blocked_hostnames.is_empty()),
        ];
        flags.into_iter().filter(|(_, set)| *set).map(|(name, _)| name).collect()
    }
}

/// Why a host or address is refused: a stable rule id, the detail, and OpenClaw's message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Block {
    pub rule: &'static str,
    pub detail: String,
}

/// The verdict for one URL and its redirect chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    Allowed,
    Blocked,
    /// The fetch fails for a reason other than the guard (no DNS answer, bad redirect target).
    Error,
}

/// One fetched URL: what was checked and how it ended.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hop {
    pub url: String,
    /// The host after OpenClaw's normalization (lowercase, no brackets, no trailing dot).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The addresses checked after the pre-DNS checks; empty when the name was not resolved.
    pub addresses: Vec<String>,
    /// False when the host is a name whose addresses were neither given nor looked up.
    pub dns_checked: bool,
    pub verdict: Verdict,
}

/// The answer for a URL and its redirect chain.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UrlReport {
    pub url: String,
    pub verdict: Verdict,
    /// OpenClaw's own error text, when the fetch is refused or fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Index into `hops` of the URL that decided the verdict.
    pub decided_at: usize,
    pub hops: Vec<Hop>,
}

/// DNS answers: given ones first (`--dns host=ip`), then optionally a real lookup.
pub trait Resolver {
    /// `None`: not resolved (offline). `Some(Err)`: the lookup failed.
    fn resolve(&self, host: &str) -> Option<Result<Vec<String>, String>>;
}

/// A fixed table of answers, optionally backed by the system resolver.
#[derive(Debug, Default)]
pub struct DnsTable {
    pub answers: BTreeMap<String, Vec<String>>,
    pub system: bool,
}

impl Resolver for DnsTable {
    fn resolve(&self, host: &str) -> Option<Result<Vec<String>, String>> {
        if let Some(addresses) = self.answers.get(host) {
            return Some(Ok(addresses.clone()));
        }
        if !self.system {
            return None;
        }
        use std::net::ToSocketAddrs;
        Some(
            (host, 0u16)
                .to_socket_addrs()
                .map(|addrs| {
                    let mut seen = Vec::new();
                    for addr in addrs {
                        let text = addr.ip().to_string();
                        if !seen.contains(&text) {
                            seen.push(text);
                        }
                    }
                    seen
                })
                .map_err(|e| e.to_string()),
        )
    }
}

const BLOCKED_HOST_OR_IP: &str = "Blocked hostname or private/internal/special-use IP address";
const BLOCKED_RESOLVED_IP: &str = "Blocked: resolves to private/internal/special-use IP address";
const INVALID_URL: &str = "Invalid URL: must be http or https";
const BLOCKED_HOSTNAMES: [&str; 3] = ["localhost", "localhost.localdomain", "metadata.google.internal"];
const BLOCKED_SUFFIXES: [&str; 3] = [".localhost", ".local", ".internal"];

/// The guard of one release with one policy.
pub struct Guard {
    release: &'static SsrfRules,
    /// The policy as the release reads it: fields the release does not know are dropped.
    policy: SsrfPolicy,
}

/// A refusal or failure while checking one hop.
struct Stop {
    verdict: Verdict,
    reason: String,
    block: Block,
}

impl Stop {
    fn blocked(reason: impl Into<String>, block: Block) -> Self {
        Stop { verdict: Verdict::Blocked, reason: reason.into(), block }
    }

    fn error(reason: impl Into<String>, rule: &'static str) -> Self {
        let reason = reason.into();
        Stop { verdict: Verdict::Error, block: Block { rule, detail: reason.clone() }, reason }
    }
}

fn block(rule: &'static str, detail: impl Into<String>) -> Block {
    Block { rule, detail: detail.into() }
}

impl Guard {
    pub fn new(version: OpenClawVersion, policy: &SsrfPolicy) -> Self {
        let release = version.data().ssrf();
        let mut policy = policy.clone();
        let known = |field: &str| release.reads_policy_field(field);
        if !known("allowIpv6UniqueLocalRange") {
            policy.allow_ipv6_unique_local_range = false;
        }
        if !known("blockedHostnames") {
            policy.blocked_hostnames.clear();
        }
        Guard { release, policy }
    }

    /// Lowercase, trimmed, trailing dot(s) and IPv6 brackets removed.
    pub fn normalize_hostname(&self, hostname: &str) -> String {
        let lower = hostname.trim().to_lowercase();
        let stripped = if self.release.strips_all_trailing_dots {
            lower.trim_end_matches('.')
        } else {
            lower.strip_suffix('.').unwrap_or(&lower)
        };
        match stripped.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            Some(inner) => inner.to_string(),
            None => stripped.to_string(),
        }
    }

    fn normalize_patterns(&self, values: &[String]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for value in values {
            let normalized = self.normalize_hostname(value);
            if !normalized.is_empty() && normalized != "*" && normalized != "*." && !out.contains(&normalized) {
                out.push(normalized);
            }
        }
        out
    }

    /// `ipaddr.js`-strict parse: canonical dotted-decimal IPv4 or any valid IPv6.
    fn parse_canonical(&self, text: &str) -> Option<Ip> {
        let text = strip_brackets(text.trim());
        if text.is_empty() {
            return None;
        }
        if ipaddr::is_four_part_decimal(text) {
            return ipaddr::parse_ipv4_loose(text).map(Ip::V4);
        }
        if ipaddr::parse_ipv4_loose(text).is_some() {
            return None;
        }
        ipaddr::parse_ipv6(text).or_else(|| self.parse_embedded_fallback(text))
    }

    /// Any spelling the library accepts, plus 2026.2's embedded-IPv4 fallback.
    fn parse_loose(&self, text: &str) -> Option<Ip> {
        let text = strip_brackets(text.trim());
        ipaddr::parse_any(text).or_else(|| self.parse_embedded_fallback(text))
    }

    fn parse_embedded_fallback(&self, text: &str) -> Option<Ip> {
        if !self.release.embedded_ipv4_fallback_parse || !text.contains(':') || !text.contains('.') {
            return None;
        }
        let (address, zone) = match text.find('%') {
            Some(at) => (&text[..at], &text[at..]),
            None => (text, ""),
        };
        if !zone.is_empty() && !zone[1..].chars().all(|c| c.is_ascii_alphanumeric()) || zone.len() == 1 {
            return None;
        }
        let colon = address.rfind(':')?;
        let (prefix, dotted) = address.split_at(colon + 1);
        if !ipaddr::is_four_part_decimal(dotted) {
            return None;
        }
        let [a, b, c, d] = ipaddr::parse_ipv4_loose(dotted)?;
        let rewritten = format!("{prefix}{:x}:{:x}{zone}", u16::from_be_bytes([a, b]), u16::from_be_bytes([c, d]));
        ipaddr::parse_ipv6(&rewritten)
    }

    fn is_cloud_metadata(&self, ip: &Ip) -> bool {
        let listed = |ip: &Ip| self.release.cloud_metadata.contains(&ip.to_string());
        let unmapped = ip.unmapped();
        listed(&unmapped) || (!unmapped.is_v4() && self.embedded_ipv4(&unmapped).is_some_and(|e| listed(&Ip::V4(e))))
    }

    /// The IPv4 address an IPv6 transition form carries: mapped, translated, NAT64, 6to4,
    /// Teredo (XOR-decoded), IPv4-compatible or ISATAP.
    pub fn embedded_ipv4(&self, ip: &Ip) -> Option<[u8; 4]> {
        let parts = ip.v6_parts()?;
        let from = |high: u16, low: u16| Some(ipaddr::ipv4_from_groups(high, low));
        let local_use_nat64 = parts[0] == 0x64 && parts[1] == 0xff9b && parts[2] == 1;
        match ip.range().name {
            "ipv4Mapped" | "rfc6145" => return from(parts[6], parts[7]),
            "rfc6052" if local_use_nat64 && self.release.blocks_local_use_nat64 => return None,
            "rfc6052" => return from(parts[6], parts[7]),
            "6to4" => return from(parts[1], parts[2]),
            "teredo" => return from(parts[6] ^ 0xffff, parts[7] ^ 0xffff),
            _ => {}
        }
        let ipv4_compatible = parts[..6].iter().all(|p| *p == 0);
        let isatap = parts[4] & 0xfcff == 0 && parts[5] == 0x5efe;
        (ipv4_compatible || isatap).then(|| ipaddr::ipv4_from_groups(parts[6], parts[7]))
    }

    fn blocked_ipv4(&self, octets: [u8; 4], via: Option<&str>) -> Option<Block> {
        let ip = Ip::V4(octets);
        // RFC 2544 benchmarking, 198.18.0.0/15.
        let in_rfc2544 = octets[0] == 198 && octets[1] & 0xfe == 18;
        if in_rfc2544 && self.policy.allow_rfc2544_benchmark_range {
            return None;
        }
        let range = ip.range();
        let blocked = matches!(
            range.name,
            "unspecified"
                | "broadcast"
                | "multicast"
                | "linkLocal"
                | "loopback"
                | "carrierGradeNat"
                | "private"
                | "reserved"
        );
        if !blocked && !in_rfc2544 {
            return None;
        }
        let range_text = format!("{} {}", range.name, range.cidr.unwrap_or_else(|| "198.18.0.0/15".into()));
        Some(match via {
            Some(form) => block("embedded-ipv4", format!("{form} embeds {ip}, {range_text}")),
            None => block("ipv4-special-use", format!("{ip} is {range_text}")),
        })
    }

    fn blocked_ipv6(&self, ip: &Ip, unique_local_opt_out: bool) -> Option<Block> {
        let parts = ip.v6_parts()?;
        if self.release.blocks_local_use_nat64 && parts[0] == 0x64 && parts[1] == 0xff9b && parts[2] == 1 {
            return Some(block("nat64-local-use", format!("{ip} is local-use NAT64 64:ff9b:1::/48")));
        }
        if self.is_cloud_metadata(ip) {
            return Some(block("cloud-metadata", format!("{ip} is a cloud metadata address")));
        }
        let range = ip.range();
        if range.name == "uniqueLocal" && unique_local_opt_out {
            return None;
        }
        if self.release.ipv6_blocked_ranges.iter().any(|r| r == range.name) {
            let cidr = range.cidr.unwrap_or_default();
            return Some(block("ipv6-special-use", format!("{ip} is {} {cidr}", range.name)));
        }
        (parts[0] & 0xffc0 == 0xfec0).then(|| block("ipv6-special-use", format!("{ip} is site-local fec0::/10")))
    }

    /// OpenClaw's `isPrivateIpAddress`: special-use ranges, embedded IPv4, and literals that
    /// only look like addresses (legacy IPv4 spellings, malformed IPv6).
    pub fn private_ip(&self, address: &str) -> Option<Block> {
        let normalized = strip_brackets(address.trim()).to_lowercase();
        if normalized.is_empty() {
            return None;
        }
        if let Some(ip) = self.parse_canonical(&normalized) {
            return match &ip {
                Ip::V4(octets) => self.blocked_ipv4(*octets, None),
                Ip::V6 { .. } => self.blocked_ipv6(&ip, self.policy.allow_ipv6_unique_local_range).or_else(|| {
                    let form = format!("{ip} ({})", ip.range().name);
                    self.embedded_ipv4(&ip).and_then(|embedded| self.blocked_ipv4(embedded, Some(&form)))
                }),
            };
        }
        if normalized.contains(':') && self.parse_loose(&normalized).is_none() {
            return Some(block("malformed-ipv6-literal", format!("`{normalized}` is not a valid IPv6 address")));
        }
        if is_legacy_ipv4_literal(&normalized) {
            return Some(block("legacy-ipv4-literal", format!("`{normalized}` is a non-canonical IPv4 spelling")));
        }
        if looks_like_unsupported_ipv4_literal(&normalized) {
            return Some(block("unsupported-ipv4-literal", format!("`{normalized}` looks like an IPv4 literal")));
        }
        None
    }

    /// OpenClaw's `isBlockedHostnameOrIp`: built-in blocked names, then `private_ip`.
    pub fn blocked_host_or_ip(&self, hostname: &str) -> Option<Block> {
        let normalized = self.normalize_hostname(hostname);
        if normalized.is_empty() {
            return None;
        }
        if BLOCKED_HOSTNAMES.contains(&normalized.as_str()) {
            return Some(block("blocked-hostname", format!("`{normalized}` is a built-in blocked hostname")));
        }
        if let Some(suffix) = BLOCKED_SUFFIXES.iter().find(|suffix| normalized.ends_with(*suffix)) {
            return Some(block("blocked-hostname", format!("`{normalized}` ends in `{suffix}`")));
        }
        self.private_ip(&normalized)
    }

    /// The checks before DNS. Returns the normalized host and whether the private-network checks
    /// are skipped for it (private networks allowed, or the host explicitly allowed).
    fn check_hostname(&self, hostname: &str) -> Result<(String, bool), Stop> {
        let normalized = self.normalize_hostname(hostname);
        if normalized.is_empty() {
            return Err(Stop::error("Invalid hostname", "invalid-hostname"));
        }
        if let Some(pattern) =
            self.normalize_patterns(&self.policy.blocked_hostnames).into_iter().find(|p| host_matches(&normalized, p))
        {
            return Err(Stop::blocked(
                format!(
                    "Domain policy: Blocked hostname (configured blocklist): {hostname}. Try a URL on a different domain or ask the operator to review blockedHostnames."
                ),
                block("blockedHostnames", format!("`{normalized}` matches `{pattern}`")),
            ));
        }
        let allowlist = self.normalize_patterns(&self.policy.hostname_allowlist);
        if !allowlist.is_empty() && !allowlist.iter().any(|p| host_matches(&normalized, p)) {
            let reason = if self.release.allowlist_message_detailed {
                format!(
                    "Domain policy: Blocked hostname (not in allowlist): {hostname}. Permitted hostname patterns: {}. Try a URL on a permitted domain.",
                    allowlist.join(", ")
                )
            } else {
                format!("Blocked hostname (not in allowlist): {hostname}")
            };
            return Err(Stop::blocked(
                reason,
                block("hostnameAllowlist", format!("`{normalized}` matches none of {}", allowlist.join(", "))),
            ));
        }
        let skip = self.policy.private_network_allowed()
            || self.normalize_patterns(&self.policy.allowed_hostnames).contains(&normalized);
        if !skip && let Some(found) = self.blocked_host_or_ip(&normalized) {
            return Err(Stop::blocked(BLOCKED_HOST_OR_IP, found));
        }
        Ok((normalized, skip))
    }

    /// The checks on every address DNS returned.
    fn check_addresses(&self, host: &str, addresses: &[String], skip: bool) -> Result<(), Stop> {
        let resolved = |found: Block| {
            Stop::blocked(BLOCKED_RESOLVED_IP, Block { rule: found.rule, detail: format!("{host} → {}", found.detail) })
        };
        if !skip {
            return match addresses.iter().find_map(|address| self.blocked_host_or_ip(address)) {
                Some(found) => Err(resolved(found)),
                None => Ok(()),
            };
        }
        if self.policy.private_network_allowed() || !self.release.checks_trusted_hostname_addresses {
            return Ok(());
        }
        match addresses.iter().find_map(|address| self.trusted_host_address_block(host, address)) {
            Some(found) => Err(resolved(found)),
            None => Ok(()),
        }
    }

    /// What an explicitly allowed hostname may still not resolve to.
    fn trusted_host_address_block(&self, host: &str, address: &str) -> Option<Block> {
        let canonical = self.parse_canonical(address);
        if let Some(ip) = &canonical {
            let unmapped = ip.unmapped();
            let subject = if unmapped.is_v4() {
                unmapped.clone()
            } else {
                self.embedded_ipv4(&unmapped).map_or(unmapped.clone(), Ip::V4)
            };
            if unmapped.range().name != "loopback" && subject.range().name == "unspecified" {
                return Some(block("trusted-host-unspecified", format!("{address} is unspecified")));
            }
            if !self.is_explicit_loopback_hostname(host) && self.is_loopback_including_embedded(ip) {
                return Some(block("trusted-host-loopback", format!("{address} is loopback")));
            }
            if !ip.is_v4()
                && matches!(ip.range().name, "unicast" | "rfc6052")
                && let Some(found) = self.blocked_ipv6(ip, false)
            {
                return Some(Block { rule: "trusted-host-ipv6", detail: found.detail });
            }
        }
        let loose = self.parse_loose(address)?;
        let unmapped = loose.unmapped();
        let link_local = unmapped.range().name == "linkLocal"
            || (!unmapped.is_v4()
                && self.embedded_ipv4(&unmapped).is_some_and(|e| Ip::V4(e).range().name == "linkLocal"));
        if link_local {
            return Some(block("trusted-host-link-local", format!("{address} is link-local")));
        }
        self.is_cloud_metadata(&loose)
            .then(|| block("cloud-metadata", format!("{address} is a cloud metadata address")))
    }

    fn is_loopback_including_embedded(&self, ip: &Ip) -> bool {
        let unmapped = ip.unmapped();
        unmapped.range().name == "loopback"
            || (!unmapped.is_v4() && self.embedded_ipv4(ip).is_some_and(|e| Ip::V4(e).range().name == "loopback"))
    }

    fn is_explicit_loopback_hostname(&self, host: &str) -> bool {
        host == "localhost"
            || host == "localhost.localdomain"
            || host.ends_with(".localhost")
            || self.parse_canonical(host).is_some_and(|ip| self.is_loopback_including_embedded(&ip))
    }

    /// Checks one URL as fetched: scheme, host, and addresses.
    fn check_hop(&self, url: &Url, resolver: &dyn Resolver) -> (Hop, Result<(), Stop>) {
        let mut hop = Hop {
            url: url.to_string(),
            host: None,
            addresses: Vec::new(),
            dns_checked: false,
            verdict: Verdict::Allowed,
        };
        if !matches!(url.scheme(), "http" | "https") {
            hop.verdict = Verdict::Blocked;
            return (
                hop,
                Err(Stop::blocked(
                    INVALID_URL,
                    block("scheme", format!("scheme `{}` is not http or https", url.scheme())),
                )),
            );
        }
        let hostname = url.host_str().unwrap_or_default();
        hop.host = Some(self.normalize_hostname(hostname));
        let result = self.check_hostname(hostname).and_then(|(host, skip)| {
            let answer = match self.parse_canonical(&host) {
                // DNS returns an IP literal as itself.
                Some(_) => Some(Ok(vec![host.clone()])),
                None => resolver.resolve(&host),
            };
            match answer {
                None => Ok(()),
                Some(Err(message)) => {
                    Err(Stop::error(format!("Unable to resolve hostname: {hostname} ({message})"), "dns"))
                }
                Some(Ok(addresses)) if addresses.is_empty() => {
                    Err(Stop::error(format!("Unable to resolve hostname: {hostname}"), "dns"))
                }
                Some(Ok(addresses)) => {
                    hop.dns_checked = true;
                    hop.addresses = addresses;
                    self.check_addresses(&host, &hop.addresses, skip)
                }
            }
        });
        if let Err(stop) = &result {
            hop.verdict = stop.verdict.clone();
        }
        (hop, result)
    }

    /// The `url` parameter as the web_fetch tool hands it to the guard (2026.9 trims stray
    /// whitespace first; the guard itself does not).
    pub fn web_fetch_url(&self, raw: &str) -> String {
        if self.release.sanitizes_web_fetch_url { sanitize_web_fetch_url(raw) } else { raw.to_string() }
    }

    /// Checks a URL and the redirect chain its server would answer with: each `Location` is
    /// resolved against the previous URL and checked again, up to `max_redirects`.
    pub fn check_chain(
        &self,
        raw_url: &str,
        redirects: &[String],
        max_redirects: u32,
        resolver: &dyn Resolver,
    ) -> UrlReport {
        let start = raw_url.to_string();
        let mut report = UrlReport {
            url: raw_url.to_string(),
            verdict: Verdict::Allowed,
            reason: None,
            rule: None,
            detail: None,
            decided_at: 0,
            hops: Vec::new(),
        };
        let finish = |report: &mut UrlReport, stop: Stop| {
            report.verdict = stop.verdict;
            report.reason = Some(stop.reason);
            report.rule = Some(stop.block.rule);
            report.detail = Some(stop.block.detail);
            report.decided_at = report.hops.len().saturating_sub(1);
        };
        let mut current = match Url::parse(&start) {
            Ok(url) => url,
            Err(e) => {
                report.hops.push(Hop {
                    url: start.clone(),
                    host: None,
                    addresses: Vec::new(),
                    dns_checked: false,
                    verdict: Verdict::Blocked,
                });
                finish(
                    &mut report,
                    Stop::blocked(INVALID_URL, block("invalid-url", format!("`{start}` does not parse: {e}"))),
                );
                return report;
            }
        };
        let mut visited: Vec<String> = if self.release.start_url_visited { vec![start] } else { Vec::new() };
        let mut locations = redirects.iter();
        let mut redirect_count = 0u32;
        loop {
            let (hop, result) = self.check_hop(&current, resolver);
            report.hops.push(hop);
            if let Err(stop) = result {
                finish(&mut report, stop);
                return report;
            }
            let Some(location) = locations.next() else {
                report.decided_at = report.hops.len() - 1;
                return report;
            };
            redirect_count += 1;
            if redirect_count > max_redirects {
                let reason = format!("Too many redirects (limit: {max_redirects})");
                finish(&mut report, Stop::blocked(reason.clone(), block("too-many-redirects", reason)));
                return report;
            }
            let next = match current.join(location) {
                Ok(next) => next,
                Err(e) => {
                    finish(
                        &mut report,
                        Stop::error(format!("invalid redirect location `{location}`: {e}"), "redirect-location"),
                    );
                    return report;
                }
            };
            if visited.contains(&next.to_string()) {
                finish(
                    &mut report,
                    Stop::blocked(
                        "Redirect loop detected",
                        block("redirect-loop", format!("{next} was already visited")),
                    ),
                );
                return report;
            }
            visited.push(next.to_string());
            current = next;
        }
    }
}

fn strip_brackets(text: &str) -> &str {
    text.strip_prefix('[').and_then(|s| s.strip_suffix(']')).unwrap_or(text)
}

/// `*.example.com` matches strict subdomains only; any other pattern matches exactly.
fn host_matches(host: &str, pattern: &str) -> bool {
    match pattern.strip_prefix("*.") {
        Some(suffix) => !suffix.is_empty() && host != suffix && host.ends_with(&format!(".{suffix}")),
        None => host == pattern,
    }
}

fn is_numeric_ipv4_part(part: &str) -> bool {
    (!part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
        || part.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("0x"))
            && part.len() > 2
            && part[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// Numeric IPv4 spellings the canonical parser refuses (`0x7f.1`, `127.1`, `017.0.0.1`).
fn is_legacy_ipv4_literal(text: &str) -> bool {
    if text.is_empty() || text.contains(':') || ipaddr::is_four_part_decimal(text) {
        return false;
    }
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() <= 4 && parts.iter().all(|p| is_numeric_ipv4_part(p))
}

/// Dot-separated text that is all numbers or `0x…` parts, or has an empty label.
fn looks_like_unsupported_ipv4_literal(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() > 4 {
        return false;
    }
    parts.iter().any(|p| p.is_empty())
        || parts
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_digit()) || p.get(..2).is_some_and(|x| x.eq_ignore_ascii_case("0x")))
}

/// 2026.9's web_fetch parameter clean-up: trailing control characters and spaces, leading
/// whitespace, and whitespace right after `http(s)://` or after a bare host.
fn sanitize_web_fetch_url(raw: &str) -> String {
    let trimmed = raw.trim_end_matches(|c: char| (c as u32) <= 32).trim_start();
    let lower = trimmed.to_ascii_lowercase();
    let scheme_len = ["https://", "http://"].iter().find(|s| lower.starts_with(*s)).map(|s| s.len());
    let Some(scheme_len) = scheme_len else {
        return trimmed.to_string();
    };
    let rest = trimmed[scheme_len..].trim_start();
    let host_only = rest.trim_end();
    let rest =
        if !host_only.is_empty() && !host_only.contains(['/', '?', '#']) && !host_only.contains(char::is_whitespace) {
            host_only
        } else {
            rest
        };
    format!("{}{rest}", &trimmed[..scheme_len])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(version: OpenClawVersion, policy: &SsrfPolicy, url: &str) -> (Verdict, Option<&'static str>) {
        let report = Guard::new(version, policy).check_chain(url, &[], DEFAULT_MAX_REDIRECTS, &DnsTable::default());
        (report.verdict, report.rule)
    }

    fn blocked_by(url: &str) -> Option<&'static str> {
        let (v, rule) = verdict(OpenClawVersion::V2026_9, &SsrfPolicy::default(), url);
        if v == Verdict::Blocked { rule } else { None }
    }

    #[test]
    fn ipv4_ranges_and_their_edges() {
        let cases = [
            ("http://0.0.0.0/", Some("ipv4-special-use")),
            ("http://0.255.255.255/", Some("ipv4-special-use")),
            ("http://1.0.0.0/", None),
            ("http://9.255.255.255/", None),
            ("http://10.0.0.0/", Some("ipv4-special-use")),
            ("http://10.255.255.255/", Some("ipv4-special-use")),
            ("http://11.0.0.0/", None),
            ("http://100.63.255.255/", None),
            ("http://100.64.0.0/", Some("ipv4-special-use")),
            ("http://100.127.255.255/", Some("ipv4-special-use")),
            ("http://100.128.0.0/", None),
            ("http://126.255.255.255/", None),
            ("http://127.0.0.1/", Some("ipv4-special-use")),
            ("http://128.0.0.0/", None),
            ("http://169.253.255.255/", None),
            ("http://169.254.169.254/", Some("ipv4-special-use")),
            ("http://169.255.0.0/", None),
            ("http://172.15.255.255/", None),
            ("http://172.16.0.0/", Some("ipv4-special-use")),
            ("http://172.31.255.255/", Some("ipv4-special-use")),
            ("http://172.32.0.0/", None),
            ("http://192.0.0.255/", Some("ipv4-special-use")),
            ("http://192.0.1.0/", None),
            ("http://192.0.2.1/", Some("ipv4-special-use")),
            ("http://192.88.99.1/", Some("ipv4-special-use")),
            ("http://192.167.255.255/", None),
            ("http://192.168.0.0/", Some("ipv4-special-use")),
            ("http://192.169.0.0/", None),
            ("http://198.17.255.255/", None),
            ("http://198.18.0.0/", Some("ipv4-special-use")),
            ("http://198.19.255.255/", Some("ipv4-special-use")),
            ("http://198.20.0.0/", None),
            ("http://198.51.100.7/", Some("ipv4-special-use")),
            ("http://203.0.113.9/", Some("ipv4-special-use")),
            ("http://223.255.255.255/", None),
            ("http://224.0.0.0/", Some("ipv4-special-use")),
            ("http://239.255.255.255/", Some("ipv4-special-use")),
            ("http://240.0.0.0/", Some("ipv4-special-use")),
            ("http://255.255.255.255/", Some("ipv4-special-use")),
            ("http://8.8.8.8/", None),
        ];
        for (url, expected) in cases {
            assert_eq!(blocked_by(url), expected, "{url}");
        }
    }

    #[test]
    fn numeric_spellings_are_canonicalized_by_the_url_parser() {
        for url in ["http://0x7f.1/", "http://2130706433/", "http://0177.0.0.1/", "http://127.1/", "http://0x7f000001/"]
        {
            assert_eq!(blocked_by(url), Some("ipv4-special-use"), "{url}");
        }
        assert_eq!(blocked_by("http://0x08080808/"), None);
    }

    #[test]
    fn ipv6_ranges_and_embedded_ipv4() {
        let cases = [
            ("http://[::]/", Some("ipv6-special-use")),
            ("http://[::1]/", Some("ipv6-special-use")),
            ("http://[::2]/", Some("embedded-ipv4")),
            ("http://[::1:0:0:2]/", None),
            ("http://[fe80::1]/", Some("ipv6-special-use")),
            ("http://[febf:ffff::1]/", Some("ipv6-special-use")),
            ("http://[fec0::1]/", Some("ipv6-special-use")),
            ("http://[fc00::1]/", Some("ipv6-special-use")),
            ("http://[fdff::1]/", Some("ipv6-special-use")),
            ("http://[fe00::1]/", None),
            ("http://[ff02::1]/", Some("ipv6-special-use")),
            ("http://[100::1]/", Some("ipv6-special-use")),
            ("http://[100:0:0:1::1]/", None),
            ("http://[2001:db8::1]/", Some("ipv6-special-use")),
            ("http://[2001:2::1]/", Some("ipv6-special-use")),
            ("http://[2001:20::1]/", Some("ipv6-special-use")),
            ("http://[3fff::1]/", Some("ipv6-special-use")),
            ("http://[64:ff9b:1::1]/", Some("nat64-local-use")),
            ("http://[fd00:ec2::254]/", Some("cloud-metadata")),
            ("http://[::ffff:127.0.0.1]/", Some("embedded-ipv4")),
            ("http://[::ffff:8.8.8.8]/", None),
            ("http://[64:ff9b::10.0.0.1]/", Some("embedded-ipv4")),
            ("http://[64:ff9b::8.8.8.8]/", None),
            ("http://[2002:a00:1::]/", Some("embedded-ipv4")),
            ("http://[2002:808:808::]/", None),
            ("http://[2001:0:0:0:0:0:f5ff:fffe]/", Some("embedded-ipv4")),
            ("http://[::a00:1]/", Some("embedded-ipv4")),
            ("http://[fe80::5efe:a00:1]/", Some("ipv6-special-use")),
            ("http://[2606:4700::5efe:a00:1]/", Some("embedded-ipv4")),
            ("http://[2606:4700::1111]/", None),
        ];
        for (url, expected) in cases {
            assert_eq!(blocked_by(url), expected, "{url}");
        }
    }

    #[test]
    fn hostnames_and_policy() {
        assert_eq!(blocked_by("http://LOCALHOST./"), Some("blocked-hostname"));
        assert_eq!(blocked_by("http://printer.local/"), Some("blocked-hostname"));
        assert_eq!(blocked_by("http://metadata.google.internal/"), Some("blocked-hostname"));
        assert_eq!(blocked_by("http://example.com/"), None);
        assert_eq!(blocked_by("ftp://example.com/"), Some("scheme"));
        assert_eq!(blocked_by("not a url"), Some("invalid-url"));
        let policy = SsrfPolicy { blocked_hostnames: vec!["*.example.com".into()], ..Default::default() };
        assert_eq!(verdict(OpenClawVersion::V2026_9, &policy, "http://a.example.com/").1, Some("blockedHostnames"));
        assert_eq!(verdict(OpenClawVersion::V2026_9, &policy, "http://example.com/").0, Verdict::Allowed);
        let policy = SsrfPolicy { allow_rfc2544_benchmark_range: true, ..Default::default() };
        assert_eq!(verdict(OpenClawVersion::V2026_9, &policy, "http://198.18.0.1/").0, Verdict::Allowed);
        let policy = SsrfPolicy { allow_ipv6_unique_local_range: true, ..Default::default() };
        assert_eq!(verdict(OpenClawVersion::V2026_9, &policy, "http://[fd12::1]/").0, Verdict::Allowed);
        let policy = SsrfPolicy { allowed_hostnames: vec!["169.254.169.254".into()], ..Default::default() };
        assert_eq!(
            verdict(OpenClawVersion::V2026_9, &policy, "http://169.254.169.254/").1,
            Some("trusted-host-link-local")
        );
        assert_eq!(verdict(OpenClawVersion::V2026_2, &policy, "http://169.254.169.254/").0, Verdict::Allowed);
    }

    #[test]
    fn releases_differ_where_the_packages_do() {
        let default = SsrfPolicy::default();
        assert_eq!(verdict(OpenClawVersion::V2026_2, &default, "http://[2001:db8::1]/").0, Verdict::Allowed);
        assert_eq!(verdict(OpenClawVersion::V2026_2, &default, "http://[fec0::1]/").0, Verdict::Blocked);
        let guard = Guard::new(OpenClawVersion::V2026_2, &default);
        assert_eq!(guard.normalize_hostname("Example.COM.."), "example.com.");
        assert_eq!(Guard::new(OpenClawVersion::V2026_9, &default).normalize_hostname("Example.COM.."), "example.com");
    }

    #[test]
    fn resolved_addresses_and_redirects() {
        let mut dns = DnsTable::default();
        dns.answers.insert("rebind.example".into(), vec!["93.184.216.34".into(), "10.0.0.7".into()]);
        let policy = SsrfPolicy::default();
        let guard = Guard::new(OpenClawVersion::V2026_9, &policy);
        let report = guard.check_chain("https://rebind.example/", &[], 3, &dns);
        assert_eq!((report.verdict, report.rule), (Verdict::Blocked, Some("ipv4-special-use")));
        assert_eq!(report.reason.as_deref(), Some(BLOCKED_RESOLVED_IP));
        let report = guard.check_chain("https://a.example/", &["/next".into(), "http://127.0.0.1/".into()], 3, &dns);
        assert_eq!((report.verdict, report.decided_at), (Verdict::Blocked, 2));
        let hops: Vec<String> = (0..4).map(|i| format!("https://a.example/{i}")).collect();
        let report = guard.check_chain("https://a.example/", &hops, 3, &dns);
        assert_eq!(report.rule, Some("too-many-redirects"));
        let report = guard.check_chain("https://a.example/", &["https://a.example/".into()], 3, &dns);
        assert_eq!(report.rule, Some("redirect-loop"));
        let report = Guard::new(OpenClawVersion::V2026_2, &policy).check_chain(
            "https://a.example/",
            &["https://a.example/".into()],
            3,
            &dns,
        );
        assert_eq!(report.verdict, Verdict::Allowed, "2026.2 does not count the start URL as visited");
    }

    #[test]
    fn literal_classification() {
        let policy = SsrfPolicy::default();
        let guard = Guard::new(OpenClawVersion::V2026_9, &policy);
        assert_eq!(guard.private_ip("0x7f.1").map(|b| b.rule), Some("legacy-ipv4-literal"));
        assert_eq!(guard.private_ip("1..2").map(|b| b.rule), Some("unsupported-ipv4-literal"));
        assert_eq!(guard.private_ip("1:2:3").map(|b| b.rule), Some("malformed-ipv6-literal"));
        assert_eq!(guard.private_ip("example.com"), None);
        assert_eq!(sanitize_web_fetch_url("  https://  example.com  "), "https://example.com");
    }
}
