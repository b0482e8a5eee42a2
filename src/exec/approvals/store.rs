//! The host approvals store as files: the SQLite state database (row `exec_approvals_config` /
//! `current`) or a JSON file, where each release keeps it (`approvals.store` in
//! `data/<line>/exec.json`), and what is wrong with one that cannot be read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::ApprovalsInput;
use crate::OpenClawVersion;
use crate::release::exec::{StoreDir, StoreFormat};

/// What is wrong with a store 2026.9 cannot use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoreProblem {
    /// Another process holds a write lock (`SQLITE_BUSY`): the store may be fine.
    Locked,
    Missing,
    /// Not a database, a damaged one, or one without the approvals table.
    Broken,
    /// The stored document fails 2026.9's read schema.
    InvalidDocument,
}

/// Why 2026.9 used its fail-closed defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailClosed {
    pub problem: StoreProblem,
    pub detail: String,
}

impl FailClosed {
    pub(super) fn new(problem: StoreProblem, detail: impl Into<String>) -> Self {
        FailClosed { problem, detail: detail.into() }
    }
}

impl std::fmt::Display for FailClosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.problem {
            StoreProblem::Locked => {
                "the store is locked by another process (OpenClaw waits up to 5 s for the lock, then \
                 fails closed; the store itself may be fine)"
            }
            StoreProblem::Missing => "the store does not exist",
            StoreProblem::Broken => "the store is broken",
            StoreProblem::InvalidDocument => "the stored document is invalid",
        };
        write!(f, "{what}: {}", self.detail)
    }
}

/// How long a read waits for another process's write lock. OpenClaw waits 5 s
/// (`OPENCLAW_SQLITE_BUSY_TIMEOUT_MS`) and then fails closed; the simulator reports the lock after a
/// short wait instead of stalling every command for 5 s.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_millis(250);

/// Reads the raw JSON of the `current` row; `Ok(None)` when the row was never written.
fn read_sqlite(path: &Path) -> Result<Option<String>, FailClosed> {
    if !path.exists() {
        return Err(FailClosed::new(StoreProblem::Missing, format!("{} does not exist", path.display())));
    }
    // SQLite would block opening a FIFO, and read a device forever.
    crate::base::userfile::ensure_regular_file(path)
        .map_err(|e| FailClosed::new(StoreProblem::Broken, format!("approvals store {}: {e}", path.display())))?;
    let classify = |e: rusqlite::Error| {
        let locked = matches!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        );
        FailClosed::new(if locked { StoreProblem::Locked } else { StoreProblem::Broken }, e.to_string())
    };
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(classify)?;
    conn.busy_timeout(BUSY_WAIT).map_err(classify)?;
    let mut stmt =
        conn.prepare("SELECT raw_json FROM exec_approvals_config WHERE config_key = 'current'").map_err(classify)?;
    let mut rows = stmt.query([]).map_err(classify)?;
    match rows.next().map_err(classify)? {
        Some(row) => row.get::<_, String>(0).map(Some).map_err(classify),
        None => Ok(None),
    }
}

/// Reads a store: `Ok(None)` when it holds no document (a missing JSON file, an unwritten row).
pub fn read(input: &ApprovalsInput) -> Result<Option<Value>, FailClosed> {
    match input {
        ApprovalsInput::None => Ok(None),
        ApprovalsInput::Document(v) => Ok(Some(v.clone())),
        ApprovalsInput::Sqlite(p) => {
            read_sqlite(p).and_then(|t| t.map(|t| crate::base::json::from_str(&t).map_err(invalid_json)).transpose())
        }
        ApprovalsInput::JsonFile(p) => {
            match crate::base::userfile::read_text(p, crate::base::userfile::MAX_INPUT_BYTES) {
                Err(crate::base::userfile::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(FailClosed::new(StoreProblem::Broken, e.to_string())),
                Ok(t) => crate::base::json::from_str(&t).map(Some).map_err(invalid_json),
            }
        }
    }
}

/// Where a store is, for reports (`~/.openclaw/state/openclaw.sqlite#exec_approvals_config`).
pub fn locator(input: &ApprovalsInput) -> String {
    match input {
        ApprovalsInput::None => "(none)".to_string(),
        ApprovalsInput::Document(_) => "(inline document)".to_string(),
        ApprovalsInput::Sqlite(p) => format!("{}#exec_approvals_config", p.display()),
        ApprovalsInput::JsonFile(p) => p.display().to_string(),
    }
}

/// A JSON error about a store that may be any file: quoted values and credentials masked.
fn invalid_json(error: crate::base::json::JsonError) -> FailClosed {
    let message = crate::config::secrets::parse_error_message(&error.to_string());
    let message = match error {
        crate::base::json::JsonError::TooManyValues => format!("the store is too large to read: {message}"),
        crate::base::json::JsonError::Syntax(_) => format!("invalid JSON: {message}"),
    };
    FailClosed::new(StoreProblem::InvalidDocument, message)
}

/// A store file, read by its kind: `.json` is a JSON file, anything else a SQLite database.
pub fn input_for(path: &Path) -> ApprovalsInput {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") => ApprovalsInput::JsonFile(path.to_path_buf()),
        _ => ApprovalsInput::Sqlite(path.to_path_buf()),
    }
}

/// The store `version` itself reads in environment `env` with working directory `cwd`.
pub fn default_path(version: OpenClawVersion, env: &HashMap<String, String>, cwd: &Path) -> PathBuf {
    let store = &version.exec().approvals.store;
    let folder = match store.under {
        StoreDir::StateDir => crate::config::state_dir(env, cwd, version),
        StoreDir::Home => crate::config::home_dir(env, cwd),
    };
    folder.join(&store.path)
}

/// The store `version` reads when none is given: its own, if it exists (a fresh install has none
/// and behaves as an empty document).
pub fn default_input(version: OpenClawVersion, env: &HashMap<String, String>, cwd: &Path) -> ApprovalsInput {
    let path = default_path(version, env, cwd);
    if !path.exists() {
        return ApprovalsInput::None;
    }
    match version.exec().approvals.store.format {
        StoreFormat::Sqlite => ApprovalsInput::Sqlite(path),
        StoreFormat::Json => ApprovalsInput::JsonFile(path),
    }
}
