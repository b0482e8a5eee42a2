//! Automation runs on a published multi-agent config with per-agent heartbeats: `--run heartbeat`
//! and `--run cron --job` (jobs read from each release's own store: 2026.2's `cron/jobs.json`,
//! 2026.9's state database), exec without an approver, the `heartbeat` and `cron:<id>` contexts of
//! `matrix`, `who-can` and `test`, and the lint rules about them.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};

const CLAWS: &str = "fixtures/real-world/claws-and-pincers";

fn config(release: &str) -> String {
    format!("{CLAWS}/accepted-{release}.json5")
}

fn clawpolicy(state: Option<&Path>) -> Command {
    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).arg("--quiet");
    if let Some(state) = state {
        cmd.env("OPENCLAW_STATE_DIR", state).env("HOME", state);
    }
    cmd
}

fn json_of(release: &str, state: Option<&Path>, args: &[&str]) -> Value {
    let output = clawpolicy(state)
        .args(args)
        .args(["--config", &config(release), "--openclaw-version", release, "--format", "json"])
        .output()
        .unwrap();
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)))
}

fn names(doc: &Value) -> Vec<&str> {
    doc["tools"].as_array().unwrap().iter().filter_map(Value::as_str).collect()
}

/// The developer's nightly job (capped to exec and read, announcing on Discord) and the
/// orchestrator's (which asks for exec, which that agent denies).
fn jobs() -> Vec<Value> {
    let job = |id: &str, agent: &str, cap: Value| {
        json!({"id": id, "name": format!("{id} run"), "enabled": true, "agentId": agent, "sessionTarget": "isolated",
               "schedule": {"kind": "cron", "expr": "0 3 * * *"},
               "payload": {"kind": "agentTurn", "message": "nightly maintenance", "toolsAllow": cap},
               "delivery": {"mode": "announce", "channel": "discord", "to": "channel:1"}})
    };
    vec![job("nightly", "developer", json!(["exec", "read"])), job("digest", "orchestrator", json!(["exec", "read"]))]
}

/// A state directory holding the jobs where `release` keeps them.
fn state_with_jobs(release: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let store = if release == "2026.2" {
        let path = dir.path().join("cron/jobs.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, json!({"version": 1, "jobs": jobs()}).to_string()).unwrap();
        path
    } else {
        let path = dir.path().join("state/openclaw.sqlite");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE cron_jobs (store_key TEXT NOT NULL, job_id TEXT NOT NULL, job_json TEXT NOT NULL, \
             sort_order INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL, PRIMARY KEY (store_key, job_id))",
        )
        .unwrap();
        let key = dir.path().join("cron/jobs.json").to_string_lossy().into_owned();
        for (i, job) in jobs().into_iter().enumerate() {
            let id = job["id"].as_str().unwrap().to_string();
            conn.execute("INSERT INTO cron_jobs VALUES (?1, ?2, ?3, ?4, 0)", (&key, &id, job.to_string(), i as i64))
                .unwrap();
        }
        path
    };
    (dir, store)
}

#[test]
fn a_heartbeat_runs_in_the_main_session_with_the_agents_policy() {
    for release in ["2026.9", "2026.2"] {
        let doc = json_of(release, None, &["tools", "--run", "heartbeat", "--agent", "developer"]);
        assert_eq!(doc["automation"]["run"], "heartbeat", "{release}");
        assert_eq!(doc["sessionKey"], "agent:developer:main", "{release}");
        assert!(names(&doc).contains(&"exec"), "{release}: {doc}");
        let orchestrator = json_of(release, None, &["tools", "--run", "heartbeat", "--agent", "orchestrator"]);
        assert!(!names(&orchestrator).contains(&"exec"), "{release}: the orchestrator denies exec");
    }
}

#[test]
fn a_cron_job_is_read_from_the_releases_own_store() {
    for release in ["2026.9", "2026.2"] {
        let (state, _) = state_with_jobs(release);
        let doc = json_of(release, Some(state.path()), &["tools", "--run", "cron", "--job", "nightly"]);
        assert_eq!(doc["agentId"], "developer", "{release}: {doc}");
        assert_eq!(doc["automation"]["jobId"], "nightly");
        if release == "2026.9" {
            assert_eq!(doc["sessionKey"], "agent:developer:cron:nightly:run:scheduled");
            assert_eq!(names(&doc), ["exec", "read"], "the job's toolsAllow caps the run");
            assert_eq!(doc["removed"]["write"]["step"], "runtime toolsAllow (per-run cap)");
        } else {
            assert_eq!(doc["sessionKey"], "agent:developer:cron:nightly");
            assert!(names(&doc).contains(&"write"), "2026.2 has no per-run cap: {doc}");
            assert!(doc["automation"]["notes"][0].as_str().unwrap().contains("ignores the job's payload.toolsAllow"));
            assert!(doc["automation"]["notBuilt"]["message"].is_string(), "an announcing job builds no message tool");
        }
    }
}

#[test]
fn an_unknown_job_and_a_job_without_a_cron_run_are_usage_errors() {
    let (state, _) = state_with_jobs("2026.2");
    let unknown = clawpolicy(Some(state.path()))
        .args([
            "tools",
            "--config",
            &config("2026.2"),
            "--openclaw-version",
            "2026.2",
            "--run",
            "cron",
            "--job",
            "nightlly",
        ])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&unknown.get_output().stderr).into_owned();
    assert!(stderr.contains("no job `nightlly`") && stderr.contains("did you mean `nightly`"), "{stderr}");
    clawpolicy(Some(state.path()))
        .args(["tools", "--config", &config("2026.2"), "--openclaw-version", "2026.2", "--job", "nightly"])
        .assert()
        .code(2);
}

#[test]
fn exec_in_an_unattended_run_is_decided_by_the_fallback() {
    let dir = tempfile::tempdir().unwrap();
    let approvals = dir.path().join("approvals.json");
    std::fs::write(&approvals, r#"{"version": 1, "defaults": {"ask": "always"}}"#).unwrap();
    let approvals = approvals.to_str().unwrap();
    for release in ["2026.9", "2026.2"] {
        let run = ["exec", "ls -la", "--run", "heartbeat", "--agent", "developer", "--approvals", approvals];
        let doc = json_of(release, None, &run);
        assert_eq!(doc["decision"], "deny", "{release}: {doc}");
        assert_eq!(doc["noApprover"]["askFallback"], "deny");
        assert_eq!(doc["noApprover"]["reason"], "approval-timeout");
        let chat = json_of(release, None, &["exec", "ls -la", "--agent", "developer", "--approvals", approvals]);
        assert_eq!(chat["decision"], "ask", "{release}: a chat turn has someone to ask");
    }
}

#[test]
fn matrix_and_who_can_list_heartbeats_and_stored_jobs() {
    let (state, store) = state_with_jobs("2026.9");
    let store = store.to_str().unwrap();
    let doc = json_of("2026.9", Some(state.path()), &["matrix", "--jobs", store]);
    let developer = doc["agents"].as_array().unwrap().iter().find(|a| a["agentId"] == "developer").unwrap();
    let contexts: Vec<&str> =
        developer["cells"].as_array().unwrap().iter().filter_map(|c| c["context"].as_str()).collect();
    assert!(contexts.contains(&"heartbeat") && contexts.contains(&"cron:nightly"), "{contexts:?}");
    let who = json_of("2026.9", Some(state.path()), &["who-can", "write", "--jobs", store]);
    let cells: Vec<String> =
        who["matches"].as_array().unwrap().iter().map(|s| format!("{}/{}", s["agentId"], s["context"])).collect();
    assert!(!cells.iter().any(|c| c.contains("cron:nightly")), "the nightly cap leaves no write: {cells:?}");
}

#[test]
fn lint_finds_a_cap_the_policy_strips() {
    let (state, store) = state_with_jobs("2026.9");
    let output = clawpolicy(Some(state.path()))
        .args([
            "lint",
            "--config",
            &config("2026.9"),
            "--jobs",
            store.to_str().unwrap(),
            "--format",
            "json",
            "--only",
            "CP308",
        ])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let finding = &findings[0];
    assert!(
        finding["message"].as_str().unwrap().starts_with("job `digest` (agent `orchestrator`) names `exec`"),
        "{finding}"
    );
    assert!(finding["location"]["file"].as_str().unwrap().ends_with("accepted-2026.9.json5"), "{finding}");
}

#[test]
fn a_suite_checks_a_cron_run() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.yaml");
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::write(
        &suite,
        format!(
            "config: [{root}/{}]\ncases:\n  - name: nightly keeps exec\n    context:\n      run: cron\n      job: {{id: nightly, agentId: developer, sessionTarget: isolated, payload: {{kind: agentTurn, toolsAllow: [exec, read]}}}}\n    expect:\n      exactly: [exec, read]\n",
            config("2026.9")
        ),
    )
    .unwrap();
    clawpolicy(None).args(["test", suite.to_str().unwrap()]).assert().success();
}
