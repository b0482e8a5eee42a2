//! Exposure to open channels: what open groups and DMs can reach (exec, elevated mode,
//! runtime and filesystem tools, control-plane tools), as `openclaw security audit` reports them.
//! The trust-model checks of the same category are in [`super::trust`].

use crate::lint::registry::Applies;
use serde_json::Value;

use super::audit::{
    ToolContext, critical_if, exec_scopes, lists, open_exec_surface_paths, open_inbound_paths, preview,
};
use super::walk::agents;
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::exec::posture::Security;
use crate::lint::{Category, Emitter, LintContext, Rule, Severity};

pub const RULES: &[Rule] = &[
    Rule {
        code: "CP601",
        name: "open-channel-reaches-exec",
        severity: Severity::Security,
        category: Category::Exposure,
        summary: "An open group or DM policy while some exec scope's security is not `deny`.",
        why: "Anyone who can write in an open conversation can try to steer the model into running shell commands; \
              with security `full` the audit rates it critical.",
        example: "channels: { telegram: { groupPolicy: \"open\" } }, tools: { exec: { security: \"allowlist\" } }",
        fix: "Set the policy to `pairing` or `allowlist`, or deny exec for agents reachable from shared channels.",
        openclaw_check: Some("security.exposure.open_channels_with_exec"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: open_channels_with_exec,
    },
    Rule {
        code: "CP602",
        name: "open-channel-with-elevated",
        severity: Severity::Error,
        category: Category::Exposure,
        summary: "An open group (or, on 2026.9, DM) policy while elevated mode is not disabled.",
        why: "Elevated mode runs exec on the host; a prompt injection in an open conversation can become a \
              high-impact incident. Elevated mode is on unless `tools.elevated.enabled` is `false`.",
        example: "channels: { discord: { groupPolicy: \"open\" } }",
        fix: "Set the policy to `allowlist`, or set `tools.elevated.enabled: false`.",
        openclaw_check: Some("security.exposure.open_groups_with_elevated"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: open_groups_with_elevated,
    },
    Rule {
        code: "CP603",
        name: "open-channel-with-runtime-or-fs",
        severity: Severity::Security,
        category: Category::Exposure,
        summary: "With an open group/DM policy, an agent allows exec/process outside a full sandbox, or file tools \
                  outside a full sandbox without `fs.workspaceOnly`.",
        why: "A prompt injection in an open conversation can run commands or read and write files on the host. \
              Exposed runtime tools make it critical.",
        example: "channels: { telegram: { groupPolicy: \"open\" } }, tools: { profile: \"coding\" }",
        fix: "Use `tools.profile: \"messaging\"` (or deny `group:runtime`/`group:fs`), set `tools.fs.workspaceOnly`, \
              and use sandbox mode `all` for exposed agents.",
        openclaw_check: Some("security.exposure.open_groups_with_runtime_or_fs"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: open_groups_with_runtime_or_fs,
    },
    Rule {
        code: "CP604",
        name: "open-channel-with-control-plane-tools",
        severity: Severity::Error,
        category: Category::Exposure,
        summary: "With an open group/DM policy, an agent allows a control-plane tool (`cron`, `gateway`, `plugins`).",
        why: "Those tools change the gateway itself: config and self-update, plugin installs, scheduled runs. A \
              prompt injection in an open conversation reaches them.",
        example: "channels: { whatsapp: { groupPolicy: \"open\" } }, tools: { alsoAllow: [\"gateway\"] }",
        fix: "Deny the control-plane tools for exposed agents and prefer `tools.profile: \"messaging\"`.",
        openclaw_check: Some("security.exposure.open_groups_with_control_plane_tools"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: open_groups_with_control_plane_tools,
    },
    Rule {
        code: "CP607",
        name: "minimal-profile-overridden",
        severity: Severity::Security,
        category: Category::Exposure,
        summary: "`tools.profile` is `minimal` but agents set another profile.",
        why: "The agent profile takes precedence, so the global minimal profile does not hold where it matters.",
        example: "tools: { profile: \"minimal\" },\n// OpenClaw 2026.9, 2026.8:\nagents: { entries: { bot: { tools: { profile: \"full\" } } } }\n// OpenClaw 2026.7, 2026.6, 2026.5, 2026.4, 2026.3, 2026.2:\nagents: { list: [{ id: \"bot\", tools: { profile: \"full\" } }] }",
        fix: "Set those agents to `minimal` too, or remove their override.",
        openclaw_check: Some("tools.profile_minimal_overridden"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: minimal_profile_overridden,
    },
];

/// `a, b (+n more)` of the open paths, for messages.
fn open_list(paths: &[String]) -> String {
    preview(paths, 3)
}

fn dotted(paths: &[KeyPath]) -> Vec<String> {
    paths.iter().map(|p| crate::config::path::dotted(p.segments())).collect()
}

fn open_channels_with_exec(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let open = open_exec_surface_paths(ctx);
    let scopes = exec_scopes(ctx);
    let enabled: Vec<String> = scopes
        .iter()
        .filter(|s| s.security != Security::Deny)
        .map(|s| format!("{} (security {}, host {})", s.id, s.security, s.host))
        .collect();
    if open.is_empty() || enabled.is_empty() {
        return;
    }
    let severity = critical_if(scopes.iter().any(|s| s.security == Security::Full));
    for path in &open {
        out.report(&dotted_key(path), format!("{path} is open and exec is enabled for {}", preview(&enabled, 4)))
            .severity(severity)
            .help("use `pairing` or `allowlist`, or disable exec for agents reachable from shared channels");
    }
}

/// A dotted path the audit built (`channels.telegram.groups.-100.groupPolicy`) as a key path.
fn dotted_key(path: &str) -> KeyPath {
    KeyPath::keys(&path.split('.').collect::<Vec<_>>())
}

fn open_groups_with_elevated(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if ctx.get(&[keys::TOOLS, keys::ELEVATED, keys::ENABLED]) == Some(&Value::Bool(false)) {
        return;
    }
    for path in open_inbound_paths(ctx) {
        let dotted = crate::config::path::dotted(path.segments());
        out.report(&path, format!("{dotted} is open while elevated mode is enabled"))
            .help("set the policy to `allowlist` and keep elevated allowlists tight, or disable elevated mode");
    }
}

/// The contexts whose runtime or file tools are exposed, and whether any runtime tool is.
pub(super) fn risky_contexts<'c>(ctx: &'c LintContext<'_>) -> (Vec<(&'c ToolContext, String)>, bool) {
    let global_workspace_only = ctx.get(&[keys::TOOLS, keys::FS, keys::WORKSPACE_ONLY]);
    let mut risky = Vec::new();
    let mut runtime_risk = false;
    for context in ctx.tool_contexts() {
        let runtime = context.allowed(&["exec", "process"]);
        let fs = context.allowed(&["read", "write", "edit", "apply_patch"]);
        let own =
            context.agent_tools.as_ref().and_then(|t| t.get(keys::FS).and_then(|fs| fs.get(keys::WORKSPACE_ONLY)));
        let workspace_only = own.or(global_workspace_only) == Some(&Value::Bool(true));
        let sandboxed = context.sandbox_mode == "all";
        let runtime_unguarded = !runtime.is_empty() && !sandboxed;
        let fs_unguarded = !fs.is_empty() && !sandboxed && !workspace_only;
        if !runtime_unguarded && !fs_unguarded {
            continue;
        }
        runtime_risk |= runtime_unguarded;
        let or_off = |tools: &[&str]| if tools.is_empty() { "off".to_string() } else { tools.join(", ") };
        let detail = format!(
            "{} (sandbox {}; runtime [{}]; fs [{}]; fs.workspaceOnly {workspace_only})",
            context.label,
            context.sandbox_mode,
            or_off(&runtime),
            or_off(&fs)
        );
        risky.push((context, detail));
    }
    (risky, runtime_risk)
}

fn open_groups_with_runtime_or_fs(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let open = dotted(&open_inbound_paths(ctx));
    if open.is_empty() {
        return;
    }
    let (risky, runtime_risk) = risky_contexts(ctx);
    for (context, detail) in risky {
        let finding =
            out.report(&context.path, format!("{detail} is reachable from open policies: {}", open_list(&open)));
        finding.severity(critical_if(runtime_risk)).help(
            "prefer `tools.profile: \"messaging\"` (or deny group:runtime/group:fs), `tools.fs.workspaceOnly: true`, \
             and sandbox mode `all`",
        );
        if let Some(agent) = &context.agent {
            finding.agent(agent);
        }
    }
}

fn open_groups_with_control_plane_tools(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let open = dotted(&open_inbound_paths(ctx));
    if open.is_empty() {
        return;
    }
    let control_plane: Vec<&str> = lists(ctx.version).control_plane_tools.iter().map(String::as_str).collect();
    for context in ctx.tool_contexts() {
        let exposed = context.allowed(&control_plane);
        if exposed.is_empty() {
            continue;
        }
        let finding = out.report(
            &context.path,
            format!(
                "{} allows control-plane tools [{}] and open policies reach it: {}",
                context.label,
                exposed.join(", "),
                open_list(&open)
            ),
        );
        finding.help(format!("deny {} for exposed agents; prefer `tools.profile: \"messaging\"`", exposed.join(", ")));
        if let Some(agent) = &context.agent {
            finding.agent(agent);
        }
    }
}

fn minimal_profile_overridden(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if ctx.get(&[keys::TOOLS, keys::PROFILE]).and_then(Value::as_str) != Some("minimal") {
        return;
    }
    for agent in agents(ctx) {
        let Some(path) = agent.path.as_ref().map(|p| p.key(keys::TOOLS).key(keys::PROFILE)) else { continue };
        let Some(profile) = path.lookup(ctx.config()).and_then(Value::as_str).filter(|p| !p.is_empty()) else {
            continue;
        };
        if profile != "minimal" {
            out.report(&path, format!("agent `{}` overrides the global minimal profile with `{profile}`", agent.id))
                .agent(&agent.id)
                .help("set it to `minimal` or remove the override");
        }
    }
}
