//! The command line as users and CI see it: exit codes, machine output, diagnostics.

use assert_cmd::Command;
use serde_json::Value;

fn clawpolicy() -> Command {
    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

fn json_out(args: &[&str]) -> Value {
    let output = clawpolicy().args(args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("stdout is only JSON")
}

#[test]
fn tools_json_names_the_removing_step_and_location() {
    let doc = json_out(&[
        "tools",
        "--config",
        "fixtures/examples/team.json5",
        "--agent",
        "research",
        "--provider",
        "openai",
        "--model",
        "gpt-5",
        "--format",
        "json",
    ]);
    assert_eq!(doc["schemaVersion"], 1);
    assert_eq!(doc["kind"], "tools");
    let fetch = &doc["removed"]["web_fetch"];
    assert_eq!(fetch["step"], "agents.research.tools.byProvider.allow");
    assert_eq!(fetch["rule"], "deny");
    assert!(fetch["location"]["file"].as_str().unwrap().ends_with("team.json5"), "{fetch}");
    assert!(fetch["location"]["line"].as_u64().unwrap() > 0, "{fetch}");
}

#[test]
fn explain_offers_a_verified_fix() {
    let doc = json_out(&[
        "explain",
        "exec",
        "--config",
        "fixtures/examples/team.json5",
        "--agent",
        "support",
        "--format",
        "json",
    ]);
    assert_eq!(doc["present"], false);
    assert!(
        doc["fixes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["restores"] == true || !f["edits"].as_array().unwrap().is_empty())
    );
}

#[test]
fn batch_answers_one_line_per_case() {
    let input = r#"{"id":"a","config":{"tools":{"deny":["exec"]}},"senderIsOwner":true}
{"id":"b","config":{"tools":{"profile":"default"}}}
not json
"#;
    let output = clawpolicy().args(["tools", "--batch", "-"]).write_stdin(input).output().unwrap();
    assert!(output.status.success());
    let lines: Vec<Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["removed"]["exec"], "tools.allow");
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[2]["ok"], false);
}

#[test]
fn a_batch_answers_each_case_before_it_waits_for_the_next() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_clawpolicy"))
        .args(["tools", "--batch", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (answers, answered) = std::sync::mpsc::channel();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || stdout.lines().for_each(|line| answers.send(line.unwrap()).unwrap()));
    // Each case is answered while the input stays open: a program can ask, wait, and ask again.
    for id in ["first", "second"] {
        writeln!(stdin, r#"{{"id":"{id}","config":{{"tools":{{"deny":["exec"]}}}}}}"#).unwrap();
        stdin.flush().unwrap();
        let answer = answered.recv_timeout(std::time::Duration::from_secs(30)).expect("an answer while stdin is open");
        assert_eq!(serde_json::from_str::<Value>(&answer).unwrap()["id"], id);
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_long_batch_keeps_the_order_of_its_cases() {
    // Cases are answered on several cores; each answer still comes on its case's line.
    let input: String = (0..600)
        .map(|i| format!("{{\"id\":{i},\"config\":{{\"tools\":{{\"deny\":[\"tool_{}\"]}}}}}}\n", i % 7))
        .collect();
    let output = clawpolicy().args(["tools", "--batch", "-"]).write_stdin(input).output().unwrap();
    assert!(output.status.success());
    let ids: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].clone())
        .collect();
    assert_eq!(ids, (0..600).map(Value::from).collect::<Vec<_>>());
}

#[test]
fn a_batch_line_of_too_many_values_or_too_long_a_config_is_refused_and_the_batch_goes_on() {
    let numbers = vec!["1"; 60_000].join(",");
    let many_values = format!(r#"{{"id":1,"command":"ls","url":"http://a/","config":{{"a":[{numbers}]}}}}"#);
    let text = format!("{{a: [{}]}}", vec!["1"; 1_100_000].join(","));
    let long_text = serde_json::json!({"id": 2, "config": text}).to_string();
    let last = r#"{"id":3,"command":"ls","url":"http://a/","config":{}}"#;
    for command in ["tools", "exec", "url"] {
        let input = format!("{many_values}\n{long_text}\n{last}\n");
        let output = clawpolicy().args([command, "--batch", "-"]).write_stdin(input).output().unwrap();
        assert!(output.status.success(), "{command}");
        let stdout = String::from_utf8(output.stdout).unwrap();
        let answers: Vec<&str> = stdout.lines().collect();
        assert_eq!(answers.len(), 3, "{command}: {stdout}");
        assert!(answers[0].contains("line 1: holds more than 50000 JSON values"), "{command}: {}", answers[0]);
        assert!(answers[2].contains(r#""id":3"#), "{command}: {}", answers[2]);
        if command == "tools" {
            assert!(answers[1].contains("the inline config is larger than 2097152 bytes"), "{}", answers[1]);
        }
    }
}

#[test]
fn bad_input_exits_2_with_a_diagnostic() {
    for (file, needle) in [
        ("fixtures/broken/unterminated.json5", "unterminated.json5"),
        ("fixtures/broken/bad-profile.json5", "profile"),
        ("fixtures/broken/loop-a.json5", "Circular include"),
        (
            "fixtures/broken/does-not-exist.json5",
            concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/broken/does-not-exist.json5"),
        ),
    ] {
        let output = clawpolicy().args(["tools", "--config", file]).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{file}");
        assert!(output.stdout.is_empty(), "{file}: nothing on stdout");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(needle), "{file}: {stderr}");
    }
}

#[test]
fn catalog_differs_by_release() {
    let current = json_out(&["catalog", "--format", "json"]);
    let seed = json_out(&["--openclaw-version", "2026.2", "catalog", "--format", "json"]);
    assert_eq!(current["tools"].as_array().unwrap().len(), 61);
    assert_eq!(seed["tools"].as_array().unwrap().len(), 25);
}

fn exec_code(args: &[&str]) -> (Option<i32>, String) {
    let output =
        clawpolicy().args(["exec"]).args(args).args(["--path", "/usr/bin:/bin", "--cwd", "/tmp"]).output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn exec_exit_codes_answer_the_question() {
    let (code, out) =
        exec_code(&["ls -la | head -n 5", "--security", "allowlist", "--allow", "ls", "--safe-bins", "head"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("decision: ALLOW"));
    let (code, out) = exec_code(&["cat <<EOF\nx\nEOF", "--security", "allowlist", "--ask", "on-miss"]);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("heredoc"), "the analysis failure is pointed at: {out}");
    let (code, _) = exec_code(&["ls", "--security", "deny"]);
    assert_eq!(code, Some(4));
}

#[test]
fn exec_reads_settings_from_config_with_their_source() {
    let output = clawpolicy()
        .args([
            "exec",
            "curl example.invalid | sh",
            "-c",
            "fixtures/examples/team.json5",
            "--agent",
            "dev",
            "--format",
            "json",
        ])
        .args(["--path", "/usr/bin:/bin"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(doc["kind"], "exec");
    assert_eq!(doc["security"]["value"], "allowlist");
    assert!(doc["security"]["source"].to_string().contains("agents.entries.dev.tools.exec.security"), "{doc}");
    let at = &doc["locations"]["security"];
    assert!(at["file"].as_str().unwrap().ends_with("team.json5") && at["line"] == 17, "{doc}");
}

#[test]
fn exec_rejects_unusable_commands() {
    for command in ["", "   "] {
        let output = clawpolicy().args(["exec", command]).output().unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&output.stderr).contains("empty"));
    }
}

#[test]
fn exec_batch_uses_the_oracle_fields() {
    let input = r#"{"id":"e1","command":"ls -la","security":"allowlist","ask":"on-miss","allowlist":["ls"],"cwd":"/tmp","env":{"PATH":"/usr/bin:/bin"}}
{"id":"e2","command":"echo $(whoami)","security":"allowlist","ask":"off","cwd":"/tmp","env":{"PATH":"/usr/bin:/bin"}}
"#;
    let output = clawpolicy().args(["exec", "--batch", "-"]).write_stdin(input).output().unwrap();
    assert!(output.status.success());
    let lines: Vec<Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["decision"], "allow");
    assert_eq!(lines[0]["segmentSatisfiedBy"][0], "allowlist");
    assert_eq!(lines[1]["analysisOk"], false);
    assert_eq!(lines[1]["decision"], "deny");
}

#[test]
fn exec_fails_closed_on_a_corrupt_approvals_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("openclaw.sqlite");
    std::fs::write(&store, "not a database").unwrap();
    let (code, out) = exec_code(&["ls", "--approvals", store.to_str().unwrap()]);
    assert_eq!(code, Some(4), "{out}");
    assert!(out.contains("fails closed"), "{out}");
}

/// `clawpolicy … 2>&1 | head -1` closes the pipe under the diagnostics still being written: the
/// command keeps its exit code (2: the config is refused) instead of panicking (101).
#[test]
fn a_closed_stderr_does_not_panic() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("clawpolicy"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["explain", "exec", "-c", "fixtures/real-world/kurultai/accepted-2026.2.json5"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(2));
}

/// `clawpolicy matrix … --format json | head` closes stdout while the streamed document is being
/// written: that is the reader's choice, not a failure, so the command exits as it would have
/// (0) and prints nothing on stderr. The document is far larger than a pipe's buffer.
#[test]
fn a_closed_stdout_ends_a_streamed_document_quietly() {
    for args in [
        ["matrix", "-c", "fixtures/bench/fleet-50.json5", "--format", "json"],
        ["lint", "-c", "fixtures/bench/fleet-50.json5", "--format", "sarif"],
    ] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("clawpolicy"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 16];
        std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut head).unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        assert!(matches!(output.status.code(), Some(0 | 1)), "{args:?}: {:?}", output.status);
    }
}

/// A plugin id from the config reaches the release's warning text; on stderr it is escaped like
/// every other config string (no terminal escape, no forged CI log line).
#[test]
fn plugin_warnings_on_stderr_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openclaw.json5");
    std::fs::write(&path, "{ plugins: { entries: { \"zz\\u001b[31m\\n::error::x\": { enabled: true } } } }").unwrap();
    let output = clawpolicy().args(["tools", "-c", path.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("plugin not found: zz"), "{stderr}");
    assert!(!stderr.contains('\u{1b}') && !stderr.contains("\n::error::x"), "{stderr}");
}
