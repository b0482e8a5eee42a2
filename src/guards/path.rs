//! OpenClaw's workspace/sandbox path guard (`assertSandboxPath`): would a file tool contained to
//! a root accept this path? The lexical check resolves `..` against the working directory; the
//! canonical checks resolve symlinks on the real filesystem, through the deepest existing
//! ancestor so files that do not exist yet can still be judged.
//!
//! Symlinks, the last component included, are followed and refused when they lead out of the
//! root: only unlinking (an `apply_patch` delete hunk, which this guard is not asked about) keeps
//! a final symlink as it is. A dangling link is where the releases differ: 2026.9 (fs-safe's
//! `resolveSymlinkHopPath`) reads the link and judges the path it would create, so a write through
//! it cannot leave the root; 2026.2's guard cannot resolve it (`tryRealpath` falls back to the
//! link's own path) and lets it through, and the write tool then creates the target wherever it
//! points. [`Contained::lands_outside`] reports that case.

use std::io;
use std::path::{Component, Path, PathBuf};

use serde::Serialize;

/// Where the sandbox mounts the workspace inside the container; paths under it map to the root.
pub const CONTAINER_WORKDIR: &str = "/workspace";

/// A contained path check: the root, the working directory, and the user's home for `~`.
#[derive(Debug, Clone)]
pub struct Containment {
    pub root: PathBuf,
    pub cwd: PathBuf,
    pub home: PathBuf,
    /// Container paths (`/workspace/…`) and `file://` URLs map to the root (sandboxed tools).
    pub container_paths: bool,
    /// 2026.9 judges a dangling symlink by the path it points at; 2026.2 by its own path.
    pub follow_dangling_links: bool,
}

/// Why a path is refused, with OpenClaw's message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Escape {
    /// `lexical`, `canonical`, `symlink` or `hardlink`.
    pub rule: &'static str,
    pub message: String,
}

/// A path the guard accepts: where it lands, lexically and on disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Contained {
    pub resolved: PathBuf,
    pub canonical: PathBuf,
    /// The part of the path below the root (`""` for the root itself).
    pub relative: PathBuf,
    /// Where a write would really create the file when a dangling symlink the guard did not
    /// follow (2026.2) points out of the root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lands_outside: Option<PathBuf>,
}

#[derive(Debug)]
pub enum PathError {
    Escape(Escape),
    /// The filesystem could not be read (permission denied, not a directory, …).
    Io(String),
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathError::Escape(escape) => f.write_str(&escape.message),
            PathError::Io(message) => f.write_str(message),
        }
    }
}

impl From<io::Error> for PathError {
    fn from(error: io::Error) -> Self {
        PathError::Io(error.to_string())
    }
}

/// `path.resolve`: joins onto `base` and folds `.` and `..` without touching the filesystem.
pub fn lexical_resolve(base: &Path, path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for component in base.join(path).components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// The real path of `path`, resolving symlinks through its deepest existing ancestor and
/// appending the parts that do not exist yet.
pub fn canonical_via_existing_ancestor(path: &Path) -> Result<PathBuf, PathError> {
    let mut cursor = path.to_path_buf();
    let mut missing: Vec<std::ffi::OsString> = Vec::new();
    loop {
        match std::fs::canonicalize(&cursor) {
            Ok(real) => {
                let suffix: PathBuf = missing.iter().rev().collect();
                return Ok(lexical_resolve(&real, &suffix));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let mut components: Vec<Component<'_>> = cursor.components().collect();
                let Some(last) = components.pop() else { return Err(e.into()) };
                if components.is_empty() {
                    return Err(e.into());
                }
                missing.push(last.as_os_str().to_os_string());
                cursor = components.iter().collect();
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Where the symlink `link` leads: its real path, or for a dangling link the path its target
/// names, resolved through the target's deepest existing ancestor.
pub fn symlink_target(link: &Path) -> Result<PathBuf, PathError> {
    match std::fs::canonicalize(link) {
        Ok(real) => Ok(real),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let target = std::fs::read_link(link)?;
            let dir = std::path::absolute(link.parent().unwrap_or(Path::new(".")))?;
            canonical_via_existing_ancestor(&lexical_resolve(&dir, &target))
        }
        Err(e) => Err(e.into()),
    }
}

fn is_inside(root: &Path, path: &Path) -> bool {
    path.starts_with(root)
}

impl Containment {
    /// `~/x` for paths under the home directory, as OpenClaw prints them.
    fn short(&self, path: &Path) -> String {
        match path.strip_prefix(&self.home) {
            Ok(rest) if !self.home.as_os_str().is_empty() && self.home != Path::new("/") => {
                format!("~/{}", rest.display()).trim_end_matches('/').to_string()
            }
            _ => path.display().to_string(),
        }
    }

    /// One leading `@` dropped (a second one stays, as `./@…`), `~` expanded, and for sandboxed
    /// tools `file://` URLs and `/workspace` container paths mapped to the root.
    fn expand(&self, input: &str) -> String {
        let referenced = input.strip_prefix('@').unwrap_or(input);
        let mut expanded = if referenced.starts_with('@') { format!("./{referenced}") } else { referenced.to_string() };
        if expanded == "~" {
            expanded = self.home.display().to_string();
        } else if let Some(rest) = expanded.strip_prefix("~/") {
            expanded = format!("{}/{rest}", self.home.display());
        }
        if self.container_paths {
            if let Some(path) =
                url::Url::parse(&expanded).ok().filter(|u| u.scheme() == "file").and_then(|u| u.to_file_path().ok())
            {
                expanded = path.display().to_string();
            }
            if expanded == CONTAINER_WORKDIR {
                expanded = self.root.display().to_string();
            } else if let Some(rest) = expanded.strip_prefix(&format!("{CONTAINER_WORKDIR}/")) {
                expanded = self.root.join(rest).display().to_string();
            }
        }
        expanded
    }

    fn escape(&self, rule: &'static str, message: String) -> PathError {
        PathError::Escape(Escape { rule, message })
    }

    /// Walks the path below the root: a symlink that resolves outside the root is refused, and
    /// so is a final regular file with more than one hard link. Returns where the path lands.
    fn check_aliases(&self, path: &Path, root: &Path, root_canonical: &Path) -> Result<PathBuf, PathError> {
        let relative = path.strip_prefix(root).unwrap_or(path);
        let mut cursor = root_canonical.to_path_buf();
        let mut components = relative.components();
        while let Some(component) = components.next() {
            cursor.push(component);
            match std::fs::symlink_metadata(&cursor) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    cursor.extend(components.by_ref());
                    break;
                }
                Err(e) => return Err(e.into()),
                Ok(meta) if meta.file_type().is_symlink() => {
                    let dangling = !cursor.exists();
                    if dangling && !self.follow_dangling_links {
                        continue;
                    }
                    let target = symlink_target(&cursor)?;
                    if !is_inside(root_canonical, &target) {
                        return Err(self.escape(
                            "symlink",
                            format!(
                                "Symlink escapes sandbox root ({}): {}",
                                self.short(root_canonical),
                                self.short(&cursor)
                            ),
                        ));
                    }
                    cursor = target;
                }
                Ok(_) => {}
            }
        }
        let canonical = if self.follow_dangling_links { cursor } else { canonical_via_existing_ancestor(path)? };
        if !is_inside(root_canonical, &canonical) {
            return Err(self.escape(
                "canonical",
                format!("Path resolves outside sandbox root ({}): {}", self.short(root_canonical), self.short(path)),
            ));
        }
        if let Ok(meta) = std::fs::metadata(&canonical)
            && meta.is_file()
            && hard_link_count(&meta) > 1
        {
            return Err(self.escape(
                "hardlink",
                format!(
                    "Hardlinked path is not allowed under sandbox root ({}): {}",
                    self.short(root),
                    self.short(&canonical)
                ),
            ));
        }
        Ok(canonical)
    }

    /// OpenClaw's `assertSandboxPath` for one input path.
    pub fn check(&self, input: &str) -> Result<Contained, PathError> {
        let root = lexical_resolve(Path::new("/"), &self.root);
        let cwd = lexical_resolve(Path::new("/"), &self.cwd);
        let root_canonical = canonical_via_existing_ancestor(&root)?;
        let cwd_canonical = canonical_via_existing_ancestor(&cwd)?;
        // A working directory reached through an alias of the root resolves as under the root.
        let resolution_cwd = match cwd_canonical.strip_prefix(&root_canonical) {
            Ok(rest) => root.join(rest),
            Err(_) => cwd.clone(),
        };
        let mut expanded = self.expand(input);
        for (prefix, replacement) in [(&cwd, &resolution_cwd), (&root_canonical, &root)] {
            if let Ok(rest) = Path::new(&expanded).strip_prefix(prefix)
                && Path::new(&expanded).is_absolute()
                && prefix != replacement
            {
                expanded = replacement.join(rest).display().to_string();
                break;
            }
        }
        let resolved = lexical_resolve(&resolution_cwd, Path::new(&expanded));
        let Ok(relative) = resolved.strip_prefix(&root) else {
            return Err(self.escape("lexical", format!("Path escapes sandbox root ({}): {input}", self.short(&root))));
        };
        let relative = relative.to_path_buf();
        let canonical = self.check_aliases(&resolved, &root, &root_canonical)?;
        // The raw path, `..` taken physically (`link/..` is the link target's parent).
        let raw = if Path::new(&expanded).is_absolute() {
            PathBuf::from(&expanded)
        } else {
            PathBuf::from(format!("{}/{expanded}", resolution_cwd.display()))
        };
        let raw_target = if lexical_resolve(Path::new("/"), &raw) == root || expanded.ends_with('/') {
            canonical_via_existing_ancestor(&raw)?
        } else {
            let parent = raw.parent().map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
            let last = raw.components().next_back().map(|c| PathBuf::from(c.as_os_str())).unwrap_or_default();
            lexical_resolve(&canonical_via_existing_ancestor(&parent)?, &last)
        };
        if raw_target != root_canonical && !is_inside(&root_canonical, &raw_target) {
            return Err(self
                .escape("canonical", format!("Path escapes sandbox root ({}): {input}", self.short(&root_canonical))));
        }
        if raw_target != canonical {
            self.check_aliases(&raw_target, &root_canonical, &root_canonical)?;
        }
        let lands_outside = match std::fs::symlink_metadata(&canonical) {
            Ok(meta) if meta.file_type().is_symlink() => {
                symlink_target(&canonical).ok().filter(|target| !is_inside(&root_canonical, target))
            }
            _ => None,
        };
        Ok(Contained { resolved, canonical, relative, lands_outside })
    }
}

#[cfg(unix)]
fn hard_link_count(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn hard_link_count(_meta: &std::fs::Metadata) -> u64 {
    1
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    struct Fixture {
        _dir: tempfile::TempDir,
        base: PathBuf,
        guard: Containment,
    }

    /// `base/ws` is the root, `base/outside` a sibling with a secret.
    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let root = base.join("ws");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::write(root.join("src/main.rs"), "fn main() {}").unwrap();
        std::fs::write(base.join("outside/secret"), "x").unwrap();
        let guard = Containment {
            root: root.clone(),
            cwd: root,
            home: base.join("home"),
            container_paths: false,
            follow_dangling_links: true,
        };
        Fixture { _dir: dir, base, guard }
    }

    fn rule(result: Result<Contained, PathError>) -> Option<&'static str> {
        match result {
            Ok(_) => None,
            Err(PathError::Escape(escape)) => Some(escape.rule),
            Err(PathError::Io(e)) => panic!("io error: {e}"),
        }
    }

    #[test]
    fn lexical_escapes() {
        let f = fixture();
        let cases = [
            ("src/main.rs", None),
            ("./src/../src/main.rs", None),
            ("new/file.txt", None),
            (".", None),
            ("..", Some("lexical")),
            ("../outside/secret", Some("lexical")),
            ("src/../../outside/secret", Some("lexical")),
            ("/etc/passwd", Some("lexical")),
            ("@src/main.rs", None),
            ("@@x", None),
        ];
        for (input, expected) in cases {
            assert_eq!(rule(f.guard.check(input)), expected, "{input}");
        }
        let absolute = f.base.join("ws/src/main.rs").display().to_string();
        assert_eq!(rule(f.guard.check(&absolute)), None);
        let escape = match f.guard.check("../x") {
            Err(PathError::Escape(e)) => e.message,
            _ => unreachable!(),
        };
        assert!(escape.starts_with("Path escapes sandbox root ("), "{escape}");
    }

    #[test]
    fn symlink_escapes_on_the_real_filesystem() {
        let f = fixture();
        let root = f.base.join("ws");
        symlink(f.base.join("outside"), root.join("out")).unwrap();
        symlink(root.join("src"), root.join("inner")).unwrap();
        symlink(f.base.join("outside/secret"), root.join("secret-link")).unwrap();
        let cases = [
            ("out/secret", Some("symlink")),
            ("out/new-file", Some("symlink")),
            ("out", Some("symlink")),
            ("secret-link", Some("symlink")),
            ("inner/main.rs", None),
            ("inner/../src/main.rs", None),
            ("out/../x", Some("canonical")),
        ];
        for (input, expected) in cases {
            assert_eq!(rule(f.guard.check(input)), expected, "{input}");
        }
    }

    #[test]
    fn a_dangling_symlink_is_judged_by_its_target_in_2026_9() {
        let f = fixture();
        let root = f.base.join("ws");
        symlink(f.base.join("outside/new.txt"), root.join("dangling-out")).unwrap();
        symlink("../outside/new.txt", root.join("dangling-relative")).unwrap();
        symlink("src/new.rs", root.join("dangling-in")).unwrap();
        symlink(f.base.join("outside"), root.join("out")).unwrap();
        assert_eq!(rule(f.guard.check("dangling-out")), Some("symlink"));
        assert_eq!(rule(f.guard.check("dangling-relative")), Some("symlink"));
        assert_eq!(rule(f.guard.check("src/../dangling-relative")), Some("symlink"));
        let inside = f.guard.check("dangling-in").unwrap();
        assert_eq!(inside.canonical, root.join("src/new.rs"), "lands where the link points");
        assert_eq!(inside.lands_outside, None);
        assert_eq!(rule(f.guard.check("out/missing/deeper")), Some("symlink"));
    }

    #[test]
    fn a_dangling_symlink_passes_the_2026_2_guard_and_lands_outside() {
        let f = fixture();
        let root = f.base.join("ws");
        symlink(f.base.join("outside/new.txt"), root.join("dangling-out")).unwrap();
        let legacy = Containment { follow_dangling_links: false, ..f.guard.clone() };
        let landed = legacy.check("dangling-out").unwrap();
        assert_eq!(landed.lands_outside, Some(f.base.join("outside/new.txt")));
        symlink(f.base.join("outside/secret"), root.join("existing-out")).unwrap();
        assert_eq!(rule(legacy.check("existing-out")), Some("symlink"), "a link that resolves is still refused");
    }

    #[test]
    fn aliased_root_and_hardlinks() {
        let f = fixture();
        let alias = f.base.join("alias");
        symlink(f.base.join("ws"), &alias).unwrap();
        let guard = Containment { root: alias.clone(), cwd: alias, ..f.guard.clone() };
        assert_eq!(rule(guard.check("src/main.rs")), None);
        let real = f.base.join("ws/src/main.rs").display().to_string();
        assert_eq!(rule(guard.check(&real)), None, "the canonical root spelling is the same root");
        std::fs::hard_link(f.base.join("outside/secret"), f.base.join("ws/linked")).unwrap();
        assert_eq!(rule(f.guard.check("linked")), Some("hardlink"));
    }

    #[test]
    fn container_paths_and_home() {
        let f = fixture();
        let sandboxed = Containment { container_paths: true, ..f.guard.clone() };
        assert_eq!(rule(sandboxed.check("/workspace/src/main.rs")), None);
        assert_eq!(rule(sandboxed.check("/workspace/../etc")), Some("lexical"));
        assert_eq!(rule(f.guard.check("/workspace/src/main.rs")), Some("lexical"));
        assert_eq!(rule(f.guard.check("~/notes")), Some("lexical"));
        let home_root = Containment { root: f.base.join("home"), cwd: f.base.join("home"), ..f.guard.clone() };
        assert_eq!(rule(home_root.check("~/notes")), None);
    }
}
