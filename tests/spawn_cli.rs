//! `--spawned-by` on a published multi-agent config: the child's tools, what it inherited and why
//! the requester could not spawn it.

use assert_cmd::Command;
use serde_json::Value;

const CREW: &str = "fixtures/real-world/openclaw-crew";

fn tools_json(release: &str, args: &[&str]) -> Value {
    let config = format!("{CREW}/accepted-{release}.json5");
    let output = Command::cargo_bin("clawpolicy")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tools", "--config", &config, "--openclaw-version", release, "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("stdout is only JSON")
}

fn names(doc: &Value) -> Vec<&str> {
    doc["tools"].as_array().unwrap().iter().filter_map(Value::as_str).collect()
}

#[test]
fn a_2026_9_child_keeps_only_what_its_requester_had() {
    // cooper allows message + memory tools; tars (coding) inherits cooper's effective list.
    let doc = tools_json("2026.9", &["--agent", "tars", "--spawned-by", "cooper"]);
    assert_eq!(names(&doc), ["memory_get", "memory_search"]);
    assert_eq!(doc["removed"]["exec"]["step"], "inherited tools");
    assert_eq!(doc["spawn"]["requesterKey"], "agent:cooper:main");
    assert_eq!(doc["spawn"]["depth"], 1);
    assert_eq!(doc["spawn"]["requesterHasSpawnTool"], false, "cooper's allowlist has no sessions_spawn");
    assert!(doc["spawn"].get("refused").is_none(), "cooper's allowAgents names tars: {doc}");
}

#[test]
fn a_2026_2_child_has_no_inherited_step_and_is_a_leaf_at_depth_one() {
    let doc = tools_json("2026.2", &["--agent", "tars", "--spawned-by", "cooper"]);
    assert!(names(&doc).contains(&"exec"), "2026.2 hands nothing down: {doc}");
    assert_eq!(doc["removed"]["sessions_spawn"]["step"], "subagent tools.allow");
    assert!(doc["spawn"].get("inherited").is_none());
}

#[test]
fn a_spawn_outside_allow_agents_is_reported_as_refused() {
    let doc = tools_json("2026.9", &["--agent", "cooper", "--spawned-by", "tars"]);
    let refused = doc["spawn"]["refused"].as_str().unwrap();
    assert!(refused.starts_with("agentId is not allowed for sessions_spawn"), "{refused}");
}

#[test]
fn spawned_by_without_an_agent_is_a_usage_error() {
    Command::cargo_bin("clawpolicy")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tools", "--config", &format!("{CREW}/accepted-2026.9.json5"), "--spawned-by", ":main"])
        .assert()
        .failure();
}

/// The crew with the orchestrator's allowlist fixed to include `sessions_spawn`, the edit its
/// author needs for cooper to spawn anyone: then brand and murph start with no tools.
fn crew_that_spawns(dir: &std::path::Path) -> String {
    let original =
        std::fs::read_to_string(format!("{}/{CREW}/accepted-2026.9.json5", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let cooper_allow = r#"allow: ["message", "memory_search", "memory_get"]"#;
    assert!(original.contains(cooper_allow), "the fixture changed: update this test");
    let fixed =
        original.replace(cooper_allow, r#"allow: ["message", "memory_search", "memory_get", "sessions_spawn"]"#);
    let path = dir.join("crew.json5");
    std::fs::write(&path, fixed).unwrap();
    path.display().to_string()
}

fn run(args: &[&str]) -> (i32, String, String) {
    let output =
        Command::cargo_bin("clawpolicy").unwrap().current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

fn matrix_cell<'a>(doc: &'a Value, agent: &str, context: &str) -> &'a Value {
    let row = doc["agents"].as_array().unwrap().iter().find(|r| r["agentId"] == agent).unwrap();
    row["cells"].as_array().unwrap().iter().find(|c| c["context"] == context).unwrap_or_else(|| panic!("{row}"))
}

#[test]
fn matrix_shows_that_the_published_orchestrator_cannot_spawn() {
    let config = format!("{CREW}/accepted-2026.9.json5");
    let (code, stdout, stderr) = run(&["matrix", "-c", &config, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    // allowAgents names tars, brand and murph, but cooper's allowlist leaves out sessions_spawn.
    for child in ["tars", "brand", "murph"] {
        let cell = matrix_cell(&doc, child, "spawned-by:cooper");
        let error = cell["error"].as_str().unwrap();
        assert!(error.contains("agent:cooper:main has no sessions_spawn tool"), "{error}");
    }
    // tars has sessions_spawn and may spawn itself; the others may not spawn at all.
    assert!(matrix_cell(&doc, "tars", "spawned-by:tars")["error"].is_null());
}

#[test]
fn a_spawn_that_leaves_the_child_without_tools_is_visible_before_deploy() {
    let dir = tempfile::tempdir().unwrap();
    let config = crew_that_spawns(dir.path());
    let (_, stdout, _) = run(&["matrix", "-c", &config, "--format", "json"]);
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(matrix_cell(&doc, "brand", "spawned-by:cooper")["tools"], serde_json::json!([]));
    assert_eq!(
        matrix_cell(&doc, "tars", "spawned-by:cooper")["tools"],
        serde_json::json!(["memory_get", "memory_search", "sessions_spawn"])
    );

    let (_, stdout, _) = run(&["lint", "-c", &config, "--format", "json"]);
    let lint: Value = serde_json::from_str(&stdout).unwrap();
    let findings: Vec<&Value> = lint["findings"].as_array().unwrap().iter().filter(|f| f["code"] == "CP307").collect();
    let messages: Vec<&str> = findings.iter().filter_map(|f| f["message"].as_str()).collect();
    assert_eq!(findings.len(), 2, "brand and murph: {messages:?}");
    assert!(messages[0].starts_with("agent `brand` spawned by `cooper` has no tools"), "{messages:?}");
    // Pointed at cooper's allowlist, the list that passes down too little.
    assert!(findings.iter().all(|f| f["path"].as_str().is_some_and(|p| p.ends_with(".tools.allow"))), "{findings:?}");

    let (code, stdout, _) = run(&["who-can", "memory_get", "-c", &config, "--format", "json"]);
    assert_eq!(code, 0);
    let who: Value = serde_json::from_str(&stdout).unwrap();
    let cells: Vec<String> = who["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("{}/{}", m["agentId"].as_str().unwrap(), m["context"].as_str().unwrap()))
        .collect();
    assert!(cells.contains(&"tars/spawned-by:cooper".to_string()), "{cells:?}");
    assert!(!cells.iter().any(|c| c.starts_with("brand/")), "{cells:?}");
}

#[test]
fn diff_counts_a_spawn_that_becomes_possible_as_new_access() {
    let dir = tempfile::tempdir().unwrap();
    let head = crew_that_spawns(dir.path());
    let base = format!("{CREW}/accepted-2026.9.json5");
    let (code, stdout, stderr) =
        run(&["diff", "--base", &base, "-c", &head, "--fail-on", "new-access", "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let tars = doc["access"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agentId"] == "tars" && a["context"] == "spawned-by:cooper");
    let gained: Vec<&str> = tars.unwrap()["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["gained"] == true)
        .filter_map(|c| c["tool"].as_str())
        .collect();
    assert_eq!(gained, ["memory_get", "memory_search", "sessions_spawn"]);
}

#[test]
fn a_suite_case_can_be_a_spawned_child() {
    let dir = tempfile::tempdir().unwrap();
    let config = crew_that_spawns(dir.path());
    let suite = dir.path().join("suite.yaml");
    std::fs::write(
        &suite,
        format!(
            "config: [{config}]\ncases:\n  - name: brand spawned by cooper has nothing\n    context: {{agent: brand, spawned-by: cooper}}\n    expect: {{exactly: []}}\n  - name: tars spawned by cooper keeps memory\n    context: {{agent: tars, spawned-by: cooper}}\n    expect: {{exactly: [memory_get, memory_search, sessions_spawn], removed-by: {{exec: inherited tools}}}}\n"
        ),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&["test", suite.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (code, _, stderr) = run(&["test", "--bless", dir.path().join("new.yaml").to_str().unwrap(), "-c", &config]);
    assert_eq!(code, 0, "{stderr}");
    let scaffold = std::fs::read_to_string(dir.path().join("new.yaml")).unwrap();
    assert!(scaffold.contains("spawned-by: cooper"), "{scaffold}");
}

#[test]
fn explain_names_the_emptying_step_and_an_edit_on_either_side() {
    let dir = tempfile::tempdir().unwrap();
    let config = crew_that_spawns(dir.path());
    let args = ["explain", "read", "-c", &config, "--agent", "brand", "--spawned-by", "cooper", "--format", "json"];
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["removedBy"]["step"], "inherited tools");
    // The requester's side: cooper must keep read to hand it down.
    let fix = &doc["fixes"][0];
    assert_eq!(fix["step"], "inherited tools");
    assert_eq!(fix["edits"][0]["value"], "read");
    assert!(fix["edits"][0]["path"].as_str().unwrap().contains("cooper"), "{fix}");
    assert_eq!(fix["restores"], true);
    // The child's side: brand allows one of the tools cooper hands down.
    let emptied = &doc["emptiedChild"];
    assert_eq!(emptied["step"], "inherited tools");
    assert_eq!(emptied["childSide"]["tool"], "memory_get");
    let edit = &emptied["childSide"]["fixes"][0]["edits"][0];
    assert!(edit["path"].as_str().unwrap().contains("brand"), "{edit}");

    let (_, human, _) = run(&args[..args.len() - 2]);
    assert!(human.contains("This sub-agent has no tools at all: `inherited tools` removed the last (read)"), "{human}");
    assert!(human.contains("on the requester's side: agent:cooper:main hands down only what it keeps"), "{human}");
}
