//! `matrix`, `who-can`, `diff` and `test` as CI runs them: exit codes and a snapshot of every
//! output format. The diff fixtures (`fixtures/diff/`) differ from their base by construction:
//! `same` rewrites it (no change), `tighten` adds one deny, `loosen` lifts three restrictions.

use std::path::Path;
use std::process::Command as Process;

use assert_cmd::Command;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const TEAM: &str = "fixtures/examples/team.json5";

fn clawpolicy() -> Command {
    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    cmd.current_dir(ROOT).env("PATH", "/usr/local/bin:/usr/bin:/bin").env_remove("OPENCLAW_CONFIG_PATH");
    cmd
}

/// Runs and returns (exit code, stdout with the checkout path replaced by `[ROOT]`, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let output = clawpolicy().args(args).output().unwrap();
    let clean = |bytes: &[u8]| String::from_utf8_lossy(bytes).replace(ROOT, "[ROOT]");
    (output.status.code().unwrap(), clean(&output.stdout), clean(&output.stderr))
}

fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("stdout is only JSON")
}

#[test]
fn matrix_formats() {
    insta::assert_snapshot!("matrix_table", ok(&["matrix", "-c", TEAM]));
    let doc = ok(&["matrix", "-c", TEAM, "--format", "json"]);
    assert_eq!(json(&doc)["kind"], "matrix");
    insta::assert_snapshot!("matrix_json", doc);
    insta::assert_snapshot!("matrix_yaml", ok(&["matrix", "-c", TEAM, "--agent", "research", "--format", "yaml"]));
}

#[test]
fn matrix_why_formats() {
    let cells = ["support/main", "support/group:telegram:-1001234567890"];
    insta::assert_snapshot!("matrix_why_table", ok(&["matrix", "-c", TEAM, "--why", cells[0], cells[1]]));
    let doc = json(&ok(&["matrix", "-c", TEAM, "--why", cells[0], cells[1], "--format", "json"]));
    assert_eq!(doc["kind"], "matrix-why");
    insta::assert_json_snapshot!("matrix_why_json", doc);
    let (code, _, stderr) = run(&["matrix", "-c", TEAM, "--why", "support/main", "support/nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("contexts of agent support: main, non-main"), "{stderr}");
}

#[test]
fn who_can_formats_and_exit_codes() {
    insta::assert_snapshot!("who_can_table", ok(&["who-can", "write", "-c", TEAM]));
    let doc = ok(&["who-can", "exec", "--command", "rm -rf build", "-c", TEAM, "--format", "json"]);
    assert!(
        json(&doc)["matches"].as_array().unwrap().iter().all(|m| m["decision"] == "ask" || m["decision"] == "allow")
    );
    insta::assert_snapshot!("who_can_exec_json", doc);
    insta::assert_snapshot!(
        "who_can_yaml",
        ok(&["who-can", "read", "-c", TEAM, "--agent", "research", "--format", "yaml"])
    );
    let (code, stdout, _) = run(&["who-can", "canvas", "-c", TEAM]);
    assert_eq!(code, 1, "nobody has canvas: {stdout}");
    let (code, _, stderr) = run(&["who-can", "exce", "-c", TEAM]);
    assert_eq!(code, 2);
    assert!(stderr.contains("did you mean `exec`"), "{stderr}");
    let (code, _, stderr) = run(&["who-can", "read", "--command", "ls", "-c", TEAM]);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = run(&["who-can", "read", "--agent", "nobody", "-c", TEAM]);
    assert_eq!(code, 2);
    assert!(stderr.contains("agents of this config: dev, support, research"), "{stderr}");
}

fn diff(head: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["diff", "--base", "fixtures/diff/base.json5", "--head", head];
    args.extend(extra);
    run(&args)
}

#[test]
fn diff_of_a_rewrite_is_empty() {
    let (code, stdout, stderr) = diff("fixtures/diff/same.json5", &["--fail-on", "new-access", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let doc = json(&stdout);
    assert_eq!(doc["access"], serde_json::json!([]));
    assert_eq!(doc["exec"], serde_json::json!([]));
    assert_eq!(doc["posture"], serde_json::json!([]));
    assert_eq!(doc["summary"]["newAccess"], false);
}

#[test]
fn diff_of_a_tightening_is_not_new_access() {
    let (code, stdout, _) = diff("fixtures/diff/tighten.json5", &["--fail-on", "new-access", "--format", "json"]);
    assert_eq!(code, 0);
    let doc = json(&stdout);
    let lost: Vec<(String, String)> = doc["access"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| {
            a["changes"].as_array().unwrap().iter().map(move |c| {
                assert_eq!(c["gained"], false);
                assert_eq!(
                    c["location"],
                    serde_json::json!({"file": "fixtures/diff/tighten.json5", "line": 10, "column": 9}),
                    "the new deny entry"
                );
                (
                    format!("{}/{}", a["agentId"].as_str().unwrap(), a["context"].as_str().unwrap()),
                    c["tool"].to_string(),
                )
            })
        })
        .collect();
    // sessions_send survives the messaging profile in exactly these sessions of support.
    let sessions: Vec<&str> = lost.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(sessions, ["support/main", "support/non-main", "support/non-owner"]);
    assert!(lost.iter().all(|(_, tool)| tool == "\"sessions_send\""));
}

#[test]
fn diff_of_a_loosening_fails_with_new_access() {
    let (code, human, _) = diff("fixtures/diff/loosen.json5", &["--fail-on", "new-access"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("diff_human", human);
    let (code, doc, _) = diff("fixtures/diff/loosen.json5", &["--format", "json", "--show-contexts"]);
    assert_eq!(code, 0, "without --fail-on the exit code stays 0");
    let doc = json(&doc);
    let gained: Vec<String> = doc["access"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| {
            a["changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |c| format!("{}/{} {}", a["agentId"], a["context"], c["tool"]))
        })
        .collect();
    assert!(gained.iter().any(|g| g.contains("group:telegram:-100") && g.ends_with("\"exec\"")), "{gained:?}");
    assert!(doc["exec"].as_array().unwrap().iter().all(|f| f["loosened"] == true));
    assert!(doc["contexts"].as_array().unwrap().len() >= 12);
    insta::assert_json_snapshot!("diff_json", doc);
    let (_, yaml, _) = diff("fixtures/diff/loosen.json5", &["--format", "yaml", "--agent", "support"]);
    insta::assert_snapshot!("diff_yaml", yaml);
    let (_, github, _) = diff("fixtures/diff/loosen.json5", &["--format", "github", "--fail-on", "new-access"]);
    assert!(github.lines().all(|l| l.starts_with("::")), "{github}");
    insta::assert_snapshot!("diff_github", github);
    let (_, sarif, _) = diff("fixtures/diff/loosen.json5", &["--format", "sarif", "--agent", "support"]);
    let sarif = json(&sarif);
    assert_eq!(sarif["version"], "2.1.0");
    insta::assert_json_snapshot!("diff_sarif", sarif);
}

#[test]
fn diff_with_extra_probes_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let probes = dir.path().join("probes.txt");
    std::fs::write(&probes, "# deploys\nmake deploy\n").unwrap();
    let probes = probes.to_str().unwrap();
    let (_, stdout, _) = diff("fixtures/diff/loosen.json5", &["--probe", probes, "--format", "json"]);
    let doc = json(&stdout);
    assert!(doc["probes"].as_array().unwrap().contains(&serde_json::json!("make deploy")));
    assert!(doc["exec"].as_array().unwrap().iter().any(|f| f["command"] == "make deploy"));
    let (code, _, stderr) = diff("fixtures/diff/nope.json5", &[]);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, _) = run(&["diff", "--head", TEAM]);
    assert_eq!(code, 2, "a base is required");
}

fn git(dir: &Path, args: &[&str]) {
    let output = Process::new("git").arg("-C").arg(dir).args(args).output().unwrap();
    assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn diff_against_a_git_revision_reads_includes_there() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    git(root, &["init", "-q"]);
    std::fs::create_dir_all(root.join("config")).unwrap();
    std::fs::write(root.join("config/openclaw.json5"), "{\n  tools: { $include: './tools.json5' },\n}\n").unwrap();
    std::fs::write(root.join("config/tools.json5"), "{ deny: ['write'] }\n").unwrap();
    git(root, &["add", "."]);
    git(root, &["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base"]);
    std::fs::write(root.join("config/tools.json5"), "{ deny: [] }\n").unwrap();

    let output = clawpolicy()
        .current_dir(root)
        .args(["diff", "--base-rev", "HEAD", "--head", "config/openclaw.json5", "--fail-on", "new-access"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let doc = json(&String::from_utf8_lossy(&output.stdout));
    let main = doc["access"].as_array().unwrap().iter().find(|a| a["context"] == "main").unwrap();
    let change = &main["changes"][0];
    assert_eq!(change["tool"], "write");
    let at = |file: &str, line: u32, column: u32| serde_json::json!({"file": file, "line": line, "column": column});
    assert_eq!(change["before"]["location"], at("HEAD:config/tools.json5", 1, 10), "base locations name the revision");
    assert_eq!(change["location"], at("config/tools.json5", 1, 3), "where the deny entry was, on the head side");
}

#[test]
fn test_formats_and_exit_codes() {
    assert!(ok(&["test", "fixtures/suites/team.yaml"]).ends_with("4 passed, 0 failed\n"));
    let (code, human, _) = run(&["test", "fixtures/suites/failing.yaml"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("test_human", human);
    let (code, doc, _) = run(&["test", "fixtures/suites/failing.yaml", "--format", "json"]);
    assert_eq!(code, 1);
    let doc = json(&doc);
    assert_eq!(doc["kind"], "test");
    insta::assert_json_snapshot!("test_json", doc);
    let (_, yaml, _) = run(&["test", "fixtures/suites/failing.yaml", "--format", "yaml"]);
    insta::assert_snapshot!("test_yaml", yaml);
    let (_, junit, _) = run(&["test", "fixtures/suites/failing.yaml", "--format", "junit"]);
    insta::assert_snapshot!("test_junit", junit);
}

#[test]
fn suites_that_name_unknown_things_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let team = format!("{ROOT}/{TEAM}");
    for (body, message) in [
        ("cases:\n  - {name: a, expect: {present: [read]}, contxt: {}}\n", "unknown field `contxt`"),
        ("cases:\n  - {name: a, context: {agent: nobody}, expect: {present: [read]}}\n", "no agent `nobody`"),
        ("cases:\n  - {name: a, context: {agent: dev}, expect: {absent: [reed]}}\n", "`reed` is not a tool"),
        ("cases:\n  - {name: a, context: {agent: dev}, expect: {lint: {present: [X]}}}\n", "no rule is called `X`"),
        ("cases:\n  - {name: a, context: {agent: dev}, expect: {exec: [{command: ls, decision: maybe}]}}\n", "maybe"),
    ] {
        let path = dir.path().join("suite.yaml");
        std::fs::write(&path, format!("config: [{team}]\n{body}")).unwrap();
        let (code, stdout, stderr) = run(&["test", path.to_str().unwrap()]);
        assert_eq!(code, 2, "{body}: {stdout}");
        assert!(stderr.contains(message), "{body}: {stderr}");
    }
}

#[test]
fn bless_scaffolds_a_suite_that_passes_and_covers_everything() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.yaml");
    let team = format!("{ROOT}/{TEAM}");
    let (code, _, stderr) = run(&["test", path.to_str().unwrap(), "--bless", "-c", &team]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("wrote 25 case(s)"), "{stderr}");
    let (code, stdout, _) = run(&["test", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0);
    let doc = json(&stdout);
    for agent in doc["coverage"][0]["agents"].as_array().unwrap() {
        assert_eq!(agent["uncovered"], serde_json::json!([]), "{agent}");
    }
    let (code, _, _) = run(&["test", dir.path().join("missing.yaml").to_str().unwrap(), "--bless"]);
    assert_eq!(code, 2, "scaffolding needs a config");
}

#[test]
fn the_schema_command_prints_the_published_schema() {
    let published = std::fs::read_to_string(format!("{ROOT}/docs/suite.schema.json")).unwrap();
    assert_eq!(ok(&["test", "--schema"]), published);
}
