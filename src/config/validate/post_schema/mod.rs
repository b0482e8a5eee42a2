//! The checks the release runs on the parsed config once its schema and hand-written refinements
//! pass, before its plugin registry stage (`validateConfigObjectRaw`). They run in the release's
//! order ([`ValidationRules::post_schema`]) and the first that finds anything is the whole answer.
//! Texts are the releases' own (read from the 2026.2.25 and 2026.9.6 bundles, checked with the
//! oracles).

mod agents;

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use super::plugin_schema::Finding;
use crate::OpenClawVersion;
use crate::base::js::js_trim;
use crate::config::path::PathSeg;
use crate::config::view::keys;
use crate::release::loader::{PostSchemaCheck, RosterForm, ValidationRules};
use agents::{AgentPaths, roster};

/// What the checks need besides the config: the config as written, the environment and working
/// directory paths resolve in, and the owner a migrated legacy `default: true` marker named.
pub(super) struct Context<'c> {
    pub config: &'c Value,
    /// The first file as written (before `$include` and the load-time migrations, as the release
    /// reads it): issue paths name the roster in the form it is written.
    pub source: &'c Value,
    pub version: OpenClawVersion,
    pub legacy_owner: Option<&'c str>,
    pub env: &'c HashMap<String, String>,
    pub cwd: &'c Path,
}

/// Every agent's workspace, once each (`listAgentWorkspaceDirs`), in the environment `env` with
/// working directory `cwd`.
pub fn agent_workspaces(
    config: &Value,
    version: OpenClawVersion,
    legacy_owner: Option<&str>,
    env: &HashMap<String, String>,
    cwd: &Path,
) -> Vec<std::path::PathBuf> {
    let paths = AgentPaths::new(config, version, legacy_owner, env, cwd);
    let mut dirs = Vec::new();
    for dir in paths.agent_ids().iter().map(|id| paths.workspace(id)) {
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

/// What the release's post-schema stage refuses in `ctx.config`; empty when it passes.
pub(super) fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let rules = &ctx.version.loader().validation;
    for step in &rules.post_schema {
        let found = match step {
            PostSchemaCheck::SandboxContainerEnv => sandbox_container_env(ctx, rules),
            PostSchemaCheck::DuplicateAgentDirs => duplicate_agent_dirs(ctx, rules),
            PostSchemaCheck::IdentityAvatar => identity_avatars(ctx, rules),
            PostSchemaCheck::TailscaleBind => tailscale_bind(ctx.config),
            PostSchemaCheck::TailscaleAuth => tailscale_auth(ctx.config),
            PostSchemaCheck::ModelPolicyAllow => model_policy_allow(ctx.config, rules),
        };
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

fn path(keys: &[&str]) -> Vec<PathSeg> {
    keys.iter().map(|k| PathSeg::key(*k)).collect()
}

fn child(base: &[PathSeg], keys: &[&str]) -> Vec<PathSeg> {
    base.iter().cloned().chain(keys.iter().map(|k| PathSeg::key(*k))).collect()
}

/// A finding located where the release's path points.
fn finding(at: Vec<PathSeg>, message: String) -> Finding {
    Finding::new(at.clone(), at, message)
}

/// `collectSandboxContainerEnvIssues`: Docker and Podman pass `sandbox.docker.env` through a
/// line-delimited env file, so each agent's effective env (the defaults' env, or `LANG=C.UTF-8`,
/// overlaid by the agent's own unless the scope is `shared`) needs portable names and
/// single-line values without NUL. The issue names the agent's own key where the roster as
/// written sets it (`agents.list.<i>` for a legacy list), else the defaults' key.
fn sandbox_container_env(ctx: &Context<'_>, rules: &ValidationRules) -> Vec<Finding> {
    let config = ctx.config;
    let source = &ctx.source[keys::AGENTS];
    let written_form = match (source.get(keys::ENTRIES), source.get(keys::LIST)) {
        (None, Some(_)) => RosterForm::List,
        _ => RosterForm::Entries,
    };
    let written = roster(ctx.source, written_form);
    let defaults_at = path(&[keys::AGENTS, keys::DEFAULTS, keys::SANDBOX]);
    let defaults = &config[keys::AGENTS][keys::DEFAULTS][keys::SANDBOX];
    let agents = roster(config, rules.roster);
    let configured = |sandbox: &Value| !sandbox[keys::DOCKER][keys::ENV].is_null();
    if !configured(defaults) && !agents.iter().any(|a| configured(&a.entry[keys::SANDBOX])) {
        return Vec::new();
    }
    let lang = serde_json::json!({"LANG": "C.UTF-8"});
    let shared_env = defaults[keys::DOCKER][keys::ENV].as_object().or(lang.as_object()).into_iter().flatten();
    let mut found: Vec<Finding> = Vec::new();
    let mut seen: Vec<(Vec<PathSeg>, EnvProblem)> = Vec::new();
    // Without a roster the defaults alone are checked.
    let scopes: Vec<Option<&agents::Agent<'_>>> =
        if agents.is_empty() { vec![None] } else { agents.iter().map(Some).collect() };
    for agent in scopes {
        let own = agent.map_or(&Value::Null, |a| &a.entry[keys::SANDBOX]);
        let pick = |key: &str| {
            [&own[key], &defaults[key]].into_iter().find_map(|v| v.as_str().map(js_trim).filter(|s| !s.is_empty()))
        };
        let backend = match pick(keys::BACKEND).unwrap_or("docker") {
            "docker" => "Docker",
            "podman" => "Podman",
            _ => continue,
        };
        let scope = [&own[keys::SCOPE], &defaults[keys::SCOPE]].into_iter().find(|v| !v.is_null());
        let shared = scope.is_some_and(|s| s == "shared");
        let own_env = own[keys::DOCKER][keys::ENV].as_object().filter(|_| !shared);
        let mut env: Vec<(&String, &Value)> = shared_env.clone().collect();
        for (key, value) in own_env.into_iter().flatten() {
            match env.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => env.push((key, value)),
            }
        }
        // The agent as written (found by its id), else as validated.
        let as_written = agent.map(|a| written.iter().find(|w| w.id == a.id).unwrap_or(a));
        for (key, value) in env {
            let Some(problem) = env_problem(key, value) else { continue };
            let sets_key = |a: &agents::Agent<'_>| a.entry[keys::SANDBOX][keys::DOCKER][keys::ENV].get(key).is_some();
            let (path, at) = match (agent, as_written) {
                (Some(agent), Some(as_written)) if !shared && sets_key(as_written) => (
                    child(&as_written.at, &[keys::SANDBOX, keys::DOCKER, keys::ENV, key]),
                    child(&agent.at, &[keys::SANDBOX, keys::DOCKER, keys::ENV, key]),
                ),
                _ => {
                    let at = child(&defaults_at, &[keys::DOCKER, keys::ENV, key]);
                    (at.clone(), at)
                }
            };
            if seen.iter().any(|(p, k)| *p == path && *k == problem) {
                continue;
            }
            seen.push((path.clone(), problem));
            let quoted = serde_json::to_string(key).unwrap_or_default();
            let remediation = match problem {
                EnvProblem::Name => {
                    format!("Rename key {quoted} to use letters, digits, and underscores without a leading digit.")
                }
                EnvProblem::Value => format!(
                    "Use a single-line, non-NUL value for key {quoted}, or deliver multiline material through a mounted file or custom image."
                ),
            };
            found.push(Finding::new(
                path,
                at,
                format!(
                    "{backend} sandbox backend requires portable environment names and single-line, non-NUL values because the secure env-file transport is line-delimited. {remediation} SSH/OpenShell backends may keep multiline values. Run openclaw doctor to report the invalid path; manual remediation is required."
                ),
            ));
        }
    }
    found
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EnvProblem {
    /// Not `[A-Za-z_][A-Za-z0-9_]*` as written.
    Name,
    /// A line break or a NUL byte in the value (one remediation covers both).
    Value,
}

/// `getContainerEnvFileEntryIssue`: the name first, then the value.
fn env_problem(key: &str, value: &Value) -> Option<EnvProblem> {
    let mut chars = key.chars();
    let portable = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !portable {
        return Some(EnvProblem::Name);
    }
    let value = value.as_str()?;
    value.contains(['\r', '\n', '\0']).then_some(EnvProblem::Value)
}

/// `findDuplicateAgentDirs`: one issue at the roster listing every directory two agents share.
/// It is located at the first conflicting agent's own `agentDir` where one is written.
fn duplicate_agent_dirs(ctx: &Context<'_>, rules: &ValidationRules) -> Vec<Finding> {
    let paths = AgentPaths::new(ctx.config, ctx.version, ctx.legacy_owner, ctx.env, ctx.cwd);
    let duplicates = paths.duplicate_agent_dirs();
    if duplicates.is_empty() {
        return Vec::new();
    }
    let roster_key = match rules.roster {
        RosterForm::Entries => keys::ENTRIES,
        RosterForm::List => keys::LIST,
    };
    let mut lines = vec![
        "Duplicate agentDir detected (multi-agent config).".to_string(),
        "Each agent must have a unique agentDir; sharing it causes auth/session state collisions and token invalidation."
            .to_string(),
        String::new(),
        "Conflicts:".to_string(),
    ];
    for (dir, agents) in &duplicates {
        let quoted: Vec<String> = agents.iter().map(|id| format!("\"{id}\"")).collect();
        lines.push(format!("- {}: {}", dir.display(), quoted.join(", ")));
    }
    lines.push(String::new());
    lines.extend(rules.agent_dirs.fix.iter().cloned());
    let written = duplicates.iter().flat_map(|(_, agents)| agents).find_map(|id| paths.written_agent_dir(id));
    let release_path = path(&[keys::AGENTS, roster_key]);
    vec![Finding::new(release_path.clone(), written.unwrap_or(release_path), lines.join("\n"))]
}

const AVATAR_FORM: &str = "identity.avatar must be a workspace-relative path, http(s) URL, or data URI.";
const AVATAR_OUTSIDE: &str = "identity.avatar must stay within the agent workspace.";

/// `validateIdentityAvatar`: a local avatar is a path inside the agent's workspace (`~` and URI
/// schemes other than http(s) and data are refused; a Windows drive path is a path).
fn identity_avatars(ctx: &Context<'_>, rules: &ValidationRules) -> Vec<Finding> {
    let agents = roster(ctx.config, rules.roster);
    let mut found = Vec::new();
    let mut paths: Option<AgentPaths<'_>> = None;
    for agent in &agents {
        let Some(avatar) = agent.entry[keys::IDENTITY][keys::AVATAR].as_str().map(js_trim) else { continue };
        let lower = avatar.to_ascii_lowercase();
        if avatar.is_empty()
            || lower.starts_with("data:")
            || lower.starts_with("http://")
            || lower.starts_with("https://")
        {
            continue;
        }
        let at = child(&agent.at, &[keys::IDENTITY, keys::AVATAR]);
        if avatar.starts_with('~') || (has_uri_scheme(avatar) && !is_windows_absolute(avatar)) {
            found.push(finding(at, AVATAR_FORM.to_string()));
            continue;
        }
        let paths =
            paths.get_or_insert_with(|| AgentPaths::new(ctx.config, ctx.version, ctx.legacy_owner, ctx.env, ctx.cwd));
        let id = match agent.id {
            Some(id) => crate::config::view::ids::normalize_agent_id(id),
            None => paths.default_agent(),
        };
        let workspace = paths.workspace(&id);
        if !crate::config::fspath::is_inside(&workspace, &workspace.join(avatar)) {
            found.push(finding(at, AVATAR_OUTSIDE.to_string()));
        }
    }
    found
}

/// `^[a-z][a-z0-9+.-]*:` (any case).
fn has_uri_scheme(value: &str) -> bool {
    let Some((scheme, _)) = value.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
}

/// `^[a-zA-Z]:[\\/]`.
fn is_windows_absolute(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'\\' | b'/')
}

/// The Tailscale mode that exposes the gateway (`serve`, `funnel`), if any.
fn tailscale_exposure(config: &Value) -> Option<&str> {
    config[keys::GATEWAY][keys::TAILSCALE][keys::MODE].as_str().filter(|m| matches!(*m, "serve" | "funnel"))
}

/// `validateGatewayTailscaleBind`: serve and funnel proxy to the gateway on loopback, so the bind
/// is `loopback` (the default) or `custom` with a canonical dotted loopback IPv4 host.
fn tailscale_bind(config: &Value) -> Vec<Finding> {
    let Some(mode) = tailscale_exposure(config) else { return Vec::new() };
    let gateway = &config[keys::GATEWAY];
    let bind = gateway[keys::BIND].as_str().unwrap_or("loopback");
    let loopback_host = gateway[keys::CUSTOM_BIND_HOST].as_str().is_some_and(is_dotted_loopback_ipv4);
    if bind == "loopback" || (bind == "custom" && loopback_host) {
        return Vec::new();
    }
    vec![finding(
        path(&[keys::GATEWAY, keys::BIND]),
        format!(
            "gateway.bind must resolve to loopback when gateway.tailscale.mode={mode} (use gateway.bind=\"loopback\" or gateway.bind=\"custom\" with gateway.customBindHost=\"127.0.0.1\")"
        ),
    )]
}

/// A trimmed four-part decimal IPv4 address without leading zeros in `127.0.0.0/8`
/// (`isCanonicalDottedDecimalIPv4` and `isLoopbackIpAddress`): `127.1` and `localhost` are not.
fn is_dotted_loopback_ipv4(host: &str) -> bool {
    let parts: Vec<&str> = js_trim(host).split('.').collect();
    let canonical = |part: &&str| {
        !part.is_empty()
            && part.bytes().all(|b| b.is_ascii_digit())
            && (part.len() == 1 || !part.starts_with('0'))
            && part.parse::<u16>().is_ok_and(|n| n <= 255)
    };
    parts.len() == 4 && parts.iter().all(canonical) && parts[0] == "127"
}

/// `validateGatewayTailscaleAuth`: serve and funnel refuse `auth.mode: "none"`.
fn tailscale_auth(config: &Value) -> Vec<Finding> {
    let Some(mode) = tailscale_exposure(config) else { return Vec::new() };
    if config[keys::GATEWAY][keys::AUTH][keys::MODE] != "none" {
        return Vec::new();
    }
    let message = if mode == "funnel" {
        "gateway.tailscale.mode=funnel requires gateway.auth.mode=password; auth.mode=none cannot be used when exposing the gateway through Tailscale Funnel".to_string()
    } else {
        format!(
            "gateway.auth.mode=none cannot be used with gateway.tailscale.mode={mode}; configure token, password, or trusted-proxy auth before exposing the gateway through Tailscale"
        )
    };
    vec![finding(path(&[keys::GATEWAY, keys::AUTH, keys::MODE]), message)]
}

/// `collectModelPolicyAllowIssues`: every `modelPolicy.allow` ref (the defaults' and each
/// agent's) is a configured alias (the defaults' models, plus the agent's own), an exact
/// `provider/model`, or a trailing prefix wildcard.
fn model_policy_allow(config: &Value, rules: &ValidationRules) -> Vec<Finding> {
    let defaults = &config[keys::AGENTS][keys::DEFAULTS];
    let mut scopes = vec![(path(&[keys::AGENTS, keys::DEFAULTS]), defaults, &Value::Null)];
    for agent in roster(config, rules.roster) {
        scopes.push((agent.at, agent.entry, &agent.entry[keys::MODELS]));
    }
    let mut found = Vec::new();
    for (at, scope, own_models) in scopes {
        let Some(refs) = scope[keys::MODEL_POLICY][keys::ALLOW].as_array() else { continue };
        let aliases: Vec<String> = [&defaults[keys::MODELS], own_models]
            .into_iter()
            .filter_map(Value::as_object)
            .flat_map(|models| models.values())
            .filter_map(|model| model[keys::ALIAS].as_str().map(|a| js_trim(a).to_lowercase()))
            .filter(|alias| !alias.is_empty())
            .collect();
        for (index, entry) in refs.iter().enumerate() {
            let Some(raw) = entry.as_str() else { continue };
            if valid_model_policy_ref(raw, &aliases) {
                continue;
            }
            let mut ref_at = child(&at, &[keys::MODEL_POLICY, keys::ALLOW]);
            ref_at.push(PathSeg::Index(index));
            let quoted: String = serde_json::to_string(raw)
                .unwrap_or_default()
                .chars()
                .filter(|c| !matches!(*c as u32, 0..=31 | 127..=159))
                .collect();
            found.push(finding(
                ref_at,
                format!(
                    "invalid model policy ref: {quoted}. Use a configured alias, an exact \"provider/model\" ref, or a trailing prefix wildcard such as \"provider/*\" or \"provider/namespace/*\"."
                ),
            ));
        }
    }
    found
}

/// Selectors the release keeps accepting for compatibility.
const COMPAT_SELECTORS: [&str; 2] = ["openrouter:auto", "openrouter:free"];

/// `createModelPolicyRefValidator`.
fn valid_model_policy_ref(raw: &str, aliases: &[String]) -> bool {
    let trimmed = js_trim(raw);
    let lower = trimmed.to_lowercase();
    aliases.contains(&lower)
        || COMPAT_SELECTORS.contains(&lower.as_str())
        || exact_model_ref(trimmed)
        || prefix_wildcard(trimmed)
}

/// Segments of a model ref: non-empty, without `*`, white space or control characters.
fn valid_segments<'s>(segments: impl IntoIterator<Item = &'s str>, min: usize) -> bool {
    let mut count = 0;
    for segment in segments {
        count += 1;
        let bad = |c: char| c == '*' || c.is_whitespace() || c == '\u{feff}' || matches!(c as u32, 0..=31 | 127);
        if segment.is_empty() || segment.chars().any(bad) {
            return false;
        }
    }
    count >= min
}

/// `provider/model` (the model may have further `/` segments): `isValidExactModelPolicyRef`.
fn exact_model_ref(trimmed: &str) -> bool {
    let Some((provider, model)) = trimmed.split_once('/') else { return false };
    let (provider, model) = (js_trim(provider), js_trim(model));
    if provider.is_empty() || model.is_empty() {
        return false;
    }
    let provider = provider.to_lowercase();
    valid_segments(std::iter::once(provider.as_str()).chain(model.split('/')), 2)
}

/// `provider/*`, `provider/namespace/*`: `parseModelPolicyWildcardRef`.
fn prefix_wildcard(trimmed: &str) -> bool {
    let segments: Vec<&str> = trimmed.split('/').map(js_trim).collect();
    match segments.split_last() {
        Some((&"*", prefix)) => valid_segments(prefix.iter().copied(), 1),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
