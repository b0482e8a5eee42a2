//! The gateway's exposure and auth as `openclaw security audit` resolves them, and the audit's
//! checks of the gateway config (bind and Tailscale exposure, auth, Control UI, trusted proxies,
//! discovery). Credentials come from the config and from the environment the config is loaded in
//! (`--env`, `--env-file`, the process environment, the config's `env` block): the audit reads
//! `OPENCLAW_GATEWAY_TOKEN` / `OPENCLAW_GATEWAY_PASSWORD` there too. Hand-written where the
//! release's credential precedence decides (2026.9 `createGatewayCredentialPlan` +
//! `resolveGatewayAuthForConfig`, 2026.2 `resolveGatewayAuth`).

use crate::release::lint::Credentials;
use serde_json::Value;

use super::audit::{audit_rule, critical_if};
use crate::OpenClawVersion;
use crate::base::js::{js_trim, js_truthy};
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::lint::{Emitter, LintContext, Rule};

/// A trimmed, non-empty string (`trimToUndefined`).
fn trimmed(value: Option<&Value>) -> Option<String> {
    value.and_then(Value::as_str).map(js_trim).filter(|s| !s.is_empty()).map(String::from)
}

/// Length as JavaScript counts it (UTF-16 code units).
pub fn js_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// A SecretRef object (`{source, provider, id}`) written in place of a credential.
fn is_secret_ref(value: Option<&Value>) -> bool {
    value.and_then(Value::as_object).is_some_and(|o| o.contains_key("source") && o.contains_key("id"))
}

/// One configured credential as the 2026.9 credential plan classifies it.
#[derive(Debug, Default)]
pub struct Credential {
    /// The usable value (trimmed), when the config holds one.
    pub value: Option<String>,
    /// Written as a SecretRef object (resolved only by a running gateway).
    pub secret_ref: bool,
    /// A `${VAR}` whose variable had no value, or a SecretRef: the config has no value of its own.
    pub pending: bool,
}

/// Whether `${VAR}` at `path` was left without a value while loading.
pub fn unresolved(ctx: &LintContext<'_>, path: &KeyPath) -> bool {
    ctx.loaded.unset_env_vars().iter().any(|missing| missing.path == path.segments())
}

fn credential(ctx: &LintContext<'_>, path: &KeyPath) -> Credential {
    let value = path.lookup(ctx.config());
    if unresolved(ctx, path) {
        return Credential { pending: true, ..Credential::default() };
    }
    if is_secret_ref(value) {
        return Credential { secret_ref: true, pending: true, value: None };
    }
    Credential { value: trimmed(value), ..Credential::default() }
}

/// A variable of the environment the config is loaded in (trimmed, non-empty).
pub fn env_var(ctx: &LintContext<'_>, name: &str) -> Option<String> {
    ctx.loaded.effective_env().get(name).map(|v| js_trim(v)).filter(|v| !v.is_empty()).map(String::from)
}

/// `gateway.auth.<key>`.
pub fn auth_path(key: &str) -> KeyPath {
    KeyPath::keys(&["gateway", "auth", key])
}

/// The gateway's auth, resolved as the audit resolves it.
pub struct GatewayAuth {
    /// `gateway.auth.mode` as written.
    pub explicit_mode: Option<String>,
    /// The mode in force: the written one, else `password` when a password resolves, else `token`.
    pub mode: String,
    pub token: Option<String>,
    pub password: Option<String>,
    pub allow_tailscale: bool,
    pub env_token: Option<String>,
    pub env_password: Option<String>,
    pub local_token: Credential,
    pub local_password: Credential,
    pub remote_token: Credential,
}

impl GatewayAuth {
    pub fn resolve(ctx: &LintContext<'_>) -> Self {
        let explicit_mode = ctx.get(&["gateway", "auth", "mode"]).and_then(Value::as_str).map(String::from);
        let env_token = env_var(ctx, "OPENCLAW_GATEWAY_TOKEN");
        let env_password = env_var(ctx, "OPENCLAW_GATEWAY_PASSWORD");
        let remote = |key: &str| KeyPath::keys(&["gateway", "remote", key]);
        let (local_token, local_password) =
            (credential(ctx, &auth_path("token")), credential(ctx, &auth_path("password")));
        let (remote_token, remote_password) = (credential(ctx, &remote("token")), credential(ctx, &remote("password")));
        let (token, password) = match ctx.version.lint().credentials {
            Credentials::Resolved => {
                let token = if local_token.secret_ref {
                    None
                } else {
                    local_token.value.clone().or_else(|| env_token.clone()).or_else(|| remote_token.value.clone())
                };
                let remote_password_value =
                    remote_password.value.clone().filter(|_| explicit_mode.as_deref() != Some("trusted-proxy"));
                let password = if local_password.secret_ref {
                    None
                } else {
                    local_password.value.clone().or_else(|| env_password.clone()).or(remote_password_value)
                };
                (token, password)
            }
            Credentials::Written => (
                trimmed(auth_path("token").lookup(ctx.config())).or_else(|| env_token.clone()),
                trimmed(auth_path("password").lookup(ctx.config())).or_else(|| env_password.clone()),
            ),
        };
        let mode = match &explicit_mode {
            Some(mode) if !mode.is_empty() => mode.clone(),
            _ if password.is_some() => "password".into(),
            _ => "token".into(),
        };
        let tailscale = tailscale_mode(ctx);
        let allow_tailscale = ctx
            .get(&["gateway", "auth", "allowTailscale"])
            .and_then(Value::as_bool)
            .unwrap_or(tailscale == "serve" && mode != "password" && mode != "trusted-proxy");
        GatewayAuth {
            explicit_mode,
            mode,
            token,
            password,
            allow_tailscale,
            env_token,
            env_password,
            local_token,
            local_password,
            remote_token,
        }
    }

    /// Whether a shared secret (or trusted-proxy auth) guards the gateway, as the bind and
    /// loopback checks decide it.
    fn guarded(&self, ctx: &LintContext<'_>) -> bool {
        match ctx.version.lint().credentials {
            Credentials::Resolved => {
                let has_token = self.token.is_some() && !unresolved(ctx, &auth_path("token"));
                let has_password = self.password.is_some() && !unresolved(ctx, &auth_path("password"));
                let token_configured = has_token
                    || self.env_token.is_some()
                    || self.local_token.value.is_some()
                    || self.local_token.secret_ref
                    || self.remote_token.value.is_some()
                    || self.remote_token.secret_ref;
                let explicit = self.explicit_mode.as_deref();
                let password_may_win = explicit == Some("password")
                    || (!matches!(explicit, Some("token" | "none" | "trusted-proxy")) && !token_configured);
                let password_configured = has_password
                    || (password_may_win
                        && (self.env_password.is_some()
                            || self.local_password.value.is_some()
                            || self.local_password.secret_ref));
                let configured = match explicit {
                    Some("token") => token_configured,
                    Some("password") => password_configured,
                    Some("none" | "trusted-proxy") => false,
                    _ => token_configured || password_configured,
                };
                configured || self.mode == "trusted-proxy"
            }
            Credentials::Written => self.shared_secret(),
        }
    }

    /// 2026.2: the mode's own credential resolves.
    fn shared_secret(&self) -> bool {
        (self.mode == "token" && self.token.is_some()) || (self.mode == "password" && self.password.is_some())
    }

    /// Whether the HTTP APIs take a credential (2026.9 `hasResolvedGatewayHttpAuth`; 2026.2:
    /// any mode but `none`).
    pub fn http_guarded(&self, version: OpenClawVersion) -> bool {
        match version.lint().credentials {
            Credentials::Resolved => match self.mode.as_str() {
                "token" => self.token.is_some(),
                "password" => self.password.is_some(),
                "trusted-proxy" => true,
                _ => false,
            },
            Credentials::Written => self.mode != "none",
        }
    }

    /// The credential of the active mode, for the hooks-token reuse check.
    pub fn active_secrets(&self, version: OpenClawVersion) -> Vec<(&'static str, Option<&str>)> {
        match (version.lint().credentials, self.mode.as_str()) {
            (_, "token") => vec![("token", self.token.as_deref())],
            (Credentials::Resolved, "password" | "trusted-proxy") => vec![("password", self.password.as_deref())],
            _ => Vec::new(),
        }
    }
}

/// `gateway.bind` when it is a string, else `loopback`.
pub fn bind(ctx: &LintContext<'_>) -> String {
    ctx.get(&["gateway", "bind"]).and_then(Value::as_str).unwrap_or("loopback").to_string()
}

/// `gateway.tailscale.mode`, `off` when unset.
pub fn tailscale_mode(ctx: &LintContext<'_>) -> String {
    ctx.get(&["gateway", "tailscale", "mode"]).and_then(Value::as_str).unwrap_or("off").to_string()
}

/// `isGatewayRemotelyExposed`: bind beyond loopback, or Tailscale serve/funnel.
pub fn remotely_exposed(ctx: &LintContext<'_>) -> bool {
    bind(ctx) != "loopback" || matches!(tailscale_mode(ctx).as_str(), "serve" | "funnel")
}

fn control_ui_enabled(ctx: &LintContext<'_>) -> bool {
    ctx.get(&["gateway", "controlUi", "enabled"]) != Some(&Value::Bool(false))
}

fn is_true(ctx: &LintContext<'_>, keys: &[&str]) -> bool {
    ctx.get(keys) == Some(&Value::Bool(true))
}

/// `gateway.trustedProxies` entries (an empty list when it is not a list).
fn trusted_proxies<'a>(ctx: &LintContext<'a>) -> Vec<&'a Value> {
    ctx.get(&["gateway", "trustedProxies"]).and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default()
}

/// The trimmed, non-empty `gateway.controlUi.allowedOrigins`.
fn allowed_origins(ctx: &LintContext<'_>) -> Vec<String> {
    let list = ctx.get(&["gateway", "controlUi", "allowedOrigins"]).and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .filter_map(|v| v.as_str())
        .map(|s| js_trim(s).to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// `isStrictLoopbackTrustedProxyEntry`: `127.0.0.1`, `::1`, `127.0.0.1/32` or `::1/128`.
fn is_strict_loopback_proxy(entry: &str) -> bool {
    let candidate = js_trim(entry);
    let Some((ip, rest)) = candidate.split_once('/') else {
        return candidate == "127.0.0.1" || candidate.eq_ignore_ascii_case("::1");
    };
    let prefix_text = js_trim(rest.split('/').next().unwrap_or_default());
    let Ok(prefix) = prefix_text.parse::<u32>() else { return false };
    let ip = js_trim(ip);
    (ip == "127.0.0.1" && prefix == 32) || (ip.eq_ignore_ascii_case("::1") && prefix == 128)
}

pub const RULES: &[Rule] = &[
    audit_rule!(Gateway, "CP711", "gateway-bind-no-auth", Error, "gateway.bind_no_auth", bind_no_auth,
        summary: "The gateway binds beyond loopback and no token, password or trusted-proxy auth is configured.",
        why: "Anyone on the network the gateway listens on can operate it: chat, tools, config.",
        example: "gateway: { bind: \"lan\" }",
        fix: "Set `gateway.auth` (a long random token, e.g. `token: \"${OPENCLAW_GATEWAY_TOKEN}\"`) or bind to loopback.",
    ),
    audit_rule!(Gateway, "CP712", "gateway-loopback-no-auth", Error, "gateway.loopback_no_auth", loopback_no_auth,
        summary: "The gateway binds to loopback with the Control UI on and no auth secret resolves (the default).",
        why: "Every local process, and anyone a reverse proxy forwards, reaches the Control UI and the gateway API \
              without a credential.",
        example: "{}",
        fix: "Set `gateway.auth.token` (or `OPENCLAW_GATEWAY_TOKEN` in the gateway's environment), or disable the \
              Control UI.",
    ),
    audit_rule!(Gateway, "CP713", "gateway-trusted-proxies-missing", Security, "gateway.trusted_proxies_missing", trusted_proxies_missing,
        summary: "Loopback gateway with the Control UI on and no `gateway.trustedProxies`.",
        why: "Behind a reverse proxy every request looks local, so local-client checks can be spoofed unless the \
              proxy's addresses are trusted explicitly.",
        example: "gateway: { bind: \"loopback\" }",
        fix: "Set `gateway.trustedProxies` to your proxy's addresses, or keep the Control UI local-only \
              (`gateway.controlUi.enabled: false` when you never use it).",
    ),
    audit_rule!(Gateway, "CP714", "control-ui-allowed-origins-required", Error, "gateway.control_ui.allowed_origins_required",
        allowed_origins_required,
        summary: "The Control UI is on, the gateway binds beyond loopback, and `gateway.controlUi.allowedOrigins` is \
                  empty.",
        why: "Without an origin allowlist a non-loopback Control UI cannot enforce its strict origin policy.",
        example: "gateway: { bind: \"lan\", auth: { token: \"${OPENCLAW_GATEWAY_TOKEN}\" } }\n// env: OPENCLAW_GATEWAY_TOKEN=3f9c2a7d1e6b4c8a9d0e5f1a2b3c4d5e",
        fix: "List the full origins the UI is served from in `gateway.controlUi.allowedOrigins`.",
    ),
    audit_rule!(Gateway, "CP715", "control-ui-allowed-origins-wildcard", Security, "gateway.control_ui.allowed_origins_wildcard",
        allowed_origins_wildcard,
        summary: "`gateway.controlUi.allowedOrigins` contains `\"*\"`.",
        why: "Any browser origin may talk to the Control UI and WebChat: origin allowlisting is off. Critical when the \
              gateway binds beyond loopback.",
        example: "gateway: { controlUi: { allowedOrigins: [\"*\"] } }",
        fix: "Replace `\"*\"` with the exact origins you use.",
    ),
    audit_rule!(Gateway, "CP716", "control-ui-host-header-fallback", Security, "gateway.control_ui.host_header_origin_fallback",
        host_header_fallback,
        summary: "`gateway.controlUi.dangerouslyAllowHostHeaderOriginFallback` is `true`.",
        why: "The Host header stands in for the origin, which weakens DNS-rebinding protection. Critical when the \
              gateway binds beyond loopback.",
        example: "gateway: { controlUi: { dangerouslyAllowHostHeaderOriginFallback: true } }",
        fix: "Remove the flag and list `gateway.controlUi.allowedOrigins`.",
    ),
    audit_rule!(Gateway, "CP717", "control-ui-insecure-auth", Security, "gateway.control_ui.insecure_auth", |ctx, out| control_ui_flag(ctx, out, "allowInsecureAuth"),
        summary: "`gateway.controlUi.allowInsecureAuth` is `true` (2026.2).",
        why: "The toggle suggests a weaker Control UI login; it protects nothing and hides the real setting \
              (`dangerouslyDisableDeviceAuth`).",
        example: "gateway: { controlUi: { allowInsecureAuth: true } }",
        fix: "Remove it; serve the UI over HTTPS (Tailscale Serve) or from localhost.",
    ),
    audit_rule!(Gateway, "CP718", "control-ui-device-auth-disabled", Error, "gateway.control_ui.device_auth_disabled", |ctx, out| control_ui_flag(ctx, out, "dangerouslyDisableDeviceAuth"),
        summary: "`gateway.controlUi.dangerouslyDisableDeviceAuth` is `true` (2026.2).",
        why: "The Control UI stops checking device identity.",
        example: "gateway: { controlUi: { dangerouslyDisableDeviceAuth: true } }",
        fix: "Remove it outside a short break-glass window.",
    ),
    audit_rule!(Gateway, "CP719", "gateway-real-ip-fallback", Security, "gateway.real_ip_fallback_enabled", real_ip_fallback,
        summary: "`gateway.allowRealIpFallback` is `true`.",
        why: "`X-Real-IP` is trusted when a proxy sends no `X-Forwarded-For`; a proxy that forwards a client's header \
              lets the client spoof its address. Critical beyond loopback or behind a non-loopback trusted proxy.",
        example: "gateway: { allowRealIpFallback: true }",
        fix: "Leave it `false` unless your proxy always overwrites `X-Real-IP`.",
    ),
    audit_rule!(Gateway, "CP720", "mdns-full-mode", Security, "discovery.mdns_full_mode", mdns_full_mode,
        summary: "`discovery.mdns.mode` is `full`.",
        why: "The gateway announces its CLI path and SSH port on the local network, revealing user names and \
              management ports. Critical when the gateway binds beyond loopback.",
        example: "discovery: { mdns: { mode: \"full\" } }",
        fix: "Use `minimal` (the default) or `off`.",
    ),
    audit_rule!(Gateway, "CP721", "tailscale-funnel", Error, "gateway.tailscale_funnel", |ctx, out| tailscale(ctx, out, "funnel"),
        summary: "`gateway.tailscale.mode` is `funnel`: the gateway is on the public internet.",
        why: "Funnel publishes the gateway to everyone; only its auth stands in the way.",
        example: "gateway: { tailscale: { mode: \"funnel\" } }",
        fix: "Prefer `serve` (tailnet only) or `off`.",
    ),
    audit_rule!(Gateway, "CP722", "tailscale-serve", Suggestion, "gateway.tailscale_serve", |ctx, out| tailscale(ctx, out, "serve"),
        summary: "`gateway.tailscale.mode` is `serve`: the gateway is reachable from the tailnet.",
        why: "Every device of the tailnet reaches the gateway; worth knowing when you review who can connect.",
        example: "gateway: { tailscale: { mode: \"serve\" } }",
        fix: "Nothing to do if the tailnet is trusted; otherwise `off`.",
    ),
    audit_rule!(Gateway, "CP723", "mcp-apps-enabled", Security, "mcp.apps.enabled", mcp_apps,
        summary: "`mcp.apps.enabled` is `true`.",
        why: "Configured MCP servers may render interactive views that call their own app-visible tools while the \
              session runs.",
        example: "mcp: { apps: { enabled: true } }",
        fix: "Enable it only when you trust every configured MCP server.",
    ),
    audit_rule!(Gateway, "CP724", "gateway-token-placeholder", Error, "gateway.token_placeholder_value", |ctx, out| credential_strength(ctx, out, "token", true),
        summary: "The gateway token in force is blank or the text `undefined`/`null`.",
        why: "That is no secret at all, and the gateway refuses to start with it.",
        example: "gateway: { auth: { mode: \"token\", token: \"undefined\" } }",
        fix: "Generate a long random token (`openclaw doctor --fix --generate-gateway-token`).",
    ),
    audit_rule!(Gateway, "CP725", "gateway-password-placeholder", Error, "gateway.password_placeholder_value", |ctx, out| credential_strength(ctx, out, "password", true),
        summary: "The gateway password in force is blank or the text `undefined`/`null`.",
        why: "That is no secret at all, and the gateway refuses to start with it.",
        example: "gateway: { auth: { mode: \"password\", password: \"null\" } }",
        fix: "Set a real random password (`OPENCLAW_GATEWAY_PASSWORD`).",
    ),
    audit_rule!(Gateway, "CP726", "gateway-token-too-short", Security, "gateway.token_too_short", |ctx, out| credential_strength(ctx, out, "token", false),
        summary: "The gateway token in force (config or `OPENCLAW_GATEWAY_TOKEN`) is shorter than 24 characters.",
        why: "A short token can be guessed; the token is full admin access to the gateway.",
        example: "gateway: { auth: { token: \"abc123\" } }",
        fix: "Use a long random token (32+ characters, e.g. `openssl rand -hex 32`).",
    ),
    audit_rule!(Gateway, "CP727", "gateway-password-too-short", Security, "gateway.password_too_short", |ctx, out| credential_strength(ctx, out, "password", false),
        summary: "The gateway password in force (config or `OPENCLAW_GATEWAY_PASSWORD`) is shorter than 24 characters.",
        why: "A short password can be guessed; it is full admin access to the gateway.",
        example: "gateway: { auth: { mode: \"password\", password: \"hunter2\" } }",
        fix: "Use a long random password.",
    ),
    audit_rule!(Gateway, "CP728", "trusted-proxy-auth", Error, "gateway.trusted_proxy_auth", |ctx, out| trusted_proxy(ctx, out, TrustedProxyCheck::Enabled),
        summary: "Gateway auth is delegated to a reverse proxy (`trusted-proxy` mode).",
        why: "The proxy becomes the only guard: it must authenticate every user, and nothing else may reach the \
              gateway port.",
        example: "gateway: { auth: { mode: \"trusted-proxy\", trustedProxy: { userHeader: \"x-forwarded-user\" } } }",
        fix: "Make sure the proxy terminates TLS and authenticates, `gateway.trustedProxies` lists only it, and a \
              firewall blocks direct access.",
    ),
    audit_rule!(Gateway, "CP729", "trusted-proxy-no-proxies", Error, "gateway.trusted_proxy_no_proxies", |ctx, out| trusted_proxy(ctx, out, TrustedProxyCheck::NoProxies),
        summary: "Trusted-proxy auth with an empty `gateway.trustedProxies`.",
        why: "No request can come from a trusted proxy, so every request is rejected.",
        example: "gateway: { auth: { mode: \"trusted-proxy\", trustedProxy: { userHeader: \"x-forwarded-user\" } } }",
        fix: "List your proxy's addresses in `gateway.trustedProxies`.",
    ),
    audit_rule!(Gateway, "CP730", "trusted-proxy-no-user-header", Error, "gateway.trusted_proxy_no_user_header", |ctx, out| trusted_proxy(ctx, out, TrustedProxyCheck::NoUserHeader),
        summary: "Trusted-proxy auth without `gateway.auth.trustedProxy.userHeader`.",
        why: "The gateway does not know which header names the authenticated user.",
        example: "gateway: { auth: { mode: \"trusted-proxy\" } }",
        fix: "Set `gateway.auth.trustedProxy.userHeader` (e.g. `x-forwarded-user`).",
    ),
    audit_rule!(Gateway, "CP731", "trusted-proxy-allow-loopback", Security, "gateway.trusted_proxy_allow_loopback", |ctx, out| trusted_proxy(ctx, out, TrustedProxyCheck::AllowLoopback),
        summary: "`gateway.auth.trustedProxy.allowLoopback` is `true`.",
        why: "Requests from the gateway host itself can satisfy trusted-proxy auth.",
        example: "gateway: { auth: { mode: \"trusted-proxy\", trustedProxy: { userHeader: \"x-user\", allowLoopback: true } } }",
        fix: "Enable it only for a deliberate same-host proxy that strips identity headers.",
    ),
    audit_rule!(Gateway, "CP732", "trusted-proxy-device-auto-approve", Security, "gateway.trusted_proxy_device_auto_approve",
        |ctx, out| trusted_proxy(ctx, out, TrustedProxyCheck::AutoApprove),
        summary: "`gateway.auth.trustedProxy.deviceAutoApprove.enabled` is `true`.",
        why: "New operator devices are paired on the proxy's word alone.",
        example: "gateway: { auth: { mode: \"trusted-proxy\", trustedProxy: { userHeader: \"x-user\", deviceAutoApprove: { enabled: true } } } }",
        fix: "Keep it off unless the proxy is the only ingress and restricts users with `allowUsers`.",
    ),
    audit_rule!(Gateway, "CP733", "trusted-proxy-device-auto-approve-admin", Error,
        "gateway.trusted_proxy_device_auto_approve_admin", |ctx, out| trusted_proxy(ctx, out, TrustedProxyCheck::AutoApproveAdmin),
        summary: "Device auto-approval grants `operator.admin`.",
        why: "Every user the proxy authenticates can pair a device with full admin rights.",
        example: "gateway: { auth: { mode: \"trusted-proxy\", trustedProxy: { userHeader: \"x-user\", deviceAutoApprove: { enabled: true, scopes: [\"operator.admin\"] } } } }",
        fix: "Remove `operator.admin` from the scopes and grant admin per identity.",
    ),
    audit_rule!(Gateway, "CP734", "trusted-proxy-no-allowlist", Security, "gateway.trusted_proxy_no_allowlist", |ctx, out| trusted_proxy(ctx, out, TrustedProxyCheck::NoAllowlist),
        summary: "Trusted-proxy auth without `gateway.auth.trustedProxy.allowUsers`.",
        why: "Every user the proxy authenticates may use the gateway.",
        example: "gateway: { auth: { mode: \"trusted-proxy\", trustedProxy: { userHeader: \"x-user\" } } }",
        fix: "List the users in `gateway.auth.trustedProxy.allowUsers`.",
    ),
    audit_rule!(Gateway, "CP735", "gateway-auth-no-rate-limit", Security, "gateway.auth_no_rate_limit", no_rate_limit,
        summary: "The gateway binds beyond loopback without `gateway.auth.rateLimit`.",
        why: "Nothing slows down guessing the token or password.",
        example: "gateway: { bind: \"lan\", auth: { token: \"${OPENCLAW_GATEWAY_TOKEN}\" } }\n// env: OPENCLAW_GATEWAY_TOKEN=3f9c2a7d1e6b4c8a9d0e5f1a2b3c4d5e",
        fix: "Set `gateway.auth.rateLimit` (e.g. `{ maxAttempts: 10, windowMs: 60000, lockoutMs: 300000 }`).",
    ),
    audit_rule!(Gateway, "CP736", "gateway-env-token-conflict", Security, "gateway.env_token_overrides_config", env_token_conflict,
        summary: "`OPENCLAW_GATEWAY_TOKEN` is set and differs from `gateway.auth.token`.",
        why: "Local clients and the gateway service use the config's token while environment-based targets use the \
              other one, so a stale value can still authenticate somewhere.",
        example: "gateway: { auth: { token: \"from-config-0123456789abcdef\" } }\n// env: OPENCLAW_GATEWAY_TOKEN=another-token-0123456789abcdef",
        fix: "Unset the variable, or write `token: \"${OPENCLAW_GATEWAY_TOKEN}\"` so one source is canonical.",
    ),
    audit_rule!(Gateway, "CP737", "http-session-key-override", Suggestion, "gateway.http.session_key_override_enabled",
        session_key_override,
        summary: "The OpenAI-compatible HTTP endpoints are on; their callers choose the session by header.",
        why: "Whoever holds the API credential can route requests into any session.",
        example: "gateway: { http: { endpoints: { chatCompletions: { enabled: true } } } }",
        fix: "Treat API credential holders as trusted operators, or turn the endpoints off.",
    ),
];

fn bind_no_auth(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let bind = bind(ctx);
    if bind == "loopback" {
        return;
    }
    let auth = GatewayAuth::resolve(ctx);
    let unguarded = match ctx.version.lint().credentials {
        Credentials::Resolved => !auth.guarded(ctx),
        Credentials::Written => !auth.shared_secret() && auth.mode != "trusted-proxy",
    };
    if unguarded {
        out.report(&KeyPath::keys(&["gateway", "bind"]), format!("the gateway binds to `{bind}` without auth"))
            .help("set `gateway.auth.token` (a long random value) or bind to loopback");
    }
}

/// Where a missing auth setting would go: the auth section, else the gateway section.
pub fn auth_anchor(ctx: &LintContext<'_>) -> KeyPath {
    if ctx.get(&["gateway", "auth"]).is_some() {
        KeyPath::keys(&["gateway", "auth"])
    } else {
        KeyPath::keys(&["gateway"])
    }
}

fn loopback_no_auth(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if bind(ctx) != "loopback" || !control_ui_enabled(ctx) {
        return;
    }
    let auth = GatewayAuth::resolve(ctx);
    let tailscale_auth = auth.allow_tailscale && tailscale_mode(ctx) == "serve";
    if auth.guarded(ctx) || tailscale_auth {
        return;
    }
    let credential = if auth.mode == "password" { "password" } else { "token" };
    out.report(
        &auth_anchor(ctx),
        format!("no gateway {credential} resolves, so the loopback gateway and its Control UI take no credential"),
    )
    .help(
        "set `gateway.auth.token` or `OPENCLAW_GATEWAY_TOKEN` in the gateway's environment, or disable the Control UI",
    );
}

fn trusted_proxies_missing(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if bind(ctx) == "loopback" && control_ui_enabled(ctx) && trusted_proxies(ctx).is_empty() {
        out.report(
            &KeyPath::keys(&["gateway", "trustedProxies"]),
            "no reverse proxy is trusted, so proxied requests look local",
        )
        .help("set `gateway.trustedProxies` to your proxy's addresses, or keep the Control UI local-only");
    }
}

fn allowed_origins_required(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let fallback = is_true(ctx, &["gateway", "controlUi", "dangerouslyAllowHostHeaderOriginFallback"]);
    if bind(ctx) != "loopback" && control_ui_enabled(ctx) && allowed_origins(ctx).is_empty() && !fallback {
        out.report(
            &KeyPath::keys(&["gateway", "controlUi", "allowedOrigins"]),
            format!("the Control UI is served beyond loopback (`bind: \"{}\"`) without allowed origins", bind(ctx)),
        )
        .help("list the origins the UI is served from, e.g. [\"https://control.example.com\"]");
    }
}

fn allowed_origins_wildcard(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if allowed_origins(ctx).iter().any(|o| o == "*") {
        out.report(
            &KeyPath::keys(&["gateway", "controlUi", "allowedOrigins"]),
            "any browser origin may use the Control UI (`\"*\"`)",
        )
        .severity(critical_if(bind(ctx) != "loopback"))
        .help("replace `\"*\"` with the exact origins you use");
    }
}

fn host_header_fallback(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let keys = ["gateway", "controlUi", "dangerouslyAllowHostHeaderOriginFallback"];
    if is_true(ctx, &keys) {
        out.report(&KeyPath::keys(&keys), "the Host header stands in for the request origin")
            .severity(critical_if(bind(ctx) != "loopback"))
            .help("remove the flag and list `gateway.controlUi.allowedOrigins`");
    }
}

fn control_ui_flag(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>, flag: &str) {
    let keys = ["gateway", "controlUi", flag];
    if is_true(ctx, &keys) {
        out.report(&KeyPath::keys(&keys), format!("`gateway.controlUi.{flag}` is on")).help("remove it");
    }
}

fn real_ip_fallback(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let keys = ["gateway", "allowRealIpFallback"];
    if !is_true(ctx, &keys) {
        return;
    }
    let proxied = GatewayAuth::resolve(ctx).mode == "trusted-proxy"
        && trusted_proxies(ctx).iter().any(|p| !p.as_str().is_some_and(is_strict_loopback_proxy));
    out.report(&KeyPath::keys(&keys), "`X-Real-IP` is trusted when a proxy omits `X-Forwarded-For`")
        .severity(critical_if(bind(ctx) != "loopback" || proxied))
        .help("leave it false unless your proxy always overwrites X-Real-IP");
}

fn mdns_full_mode(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let keys = ["discovery", "mdns", "mode"];
    if ctx.get(&keys).and_then(Value::as_str) == Some("full") {
        out.report(&KeyPath::keys(&keys), "mDNS announces the CLI path and SSH port on the local network")
            .severity(critical_if(bind(ctx) != "loopback"))
            .help("use `minimal` or `off`");
    }
}

fn tailscale(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>, mode: &str) {
    if tailscale_mode(ctx) != mode {
        return;
    }
    let path = KeyPath::keys(&["gateway", "tailscale", "mode"]);
    match mode {
        "funnel" => {
            out.report(&path, "Tailscale Funnel publishes the gateway on the internet").help("prefer `serve` or `off`")
        }
        _ => out
            .report(&path, "Tailscale Serve makes the gateway reachable from the tailnet")
            .help("use `off` if the tailnet is not trusted"),
    };
}

fn mcp_apps(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let keys = ["mcp", "apps", "enabled"];
    if is_true(ctx, &keys) {
        out.report(&KeyPath::keys(&keys), "MCP servers may render interactive views that call their tools")
            .help("keep it on only for MCP servers you trust");
    }
}

/// The value the strength checks look at for the credential of the active mode (2026.9: the
/// resolved one, else the written one; a pending reference counts as none).
fn credential_input(ctx: &LintContext<'_>, auth: &GatewayAuth, credential: &str) -> Option<String> {
    let (resolved, local) = match credential {
        "token" => (&auth.token, &auth.local_token),
        _ => (&auth.password, &auth.local_password),
    };
    let written = auth_path(credential).lookup(ctx.config());
    if local.pending {
        return None;
    }
    resolved.clone().or_else(|| written.and_then(Value::as_str).map(String::from))
}

fn credential_strength(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>, credential: &str, placeholder: bool) {
    let auth = GatewayAuth::resolve(ctx);
    if auth.mode != credential {
        return;
    }
    let input = match ctx.version.lint().credentials {
        Credentials::Resolved => credential_input(ctx, &auth, credential),
        Credentials::Written => auth.token.clone(),
    };
    let Some(input) = input else { return };
    let value = js_trim(&input);
    let is_placeholder = ["", "undefined", "null"].contains(&value);
    let written = auth_path(credential);
    let (at, source) = if written.lookup(ctx.config()).is_some() {
        (written, "")
    } else {
        (auth_anchor(ctx), " (not written in gateway.auth: from the environment or gateway.remote)")
    };
    if placeholder && is_placeholder {
        out.report(
            &at,
            format!("the gateway {credential} in force{source} is a blank or `undefined`/`null` placeholder"),
        )
        .help(format!("generate a long random {credential}"));
    } else if !placeholder && !is_placeholder && js_len(value) < 24 {
        out.report(&at, format!("the gateway {credential} in force{source} is {} characters long", js_len(value)))
            .help(format!("use a random {credential} of at least 24 (better 32+) characters"));
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TrustedProxyCheck {
    Enabled,
    NoProxies,
    NoUserHeader,
    AllowLoopback,
    AutoApprove,
    AutoApproveAdmin,
    NoAllowlist,
}

fn trusted_proxy(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>, check: TrustedProxyCheck) {
    if GatewayAuth::resolve(ctx).mode != "trusted-proxy" {
        return;
    }
    let section = KeyPath::keys(&["gateway", "auth", "trustedProxy"]);
    let config = section.lookup(ctx.config());
    let field = |key: &str| config.and_then(|c| c.get(key));
    let auto_approve = field("deviceAutoApprove");
    let auto_approve_on = auto_approve.and_then(|a| a.get(keys::ENABLED)) == Some(&Value::Bool(true));
    let (path, message, help) = match check {
        TrustedProxyCheck::Enabled => (
            KeyPath::keys(&["gateway", "auth", "mode"]),
            "gateway auth is delegated to a reverse proxy".to_string(),
            "make sure only the proxy can reach the gateway and that it authenticates every user",
        ),
        TrustedProxyCheck::NoProxies if trusted_proxies(ctx).is_empty() => (
            KeyPath::keys(&["gateway", "trustedProxies"]),
            "trusted-proxy auth without trusted proxies rejects every request".into(),
            "list your proxy's addresses in `gateway.trustedProxies`",
        ),
        TrustedProxyCheck::NoUserHeader if !field("userHeader").is_some_and(js_truthy) => (
            section.key("userHeader"),
            "trusted-proxy auth does not say which header names the user".into(),
            "set `gateway.auth.trustedProxy.userHeader` (e.g. x-forwarded-user)",
        ),
        TrustedProxyCheck::AllowLoopback if field("allowLoopback") == Some(&Value::Bool(true)) => (
            section.key("allowLoopback"),
            "requests from the gateway host can pass trusted-proxy auth".into(),
            "enable it only for a deliberate same-host proxy",
        ),
        TrustedProxyCheck::AutoApprove if auto_approve_on => (
            section.key("deviceAutoApprove").key(keys::ENABLED),
            "new operator devices are paired on the proxy's word".into(),
            "keep it off unless the proxy is the only ingress and `allowUsers` is set",
        ),
        TrustedProxyCheck::AutoApproveAdmin
            if auto_approve_on
                && auto_approve
                    .and_then(|a| a.get(keys::SCOPES))
                    .and_then(Value::as_array)
                    .is_some_and(|s| s.iter().any(|v| v.as_str().map(js_trim) == Some("operator.admin"))) =>
        {
            (
                section.key("deviceAutoApprove").key(keys::SCOPES),
                "auto-approved devices get `operator.admin`".into(),
                "remove operator.admin and grant admin per identity",
            )
        }
        TrustedProxyCheck::NoAllowlist
            if field("allowUsers").and_then(Value::as_array).is_none_or(|users| users.is_empty()) =>
        {
            (
                section.key("allowUsers"),
                "every user the proxy authenticates may use the gateway".into(),
                "list the users in `gateway.auth.trustedProxy.allowUsers`",
            )
        }
        _ => return,
    };
    out.report(&path, message).help(help);
}

fn no_rate_limit(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let bind = bind(ctx);
    let limit = ctx.get(&["gateway", "auth", "rateLimit"]);
    if bind != "loopback" && GatewayAuth::resolve(ctx).mode != "trusted-proxy" && !limit.is_some_and(js_truthy) {
        out.report(&auth_path("rateLimit"), format!("the gateway binds to `{bind}` and nothing limits failed logins"))
            .help("set `gateway.auth.rateLimit`, e.g. { maxAttempts: 10, windowMs: 60000, lockoutMs: 300000 }");
    }
}

fn env_token_conflict(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(env_token) = env_var(ctx, "OPENCLAW_GATEWAY_TOKEN") else { return };
    if ctx.loaded.effective_env().get("OPENCLAW_SERVICE_KIND").map(|k| js_trim(k)) == Some("gateway")
        || ctx.get(&["gateway", "mode"]).and_then(Value::as_str) == Some("remote")
        || matches!(
            ctx.get(&["gateway", "auth", "mode"]).and_then(Value::as_str),
            Some("password" | "none" | "trusted-proxy")
        )
    {
        return;
    }
    let path = auth_path("token");
    let written = path.lookup(ctx.config());
    let env_ref = written.and_then(|v| v.get(keys::ID)).and_then(Value::as_str);
    if is_secret_ref(written)
        && written.and_then(|v| v.get(keys::SOURCE)).and_then(Value::as_str) == Some("env")
        && env_ref == Some("OPENCLAW_GATEWAY_TOKEN")
    {
        return;
    }
    let config_token = if is_secret_ref(written) { None } else { trimmed(written) };
    if (!is_secret_ref(written) && config_token.is_none()) || config_token.as_deref() == Some(env_token.as_str()) {
        return;
    }
    out.report(&path, "`OPENCLAW_GATEWAY_TOKEN` is set to another value than `gateway.auth.token`")
        .help("unset the variable, or write `token: \"${OPENCLAW_GATEWAY_TOKEN}\"`");
}

fn session_key_override(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for endpoint in ["chatCompletions", "responses"] {
        let keys = ["gateway", "http", "endpoints", endpoint, "enabled"];
        if is_true(ctx, &keys) {
            out.report(&KeyPath::keys(&keys), format!("`{endpoint}` callers may pick the session with a header"))
                .help("treat API credential holders as trusted operators");
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_loopback_proxies_are_the_audits() {
        for entry in ["127.0.0.1", " ::1 ", "::1/128", "127.0.0.1/32", "127.0.0.1/32/x"] {
            assert!(is_strict_loopback_proxy(entry), "{entry}");
        }
        for entry in ["10.0.0.1", "127.0.0.2", "127.0.0.1/8", "::1/64", "/32", "localhost", ""] {
            assert!(!is_strict_loopback_proxy(entry), "{entry}");
        }
    }
}
