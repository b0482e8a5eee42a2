//! Safe bins: stdin-only filters that pass without an allowlist entry (spec §4.6, deltas B5).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::OpenClawVersion;
use crate::exec::lookup::{Executable, is_executable_file, lexical_resolve};
use crate::release::exec::SafeBinProfile;

/// The effective safe-bin policy of a session (`resolveExecSafeBinRuntimePolicy`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SafeBinPolicy {
    pub version: OpenClawVersion,
    /// Lowercased names.
    pub bins: BTreeSet<String>,
    pub profiles: BTreeMap<String, SafeBinProfile>,
    pub trusted_dirs: BTreeSet<String>,
    /// Configured bins without a profile: OpenClaw ignores them (with a warning).
    pub unprofiled: Vec<String>,
}

/// Reads a custom profile the way `normalizeSafeBinProfileFixture` does: only min/max positionals,
/// value flags and denied flags; `allowedBooleanFlags` is not supported.
fn custom_profile(value: &Value) -> SafeBinProfile {
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

impl SafeBinPolicy {
    /// Builds the policy from the configured lists (`None` = unset = the release default).
    pub fn resolve(
        version: OpenClawVersion,
        configured_bins: Option<&[String]>,
        custom_profiles: &serde_json::Map<String, Value>,
        extra_trusted_dirs: &[String],
    ) -> SafeBinPolicy {
        let data = version.exec();
        let bins: BTreeSet<String> = configured_bins
            .unwrap_or(&data.default_safe_bins)
            .iter()
            .map(|b| b.trim().to_lowercase())
            .filter(|b| !b.is_empty())
            .collect();
        let mut profiles = data.safe_bin_profiles.clone();
        for (name, fixture) in custom_profiles {
            let name = name.trim().to_lowercase();
            if !name.is_empty() {
                profiles.insert(name, custom_profile(fixture));
            }
        }
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
        // 2026.9 also trusts the realpath parent of each safe bin found in a trusted dir (/bin -> /usr/bin).
        if version == OpenClawVersion::V2026_9 {
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
        SafeBinPolicy { version, bins, profiles, trusted_dirs, unprofiled }
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
        validate_argv(args, profile, self.version) && !self.version.exec().never_safe_bins.contains(&name)
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

/// A value or positional that cannot smuggle globs, paths or (2026.9) `$` expansions.
fn is_safe_literal(value: &str, version: OpenClawVersion) -> bool {
    if value.is_empty() || value == "-" {
        return true;
    }
    let glob = value.contains(['*', '?', '[', ']']);
    let expansion = version == OpenClawVersion::V2026_9 && has_shell_expansion(value);
    !glob && !expansion && !is_path_like(value)
}

fn is_invalid_value(value: Option<&String>, version: OpenClawVersion) -> bool {
    value.is_none_or(|v| v.is_empty() || !is_safe_literal(v, version))
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

/// `validateSafeBinArgv`: every token must be an allowed flag, a safe value, or a safe positional.
pub fn validate_argv(args: &[String], profile: &SafeBinProfile, version: OpenClawVersion) -> bool {
    let mut positional = 0usize;
    let mut i = 0;
    while i < args.len() {
        let raw = args[i].as_str();
        if raw.is_empty() || raw == "-" {
            i += 1;
            continue;
        }
        if raw == "--" {
            for rest in &args[i + 1..] {
                if rest.is_empty() || rest == "-" {
                    continue;
                }
                if !is_safe_literal(rest, version) {
                    return false;
                }
                positional += 1;
            }
            break;
        }
        if !raw.starts_with('-') {
            if !is_safe_literal(raw, version) {
                return false;
            }
            positional += 1;
            i += 1;
            continue;
        }
        let next = if raw.starts_with("--") {
            consume_long(args, i, profile, version)
        } else {
            consume_short_cluster(args, i, profile, version)
        };
        match next {
            Some(n) => i = n,
            None => return false,
        }
    }
    positional >= profile.min_positional.unwrap_or(0) && profile.max_positional.is_none_or(|max| positional <= max)
}

fn consume_long(args: &[String], i: usize, profile: &SafeBinProfile, version: OpenClawVersion) -> Option<usize> {
    let raw = &args[i];
    let (flag, inline) = match raw.find('=') {
        Some(eq) if eq > 0 => (&raw[..eq], Some(&raw[eq + 1..])),
        _ => (raw.as_str(), None),
    };
    let canonical = canonical_long_flag(flag, profile)?;
    if profile.denied_flags.contains(&canonical) {
        return None;
    }
    let expects_value = profile.allowed_value_flags.contains(&canonical);
    match inline {
        Some(v) => (expects_value && is_safe_literal(v, version)).then_some(i + 1),
        None if !expects_value => Some(i + 1),
        None => (!is_invalid_value(args.get(i + 1), version)).then_some(i + 2),
    }
}

fn consume_short_cluster(
    args: &[String],
    i: usize,
    profile: &SafeBinProfile,
    version: OpenClawVersion,
) -> Option<usize> {
    let cluster: Vec<char> = args[i].chars().skip(1).collect();
    for (j, c) in cluster.iter().enumerate() {
        let flag = format!("-{c}");
        if profile.denied_flags.contains(&flag) {
            return None;
        }
        if profile.allowed_value_flags.contains(&flag) {
            let inline: String = cluster[j + 1..].iter().collect();
            if !inline.is_empty() {
                return is_safe_literal(&inline, version).then_some(i + 1);
            }
            return (!is_invalid_value(args.get(i + 1), version)).then_some(i + 2);
        }
        if profile.allowed_boolean_flags.contains(&flag) {
            continue;
        }
        // 2026.2 has no boolean flags: it skips unknown letters looking for a value flag.
        if version == OpenClawVersion::V2026_2 {
            continue;
        }
        return None;
    }
    // 2026.9: a cluster of booleans is fine; 2026.2: a cluster without a value flag is rejected.
    (version == OpenClawVersion::V2026_9).then_some(i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn legacy_validator_has_no_booleans() {
        let v2 = OpenClawVersion::V2026_2;
        assert!(!validate_argv(&args("-l"), &profile(v2, "wc"), v2));
        assert!(!validate_argv(&args("-c"), &profile(v2, "uniq"), v2));
        assert!(validate_argv(&args("-n 5"), &profile(v2, "head"), v2));
        assert!(validate_argv(&args(".name"), &profile(v2, "jq"), v2));
    }
}
