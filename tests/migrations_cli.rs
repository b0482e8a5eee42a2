//! A config in the legacy forms 2026.9 migrates while loading, through the command line: the
//! answers use the migrated roster, the release's warnings are printed, `lint` reports each form
//! where it is written and still runs every other rule, and provenance points into the file as
//! written.

use assert_cmd::Command;
use serde_json::{Value, json};

const LEGACY: &str = "fixtures/examples/legacy-roster.json5";

fn clawpolicy() -> Command {
    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// Runs a command that succeeds; returns its JSON stdout and its stderr.
fn run_json(args: &[&str]) -> (Value, String) {
    let output = clawpolicy().args(args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    (serde_json::from_slice(&output.stdout).expect("stdout is only JSON"), String::from_utf8(output.stderr).unwrap())
}

#[test]
fn tools_answers_with_the_migrated_roster_and_prints_the_migration_warnings() {
    let (doc, stderr) = run_json(&["tools", "--config", LEGACY, "--agent", "work", "--format", "json"]);
    let exec = &doc["removed"]["exec"];
    assert_eq!(exec["step"], "agents.work.tools.allow");
    assert_eq!(exec["rule"], "deny");
    // The deny entry as written: line 7, column 37 of the legacy list.
    let location = &exec["location"];
    assert!(location["file"].as_str().unwrap().ends_with("legacy-roster.json5"), "{exec}");
    assert_eq!((location["line"].as_u64(), location["column"].as_u64()), (Some(7), Some(37)), "{exec}");
    for warning in [
        "Removed models.providers.openai.contextWindow.",
        "models.providers.openai.contextWindow had no explicit model entries to receive its value",
        "Moved agents.list to keyed agents.entries.",
        "Materialized legacy per-surface agent ownership.",
        "Removed retired agents.entries.*.default markers.",
    ] {
        assert!(stderr.contains(warning), "missing warning {warning:?} in:\n{stderr}");
    }
    assert!(stderr.contains("config::migrated"), "{stderr}");
}

#[test]
fn the_default_marker_names_the_default_agent() {
    let (doc, _) = run_json(&["tools", "--config", LEGACY, "--format", "json"]);
    assert_eq!(doc["agentId"], "main");
    assert_eq!(doc["removed"]["exec"], Value::Null);
}

#[test]
fn lint_reports_each_migrated_form_where_written_and_runs_every_rule() {
    let output = clawpolicy().args(["lint", "--config", LEGACY, "--format", "json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(doc["skipped"], json!([]), "no rule waits for a valid config");
    let findings = doc["findings"].as_array().unwrap();
    let migrated: Vec<(&str, u64)> = findings
        .iter()
        .filter(|f| f["code"] == "CP109")
        .map(|f| (f["path"].as_str().unwrap(), f["location"]["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        migrated,
        [("agents.list", 5), ("agents.list[0].default", 6), ("models.providers.openai.contextWindow", 12)]
    );
    assert!(findings.iter().filter(|f| f["code"] == "CP109").all(|f| f["kind"] == "migrated"));
    let list = findings.iter().find(|f| f["path"] == "agents.list").unwrap();
    assert!(list["help"].as_str().unwrap().contains("entries: { main: { … }, work: { … } }"), "{list}");
    // Rules that need an accepted config ran on the migrated roster, at the entries as written.
    let exec_unset = findings.iter().find(|f| f["code"] == "CP410").expect("exec rules ran");
    assert_eq!(exec_unset["location"]["line"], 6, "{exec_unset}");
}

#[test]
fn a_retired_key_the_release_refuses_is_a_doctor_problem() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openclaw.json5");
    std::fs::write(&path, "{ meta: { lastTouchedVersion: \"2026.1.5\", lastTouchedAt: \"2026-01-05T10:00:00Z\" } }\n")
        .unwrap();
    let output = clawpolicy().args(["tools", "--config"]).arg(&path).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("Approved tier-eval configuration surfaces were consolidated."), "{stderr}");
    assert!(stderr.contains("doctor: the release refuses to start; `openclaw doctor --fix` repairs this"), "{stderr}");
    assert!(!stderr.contains("did you mean"), "{stderr}");
    // 2026.2 accepts it.
    clawpolicy().args(["tools", "--openclaw-version", "2026.2", "--config"]).arg(&path).assert().success();
}

#[test]
fn batch_reports_the_config_the_way_the_release_does() {
    let input = concat!(
        r#"{"id":"legacy","config":{"agents":{"list":[{"id":"main"},{"id":"work","default":true}]}},"agentId":"work"}"#,
        "\n",
        r#"{"id":"retired","config":{"meta":{"lastTouchedAt":"x"}}}"#,
        "\n"
    );
    let output = clawpolicy().args(["tools", "--batch", "-"]).write_stdin(input).output().unwrap();
    let lines: Vec<Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(
        lines[0]["config"],
        json!({"valid": true, "warnings": [
            {"path": "agents.entries", "message": "Moved agents.list to keyed agents.entries."},
            {"path": "agents.entries", "message": "Materialized legacy per-surface agent ownership."},
            {"path": "agents.entries", "message": "Removed retired agents.entries.*.default markers."}
        ]})
    );
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(
        lines[1]["config"],
        json!({"valid": false,
               "issues": [{"path": "meta", "message": "Unrecognized key: \"lastTouchedAt\"", "kind": "doctor"}],
               "legacyIssues": [{"path": "", "message": "Approved tier-eval configuration surfaces were consolidated. Run \"openclaw doctor --fix\"."}]})
    );
}

#[test]
fn explain_edits_name_where_a_legacy_roster_writes_the_key() {
    let output =
        clawpolicy().args(["explain", "exec", "--config", LEGACY, "--agent", "work", "--quiet"]).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("remove \"exec\" from agents.entries.work.tools.deny (written as agents.list[1].tools.deny)"),
        "{text}"
    );
}
