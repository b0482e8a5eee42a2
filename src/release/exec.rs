//! The exec-approval constants of a release (`data/<release>/exec.json`): safe bins and their
//! profiles, trusted directories, builtins, inline-eval flags, obfuscation patterns.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

/// A safe-bin argv profile: how many positionals and which flags `validateSafeBinArgv` accepts.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SafeBinProfile {
    #[serde(default)]
    pub min_positional: Option<usize>,
    #[serde(default)]
    pub max_positional: Option<usize>,
    #[serde(default)]
    pub allowed_value_flags: BTreeSet<String>,
    #[serde(default)]
    pub allowed_boolean_flags: BTreeSet<String>,
    #[serde(default)]
    pub denied_flags: BTreeSet<String>,
}

/// The constants of one release's exec-approval code.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecRules {
    pub default_safe_bins: Vec<String>,
    /// Names the semantic gate always rejects as safe bins (2026.9: jq, sed, awk family).
    #[serde(default)]
    pub never_safe_bins: BTreeSet<String>,
    pub base_trusted_dirs: Vec<String>,
    /// Builtins accepted without an allowlist entry (2026.9 only).
    #[serde(default)]
    pub safe_builtins: BTreeSet<String>,
    pub safe_bin_profiles: BTreeMap<String, SafeBinProfile>,
    /// Interpreter inline-eval flags (2026.9 strict inline eval, `risks.ts`).
    #[serde(default)]
    pub inline_eval_specs: Vec<InlineEvalSpec>,
    /// Interpreters whose first positional is code (awk, sed) or a command (xargs).
    #[serde(default)]
    pub positional_inline_eval_specs: Vec<PositionalEvalSpec>,
    /// 2026.2's obfuscation detector.
    #[serde(default)]
    pub obfuscation_patterns: Vec<ObfuscationPattern>,
    #[serde(default)]
    pub obfuscation_suppressions: Vec<ObfuscationSuppression>,
}

/// A `-c`-style short flag that may follow a cluster of harmless option letters (`python3 -Ic`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterFlag {
    pub label: String,
    pub flag: String,
    pub prefix_chars: Vec<String>,
    #[serde(default)]
    pub allow_numeric_record_separator: bool,
    #[serde(default)]
    pub numeric_value_prefix_chars: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct LabelledFlag {
    pub label: String,
    #[serde(default)]
    pub prefix: String,
    #[serde(default)]
    pub full: String,
    #[serde(default)]
    pub min: String,
}

/// How one interpreter family takes inline code on the command line.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InlineEvalSpec {
    pub names: Vec<String>,
    pub exact_flags: Vec<String>,
    #[serde(default)]
    pub short_cluster_flags: Vec<ClusterFlag>,
    #[serde(default)]
    pub abbreviated_flags: Vec<LabelledFlag>,
    #[serde(default)]
    pub prefix_flags: Vec<LabelledFlag>,
    #[serde(default)]
    pub raw_exact_flags: BTreeMap<String, String>,
    #[serde(default)]
    pub raw_prefix_flags: Vec<LabelledFlag>,
    /// `None` = the exact flags also match joined (`-eCODE`); `Some([])` = never joined.
    #[serde(default)]
    pub joined_exact_flags: Option<Vec<String>>,
    #[serde(default)]
    pub joined_flag_deny_exact: Vec<String>,
    #[serde(default)]
    pub joined_flag_deny_prefixes: Vec<String>,
    #[serde(default)]
    pub scan_past_double_dash: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionalEvalSpec {
    pub names: Vec<String>,
    #[serde(default)]
    pub file_flags: Vec<String>,
    #[serde(default)]
    pub file_flag_prefixes: Vec<String>,
    #[serde(default)]
    pub exact_value_flags: Vec<String>,
    #[serde(default)]
    pub exact_optional_value_flags: Vec<String>,
    #[serde(default)]
    pub prefix_value_flags: Vec<String>,
    pub flag: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ObfuscationPattern {
    pub id: String,
    pub description: String,
    pub regex: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ObfuscationSuppression {
    pub suppresses: Vec<String>,
    pub regex: String,
}

#[cfg(test)]
mod tests {
    use crate::OpenClawVersion;

    #[test]
    fn both_releases_parse() {
        for v in OpenClawVersion::ALL {
            let d = v.exec();
            assert!(d.safe_bin_profiles.contains_key("head"));
            assert!(!d.default_safe_bins.is_empty());
        }
        assert!(OpenClawVersion::V2026_9.exec().never_safe_bins.contains("jq"));
        assert!(OpenClawVersion::V2026_2.exec().default_safe_bins.contains(&"jq".to_string()));
    }
}
