//! What "allow always" stores, against the real packages: for every exec case of
//! `fixtures/conformance/exec-<version>.cases.jsonl`, `allow-always-<version>.expected.jsonl`
//! holds the release's own answer (recorded by `record_allow_always.mjs`): 2026.9's
//! `resolveAllowAlwaysPersistenceDecision` (patterns with their cwd-bound argument hashes and
//! whether the command text is remembered, or one-shot with its reasons), 2026.2's
//! `resolveAllowAlwaysPatterns` (the executable paths). clawpolicy's answer is the `allowAlways`
//! field of the `exec --batch` core layer.

use std::os::unix::fs::PermissionsExt;

use clawpolicy::batch::exec::evaluate_batch_case;
use clawpolicy::exec::Availability;
use serde_json::{Value, json};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/conformance");
/// The tree `generate_exec_cases.py --setup-fixture` creates (absolute paths are in the cases).
const FIXTURE: &str = "/tmp/clawpolicy-exec-fixture";
/// The home `record_allow_always.mjs` runs the release with.
const HOME: &str = "/tmp/clawpolicy-exec-fixture/home";

fn setup_fixture() {
    for dir in ["proj/bin", "s", "work"] {
        std::fs::create_dir_all(format!("{FIXTURE}/{dir}")).unwrap();
    }
    for exe in ["proj/bin/rg", "proj/bin/mytool", "s/x.sh"] {
        let path = format!("{FIXTURE}/{exe}");
        std::fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::write(format!("{FIXTURE}/proj/bin/notexec"), "data\n").unwrap();
    let link = format!("{FIXTURE}/proj/bin/lslink");
    if std::fs::symlink_metadata(&link).is_err() {
        std::os::unix::fs::symlink("/usr/bin/ls", &link).unwrap();
    }
}

fn lines(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{DIR}/{name}")).unwrap();
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// Our answer in the recording's shape.
fn ours(case: &Value, line: &str) -> Option<Value> {
    let mut case = case.clone();
    case["env"]["HOME"] = json!(HOME);
    let answer = evaluate_batch_case(&case, line.parse().unwrap(), Availability::Assumed);
    let persistence = answer.get("core")?.get("allowAlways")?.clone();
    if line == "2026.2" {
        let paths: Vec<Value> =
            persistence["entries"].as_array().into_iter().flatten().map(|e| e["pattern"].clone()).collect();
        return Some(json!(paths));
    }
    Some(match persistence["kind"].as_str()? {
        "patterns" => json!({
            "kind": "patterns",
            "patterns": persistence["entries"].as_array()?.iter().map(|e| {
                let mut e = e.clone();
                e.as_object_mut().unwrap().remove("source");
                e
            }).collect::<Vec<_>>(),
            "commandText": persistence["commandText"],
        }),
        _ => json!({"kind": "one-shot", "reasons": persistence["reasons"]}),
    })
}

fn check(line: &str) {
    setup_fixture();
    let cases = lines(&format!("exec-{line}.cases.jsonl"));
    let expected = lines(&format!("allow-always-{line}.expected.jsonl"));
    assert_eq!(cases.len(), expected.len());
    let mut compared = 0;
    let mut disagreements = Vec::new();
    for (case, want) in cases.iter().zip(&expected) {
        assert_eq!(case["id"], want["id"]);
        if want.get("error").is_some() {
            continue;
        }
        // 2026.2's gateway stores the paths it resolves only under security=allowlist.
        let want = match line {
            "2026.2" if case["security"] == "allowlist" => want["patterns"].clone(),
            "2026.2" => json!([]),
            _ => want["persistence"].clone(),
        };
        let got = ours(case, line);
        compared += 1;
        if got.as_ref() != Some(&want) {
            disagreements.push(format!(
                "{}: {}\n    want {want}\n    got  {}",
                case["id"],
                case["command"],
                got.unwrap_or_default()
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {compared} allow-always answers disagree with OpenClaw {line}:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[test]
fn allow_always_agrees_with_2026_9() {
    check("2026.9");
}

#[test]
fn allow_always_agrees_with_2026_2() {
    check("2026.2");
}
