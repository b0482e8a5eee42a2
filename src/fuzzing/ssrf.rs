//! Target of the SSRF guard: its IP parsers and host checks on every line, and the redirect
//! chain check of both releases.

use std::collections::BTreeMap;

use super::text;
use crate::OpenClawVersion;
use crate::guards::ipaddr;
use crate::guards::ssrf::{DEFAULT_MAX_REDIRECTS, DnsTable, Guard, SsrfPolicy};

/// The input is lines: `dns HOST=IP,IP`, `allow PATTERN`, `block HOST`, `flags N` (bits:
/// private network, dangerously private network, RFC 2544, IPv6 unique-local) set up the
/// guard; the first other line is the URL, the others its redirects. No DNS is looked up.
pub fn ssrf(data: &[u8]) {
    let input = text(data);
    let mut policy = SsrfPolicy::default();
    let mut dns = DnsTable::default();
    let mut urls = Vec::new();
    for line in input.lines() {
        if let Some(answer) = line.strip_prefix("dns ") {
            let (host, addresses) = answer.split_once('=').unwrap_or((answer, ""));
            dns.answers.insert(host.to_string(), addresses.split(',').map(String::from).collect());
        } else if let Some(pattern) = line.strip_prefix("allow ") {
            policy.allowed_hostnames.push(pattern.to_string());
            policy.hostname_allowlist.push(pattern.to_string());
        } else if let Some(host) = line.strip_prefix("block ") {
            policy.blocked_hostnames.push(host.to_string());
        } else if let Some(bits) = line.strip_prefix("flags ") {
            let bits: u8 = bits.trim().parse().unwrap_or(0);
            policy.allow_private_network = bits & 1 != 0;
            policy.dangerously_allow_private_network = bits & 2 != 0;
            policy.allow_rfc2544_benchmark_range = bits & 4 != 0;
            policy.allow_ipv6_unique_local_range = bits & 8 != 0;
        } else {
            urls.push(line.to_string());
        }
    }
    let dns = DnsTable { answers: dns.answers.into_iter().collect::<BTreeMap<_, _>>(), system: false };
    for version in [OpenClawVersion::V2026_9, OpenClawVersion::V2026_2] {
        let guard = Guard::new(version, &policy);
        for line in input.lines() {
            parse_every_way(line);
            let host = guard.normalize_hostname(line);
            guard.private_ip(&host);
            guard.blocked_host_or_ip(&host);
        }
        let Some((url, redirects)) = urls.split_first() else { continue };
        let report = guard.check_chain(&guard.web_fetch_url(url), redirects, DEFAULT_MAX_REDIRECTS, &dns);
        assert!(report.decided_at < report.hops.len().max(1), "decided_at outside the hops: {report:?}");
        serde_json::to_string(&report).expect("a report serializes");
    }
}

fn parse_every_way(text: &str) {
    ipaddr::parse_ipv4_loose(text);
    ipaddr::is_four_part_decimal(text);
    ipaddr::parse_ipv6(text);
    if let Some(ip) = ipaddr::parse_any(text) {
        ip.range();
        ip.unmapped().range();
    }
}
