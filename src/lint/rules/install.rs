//! The install's files and install records, as `openclaw security audit` checks them: who may read
//! or write the state directory, the config and its `$include`s, the credentials, auth profiles,
//! session store and log file; and a state or config path inside a synced folder (install records:
//! `installs.rs`).
//!
//! The file checks run only when the config being linted is the install's own: the one file
//! OpenClaw itself would load in the environment the config is linted in (`OPENCLAW_CONFIG_PATH`,
//! else the state directory's `openclaw.json`; `--env`, `--env-file` and the config's `env` block
//! count). A config file anywhere else is not the install's, so its neighbours' permissions say
//! nothing about the gateway: the rules are not applicable and report nothing.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::audit::{audit_rule, critical_if};
use super::walk::agents;
use crate::base::js::js_trim;
use crate::config::path::KeyPath;
use crate::config::view::agents::{DefaultAgent, default_agent};
use crate::config::view::keys;
use crate::lint::{Emitter, LintContext, Rule};

pub const RULES: &[Rule] = &[
    audit_rule!(Install, "CP901", "state-dir-permissions", Security, "fs.state_dir.<problem>", state_dir_permissions,
        summary: "The install's state directory is a symlink, or others may write or read it (mode not 700). Only \
                  when linting the install's own config.",
        why: "The state directory holds sessions, credentials and approvals: other users must not write (critical \
              when anyone can) or read it.",
        example: "// ~/.openclaw with mode 755",
        fix: "`chmod 700` the state directory (`openclaw security audit --fix` does it).",
    ),
    audit_rule!(Install, "CP902", "config-file-permissions", Security, "fs.config.<problem>", config_permissions,
        summary: "The install's config file is a symlink, writable by others (critical), or readable by others \
                  (world: critical, group: warning). Only when linting the install's own config.",
        why: "Whoever writes the config controls auth and tool policy; whoever reads it may read its tokens.",
        example: "// ~/.openclaw/openclaw.json with mode 644",
        fix: "`chmod 600` the config file.",
    ),
    audit_rule!(Install, "CP903", "include-file-permissions", Security, "fs.config_include.<problem>", include_permissions,
        summary: "A file the install's config `$include`s is writable by others (critical) or readable by others \
                  (world: critical, group: warning).",
        why: "Included files are part of the effective config, with the same secrets and the same power.",
        example: "{ $include: \"./tools.json5\" }  // tools.json5 with mode 666",
        fix: "`chmod 600` the included files.",
    ),
    audit_rule!(Install, "CP904", "credentials-dir-permissions", Security, "fs.credentials_dir.<problem>",
        credentials_permissions,
        summary: "The credentials directory (`OPENCLAW_OAUTH_DIR` or `<state>/credentials`) is writable (critical) \
                  or readable by others.",
        why: "It holds OAuth tokens and channel allowlists; others could read or plant credentials.",
        example: "// <state>/credentials with mode 755",
        fix: "`chmod 700` the directory.",
    ),
    audit_rule!(Install, "CP905", "auth-profiles-permissions", Security, "fs.auth_profiles.<problem>", auth_profile_permissions,
        summary: "An agent's auth profile store (`auth-profiles.json`; 2026.9 also its SQLite files) is writable \
                  (critical) or readable by others.",
        why: "Auth profiles hold API keys and OAuth tokens.",
        example: "// <state>/agents/main/agent/auth-profiles.json with mode 644",
        fix: "`chmod 600` the files.",
    ),
    audit_rule!(Install, "CP906", "sessions-store-permissions", Security, "fs.sessions_store.perms_readable",
        sessions_store_permissions,
        summary: "An agent's session store (`<state>/agents/<id>/sessions/sessions.json`) is readable by others.",
        why: "Routing and transcript metadata reveal who talked to the agent about what.",
        example: "// <state>/agents/main/sessions/sessions.json with mode 644",
        fix: "`chmod 600` the file.",
    ),
    audit_rule!(Install, "CP907", "log-file-permissions", Security, "fs.log_file.perms_readable", log_file_permissions,
        summary: "The file `logging.file` names is readable by others.",
        why: "Logs carry private messages and tool output.",
        example: "logging: { file: \"~/openclaw.log\" }  // with mode 644",
        fix: "`chmod 600` the log file.",
    ),
    audit_rule!(Install, "CP908", "synced-folder", Security, "fs.synced_dir", synced_folder,
        summary: "The state directory or the config path is inside a synced folder (iCloud, Dropbox, OneDrive, Google \
                  Drive).",
        why: "Sync copies tokens and transcripts onto every device of the account.",
        example: "// OPENCLAW_STATE_DIR=~/Dropbox/openclaw",
        fix: "Keep `OPENCLAW_STATE_DIR` on a local-only volume.",
    ),
];

/// Where the install linted lives, when the config linted is its own.
struct Install {
    state_dir: PathBuf,
    config_path: PathBuf,
}

/// The install whose config is being linted: `None` when the linted file is not the one OpenClaw
/// would load in this environment.
fn install(ctx: &LintContext<'_>) -> Option<Install> {
    let env = ctx.loaded.effective_env();
    let cwd = std::env::current_dir().ok()?;
    let config_path = crate::config::discover_config_path(env, ctx.version);
    let [linted] = ctx.loaded.config_paths() else { return None };
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    same(linted, &config_path)
        .then(|| Install { state_dir: crate::config::state_dir(env, &cwd, ctx.version), config_path })
}

/// The state directory of the install being linted, when the config linted is the install's own.
pub(super) fn install_state_dir(ctx: &LintContext<'_>) -> Option<PathBuf> {
    install(ctx).map(|install| install.state_dir)
}

/// What the audit reads of a path's mode (`inspectPathPermissions`): through a symlink, the
/// target's mode.
struct Permissions {
    symlink: bool,
    dir: bool,
    bits: u32,
}

impl Permissions {
    fn world_writable(&self) -> bool {
        self.bits & 0o002 != 0
    }
    fn group_writable(&self) -> bool {
        self.bits & 0o020 != 0
    }
    fn world_readable(&self) -> bool {
        self.bits & 0o004 != 0
    }
    fn group_readable(&self) -> bool {
        self.bits & 0o040 != 0
    }
}

#[cfg(unix)]
fn permissions(path: &Path) -> Option<Permissions> {
    use std::os::unix::fs::MetadataExt;
    let link = std::fs::symlink_metadata(path).ok()?;
    let symlink = link.file_type().is_symlink();
    let target = if symlink { std::fs::metadata(path).unwrap_or(link) } else { link };
    Some(Permissions { symlink, dir: target.is_dir(), bits: target.mode() & 0o777 })
}

/// Windows installs are checked with ACLs, which clawpolicy does not read.
#[cfg(not(unix))]
fn permissions(_: &Path) -> Option<Permissions> {
    None
}

/// How a file's mode is graded: writable by others is critical for every target; readable by
/// others is graded per target.
#[derive(Clone, Copy)]
enum Readable {
    /// Not reported.
    Ignored,
    /// A warning either way.
    Warn,
    /// Critical when anyone may read, a warning when the group may.
    WorldCritical,
}

/// The problem with a path's mode, as (checkId suffix, critical), if any.
fn grade(perms: &Permissions, group_writable_critical: bool, readable: Readable) -> Option<(&'static str, bool)> {
    if perms.world_writable() || (group_writable_critical && perms.group_writable()) {
        return Some(("perms_writable", true));
    }
    match readable {
        Readable::Ignored => None,
        Readable::WorldCritical if perms.world_readable() => Some(("perms_world_readable", true)),
        Readable::WorldCritical if perms.group_readable() => Some(("perms_group_readable", false)),
        Readable::Warn if perms.world_readable() || perms.group_readable() => Some(("perms_readable", false)),
        _ => None,
    }
}

fn mode_text(perms: &Permissions) -> String {
    format!("{:03o}", perms.bits)
}

fn state_dir_permissions(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(install) = install(ctx) else { return };
    let Some(perms) = permissions(&install.state_dir) else { return };
    let dir = install.state_dir.display();
    if perms.symlink {
        out.report_global(format!("the state directory {dir} is a symlink: its target is part of the trust boundary"))
            .check_id("fs.state_dir.symlink")
            .help("make sure you trust the symlink's target");
    }
    let problem = if perms.world_writable() {
        Some(("perms_world_writable", true))
    } else if perms.group_writable() {
        Some(("perms_group_writable", false))
    } else if perms.group_readable() || perms.world_readable() {
        Some(("perms_readable", false))
    } else {
        None
    };
    if let Some((problem, critical)) = problem {
        out.report_global(format!(
            "the state directory {dir} has mode {}: others may reach the install's state",
            mode_text(&perms)
        ))
        .check_id(format!("fs.state_dir.{problem}"))
        .severity(critical_if(critical))
        .help(format!("chmod 700 {dir}"));
    }
}

fn config_permissions(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(install) = install(ctx) else { return };
    let Some(perms) = permissions(&install.config_path) else { return };
    let file = install.config_path.display();
    if perms.symlink {
        out.report(&KeyPath::root(), format!("the config file {file} is a symlink"))
            .check_id("fs.config.symlink")
            .help("make sure you trust the symlink's target");
    }
    // Through a symlink only writability counts.
    let readable = if perms.symlink { Readable::Ignored } else { Readable::WorldCritical };
    if let Some((problem, critical)) = grade(&perms, true, readable) {
        out.report(
            &KeyPath::root(),
            format!("the config file {file} has mode {}: others may {}", mode_text(&perms), reach(problem)),
        )
        .check_id(format!("fs.config.{problem}"))
        .severity(critical_if(critical))
        .help(format!("chmod 600 {file}"));
    }
}

fn reach(problem: &str) -> &'static str {
    if problem == "perms_writable" { "change it" } else { "read it" }
}

fn include_permissions(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if install(ctx).is_none() {
        return;
    }
    let top: Vec<&PathBuf> = ctx.loaded.config_paths().iter().collect();
    let mut seen = Vec::new();
    for source in ctx.loaded.sources() {
        let path = &source.path;
        if top.contains(&path) || seen.contains(path) {
            continue;
        }
        seen.push(path.clone());
        let Some(perms) = permissions(path) else { continue };
        let Some((problem, critical)) = grade(&perms, true, Readable::WorldCritical) else { continue };
        out.report(
            &KeyPath::root(),
            format!(
                "the included file {} has mode {}: others may {}",
                path.display(),
                mode_text(&perms),
                reach(problem)
            ),
        )
        .check_id(format!("fs.config_include.{problem}"))
        .severity(critical_if(critical))
        .help(format!("chmod 600 {}", path.display()));
    }
}

/// A file or directory of the state with a mode the audit reports: `check` is the checkId prefix.
fn report_state_path(
    out: &mut Emitter<'_, '_>,
    path: &Path,
    check: &str,
    problem: &str,
    critical: bool,
    perms: &Permissions,
    what: &str,
) {
    let chmod = if perms.dir { "chmod 700" } else { "chmod 600" };
    out.report_global(format!(
        "{what} {} has mode {}: others may {}",
        path.display(),
        mode_text(perms),
        reach(problem)
    ))
    .check_id(format!("{check}.{problem}"))
    .severity(critical_if(critical))
    .help(format!("{chmod} {}", path.display()));
}

fn credentials_permissions(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(install) = install(ctx) else { return };
    let env = ctx.loaded.effective_env();
    let dir = match env.get("OPENCLAW_OAUTH_DIR").map(|d| js_trim(d)).filter(|d| !d.is_empty()) {
        Some(dir) => expand_home(ctx, dir).unwrap_or_else(|| PathBuf::from(dir)),
        None => install.state_dir.join("credentials"),
    };
    let Some(perms) = permissions(&dir).filter(|p| p.dir) else { return };
    if let Some((problem, critical)) = grade(&perms, true, Readable::Warn) {
        report_state_path(out, &dir, "fs.credentials_dir", problem, critical, &perms, "the credentials directory");
    }
}

/// The agent ids whose state directories the audit looks into: `main`, the default agent and every
/// configured agent.
fn state_agent_ids(ctx: &LintContext<'_>) -> Vec<String> {
    let mut ids = Vec::new();
    if ctx.version.lint().main_agent_always_has_state {
        ids.push("main".to_string());
    }
    let roster = agents(ctx);
    let default = match default_agent(ctx.config(), ctx.version) {
        DefaultAgent::Agent(id) => Some(id),
        DefaultAgent::Undecided(_) => None,
    };
    for id in default.into_iter().chain(roster.iter().map(|a| a.id.clone())) {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids
}

fn auth_profile_permissions(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(install) = install(ctx) else { return };
    for id in state_agent_ids(ctx) {
        let agent_dir = install.state_dir.join("agents").join(&id).join("agent");
        for file in ctx.version.lint().agent_store_files.iter().map(|name| agent_dir.join(name)) {
            let Some(perms) = permissions(&file) else { continue };
            if let Some((problem, critical)) = grade(&perms, true, Readable::Warn) {
                report_state_path(out, &file, "fs.auth_profiles", problem, critical, &perms, "the auth profile store");
            }
        }
    }
}

fn sessions_store_permissions(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(install) = install(ctx) else { return };
    for id in state_agent_ids(ctx) {
        let store = install.state_dir.join("agents").join(&id).join("sessions").join("sessions.json");
        let Some(perms) = permissions(&store) else { continue };
        if perms.world_readable() || perms.group_readable() {
            report_state_path(out, &store, "fs.sessions_store", "perms_readable", false, &perms, "the session store");
        }
    }
}

/// `~` and `~/…` with the environment's `HOME` (`expandTilde`); other `~user` forms expand to nothing.
fn expand_home(ctx: &LintContext<'_>, path: &str) -> Option<PathBuf> {
    let Some(rest) = path.strip_prefix('~') else { return Some(PathBuf::from(path)) };
    let home = ctx.loaded.effective_env().get("HOME").map(|h| js_trim(h)).filter(|h| !h.is_empty())?;
    match rest {
        "" => Some(PathBuf::from(home)),
        _ if rest.starts_with('/') || rest.starts_with('\\') => Some(Path::new(home).join(&rest[1..])),
        _ => None,
    }
}

fn log_file_permissions(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    if install(ctx).is_none() {
        return;
    }
    let setting = KeyPath::keys(&[keys::LOGGING, keys::FILE]);
    let Some(file) = setting.lookup(ctx.config()).and_then(Value::as_str).map(js_trim).filter(|f| !f.is_empty()) else {
        return;
    };
    let Some(path) = expand_home(ctx, file) else { return };
    let path = std::env::current_dir().map(|cwd| cwd.join(&path)).unwrap_or(path);
    let Some(perms) = permissions(&path) else { return };
    if perms.world_readable() || perms.group_readable() {
        out.report(
            &setting,
            format!("the log file {} has mode {}: others may read it", path.display(), mode_text(&perms)),
        )
        .check_id("fs.log_file.perms_readable")
        .help(format!("chmod 600 {}", path.display()));
    }
}

/// `isProbablySyncedPath`.
fn synced(path: &Path) -> bool {
    let text = path.to_string_lossy().to_lowercase();
    ["icloud", "dropbox", "google drive", "googledrive", "onedrive"].iter().any(|name| text.contains(name))
}

fn synced_folder(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(install) = install(ctx) else { return };
    if synced(&install.state_dir) || synced(&install.config_path) {
        out.report_global(format!(
            "the state directory {} or the config {} is inside a synced folder",
            install.state_dir.display(),
            install.config_path.display()
        ))
        .help("keep OPENCLAW_STATE_DIR on a local-only volume");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synced_folders_are_recognised_by_name() {
        assert!(synced(Path::new("/Users/me/Library/Mobile Documents/iCloud~x/openclaw")));
        assert!(synced(Path::new("/home/me/Dropbox/openclaw")));
        assert!(!synced(Path::new("/home/me/.openclaw")));
    }
}
