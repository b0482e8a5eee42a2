//! Gateway, hooks and dangerous flags: the HTTP `/tools/invoke` surface, node commands,
//! webhook routing, and the config flags `openclaw security audit` calls insecure.

use crate::lint::registry::Applies;
use serde_json::Value;

use super::audit::{critical_if, lists, node_command_paths, string_entries};
use super::gateway_auth::{GatewayAuth, auth_anchor, auth_path, remotely_exposed};
use crate::config::path::{KeyPath, PathSeg};
use crate::config::view::keys;
use crate::lint::{Category, Emitter, LintContext, Rule, Severity};

pub const RULES: &[Rule] = &[
    Rule {
        code: "CP701",
        name: "gateway-http-dangerous-tool",
        severity: Severity::Security,
        category: Category::Gateway,
        summary: "`gateway.tools.allow` re-enables a tool that `POST /tools/invoke` denies by default.",
        why: "The HTTP tool endpoint skips the chat pipeline; re-enabled tools (exec, sessions_spawn, gateway, …) \
              can be called by anyone holding the gateway credential. Critical when the gateway is not loopback-only.",
        example: "gateway: { tools: { allow: [\"sessions_spawn\"] } }",
        fix: "Remove the entry; if you keep it, keep the gateway on loopback and treat its token as full admin.",
        openclaw_check: Some("gateway.tools_invoke_http.dangerous_allow"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: http_dangerous_tools,
    },
    Rule {
        code: "CP702",
        name: "gateway-http-no-auth",
        severity: Severity::Security,
        category: Category::Gateway,
        summary: "The HTTP APIs (`/tools/invoke`, `/v1/*`) take no credential: auth mode `none`, or (2026.9) a \
                  `token`/`password` mode whose credential resolves nowhere, which is the default.",
        why: "Anyone who can reach the port can invoke tools. Critical when the gateway binds beyond loopback or is \
              served over Tailscale. The credential may come from the config or from `OPENCLAW_GATEWAY_TOKEN` / \
              `OPENCLAW_GATEWAY_PASSWORD` in the gateway's environment.",
        example: "gateway: { auth: { mode: \"none\" } }",
        fix: "Set `gateway.auth.token` (or the variable); if `none` is intended, keep `gateway.bind: \"loopback\"`.",
        openclaw_check: Some("gateway.http.no_auth"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: http_no_auth,
    },
    Rule {
        code: "CP703",
        name: "node-dangerous-command-allowed",
        severity: Severity::Security,
        category: Category::Gateway,
        summary: "The node command allowlist enables a dangerous device command (camera, screen recording, SMS, \
                  contacts, calendar, …).",
        why: "Paired devices then take photos, record the screen or send SMS on the model's request. Critical when \
              the gateway is exposed beyond loopback.",
        example: "// OpenClaw 2026.9, 2026.8:\ngateway: { nodes: { commands: { allow: [\"camera.snap\"] } } }\n// OpenClaw 2026.7, 2026.6, 2026.5, 2026.4, 2026.3, 2026.2:\ngateway: { nodes: { allowCommands: [\"camera.snap\"] } }",
        fix: "Remove the command from the allowlist (or deny it).",
        openclaw_check: Some("gateway.nodes.allow_commands_dangerous"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: node_dangerous_allow,
    },
    Rule {
        code: "CP704",
        name: "node-deny-ineffective",
        severity: Severity::Security,
        category: Category::Gateway,
        summary: "A node command deny entry that never matches: a pattern (`camera.*`, `system.run *`) or an unknown \
                  command name.",
        why: "Node command denies match exact command ids only; patterns and typos deny nothing, so the command \
              stays allowed.",
        example: "// OpenClaw 2026.9, 2026.8:\ngateway: { nodes: { commands: { deny: [\"camera.*\"] } } }\n// OpenClaw 2026.7, 2026.6, 2026.5, 2026.4, 2026.3, 2026.2:\ngateway: { nodes: { denyCommands: [\"camera.*\"] } }",
        fix: "List exact command ids (`camera.snap`, `camera.clip`).",
        openclaw_check: Some("gateway.nodes.deny_commands_ineffective"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: node_deny_ineffective,
    },
    Rule {
        code: "CP705",
        name: "hooks-any-agent",
        severity: Severity::Security,
        category: Category::Gateway,
        summary: "Webhooks are enabled and `hooks.allowedAgentIds` is unset or contains `\"*\"`.",
        why: "Authenticated hook callers may route payloads to any agent, including one with exec and file tools. \
              Critical when the gateway is exposed beyond loopback.",
        example: "hooks: { enabled: true, token: \"${HOOKS_TOKEN}\" }",
        fix: "Set `hooks.allowedAgentIds` to the agents hooks may reach (or `[]`).",
        openclaw_check: Some("hooks.allowed_agent_ids_unrestricted"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: hooks_any_agent,
    },
    Rule {
        code: "CP706",
        name: "hooks-request-session-key",
        severity: Severity::Security,
        category: Category::Gateway,
        summary: "`hooks.allowRequestSessionKey` is `true`.",
        why: "Hook callers choose the session their payload lands in, so a hook token holder can write into any \
              conversation.",
        example: "hooks: { enabled: true, allowRequestSessionKey: true }",
        fix: "Set it to `false`, or restrict `hooks.allowedSessionKeyPrefixes`.",
        openclaw_check: Some("hooks.request_session_key_enabled"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: |ctx, out| request_session_key(ctx, out, false),
    },
    Rule {
        code: "CP707",
        name: "hooks-session-key-prefixes-missing",
        severity: Severity::Security,
        category: Category::Gateway,
        summary: "`hooks.allowRequestSessionKey` is `true` and `hooks.allowedSessionKeyPrefixes` is empty.",
        why: "Request payloads can target any session key shape, including other agents' main sessions.",
        example: "hooks: { enabled: true, allowRequestSessionKey: true }",
        fix: "Set `hooks.allowedSessionKeyPrefixes` (for example `[\"hook:\"]`).",
        openclaw_check: Some("hooks.request_session_key_prefixes_missing"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: |ctx, out| request_session_key(ctx, out, true),
    },
    Rule {
        code: "CP708",
        name: "hooks-default-session-key-unset",
        severity: Severity::Security,
        category: Category::Gateway,
        summary: "Webhooks are enabled without `hooks.defaultSessionKey`.",
        why: "Hook runs without an explicit session key get generated per-request keys, so hook ingress is not \
              scoped to a known session.",
        example: "hooks: { enabled: true }",
        fix: "Set `hooks.defaultSessionKey` (for example `\"hook:ingress\"`).",
        openclaw_check: Some("hooks.default_session_key_unset"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: default_session_key,
    },
    Rule {
        code: "CP709",
        name: "hooks-path-root",
        severity: Severity::Error,
        category: Category::Gateway,
        summary: "`hooks.path` is `/`.",
        why: "The hook endpoint would shadow every other HTTP endpoint of the gateway.",
        example: "hooks: { enabled: true, path: \"/\" }",
        fix: "Use a dedicated path such as `/hooks`.",
        openclaw_check: Some("hooks.path_root"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: hooks_path_root,
    },
    Rule {
        code: "CP710",
        name: "dangerous-config-flag",
        severity: Severity::Security,
        category: Category::Gateway,
        summary: "A config flag the release calls insecure or dangerous is enabled (unsafe external hook content, \
                  `applyPatch.workspaceOnly: false`, host-header origin fallback, …).",
        why: "Each flag switches off a protection on purpose; the audit reports every one so none goes unnoticed.",
        example: "tools: { exec: { applyPatch: { workspaceOnly: false } } }",
        fix: "Remove the flag unless you need it and accept the risk (then suppress this finding with a reason).",
        openclaw_check: Some("config.insecure_or_dangerous_flags"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: dangerous_flags,
    },
];

fn http_dangerous_tools(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let deny = &lists(ctx.version).gateway_http_tool_deny;
    let list = KeyPath::keys(&[keys::GATEWAY, keys::TOOLS, keys::ALLOW]);
    let bind = ctx.get(&[keys::GATEWAY, keys::BIND]).and_then(Value::as_str).unwrap_or("loopback");
    let funnel = ctx.get(&[keys::GATEWAY, keys::TAILSCALE, keys::MODE]).and_then(Value::as_str) == Some("funnel");
    let severity = critical_if(bind != "loopback" || funnel);
    for (i, entry) in list.lookup(ctx.config()).and_then(Value::as_array).into_iter().flatten().enumerate() {
        let Some(name) = entry.as_str().map(|s| s.trim().to_lowercase()) else { continue };
        if deny.contains(&name) {
            out.report(&list.index(i), format!("`{name}` is re-enabled on the HTTP /tools/invoke endpoint"))
                .severity(severity)
                .help("remove it; otherwise keep the gateway loopback-only and treat its credential as full admin");
        }
    }
}

fn http_no_auth(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let auth = GatewayAuth::resolve(ctx);
    if auth.http_guarded(ctx.version) {
        return;
    }
    let mode = auth_path(keys::MODE);
    let (at, why) = if auth.mode == "none" {
        (mode, "gateway auth is `none`".to_string())
    } else {
        (auth_anchor(ctx), format!("no gateway {} resolves", auth.mode))
    };
    out.report(&at, format!("{why}: /tools/invoke and the enabled /v1 endpoints take no credential"))
        .severity(critical_if(remotely_exposed(ctx)))
        .help("set `gateway.auth.token` (or OPENCLAW_GATEWAY_TOKEN in the gateway's environment), or keep the gateway on loopback");
}

/// Each trimmed string entry of a list with its path.
fn entries_with_paths(ctx: &LintContext<'_>, list: &KeyPath) -> Vec<(KeyPath, String)> {
    let items = list.lookup(ctx.config()).and_then(Value::as_array).into_iter().flatten().enumerate();
    items
        .filter_map(|(i, v)| Some((list.index(i), v.as_str()?.trim().to_string())))
        .filter(|(_, s)| !s.is_empty())
        .collect()
}

fn node_dangerous_allow(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let lists = lists(ctx.version);
    let (allow_path, deny_path) = node_command_paths(&lists.node_command_keys);
    let denied: Vec<String> = entries_with_paths(ctx, &deny_path).into_iter().map(|(_, s)| s).collect();
    let severity = critical_if(remotely_exposed(ctx));
    for (path, command) in entries_with_paths(ctx, &allow_path) {
        if lists.dangerous_node_commands.contains(&command) && !denied.contains(&command) {
            out.report(&path, format!("dangerous node command `{command}` is allowed"))
                .severity(severity)
                .help("remove it; paired devices would run it on the model's request");
        }
    }
}

/// `looksLikeNodeCommandPattern`.
fn looks_like_pattern(entry: &str) -> bool {
    entry.contains(['?', '*', '[', ']', '{', '}', '(', ')', ',', '|'])
        || entry.starts_with(['/', '^'])
        || entry.ends_with(['/', '$'])
        || entry.contains(char::is_whitespace)
        || entry.contains("group:")
}

fn node_deny_ineffective(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let lists = lists(ctx.version);
    let (allow_path, deny_path) = node_command_paths(&lists.node_command_keys);
    let allowed: Vec<String> = entries_with_paths(ctx, &allow_path).into_iter().map(|(_, s)| s).collect();
    let known = |command: &str| lists.known_node_commands.contains(command) || allowed.iter().any(|a| a == command);
    for (path, entry) in entries_with_paths(ctx, &deny_path) {
        let message = if looks_like_pattern(&entry) {
            format!("`{entry}` is a pattern, but node command denies match exact command ids only")
        } else if !known(&entry) {
            format!("`{entry}` is not a known node command, so it denies nothing")
        } else {
            continue;
        };
        let suggestions = suggest_commands(&entry, lists.known_node_commands.iter().map(String::as_str));
        let help = if suggestions.is_empty() {
            "use exact command ids".to_string()
        } else {
            format!("use exact command ids, such as {}", suggestions.join(", "))
        };
        out.report(&path, message).help(help);
    }
}

/// Known commands sharing the entry's `family.verb` prefix, else the closest by edit distance.
fn suggest_commands<'a>(entry: &str, known: impl Iterator<Item = &'a str> + Clone) -> Vec<&'a str> {
    let stem: String = entry.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '.').collect();
    let prefix = stem.split('.').filter(|s| !s.is_empty()).take(2).collect::<Vec<_>>().join(".");
    let by_prefix: Vec<&str> = known.clone().filter(|c| !prefix.is_empty() && c.starts_with(&prefix)).take(3).collect();
    if !by_prefix.is_empty() {
        return by_prefix;
    }
    let mut ranked: Vec<(usize, &str)> = known.map(|c| (strsim::levenshtein(entry, c), c)).collect();
    ranked.sort();
    let best = ranked.first().map_or(usize::MAX, |r| r.0);
    let threshold = best.clamp(2, 4);
    ranked.into_iter().filter(|r| r.0 <= threshold).take(3).map(|r| r.1).collect()
}

fn hooks_enabled(ctx: &LintContext<'_>) -> bool {
    ctx.get(&[keys::HOOKS, keys::ENABLED]) == Some(&Value::Bool(true))
}

fn hooks_any_agent(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if !hooks_enabled(ctx) {
        return;
    }
    let path = KeyPath::keys(&[keys::HOOKS, keys::ALLOWED_AGENT_IDS]);
    let value = path.lookup(ctx.config());
    let unrestricted = match value {
        Some(Value::Array(_)) => string_entries(value).iter().any(|e| e == "*"),
        _ => true,
    };
    if unrestricted {
        let at = if value.is_some() { path } else { KeyPath::keys(&[keys::HOOKS]) };
        out.report(&at, "hook callers may route to any agent (`hooks.allowedAgentIds` is unset or `*`)")
            .severity(critical_if(remotely_exposed(ctx)))
            .help("set `hooks.allowedAgentIds` to the agents hooks may reach, or `[]`");
    }
}

fn request_session_key(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>, prefixes_missing: bool) {
    let path = KeyPath::keys(&[keys::HOOKS, keys::ALLOW_REQUEST_SESSION_KEY]);
    if !hooks_enabled(ctx) || path.lookup(ctx.config()) != Some(&Value::Bool(true)) {
        return;
    }
    let severity = critical_if(remotely_exposed(ctx));
    if !prefixes_missing {
        out.report(&path, "hook payloads may choose their session key")
            .severity(severity)
            .help("set it to false, or restrict `hooks.allowedSessionKeyPrefixes`");
        return;
    }
    let prefixes = KeyPath::keys(&[keys::HOOKS, keys::ALLOWED_SESSION_KEY_PREFIXES]);
    if string_entries(prefixes.lookup(ctx.config())).is_empty() {
        out.report(&path, "hook payloads may target any session key: `hooks.allowedSessionKeyPrefixes` is empty")
            .severity(severity)
            .help("set `hooks.allowedSessionKeyPrefixes` (for example [\"hook:\"])");
    }
}

fn default_session_key(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let key =
        ctx.get(&[keys::HOOKS, keys::DEFAULT_SESSION_KEY]).and_then(Value::as_str).map(str::trim).unwrap_or_default();
    if hooks_enabled(ctx) && key.is_empty() {
        out.report(&KeyPath::keys(&[keys::HOOKS]), "webhooks are enabled without `hooks.defaultSessionKey`")
            .help("set `hooks.defaultSessionKey` (for example \"hook:ingress\")");
    }
}

fn hooks_path_root(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let path = KeyPath::keys(&[keys::HOOKS, keys::PATH]);
    if hooks_enabled(ctx) && path.lookup(ctx.config()).and_then(Value::as_str).map(str::trim) == Some("/") {
        out.report(&path, "`hooks.path` is `/`: the hook endpoint shadows every other HTTP endpoint")
            .help("use a dedicated path such as `/hooks`");
    }
}

/// Every path matching a dotted pattern where `*` stands for any key or index.
fn matching_paths(root: &Value, pattern: &[&str], at: KeyPath, out: &mut Vec<KeyPath>) {
    let Some((first, rest)) = pattern.split_first() else {
        out.push(at);
        return;
    };
    match (*first, root) {
        ("*", Value::Object(map)) => map.iter().for_each(|(k, v)| matching_paths(v, rest, at.key(k), out)),
        ("*", Value::Array(items)) => {
            items.iter().enumerate().for_each(|(i, v)| matching_paths(v, rest, at.index(i), out))
        }
        (key, Value::Object(map)) => {
            if let Some(v) = map.get(key) {
                matching_paths(v, rest, at.key(key), out);
            }
        }
        _ => {}
    }
}

fn dangerous_flags(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for flag in &lists(ctx.version).dangerous_flags {
        let pattern: Vec<&str> = flag.path.split('.').collect();
        let mut paths = Vec::new();
        matching_paths(ctx.config(), &pattern, KeyPath::root(), &mut paths);
        for path in paths.into_iter().filter(|p| p.lookup(ctx.config()) == Some(&flag.equals)) {
            let shown = path
                .segments()
                .iter()
                .map(|s| match s {
                    PathSeg::Index(i) => format!("[{i}]"),
                    PathSeg::Key(k) => format!(".{k}"),
                })
                .collect::<String>();
            out.report(&path, format!("insecure flag `{}={}` is enabled", shown.trim_start_matches('.'), flag.equals))
                .help("remove it unless you need it; suppress this finding with a reason if you do");
        }
    }
}
