//! Writing a file the user named (`fix`, `test --bless`) only inside the folder it belongs to:
//! atomically, and never through a symlink that leads out of that folder.

use std::path::{Path, PathBuf};

/// Why a file was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteRefusal {
    /// The file, or the file a symlink names, is outside the folder writes are confined to.
    #[error("{} is outside {}", target.display(), folder.display())]
    Outside { target: PathBuf, folder: PathBuf },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The file a write to `path` lands in (the target of a symlink), if it is inside `folder`.
pub fn check_inside(path: &Path, folder: &Path) -> Result<PathBuf, WriteRefusal> {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let parent = std::fs::canonicalize(parent)?;
    let name = path.file_name().ok_or_else(|| std::io::Error::other("not a file name"))?;
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link {
        super::path::symlink_target(path).map_err(|e| std::io::Error::other(e.to_string()))?
    } else {
        parent.join(name)
    };
    if !target.starts_with(folder) {
        return Err(WriteRefusal::Outside { target, folder: folder.to_path_buf() });
    }
    Ok(target)
}

/// Writes `text` to `path` atomically (a temporary file in the same folder, renamed over it),
/// only inside `folder` (canonical): through a symlink only when its target stays inside (the
/// link is kept). The file keeps its permissions (a new one gets 0644).
pub fn write_inside(path: &Path, text: &str, folder: &Path) -> Result<(), WriteRefusal> {
    use std::io::Write;
    let target = check_inside(path, folder)?;
    let dir = target.parent().unwrap_or(folder);
    let mut temp = tempfile::Builder::new().prefix(".clawpolicy-write-").tempfile_in(dir)?;
    // The temporary file is private; the file keeps the permissions it had.
    let permissions = match std::fs::metadata(&target) {
        Ok(meta) => meta.permissions(),
        Err(_) => std::os::unix::fs::PermissionsExt::from_mode(0o644),
    };
    temp.as_file().set_permissions(permissions)?;
    temp.write_all(text.as_bytes())?;
    temp.as_file().sync_all()?;
    temp.persist(&target).map_err(|e| e.error)?;
    Ok(())
}
