//! Config files as they were at a git revision (`diff --base-rev origin/main`): each file and
//! every file it `$include`s, read with `git show REV:path`, written into a temporary directory
//! that mirrors the repository layout, so the ordinary loader reads them with the ordinary
//! include rules (relative paths, confinement to the config directory).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::config::include::INCLUDE_KEY;
use crate::config::{fspath, json5};

/// Config files of one revision, materialized.
pub struct Materialized {
    dir: tempfile::TempDir,
    /// The top-level files inside the temporary tree, in the order given.
    pub files: Vec<PathBuf>,
    rev: String,
}

impl Materialized {
    /// Rewrites temporary paths in `text` (a location, an error) as `REV:path`.
    pub fn display(&self, text: &str) -> String {
        let prefix = format!("{}/", self.dir.path().display());
        text.replace(&prefix, &format!("{}:", self.rev))
    }
}

/// Why the files of a revision cannot be read.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum GitRevError {
    #[error("{}: {source}", path.display())]
    #[diagnostic(code(git::path))]
    Path { path: PathBuf, source: std::io::Error },
    #[error("{} names no file", .0.display())]
    #[diagnostic(code(git::path))]
    NoFileName(PathBuf),
    #[error("{} is outside the repository {}", file.display(), repo.display())]
    #[diagnostic(code(git::path))]
    OutsideRepository { file: PathBuf, repo: PathBuf },
    #[error("{} is not in a git repository: {reason}", file.display())]
    #[diagnostic(code(git::repo))]
    NotInRepository { file: PathBuf, reason: GitFailure },
    #[error("`{rev}` is not a revision of {}", repo.display())]
    #[diagnostic(code(git::rev))]
    UnknownRevision { rev: String, repo: PathBuf },
    #[error("{} does not exist at {rev}", file.display())]
    #[diagnostic(code(git::missing))]
    Missing { file: PathBuf, rev: String },
    #[error("cannot create a temporary directory: {0}")]
    #[diagnostic(code(git::io))]
    TempDir(std::io::Error),
    #[error("cannot write {}: {source}", path.display())]
    #[diagnostic(code(git::io))]
    Write { path: PathBuf, source: std::io::Error },
}

/// Why `git` gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum GitFailure {
    #[error("cannot run git: {0}")]
    NotRun(std::io::Error),
    /// What git printed on stderr.
    #[error("{0}")]
    Refused(String),
}

fn git(repo: &Path, args: &[&str]) -> Result<Vec<u8>, GitFailure> {
    let output = Command::new("git").arg("-C").arg(repo).args(args).output().map_err(GitFailure::NotRun)?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(GitFailure::Refused(String::from_utf8_lossy(&output.stderr).trim().to_string()))
    }
}

/// The repository holding `file` and the file's path inside it.
fn locate_in_repo(file: &Path) -> Result<(PathBuf, PathBuf), GitRevError> {
    let absolute = std::path::absolute(file).map_err(|source| GitRevError::Path { path: file.into(), source })?;
    let dir = absolute.parent().unwrap_or(Path::new("/"));
    let dir = dir.canonicalize().map_err(|source| GitRevError::Path { path: dir.into(), source })?;
    let top = git(&dir, &["rev-parse", "--show-toplevel"])
        .map_err(|reason| GitRevError::NotInRepository { file: file.into(), reason })?;
    let top = PathBuf::from(String::from_utf8_lossy(&top).trim());
    let top = top.canonicalize().unwrap_or(top);
    let name = absolute.file_name().ok_or_else(|| GitRevError::NoFileName(file.into()))?;
    let relative = dir
        .join(name)
        .strip_prefix(&top)
        .map(Path::to_path_buf)
        .map_err(|_| GitRevError::OutsideRepository { file: file.into(), repo: top.clone() })?;
    Ok((top, relative))
}

/// Reads `files` (paths in the working tree) as they were at `rev`, with their includes.
pub fn materialize(rev: &str, files: &[PathBuf]) -> Result<Materialized, GitRevError> {
    let dir = tempfile::tempdir().map_err(GitRevError::TempDir)?;
    let mut materialized = Materialized { dir, files: Vec::new(), rev: rev.to_string() };
    let mut seen = HashSet::new();
    for file in files {
        let (repo, relative) = locate_in_repo(file)?;
        git(&repo, &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")])
            .map_err(|_| GitRevError::UnknownRevision { rev: rev.to_string(), repo: repo.clone() })?;
        if !fetch(&repo, rev, &relative, materialized.dir.path(), &mut seen)? {
            return Err(GitRevError::Missing { file: relative, rev: rev.to_string() });
        }
        materialized.files.push(materialized.dir.path().join(&relative));
    }
    Ok(materialized)
}

/// Writes `relative` at `rev` under `root`, then the files it includes. Returns false when the
/// file does not exist at that revision (the loader reports a missing include itself).
fn fetch(
    repo: &Path,
    rev: &str,
    relative: &Path,
    root: &Path,
    seen: &mut HashSet<PathBuf>,
) -> Result<bool, GitRevError> {
    if !seen.insert(relative.to_path_buf()) {
        return Ok(true);
    }
    let spec = format!("{rev}:{}", relative.to_string_lossy().replace('\\', "/"));
    let Ok(bytes) = git(repo, &["show", &spec]) else {
        return Ok(false);
    };
    let target = root.join(relative);
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(|source| GitRevError::Write { path: parent.into(), source })?;
    }
    std::fs::write(&target, &bytes).map_err(|source| GitRevError::Write { path: target.clone(), source })?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    // A file that does not parse is left for the loader to report.
    let Ok(document) = json5::parse(target.clone(), text).document else {
        return Ok(true);
    };
    let base = relative.parent().unwrap_or(Path::new(""));
    for include in include_paths(&document.root.to_value()) {
        let included = fspath::normalize(&base.join(include));
        // Includes that leave the repository cannot be read at a revision; the loader reports them.
        if included.is_relative() && !included.starts_with("..") {
            fetch(repo, rev, &included, root, seen)?;
        }
    }
    Ok(true)
}

/// Every `$include` path written anywhere in a document.
fn include_paths(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    match value {
        Value::Object(map) => {
            match map.get(INCLUDE_KEY) {
                Some(Value::String(path)) => out.push(path.clone()),
                Some(Value::Array(paths)) => out.extend(paths.iter().filter_map(Value::as_str).map(str::to_string)),
                _ => {}
            }
            out.extend(map.values().flat_map(include_paths));
        }
        Value::Array(items) => out.extend(items.iter().flat_map(include_paths)),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(dir: &Path, args: &[&str]) {
        let status = Command::new("git").arg("-C").arg(dir).args(args).output().unwrap();
        assert!(status.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&status.stderr));
    }

    #[test]
    fn files_and_includes_come_from_the_revision() {
        let repo = tempfile::tempdir().unwrap();
        let root = repo.path();
        run(root, &["init", "-q"]);
        std::fs::create_dir_all(root.join("cfg/parts")).unwrap();
        std::fs::write(root.join("cfg/openclaw.json5"), r#"{ tools: { $include: "./parts/tools.json5" } }"#).unwrap();
        std::fs::write(root.join("cfg/parts/tools.json5"), r#"{ deny: ["exec"] }"#).unwrap();
        run(root, &["add", "."]);
        run(root, &["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base"]);
        std::fs::write(root.join("cfg/parts/tools.json5"), r#"{ deny: [] }"#).unwrap();

        let at = materialize("HEAD", &[root.join("cfg/openclaw.json5")]).unwrap();
        let included = at.files[0].parent().unwrap().join("parts/tools.json5");
        assert_eq!(std::fs::read_to_string(included).unwrap(), r#"{ deny: ["exec"] }"#);
        let shown = at.display(&format!("{}:1:3", at.files[0].display()));
        assert_eq!(shown, "HEAD:cfg/openclaw.json5:1:3");

        let unknown = materialize("no-such-rev", &[root.join("cfg/openclaw.json5")]).err().unwrap();
        assert!(unknown.to_string().contains("not a revision"), "{unknown}");
        std::fs::write(root.join("cfg/new.json5"), "{}").unwrap();
        let missing = materialize("HEAD", &[root.join("cfg/new.json5")]).err().unwrap();
        assert!(missing.to_string().contains("does not exist at HEAD"), "{missing}");
    }
}
