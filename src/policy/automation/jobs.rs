//! Stored cron jobs, read the way the release stores them (`cron.store` in
//! `data/<line>/automation.json`): 2026.2's JSON5 file `<state>/cron/jobs.json`
//! (`{version, jobs: [...]}`), 2026.9's table `cron_jobs` of the state database, whose rows of one
//! store carry the absolute path of `<state>/cron/jobs.json` as `store_key`. Reads are bounded and
//! never follow into FIFOs or devices (`base::userfile`); the database is opened read-only.
//!
//! A job is kept as the JSON object the release stored, read loosely as its JavaScript reads it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::OpenClawVersion;
use crate::base::userfile::{self, MAX_INPUT_BYTES};
use crate::release::automation::JobStoreFormat;

/// One stored job, as the release stored it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CronJob(pub Value);

impl CronJob {
    fn text(&self, key: &str) -> Option<&str> {
        self.0.get(key)?.as_str().map(str::trim).filter(|s| !s.is_empty())
    }

    /// `id` (or the legacy `jobId`).
    pub fn id(&self) -> Option<&str> {
        self.text("id").or_else(|| self.text("jobId"))
    }

    pub fn name(&self) -> Option<&str> {
        self.text("name")
    }

    /// `enabled`, `true` unless it is `false`.
    pub fn enabled(&self) -> bool {
        self.0.get("enabled").and_then(Value::as_bool) != Some(false)
    }

    pub fn agent_id(&self) -> Option<&str> {
        self.text("agentId")
    }

    /// `sessionTarget` as written (trimmed); absent for a legacy job.
    pub fn session_target(&self) -> Option<&str> {
        self.text("sessionTarget")
    }

    fn payload(&self) -> Option<&Value> {
        self.0.get("payload").filter(|p| p.is_object())
    }

    /// `payload.kind` (`agentTurn`, `systemEvent`, 2026.9 `command`…).
    pub fn payload_kind(&self) -> Option<&str> {
        self.payload()?.get("kind")?.as_str()
    }

    /// `payload.toolsAllow`: its string entries, when it is a list.
    pub fn tools_allow(&self) -> Option<Vec<String>> {
        let list = self.payload()?.get("toolsAllow")?.as_array()?;
        Some(list.iter().filter_map(Value::as_str).map(str::to_string).collect())
    }

    /// `delivery`, when it is an object.
    pub fn delivery(&self) -> Option<&Value> {
        self.0.get("delivery").filter(|d| d.is_object())
    }

    /// The legacy `payload.deliver` switch and `payload.channel` / `payload.to` target.
    pub fn payload_field(&self, key: &str) -> Option<&Value> {
        self.payload()?.get(key)
    }
}

/// The jobs of one store, in the release's order, or why they cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub struct JobStore {
    /// Where the jobs were read from (`<state>/state/openclaw.sqlite#cron_jobs`).
    pub locator: String,
    pub jobs: Vec<CronJob>,
}

/// Why a jobs store cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read the cron jobs store {locator}: {detail}")]
pub struct JobStoreError {
    pub locator: String,
    pub detail: String,
}

/// Where a store is, and (a SQLite state database) which of its rows are the store's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreLocation {
    pub path: PathBuf,
    /// 2026.9: the `store_key` of the store's rows, the absolute path of the jobs file the store
    /// stands for (`cron.store`, or `<state>/cron/jobs.json`). `None`: a JSON file.
    pub partition: Option<String>,
    /// A database given on the command line may be a copy from the gateway's machine, whose rows
    /// carry that machine's path: when none carries `partition` and all carry one other key, that
    /// store is read.
    pub copied: bool,
}

/// The store `version` itself reads: under the state directory `state_dir`, or where `cron.store`
/// (already made absolute) points (2026.2 reads the file named; 2026.9 the rows keyed by it).
pub fn location(version: OpenClawVersion, state_dir: &Path, cron_store: Option<&Path>) -> StoreLocation {
    let store = &version.automation().cron.store;
    match (store.format, &store.partition) {
        (JobStoreFormat::Sqlite, Some(partition)) => StoreLocation {
            path: state_dir.join(&store.path),
            partition: Some(key_of(&cron_store.map_or_else(|| state_dir.join(partition), Path::to_path_buf))),
            copied: false,
        },
        _ => StoreLocation {
            path: cron_store.map_or_else(|| state_dir.join(&store.path), Path::to_path_buf),
            partition: None,
            copied: false,
        },
    }
}

/// A store given on the command line: a `.json`/`.json5` file is read as a jobs file, anything
/// else as a state database holding the rows `version` would read.
pub fn given(version: OpenClawVersion, path: &Path, state_dir: &Path, cron_store: Option<&Path>) -> StoreLocation {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json" | "json5") => StoreLocation { path: path.to_path_buf(), partition: None, copied: false },
        _ => {
            let own = location(version, state_dir, cron_store);
            let partition = own.partition.unwrap_or_else(|| key_of(&state_dir.join("cron/jobs.json")));
            StoreLocation { path: path.to_path_buf(), partition: Some(partition), copied: true }
        }
    }
}

/// `path.resolve` of a jobs-file path: absolute, `.` and `..` folded lexically.
fn key_of(path: &Path) -> String {
    let joined =
        if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(path) };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out.to_string_lossy().into_owned()
}

/// Reads the jobs of a store. A store that does not exist holds no jobs, as the release reads it.
pub fn read(location: &StoreLocation) -> Result<JobStore, JobStoreError> {
    match &location.partition {
        Some(key) => read_sqlite(&location.path, key, location.copied),
        None => read_json(&location.path),
    }
}

fn read_json(path: &Path) -> Result<JobStore, JobStoreError> {
    let locator = path.display().to_string();
    let error = |detail: String| JobStoreError { locator: locator.clone(), detail };
    let text = match userfile::read_text(path, MAX_INPUT_BYTES) {
        Err(userfile::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(JobStore { locator, jobs: Vec::new() });
        }
        Err(e) => return Err(error(e.to_string())),
        Ok(text) => text,
    };
    let parsed = crate::config::json5::parse(path.to_path_buf(), text).document.map_err(|e| error(e.message))?;
    let root = parsed.root.to_value();
    let jobs = root.get("jobs").and_then(Value::as_array).cloned().unwrap_or_default();
    // The release drops falsy entries (`filter(Boolean)`).
    let truthy = |job: &Value| !matches!(job, Value::Null | Value::Bool(false)) && job != "" && job != 0;
    Ok(JobStore { locator, jobs: jobs.into_iter().filter(truthy).map(CronJob).collect() })
}

fn read_sqlite(path: &Path, store_key: &str, copied: bool) -> Result<JobStore, JobStoreError> {
    let locator = format!("{}#cron_jobs", path.display());
    let error = |detail: String| JobStoreError { locator: locator.clone(), detail };
    let Some(conn) = crate::base::sqlite::open_table(path, "cron_jobs").map_err(error)? else {
        return Ok(JobStore { locator, jobs: Vec::new() });
    };
    let sql = |e: rusqlite::Error| error(e.to_string());
    let mut store_key = store_key.to_string();
    if copied {
        let mut keys = conn.prepare("SELECT DISTINCT store_key FROM cron_jobs ORDER BY store_key").map_err(sql)?;
        let keys: Vec<String> =
            keys.query_map([], |r| r.get(0)).map_err(sql)?.collect::<Result<_, _>>().map_err(sql)?;
        match keys.as_slice() {
            _ if keys.contains(&store_key) => {}
            [only] => store_key = only.clone(),
            [] => {}
            several => {
                let listed = several.join(", ");
                return Err(error(format!(
                    "it holds the jobs of several stores ({listed}) and none is {store_key}; set OPENCLAW_STATE_DIR (or cron.store) as on the gateway"
                )));
            }
        }
    }
    let mut stmt = conn
        .prepare(
            "SELECT job_id, job_json FROM cron_jobs WHERE store_key = ?1 \
             ORDER BY sort_order ASC, updated_at ASC, job_id ASC",
        )
        .map_err(sql)?;
    let rows = stmt.query_map([&store_key], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))).map_err(sql)?;
    let mut jobs = Vec::new();
    let mut bytes = 0u64;
    for row in rows {
        let (id, text) = row.map_err(sql)?;
        bytes += text.len() as u64;
        if bytes > MAX_INPUT_BYTES {
            return Err(error(format!("the jobs add up to more than {MAX_INPUT_BYTES} bytes")));
        }
        // A row the release cannot decode is skipped, as its loader skips it.
        let Ok(Value::Object(mut job)) = crate::base::json::from_str::<Value>(&text) else { continue };
        job.insert("id".into(), Value::String(id));
        jobs.push(CronJob(restore_pinned_exec(Value::Object(job))));
    }
    Ok(JobStore { locator, jobs })
}

/// 2026.9 stores a job whose cap pins `exec` to the gateway without `exec` in
/// `payload.toolsAllow`, and puts it back at `grantIndex` when the stored restriction and
/// requirement agree (`restoreCronPinnedExecGrant`).
fn restore_pinned_exec(mut job: Value) -> Value {
    let target_ok = |t: &Value| {
        t.get("version") == Some(&Value::from(1))
            && t.get("host").and_then(Value::as_str) == Some("gateway")
            && t.get("ask").is_none_or(|a| a == "always")
    };
    let requirement = job.get("toolsAllowExecTargetRequirement");
    let target = job.get("toolsAllowExecTarget");
    let index = requirement
        .filter(|r| r.get("version") == Some(&Value::from(1)) && r.get("recoveryRequired") != Some(&Value::Bool(true)))
        .and_then(|r| {
            let pinned = r.get("target").filter(|t| target_ok(t))?;
            let stored = target.filter(|t| target_ok(t))?;
            (pinned.get("ask") == stored.get("ask")).then_some(())?;
            r.get("grantIndex")?.as_u64()
        });
    let Some(index) = index else { return job };
    if let Some(list) = job.pointer_mut("/payload/toolsAllow").and_then(Value::as_array_mut)
        && !list.iter().any(|t| t == "exec")
    {
        let at = (index as usize).min(list.len());
        list.insert(at, Value::String("exec".into()));
    }
    job
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_json_store_keeps_truthy_jobs_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("jobs.json");
        std::fs::write(&path, "{version: 1, jobs: [{id: 'b'}, null, false, {jobId: 'a', enabled: false}]}").unwrap();
        let v2 = OpenClawVersion::V2026_2;
        assert_eq!(location(v2, dir.path(), None).path, dir.path().join("cron/jobs.json"));
        let store = read(&given(v2, &path, dir.path(), None)).unwrap();
        let ids: Vec<_> = store.jobs.iter().map(|j| j.id().unwrap()).collect();
        assert_eq!(ids, ["b", "a"]);
        assert!(!store.jobs[1].enabled());
        let missing = read(&given(v2, &dir.path().join("none.json"), dir.path(), None)).unwrap();
        assert!(missing.jobs.is_empty());
        std::fs::write(&path, "{jobs: [").unwrap();
        assert!(read(&given(v2, &path, dir.path(), None)).is_err());
    }

    #[test]
    fn a_sqlite_store_reads_its_own_partition_and_restores_pinned_exec() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("state").join("openclaw.sqlite");
        std::fs::create_dir_all(db.parent().unwrap()).unwrap();
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE cron_jobs (store_key TEXT, job_id TEXT, job_json TEXT, sort_order INTEGER, updated_at INTEGER)",
        )
        .unwrap();
        let key = key_of(&dir.path().join("cron/jobs.json"));
        let pinned = json!({"payload": {"kind": "agentTurn", "toolsAllow": ["read", "write"]},
            "toolsAllowExecTarget": {"version": 1, "host": "gateway"},
            "toolsAllowExecTargetRequirement": {"version": 1, "target": {"version": 1, "host": "gateway"}, "grantIndex": 1}});
        for (store, id, json, order) in [
            (key.as_str(), "second", json!({}), 2),
            ("/elsewhere/jobs.json", "other", json!({}), 0),
            (key.as_str(), "first", pinned, 1),
        ] {
            conn.execute("INSERT INTO cron_jobs VALUES (?1, ?2, ?3, ?4, 0)", (store, id, json.to_string(), order))
                .unwrap();
        }
        drop(conn);
        let v9 = OpenClawVersion::V2026_9;
        let store = read(&location(v9, dir.path(), None)).unwrap();
        let ids: Vec<_> = store.jobs.iter().map(|j| j.id().unwrap()).collect();
        assert_eq!(ids, ["first", "second"]);
        assert_eq!(store.jobs[0].tools_allow().unwrap(), ["read", "exec", "write"]);
        // A copy read on another machine: the one store it holds is read; several are an error.
        let elsewhere = tempfile::tempdir().unwrap();
        let copy = given(v9, &db, elsewhere.path(), None);
        assert!(read(&copy).is_err(), "two stores, neither this machine's");
        let single = rusqlite::Connection::open(&db).unwrap();
        single.execute("DELETE FROM cron_jobs WHERE store_key = '/elsewhere/jobs.json'", []).unwrap();
        drop(single);
        assert_eq!(read(&copy).unwrap().jobs.len(), 2);
    }
}
