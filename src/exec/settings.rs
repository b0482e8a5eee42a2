//! Requested exec settings from the loaded config plus what-if overrides, each with its source
//! (spec §2.3–§2.5, deltas B1). The config is read through its view
//! ([`crate::config::view::exec`]): the global `tools.exec` block, then the agent's, the later one
//! winning key by key; defaults and which settings the release reads are the release's data
//! (`settings` in `data/<line>/exec.json`).

use crate::OpenClawVersion;
use crate::config::view::agents::{AgentEntry, Roster, find_agent};
use crate::config::view::exec::{ExecBlock, ExecKey, exec_blocks};
use crate::config::view::located::Located;
use crate::exec::posture::{Ask, Security, Source, Sourced, mode_policy};
use crate::release::exec::SafeBinProfile;

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
    /// Custom profiles by bin, agent over global, in the order first written.
    pub safe_bin_profiles: Vec<(String, SafeBinProfile)>,
    pub safe_bin_trusted_dirs: Vec<String>,
    pub strict_inline_eval: Sourced<bool>,
    pub path_prepend: Vec<String>,
    pub extra_allow: Vec<String>,
    /// Config validation errors OpenClaw would refuse to load the config for.
    pub config_issues: Vec<String>,
}

/// What decides an exec answer in [`RequestedSettings`]: every value, none of the sources (which
/// differ per agent where the values do not).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SettingsKey {
    mode: Option<String>,
    security: Security,
    ask: Ask,
    explicit_deny: bool,
    host: String,
    safe_bins: Option<Vec<String>>,
    safe_bin_profiles: Vec<(String, SafeBinProfile)>,
    safe_bin_trusted_dirs: Vec<String>,
    strict_inline_eval: bool,
    path_prepend: Vec<String>,
    extra_allow: Vec<String>,
    config_valid: bool,
}

impl RequestedSettings {
    pub fn key(&self) -> SettingsKey {
        SettingsKey {
            mode: self.mode.as_ref().map(|m| m.value.clone()),
            security: self.security.value,
            ask: self.ask.value,
            explicit_deny: self.explicit_deny,
            host: self.host.value.clone(),
            safe_bins: self.safe_bins.as_ref().map(|b| b.value.clone()),
            safe_bin_profiles: self.safe_bin_profiles.clone(),
            safe_bin_trusted_dirs: self.safe_bin_trusted_dirs.clone(),
            strict_inline_eval: self.strict_inline_eval.value,
            path_prepend: self.path_prepend.clone(),
            extra_allow: self.extra_allow.clone(),
            config_valid: self.config_issues.is_empty(),
        }
    }
}

fn config(at: &Located<'_>) -> Source {
    Source::Config(at.path.clone())
}

/// Resolves the requested settings of `agent_id` from `config` and `what_if`.
pub fn resolve(
    config_root: &serde_json::Value,
    agent_id: &str,
    what_if: &WhatIf,
    version: OpenClawVersion,
) -> RequestedSettings {
    let entry = find_agent(config_root, version, agent_id);
    resolve_for(config_root, agent_id, entry.as_ref(), what_if, version)
}

/// [`resolve`] with the agent's entry found in an indexed roster, for callers that resolve
/// every agent of one config (a scan per agent would make a fleet quadratic).
pub fn resolve_in(
    roster: &Roster<'_>,
    config_root: &serde_json::Value,
    agent_id: &str,
    what_if: &WhatIf,
    version: OpenClawVersion,
) -> RequestedSettings {
    resolve_for(config_root, agent_id, roster.find(agent_id), what_if, version)
}

fn resolve_for(
    config_root: &serde_json::Value,
    agent_id: &str,
    entry: Option<&AgentEntry<'_>>,
    what_if: &WhatIf,
    version: OpenClawVersion,
) -> RequestedSettings {
    let blocks = exec_blocks(config_root, entry);
    let rules = &version.exec().settings;
    // The last block that sets a key wins (agent over global).
    let last = |key: ExecKey| blocks.iter().rev().find_map(|block| block.set(key));

    let host = match (&what_if.host, last(ExecKey::Host)) {
        (Some(h), _) => Sourced::new(h.clone(), Source::WhatIf("--host".into())),
        (None, Some(at)) if at.as_str().is_some() => {
            Sourced::new(at.as_str().unwrap_or_default().trim().to_lowercase(), config(&at))
        }
        _ => Sourced::default_value(rules.default_host.clone()),
    };

    // applyExecPolicyLayer: a mode replaces both fields; security/ask override one each and clear the mode.
    let mut mode: Option<Sourced<String>> = None;
    let mut security: Option<Sourced<Security>> = None;
    let mut ask: Option<Sourced<Ask>> = None;
    let mut config_issues = Vec::new();
    for block in &blocks {
        let written = |key| block.get(key).is_some();
        if rules.modes && written(ExecKey::Mode) && (written(ExecKey::Security) || written(ExecKey::Ask)) {
            config_issues.push(format!(
                "{}.mode: mode cannot be combined with security or ask in the same exec object",
                block.0.path
            ));
        }
        let preset = block.text(ExecKey::Mode).filter(|_| rules.modes);
        if let Some((name, at, (s, a))) = preset.and_then(|(name, at)| mode_policy(name).map(|pair| (name, at, pair))) {
            mode = Some(Sourced::new(name.to_string(), config(&at)));
            security = Some(Sourced::new(s, config(&at)));
            ask = Some(Sourced::new(a, config(&at)));
            continue;
        }
        let (s, a): (Option<(Security, _)>, Option<(Ask, _)>) =
            (level(block, ExecKey::Security), level(block, ExecKey::Ask));
        if s.is_some() || a.is_some() {
            mode = None;
        }
        if let Some((s, at)) = s {
            security = Some(Sourced::new(s, config(&at)));
        }
        if let Some((a, at)) = a {
            ask = Some(Sourced::new(a, config(&at)));
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
        None => last(ExecKey::SafeBins)
            .filter(|at| at.value.is_array())
            .map(|at| Sourced::new(crate::config::view::located::strings(Some(&at)), config(&at))),
    };
    let mut safe_bin_profiles: Vec<(String, SafeBinProfile)> = Vec::new();
    let mut safe_bin_trusted_dirs = Vec::new();
    let mut path_prepend = Vec::new();
    for block in &blocks {
        for (name, profile) in block.safe_bin_profiles() {
            match safe_bin_profiles.iter_mut().find(|(known, _)| *known == name) {
                Some(slot) => slot.1 = profile,
                None => safe_bin_profiles.push((name, profile)),
            }
        }
        safe_bin_trusted_dirs.extend(block.strings(ExecKey::SafeBinTrustedDirs));
        if block.get(ExecKey::PathPrepend).is_some() {
            path_prepend = block.strings(ExecKey::PathPrepend);
        }
    }
    let strict_inline_eval = match last(ExecKey::StrictInlineEval).filter(|_| rules.strict_inline_eval) {
        Some(at) => Sourced::new(at.as_bool().unwrap_or(false), config(&at)),
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

/// A level (`security`, `ask`) written in a block, when it names one.
fn level<'a, T: std::str::FromStr>(block: &ExecBlock<'a>, key: ExecKey) -> Option<(T, Located<'a>)> {
    block.text(key).and_then(|(text, at)| Some((text.parse().ok()?, at)))
}

/// A default named in the release's data.
fn parse_default<T: std::str::FromStr>(name: &str) -> T {
    name.parse().unwrap_or_else(|_| panic!("bundled exec settings default `{name}` is not a level"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::path::KeyPath;
    use serde_json::json;

    fn at(path: &str) -> Source {
        Source::Config(KeyPath::parse(path).unwrap())
    }

    #[test]
    fn agent_mode_overrides_global_pair() {
        let config = json!({"tools":{"exec":{"security":"allowlist","ask":"always"}},"agents":{"entries":{"work":{"tools":{"exec":{"mode":"full"}}}}}});
        let s = resolve(&config, "work", &WhatIf::default(), OpenClawVersion::V2026_9);
        assert_eq!(s.security.value, Security::Full);
        assert_eq!(s.ask.value, Ask::Off);
        assert_eq!(s.security.source, at("agents.entries.work.tools.exec.mode"));
        assert_eq!(s.host.value, "auto");
    }

    #[test]
    fn defaults_differ_per_release() {
        for version in OpenClawVersion::ALL {
            let rules = &version.exec().settings;
            let _: (Security, Ask) = (parse_default(&rules.default_security), parse_default(&rules.default_ask));
        }
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
        assert_eq!(s.security.source, at("agents.list[1].tools.exec.security"));
    }

    #[test]
    fn profiles_merge_agent_over_global_in_first_written_order() {
        let config = json!({"tools":{"exec":{"safeBinProfiles":{"jq":{"maxPositional":1},"rg":{}}}},
            "agents":{"entries":{"main":{"tools":{"exec":{"safeBinProfiles":{"jq":{"maxPositional":2},"fd":{}}}}}}}});
        let s = resolve(&config, "main", &WhatIf::default(), OpenClawVersion::V2026_9);
        let names: Vec<&str> = s.safe_bin_profiles.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["jq", "rg", "fd"]);
        assert_eq!(s.safe_bin_profiles[0].1.max_positional, Some(2));
    }
}
