//! Conformance with the real OpenClaw for automation runs: every case in
//! `fixtures/conformance/tools-<v>-automation.cases.jsonl` (a cron job's isolated agent turn or a
//! heartbeat) was run by `record_automation.mjs` through the release; the answers are in
//! `….expected.jsonl`. Per case we compare whether the run happens at all, the agent and session
//! key it runs with, the final tools (after the job's per-run cap), the step that removed each
//! tool, and the tools constructed (modulo those the cap removes: the release does not build a
//! tool family its cap excludes, clawpolicy builds it and lets the cap remove it).
//!
//! `exec-<v>-automation.…` are exec calls in such runs, where nobody can answer an approval: the
//! release's exec tool was called with the approval route answering "no route"; we compare
//! whether the command runs, and the release's refusal (its reason, or the first line of its text).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use clawpolicy::batch::exec::evaluate_batch_case;
use clawpolicy::batch::tools::ToolsBatch;
use clawpolicy::exec::Availability;
use clawpolicy::policy::RUNTIME_CAP_LABEL;
use serde_json::Value;

fn names(value: &Value) -> BTreeSet<String> {
    value.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
}

fn steps(value: &Value) -> BTreeMap<String, String> {
    let pairs = value.as_object().into_iter().flatten();
    pairs.map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect()
}

/// How `got` differs from `want`, or `None`.
fn compare(want: &Value, got: &Value) -> Option<String> {
    if want["ok"] != got["ok"] {
        return Some(format!("ok: expected {} ({}), got {} ({})", want["ok"], want["error"], got["ok"], got["error"]));
    }
    if want["ok"] != Value::Bool(true) {
        return None;
    }
    for key in ["agentId", "sessionKey"] {
        if want["context"][key] != got["context"][key] {
            return Some(format!("{key}: expected {}, got {}", want["context"][key], got["context"][key]));
        }
    }
    let (want_tools, got_tools) = (names(&want["tools"]), names(&got["tools"]));
    if want_tools != got_tools {
        let missing: Vec<_> = want_tools.difference(&got_tools).collect();
        let extra: Vec<_> = got_tools.difference(&want_tools).collect();
        return Some(format!("tools: missing {missing:?}, extra {extra:?}"));
    }
    let got_removed = steps(&got["removed"]);
    let capped: BTreeSet<String> =
        got_removed.iter().filter(|(_, step)| *step == RUNTIME_CAP_LABEL).map(|(t, _)| t.clone()).collect();
    let diffs: Vec<String> = steps(&want["removed"])
        .into_iter()
        .filter(|(tool, step)| got_removed.get(tool) != Some(step))
        .map(|(tool, step)| format!("{tool}: expected `{step}`, got {:?}", got_removed.get(&tool)))
        .collect();
    if !diffs.is_empty() {
        return Some(format!("removed: {}", diffs.join("; ")));
    }
    let (want_built, got_built) = (names(&want["candidates"]), names(&got["candidates"]));
    let missing: Vec<_> = want_built.difference(&got_built).collect();
    let extra: Vec<_> = got_built.difference(&want_built).filter(|t| !capped.contains(*t)).collect();
    (!missing.is_empty() || !extra.is_empty())
        .then(|| format!("candidates (constructed): missing {missing:?}, extra {extra:?}"))
}

fn check(version: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
    let cases = common::read_jsonl(&dir.join(format!("tools-{version}-automation.cases.jsonl")));
    let expected = common::read_jsonl(&dir.join(format!("tools-{version}-automation.expected.jsonl")));
    assert_eq!(cases.len(), expected.len(), "cases and expected outputs must line up");
    let opts = clawpolicy::config::loading::process_options(version.parse().unwrap());
    let batch = ToolsBatch::new(opts, dir.clone());
    let mut failures = Vec::new();
    let (mut ran, mut refused) = (0, 0);
    for (case, want) in cases.iter().zip(&expected) {
        assert_eq!(case["id"], want["id"], "expected file out of order");
        if want["ok"] == Value::Bool(true) {
            ran += 1;
        } else {
            refused += 1;
        }
        let got = batch.answer(case);
        if let Some(diff) = compare(want, &got) {
            failures.push(format!("{}: {diff}", case["id"].as_str().unwrap_or_default()));
        }
    }
    let total = cases.len();
    println!(
        "automation conformance {version}: {}/{total} cases agree ({ran} runs, {refused} refused or not run)",
        total - failures.len()
    );
    assert!(failures.is_empty(), "{} cases differ from OpenClaw {version}:\n{}", failures.len(), failures.join("\n"));
}

/// How an exec answer differs from the release's, or `None`.
fn compare_exec(want: &Value, got: &Value) -> Option<String> {
    let first_line = |v: &Value| v.as_str().and_then(|s| s.lines().next()).map(str::to_string);
    let decision = match got["decision"].as_str() {
        Some("error") if got["error"].as_str().is_some_and(|e| e.starts_with("this automation run cannot happen")) => {
            "not-run"
        }
        Some(decision) => decision,
        None => "?",
    };
    if want["decision"] != decision {
        return Some(format!("decision: expected {}, got {decision} ({})", want["decision"], got["message"]));
    }
    if want["reason"].is_string() && want["reason"] != got["noApprover"]["reason"] {
        return Some(format!("reason: expected {}, got {}", want["reason"], got["noApprover"]["reason"]));
    }
    if want["message"].is_string() && first_line(&want["message"]) != first_line(&got["message"]) {
        return Some(format!("message: expected {}, got {}", want["message"], got["message"]));
    }
    None
}

/// The scripts the exec cases run (as `generate_automation_cases.py` writes them).
fn write_fixture() {
    let fixture = Path::new("/tmp/clawpolicy-automation-fixture");
    std::fs::create_dir_all(fixture).unwrap();
    std::fs::write(fixture.join("job.py"), "print('nightly')\n").unwrap();
    std::fs::write(fixture.join("job.sh"), "echo nightly\n").unwrap();
}

fn check_exec(version: &str) {
    write_fixture();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
    let cases = common::read_jsonl(&dir.join(format!("exec-{version}-automation.cases.jsonl")));
    let expected = common::read_jsonl(&dir.join(format!("exec-{version}-automation.expected.jsonl")));
    assert_eq!(cases.len(), expected.len(), "cases and expected outputs must line up");
    let default = version.parse().unwrap();
    let failures: Vec<String> = cases
        .iter()
        .zip(&expected)
        .filter_map(|(case, want)| {
            assert_eq!(case["id"], want["id"], "expected file out of order");
            let got = evaluate_batch_case(case, default, Availability::Required);
            compare_exec(want, &got).map(|diff| format!("{}: {diff}", case["id"].as_str().unwrap_or_default()))
        })
        .collect();
    let total = cases.len();
    println!("automation exec conformance {version}: {}/{total} cases agree", total - failures.len());
    assert!(failures.is_empty(), "{} cases differ from OpenClaw {version}:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn automation_exec_conformance_2026_9() {
    check_exec("2026.9");
}

#[test]
fn automation_exec_conformance_2026_2() {
    check_exec("2026.2");
}

#[test]
fn automation_conformance_2026_9() {
    check("2026.9");
}

#[test]
fn automation_conformance_2026_2() {
    check("2026.2");
}
