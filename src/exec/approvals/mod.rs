//! The host approvals document ("exec-approvals"): read from its store ([`store`]) as the
//! release reads it (strictly, failing closed, or tolerantly), and resolved for one agent
//! ([`resolve_for_agent`]; spec §2.6, deltas B2). The document's keys are named in [`document`].

pub mod allow_always;
pub mod document;
pub mod store;

use std::path::PathBuf;

use serde_json::Value;

use crate::OpenClawVersion;
use crate::exec::posture::{Ask, Security, Source, Sourced};
use crate::exec::satisfy::allowlist::AllowlistEntry;
use crate::release::exec::InvalidDocument;
use document::{Field, Scopes, WILDCARD};
pub use store::{FailClosed, StoreProblem};

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

/// Loads the document the way `version` reads it: strictly, failing closed on anything invalid
/// (2026.9), or tolerantly, an unparseable document reading as empty (2026.2).
pub fn load(input: &ApprovalsInput, version: OpenClawVersion) -> LoadedApprovals {
    let strict = version.exec().approvals.invalid_document == InvalidDocument::FailClosed;
    let locator = store::locator(input);
    let checked = store::read(input).and_then(|doc| match doc {
        None => Ok(document::empty()),
        Some(doc) if strict => document::validate_strict(&doc)
            .map(|()| doc)
            .map_err(|why| FailClosed::new(StoreProblem::InvalidDocument, why)),
        Some(doc) if document::is_version_one(&doc) => Ok(doc),
        Some(_) => Ok(document::empty()),
    });
    match checked {
        Ok(document) => LoadedApprovals { document, locator, fail_closed: None },
        Err(why) if strict => LoadedApprovals { document: document::fail_closed(), locator, fail_closed: Some(why) },
        Err(_) => LoadedApprovals { document: document::empty(), locator, fail_closed: None },
    }
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

/// Resolves one policy field through agent → `*` → defaults → fallback.
fn resolve_field<T: Copy + std::str::FromStr>(
    agent_id: &str,
    scopes: &Scopes,
    field: Field,
    fallback: Sourced<T>,
) -> Sourced<T> {
    let key = field.key();
    let parse = |v: &Value| v.as_str().and_then(|s| s.parse::<T>().ok());
    let default = match scopes.defaults.get(key).and_then(parse) {
        Some(v) => Sourced::new(v, Source::Approvals(format!("defaults.{key}"))),
        None => fallback,
    };
    for (scope, label) in [(&scopes.agent, agent_id), (&scopes.wildcard, WILDCARD)] {
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

/// The release's `askFallback` when the document sets none.
fn default_ask_fallback(version: OpenClawVersion) -> Security {
    let name = &version.exec().approvals.default_ask_fallback;
    name.parse().unwrap_or_else(|_| panic!("bundled approvals default askFallback `{name}` is not a security level"))
}

/// Resolves the document for `agent_id`, with the requested policy as fallback for omitted fields.
pub fn resolve_for_agent(
    doc: &Value,
    agent_id: &str,
    requested_security: Sourced<Security>,
    requested_ask: Sourced<Ask>,
    version: OpenClawVersion,
) -> AgentApprovals {
    let scopes = Scopes::of(doc, agent_id);
    let security = resolve_field(agent_id, &scopes, Field::Security, requested_security);
    let ask = resolve_field(agent_id, &scopes, Field::Ask, requested_ask);
    let ask_fallback =
        resolve_field(agent_id, &scopes, Field::AskFallback, Sourced::default_value(default_ask_fallback(version)));
    let auto_allow_skills = [&scopes.agent, &scopes.wildcard, &scopes.defaults]
        .iter()
        .find_map(|s| s.get(Field::AutoAllowSkills.key()).filter(|v| !v.is_null()))
        .is_some_and(|v| v.as_bool().unwrap_or(false));
    let mut allowlist = document::allowlist(&scopes.wildcard, &format!("agents.{WILDCARD}"));
    if agent_id != WILDCARD {
        allowlist.extend(document::allowlist(&scopes.agent, &format!("agents.{agent_id}")));
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
        let r = resolve_for_agent(&doc, "main", s, a, OpenClawVersion::V2026_9);
        assert_eq!(r.security.value, Security::Allowlist);
        assert_eq!(r.security.source, Source::Approvals("defaults.security".into()));
        assert_eq!(r.ask.value, Ask::Always);
        assert_eq!(r.allowlist.iter().map(|e| e.pattern.as_str()).collect::<Vec<_>>(), vec!["/a", "/b"]);
        assert_eq!(r.ask_fallback.value, Security::Deny);
        let (s, a) = req();
        let r = resolve_for_agent(&doc, "main", s, a, OpenClawVersion::V2026_5);
        assert_eq!(r.ask_fallback.value, Security::Full, "2026.5 falls back to full, capped later");
    }

    #[test]
    fn reads_the_sqlite_row_and_fails_closed_on_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state").join("openclaw.sqlite");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE exec_approvals_config (config_key TEXT NOT NULL PRIMARY KEY, raw_json TEXT NOT NULL) STRICT;",
        )
        .unwrap();
        let input = ApprovalsInput::Sqlite(path.clone());
        assert_eq!(
            load(&input, OpenClawVersion::V2026_9).document,
            document::empty(),
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
        assert_eq!((tolerant.document, tolerant.fail_closed), (document::empty(), None));
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
