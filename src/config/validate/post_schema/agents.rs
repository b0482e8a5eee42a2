//! The agents' directories as the release resolves them for validation: each agent's `agentDir`
//! (`resolveEffectiveAgentDir`) and workspace (`resolveAgentWorkspaceDir`), with `~`, the OpenClaw
//! home and the state directory from the environment ([`discovery`]), and the duplicate-agentDir
//! check (`findDuplicateAgentDirs`).
//!
//! Where the release asks the filesystem, so does this module: the state directory falls back to
//! an existing legacy folder, and a release comparing real paths ([`AgentDirIdentity::Realpath`])
//! resolves the longest existing prefix of each directory with its symlinks. Two agents can thus
//! share a directory on one machine and not on another, as with the release itself.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::OpenClawVersion;
use crate::base::js::{js_trim, js_truthy};
use crate::config::discovery;
use crate::config::path::PathSeg;
use crate::config::view::ids::normalize_agent_id;
use crate::config::view::keys;
use crate::release::loader::{AgentDirIdentity, DefaultAgentDir, RosterForm, ValidationRules, WorkspaceLayout};

/// One roster entry as the release lists it (objects only).
pub(super) struct Agent<'v> {
    /// The entry's id: its key, or the `id` of a list item (absent when not a string).
    pub id: Option<&'v str>,
    pub entry: &'v Value,
    /// Where the entry is (`agents.entries.<key>` or `agents.list.<i>`).
    pub at: Vec<PathSeg>,
}

/// The roster of the form the release validates.
pub(super) fn roster(config: &Value, form: RosterForm) -> Vec<Agent<'_>> {
    let agents = &config[keys::AGENTS];
    match form {
        RosterForm::Entries => agents[keys::ENTRIES]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(_, entry)| entry.is_object())
            .map(|(key, entry)| Agent {
                id: Some(key.as_str()),
                entry,
                at: vec![PathSeg::key(keys::AGENTS), PathSeg::key(keys::ENTRIES), PathSeg::key(key)],
            })
            .collect(),
        RosterForm::List => agents[keys::LIST]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .filter(|(_, entry)| entry.is_object())
            .map(|(index, entry)| Agent {
                id: entry[keys::ID].as_str(),
                entry,
                at: vec![PathSeg::key(keys::AGENTS), PathSeg::key(keys::LIST), PathSeg::Index(index)],
            })
            .collect(),
    }
}

/// Whether `agents` has a roster of either form (`hasAgentRosterProperty`).
fn has_roster(config: &Value) -> bool {
    let agents = &config[keys::AGENTS];
    [keys::ENTRIES, keys::LIST].iter().any(|form| agents.get(form).is_some())
}

/// The trimmed, non-empty string at `value` (`value?.trim()` used as a condition).
fn non_blank(value: &Value) -> Option<&str> {
    value.as_str().map(js_trim).filter(|s| !s.is_empty())
}

/// Resolves the agents' directories in one environment.
pub(super) struct AgentPaths<'c> {
    config: &'c Value,
    rules: &'static ValidationRules,
    roster: Vec<Agent<'c>>,
    /// Normalized id → the first roster entry with that id.
    by_id: HashMap<String, usize>,
    legacy_owner: Option<&'c str>,
    env: &'c HashMap<String, String>,
    cwd: &'c Path,
    home: PathBuf,
    state_dir: PathBuf,
}

impl<'c> AgentPaths<'c> {
    pub fn new(
        config: &'c Value,
        version: OpenClawVersion,
        legacy_owner: Option<&'c str>,
        env: &'c HashMap<String, String>,
        cwd: &'c Path,
    ) -> Self {
        let rules = &version.loader().validation;
        let roster = roster(config, rules.roster);
        let mut by_id = HashMap::with_capacity(roster.len());
        for (index, agent) in roster.iter().enumerate() {
            by_id.entry(normalize_agent_id(agent.id.unwrap_or_default())).or_insert(index);
        }
        AgentPaths {
            config,
            rules,
            roster,
            by_id,
            legacy_owner,
            env,
            cwd,
            home: discovery::home_dir(env, cwd),
            state_dir: discovery::state_dir(env, cwd, version),
        }
    }

    /// `resolveUserPath`: trimmed, `~` expanded against the OpenClaw home, absolute.
    fn user_path(&self, input: &str) -> PathBuf {
        discovery::resolve_user_path(input, &self.home, self.cwd)
    }

    /// The first roster entry whose id normalizes to `id`.
    fn entry(&self, id: &str) -> Option<&Agent<'c>> {
        self.by_id.get(id).map(|&index| &self.roster[index])
    }

    /// The directory an agent keeps its auth and sessions in: its own `agentDir`, else
    /// `<state dir>/agents/<id>/agent`.
    pub fn agent_dir(&self, id: &str) -> PathBuf {
        match self.entry(id).and_then(|agent| non_blank(&agent.entry[keys::AGENT_DIR])) {
            Some(dir) => self.user_path(dir),
            None => self.state_dir.join(keys::AGENTS).join(id).join("agent"),
        }
    }

    /// Where the agent's own `agentDir` is written, when it sets one.
    pub fn written_agent_dir(&self, id: &str) -> Option<Vec<PathSeg>> {
        let agent = self.entry(id).filter(|agent| non_blank(&agent.entry[keys::AGENT_DIR]).is_some())?;
        let mut at = agent.at.clone();
        at.push(PathSeg::key(keys::AGENT_DIR));
        Some(at)
    }

    /// The agent whose workspace is the default one.
    fn workspace_owner(&self) -> Option<String> {
        let marked = |agent: &&Agent<'_>| agent.entry[keys::DEFAULT] == Value::Bool(true);
        match self.rules.workspaces {
            // `tryResolveLegacyDataOwnerAgentId`: the migrated legacy owner, a single raw
            // `default: true` outside explicit ownership, else the sole agent.
            WorkspaceLayout::DefaultsPerAgent => {
                let ids: Vec<String> =
                    self.roster.iter().map(|a| normalize_agent_id(a.id.unwrap_or_default())).collect();
                if let Some(owner) = self.legacy_owner.map(normalize_agent_id).filter(|o| ids.contains(o)) {
                    return Some(owner);
                }
                let explicit = self.config[keys::AGENTS][keys::OWNERSHIP] == "explicit";
                let markers: Vec<&Agent<'_>> = self.roster.iter().filter(marked).collect();
                if let [only] = markers.as_slice()
                    && !explicit
                {
                    return Some(normalize_agent_id(only.id.unwrap_or_default()));
                }
                match ids.as_slice() {
                    [sole] => Some(sole.clone()),
                    [] if !has_roster(self.config) => Some("main".into()),
                    _ => None,
                }
            }
            // `resolveDefaultAgentId`: the first marked entry, else the first, else `main`.
            WorkspaceLayout::StatePerAgent => Some(self.default_agent()),
        }
    }

    /// The first entry marked `default` (truthy), else the first entry, by its id; else `main`.
    pub fn default_agent(&self) -> String {
        let chosen = self.roster.iter().find(|a| js_truthy(&a.entry[keys::DEFAULT])).or(self.roster.first());
        normalize_agent_id(chosen.and_then(|a| a.id).map(js_trim).unwrap_or_default())
    }

    /// The agent's workspace: its own `workspace`, else what the release's layout gives it.
    pub fn workspace(&self, id: &str) -> PathBuf {
        if let Some(dir) = self.entry(id).and_then(|agent| non_blank(&agent.entry[keys::WORKSPACE])) {
            return self.user_path(dir);
        }
        let shared = non_blank(&self.config[keys::AGENTS][keys::DEFAULTS][keys::WORKSPACE]);
        let layout = self.rules.workspaces;
        if self.workspace_owner().as_deref() == Some(id) {
            return match shared {
                Some(dir) => self.user_path(dir),
                None => discovery::default_workspace_dir(self.env, self.cwd, layout),
            };
        }
        match (layout, shared) {
            (WorkspaceLayout::DefaultsPerAgent, Some(dir)) => self.user_path(dir).join(id),
            _ => self.state_dir.join(format!("workspace-{id}")),
        }
    }

    /// The agents the release lists (`listAgentIds`): the roster's ids, normalized, once each; a
    /// config without a roster has the implicit `main`.
    pub fn agent_ids(&self) -> Vec<String> {
        if self.roster.is_empty() && !has_roster(self.config) {
            return vec!["main".into()];
        }
        let mut ids: Vec<String> = Vec::new();
        for id in self.roster.iter().map(|a| normalize_agent_id(a.id.unwrap_or_default())) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        ids
    }

    /// The agents the duplicate check compares, in its order, normalized and once each: the
    /// default agent, the roster, then every agent a binding names.
    fn referenced_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut add = |id: String| {
            if seen.insert(id.clone()) {
                ids.push(id);
            }
        };
        match self.rules.agent_dirs.default_agent {
            DefaultAgentDir::Marked => {
                if let Some(marked) = self.roster.iter().find(|a| js_truthy(&a.entry[keys::DEFAULT]))
                    && let Some(id) = marked.id.filter(|id| !id.is_empty())
                {
                    add(normalize_agent_id(id));
                }
            }
            DefaultAgentDir::Always => add(self.default_agent()),
        }
        for id in self.roster.iter().filter_map(|a| a.id.filter(|id| !id.is_empty())) {
            add(normalize_agent_id(id));
        }
        let bindings = self.config[keys::BINDINGS].as_array().into_iter().flatten();
        for id in bindings.filter_map(|b| non_blank(&b[keys::AGENT_ID])) {
            add(normalize_agent_id(id));
        }
        ids
    }

    /// Agents sharing one directory: each group's first directory as resolved, and its agents.
    pub fn duplicate_agent_dirs(&self) -> Vec<(PathBuf, Vec<String>)> {
        let ids = self.referenced_ids();
        if ids.len() < 2 {
            return Vec::new();
        }
        // Groups in the order their first agent comes, found by the directory's identity.
        let mut groups: Vec<(PathBuf, Vec<String>)> = Vec::new();
        let mut by_identity: HashMap<PathBuf, usize> = HashMap::new();
        for id in ids {
            let dir = self.agent_dir(&id);
            match by_identity.entry(self.identity(&dir)) {
                Entry::Occupied(group) => groups[*group.get()].1.push(id),
                Entry::Vacant(slot) => {
                    slot.insert(groups.len());
                    groups.push((dir, vec![id]));
                }
            }
        }
        groups.into_iter().filter(|(_, agents)| agents.len() > 1).collect()
    }

    /// What makes two directories the same for the release; case folded where the filesystem
    /// ignores case (assumed on macOS and Windows, as the release assumes when it cannot probe).
    fn identity(&self, dir: &Path) -> PathBuf {
        let resolved = match self.rules.agent_dirs.identity {
            AgentDirIdentity::Lexical => dir.to_path_buf(),
            AgentDirIdentity::Realpath => real_path(dir, &mut Vec::new()),
        };
        if cfg!(any(target_os = "macos", windows)) {
            PathBuf::from(resolved.to_string_lossy().to_lowercase())
        } else {
            resolved
        }
    }
}

/// `realpathAgentDir`: the real path of the longest existing prefix plus the missing rest; a
/// dangling symlink on the way is followed to its target; any other error keeps the path as given.
fn real_path(dir: &Path, seen: &mut Vec<PathBuf>) -> PathBuf {
    let resolved = crate::config::fspath::normalize(dir);
    if seen.contains(&resolved) {
        return resolved;
    }
    seen.push(resolved.clone());
    let mut missing: Vec<std::ffi::OsString> = Vec::new();
    let mut cursor = resolved.clone();
    loop {
        match std::fs::canonicalize(&cursor) {
            Ok(real) => return missing.iter().rev().fold(real, |path, segment| path.join(segment)),
            Err(error) if !matches!(error.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => {
                return resolved;
            }
            Err(_) => {}
        }
        if std::fs::symlink_metadata(&cursor).is_ok_and(|m| m.file_type().is_symlink())
            && let Ok(link) = std::fs::read_link(&cursor)
        {
            let parent = cursor.parent().unwrap_or(Path::new("/"));
            let target = missing.iter().rev().fold(parent.join(link), |path, segment| path.join(segment));
            return real_path(&target, seen);
        }
        let (Some(parent), Some(name)) = (cursor.parent(), cursor.file_name()) else {
            return resolved;
        };
        missing.push(name.to_os_string());
        cursor = parent.to_path_buf();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn real_path_keeps_the_missing_rest_below_the_longest_existing_prefix() {
        let tmp = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir(real.join("real")).unwrap();
        std::os::unix::fs::symlink(real.join("real"), real.join("link")).unwrap();
        assert_eq!(real_path(&real.join("link/a/b"), &mut Vec::new()), real.join("real/a/b"));
        // A dangling symlink is followed to where it points.
        std::os::unix::fs::symlink(real.join("gone"), real.join("dangling")).unwrap();
        assert_eq!(real_path(&real.join("dangling/x"), &mut Vec::new()), real.join("gone/x"));
        assert_eq!(real_path(&real.join("real/../real/c"), &mut Vec::new()), real.join("real/c"));
    }
}
