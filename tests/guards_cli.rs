//! `url`, `path` and `simulate` as users and CI see them: exit codes, every output format
//! (insta snapshots), batch lines, and clear errors for bad input.

use assert_cmd::Command;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn clawpolicy() -> Command {
    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    cmd.current_dir(ROOT)
        .env("OPENCLAW_STATE_DIR", format!("{ROOT}/fixtures/paths/no-state"))
        .env("HOME", "/nonexistent-home");
    cmd
}

/// Runs and returns (exit code, stdout with the checkout path replaced by `[ROOT]`, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let output = clawpolicy().args(args).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap().replace(ROOT, "[ROOT]");
    (output.status.code().unwrap(), stdout, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn url_formats_and_exit_codes() {
    let args = ["url", "http://0x7f.1/admin", "--redirect", "/x"];
    let (code, table, _) = run(&args);
    assert_eq!(code, 1);
    insta::assert_snapshot!("url_table", table);
    let (_, json, _) = run(&[&args[..], &["--format", "json"]].concat());
    insta::assert_snapshot!("url_json", json);
    let (_, yaml, _) = run(&[&args[..], &["--format", "yaml"]].concat());
    insta::assert_snapshot!("url_yaml", yaml);
    let (code, chain, _) =
        run(&["url", "https://example.com/", "--dns", "example.com=93.184.216.34", "--redirect", "/next"]);
    assert_eq!(code, 0, "{chain}");
    assert!(chain.starts_with("ALLOWED"));
}

#[test]
fn url_policy_flags_per_release() {
    let (code, _, _) = run(&["url", "http://10.0.0.1/", "--allow-private-network"]);
    assert_eq!(code, 0);
    let (code, _, stderr) =
        run(&["--openclaw-version", "2026.2", "url", "http://a.example/", "--blocked-hostname", "a.example"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("has no `blockedHostnames`"), "{stderr}");
    let (code, _, stderr) = run(&["url", "http://a.example/", "--dns", "a.example"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--dns wants HOST=IP"), "{stderr}");
}

#[test]
fn url_batch_answers_every_line() {
    let input = "\"http://10.0.0.1/\"\n{\"id\": 2, \"url\": \"http://a.example/\", \"dns\": {\"a.example\": [\"8.8.8.8\"]}}\nnot json\n";
    let output = clawpolicy().args(["url", "--batch", "-"]).write_stdin(input).output().unwrap();
    assert!(output.status.success());
    let lines: Vec<Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!((lines[0]["verdict"].as_str(), lines[1]["verdict"].as_str()), (Some("blocked"), Some("allowed")));
    assert_eq!(lines[1]["id"], 2);
    assert_eq!(lines[2]["verdict"], "error");
    assert!(lines.iter().all(|l| l["schemaVersion"] == 1));
}

#[test]
fn path_formats_and_symlink_escape() {
    let ws = format!("{ROOT}/fixtures/paths/ws");
    let config = "fixtures/paths/workspace-only.json5";
    let args = ["path", "escape/secret", "--workspace", &ws, "--config", config];
    let (code, table, _) = run(&args);
    assert_eq!(code, 1);
    insta::assert_snapshot!("path_table", table);
    let (_, json, _) = run(&[&args[..], &["--format", "json"]].concat());
    insta::assert_snapshot!("path_json", json);
    let (_, yaml, _) = run(&[&args[..], &["--format", "yaml"]].concat());
    insta::assert_snapshot!("path_yaml", yaml);
    let (code, _, _) = run(&["path", "src/main.rs", "--write", "--workspace", &ws, "--config", config]);
    assert_eq!(code, 0);
    let (code, _, stderr) = run(&["path", "x", "--tool", "ls", "--write"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn simulate_formats_and_expectations() {
    let scenario = "fixtures/scenarios/hooks-and-loops.yaml";
    let (code, table, stderr) = run(&["simulate", scenario]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("simulate_table", table);
    let (_, json, _) = run(&["simulate", scenario, "--format", "json"]);
    insta::assert_snapshot!("simulate_json", json);
    let (_, yaml, _) = run(&["simulate", scenario, "--format", "yaml"]);
    insta::assert_snapshot!("simulate_yaml", yaml);
    let (code, json, stderr) = run(&["simulate", "fixtures/scenarios/approvals.yaml", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["failed"], 0);
    assert_eq!(doc["calls"][1]["decision"], "allow", "allow-always remembered");
}

/// A real config whose `safeBins` OpenClaw ignores: its four warnings come with every exec call, and
/// are printed once; the answer to a call that was refused without asking is said to be unused.
#[test]
fn simulate_prints_a_repeated_warning_once_and_notes_an_unused_answer() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("first-try.yaml");
    let config = format!("{ROOT}/fixtures/real-world/vandesh-clawdbot/accepted-2026.9.json5");
    let calls =
        "calls:\n  - {tool: exec, command: git status, answer: allow-always}\n  - {tool: exec, command: git status}\n";
    std::fs::write(&scenario, format!("config: {config}\ncwd: /tmp\npath: /usr/bin:/bin\n{calls}")).unwrap();
    let (code, table, stderr) = run(&["-q", "simulate", scenario.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(table.matches("ignoring unprofiled safeBins entry git").count(), 1, "{table}");
    assert_eq!(table.matches("warning: ").count(), 4, "{table}");
    assert!(
        table.contains("note: the answer is not used: OpenClaw asks for no approval here (exec decision deny)"),
        "{table}"
    );
}

#[test]
fn simulate_failed_expectation_and_bad_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let failing = dir.path().join("failing.yaml");
    std::fs::write(&failing, "calls:\n  - {tool: read, params: {path: a}, expect: {outcome: blocked}}\n").unwrap();
    let (code, table, _) = run(&["simulate", failing.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(table.contains("EXPECTATION FAILED: outcome: expected blocked, got ran"), "{table}");
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "calls:\n  - {tool: exec, answer: sometimes}\n").unwrap();
    let (code, stdout, stderr) = run(&["simulate", bad.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("/calls/0/answer"), "{stderr}");
}
