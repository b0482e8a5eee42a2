//! Where OpenClaw keeps its config and state when no `--config` is given (spec §1; checked against
//! both releases' `src/config/paths.ts`): the home, the state directory and the config file. The
//! older product names a release still honours are in its data ([`DiscoveryRules`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::fspath;
use crate::OpenClawVersion;
use crate::base::js::js_trim;
use crate::release::loader::{DiscoveryRules, WorkspaceLayout};

const CONFIG_FILENAME: &str = "openclaw.json";
const NEW_STATE_DIRNAME: &str = ".openclaw";
const CONFIG_PATH_ENV: &str = "OPENCLAW_CONFIG_PATH";
const STATE_DIR_ENV: &str = "OPENCLAW_STATE_DIR";

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

/// The state directory `version` uses in environment `env` with working directory `cwd`, on the
/// real filesystem (`resolveStateDir`): `OPENCLAW_STATE_DIR` (`~`-expanded), else `~/.openclaw`
/// when it exists, else the first existing legacy folder (`~/.clawdbot`, …), else `~/.openclaw`.
/// `~` is the OpenClaw home ([`home_dir`]). Exec approvals and the file guard read their files
/// from here.
pub fn state_dir(env: &HashMap<String, String>, cwd: &Path, version: OpenClawVersion) -> PathBuf {
    state_dir_in(&DiscoveryEnv { env, cwd, exists: &|p: &Path| p.exists() }, version)
}

/// [`state_dir`] in a given environment and filesystem view.
pub fn state_dir_in(ctx: &DiscoveryEnv<'_>, version: OpenClawVersion) -> PathBuf {
    Dirs::new(ctx, &version.loader().discovery).state_dir()
}

/// `OPENCLAW_CONFIG_PATH`, else the first existing candidate (state dir, then `~/.openclaw`, then
/// legacy folders; each with the current and legacy file names), else `<state dir>/openclaw.json`.
pub fn discover_config_path_in(ctx: &DiscoveryEnv<'_>, version: OpenClawVersion) -> PathBuf {
    let dirs = Dirs::new(ctx, &version.loader().discovery);
    if let Some(explicit) = dirs.env_override(CONFIG_PATH_ENV) {
        return resolve_user_path(explicit, &dirs.home, ctx.cwd);
    }
    let file_names =
        || std::iter::once(CONFIG_FILENAME).chain(dirs.rules.legacy_config_files.iter().map(String::as_str));
    let candidates = dirs
        .state_override
        .iter()
        .chain(&dirs.default_dirs)
        .flat_map(|dir| file_names().map(move |name| dir.join(name)));
    if let Some(existing) = candidates.into_iter().find(|c| (ctx.exists)(c)) {
        return existing;
    }
    dirs.state_dir().join(CONFIG_FILENAME)
}

/// The folders discovery looks at, in order.
struct Dirs<'c> {
    ctx: &'c DiscoveryEnv<'c>,
    rules: &'static DiscoveryRules,
    home: PathBuf,
    /// `OPENCLAW_STATE_DIR`, resolved.
    state_override: Option<PathBuf>,
    /// `~/.openclaw`, then the legacy folders.
    default_dirs: Vec<PathBuf>,
}

impl<'c> Dirs<'c> {
    fn new(ctx: &'c DiscoveryEnv<'c>, rules: &'static DiscoveryRules) -> Self {
        let home = effective_home(ctx);
        let mut dirs = Dirs { ctx, rules, home, state_override: None, default_dirs: Vec::new() };
        dirs.state_override = dirs.env_override(STATE_DIR_ENV).map(|dir| resolve_user_path(dir, &dirs.home, ctx.cwd));
        dirs.default_dirs = std::iter::once(NEW_STATE_DIRNAME)
            .chain(rules.legacy_state_dirs.iter().map(String::as_str))
            .map(|dir| dirs.home.join(dir))
            .collect();
        dirs
    }

    /// The override, else the first default folder that exists, else `~/.openclaw`.
    fn state_dir(&self) -> PathBuf {
        self.state_override.clone().unwrap_or_else(|| {
            self.default_dirs.iter().find(|dir| (self.ctx.exists)(dir)).unwrap_or(&self.default_dirs[0]).clone()
        })
    }

    /// The trimmed, non-empty value of `name`, else of its pre-rename name where the release
    /// still reads one.
    fn env_override(&self, name: &str) -> Option<&'c str> {
        let env = self.ctx.env;
        let read = |key: &str| env.get(key).map(|v| v.trim()).filter(|v| !v.is_empty());
        read(name).or_else(|| self.rules.legacy_env_names.get(name).and_then(|legacy| read(legacy)))
    }
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

/// The default agent's workspace when the config names none (`resolveDefaultAgentWorkspaceDir`).
/// [`WorkspaceLayout::DefaultsPerAgent`]: `OPENCLAW_WORKSPACE_DIR`, else `<state dir>/workspace`
/// when `OPENCLAW_STATE_DIR` is set, else `~/.openclaw[-<profile>]/workspace`;
/// [`WorkspaceLayout::StatePerAgent`]: `~/.openclaw/workspace[-<profile>]`.
pub fn default_workspace_dir(env: &HashMap<String, String>, cwd: &Path, layout: WorkspaceLayout) -> PathBuf {
    let read = |name: &str| env.get(name).map(|v| js_trim(v)).filter(|v| !v.is_empty());
    let home = home_dir(env, cwd);
    let profile = read("OPENCLAW_PROFILE").filter(|p| !p.eq_ignore_ascii_case("default"));
    match layout {
        WorkspaceLayout::DefaultsPerAgent => {
            if let Some(dir) = read("OPENCLAW_WORKSPACE_DIR") {
                fspath::resolve(cwd, Path::new(dir))
            } else if let Some(state) = read(STATE_DIR_ENV) {
                resolve_user_path(state, &home, cwd).join("workspace")
            } else {
                let state =
                    profile.map_or_else(|| NEW_STATE_DIRNAME.to_string(), |p| format!("{NEW_STATE_DIRNAME}-{p}"));
                home.join(state).join("workspace")
            }
        }
        WorkspaceLayout::StatePerAgent => {
            let name = profile.map_or_else(|| "workspace".to_string(), |p| format!("workspace-{p}"));
            home.join(NEW_STATE_DIRNAME).join(name)
        }
    }
}

/// The OpenClaw home (`~` in every path OpenClaw expands): `OPENCLAW_HOME` (itself
/// `~`-expandable), else `HOME`, else `USERPROFILE`, else `cwd`.
pub fn home_dir(env: &HashMap<String, String>, cwd: &Path) -> PathBuf {
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
    fn state_dir_override_then_existing_default_folders() {
        let state = |vars: &[(&str, &str)], existing: &[&str], version| {
            let env: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let existing: HashSet<PathBuf> = existing.iter().map(PathBuf::from).collect();
            let exists = move |p: &Path| existing.contains(p);
            state_dir_in(&DiscoveryEnv { env: &env, cwd: Path::new("/work"), exists: &exists }, version)
        };
        let home = [("HOME", "/h")];
        assert_eq!(state(&home, &[], V9), PathBuf::from("/h/.openclaw"));
        assert_eq!(state(&home, &["/h/.clawdbot"], V9), PathBuf::from("/h/.clawdbot"));
        assert_eq!(state(&home, &["/h/.openclaw", "/h/.clawdbot"], V9), PathBuf::from("/h/.openclaw"));
        assert_eq!(state(&home, &["/h/.moltbot"], V9), PathBuf::from("/h/.openclaw"));
        assert_eq!(state(&home, &["/h/.moltbot"], V2), PathBuf::from("/h/.moltbot"));
        let vars = [("OPENCLAW_HOME", "/oc"), ("HOME", "/h"), ("OPENCLAW_STATE_DIR", " ~/state ")];
        assert_eq!(state(&vars, &[], V9), PathBuf::from("/oc/state"));
        let legacy = [("HOME", "/h"), ("CLAWDBOT_STATE_DIR", "/legacy")];
        assert_eq!(state(&legacy, &[], V2), PathBuf::from("/legacy"));
        assert_eq!(state(&legacy, &[], V9), PathBuf::from("/h/.openclaw"));
    }

    #[test]
    fn clawdbot_env_names_only_in_2026_2() {
        let vars = [("HOME", "/h"), ("CLAWDBOT_CONFIG_PATH", "/c.json")];
        assert_eq!(discover(&vars, &[], V2), PathBuf::from("/c.json"));
        assert_eq!(discover(&vars, &[], V9), PathBuf::from("/h/.openclaw/openclaw.json"));
    }
}
