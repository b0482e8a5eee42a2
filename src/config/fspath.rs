//! Filesystem path arithmetic the way Node's `path` module does it (lexical, no I/O).

use std::path::{Component, Path, PathBuf};

/// `path.resolve(base, p)`: `p` if absolute, else `base/p`; then normalized.
pub fn resolve(base: &Path, p: &Path) -> PathBuf {
    normalize(&base.join(p))
}

/// `path.normalize`: drops `.` and folds `..` without touching the filesystem.
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in p.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                // `/..` stays `/`; a relative path keeps leading `..`.
                if !out.pop() && !out.has_root() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// OpenClaw's `isPathInside(root, candidate)`: equal to the root or below it.
pub fn is_inside(root: &Path, candidate: &Path) -> bool {
    normalize(candidate).starts_with(normalize(root))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_and_normalize() {
        assert_eq!(resolve(Path::new("/a/b"), Path::new("../c/./d")), PathBuf::from("/a/c/d"));
        assert_eq!(resolve(Path::new("/a"), Path::new("/x/../y")), PathBuf::from("/y"));
        assert_eq!(normalize(Path::new("/../..")), PathBuf::from("/"));
    }

    #[test]
    fn inside_is_component_wise() {
        assert!(is_inside(Path::new("/cfg"), Path::new("/cfg/a/../b.json5")));
        assert!(is_inside(Path::new("/cfg"), Path::new("/cfg")));
        assert!(!is_inside(Path::new("/cfg"), Path::new("/cfg-other/x")));
        assert!(!is_inside(Path::new("/cfg"), Path::new("/cfg/../x")));
    }
}
