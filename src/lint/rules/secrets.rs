//! Secrets in the config and the webhook token, as `openclaw security audit` checks them: a short
//! hooks token, a hooks token equal to the gateway's credential (from the config or the
//! environment), and credentials written into the config file rather than referenced.

use crate::release::lint::Credentials;
use serde_json::Value;

use super::audit::audit_rule;
use super::gateway_auth::{GatewayAuth, env_var, js_len, unresolved};
use crate::base::js::js_trim;
use crate::config::path::KeyPath;
use crate::lint::{Emitter, LintContext, Rule};

pub const RULES: &[Rule] = &[
    audit_rule!(Gateway, "CP738", "hooks-token-too-short", Security, "hooks.token_too_short", hooks_token_too_short,
        summary: "Webhooks are enabled with a `hooks.token` shorter than 24 characters.",
        why: "The hook token is the only credential of the webhook endpoint; a short one can be guessed. A `${VAR}` \
              whose variable is unset (2026.9 keeps the text) counts as the short text it is.",
        example: "hooks: { enabled: true, token: \"abc123\" }",
        fix: "Use a long random token (`openssl rand -hex 32`), passed in through the environment.",
    ),
    audit_rule!(Gateway, "CP739", "hooks-token-reuses-gateway-secret", Error, "hooks.token_reuse_gateway_token", hooks_token_reuse,
        summary: "`hooks.token` equals the gateway's token or password (from the config or the environment).",
        why: "Whoever can call a webhook can then also operate the gateway API.",
        example: "hooks: { enabled: true, token: \"${OPENCLAW_GATEWAY_TOKEN}\" }\n// env: OPENCLAW_GATEWAY_TOKEN=3f9c2a7d1e6b4c8a9d0e5f1a2b3c4d5e",
        fix: "Give hooks a token of their own.",
    ),
    audit_rule!(Gateway, "CP740", "gateway-password-in-config", Security, "config.secrets.gateway_password_in_config",
        password_in_config,
        summary: "`gateway.auth.password` is written in the config file.",
        why: "The config file is read by tools, backups and people; a password there leaks with it.",
        example: "gateway: { auth: { mode: \"password\", password: \"correct-horse-battery-staple\" } }",
        fix: "Set `OPENCLAW_GATEWAY_PASSWORD` in the gateway's environment and remove the key.",
    ),
    audit_rule!(Gateway, "CP741", "hooks-token-in-config", Suggestion, "config.secrets.hooks_token_in_config", hooks_token_in_config,
        summary: "Webhooks are enabled and `hooks.token` holds a value (a resolved `${VAR}` included).",
        why: "The token is an API secret; the config file and its permissions must be treated like one.",
        example: "hooks: { enabled: true, token: \"0123456789abcdef0123456789abcdef\" }",
        fix: "Keep the config file private (mode 600).",
    ),
];

fn hooks_enabled(ctx: &LintContext<'_>) -> bool {
    ctx.get(&["hooks", "enabled"]) == Some(&Value::Bool(true))
}

fn token_path() -> KeyPath {
    KeyPath::keys(&["hooks", "token"])
}

/// `hooks.token`, trimmed (empty when unset or not a string).
fn hooks_token(ctx: &LintContext<'_>) -> String {
    token_path().lookup(ctx.config()).and_then(Value::as_str).map(|t| js_trim(t).to_string()).unwrap_or_default()
}

fn hooks_token_too_short(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let token = hooks_token(ctx);
    if hooks_enabled(ctx) && !token.is_empty() && js_len(&token) < 24 {
        out.report(&token_path(), format!("the hooks token is {} characters long", js_len(&token)))
            .help("use a random token of at least 24 (better 32+) characters");
    }
}

fn hooks_token_reuse(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let token = hooks_token(ctx);
    if !hooks_enabled(ctx) || token.is_empty() {
        return;
    }
    let auth = GatewayAuth::resolve(ctx);
    let reused = match ctx.version.lint().credentials {
        Credentials::Resolved => auth
            .active_secrets(ctx.version)
            .into_iter()
            .find(|(_, secret)| *secret == Some(token.as_str()))
            .map(|(c, _)| c),
        Credentials::Written => {
            let gateway_token =
                auth.token.clone().filter(|_| auth.mode == "token").or_else(|| env_var(ctx, "OPENCLAW_GATEWAY_TOKEN"));
            (gateway_token.as_deref() == Some(token.as_str())).then_some("token")
        }
    };
    if let Some(credential) = reused {
        out.report(&token_path(), format!("the hooks token is the gateway's {credential}"))
            .help("give hooks a token of their own");
    }
}

/// 2026.2: a value that still looks like `${…}` (its variable held that text) is not reported.
fn looks_like_env_ref(value: &str) -> bool {
    value.starts_with("${") && value.ends_with('}')
}

/// Whether the trimmed value at `path` is a secret written in the config.
fn written_secret(ctx: &LintContext<'_>, path: &KeyPath) -> bool {
    let Some(value) = path.lookup(ctx.config()).and_then(Value::as_str).map(js_trim).filter(|v| !v.is_empty()) else {
        return false;
    };
    match ctx.version.lint().credentials {
        Credentials::Resolved => !unresolved(ctx, path),
        Credentials::Written => !looks_like_env_ref(value),
    }
}

fn password_in_config(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let path = KeyPath::keys(&["gateway", "auth", "password"]);
    if written_secret(ctx, &path) {
        out.report(&path, "the gateway password is stored in the config")
            .help("set OPENCLAW_GATEWAY_PASSWORD in the gateway's environment and remove the key");
    }
}

fn hooks_token_in_config(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if hooks_enabled(ctx) && written_secret(ctx, &token_path()) {
        out.report(&token_path(), "the hooks token is held in the config")
            .help("keep the config file private (mode 600)");
    }
}
