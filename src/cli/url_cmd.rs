//! `clawpolicy url`: would OpenClaw's SSRF guard let web_fetch (or another guarded fetch) fetch
//! this URL and follow its redirects?

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;
use serde_json::{Value, json};

use super::ConfigArgs;
use super::exit::Exit;
use super::output::{self, Format};
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::guards::ssrf::{self, DnsTable, Guard, SsrfPolicy, UrlReport, Verdict};

#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes:\n  0  allowed\n  1  blocked by the SSRF guard\n  2  could not answer (bad config or flags), or the fetch fails for another reason (DNS)\n  --batch always exits 0 once it has run."
)]
pub struct UrlArgs {
    /// The URL, as the agent would pass it to web_fetch.
    #[arg(required_unless_present = "batch")]
    pub url: Option<String>,
    /// A redirect the server answers with (a `Location` value, relative or absolute); repeat for a chain.
    #[arg(long = "redirect", value_name = "URL")]
    pub redirects: Vec<String>,
    /// Look host names up in DNS and check every address (default: offline, names are checked before DNS only).
    #[arg(long)]
    pub resolve: bool,
    /// A DNS answer to assume, `HOST=IP` (repeatable; several for one host add up).
    #[arg(long = "dns", value_name = "HOST=IP")]
    pub dns: Vec<String>,
    /// Redirects followed (default: tools.web.fetch.maxRedirects, else 3).
    #[arg(long, value_name = "N")]
    pub max_redirects: Option<u32>,
    #[command(flatten)]
    pub policy: PolicyArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[arg(long, value_parser = output::formats("table", output::TABLES_AND_DOCUMENTS), default_value = "table")]
    pub format: Format,
    /// Many URLs: one JSON case per line (a URL string, or `{"url", "redirects", "dns", "policy",
    /// "maxRedirects", "id"}`), JSONL answers out. `-` = stdin.
    #[arg(long, value_name = "FILE.jsonl", conflicts_with = "url")]
    pub batch: Option<PathBuf>,
}

/// What-if policy fields, added to what the config says (OpenClaw's `ssrfPolicy` names in brackets).
#[derive(Debug, Args)]
#[command(next_help_heading = "SSRF policy (what if)")]
pub struct PolicyArgs {
    /// Allow private networks [dangerouslyAllowPrivateNetwork].
    #[arg(long)]
    pub allow_private_network: bool,
    /// Allow the RFC 2544 benchmark range 198.18.0.0/15 [allowRfc2544BenchmarkRange].
    #[arg(long)]
    pub allow_rfc2544: bool,
    /// Allow IPv6 unique-local fc00::/7 [allowIpv6UniqueLocalRange] (2026.9).
    #[arg(long)]
    pub allow_ipv6_ula: bool,
    /// A host exempt from the private-network checks [allowedHostnames] (repeatable).
    #[arg(long = "allowed-hostname", value_name = "HOST")]
    pub allowed_hostnames: Vec<String>,
    /// A blocked host or `*.suffix` [blockedHostnames] (repeatable; 2026.9).
    #[arg(long = "blocked-hostname", value_name = "PATTERN")]
    pub blocked_hostnames: Vec<String>,
    /// Only these hosts or `*.suffix` patterns [hostnameAllowlist] (repeatable).
    #[arg(long = "hostname-allowlist", value_name = "PATTERN")]
    pub hostname_allowlist: Vec<String>,
}

/// The effective policy and where each field came from.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PolicySetup {
    policy: SsrfPolicy,
    max_redirects: u32,
    /// Field → `config <key> at file:line:col` or `flag --…`.
    sources: BTreeMap<String, String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct UrlOutput<'a> {
    openclaw_version: OpenClawVersion,
    #[serde(flatten)]
    report: &'a UrlReport,
    policy: &'a SsrfPolicy,
    max_redirects: u32,
    policy_sources: &'a BTreeMap<String, String>,
}

pub fn run(global: &super::Global, args: &UrlArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    let setup = policy_setup(global, args)?;
    let dns = DnsTable { answers: parse_dns(&args.dns)?, system: args.resolve };
    if let Some(batch) = &args.batch {
        return run_batch(version, batch, &setup, &dns);
    }
    let raw = args.url.as_deref().unwrap_or_default();
    let guard = Guard::new(version, &setup.policy);
    let report = guard.check_chain(&guard.web_fetch_url(raw), &args.redirects, setup.max_redirects, &dns);
    match args.format {
        Format::Human => output::write_stdout(&render_text(&report, &setup))?,
        format => output::emit_machine(
            format,
            "url",
            &UrlOutput {
                openclaw_version: version,
                report: &report,
                policy: &setup.policy,
                max_redirects: setup.max_redirects,
                policy_sources: &setup.sources,
            },
        )?,
    }
    Ok(match report.verdict {
        Verdict::Allowed => Exit::Success,
        Verdict::Blocked => Exit::Flagged,
        Verdict::Error => Exit::CannotAnswer,
    }
    .into())
}

/// Config (2026.9's `tools.web.fetch.ssrfPolicy`, both releases' `maxRedirects`) then flags.
fn policy_setup(global: &super::Global, args: &UrlArgs) -> miette::Result<PolicySetup> {
    let version = global.version;
    let loaded = global.load(&args.config.files, args.format.machine("url"))?;
    let release = version.data().ssrf();
    let mut sources = BTreeMap::new();
    let mut policy = SsrfPolicy::default();
    if let Some(path) = &release.web_fetch_policy_path {
        let key = KeyPath::keys(&path.iter().map(String::as_str).collect::<Vec<_>>());
        if let Some(value) = key.lookup(loaded.config()) {
            policy = serde_json::from_value(value.clone())
                .map_err(|e| miette::miette!(code = "url::config", "{key}: {e}"))?;
            for field in policy.fields_set() {
                let field_key = key.key(field);
                let location = loaded.locate(&field_key).map(|at| format!(" at {at}")).unwrap_or_default();
                sources.insert(field.to_string(), format!("config {field_key}{location}"));
            }
        }
    }
    let flags = &args.policy;
    let mut set_by_flag = |field: &str, flag: &str, active: bool| -> miette::Result<()> {
        if !active {
            return Ok(());
        }
        if !release.reads_policy_field(field) {
            return Err(miette::miette!(
                code = "url::policy",
                "--{flag}: OpenClaw {} has no `{field}` SSRF policy setting",
                version.id()
            ));
        }
        sources.insert(field.to_string(), format!("flag --{flag}"));
        Ok(())
    };
    set_by_flag("dangerouslyAllowPrivateNetwork", "allow-private-network", flags.allow_private_network)?;
    set_by_flag("allowRfc2544BenchmarkRange", "allow-rfc2544", flags.allow_rfc2544)?;
    set_by_flag("allowIpv6UniqueLocalRange", "allow-ipv6-ula", flags.allow_ipv6_ula)?;
    set_by_flag("allowedHostnames", "allowed-hostname", !flags.allowed_hostnames.is_empty())?;
    set_by_flag("blockedHostnames", "blocked-hostname", !flags.blocked_hostnames.is_empty())?;
    set_by_flag("hostnameAllowlist", "hostname-allowlist", !flags.hostname_allowlist.is_empty())?;
    policy.dangerously_allow_private_network |= flags.allow_private_network;
    policy.allow_rfc2544_benchmark_range |= flags.allow_rfc2544;
    policy.allow_ipv6_unique_local_range |= flags.allow_ipv6_ula;
    policy.allowed_hostnames.extend(flags.allowed_hostnames.iter().cloned());
    policy.blocked_hostnames.extend(flags.blocked_hostnames.iter().cloned());
    policy.hostname_allowlist.extend(flags.hostname_allowlist.iter().cloned());
    let redirects_key = KeyPath::keys(&[keys::TOOLS, keys::WEB, keys::FETCH, keys::MAX_REDIRECTS]);
    let max_redirects = match (args.max_redirects, redirects_key.lookup(loaded.config()).and_then(Value::as_u64)) {
        (Some(flag), _) => {
            sources.insert("maxRedirects".into(), "flag --max-redirects".into());
            flag
        }
        (None, Some(configured)) => {
            let location = loaded.locate(&redirects_key).map(|at| format!(" at {at}")).unwrap_or_default();
            sources.insert("maxRedirects".into(), format!("config {redirects_key}{location}"));
            u32::try_from(configured).unwrap_or(u32::MAX)
        }
        (None, None) => ssrf::DEFAULT_MAX_REDIRECTS,
    };
    Ok(PolicySetup { policy, max_redirects, sources })
}

fn parse_dns(entries: &[String]) -> miette::Result<BTreeMap<String, Vec<String>>> {
    let mut answers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in entries {
        let (host, ip) = entry
            .split_once('=')
            .filter(|(host, ip)| !host.trim().is_empty() && ip.trim().parse::<std::net::IpAddr>().is_ok())
            .ok_or_else(|| miette::miette!(code = "url::dns", "--dns wants HOST=IP, got `{entry}`"))?;
        answers.entry(host.trim().to_lowercase()).or_default().push(ip.trim().to_string());
    }
    Ok(answers)
}

fn render_text(report: &UrlReport, setup: &PolicySetup) -> String {
    let verdict = match report.verdict {
        Verdict::Allowed => "ALLOWED",
        Verdict::Blocked => "BLOCKED",
        Verdict::Error => "ERROR",
    };
    let mut text = format!("{verdict}  {}\n", report.url);
    if let Some(reason) = &report.reason {
        text.push_str(&format!("reason: {reason}\n"));
    }
    match (report.rule, &report.detail) {
        (Some(rule), Some(detail)) if Some(detail) != report.reason.as_ref() => {
            text.push_str(&format!("rule:   {rule}: {detail}\n"));
        }
        (Some(rule), _) => text.push_str(&format!("rule:   {rule}\n")),
        _ => {}
    }
    let mut table = output::table(&["hop", "url", "host", "addresses", "verdict"]);
    for (index, hop) in report.hops.iter().enumerate() {
        let addresses = if hop.dns_checked { hop.addresses.join(", ") } else { "(not resolved)".into() };
        let verdict = match hop.verdict {
            Verdict::Allowed => "passes",
            Verdict::Blocked => "blocked",
            Verdict::Error => "error",
        };
        table.add_row(output::cells([
            index.to_string(),
            hop.url.clone(),
            hop.host.clone().unwrap_or_default(),
            addresses,
            verdict.to_string(),
        ]));
    }
    text.push_str(&format!("{table}\n"));
    if setup.sources.is_empty() {
        text.push_str(&format!("policy: OpenClaw defaults, up to {} redirects\n", setup.max_redirects));
    } else {
        for (field, source) in &setup.sources {
            text.push_str(&format!("policy: {field} from {source}\n"));
        }
    }
    if report.hops.iter().any(|hop| hop.verdict == Verdict::Allowed && !hop.dns_checked) {
        text.push_str(
            "note: host names were checked before DNS only; --resolve or --dns HOST=IP checks their addresses\n",
        );
    }
    text
}

/// One batch line: a URL string, or an object with the same fields as the flags.
fn answer_case(version: OpenClawVersion, case: &Value, setup: &PolicySetup, dns: &DnsTable) -> Result<Value, String> {
    let (url, object) = match case {
        Value::String(url) => (url.as_str(), None),
        Value::Object(object) => {
            (object.get("url").and_then(Value::as_str).ok_or("a case needs a `url` string")?, Some(object))
        }
        _ => return Err("a case is a URL string or an object".into()),
    };
    let field = |name: &str| object.and_then(|o| o.get(name)).cloned();
    let redirects: Vec<String> = match field("redirects") {
        Some(value) => serde_json::from_value(value).map_err(|e| format!("redirects: {e}"))?,
        None => Vec::new(),
    };
    let policy: SsrfPolicy = match field("policy") {
        Some(value) => serde_json::from_value(value).map_err(|e| format!("policy: {e}"))?,
        None => setup.policy.clone(),
    };
    let max_redirects = match field("maxRedirects") {
        Some(value) => value.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or("maxRedirects: a number")?,
        None => setup.max_redirects,
    };
    let answers: BTreeMap<String, Vec<String>> = match field("dns") {
        Some(value) => serde_json::from_value(value).map_err(|e| format!("dns: {e}"))?,
        None => BTreeMap::new(),
    };
    let guard = Guard::new(version, &policy);
    let url = guard.web_fetch_url(url);
    let report = if answers.is_empty() {
        guard.check_chain(&url, &redirects, max_redirects, dns)
    } else {
        let mut merged = DnsTable { answers: dns.answers.clone(), system: dns.system };
        merged.answers.extend(answers);
        guard.check_chain(&url, &redirects, max_redirects, &merged)
    };
    serde_json::to_value(&report).map_err(|e| e.to_string())
}

/// One batch line answered with OpenClaw's default policy and no DNS lookups (the batch
/// protocol's fuzz target).
pub(crate) fn answer_offline_case(version: OpenClawVersion, case: &Value) -> Result<Value, String> {
    let setup = PolicySetup {
        policy: SsrfPolicy::default(),
        max_redirects: ssrf::DEFAULT_MAX_REDIRECTS,
        sources: BTreeMap::new(),
    };
    answer_case(version, case, &setup, &DnsTable::default())
}

fn run_batch(version: OpenClawVersion, path: &Path, setup: &PolicySetup, dns: &DnsTable) -> miette::Result<ExitCode> {
    output::run_jsonl(path, |case| {
        let id = case.as_ref().ok().and_then(|c| c.get("id")).cloned().unwrap_or(Value::Null);
        let mut answer = case
            .and_then(|case| answer_case(version, &case, setup, dns))
            .unwrap_or_else(|message| json!({"verdict": "error", "error": message}));
        answer["id"] = id;
        answer
    })
}
