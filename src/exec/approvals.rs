//! The host approvals document ("exec-approvals"): loading from the 2026.9 SQLite store or the
//! 2026.2 JSON file, and resolving it for one agent (spec §2.6, deltas B2).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::OpenClawVersion;
use crate::exec::posture::{Ask, Security, Source, Sourced};
use crate::exec::satisfy::allowlist::AllowlistEntry;
use crate::release::exec::InvalidDocument;

/// Where the approvals document comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum ApprovalsInput {
    /// No document: OpenClaw behaves as if it were `{version:1, agents:{}}`.
    None,
    /// A document given inline (batch cases, tests).
    Document(Value),
    /// 2026.9: `<state>/state/openclaw.sqlite`, row `exec_approvals_config`.
    Sqlite(PathBuf),
    /// 2026.2: `~/.openclaw/exec-approvals.json`.
    JsonFile(PathBuf),
}

/// A loaded document, or the reason 2026.9 fails closed.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedApprovals {
    pub document: Value,
    /// Where it was read from, for reports (`~/.openclaw/state/openclaw.sqlite#exec_approvals_config`).
    pub locator: String,
    /// Set when 2026.9 could not read a valid document and used the fail-closed defaults.
    pub fail_closed: Option<FailClosed>,
}

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
    fn new(problem: StoreProblem, detail: impl Into<String>) -> Self {
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

fn empty_document() -> Value {
    serde_json::json!({"version": 1, "agents": {}})
}

/// The document 2026.9 substitutes when the store is unreadable or invalid.
fn fail_closed_document() -> Value {
    serde_json::json!({"version": 1, "defaults": {"security": "deny", "ask": "off", "askFallback": "deny", "autoAllowSkills": false}, "agents": {}})
}

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

/// A JSON error about a store that may be any file: quoted values and credentials masked.
fn invalid_json(error: serde_json::Error) -> FailClosed {
    let message = crate::config::secrets::parse_error_message(&error.to_string());
    FailClosed::new(StoreProblem::InvalidDocument, format!("invalid JSON: {message}"))
}

/// The store path OpenClaw 2026.9 uses for a state dir (`$OPENCLAW_STATE_DIR/state/openclaw.sqlite`).
pub fn sqlite_store_path(state_dir: &Path) -> PathBuf {
    state_dir.join("state").join("openclaw.sqlite")
}

/// Loads the document the way `version` reads it: strictly, failing closed on anything invalid
/// (2026.9), or tolerantly, an unparseable document reading as empty (2026.2).
pub fn load(input: &ApprovalsInput, version: OpenClawVersion) -> LoadedApprovals {
    let strict = version.exec().approvals.invalid_document == InvalidDocument::FailClosed;
    let (raw, locator): (Result<Option<Value>, FailClosed>, String) = match input {
        ApprovalsInput::None => (Ok(None), "(none)".to_string()),
        ApprovalsInput::Document(v) => (Ok(Some(v.clone())), "(inline document)".to_string()),
        ApprovalsInput::Sqlite(p) => {
            let text = read_sqlite(p);
            let parsed = text.and_then(|t| t.map(|t| serde_json::from_str(&t).map_err(invalid_json)).transpose());
            (parsed, format!("{}#exec_approvals_config", p.display()))
        }
        ApprovalsInput::JsonFile(p) => {
            let parsed = match crate::base::userfile::read_text(p, crate::base::userfile::MAX_INPUT_BYTES) {
                Err(crate::base::userfile::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(FailClosed::new(StoreProblem::Broken, e.to_string())),
                Ok(t) => serde_json::from_str(&t).map(Some).map_err(invalid_json),
            };
            (parsed, p.display().to_string())
        }
    };
    let checked = raw.and_then(|doc| match doc {
        None => Ok(empty_document()),
        Some(doc) if strict => {
            validate_strict(&doc).map(|()| doc).map_err(|why| FailClosed::new(StoreProblem::InvalidDocument, why))
        }
        Some(doc) if doc.get("version").and_then(Value::as_i64) == Some(1) && doc.is_object() => Ok(doc),
        Some(_) => Ok(empty_document()),
    });
    match checked {
        Ok(document) => LoadedApprovals { document, locator, fail_closed: None },
        Err(why) if strict => LoadedApprovals { document: fail_closed_document(), locator, fail_closed: Some(why) },
        Err(_) => LoadedApprovals { document: empty_document(), locator, fail_closed: None },
    }
}

/// 2026.9's strict read schema for a stored document (invalid enum values, non-string patterns…).
fn validate_strict(doc: &Value) -> Result<(), String> {
    let obj = doc.as_object().ok_or("document is not an object")?;
    if obj.get("version").and_then(Value::as_i64) != Some(1) {
        return Err("version must be 1".into());
    }
    let check_policy = |scope: &Map<String, Value>, at: &str| -> Result<(), String> {
        for (key, parse) in
            [("security", is_security as fn(&str) -> bool), ("ask", is_ask), ("askFallback", is_security)]
        {
            if scope.get(key).is_some_and(|v| !v.as_str().is_some_and(parse)) {
                return Err(format!("{at}.{key} is invalid"));
            }
        }
        if scope.get("autoAllowSkills").is_some_and(|v| !v.is_boolean()) {
            return Err(format!("{at}.autoAllowSkills is invalid"));
        }
        Ok(())
    };
    if let Some(defaults) = obj.get("defaults") {
        check_policy(defaults.as_object().ok_or("defaults is not an object")?, "defaults")?;
    }
    if let Some(agents) = obj.get("agents") {
        for (id, agent) in agents.as_object().ok_or("agents is not an object")? {
            if id == "__proto__" {
                return Err("agents.__proto__ is rejected".into());
            }
            let agent = agent.as_object().ok_or(format!("agents.{id} is not an object"))?;
            check_policy(agent, &format!("agents.{id}"))?;
            for (i, entry) in agent.get("allowlist").and_then(Value::as_array).into_iter().flatten().enumerate() {
                let ok = entry.is_string()
                    || entry.get("pattern").is_some_and(|p| p.as_str().is_some_and(|s| !s.is_empty()));
                if !ok {
                    return Err(format!("agents.{id}.allowlist[{i}] has no valid pattern"));
                }
            }
        }
    }
    Ok(())
}

fn is_security(s: &str) -> bool {
    s.parse::<Security>().is_ok()
}

fn is_ask(s: &str) -> bool {
    s.parse::<Ask>().is_ok()
}

/// The document resolved for one agent (`resolveExecApprovalsFromFile`).
#[derive(Debug, Clone, PartialEq)]
pub struct AgentApprovals {
    pub security: Sourced<Security>,
    pub ask: Sourced<Ask>,
    pub ask_fallback: Sourced<Security>,
    pub auto_allow_skills: bool,
    /// `agents["*"].allowlist` followed by the agent's own.
    pub allowlist: Vec<AllowlistEntry>,
}

/// Merges `agents.default` into `agents.main` (normalization on load; both releases).
fn agents_map(doc: &Value) -> Map<String, Value> {
    let mut agents = doc.get("agents").and_then(Value::as_object).cloned().unwrap_or_default();
    if let Some(Value::Object(legacy)) = agents.remove("default") {
        let mut main = agents.get("main").and_then(Value::as_object).cloned().unwrap_or_default();
        let mut merged_list: Vec<Value> =
            legacy.get("allowlist").and_then(Value::as_array).cloned().unwrap_or_default();
        merged_list.extend(main.get("allowlist").and_then(Value::as_array).cloned().unwrap_or_default());
        for (k, v) in legacy {
            main.entry(k).or_insert(v);
        }
        if !merged_list.is_empty() {
            main.insert("allowlist".into(), Value::Array(merged_list));
        }
        agents.insert("main".into(), Value::Object(main));
    }
    agents
}

/// Resolves one policy field through agent → `*` → defaults → fallback.
fn resolve_field<T: Copy + std::str::FromStr>(
    agent_id: &str,
    agent: &Map<String, Value>,
    wildcard: &Map<String, Value>,
    defaults: &Map<String, Value>,
    key: &str,
    fallback: Sourced<T>,
) -> Sourced<T> {
    let parse = |v: &Value| v.as_str().and_then(|s| s.parse::<T>().ok());
    let default = match defaults.get(key).and_then(parse) {
        Some(v) => Sourced::new(v, Source::Approvals(format!("defaults.{key}"))),
        None => fallback,
    };
    for (scope, label) in [(agent, agent_id), (wildcard, "*")] {
        if let Some(raw) = scope.get(key).filter(|v| !v.is_null()) {
            // A present but invalid value skips straight to defaults (2026.9) — 2026.2 does the same
            // through `normalizeSecurity(agent ?? wildcard ?? defaults, defaults)`.
            return match parse(raw) {
                Some(v) => Sourced::new(v, Source::Approvals(format!("agents.{label}.{key}"))),
                None => default,
            };
        }
    }
    default
}

/// Resolves the document for `agent_id`, with the requested policy as fallback for omitted fields.
pub fn resolve_for_agent(
    doc: &Value,
    agent_id: &str,
    requested_security: Sourced<Security>,
    requested_ask: Sourced<Ask>,
) -> AgentApprovals {
    let agents = agents_map(doc);
    let empty = Map::new();
    let obj = |v: Option<&Value>| v.and_then(Value::as_object).cloned().unwrap_or_default();
    let agent = obj(agents.get(agent_id));
    let wildcard = obj(agents.get("*"));
    let defaults = obj(doc.get("defaults"));
    let security = resolve_field(agent_id, &agent, &wildcard, &defaults, "security", requested_security);
    let ask = resolve_field(agent_id, &agent, &wildcard, &defaults, "ask", requested_ask);
    let ask_fallback =
        resolve_field(agent_id, &agent, &wildcard, &defaults, "askFallback", Sourced::default_value(Security::Deny));
    let auto_allow_skills = [&agent, &wildcard, &defaults]
        .iter()
        .find_map(|s| s.get("autoAllowSkills").filter(|v| !v.is_null()))
        .is_some_and(|v| v.as_bool().unwrap_or(false));
    let mut allowlist = Vec::new();
    for (label, scope) in [("*", &wildcard), (agent_id, if agent_id == "*" { &empty } else { &agent })] {
        for (i, entry) in scope.get("allowlist").and_then(Value::as_array).into_iter().flatten().enumerate() {
            if let Some(e) = AllowlistEntry::from_json(entry, format!("agents.{label}.allowlist[{i}]")) {
                allowlist.push(e);
            }
        }
    }
    AgentApprovals { security, ask, ask_fallback, auto_allow_skills, allowlist }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn an_approvals_fifo_is_refused_not_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["approvals.json", "openclaw.sqlite"] {
            let fifo = dir.path().join(name);
            assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
            assert!(matches!(
                crate::base::userfile::ensure_regular_file(&fifo),
                Err(crate::base::userfile::ReadError::NotRegular("a FIFO"))
            ));
            for input in [ApprovalsInput::JsonFile(fifo.clone()), ApprovalsInput::Sqlite(fifo.clone())] {
                let loaded = load(&input, OpenClawVersion::V2026_9);
                assert!(loaded.fail_closed.is_some_and(|why| why.to_string().contains("not a regular file")));
            }
        }
    }

    use serde_json::json;

    fn req() -> (Sourced<Security>, Sourced<Ask>) {
        (Sourced::default_value(Security::Full), Sourced::default_value(Ask::Off))
    }

    #[test]
    fn agent_then_wildcard_then_defaults() {
        let doc = json!({"version":1,"defaults":{"security":"allowlist"},"agents":{"*":{"ask":"always","allowlist":["/a"]},"main":{"allowlist":[{"pattern":"/b"}]}}});
        let (s, a) = req();
        let r = resolve_for_agent(&doc, "main", s, a);
        assert_eq!(r.security.value, Security::Allowlist);
        assert_eq!(r.security.source, Source::Approvals("defaults.security".into()));
        assert_eq!(r.ask.value, Ask::Always);
        assert_eq!(r.allowlist.iter().map(|e| e.pattern.as_str()).collect::<Vec<_>>(), vec!["/a", "/b"]);
        assert_eq!(r.ask_fallback.value, Security::Deny);
    }

    #[test]
    fn reads_the_sqlite_row_and_fails_closed_on_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let path = sqlite_store_path(dir.path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE exec_approvals_config (config_key TEXT NOT NULL PRIMARY KEY, raw_json TEXT NOT NULL) STRICT;",
        )
        .unwrap();
        let input = ApprovalsInput::Sqlite(path.clone());
        assert_eq!(
            load(&input, OpenClawVersion::V2026_9).document,
            empty_document(),
            "a missing row is an empty document"
        );
        conn.execute(
            "INSERT INTO exec_approvals_config VALUES ('current', ?1)",
            [r#"{"version":1,"defaults":{"security":"allowlist"}}"#],
        )
        .unwrap();
        let loaded = load(&input, OpenClawVersion::V2026_9);
        assert_eq!(loaded.fail_closed, None);
        assert_eq!(loaded.document["defaults"]["security"], "allowlist");
        drop(conn);
        std::fs::write(&path, b"not a database").unwrap();
        let corrupt = load(&input, OpenClawVersion::V2026_9);
        assert_eq!(corrupt.fail_closed.map(|f| f.problem), Some(StoreProblem::Broken));
        assert_eq!(corrupt.document["defaults"]["security"], "deny");
        let legacy = dir.path().join("exec-approvals.json");
        std::fs::write(&legacy, b"{ not json").unwrap();
        let tolerant = load(&ApprovalsInput::JsonFile(legacy), OpenClawVersion::V2026_2);
        assert_eq!((tolerant.document, tolerant.fail_closed), (empty_document(), None));
    }

    #[test]
    fn a_locked_store_is_reported_as_locked_not_broken() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("openclaw.sqlite");
        let writer = rusqlite::Connection::open(&path).unwrap();
        writer
            .execute_batch(
                "CREATE TABLE exec_approvals_config (config_key TEXT PRIMARY KEY, raw_json TEXT NOT NULL);
                 INSERT INTO exec_approvals_config VALUES ('current', '{\"version\":1}');
                 BEGIN EXCLUSIVE;",
            )
            .unwrap();
        let started = std::time::Instant::now();
        let locked = load(&ApprovalsInput::Sqlite(path.clone()), OpenClawVersion::V2026_9);
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "no 5 s stall");
        let fail_closed = locked.fail_closed.expect("a locked store fails closed, as OpenClaw does after 5 s");
        assert_eq!(fail_closed.problem, StoreProblem::Locked);
        assert!(fail_closed.to_string().starts_with("the store is locked by another process"), "{fail_closed}");
        assert_eq!(locked.document["defaults"]["security"], "deny");
        writer.execute_batch("COMMIT;").unwrap();
        let unlocked = load(&ApprovalsInput::Sqlite(path), OpenClawVersion::V2026_9);
        assert_eq!(unlocked.fail_closed, None);
    }

    #[test]
    fn invalid_stored_document_fails_closed_in_v9_only() {
        let doc = json!({"version":1,"agents":{"main":{"security":"bogus"}}});
        let v9 = load(&ApprovalsInput::Document(doc.clone()), OpenClawVersion::V2026_9);
        assert!(v9.fail_closed.is_some());
        assert_eq!(v9.document["defaults"]["security"], "deny");
        let v2 = load(&ApprovalsInput::Document(doc), OpenClawVersion::V2026_2);
        assert!(v2.fail_closed.is_none());
        let missing = load(&ApprovalsInput::Sqlite("/nonexistent/openclaw.sqlite".into()), OpenClawVersion::V2026_9);
        assert!(missing.fail_closed.is_some());
    }
}
