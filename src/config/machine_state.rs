//! The machine-written part of a 2026.9 install's configuration: the `config_machine_state` table
//! of the state database (`<state>/state/openclaw.sqlite`), one JSON value per `state_key`
//! (`plugins.installedIndex`, `hooks.internal.installs`, …). Read-only: the database is opened
//! with `SQLITE_OPEN_READ_ONLY` and never written.

use std::collections::BTreeMap;
use std::path::Path;

use crate::base::userfile;

/// The raw `value_json` of each of `keys` present in the database at `path`. A database that does
/// not exist, or has no `config_machine_state` table, holds no rows (as OpenClaw reads it); one
/// that cannot be opened or read is an error.
pub fn read_rows(path: &Path, keys: &[&str]) -> Result<BTreeMap<String, String>, String> {
    let mut rows = BTreeMap::new();
    let Some(conn) = crate::base::sqlite::open_table(path, "config_machine_state")? else { return Ok(rows) };
    let sql = |e: rusqlite::Error| e.to_string();
    let mut stmt = conn.prepare("SELECT value_json FROM config_machine_state WHERE state_key = ?1").map_err(sql)?;
    let mut bytes = 0u64;
    for key in keys {
        let mut found = stmt.query([key]).map_err(sql)?;
        if let Some(row) = found.next().map_err(sql)? {
            let text: String = row.get(0).map_err(sql)?;
            bytes += text.len() as u64;
            if bytes > userfile::MAX_INPUT_BYTES {
                return Err(format!("its machine state is larger than {} bytes", userfile::MAX_INPUT_BYTES));
            }
            rows.insert((*key).to_string(), text);
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_read_by_key_and_a_missing_database_or_table_holds_none() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("openclaw.sqlite");
        assert!(read_rows(&db, &["a"]).unwrap().is_empty());
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch("CREATE TABLE other (x TEXT);").unwrap();
        assert!(read_rows(&db, &["a"]).unwrap().is_empty());
        conn.execute_batch(
            "CREATE TABLE config_machine_state (state_key TEXT PRIMARY KEY, value_json TEXT, updated_at_ms INTEGER);
             INSERT INTO config_machine_state VALUES ('a', '{\"x\":1}', 0), ('b', '[]', 0);",
        )
        .unwrap();
        let rows = read_rows(&db, &["a", "c"]).unwrap();
        assert_eq!(rows.into_iter().collect::<Vec<_>>(), [("a".to_string(), "{\"x\":1}".to_string())]);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("openclaw.sqlite");
        std::fs::write(&db, "not a database, just text that is long enough to have a header").unwrap();
        assert!(read_rows(&db, &["a"]).is_err());
        assert!(read_rows(dir.path(), &["a"]).is_err());
    }
}
