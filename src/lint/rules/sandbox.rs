//! Sandbox: the Docker settings `openclaw security audit` checks (binds, network mode,
//! seccomp/AppArmor, docker settings that do nothing). Like the audit, they run only on a config
//! the release accepts; the values it refuses outright are reported by CP105.

use crate::lint::registry::Applies;
use serde_json::Value;

use super::audit::{agent_label, lists, normalize_posix};
use super::walk::agents;
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::lint::{Category, Emitter, LintContext, Rule, Severity};

pub const RULES: &[Rule] = &[
    Rule {
        code: "CP501",
        name: "sandbox-docker-while-off",
        severity: Severity::Security,
        category: Category::Sandbox,
        summary: "Sandbox `docker` settings where the sandbox mode is `off`.",
        why: "The settings never take effect, so the isolation they describe (memory limits, network, binds) is \
              not there; usually the mode was meant to be on.",
        example: "agents: { defaults: { sandbox: { mode: \"off\", docker: { network: \"none\" } } } }",
        fix: "Enable the sandbox mode (`non-main` or `all`) where the settings are meant to apply, or remove them.",
        openclaw_check: Some("sandbox.docker_config_mode_off"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: docker_while_off,
    },
    Rule {
        code: "CP503",
        name: "sandbox-dangerous-bind",
        severity: Severity::Error,
        category: Category::Sandbox,
        summary: "A sandbox bind mount that exposes a blocked host path: system directories, credential directories, \
                  the Docker socket.",
        why: "Binding `/etc`, `/run` or the Docker socket into the sandbox gives sandboxed code the host (the Docker \
              socket is root on the host).",
        example: "agents: { defaults: { sandbox: { docker: { binds: [\"/var/run/docker.sock:/var/run/docker.sock\"] } } } }",
        fix: "Remove the bind; mount project-specific directories instead.",
        openclaw_check: Some("sandbox.dangerous_bind_mount"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: blocked_binds,
    },
    Rule {
        code: "CP504",
        name: "sandbox-dangerous-network",
        severity: Severity::Error,
        category: Category::Sandbox,
        summary: "Sandbox `docker.network` joins another container's namespace (`container:<id>`, allowed by \
                  `dangerouslyAllowContainerNamespaceJoin`).",
        why: "Host networking bypasses container network isolation entirely; joining a container namespace can \
              bypass it too.",
        example: "agents: { defaults: { sandbox: { mode: \"all\", docker: { network: \"container:vpn\", \
                  dangerouslyAllowContainerNamespaceJoin: true } } } }",
        fix: "Use `bridge`, `none` or a custom bridge network.",
        openclaw_check: Some("sandbox.dangerous_network_mode"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: network,
    },
];

/// `agents.defaults.sandbox.docker` and each agent's `sandbox.docker` that are objects, with
/// the audit's label and the agent id.
fn docker_blocks<'a>(ctx: &LintContext<'a>) -> Vec<(KeyPath, &'a Value, String, Option<String>)> {
    let mut out = Vec::new();
    let defaults = KeyPath::keys(&[keys::AGENTS, keys::DEFAULTS, keys::SANDBOX, keys::DOCKER]);
    if let Some(docker) = defaults.lookup(ctx.config()).filter(|d| d.is_object()) {
        out.push((defaults, docker, "agents.defaults.sandbox.docker".to_string(), None));
    }
    for agent in agents(ctx) {
        let Some(path) = &agent.path else { continue };
        let path = path.key(keys::SANDBOX).key(keys::DOCKER);
        if let Some(docker) = path.lookup(ctx.config()).filter(|d| d.is_object()) {
            let label = format!("{}.sandbox.docker", agent_label(ctx.version, &agent.id));
            out.push((path, docker, label, Some(agent.id.clone())));
        }
    }
    out
}

fn docker_while_off(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let configured = |docker: &Value| docker.as_object().is_some_and(|d| !d.is_empty());
    let roster = agents(ctx);
    let any_agent_sandboxed =
        roster.iter().filter(|a| a.path.is_some()).any(|a| ctx.sandbox_mode(&a.id).is_some_and(|mode| mode != "off"));
    let defaults_mode =
        ctx.get(&[keys::AGENTS, keys::DEFAULTS, keys::SANDBOX, keys::MODE]).and_then(Value::as_str).unwrap_or("off");
    for (path, docker, label, agent) in docker_blocks(ctx) {
        if !configured(docker) {
            continue;
        }
        let off = match &agent {
            None => defaults_mode == "off" && !any_agent_sandboxed,
            Some(id) => ctx.sandbox_mode(id).as_deref() == Some("off"),
        };
        if !off {
            continue;
        }
        let finding = out.report(&path, format!("{label} is set but the sandbox mode is off: it has no effect"));
        finding.help("enable the sandbox mode where these settings should apply, or remove them");
        if let Some(agent) = agent {
            finding.agent(agent);
        }
    }
}

/// The host side of a `source:target[:mode]` bind (a Windows drive letter stays in the source).
fn bind_source(bind: &str) -> &str {
    let bind = bind.trim();
    let bytes = bind.as_bytes();
    let drive =
        bytes.len() > 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' && matches!(bytes[2], b'/' | b'\\');
    let start = if drive { 2 } else { 0 };
    match bind[start..].find(':') {
        Some(i) => &bind[..start + i],
        None => bind,
    }
}

fn is_absolute_host_path(path: &str) -> bool {
    let bytes = path.as_bytes();
    path.starts_with('/') || (bytes.len() > 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
}

/// The blocked host paths of the release: fixed system paths, then (2026.9) credential
/// directories under the home directories the gateway would see.
fn blocked_paths(version: OpenClawVersion) -> Vec<String> {
    let lists = lists(version);
    let mut paths = lists.blocked_bind_paths.clone();
    for var in ["OPENCLAW_HOME", "HOME", "USERPROFILE"] {
        let Some(home) = std::env::var(var).ok().filter(|h| h.starts_with('/')) else { continue };
        let home = normalize_posix(&home);
        if home == "/" {
            continue;
        }
        for sub in &lists.blocked_home_subpaths {
            let path = format!("{home}/{sub}");
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
    }
    paths
}

fn inside(root: &str, path: &str) -> bool {
    path == root || path.starts_with(&format!("{root}/"))
}

/// Why a bind source is blocked (`getBlockedBindReason`): (`targets`|`covers`, the blocked path).
fn blocked_reason(version: OpenClawVersion, source: &str) -> Option<(&'static str, String)> {
    let normalized = normalize_posix(source);
    if normalized == "/" {
        return Some(("covers", "/".into()));
    }
    let covering = lists(version).bind_source_covering_blocked_path;
    blocked_paths(version).into_iter().find_map(|blocked| {
        if inside(&blocked, &normalized) {
            Some(("targets", blocked))
        } else if covering && inside(&normalized, &blocked) {
            Some(("covers", blocked))
        } else {
            None
        }
    })
}

fn blocked_binds(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for (docker_path, docker, label, agent) in docker_blocks(ctx) {
        let list = docker_path.key(keys::BINDS);
        for (i, bind) in docker.get(keys::BINDS).and_then(Value::as_array).into_iter().flatten().enumerate() {
            let Some(bind) = bind.as_str() else { continue };
            let source = bind_source(bind);
            // A non-absolute source is refused at load (`sandbox.bind_mount_non_absolute` never
            // reaches an accepted config).
            if !is_absolute_host_path(source) {
                continue;
            }
            let Some((verb, blocked)) = blocked_reason(ctx.version, source) else { continue };
            let finding =
                out.report(&list.index(i), format!("{label}.binds: `{bind}` {verb} the blocked host path `{blocked}`"));
            finding.help("remove the bind; mount project-specific paths instead");
            if let Some(agent) = &agent {
                finding.agent(agent);
            }
        }
    }
}

/// `container:<id>` networks (the release refuses `host`, and a namespace join unless
/// `dangerouslyAllowContainerNamespaceJoin` allows it).
fn network(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for (docker_path, docker, label, agent) in docker_blocks(ctx) {
        let Some(raw) = docker.get(keys::NETWORK).and_then(Value::as_str) else { continue };
        if !raw.trim().to_lowercase().starts_with("container:") {
            continue;
        }
        let finding = out.report(
            &docker_path.key(keys::NETWORK),
            format!("{label}.network `{raw}` joins another container's namespace"),
        );
        finding.help("use `bridge`, `none` or a custom bridge network");
        if let Some(agent) = &agent {
            finding.agent(agent);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bind_sources_and_blocked_paths() {
        assert_eq!(bind_source("/etc:/host-etc:ro"), "/etc");
        assert_eq!(bind_source("C:\\data:/data"), "C:\\data");
        assert_eq!(bind_source("cache:/cache"), "cache");
        let v9 = OpenClawVersion::V2026_9;
        assert_eq!(blocked_reason(v9, "/var/run/docker.sock"), Some(("targets", "/var/run".into())));
        assert_eq!(blocked_reason(v9, "/"), Some(("covers", "/".into())));
        assert_eq!(blocked_reason(v9, "/var"), Some(("covers", "/var/run".into())));
        assert_eq!(blocked_reason(OpenClawVersion::V2026_2, "/var"), None);
        assert_eq!(blocked_reason(v9, "/srv/app/../../etc/ssl"), Some(("targets", "/etc".into())));
        assert_eq!(blocked_reason(v9, "/srv/projects"), None);
    }
}
