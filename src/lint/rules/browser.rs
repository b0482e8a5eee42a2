//! 2026.2's browser-control and logging checks (2026.9 moved the browser checks into the browser
//! plugin's own audit, which runs with `--deep` only): browser control without gateway auth, remote
//! CDP endpoints over plain HTTP, a browser config the release cannot resolve, redaction switched
//! off, and sandboxed browsers on the shared Docker bridge without a CDP source restriction.

use std::net::IpAddr;

use serde_json::Value;

use super::audit::audit_rule;
use super::gateway_auth::GatewayAuth;
use super::walk::agents;
use crate::base::js::js_trim;
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::lint::{Emitter, LintContext, Rule};

pub const RULES: &[Rule] = &[
    audit_rule!(Gateway, "CP742", "logging-redact-off", Security, "logging.redact_off", redact_off,
        summary: "`logging.redactSensitive` is `off` (2026.2).",
        why: "Tool summaries in logs and status output then carry secrets in clear text.",
        example: "logging: { redactSensitive: \"off\" }",
        fix: "Set `logging.redactSensitive: \"tools\"`.",
    ),
    audit_rule!(Gateway, "CP743", "browser-control-no-auth", Error, "browser.control_no_auth", control_no_auth,
        summary: "Browser control is on (the default) and no gateway token or password resolves, from the config or \
                  the environment (2026.2).",
        why: "Any local process, or a request forged to loopback, can drive the browser through its control routes.",
        example: "{}",
        fix: "Set `gateway.auth.token` (or `OPENCLAW_GATEWAY_TOKEN` in the gateway's environment), or \
              `browser.enabled: false`.",
    ),
    audit_rule!(Gateway, "CP744", "browser-remote-cdp-http", Security, "browser.remote_cdp_http", remote_cdp_http,
        summary: "A browser profile reaches a remote CDP endpoint over plain `http` (2026.2).",
        why: "The DevTools protocol controls the browser completely; over HTTP anyone on the path can read or drive it.",
        example: "browser: { cdpUrl: \"http://10.0.0.5:9222\" }",
        fix: "Use `https`, a tailnet-only address, or an encrypted tunnel.",
    ),
    audit_rule!(Gateway, "CP745", "browser-config-invalid", Security, "browser.control_invalid_config", invalid_config,
        summary: "The browser config cannot be resolved (2026.2): `browser.cdpUrl` is not an http(s) URL with a valid \
                  port, or the CDP port derived from `gateway.port` is above 65535.",
        why: "Browser control fails at start; the other browser checks cannot run either.",
        example: "browser: { cdpUrl: \"ftp://10.0.0.5\" }",
        fix: "Write `browser.cdpUrl` as `http(s)://host:port`.",
    ),
    audit_rule!(Sandbox, "CP507", "sandbox-browser-cdp-bridge", Security, "sandbox.browser_cdp_bridge_unrestricted", cdp_bridge,
        summary: "A sandboxed browser is on the default Docker `bridge` network without `cdpSourceRange` (2026.2).",
        why: "Every container on the bridge can reach the browser's DevTools port.",
        example: "agents: { defaults: { sandbox: { browser: { enabled: true, network: \"bridge\" } } } }",
        fix: "Use a dedicated network (the default `openclaw-sandbox-browser`) or set `cdpSourceRange`.",
    ),
];

fn redact_off(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let path = KeyPath::keys(&[keys::LOGGING, keys::REDACT_SENSITIVE]);
    if path.lookup(ctx.config()).and_then(Value::as_str) == Some("off") {
        out.report(&path, "sensitive values are not redacted from tool summaries").help("set it to \"tools\"");
    }
}

/// A CDP endpoint as the release parses it (`parseHttpUrl`).
struct Endpoint {
    https: bool,
    host: String,
    port: u16,
}

fn parse_endpoint(raw: &str) -> Option<Endpoint> {
    let url = url::Url::parse(js_trim(raw)).ok()?;
    let https = match url.scheme() {
        "http" => false,
        "https" => true,
        _ => return None,
    };
    let host = url.host_str()?.to_string();
    let port = url.port().unwrap_or(if https { 443 } else { 80 });
    Some(Endpoint { https, host, port })
}

/// `isLoopbackHost`: `localhost`, a 127/8 address, `::1`, or a mapped 127/8 address.
fn loopback_host(host: &str) -> bool {
    let host = host.trim().to_lowercase();
    if host == "localhost" {
        return true;
    }
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(&host);
    match bare.parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => v4.is_loopback(),
        Ok(IpAddr::V6(v6)) => v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
        Err(_) => false,
    }
}

/// The gateway port (`resolveGatewayPort`): `OPENCLAW_GATEWAY_PORT`, else `gateway.port`, else
/// 18789.
fn gateway_port(ctx: &LintContext<'_>) -> u64 {
    let from_env = ctx.loaded.effective_env().get("OPENCLAW_GATEWAY_PORT").and_then(|raw| {
        let digits: String = js_trim(raw).chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u64>().ok().filter(|p| *p > 0)
    });
    let from_config =
        ctx.get(&[keys::GATEWAY, keys::PORT]).and_then(Value::as_f64).filter(|p| *p > 0.0).map(|p| p as u64);
    from_env.or(from_config).unwrap_or(18789)
}

/// `resolveBrowserConfig`'s failure, if it fails: the top-level CDP endpoint otherwise (the one
/// `browser.cdpUrl` names, else loopback at the browser control port + 1; the control port is the
/// gateway port + 2 when that is a valid port, else 18791).
fn resolved_endpoint(ctx: &LintContext<'_>) -> Result<Endpoint, String> {
    let raw = ctx.get(&[keys::BROWSER, keys::CDP_URL]).and_then(Value::as_str).map(js_trim).unwrap_or_default();
    if !raw.is_empty() {
        return parse_endpoint(raw)
            .ok_or_else(|| format!("`browser.cdpUrl` (`{raw}`) is not an http(s) URL with a valid port"));
    }
    let control = Some(gateway_port(ctx) + 2).filter(|p| (1..=65535).contains(p)).unwrap_or(18791);
    u16::try_from(control + 1)
        .map(|port| Endpoint { https: false, host: "127.0.0.1".into(), port })
        .map_err(|_| format!("the CDP port derived from the gateway port ({}) is above 65535", control + 1))
}

fn invalid_config(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if let Err(why) = resolved_endpoint(ctx) {
        let path = if ctx.get(&[keys::BROWSER, keys::CDP_URL]).is_some() {
            KeyPath::keys(&[keys::BROWSER, keys::CDP_URL])
        } else {
            KeyPath::keys(&[keys::GATEWAY, keys::PORT])
        };
        out.report(&path, format!("the browser config cannot be resolved: {why}"))
            .help("write `browser.cdpUrl` as http(s)://host:port");
    }
}

fn browser_enabled(ctx: &LintContext<'_>) -> bool {
    ctx.get(&[keys::BROWSER, keys::ENABLED]).and_then(Value::as_bool).unwrap_or(true)
}

fn control_no_auth(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if resolved_endpoint(ctx).is_err() || !browser_enabled(ctx) {
        return;
    }
    let auth = GatewayAuth::resolve(ctx);
    if auth.token.is_none() && auth.password.is_none() {
        let at = if ctx.get(&[keys::BROWSER]).is_some() {
            KeyPath::keys(&[keys::BROWSER])
        } else {
            KeyPath::keys(&[keys::GATEWAY, keys::AUTH])
        };
        out.report(&at, "browser control is on and no gateway token or password resolves")
            .help("set gateway.auth.token (or OPENCLAW_GATEWAY_TOKEN), or browser.enabled: false");
    }
}

fn remote_cdp_http(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Ok(top) = resolved_endpoint(ctx) else { return };
    if !browser_enabled(ctx) {
        return;
    }
    let profiles_path = KeyPath::keys(&[keys::BROWSER, keys::PROFILES]);
    let profiles = profiles_path.lookup(ctx.config()).and_then(Value::as_object);
    let plain_remote = |host: &str, https: bool| !https && !loopback_host(host);
    // The default `openclaw` profile, when the config does not define it, uses the top-level endpoint.
    let configured_default = profiles.is_some_and(|p| p.contains_key("openclaw"));
    if !configured_default && plain_remote(&top.host, top.https) && ctx.get(&[keys::BROWSER, keys::CDP_URL]).is_some() {
        out.report(
            &KeyPath::keys(&[keys::BROWSER, keys::CDP_URL]),
            format!("the default browser profile reaches {}:{} over http", top.host, top.port),
        )
        .help("use https, a tailnet-only address, or an encrypted tunnel");
    }
    for (name, profile) in profiles.into_iter().flatten() {
        let own = profile.get(keys::CDP_URL).and_then(Value::as_str).map(js_trim).filter(|u| !u.is_empty());
        let (host, https, at) = match own {
            Some(url) => {
                let Some(endpoint) = parse_endpoint(url) else { continue };
                (endpoint.host, endpoint.https, profiles_path.key(name).key(keys::CDP_URL))
            }
            None if profile.get(keys::CDP_PORT).is_some_and(|p| p.as_u64().is_some_and(|p| p > 0)) => {
                (top.host.clone(), top.https, profiles_path.key(name).key(keys::CDP_PORT))
            }
            None => continue,
        };
        if plain_remote(&host, https) {
            out.report(&at, format!("browser profile `{name}` reaches {host} over http"))
                .help("use https, a tailnet-only address, or an encrypted tunnel");
        }
    }
}

/// A sandbox browser setting: the agent's (unless its sandbox scope is shared), else the default.
fn sandbox_browser<'a>(ctx: &LintContext<'a>, agent: Option<&KeyPath>, key: &str) -> Option<&'a Value> {
    let defaults = KeyPath::keys(&[keys::AGENTS, keys::DEFAULTS, keys::SANDBOX]);
    let scope = agent
        .and_then(|a| a.key(keys::SANDBOX).key(keys::SCOPE).lookup(ctx.config()))
        .or_else(|| defaults.key(keys::SCOPE).lookup(ctx.config()))
        .and_then(Value::as_str);
    let own = agent
        .filter(|_| scope != Some("shared"))
        .and_then(|a| a.key(keys::SANDBOX).key(keys::BROWSER).key(key).lookup(ctx.config()));
    own.or_else(|| defaults.key(keys::BROWSER).key(key).lookup(ctx.config())).filter(|v| !v.is_null())
}

fn cdp_bridge(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let mut scopes: Vec<(Option<KeyPath>, String)> = vec![(None, "agents.defaults".into())];
    scopes.extend(agents(ctx).iter().filter_map(|a| Some((Some(a.path.clone()?), a.id.clone()))));
    for (agent, label) in scopes {
        let enabled = sandbox_browser(ctx, agent.as_ref(), keys::ENABLED).and_then(Value::as_bool).unwrap_or(false);
        let network = sandbox_browser(ctx, agent.as_ref(), keys::NETWORK)
            .and_then(Value::as_str)
            .unwrap_or("openclaw-sandbox-browser");
        let range = sandbox_browser(ctx, agent.as_ref(), keys::CDP_SOURCE_RANGE)
            .and_then(Value::as_str)
            .map(js_trim)
            .unwrap_or_default();
        if !enabled || network.trim().to_lowercase() != "bridge" || !range.is_empty() {
            continue;
        }
        let base = agent.map_or_else(|| KeyPath::keys(&[keys::AGENTS, keys::DEFAULTS]), |a| a.clone());
        let network_path = [
            base.key(keys::SANDBOX).key(keys::BROWSER).key(keys::NETWORK),
            KeyPath::keys(&[keys::AGENTS, keys::DEFAULTS, keys::SANDBOX, keys::BROWSER, keys::NETWORK]),
        ]
        .into_iter()
        .find(|p| p.lookup(ctx.config()).is_some())
        .unwrap_or_else(|| base.key(keys::SANDBOX).key(keys::BROWSER));
        out.report(
            &network_path,
            format!("the sandboxed browser of {label} is on the shared `bridge` network with no CDP source range"),
        )
        .help("use a dedicated network or set `cdpSourceRange`");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_the_releases() {
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "::ffff:127.0.0.1"] {
            assert!(loopback_host(host), "{host}");
        }
        for host in ["10.0.0.5", "example.com", "::2", "[::ffff:10.0.0.1]"] {
            assert!(!loopback_host(host), "{host}");
        }
    }
}
