//! `tools.exec` blocks, the global one and an agent's, as the release reads them
//! (`resolveExecConfig`): the exec host, policy (`security`, `ask`, `mode`), safe bins and their
//! profiles, `pathPrepend`, `strictInlineEval`. Each value comes with its key path; how the two
//! blocks combine (agent over global, key by key) is the exec settings' business
//! (`exec::settings`).

use std::collections::BTreeSet;

use serde_json::Value;

use super::agents::AgentEntry;
use super::located::Located;
use super::tools::ToolsScope;
use crate::release::exec::SafeBinProfile;

/// A setting of a `tools.exec` block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecKey {
    Host,
    Mode,
    Security,
    Ask,
    SafeBins,
    SafeBinProfiles,
    SafeBinTrustedDirs,
    PathPrepend,
    StrictInlineEval,
}

impl ExecKey {
    pub fn key(self) -> &'static str {
        match self {
            ExecKey::Host => "host",
            ExecKey::Mode => "mode",
            ExecKey::Security => "security",
            ExecKey::Ask => "ask",
            ExecKey::SafeBins => "safeBins",
            ExecKey::SafeBinProfiles => "safeBinProfiles",
            ExecKey::SafeBinTrustedDirs => "safeBinTrustedDirs",
            ExecKey::PathPrepend => "pathPrepend",
            ExecKey::StrictInlineEval => "strictInlineEval",
        }
    }
}

/// One `tools.exec` object.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecBlock<'a>(pub Located<'a>);

impl<'a> ExecBlock<'a> {
    /// The `exec` member of a tools scope, when it is an object.
    pub fn of(tools: &ToolsScope<'a>) -> Option<Self> {
        tools.member("exec").filter(|exec| exec.value.is_object()).map(ExecBlock)
    }

    /// The setting as written, whatever its type (`null` included).
    pub fn get(&self, key: ExecKey) -> Option<Located<'a>> {
        self.0.member(key.key())
    }

    /// The setting when it is set to something other than `null`.
    pub fn set(&self, key: ExecKey) -> Option<Located<'a>> {
        self.get(key).filter(|value| !value.value.is_null())
    }

    /// The setting when it is a string, trimmed.
    pub fn text(&self, key: ExecKey) -> Option<(&'a str, Located<'a>)> {
        let value = self.get(key)?;
        Some((value.as_str()?.trim(), value))
    }

    /// The string items of a list setting (nothing when it is no list).
    pub fn strings(&self, key: ExecKey) -> Vec<String> {
        super::located::strings(self.get(key).as_ref())
    }

    /// `safeBinProfiles`: each bin with its profile, in the order written.
    pub fn safe_bin_profiles(&self) -> Vec<(String, SafeBinProfile)> {
        let profiles = self.get(ExecKey::SafeBinProfiles);
        let members = profiles.iter().flat_map(|p| p.members());
        members.map(|(name, profile)| (name.clone(), safe_bin_profile(profile.value))).collect()
    }
}

/// The exec blocks that apply to an agent (its roster entry, when it has one): the global one,
/// then the agent's own (each when it is an object).
pub fn exec_blocks<'a>(config: &'a Value, agent: Option<&AgentEntry<'a>>) -> Vec<ExecBlock<'a>> {
    let global = ToolsScope::global(config).and_then(|tools| ExecBlock::of(&tools));
    let agent = agent.and_then(|entry| ExecBlock::of(&entry.tools()?));
    global.into_iter().chain(agent).collect()
}

/// A custom safe-bin profile read the way `normalizeSafeBinProfileFixture` does: only min/max
/// positionals (non-negative finite numbers, truncated; a max below the min is the min), value
/// flags and denied flags (trimmed non-empty strings); `allowedBooleanFlags` is not supported.
pub fn safe_bin_profile(value: &Value) -> SafeBinProfile {
    let limit = |key: &str| {
        value.get(key).and_then(Value::as_f64).filter(|n| n.is_finite() && *n >= 0.0).map(|n| n.trunc() as usize)
    };
    let flags = |key: &str| -> BTreeSet<String> {
        value.get(key).and_then(Value::as_array).map_or_else(BTreeSet::new, |a| {
            a.iter().filter_map(Value::as_str).map(str::trim).filter(|f| !f.is_empty()).map(String::from).collect()
        })
    };
    let min_positional = limit("minPositional");
    let max_positional = match (min_positional, limit("maxPositional")) {
        (Some(min), Some(max)) if max < min => Some(min),
        (_, max) => max,
    };
    SafeBinProfile {
        min_positional,
        max_positional,
        allowed_value_flags: flags("allowedValueFlags"),
        allowed_boolean_flags: BTreeSet::new(),
        denied_flags: flags("deniedFlags"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use crate::config::view::agents;
    use serde_json::json;

    #[test]
    fn blocks_of_an_agent_with_their_paths() {
        let config = json!({"tools": {"exec": {"host": " gateway ", "safeBins": ["jq", 3]}},
            "agents": {"entries": {"Work": {"tools": {"exec": {"security": "full", "mode": null}}}}}});
        let work = agents::find_agent(&config, OpenClawVersion::V2026_9, "work");
        let blocks = exec_blocks(&config, work.as_ref());
        assert_eq!(blocks.len(), 2);
        let (host, at) = blocks[0].text(ExecKey::Host).unwrap();
        assert_eq!((host, at.path.to_string().as_str()), ("gateway", "tools.exec.host"));
        assert_eq!(blocks[0].strings(ExecKey::SafeBins), ["jq"]);
        assert_eq!(
            blocks[1].get(ExecKey::Security).unwrap().path.to_string(),
            "agents.entries.Work.tools.exec.security"
        );
        assert!(blocks[1].get(ExecKey::Mode).is_some() && blocks[1].set(ExecKey::Mode).is_none());
        let legacy = json!({"agents": {"list": [{"id": "a"}, {"id": "b", "tools": {"exec": []}}]}});
        let b = agents::find_agent(&legacy, OpenClawVersion::V2026_2, "b");
        assert!(b.is_some() && exec_blocks(&legacy, b.as_ref()).is_empty(), "an exec block that is no object");
    }

    #[test]
    fn custom_profiles_read_loosely() {
        let profile =
            safe_bin_profile(&json!({"minPositional": 2.7, "maxPositional": 1, "allowedValueFlags": [" -n ", "", 5],
            "allowedBooleanFlags": ["-x"], "deniedFlags": "-f"}));
        assert_eq!((profile.min_positional, profile.max_positional), (Some(2), Some(2)));
        assert_eq!(profile.allowed_value_flags.iter().collect::<Vec<_>>(), ["-n"]);
        assert!(profile.allowed_boolean_flags.is_empty() && profile.denied_flags.is_empty());
    }
}
