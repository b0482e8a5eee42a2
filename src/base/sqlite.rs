//! Opening OpenClaw's SQLite stores for reading only: never written, never created.

use std::path::Path;

/// How long a read waits for another process's write lock before giving up.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_millis(250);

/// The database at `path`, opened read-only, when it has `table`: `Ok(None)` when the file does
/// not exist or has no such table (as OpenClaw reads a store it never wrote); an error when it
/// is not a regular file or not a database.
pub fn open_table(path: &Path, table: &str) -> Result<Option<rusqlite::Connection>, String> {
    if !path.exists() {
        return Ok(None);
    }
    // SQLite would block opening a FIFO, and read a device forever.
    super::userfile::ensure_regular_file(path).map_err(|e| e.to_string())?;
    let sql = |e: rusqlite::Error| e.to_string();
    let conn = rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(sql)?;
    conn.busy_timeout(BUSY_WAIT).map_err(sql)?;
    let exists: bool = conn
        .query_row("SELECT EXISTS(SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1)", [table], |r| {
            r.get(0)
        })
        .map_err(sql)?;
    Ok(exists.then_some(conn))
}
