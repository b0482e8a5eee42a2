//! The SSRF guard against the real packages: `fixtures/conformance/ssrf/expected-<version>.jsonl`
//! holds the answers of OpenClaw's own `isBlockedHostnameOrIp` (address cases) and
//! `fetchWithSsrFGuard` (URL cases with a fake DNS table and redirect chain); see generate.mjs.

use std::collections::BTreeMap;

use clawpolicy::OpenClawVersion;
use clawpolicy::guards::ssrf::{DEFAULT_MAX_REDIRECTS, Guard, Resolver, SsrfPolicy, Verdict};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/conformance/ssrf");

/// The fixture's DNS table; any other name fails to resolve, as the generator's fake lookup does.
struct FixtureDns(BTreeMap<String, Vec<String>>);

impl Resolver for FixtureDns {
    fn resolve(&self, host: &str) -> Option<Result<Vec<String>, String>> {
        Some(self.0.get(host).cloned().ok_or_else(|| format!("getaddrinfo ENOTFOUND {host}")))
    }
}

fn lines(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{DIR}/{name}")).unwrap();
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

fn verdict_name(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Allowed => "allowed",
        Verdict::Blocked => "blocked",
        Verdict::Error => "error",
    }
}

/// Our answer in the fixture's shape.
fn answer(case: &Value, version: OpenClawVersion, dns: &FixtureDns) -> Value {
    let policy: SsrfPolicy =
        serde_json::from_value(case.get("policy").cloned().unwrap_or_default()).unwrap_or_default();
    let guard = Guard::new(version, &policy);
    if case["kind"] == "address" {
        return serde_json::json!({"blocked": guard.blocked_host_or_ip(case["address"].as_str().unwrap()).is_some()});
    }
    let redirects: Vec<String> = serde_json::from_value(case["redirects"].clone()).unwrap();
    let max = case.get("maxRedirects").and_then(Value::as_u64).map_or(DEFAULT_MAX_REDIRECTS, |n| n as u32);
    let report = guard.check_chain(case["url"].as_str().unwrap(), &redirects, max, dns);
    let fetched = report.hops.iter().filter(|hop| hop.verdict == Verdict::Allowed).count();
    let mut out = serde_json::json!({"verdict": verdict_name(&report.verdict), "fetched": fetched});
    if report.verdict == Verdict::Blocked {
        out["reason"] = report.reason.clone().into();
    }
    out
}

/// The expected answer reduced to what is compared: errors by verdict only (their text is the
/// platform resolver's).
fn comparable(expected: &Value) -> Value {
    let mut out = expected.clone();
    if out.get("verdict").is_some_and(|v| v != "blocked") {
        out.as_object_mut().unwrap().remove("reason");
    }
    out
}

fn check(version: OpenClawVersion) {
    let cases = lines("cases.jsonl");
    let expected = lines(&format!("expected-{}.jsonl", version.line()));
    assert_eq!(cases.len(), expected.len());
    let dns = FixtureDns(serde_json::from_str(&std::fs::read_to_string(format!("{DIR}/dns.json")).unwrap()).unwrap());
    let mut failures = Vec::new();
    for (case, expected) in cases.iter().zip(&expected) {
        let ours = answer(case, version, &dns);
        if ours != comparable(expected) {
            failures.push(format!("{case}\n  expected {expected}\n  got      {ours}"));
        }
    }
    let agreed = cases.len() - failures.len();
    println!("ssrf {}: {agreed}/{} cases agree", version.line(), cases.len());
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn ssrf_2026_9_matches_the_release() {
    check(OpenClawVersion::V2026_9);
}

#[test]
fn ssrf_2026_2_matches_the_release() {
    check(OpenClawVersion::V2026_2);
}
