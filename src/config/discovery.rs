//! Which file OpenClaw reads when no `--config` is given (spec §1; checked against both releases'
//! `src/config/paths.ts`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::fspath;
use crate::OpenClawVersion;

const CONFIG_FILENAME: &str = "openclaw.json";
const NEW_STATE_DIRNAME: &str = ".openclaw";

/// Older product names: state folders and config file names still honoured.
fn legacy_names(version: OpenClawVersion) -> (&'static [&'static str], &'static [&'static str]) {
    match version {
        OpenClawVersion::V2026_2 => {
            (&[".clawdbot", ".moldbot", ".moltbot"], &["clawdbot.json", "moldbot.json", "moltbot.json"])
        }
        OpenClawVersion::V2026_9 => (&[".clawdbot"], &["clawdbot.json"]),
    }
}

/// The environment and filesystem view discovery needs; explicit so tests need no real `$HOME`.
pub struct DiscoveryEnv<'a> {
    pub env: &'a HashMap<String, String>,
    pub cwd: &'a Path,
    pub exists: &'a dyn Fn(&Path) -> bool,
}

/// The config path OpenClaw would use, with the real filesystem and working directory.
pub fn discover_config_path(env: &HashMap<String, String>, version: OpenClawVersion) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    discover_config_path_in(&DiscoveryEnv { env, cwd: &cwd, exists: &|p: &Path| p.exists() }, version)
}

/// `OPENCLAW_CONFIG_PATH`, else the first existing candidate (state dir, then `~/.openclaw`, then
/// legacy folders; each with the current and legacy file names), else `<state dir>/openclaw.json`.
pub fn discover_config_path_in(ctx: &DiscoveryEnv<'_>, version: OpenClawVersion) -> PathBuf {
    let (legacy_dirs, legacy_files) = legacy_names(version);
    let home = effective_home(ctx);
    let file_names = || std::iter::once(CONFIG_FILENAME).chain(legacy_files.iter().copied());

    if let Some(explicit) = env_override(ctx.env, "OPENCLAW_CONFIG_PATH", "CLAWDBOT_CONFIG_PATH", version) {
        return resolve_user_path(explicit, &home, ctx.cwd);
    }
    let state_override = env_override(ctx.env, "OPENCLAW_STATE_DIR", "CLAWDBOT_STATE_DIR", version)
        .map(|dir| resolve_user_path(dir, &home, ctx.cwd));
    let default_dirs: Vec<PathBuf> =
        std::iter::once(NEW_STATE_DIRNAME).chain(legacy_dirs.iter().copied()).map(|dir| home.join(dir)).collect();
    let candidates =
        state_override.iter().chain(&default_dirs).flat_map(|dir| file_names().map(move |name| dir.join(name)));
    if let Some(existing) = candidates.into_iter().find(|c| (ctx.exists)(c)) {
        return existing;
    }
    let state_dir = state_override
        .unwrap_or_else(|| default_dirs.iter().find(|dir| (ctx.exists)(dir)).unwrap_or(&default_dirs[0]).clone());
    state_dir.join(CONFIG_FILENAME)
}

/// The trimmed, non-empty value of `name`; 2026.2 also reads the pre-rename variable.
fn env_override<'e>(
    env: &'e HashMap<String, String>,
    name: &str,
    legacy: &str,
    version: OpenClawVersion,
) -> Option<&'e str> {
    let read = |key: &str| env.get(key).map(|v| v.trim()).filter(|v| !v.is_empty());
    read(name).or_else(|| (version == OpenClawVersion::V2026_2).then(|| read(legacy)).flatten())
}

/// Home used for every default path: `OPENCLAW_HOME` (may itself start with `~`) > `HOME` >
/// `USERPROFILE` > the working directory.
fn effective_home(ctx: &DiscoveryEnv<'_>) -> PathBuf {
    // OpenClaw treats the strings "undefined" and "null" as unset (they leak in from JS callers).
    let read =
        |key: &str| ctx.env.get(key).map(|v| v.trim()).filter(|v| !v.is_empty() && *v != "undefined" && *v != "null");
    let os_home = read("HOME").or_else(|| read("USERPROFILE"));
    match read("OPENCLAW_HOME") {
        Some(explicit) if is_tilde_prefixed(explicit) => match os_home {
            Some(os_home) => fspath::resolve(ctx.cwd, Path::new(&expand_tilde(explicit, Path::new(os_home)))),
            None => ctx.cwd.to_path_buf(),
        },
        Some(explicit) => fspath::resolve(ctx.cwd, Path::new(explicit)),
        None => os_home.map_or_else(|| ctx.cwd.to_path_buf(), |h| fspath::resolve(ctx.cwd, Path::new(h))),
    }
}

/// Trim, expand a leading `~` against `home`, make absolute against `cwd`.
pub(crate) fn resolve_user_path(input: &str, home: &Path, cwd: &Path) -> PathBuf {
    let trimmed = input.trim();
    let expanded = if is_tilde_prefixed(trimmed) { expand_tilde(trimmed, home) } else { trimmed.to_string() };
    fspath::resolve(cwd, Path::new(&expanded))
}

/// `~`, `~/…` or `~\…` (not `~user`).
fn is_tilde_prefixed(s: &str) -> bool {
    s == "~" || s.starts_with("~/") || s.starts_with("~\\")
}

fn expand_tilde(s: &str, home: &Path) -> String {
    format!("{}{}", home.display(), &s[1..])
}

/// Home directory as OpenClaw resolves it, for callers that expand other `~` paths
/// (e.g. `OPENCLAW_INCLUDE_ROOTS`).
pub(crate) fn home_dir(env: &HashMap<String, String>, cwd: &Path) -> PathBuf {
    effective_home(&DiscoveryEnv { env, cwd, exists: &|_| false })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn discover(vars: &[(&str, &str)], existing: &[&str], version: OpenClawVersion) -> PathBuf {
        let env: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let existing: HashSet<PathBuf> = existing.iter().map(PathBuf::from).collect();
        let exists = move |p: &Path| existing.contains(p);
        discover_config_path_in(&DiscoveryEnv { env: &env, cwd: Path::new("/work"), exists: &exists }, version)
    }

    const V9: OpenClawVersion = OpenClawVersion::V2026_9;
    const V2: OpenClawVersion = OpenClawVersion::V2026_2;

    #[test]
    fn explicit_config_path_wins_and_expands_tilde() {
        let path = discover(&[("HOME", "/h"), ("OPENCLAW_CONFIG_PATH", " ~/cfg/x.json5 ")], &[], V9);
        assert_eq!(path, PathBuf::from("/h/cfg/x.json5"));
        assert_eq!(
            discover(&[("HOME", "/h"), ("OPENCLAW_CONFIG_PATH", "rel.json")], &[], V9),
            PathBuf::from("/work/rel.json")
        );
    }

    #[test]
    fn default_is_home_openclaw_even_when_missing() {
        assert_eq!(discover(&[("HOME", "/h")], &[], V9), PathBuf::from("/h/.openclaw/openclaw.json"));
        assert_eq!(discover(&[], &[], V9), PathBuf::from("/work/.openclaw/openclaw.json"));
    }

    #[test]
    fn openclaw_home_overrides_home_and_may_use_tilde() {
        let vars = [("HOME", "/h"), ("OPENCLAW_HOME", "~/alt")];
        assert_eq!(discover(&vars, &[], V9), PathBuf::from("/h/alt/.openclaw/openclaw.json"));
        assert_eq!(
            discover(&[("HOME", "null"), ("USERPROFILE", "/u")], &[], V9),
            PathBuf::from("/u/.openclaw/openclaw.json")
        );
    }

    #[test]
    fn state_dir_candidates_come_first_then_default_dirs() {
        let vars = [("HOME", "/h"), ("OPENCLAW_STATE_DIR", "/s")];
        assert_eq!(
            discover(&vars, &["/s/clawdbot.json", "/h/.openclaw/openclaw.json"], V9),
            PathBuf::from("/s/clawdbot.json")
        );
        assert_eq!(discover(&vars, &["/h/.openclaw/openclaw.json"], V9), PathBuf::from("/h/.openclaw/openclaw.json"));
        assert_eq!(discover(&vars, &[], V9), PathBuf::from("/s/openclaw.json"));
    }

    #[test]
    fn legacy_folders_and_names_per_version() {
        let home = [("HOME", "/h")];
        assert_eq!(discover(&home, &["/h/.moltbot/moldbot.json"], V2), PathBuf::from("/h/.moltbot/moldbot.json"));
        // 2026.9 dropped the moldbot/moltbot names: falls back to the canonical path.
        assert_eq!(discover(&home, &["/h/.moltbot/moldbot.json"], V9), PathBuf::from("/h/.openclaw/openclaw.json"));
        // An existing legacy state dir without a config still becomes the state dir.
        assert_eq!(discover(&home, &["/h/.clawdbot"], V9), PathBuf::from("/h/.clawdbot/openclaw.json"));
    }

    #[test]
    fn clawdbot_env_names_only_in_2026_2() {
        let vars = [("HOME", "/h"), ("CLAWDBOT_CONFIG_PATH", "/c.json")];
        assert_eq!(discover(&vars, &[], V2), PathBuf::from("/c.json"));
        assert_eq!(discover(&vars, &[], V9), PathBuf::from("/h/.openclaw/openclaw.json"));
    }
}
