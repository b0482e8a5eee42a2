//! Would a file tool touch a path for this agent and session? Tool policy first (the resolver),
//! then which root contains the tool (sandbox root, `tools.fs.workspaceOnly`,
//! `tools.exec.applyPatch.workspaceOnly`), then the path guard on the real filesystem.

use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use super::path::{Contained, Containment, Escape, PathError};
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::config::view::agents::{self, DefaultAgent};
use crate::config::view::keys;
use crate::policy::Resolution;
use crate::policy::session::Session;

/// The file tools and whether they write.
pub const FILE_TOOLS: [(&str, bool); 5] =
    [("read", false), ("ls", false), ("write", true), ("edit", true), ("apply_patch", true)];

/// Directories OpenClaw derives from the environment.
#[derive(Debug, Clone)]
pub struct Dirs {
    pub home: PathBuf,
    pub state_dir: PathBuf,
    /// `OPENCLAW_WORKSPACE_DIR`, the default agent's workspace when set.
    pub workspace_env: Option<PathBuf>,
}

impl Dirs {
    pub fn from_env() -> Self {
        let env = |key: &str| std::env::var(key).ok().filter(|v| !v.trim().is_empty());
        let home = PathBuf::from(env("OPENCLAW_HOME").or_else(|| env("HOME")).unwrap_or_else(|| "/".into()));
        let state_dir = env("OPENCLAW_STATE_DIR").map_or_else(|| home.join(".openclaw"), PathBuf::from);
        Dirs { home, state_dir, workspace_env: env("OPENCLAW_WORKSPACE_DIR").map(PathBuf::from) }
    }

    fn user_path(&self, text: &str) -> PathBuf {
        match text.strip_prefix("~") {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => self.home.join(rest.trim_start_matches('/')),
            _ => PathBuf::from(text),
        }
    }
}

#[derive(Debug, Clone)]
pub struct FileRequest {
    pub path: String,
    pub tool: String,
    /// Working directory of the call (default: the root).
    pub cwd: Option<PathBuf>,
    /// Replaces the agent workspace the config implies.
    pub workspace: Option<PathBuf>,
    /// The host directory of the sandbox's own workspace (`workspaceAccess: none`).
    pub sandbox_dir: Option<PathBuf>,
    pub dirs: Dirs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum FileVerdict {
    Allowed,
    Denied,
    Error,
}

/// A value and the config key it came from (`None`: a built-in default or a flag).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sourced<T> {
    pub value: T,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<KeyPath>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileAccess {
    pub path: String,
    pub tool: String,
    pub write: bool,
    pub verdict: FileVerdict,
    /// `tool-policy`, `not-constructed`, `sandbox-root`, `workspace-only`, `apply-patch-workspace-only`
    /// or `unrestricted`.
    pub rule: &'static str,
    pub reason: String,
    pub sandboxed: bool,
    pub workspace_access: String,
    pub workspace: Sourced<PathBuf>,
    /// The root the tool is contained to, if any, and the setting that contains it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<Sourced<PathBuf>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub escape: Option<Escape>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub landed: Option<Contained>,
}

/// The agent's workspace as OpenClaw resolves it. The "legacy data owner" of 2026.9 is taken to
/// be the default agent.
fn agent_workspace(version: OpenClawVersion, config: &Value, session: &Session<'_>, dirs: &Dirs) -> Sourced<PathBuf> {
    if let Some(entry) = &session.agent
        && let Some(text) = entry.value.get(keys::WORKSPACE).and_then(Value::as_str).filter(|t| !t.trim().is_empty())
    {
        let key = entry.path.key(keys::WORKSPACE);
        return Sourced { value: dirs.user_path(text.trim()), source: format!("config {key}"), key: Some(key) };
    }
    let is_default = agents::default_agent(config, version) == DefaultAgent::Agent(session.agent_id.clone());
    let defaults_key = agents::defaults_path().key(keys::WORKSPACE);
    let fallback = defaults_key.lookup(config).and_then(Value::as_str).filter(|t| !t.trim().is_empty());
    let from_defaults = |path: PathBuf| Sourced {
        value: path,
        source: format!("config {defaults_key}"),
        key: Some(defaults_key.clone()),
    };
    match (is_default, fallback) {
        (true, Some(text)) => from_defaults(dirs.user_path(text.trim())),
        (false, Some(text)) if version.policy().agents.nested_defaults_workspace => {
            from_defaults(dirs.user_path(text.trim()).join(&session.agent_id))
        }
        (true, None) => {
            let value = dirs.workspace_env.clone().unwrap_or_else(|| dirs.state_dir.join("workspace"));
            Sourced { value, key: None, source: "default (state dir)/workspace".into() }
        }
        (false, _) => Sourced {
            value: dirs.state_dir.join(format!("workspace-{}", session.agent_id)),
            key: None,
            source: "default (state dir)/workspace-<agent>".into(),
        },
    }
}

/// A boolean setting, agent block first, then global, else the default.
fn flag(config: &Value, session: &Session<'_>, path: &[&str], default: bool) -> Sourced<bool> {
    let agent = session.agent_tools.as_ref().and_then(|tools| {
        let key = path.iter().fold(tools.path.clone(), |key, part| key.key(part));
        let relative = KeyPath::keys(path);
        relative.lookup(tools.value).and_then(Value::as_bool).map(|value| (value, key))
    });
    let global_key = KeyPath::keys(&[&["tools"], path].concat());
    let found = agent.or_else(|| global_key.lookup(config).and_then(Value::as_bool).map(|value| (value, global_key)));
    match found {
        Some((value, key)) => Sourced { value, source: format!("config {key}"), key: Some(key) },
        None => Sourced { value: default, key: None, source: "default".into() },
    }
}

/// Decides one request. `resolution` and `session` are those of the same config and context.
pub fn decide(
    version: OpenClawVersion,
    config: &Value,
    session: &Session<'_>,
    resolution: &Resolution,
    request: &FileRequest,
) -> FileAccess {
    let write = FILE_TOOLS.iter().find(|(name, _)| *name == request.tool).is_some_and(|(_, write)| *write);
    let workspace = match &request.workspace {
        Some(path) => Sourced { value: path.clone(), key: None, source: "flag --workspace".into() },
        None => agent_workspace(version, config, session, &request.dirs),
    };
    let mut access = FileAccess {
        path: request.path.clone(),
        tool: request.tool.clone(),
        write,
        verdict: FileVerdict::Allowed,
        rule: "unrestricted",
        reason: String::new(),
        sandboxed: resolution.sandbox.sandboxed,
        workspace_access: resolution.sandbox.workspace_access.clone(),
        workspace: workspace.clone(),
        root: None,
        escape: None,
        landed: None,
    };
    if let Some((rule, reason)) = resolution.absence(&request.tool) {
        access.verdict = FileVerdict::Denied;
        (access.rule, access.reason) = (rule, reason);
        return access;
    }
    let root = if resolution.sandbox.sandboxed {
        let root = if resolution.sandbox.workspace_access == "none" {
            let sandbox_root = sandbox_workspace_root(config, session, &request.dirs);
            request.sandbox_dir.clone().unwrap_or_else(|| sandbox_root.join("<sandbox workspace>"))
        } else {
            workspace.value.clone()
        };
        let source = format!("sandbox (workspaceAccess {})", resolution.sandbox.workspace_access);
        access.rule = "sandbox-root";
        Some(Sourced { value: root, key: resolution.sandbox.mode_path.clone(), source })
    } else {
        let fs_only = flag(config, session, &["fs", "workspaceOnly"], false);
        let patch_only = flag(config, session, &["exec", "applyPatch", "workspaceOnly"], true);
        if fs_only.value {
            access.rule = "workspace-only";
            Some(Sourced { value: workspace.value.clone(), key: fs_only.key, source: fs_only.source })
        } else if request.tool == "apply_patch" && patch_only.value {
            access.rule = "apply-patch-workspace-only";
            Some(Sourced { value: workspace.value.clone(), key: patch_only.key, source: patch_only.source })
        } else {
            None
        }
    };
    let Some(root) = root else {
        access.reason =
            format!("`{}` is not contained to a root here; only filesystem permissions apply", request.tool);
        return access;
    };
    let containment = Containment {
        root: root.value.clone(),
        cwd: request.cwd.clone().unwrap_or_else(|| root.value.clone()),
        home: request.dirs.home.clone(),
        container_paths: resolution.sandbox.sandboxed,
        follow_dangling_links: version.policy().files.follows_dangling_links,
    };
    match containment.check(&request.path) {
        Ok(landed) => {
            access.reason = format!("inside {} ({})", root.value.display(), root.source);
            if let Some(outside) = landed.lands_outside.as_ref().filter(|_| write) {
                access.reason.push_str(&format!(
                    "; but it is a dangling symlink to {}, outside the root: OpenClaw {} does not follow it \
                     and `{}` creates the file there",
                    outside.display(),
                    version.line(),
                    request.tool
                ));
            }
            access.landed = Some(landed);
        }
        Err(PathError::Escape(escape)) => {
            access.verdict = FileVerdict::Denied;
            access.reason = escape.message.clone();
            access.escape = Some(escape);
        }
        Err(PathError::Io(message)) => {
            access.verdict = FileVerdict::Error;
            access.reason = message;
        }
    }
    access.root = Some(root);
    access
}

/// `sandbox.workspaceRoot`, agent over defaults, else `~/.openclaw/sandboxes`.
fn sandbox_workspace_root(config: &Value, session: &Session<'_>, dirs: &Dirs) -> PathBuf {
    match agents::sandbox_workspace_root(config, session.agent.as_ref()).and_then(|root| root.as_str()) {
        Some(text) => dirs.user_path(text),
        None => dirs.state_dir.join("sandboxes"),
    }
}

/// True when `name` is one of the file tools.
pub fn is_file_tool(name: &str) -> bool {
    FILE_TOOLS.iter().any(|(tool, _)| *tool == name)
}

/// The tool a request means when only `--write` is given.
pub fn default_tool(write: bool) -> &'static str {
    if write { "write" } else { "read" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::SessionContext;
    use serde_json::json;
    use std::path::Path;

    fn run(config: Value, tool: &str, path: &str, root: &Path) -> FileAccess {
        run_as(OpenClawVersion::V2026_9, config, tool, path, root)
    }

    fn run_as(version: OpenClawVersion, config: Value, tool: &str, path: &str, root: &Path) -> FileAccess {
        let ctx = SessionContext::default();
        let session = Session::resolve(&config, &ctx, version).unwrap();
        let resolution = crate::policy::resolve(version, &config, &ctx).unwrap();
        let dirs = Dirs { home: root.to_path_buf(), state_dir: root.join(".openclaw"), workspace_env: None };
        let request = FileRequest {
            path: path.into(),
            tool: tool.into(),
            cwd: None,
            workspace: Some(root.join("ws")),
            sandbox_dir: None,
            dirs,
        };
        decide(version, &config, &session, &resolution, &request)
    }

    #[test]
    fn workspace_only_contains_file_tools() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ws")).unwrap();
        let open = run(json!({}), "read", "/etc/hostname", dir.path());
        assert_eq!((open.verdict, open.rule), (FileVerdict::Allowed, "unrestricted"));
        let contained = run(json!({"tools": {"fs": {"workspaceOnly": true}}}), "read", "/etc/hostname", dir.path());
        assert_eq!((contained.verdict, contained.rule), (FileVerdict::Denied, "workspace-only"));
        assert_eq!(contained.root.unwrap().key.unwrap().to_string(), "tools.fs.workspaceOnly");
        let patch = run(json!({}), "apply_patch", "../x", dir.path());
        assert_eq!((patch.verdict, patch.rule), (FileVerdict::Denied, "apply-patch-workspace-only"));
    }

    #[cfg(unix)]
    #[test]
    fn writing_through_a_dangling_symlink_out_of_the_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(base.join("ws")).unwrap();
        std::os::unix::fs::symlink(base.join("elsewhere/new.txt"), base.join("ws/dang")).unwrap();
        let contained = json!({"tools": {"fs": {"workspaceOnly": true}}});
        let v9 = run_as(OpenClawVersion::V2026_9, contained.clone(), "write", "dang", &base);
        assert_eq!((v9.verdict, v9.escape.map(|e| e.rule)), (FileVerdict::Denied, Some("symlink")));
        let v2 = run_as(OpenClawVersion::V2026_2, contained, "write", "dang", &base);
        assert_eq!(v2.verdict, FileVerdict::Allowed, "the 2026.2 guard does not follow a dangling link");
        assert!(v2.reason.contains("dangling symlink to") && v2.reason.contains("elsewhere/new.txt"), "{}", v2.reason);
    }

    #[test]
    fn removed_tools_are_denied_by_policy() {
        let dir = tempfile::tempdir().unwrap();
        let denied = run(json!({"tools": {"deny": ["write"]}}), "write", "a.txt", dir.path());
        assert_eq!((denied.verdict, denied.rule), (FileVerdict::Denied, "tool-policy"));
        assert!(denied.reason.contains("tools.deny"), "{}", denied.reason);
    }
}
