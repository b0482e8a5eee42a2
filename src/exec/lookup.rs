//! Executable lookup (`resolveExecutablePath`): `PATH` search, cwd-relative paths, `~`, realpath
//! (spec §3.5, deltas B3.6), as the release's data says (`lookup` in `data/<line>/exec.json`).

use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use crate::release::exec::LookupRules;

/// The process context a command is resolved in.
#[derive(Debug, Clone)]
pub struct ExecEnv {
    pub cwd: PathBuf,
    /// The `PATH` the command would see (request env, else the process env).
    pub path_var: String,
    pub home: Option<String>,
    /// Executables already resolved in this context: a command of thousands of segments naming
    /// the same program searches `PATH` once, not once per segment.
    pub resolved: ResolveCache,
}

impl ExecEnv {
    pub fn new(cwd: PathBuf, path_var: String, home: Option<String>) -> Self {
        ExecEnv { cwd, path_var, home, resolved: ResolveCache::default() }
    }
}

/// Memo of [`resolve_executable`] for one [`ExecEnv`]. A clone starts empty, since the clone's
/// fields may be changed.
#[derive(Default)]
pub struct ResolveCache(std::sync::Mutex<std::collections::HashMap<(String, LookupRules), Executable>>);

impl Clone for ResolveCache {
    fn clone(&self) -> Self {
        ResolveCache::default()
    }
}

impl std::fmt::Debug for ResolveCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ResolveCache")
    }
}

/// What one argv[0] resolved to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Executable {
    /// The token as written (after wrapper unwrapping).
    pub raw: String,
    /// The file found, as OpenClaw spells it (not canonicalized).
    pub resolved_path: Option<String>,
    /// `realpath(resolved_path)`, where the release computes it.
    pub real_path: Option<String>,
    /// Basename of `resolved_path`, or the raw token when nothing resolved.
    pub name: String,
}

impl Executable {
    /// The path allowlist patterns and safe-bin trust are checked against (realpath first).
    pub fn trust_path(&self) -> Option<&str> {
        self.real_path.as_deref().or(self.resolved_path.as_deref())
    }
}

/// True for tokens that name a path rather than a PATH lookup.
pub fn has_path_separator(token: &str) -> bool {
    token.contains('/') || token.contains('\\')
}

/// Node's `path.resolve(base, p)` for POSIX: join then normalize `.`/`..` lexically.
pub fn lexical_resolve(base: &Path, p: &str) -> PathBuf {
    let joined = if p.starts_with('/') { PathBuf::from(p) } else { base.join(p) };
    let mut out = PathBuf::from("/");
    for comp in joined.components() {
        match comp {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
            _ => {}
        }
    }
    out
}

/// Expands a leading `~` the way `expandHomePrefix` does (`~` and `~/…` only).
pub fn expand_home(token: &str, home: Option<&str>) -> String {
    match (home, token.strip_prefix('~')) {
        (Some(h), Some(rest)) if rest.is_empty() || rest.starts_with('/') => format!("{h}{rest}"),
        _ => token.to_string(),
    }
}

/// A regular file with an execute bit (`isExecutableFile`; the simulator runs as the user).
pub fn is_executable_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

fn realpath(path: &str) -> Option<String> {
    std::fs::canonicalize(path).ok().map(|p| p.to_string_lossy().into_owned())
}

/// The path a path-like token points at, whether or not it exists (`resolveExecutablePathCandidate`).
pub fn candidate_path(raw: &str, env: &ExecEnv) -> Option<String> {
    let expanded = expand_home(raw, env.home.as_deref());
    if !has_path_separator(&expanded) {
        return None;
    }
    Some(lexical_resolve(&env.cwd, &expanded).to_string_lossy().into_owned())
}

fn search_path(name: &str, env: &ExecEnv, rules: LookupRules) -> Option<String> {
    for entry in env.path_var.split(':') {
        if entry.is_empty() && !rules.empty_path_entry_is_cwd {
            continue;
        }
        let dir = lexical_resolve(&env.cwd, entry);
        let candidate = dir.join(name);
        if is_executable_file(&candidate) {
            return Some(candidate.to_string_lossy().into_owned());
        }
    }
    None
}

/// Resolves `raw` as `resolveExecutablePath` does in a release with these rules.
pub fn resolve_executable(raw: &str, env: &ExecEnv, rules: LookupRules) -> Executable {
    let key = (raw.to_string(), rules);
    if let Some(known) = env.resolved.0.lock().ok().and_then(|cache| cache.get(&key).cloned()) {
        return known;
    }
    let resolved = resolve_uncached(raw, env, rules);
    if let Ok(mut cache) = env.resolved.0.lock() {
        cache.insert(key, resolved.clone());
    }
    resolved
}

fn resolve_uncached(raw: &str, env: &ExecEnv, rules: LookupRules) -> Executable {
    let expanded = expand_home(raw, env.home.as_deref());
    let resolved_path = if has_path_separator(&expanded) {
        let candidate = lexical_resolve(&env.cwd, &expanded);
        is_executable_file(&candidate).then(|| candidate.to_string_lossy().into_owned())
    } else if expanded.is_empty() {
        None
    } else {
        search_path(&expanded, env, rules)
    };
    let real_path = resolved_path.as_deref().filter(|_| rules.realpath).and_then(realpath);
    let name = resolved_path
        .as_deref()
        .map(|p| Path::new(p).file_name().map_or(p.to_string(), |n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| raw.to_string());
    Executable { raw: raw.to_string(), resolved_path, real_path, name }
}

/// The trust path of an executable that may not have resolved: the realpath of its candidate path.
pub fn trust_path_or_candidate(exe: &Executable, env: &ExecEnv) -> Option<String> {
    if let Some(p) = exe.trust_path() {
        return Some(p.to_string());
    }
    let candidate = candidate_path(&exe.raw, env)?;
    Some(realpath(&candidate).unwrap_or(candidate))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;

    fn rules(version: OpenClawVersion) -> LookupRules {
        version.exec().lookup
    }

    fn env() -> ExecEnv {
        ExecEnv::new(PathBuf::from("/tmp"), "/usr/bin:/bin".into(), Some("/root".into()))
    }

    #[test]
    fn resolves_through_path_and_realpath() {
        let exe = resolve_executable("sh", &env(), rules(OpenClawVersion::V2026_9));
        assert_eq!(exe.resolved_path.as_deref(), Some("/usr/bin/sh"));
        assert_eq!(exe.name, "sh");
        assert!(exe.real_path.is_some());
        let legacy = resolve_executable("sh", &env(), rules(OpenClawVersion::V2026_2));
        assert_eq!(legacy.real_path, None);
    }

    #[test]
    fn unresolved_keeps_raw_name() {
        let exe = resolve_executable("definitely-not-a-command-xyz", &env(), rules(OpenClawVersion::V2026_9));
        assert_eq!(exe.resolved_path, None);
        assert_eq!(exe.name, "definitely-not-a-command-xyz");
    }

    #[test]
    fn a_repeated_executable_searches_path_once_per_context() {
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("tool");
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        let env = ExecEnv::new(PathBuf::from("/tmp"), dir.path().display().to_string(), None);
        assert!(resolve_executable("tool", &env, rules(OpenClawVersion::V2026_2)).resolved_path.is_some());
        std::fs::remove_file(&tool).unwrap();
        assert!(resolve_executable("tool", &env, rules(OpenClawVersion::V2026_2)).resolved_path.is_some(), "memoized");
        assert!(resolve_executable("tool", &env.clone(), rules(OpenClawVersion::V2026_2)).resolved_path.is_none());
    }

    #[test]
    fn lexical_resolution_handles_dots() {
        assert_eq!(lexical_resolve(Path::new("/tmp/a"), "../b/./c"), PathBuf::from("/tmp/b/c"));
        assert_eq!(expand_home("~/x", Some("/h")), "/h/x");
        assert_eq!(expand_home("~user/x", Some("/h")), "~user/x");
    }
}
