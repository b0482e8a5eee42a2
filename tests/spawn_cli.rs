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
