//! Why the allowlist entries nearest to a segment did not match it: the answer a person can act on
//! when a command they thought was allowed asks or is denied. Each reason is established by asking
//! the release's own matcher (`match_v9`/`match_v2`, by the release's pipeline) about a variant of
//! the segment: the same entry against the path the command was found at rather than its real
//! path (a symlink), against the command invoked by name (a bare-name pattern), against the
//! wrapper's own executable (`env`, `timeout`, `sh -c`), with `**` for `*` (glob semantics),
//! without its argument binding; and entries of other agents' buckets that would have matched.

use std::path::Path;

use crate::exec::lookup::{ExecEnv, Executable, resolve_executable};
use crate::exec::satisfy::allowlist::{AllowlistEntry, MatchTarget, match_v2, match_v9};
use crate::exec::segments::{MissReason, NearMiss, Segment};
use crate::release::exec::{AllowlistMatch, ExecRules};

/// How many near misses a segment reports.
const MAX_NEAR_MISSES: usize = 3;

/// The segment's executable as the matcher sees it.
struct Facts<'a> {
    rules: &'a ExecRules,
    env: &'a ExecEnv,
    exe: Executable,
    argv: &'a [String],
}

impl Facts<'_> {
    fn matches(&self, entry: &AllowlistEntry, exe: &Executable, argv: &[String]) -> bool {
        let entries = std::slice::from_ref(entry);
        match self.rules.allowlist_match() {
            kind @ (AllowlistMatch::RegexBug | AllowlistMatch::PathGlobs) => {
                match_v2(entries, exe, self.env.home.as_deref(), kind).is_ok_and(|m| m.is_some())
            }
            kind => {
                let cwd = self.env.cwd.to_string_lossy();
                let target = MatchTarget {
                    exe,
                    resolved_path: exe.resolved_path.as_deref(),
                    trust_path: exe.trust_path(),
                    argv,
                    cwd: &cwd,
                    home: self.env.home.as_deref(),
                };
                match_v9(entries, &target, kind == AllowlistMatch::GlobsWithGeneratedEntries).is_some()
            }
        }
    }

    fn hit(&self, entry: &AllowlistEntry) -> bool {
        self.matches(entry, &self.exe, self.argv)
    }
}

/// The nearest entries of `own` (this agent's list, what-ifs included) and of `others` (other
/// agents' buckets) that did not satisfy `segment`, each with why; empty for a satisfied segment.
pub fn near_misses(
    segment: &Segment,
    own: &[AllowlistEntry],
    others: &[(String, Vec<AllowlistEntry>)],
    rules: &ExecRules,
    env: &ExecEnv,
) -> Vec<NearMiss> {
    if segment.satisfied_by.is_some() || segment.argv.is_empty() {
        return Vec::new();
    }
    let argv = segment.effective_argv.as_deref().filter(|a| !a.is_empty()).unwrap_or(&segment.argv);
    let raw = argv[0].trim().to_string();
    let name = segment
        .resolved_path
        .as_deref()
        .and_then(|p| Path::new(p).file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| raw.clone());
    let exe =
        Executable { raw, resolved_path: segment.resolved_path.clone(), real_path: segment.real_path.clone(), name };
    let facts = Facts { rules, env, exe, argv };
    let mut out: Vec<NearMiss> = own.iter().filter_map(|entry| explain(entry, segment, &facts)).collect();
    out.sort_by_key(|m| m.reason == MissReason::OtherPath);
    out.truncate(MAX_NEAR_MISSES);
    for (agent, entries) in others {
        for entry in entries.iter().filter(|e| facts.hit(e)) {
            let why =
                format!("this entry is in agent `{agent}`'s approvals bucket; each agent reads only its own and `*`");
            let allow = entry.arg_pattern.is_none().then(|| entry.pattern.clone());
            out.extend(miss(entry, MissReason::OtherAgent, why, allow));
        }
    }
    out
}

fn miss(entry: &AllowlistEntry, reason: MissReason, why: String, allow: Option<String>) -> Option<NearMiss> {
    Some(NearMiss {
        pattern: entry.pattern.clone(),
        arg_pattern: entry.arg_pattern.clone(),
        origin: entry.origin.clone(),
        reason,
        why,
        allow,
    })
}

fn has_path_selector(pattern: &str) -> bool {
    pattern.contains(['/', '\\', '~'])
}

/// Why `entry` missed, when it is near; `None` for an entry that has nothing to do with it.
fn explain(entry: &AllowlistEntry, segment: &Segment, facts: &Facts<'_>) -> Option<NearMiss> {
    if facts.hit(entry) {
        // The entry matches the executable; the segment was refused for another reason.
        return None;
    }
    let exe = &facts.exe;
    let pattern = entry.pattern.trim();
    let unbound = AllowlistEntry { arg_pattern: None, source: None, ..entry.clone() };
    if entry.arg_pattern.is_some() && facts.hit(&unbound) {
        let why = if entry.is_generated() {
            "an allow-always approval bound to other arguments or another working directory; it covers only that exact argv in that directory".to_string()
        } else {
            format!(
                "the path matches but the argument pattern `{}` does not match these arguments",
                entry.arg_pattern.as_deref().unwrap_or("")
            )
        };
        return miss(entry, MissReason::ArgvBound, why, None);
    }
    if let Some(near) = symlink_miss(entry, &unbound, facts) {
        return Some(near);
    }
    if !has_path_selector(pattern) {
        let by_name = Executable { raw: exe.name.clone(), ..exe.clone() };
        let why = if facts.matches(&unbound, &by_name, facts.argv) {
            format!("a bare name matches only a command invoked by name; this one is invoked as `{}`", exe.raw)
        } else if glob_name_matches(pattern, &exe.name) {
            "this release matches only path patterns, never bare names".to_string()
        } else if let Some(real) = exe.real_path.as_deref().filter(|real| {
            Path::new(real).file_name().is_some_and(|n| glob_name_matches(pattern, &n.to_string_lossy()))
        }) {
            return miss(
                entry,
                MissReason::Symlink,
                format!(
                    "a bare name is compared with the name the command is invoked by (`{}`), not the name of the file it links to (`{real}`): allow `{real}`",
                    exe.name
                ),
                Some(real.to_string()),
            );
        } else {
            return wrapper_miss(entry, segment, facts);
        };
        let path = exe.real_path.as_deref().or(exe.resolved_path.as_deref()).unwrap_or(&exe.raw);
        return miss(entry, MissReason::BareName, format!("{why}: allow `{path}`"), Some(path.to_string()));
    }
    if pattern.contains('*') && !pattern.contains("**") {
        let crossing = AllowlistEntry { pattern: pattern.replace('*', "**"), ..unbound.clone() };
        if facts.matches(&crossing, exe, facts.argv) {
            let why = format!("`*` does not cross `/`: `{}` would match", crossing.pattern);
            return miss(entry, MissReason::Glob, why, Some(crossing.pattern));
        }
    }
    let target = exe.real_path.as_deref().or(exe.resolved_path.as_deref()).unwrap_or("");
    if !target.is_empty() && pattern.eq_ignore_ascii_case(target) {
        let why = format!("patterns are case-sensitive here: allow `{target}`");
        return miss(entry, MissReason::Glob, why, Some(target.to_string()));
    }
    if let Some(near) = wrapper_miss(entry, segment, facts) {
        return Some(near);
    }
    let entry_name = Path::new(pattern).file_name().map(|n| n.to_string_lossy().into_owned());
    if entry_name.as_deref() != Some(exe.name.as_str()) || target.is_empty() {
        return None;
    }
    let why = format!("names another `{}`; this command runs `{target}`", exe.name);
    miss(entry, MissReason::OtherPath, why, Some(target.to_string()))
}

/// The entry matches under the other reading of a link: the path the command is found at where the
/// release matches the real path (2026.9), or the link's target where it matches the path as found
/// (2026.2, which resolves no links).
fn symlink_miss(entry: &AllowlistEntry, unbound: &AllowlistEntry, facts: &Facts<'_>) -> Option<NearMiss> {
    let exe = &facts.exe;
    let resolved = exe.resolved_path.clone()?;
    let (variant, why, allow) = match exe.real_path.clone() {
        Some(real) if real != resolved => (
            Executable { real_path: None, ..exe.clone() },
            format!(
                "`{resolved}` is a link to `{real}`, and the release matches the real path: allow `{real}` (or a pattern matching it)"
            ),
            real,
        ),
        Some(_) => return None,
        None => {
            let real = std::fs::canonicalize(&resolved).ok()?.to_string_lossy().into_owned();
            if real == resolved {
                return None;
            }
            let why = format!(
                "names `{real}`, the file `{resolved}` links to, but this release matches the path the command is found at: allow `{resolved}`"
            );
            (Executable { resolved_path: Some(real), ..exe.clone() }, why, resolved)
        }
    };
    if facts.matches(unbound, &variant, facts.argv) { miss(entry, MissReason::Symlink, why, Some(allow)) } else { None }
}

/// The entry names the wrapper in front of the command, or the command behind a wrapper the
/// release will not look through.
fn wrapper_miss(entry: &AllowlistEntry, segment: &Segment, facts: &Facts<'_>) -> Option<NearMiss> {
    let outer = segment.argv.first()?.trim();
    if segment.policy_blocked {
        // Only an entry naming something on this command line is near.
        let named = |token: &String| {
            let base = |t: &str| Path::new(t.trim()).file_name().map(|n| n.to_string_lossy().into_owned());
            base(token).is_some() && base(token) == base(&entry.pattern)
        };
        if !segment.argv.iter().any(named) {
            return None;
        }
        let wrapper = segment.wrapper_chain.last().cloned().unwrap_or_else(|| outer.to_string());
        let why = format!(
            "`{wrapper}` stands in front of the command and the release does not look through it: nothing behind it can be allowlisted"
        );
        return miss(entry, MissReason::Wrapper, why, None);
    }
    if segment.wrapper_chain.is_empty() && facts.argv.len() == segment.argv.len() {
        return None;
    }
    let wrapper = resolve_executable(outer, facts.env, facts.rules.lookup);
    let wrapper_argv = segment.argv.as_slice();
    if !facts.matches(entry, &wrapper, wrapper_argv) {
        return None;
    }
    let inner = facts.exe.real_path.as_deref().or(facts.exe.resolved_path.as_deref()).unwrap_or(&facts.exe.raw);
    let why = format!("names the wrapper `{outer}`; the release looks through it and matches what it runs: `{inner}`");
    let allow = (facts.exe.real_path.is_some() || facts.exe.resolved_path.is_some()).then(|| inner.to_string());
    miss(entry, MissReason::Wrapper, why, allow)
}

/// A bare pattern that names this executable (exactly or as a glob), case-insensitively.
fn glob_name_matches(pattern: &str, name: &str) -> bool {
    crate::base::glob::glob_matches(&pattern.to_lowercase(), &name.to_lowercase())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use serde_json::json;

    use super::*;
    use crate::OpenClawVersion;
    use crate::exec::satisfy::allowlist::cwd_bound_hash;
    use crate::exec::{ApprovalsInput, Ask, ExecRequest, Security, evaluate};

    /// A `bin` folder with an executable `real-tool` and a link `tool` to it.
    fn bin() -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(bin.join("deep")).unwrap();
        for file in ["real-tool", "deep/nested"] {
            std::fs::write(bin.join(file), "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(bin.join(file), std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::os::unix::fs::symlink("real-tool", bin.join("tool")).unwrap();
        let bin = std::fs::canonicalize(bin).unwrap().to_string_lossy().into_owned();
        (dir, bin)
    }

    /// `command` decided for agent `main` with `approvals`, `bin` first on `PATH`.
    fn misses_outcome(
        version: OpenClawVersion,
        command: &str,
        bin: &str,
        approvals: serde_json::Value,
    ) -> crate::exec::ExecOutcome {
        let mut request = ExecRequest::new(command, "/tmp");
        request.site.path_var = Some(format!("{bin}:/usr/bin:/bin"));
        request.site.approvals = ApprovalsInput::Document(approvals);
        request.what_if.security = Some(Security::Allowlist);
        request.what_if.ask = Some(Ask::OnMiss);
        request.what_if.host = Some("gateway".into());
        evaluate(&request, version).unwrap()
    }

    /// The near misses of the first segment of `command` (agent `main`) under `approvals`.
    fn misses(version: OpenClawVersion, command: &str, bin: &str, approvals: serde_json::Value) -> Vec<NearMiss> {
        misses_outcome(version, command, bin, approvals).segments[0].near_misses.clone()
    }

    fn main_list(entries: serde_json::Value) -> serde_json::Value {
        json!({"version": 1, "agents": {"main": {"allowlist": entries}}})
    }

    fn reasons(misses: &[NearMiss]) -> Vec<MissReason> {
        misses.iter().map(|m| m.reason).collect()
    }

    #[test]
    fn a_link_is_matched_by_its_real_path_in_2026_9_and_as_found_in_2026_2() {
        let (_dir, bin) = bin();
        let link = main_list(json!([format!("{bin}/tool")]));
        let found = misses(OpenClawVersion::V2026_9, "tool -v", &bin, link);
        assert_eq!(reasons(&found), [MissReason::Symlink], "{found:?}");
        assert!(found[0].why.contains(&format!("allow `{bin}/real-tool`")), "{}", found[0].why);
        let real = main_list(json!([format!("{bin}/real-tool")]));
        let legacy = misses(OpenClawVersion::V2026_2, "tool -v", &bin, real);
        assert_eq!(reasons(&legacy), [MissReason::Symlink], "{legacy:?}");
    }

    #[test]
    fn bare_names_per_release() {
        let (_dir, bin) = bin();
        let by_path = format!("{bin}/real-tool -v");
        let found = misses(OpenClawVersion::V2026_9, &by_path, &bin, main_list(json!(["real-tool"])));
        assert_eq!(reasons(&found), [MissReason::BareName]);
        assert!(found[0].why.contains("invoked by name"), "{}", found[0].why);
        let legacy = misses(OpenClawVersion::V2026_2, "real-tool -v", &bin, main_list(json!(["real-tool"])));
        assert!(legacy[0].why.contains("never bare names"), "{}", legacy[0].why);
    }

    /// Every entry a near miss suggests satisfies the segment when added, on both releases, for
    /// every command and entry of a small vocabulary (links, bare names, globs, wrappers, case,
    /// other buckets).
    #[test]
    fn every_suggested_entry_satisfies_the_segment() {
        let (_dir, bin) = bin();
        let commands = [
            "tool -v".to_string(),
            format!("{bin}/real-tool -v"),
            format!("{bin}/tool"),
            "timeout 5 real-tool".into(),
            "nice -n 5 tool".into(),
            "env FOO=1 real-tool".into(),
            "nested".into(),
            "real-tool x".into(),
        ];
        let entries = [
            format!("{bin}/tool"),
            format!("{bin}/real-tool"),
            "tool".into(),
            "real-tool".into(),
            "nested".into(),
            format!("{bin}/*"),
            format!("{}/*", bin.to_uppercase()),
            format!("{}/REAL-TOOL", bin),
            "/usr/bin/timeout".into(),
            "/usr/bin/nice".into(),
            "/elsewhere/real-tool".into(),
        ];
        let path = format!("{bin}:{bin}/deep");
        let mut checked = 0;
        for version in [OpenClawVersion::V2026_9, OpenClawVersion::V2026_2] {
            for command in &commands {
                for entry in &entries {
                    for bucket in ["main", "ops"] {
                        let doc = json!({"version": 1, "agents": {bucket: {"allowlist": [entry]}}});
                        for near in misses(version, command, &path, doc) {
                            let Some(allow) = near.allow else { continue };
                            let opened = misses_outcome(version, command, &path, main_list(json!([allow])));
                            assert!(
                                opened.segments[0].satisfied_by.is_some(),
                                "{version}: `{command}` with {entry} in {bucket}: {} suggests {allow}, which does not match",
                                near.why
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 20, "{checked} suggestions checked");
    }

    #[test]
    fn glob_wrapper_argv_binding_and_other_buckets() {
        let (_dir, bin) = bin();
        let glob =
            misses(OpenClawVersion::V2026_9, "nested", &format!("{bin}/deep"), main_list(json!([format!("{bin}/*")])));
        assert_eq!(reasons(&glob), [MissReason::Glob]);
        let timeout =
            misses(OpenClawVersion::V2026_9, "timeout 5 real-tool", &bin, main_list(json!(["/usr/bin/timeout"])));
        assert_eq!(reasons(&timeout), [MissReason::Wrapper], "{timeout:?}");
        let argv = vec![format!("{bin}/real-tool"), "--other".to_string()];
        let bound = json!([{"pattern": format!("{bin}/real-tool"), "argPattern": cwd_bound_hash(&argv, "/tmp"), "source": "allow-always"}]);
        let generated = misses(OpenClawVersion::V2026_9, "real-tool -v", &bin, main_list(bound));
        assert_eq!(reasons(&generated), [MissReason::ArgvBound]);
        let other = json!({"version": 1, "agents": {"ops": {"allowlist": [format!("{bin}/real-tool")]}}});
        let bucket = misses(OpenClawVersion::V2026_9, "real-tool", &bin, other);
        assert_eq!(reasons(&bucket), [MissReason::OtherAgent]);
        assert!(bucket[0].origin.starts_with("agents.ops."), "{}", bucket[0].origin);
    }
}
