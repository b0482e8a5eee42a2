//! Requested exec settings from the loaded config plus what-if overrides, each with its source
//! (spec §2.3–§2.5, deltas B1). Sources are config key paths so a caller can map them to
//! file:line:col later.

use serde_json::{Map, Value};

use crate::OpenClawVersion;
use crate::exec::posture::{Ask, Security, Source, Sourced, mode_policy};

/// Command-line what-if overrides, applied after config like a session `/exec` directive.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WhatIf {
    pub security: Option<Security>,
    pub ask: Option<Ask>,
    pub host: Option<String>,
    /// Extra allowlist patterns (added to the agent's allowlist).
    pub allow: Vec<String>,
    pub safe_bins: Option<Vec<String>>,
}

/// The settings a session requests before the approvals document is applied.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestedSettings {
    pub agent_id: String,
    /// `tools.exec.mode` when the last layer that set a policy used a mode (2026.9).
    pub mode: Option<Sourced<String>>,
    pub security: Sourced<Security>,
    pub ask: Sourced<Ask>,
    /// `deny` was configured explicitly (matters on sandbox hosts).
    pub explicit_deny: bool,
    /// Configured host: `auto`, `sandbox`, `gateway` or `node`.
    pub host: Sourced<String>,
    pub safe_bins: Option<Sourced<Vec<String>>>,
    pub safe_bin_profiles: Map<String, Value>,
    pub safe_bin_trusted_dirs: Vec<String>,
    pub strict_inline_eval: Sourced<bool>,
    pub path_prepend: Vec<String>,
    pub extra_allow: Vec<String>,
    /// Config validation errors OpenClaw would refuse to load the config for.
    pub config_issues: Vec<String>,
}

/// One config scope holding `tools.exec`, with the key-path prefix used for sources.
struct Scope<'a> {
    prefix: String,
    exec: &'a Map<String, Value>,
}

impl Scope<'_> {
    fn key(&self, k: &str) -> Source {
        Source::Config(format!("{}.{k}", self.prefix))
    }

    fn str(&self, k: &str) -> Option<&str> {
        self.exec.get(k).and_then(Value::as_str).map(str::trim)
    }
}

fn get_path<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |cur, k| cur.get(k))
}

/// The agent a session runs as when none is named.
pub fn default_agent_id(config: &Value, version: OpenClawVersion) -> String {
    let fallback = || "main".to_string();
    match version {
        OpenClawVersion::V2026_9 => get_path(config, &["agents", "defaults", "systemAgent", "agentId"])
            .and_then(Value::as_str)
            .map(String::from)
            .unwrap_or_else(fallback),
        OpenClawVersion::V2026_2 => {
            let list = get_path(config, &["agents", "list"]).and_then(Value::as_array);
            let id = |e: &Value| e.get("id").and_then(Value::as_str).map(String::from);
            list.and_then(|l| {
                l.iter().find(|e| e.get("default") == Some(&Value::Bool(true))).or(l.first()).and_then(id)
            })
            .unwrap_or_else(fallback)
        }
    }
}

fn scopes<'a>(config: &'a Value, agent_id: &str, version: OpenClawVersion) -> Vec<Scope<'a>> {
    let mut out = Vec::new();
    if let Some(exec) = get_path(config, &["tools", "exec"]).and_then(Value::as_object) {
        out.push(Scope { prefix: "tools.exec".into(), exec });
    }
    let agent = match version {
        OpenClawVersion::V2026_9 => get_path(config, &["agents", "entries", agent_id, "tools", "exec"])
            .and_then(Value::as_object)
            .map(|exec| Scope { prefix: format!("agents.entries.{agent_id}.tools.exec"), exec }),
        OpenClawVersion::V2026_2 => get_path(config, &["agents", "list"]).and_then(Value::as_array).and_then(|list| {
            list.iter().enumerate().find(|(_, e)| e.get("id").and_then(Value::as_str) == Some(agent_id)).and_then(
                |(i, e)| {
                    get_path(e, &["tools", "exec"])
                        .and_then(Value::as_object)
                        .map(|exec| Scope { prefix: format!("agents.list[{i}].tools.exec"), exec })
                },
            )
        }),
    };
    out.extend(agent);
    out
}

/// Resolves the requested settings of `agent_id` from `config` and `what_if`.
pub fn resolve(config: &Value, agent_id: &str, what_if: &WhatIf, version: OpenClawVersion) -> RequestedSettings {
    let scopes = scopes(config, agent_id, version);
    let rules = &version.exec().settings;
    // Last scope that sets a field wins (agent over global).
    let last = |k: &str| scopes.iter().rev().find_map(|s| s.exec.get(k).filter(|v| !v.is_null()).map(|v| (s, v)));

    let host = match (&what_if.host, last("host")) {
        (Some(h), _) => Sourced::new(h.clone(), Source::WhatIf("--host".into())),
        (None, Some((s, v))) if v.as_str().is_some() => {
            Sourced::new(v.as_str().unwrap_or_default().trim().to_lowercase(), s.key("host"))
        }
        _ => Sourced::default_value(rules.default_host.clone()),
    };

    // applyExecPolicyLayer: a mode replaces both fields; security/ask override one each and clear the mode.
    let mut mode: Option<Sourced<String>> = None;
    let mut security: Option<Sourced<Security>> = None;
    let mut ask: Option<Sourced<Ask>> = None;
    let mut config_issues = Vec::new();
    for scope in &scopes {
        if rules.modes
            && scope.exec.contains_key("mode")
            && (scope.exec.contains_key("security") || scope.exec.contains_key("ask"))
        {
            config_issues.push(format!(
                "{}.mode: mode cannot be combined with security or ask in the same exec object",
                scope.prefix
            ));
        }
        if let Some((m, pair)) = scope.str("mode").filter(|_| rules.modes).and_then(|m| mode_policy(m).map(|p| (m, p)))
        {
            mode = Some(Sourced::new(m.to_string(), scope.key("mode")));
            security = Some(Sourced::new(pair.0, scope.key("mode")));
            ask = Some(Sourced::new(pair.1, scope.key("mode")));
            continue;
        }
        let s = scope.str("security").and_then(|v| v.parse().ok());
        let a = scope.str("ask").and_then(|v| v.parse().ok());
        if s.is_some() || a.is_some() {
            mode = None;
        }
        if let Some(s) = s {
            security = Some(Sourced::new(s, scope.key("security")));
        }
        if let Some(a) = a {
            ask = Some(Sourced::new(a, scope.key("ask")));
        }
    }
    if let Some(s) = what_if.security {
        mode = None;
        security = Some(Sourced::new(s, Source::WhatIf("--security".into())));
    }
    if let Some(a) = what_if.ask {
        mode = None;
        ask = Some(Sourced::new(a, Source::WhatIf("--ask".into())));
    }
    let explicit_deny = security.as_ref().is_some_and(|s| s.value == Security::Deny);
    let sandbox_host = host.value == "sandbox";
    let security = security.unwrap_or_else(|| {
        let default = if sandbox_host { Security::Deny } else { parse_default(&rules.default_security) };
        Sourced::default_value(default)
    });
    let ask = ask.unwrap_or_else(|| Sourced::default_value(parse_default(&rules.default_ask)));

    let safe_bins = match &what_if.safe_bins {
        Some(b) => Some(Sourced::new(b.clone(), Source::WhatIf("--safe-bin".into()))),
        None => last("safeBins").and_then(|(s, v)| {
            v.as_array().map(|a| {
                Sourced::new(a.iter().filter_map(Value::as_str).map(String::from).collect(), s.key("safeBins"))
            })
        }),
    };
    let mut safe_bin_profiles = Map::new();
    let mut safe_bin_trusted_dirs = Vec::new();
    let mut path_prepend = Vec::new();
    for scope in &scopes {
        if let Some(p) = scope.exec.get("safeBinProfiles").and_then(Value::as_object) {
            safe_bin_profiles.extend(p.clone());
        }
        let strings = |k: &str| {
            scope
                .exec
                .get(k)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(String::from)
        };
        safe_bin_trusted_dirs.extend(strings("safeBinTrustedDirs"));
        if scope.exec.contains_key("pathPrepend") {
            path_prepend = strings("pathPrepend").collect();
        }
    }
    let strict_inline_eval = match last("strictInlineEval").filter(|_| rules.strict_inline_eval) {
        Some((s, v)) => Sourced::new(v.as_bool().unwrap_or(false), s.key("strictInlineEval")),
        None => Sourced::default_value(false),
    };
    RequestedSettings {
        agent_id: agent_id.to_string(),
        mode,
        security,
        ask,
        explicit_deny,
        host,
        safe_bins,
        safe_bin_profiles,
        safe_bin_trusted_dirs,
        strict_inline_eval,
        path_prepend,
        extra_allow: what_if.allow.clone(),
        config_issues,
    }
}

/// A default named in the release's data.
fn parse_default<T: std::str::FromStr>(name: &str) -> T {
    name.parse().unwrap_or_else(|_| panic!("bundled exec settings default `{name}` is not a level"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn agent_mode_overrides_global_pair() {
        let config = json!({"tools":{"exec":{"security":"allowlist","ask":"always"}},"agents":{"entries":{"work":{"tools":{"exec":{"mode":"full"}}}}}});
        let s = resolve(&config, "work", &WhatIf::default(), OpenClawVersion::V2026_9);
        assert_eq!(s.security.value, Security::Full);
        assert_eq!(s.ask.value, Ask::Off);
        assert_eq!(s.security.source, Source::Config("agents.entries.work.tools.exec.mode".into()));
        assert_eq!(s.host.value, "auto");
    }

    #[test]
    fn defaults_differ_per_release() {
        let s9 = resolve(&json!({}), "main", &WhatIf::default(), OpenClawVersion::V2026_9);
        assert_eq!((s9.security.value, s9.ask.value), (Security::Full, Ask::Off));
        let wi = WhatIf { host: Some("gateway".into()), ..WhatIf::default() };
        let s2 = resolve(&json!({}), "main", &wi, OpenClawVersion::V2026_2);
        assert_eq!((s2.security.value, s2.ask.value), (Security::Allowlist, Ask::OnMiss));
    }

    #[test]
    fn legacy_agent_list_scope() {
        let config = json!({"agents":{"list":[{"id":"a"},{"id":"b","tools":{"exec":{"security":"full"}}}]}});
        let s = resolve(&config, "b", &WhatIf::default(), OpenClawVersion::V2026_2);
        assert_eq!(s.security.source, Source::Config("agents.list[1].tools.exec.security".into()));
        assert_eq!(default_agent_id(&config, OpenClawVersion::V2026_2), "a");
    }
}
