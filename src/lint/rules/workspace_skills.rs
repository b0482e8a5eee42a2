//! Skill files in the agents' workspaces, as 2026.9's `openclaw security audit` scans them:
//! `skills/**/SKILL.md` files whose real path leaves their workspace (a symlink out of it), and a
//! `skills/` folder too large for the scan. Only when the config linted is the install's own
//! (`install.rs`): the workspaces are on that machine.
//!
//! The scan is the release's breadth-first walk (`listWorkspaceSkillMarkdownFiles`): folders in
//! the order the file system lists them, hidden and `node_modules` entries skipped, symbolic links
//! inside `skills/` followed (a `skills/` that is itself a link is not scanned), each real folder once, bounded by the release's `workspaceSkillScan` (`lint.json`).

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

use super::audit::audit_rule;
use super::install::install_state_dir;
use crate::lint::{Emitter, LintContext, Rule};
use crate::release::lint::SkillScan;

pub const RULES: &[Rule] = &[
    audit_rule!(Install, "CP918", "workspace-skill-symlink-escape", Security, "skills.workspace.symlink_escape",
        skill_symlink_escape,
        summary: "A workspace's `skills/**/SKILL.md` resolves (through a symbolic link) outside that workspace. Only \
                  when linting the install's own config.",
        why: "A skill is instructions the agent follows: one that lives outside the workspace can be changed by \
              whoever controls its real location.",
        example: "// <state>/workspace/skills/shared/SKILL.md -> /home/me/shared/SKILL.md",
        fix: "Replace the link with a real file in the workspace, or move trusted shared skills to a managed skill \
              folder.",
    ),
    audit_rule!(Install, "CP919", "workspace-skill-scan-truncated", Security, "skills.workspace.scan_truncated",
        skill_scan_truncated,
        summary: "A workspace's `skills/` folder is too large for the audit's scan (2,000 `SKILL.md` files or 40,000 \
                  folders): the rest is not checked for links out of the workspace. Only when linting the install's \
                  own config.",
        why: "Skill files past the limit are never checked.",
        example: "// <state>/workspace/skills/ with more than 2000 SKILL.md files",
        fix: "Flatten the `skills/` folder, or move large skill collections to a managed skill folder.",
    ),
];

/// What the scan of one workspace found.
struct Scan {
    workspace: PathBuf,
    skill_files: Vec<PathBuf>,
    truncated: bool,
}

/// `realpath`, or `None` when the path does not resolve.
fn real(path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(path).ok()
}

/// The breadth-first walk of `<workspace>/skills` for `SKILL.md` files.
fn scan(workspace: &Path, limits: &SkillScan) -> Scan {
    let root = workspace.join("skills");
    let mut found = Scan { workspace: workspace.to_path_buf(), skill_files: Vec::new(), truncated: false };
    // The folder itself must not be a link (`lstat`); links inside it are followed.
    if !std::fs::symlink_metadata(&root).is_ok_and(|m| m.is_dir()) {
        return found;
    }
    let mut queue = VecDeque::from([root]);
    let mut visited = HashSet::new();
    for _ in 0..limits.max_files * limits.dir_visits_per_file {
        if found.skill_files.len() >= limits.max_files {
            break;
        }
        let Some(dir) = queue.pop_front() else { break };
        if !visited.insert(real(&dir).unwrap_or_else(|| dir.clone())) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || name == "node_modules" {
                continue;
            }
            let path = dir.join(&name);
            let Ok(kind) = entry.file_type() else { continue };
            let (is_dir, is_file) = if kind.is_symlink() {
                match std::fs::metadata(&path) {
                    Ok(target) => (target.is_dir(), target.is_file()),
                    Err(_) => continue,
                }
            } else {
                (kind.is_dir(), kind.is_file())
            };
            if is_dir {
                queue.push_back(path);
            } else if is_file && name == "SKILL.md" {
                found.skill_files.push(path);
            }
        }
    }
    found.truncated = !queue.is_empty();
    found
}

/// The scans of every agent workspace of the install, when the config linted is its own.
fn scans(ctx: &LintContext<'_>) -> Vec<Scan> {
    let Some(limits) = &ctx.version.lint().workspace_skill_scan else { return Vec::new() };
    if install_state_dir(ctx).is_none() {
        return Vec::new();
    }
    let Ok(cwd) = std::env::current_dir() else { return Vec::new() };
    let env = ctx.loaded.effective_env();
    let workspaces =
        crate::config::validate::agent_workspaces(ctx.config(), ctx.version, ctx.loaded.legacy_owner(), env, &cwd);
    workspaces.iter().map(|workspace| scan(workspace, limits)).collect()
}

fn skill_symlink_escape(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let mut seen = HashSet::new();
    for scan in scans(ctx) {
        let workspace = real(&scan.workspace).unwrap_or_else(|| scan.workspace.clone());
        for file in scan.skill_files {
            if !seen.insert(file.clone()) {
                continue;
            }
            let target = real(&file);
            if target.as_ref().is_some_and(|t| t.starts_with(&workspace)) {
                continue;
            }
            let leads_to =
                target.map_or_else(|| "a target that cannot be verified".to_string(), |t| t.display().to_string());
            let relative = file.strip_prefix(&scan.workspace).unwrap_or(&file).display().to_string();
            out.report_file(
                &file,
                &relative,
                format!(
                    "the skill file {} resolves to {leads_to}, outside its workspace {}",
                    file.display(),
                    scan.workspace.display()
                ),
            )
            .help("replace the link with a real file inside the workspace");
        }
    }
}

fn skill_scan_truncated(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for scan in scans(ctx).into_iter().filter(|s| s.truncated) {
        let skills = scan.workspace.join("skills");
        out.report_file(
            &skills,
            "skills",
            format!(
                "the audit's scan of {} stops before its end: skill files past the limit are not checked",
                skills.display()
            ),
        )
        .help("flatten the skills folder or move large collections to a managed skill folder");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_scan_follows_links_skips_hidden_folders_and_stops_at_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let workspace = dir.path().join("ws");
        for sub in ["a", "b/c", ".hidden", "node_modules"] {
            std::fs::create_dir_all(workspace.join("skills").join(sub)).unwrap();
            std::fs::write(workspace.join("skills").join(sub).join("SKILL.md"), "#").unwrap();
        }
        std::fs::create_dir_all(dir.path().join("outside")).unwrap();
        std::fs::write(dir.path().join("outside/SKILL.md"), "#").unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside"), workspace.join("skills/linked")).unwrap();
        let found = scan(&workspace, &SkillScan { max_files: 100, dir_visits_per_file: 20 });
        let mut names: Vec<String> =
            found.skill_files.iter().map(|f| f.strip_prefix(&workspace).unwrap().display().to_string()).collect();
        names.sort();
        assert_eq!(names, ["skills/a/SKILL.md", "skills/b/c/SKILL.md", "skills/linked/SKILL.md"]);
        assert!(!found.truncated);
        let bounded = scan(&workspace, &SkillScan { max_files: 1, dir_visits_per_file: 2 });
        assert!(bounded.truncated);
    }
}
