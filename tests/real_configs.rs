//! The command line on configs people actually run (`fixtures/real-world/`, each with its
//! source): what a new user meets on a first run. One test per promise: the release's load-time
//! migrations are applied, every session a sender can reach is enumerated with its audience,
//! answers cannot mislead, output reads well and machine output is always a document.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn config(name: &str, release: &str) -> PathBuf {
    Path::new(ROOT).join("fixtures/real-world").join(name).join(format!("accepted-{release}.json5"))
}

fn original(name: &str) -> PathBuf {
    Path::new(ROOT).join("fixtures/real-world").join(name).join("original.json5")
}

/// Runs clawpolicy; returns (exit code, stdout, stderr).
fn run(args: &[&str], files: &[&Path]) -> (i32, String, String) {
    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    cmd.current_dir(ROOT).env_remove("NO_COLOR").args(args);
    for file in files {
        cmd.arg("-c").arg(file);
    }
    let output = cmd.output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code().unwrap(), text(&output.stdout), text(&output.stderr))
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {text}"))
}

#[test]
fn a_legacy_roster_is_migrated_and_its_removals_point_into_the_list() {
    let file = config("claws-and-pincers", "2026.9");
    let (code, stdout, stderr) = run(&["tools", "--agent", "reviewer", "--format", "json"], &[&file]);
    assert_eq!(code, 0, "{stderr}");
    let doc = json(&stdout);
    let patch = &doc["removed"]["apply_patch"];
    assert_eq!(patch["step"], "agents.reviewer.tools.allow");
    assert_eq!(patch["writtenAs"], "agents.list[4].tools.deny[3]", "{patch}");
    assert_eq!((patch["location"]["line"].as_u64(), patch["location"]["column"].as_u64()), (Some(142), Some(43)));
    assert!(stderr.contains("Moved agents.list to keyed agents.entries."), "{stderr}");
    // lint reports the migrated form, then runs every rule on the migrated config.
    let (_, stdout, _) = run(&["lint", "--format", "json"], &[&file]);
    let doc = json(&stdout);
    let codes: Vec<&str> = doc["findings"].as_array().unwrap().iter().filter_map(|f| f["code"].as_str()).collect();
    assert!(codes.contains(&"CP109"), "{codes:?}");
    assert!(codes.iter().any(|c| c.starts_with("CP4") || c.starts_with("CP6")), "policy rules ran: {codes:?}");
}

#[test]
fn every_session_a_sender_can_reach_carries_its_audience() {
    let file = config("it-huset-recommended", "2026.9");
    let (code, stdout, stderr) = run(&["matrix", "--format", "json"], &[&file]);
    assert_eq!(code, 0, "{stderr}");
    let doc = json(&stdout);
    let main = doc["agents"].as_array().unwrap().iter().find(|a| a["agentId"] == "main").unwrap();
    let cell = |id: &str| main["cells"].as_array().unwrap().iter().find(|c| c["context"] == id).cloned();
    // Per-channel DM sessions (dmScope per channel) and any-group sessions, with who reaches them.
    let dm = cell("dm:whatsapp").expect("WhatsApp DMs are a session of their own");
    assert_eq!(dm["audience"]["reach"], "paired");
    let groups = cell("group:whatsapp:*").expect("groups: {\"*\"} admits any group");
    assert_eq!(groups["audience"]["reach"], "allowlisted", "group senders fall back to allowFrom: {groups}");
    assert_eq!(cell("dm:googlechat").unwrap()["audience"]["reach"], "allowlisted");
    let (_, stdout, _) = run(&["who-can", "exec"], &[&file]);
    assert!(stdout.contains("Who can reach it") && stdout.contains("paired senders (whatsapp DMs)"), "{stdout}");
}

#[test]
fn opening_dms_to_anyone_is_new_access() {
    let base = config("sales-team", "2026.9");
    let text = std::fs::read_to_string(&base).unwrap();
    // The same config with Telegram DMs open to anyone.
    let opened = text.replacen("\"dmPolicy\": \"allowlist\"", "\"dmPolicy\": \"open\"", 1).replacen(
        "\"allowFrom\": [",
        "\"allowFrom\": [\"*\", ",
        1,
    );
    assert_ne!(opened, text, "the fixture has an allowlisted DM policy to open");
    let dir = tempfile::tempdir().unwrap();
    let head = dir.path().join("head.json5");
    std::fs::write(&head, opened).unwrap();
    let args = ["diff", "--base", base.to_str().unwrap(), "--head", head.to_str().unwrap()];
    let (code, stdout, stderr) = run(&[&args[..], &["--fail-on", "new-access", "--format", "json"]].concat(), &[]);
    assert_eq!(code, 1, "{stderr}");
    let doc = json(&stdout);
    assert!(doc["summary"]["newAccess"].as_bool().unwrap());
    let widened = doc["audiences"].as_array().unwrap();
    assert!(widened.iter().any(|a| a["context"] == "main" && a["head"]["reach"] == "anyone"), "{widened:?}");
}

#[test]
fn exec_is_unavailable_when_a_step_removed_the_tool() {
    let file = config("it-huset-recommended", "2026.9");
    let (code, stdout, _) = run(&["exec", "ls", "--agent", "search", "--format", "json"], &[&file]);
    assert_eq!(code, 5);
    let doc = json(&stdout);
    assert_eq!(doc["decision"], "unavailable");
    assert_eq!(doc["unavailable"]["removedBy"]["step"], "agents.search.tools.allow");
    assert_eq!(doc["unavailable"]["writtenAs"], "agents.list[1].tools.deny[0]");
    assert!(doc["unavailable"]["location"]["line"].as_u64().is_some());
    let (code, _, _) = run(&["exec", "ls", "--agent", "search", "--assume-available"], &[&file]);
    assert_ne!(code, 5, "--assume-available looks past the tool policy");
}

#[test]
fn explain_proposes_every_edit_needed_and_only_edits_the_release_accepts() {
    let file = config("it-huset-recommended", "2026.9");
    let (code, stdout, stderr) = run(&["explain", "exec", "--agent", "search", "--format", "json"], &[&file]);
    assert_eq!(code, 0, "{stderr}");
    let doc = json(&stdout);
    let edits: Vec<(String, String)> = doc["fixes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["edits"].as_array().unwrap().iter())
        .map(|e| (e["op"].as_str().unwrap().to_string(), e["path"].as_str().unwrap().to_string()))
        .collect();
    // The search agent denies exec and its allowlist misses it: both edits, in order, and no
    // alsoAllow next to its allowlist (the release refuses allow + alsoAllow in one scope).
    assert_eq!(
        edits,
        [
            ("remove".into(), "agents.entries.search.tools.deny[0]".into()),
            ("append".into(), "agents.entries.search.tools.allow".into())
        ]
    );
    assert_eq!(doc["fixes"].as_array().unwrap().last().unwrap()["restores"], true);
    // A tool a read-only sandbox never builds is fixed by the setting that builds it.
    let sandboxed = config("vandesh-clawdbot", "2026.9");
    let (_, stdout, _) = run(&["explain", "write", "--sandbox", "on"], &[&sandboxed]);
    assert!(stdout.contains("workspaceAccess to \"rw\""), "{stdout}");
    let (code, _, stderr) = run(&["explain", "wirte"], &[&sandboxed]);
    assert_eq!(code, 2);
    assert!(stderr.contains("did you mean `write`"), "{stderr}");
}

#[test]
fn an_unknown_agent_is_an_error_with_a_suggestion_in_every_command() {
    let file = config("it-huset-recommended", "2026.9");
    for command in [&["tools"][..], &["explain", "exec"], &["exec", "ls"], &["matrix"], &["who-can", "exec"]] {
        let (code, _, stderr) = run(&[command, &["--agent", "serch"]].concat(), &[&file]);
        assert_eq!(code, 2, "{command:?}");
        assert!(stderr.contains("did you mean `search`"), "{command:?}: {stderr}");
    }
}

#[test]
fn batches_honour_the_release_and_resolve_config_paths_once() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    std::fs::create_dir(&cases).unwrap();
    std::fs::copy(config("finance-claw", "2026.9"), cases.join("finance.json5")).unwrap();
    std::fs::write(cases.join("batch.jsonl"), "{\"id\": \"a\", \"configPath\": \"finance.json5\"}\n").unwrap();
    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    let output = cmd.current_dir(dir.path()).args(["tools", "--batch", "cases/batch.jsonl"]).output().unwrap();
    let answer = json(String::from_utf8_lossy(&output.stdout).trim());
    assert_eq!(answer["ok"], true, "{answer}");

    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    let output = cmd
        .args(["--openclaw-version", "2026.2", "exec", "--batch", "-"])
        .write_stdin("{\"id\": \"x\", \"command\": \"ls\"}\n")
        .output()
        .unwrap();
    let answer = json(String::from_utf8_lossy(&output.stdout).trim());
    assert_eq!(answer["openclawVersion"], "2026.2.25");
}

#[test]
fn machine_output_is_a_document_even_when_the_release_refuses_the_config() {
    // As published, this config still has `meta.lastTouchedAt`, which 2026.9 refuses.
    let file = original("moltbot-minimax");
    let (code, stdout, _) = run(&["tools", "--format", "json"], &[&file]);
    assert_eq!(code, 2);
    let doc = json(&stdout);
    assert_eq!((doc["schemaVersion"].as_u64(), doc["ok"].as_bool()), (Some(1), Some(false)));
    assert_eq!(doc["openclawVersion"], "2026.9.6");
    let issue = doc["config"]["issues"].as_array().unwrap().iter().find(|i| i["path"] == "meta").unwrap().clone();
    assert!(issue["location"]["file"].as_str().unwrap().ends_with("original.json5"), "{issue}");
    assert!(issue["location"]["line"].as_u64().unwrap() > 0);
    // Every document names the release the same way.
    let (_, stdout, _) = run(&["lint", "--format", "json"], &[&config("finance-claw", "2026.9")]);
    assert_eq!(json(&stdout)["openclawVersion"], "2026.9.6");
}

#[test]
fn missing_variables_are_one_warning_and_can_be_supplied() {
    let file = original("agent-team");
    let (code, _, stderr) = run(&["tools", "--agent", "lead"], &[&file]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr.matches("config::missing-env-var").count(), 1, "{stderr}");
    assert!(stderr.contains("is used at"), "{stderr}");
    let (_, _, quiet) = run(&["--quiet", "tools", "--agent", "lead"], &[&file]);
    assert!(quiet.is_empty(), "{quiet}");
    // Supplying the variables silences the warning.
    let text = std::fs::read_to_string(&file).unwrap();
    let names: std::collections::BTreeSet<&str> =
        text.split("${").skip(1).filter_map(|rest| rest.split('}').next()).collect();
    let dir = tempfile::tempdir().unwrap();
    let env_file = dir.path().join("team.env");
    std::fs::write(&env_file, names.iter().map(|n| format!("{n}=value\n")).collect::<String>()).unwrap();
    let (_, _, stderr) = run(&["tools", "--agent", "lead", "--env-file", env_file.to_str().unwrap()], &[&file]);
    assert!(!stderr.contains("missing-env-var"), "{stderr}");
}

#[test]
fn human_output_says_what_was_never_built_and_carries_no_styling_off_a_terminal() {
    let file = config("vandesh-clawdbot", "2026.9");
    let (code, stdout, _) = run(&["tools", "--sandbox", "on"], &[&file]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Never built for this session"), "{stdout}");
    assert!(stdout.contains("workspaceAccess: ro"), "{stdout}");
    for args in [&["matrix"][..], &["tools"], &["lint"], &["who-can", "read"]] {
        let (_, stdout, stderr) = run(args, &[&file]);
        assert!(!stdout.contains('\u{1b}') && !stderr.contains('\u{1b}'), "{args:?} styled off a terminal");
    }
}
