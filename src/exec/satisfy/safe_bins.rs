//! Safe bins: stdin-only filters that pass without an allowlist entry (spec §4.6, deltas B5).
//! The default bins, their argv profiles, the trusted folders and how arguments are validated
//! are the release's data (`data/<line>/exec.json`); a new safe bin is a data entry.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::exec::argv::scan::{Empty, Grammar, Item, Opt, Walk, scan};
use crate::exec::lookup::{Executable, is_executable_file, lexical_resolve};
use crate::release::exec::{ExecRules, SafeBinArgRules, SafeBinProfile, ShortClusters};

/// The effective safe-bin policy of a session (`resolveExecSafeBinRuntimePolicy`).
#[derive(Debug, Clone)]
pub struct SafeBinPolicy {
    pub rules: &'static ExecRules,
    /// Lowercased names.
    pub bins: BTreeSet<String>,
    pub profiles: BTreeMap<String, SafeBinProfile>,
    pub trusted_dirs: BTreeSet<String>,
    /// Configured bins without a profile: OpenClaw ignores them (with a warning).
    pub unprofiled: Vec<String>,
}

/// The configured safe bins (`None` = unset = the release default), trimmed and lower-cased.
fn configured_bin_names(data: &ExecRules, configured_bins: Option<&[String]>) -> BTreeSet<String> {
    (configured_bins.unwrap_or(&data.default_safe_bins).iter())
        .map(|b| b.trim().to_lowercase())
        .filter(|b| !b.is_empty())
        .collect()
}

/// The release's profiles with the configured ones over them, by lower-cased name.
fn profiles_by_name(
    data: &ExecRules,
    custom_profiles: &[(String, SafeBinProfile)],
) -> BTreeMap<String, SafeBinProfile> {
    let mut profiles = data.safe_bin_profiles.clone();
    for (name, profile) in custom_profiles {
        let name = name.trim().to_lowercase();
        if !name.is_empty() {
            profiles.insert(name, profile.clone());
        }
    }
    profiles
}

/// The configured safe bins OpenClaw ignores for want of a profile ([`SafeBinPolicy::unprofiled`]),
/// without resolving trusted directories (no file-system access).
pub fn unprofiled_bins(
    data: &ExecRules,
    configured_bins: Option<&[String]>,
    custom_profiles: &[(String, SafeBinProfile)],
) -> Vec<String> {
    let profiles = profiles_by_name(data, custom_profiles);
    configured_bin_names(data, configured_bins).into_iter().filter(|b| !profiles.contains_key(b)).collect()
}

impl SafeBinPolicy {
    /// Builds the policy from the configured lists (`None` = unset = the release default).
    pub fn resolve(
        data: &'static ExecRules,
        configured_bins: Option<&[String]>,
        custom_profiles: &[(String, SafeBinProfile)],
        extra_trusted_dirs: &[String],
    ) -> SafeBinPolicy {
        let bins = configured_bin_names(data, configured_bins);
        let profiles = profiles_by_name(data, custom_profiles);
        let unprofiled = bins.iter().filter(|b| !profiles.contains_key(*b)).cloned().collect();
        let configured_dirs: Vec<&str> = data
            .base_trusted_dirs
            .iter()
            .map(String::as_str)
            .chain(extra_trusted_dirs.iter().map(|d| d.trim()))
            .filter(|d| !d.is_empty())
            .collect();
        let root = Path::new("/");
        let mut trusted_dirs: BTreeSet<String> =
            configured_dirs.iter().map(|d| lexical_resolve(root, d).to_string_lossy().into_owned()).collect();
        // The realpath parent of each safe bin found in a trusted dir (/bin -> /usr/bin).
        if data.safe_bin_args.trust_realpath_parents {
            for dir in &configured_dirs {
                for bin in bins.iter().filter(|b| !b.contains('/') && !b.contains('\\')) {
                    let candidate = lexical_resolve(root, dir).join(bin);
                    if !is_executable_file(&candidate) {
                        continue;
                    }
                    if let Some(parent) =
                        std::fs::canonicalize(&candidate).ok().and_then(|p| p.parent().map(Path::to_path_buf))
                    {
                        trusted_dirs.insert(parent.to_string_lossy().into_owned());
                    }
                }
            }
        }
        SafeBinPolicy { rules: data, bins, profiles, trusted_dirs, unprofiled }
    }

    /// `isSafeBinUsage`: is this segment an accepted safe-bin use? `args` excludes argv[0].
    pub fn accepts(&self, exe: &Executable, args: &[String], windows: bool) -> bool {
        if windows || self.bins.is_empty() {
            return false;
        }
        let name = exe.name.to_lowercase();
        if name.is_empty() || !self.bins.contains(&name) {
            return false;
        }
        let Some(trust_path) = exe.trust_path() else {
            return false;
        };
        let dir = lexical_resolve(Path::new("/"), trust_path);
        let dir = dir.parent().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
        if !self.trusted_dirs.contains(&dir) {
            return false;
        }
        let Some(profile) = self.profiles.get(&name) else {
            return false;
        };
        let Some(positional) = positionals(args, profile, &self.rules.safe_bin_args) else { return false };
        !self.rules.never_safe_bins.contains(&name) && !self.rules.refuses_positionals(&name, &positional)
    }
}

fn is_path_like(value: &str) -> bool {
    let t = value.trim();
    if t.is_empty() || t == "-" {
        return false;
    }
    if t.starts_with("./") || t.starts_with("../") || t.starts_with('~') || t.starts_with('/') {
        return true;
    }
    let b = t.as_bytes();
    b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/')
}

fn has_shell_expansion(value: &str) -> bool {
    let b = value.as_bytes();
    b.windows(2).any(|w| w[0] == b'$' && (w[1].is_ascii_alphanumeric() || b"_@*?!$#-{([".contains(&w[1])))
}

/// A value or positional that cannot smuggle globs, paths or (where the release checks) `$`
/// expansions.
fn is_safe_literal(value: &str, rules: &SafeBinArgRules) -> bool {
    if value.is_empty() || value == "-" {
        return true;
    }
    let glob = value.contains(['*', '?', '[', ']']);
    let expansion = rules.reject_expansions && has_shell_expansion(value);
    !glob && !expansion && !is_path_like(value)
}

/// Known long flags of a profile (value, boolean and denied), for unique-prefix canonicalization.
fn canonical_long_flag(flag: &str, profile: &SafeBinProfile) -> Option<String> {
    if !flag.starts_with("--") || flag.len() <= 2 {
        return None;
    }
    let known: BTreeSet<&String> = profile
        .allowed_value_flags
        .iter()
        .chain(&profile.allowed_boolean_flags)
        .chain(&profile.denied_flags)
        .filter(|f| f.starts_with("--"))
        .collect();
    if known.iter().any(|k| k.as_str() == flag) {
        return Some(flag.to_string());
    }
    if flag.len() < 3 {
        return None;
    }
    let mut matches = known.iter().filter(|k| k.starts_with(flag));
    let first = matches.next()?;
    matches.next().is_none().then(|| first.to_string())
}

/// A safe bin's options as `validateSafeBinArgv` reads them: long options by unique prefix,
/// short ones in clusters; a denied or unknown option is [`Opt::Unknown`].
struct ProfileOptions<'p> {
    profile: &'p SafeBinProfile,
    clusters: ShortClusters,
}

impl ProfileOptions<'_> {
    fn long<'t>(&self, token: &'t str) -> Opt<'t> {
        let (flag, inline) = match token.find('=') {
            Some(eq) if eq > 0 => (&token[..eq], Some(&token[eq + 1..])),
            _ => (token, None),
        };
        let Some(canonical) = canonical_long_flag(flag, self.profile) else { return Opt::Unknown };
        if self.profile.denied_flags.contains(&canonical) {
            return Opt::Unknown;
        }
        match (self.profile.allowed_value_flags.contains(&canonical), inline) {
            (true, Some(value)) => Opt::Attached(value),
            (true, None) => Opt::Takes(1),
            (false, Some(_)) => Opt::Unknown,
            (false, None) => Opt::Flag,
        }
    }

    fn short_cluster<'t>(&self, token: &'t str) -> Opt<'t> {
        for (at, c) in token.char_indices().skip(1) {
            let flag = format!("-{c}");
            if self.profile.denied_flags.contains(&flag) {
                return Opt::Unknown;
            }
            if self.profile.allowed_value_flags.contains(&flag) {
                let inline = &token[at + c.len_utf8()..];
                return if inline.is_empty() { Opt::Takes(1) } else { Opt::Attached(inline) };
            }
            let boolean = self.profile.allowed_boolean_flags.contains(&flag);
            // Without boolean flags, unknown letters are passed over looking for a value flag.
            if !boolean && self.clusters == ShortClusters::BooleanFlags {
                return Opt::Unknown;
            }
        }
        match self.clusters {
            ShortClusters::BooleanFlags => Opt::Flag,
            ShortClusters::NeedValueFlag => Opt::Unknown,
        }
    }
}

impl Grammar for ProfileOptions<'_> {
    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        if token.starts_with("--") { self.long(token) } else { self.short_cluster(token) }
    }
}

/// Tokens as written; empty ones and `-` (stdin) are passed over.
const ARGS_WALK: Walk = Walk { trim: false, empty: Empty::Skip, end_of_options: &["--"] };

/// `validateSafeBinArgv`: every token must be an allowed flag, a safe value, or a safe positional.
pub fn validate_argv(args: &[String], profile: &SafeBinProfile, rules: &SafeBinArgRules) -> bool {
    positionals(args, profile, rules).is_some()
}

/// `collectPositionalTokens` and the positional count: the positionals when every token is an
/// allowed flag, a safe value, or a safe positional, and their number fits the profile.
fn positionals(args: &[String], profile: &SafeBinProfile, rules: &SafeBinArgRules) -> Option<Vec<String>> {
    let argv: Vec<String> = std::iter::once(String::new()).chain(args.iter().cloned()).collect();
    let grammar = ProfileOptions { profile, clusters: rules.short_clusters };
    let mut positional = Vec::new();
    for item in scan(&argv, 1, ARGS_WALK, &grammar) {
        let valid = match item {
            Item::Operand { token: "-", .. } | Item::EndOfOptions { .. } | Item::Empty { .. } => true,
            Item::Operand { token, .. } => {
                positional.push(token.to_string());
                is_safe_literal(token, rules)
            }
            Item::Option { opt: Opt::Unknown, .. } | Item::Option { opt: Opt::Takes(_), complete: false, .. } => false,
            Item::Option { opt: Opt::Attached(value), .. } => is_safe_literal(value, rules),
            Item::Option { opt: Opt::Takes(_), value, .. } => {
                value.is_some_and(|v| !v.is_empty() && is_safe_literal(v, rules))
            }
            Item::Option { opt: Opt::Flag, .. } => true,
        };
        if !valid {
            return None;
        }
    }
    let count = positional.len();
    (count >= profile.min_positional.unwrap_or(0) && profile.max_positional.is_none_or(|max| count <= max))
        .then_some(positional)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;

    fn validate_argv(args: &[String], profile: &SafeBinProfile, version: OpenClawVersion) -> bool {
        super::validate_argv(args, profile, &version.exec().safe_bin_args)
    }

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn profile(v: OpenClawVersion, bin: &str) -> SafeBinProfile {
        v.exec().safe_bin_profiles[bin].clone()
    }

    #[test]
    fn validator_matches_spec_rows() {
        let v9 = OpenClawVersion::V2026_9;
        assert!(validate_argv(&args("-n 5"), &profile(v9, "head"), v9));
        assert!(!validate_argv(&args("-n 5 /etc/passwd"), &profile(v9, "head"), v9));
        assert!(!validate_argv(&args("-n 5 notes.txt"), &profile(v9, "head"), v9));
        assert!(validate_argv(&args("-n5"), &profile(v9, "head"), v9));
        assert!(validate_argv(&args("--lin=5"), &profile(v9, "head"), v9));
        assert!(!validate_argv(&args("-x"), &profile(v9, "head"), v9));
        assert!(validate_argv(&args("-c 10 -- -"), &profile(v9, "head"), v9));
        assert!(!validate_argv(&args("-f"), &profile(v9, "tail"), v9));
        assert!(validate_argv(&args("a-z A-Z"), &profile(v9, "tr"), v9));
        assert!(!validate_argv(&args("--files0-from=list"), &profile(v9, "wc"), v9));
        assert!(!validate_argv(&args("--compress-prog=sh"), &profile(v9, "sort"), v9));
        assert!(!validate_argv(&args("foo"), &profile(v9, "grep"), v9));
        assert!(validate_argv(&args("-e foo"), &profile(v9, "grep"), v9));
        assert!(!validate_argv(&args("-n *"), &profile(v9, "head"), v9));
    }

    #[test]
    fn jq_programs_reading_the_environment_are_refused_where_the_release_says() {
        for version in [OpenClawVersion::V2026_3, OpenClawVersion::V2026_6] {
            let refused = |program: &str| version.exec().refuses_positionals("jq", &[program.to_string()]);
            assert!(!refused(".name") && !refused(".environment") && !refused("myenv"), "{version:?}");
            assert!(refused("env") && refused(".a|env.HOME") && refused("$ENV.HOME"), "{version:?}");
        }
        assert!(!OpenClawVersion::V2026_5.exec().refuses_positionals("jq", &["env".to_string()]));
    }

    #[test]
    fn legacy_validator_has_no_booleans() {
        let v2 = OpenClawVersion::V2026_2;
        assert!(!validate_argv(&args("-l"), &profile(v2, "wc"), v2));
        assert!(!validate_argv(&args("-c"), &profile(v2, "uniq"), v2));
        assert!(validate_argv(&args("-n 5"), &profile(v2, "head"), v2));
        assert!(validate_argv(&args(".name"), &profile(v2, "jq"), v2));
    }
}
