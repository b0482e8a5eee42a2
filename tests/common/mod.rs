//! Shared by the `tools` conformance tests: runs the cases of a fixture file through clawpolicy
//! and compares each answer with the one the real OpenClaw release gave (`ok`, the final tool set,
//! and the step that removed each removed tool).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use clawpolicy::OpenClawVersion;
use clawpolicy::batch::run_tools_case;
use clawpolicy::policy::RUNTIME_CAP_LABEL;
use serde_json::Value;

pub fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn string_set(value: Option<&Value>) -> BTreeSet<String> {
    value.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
}

fn removed_map(value: Option<&Value>) -> BTreeMap<String, String> {
    value
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
        .collect()
}

/// Describes how `actual` differs from `expected`, or `None` when they agree.
pub fn compare(expected: &Value, actual: &Value) -> Option<String> {
    let ok = |v: &Value| v.get("ok").and_then(Value::as_bool).unwrap_or(false);
    if ok(expected) != ok(actual) {
        return Some(format!(
            "ok: expected {}, got {} ({})",
            ok(expected),
            ok(actual),
            actual.get("error").or(actual.get("config")).unwrap_or(&Value::Null)
        ));
    }
    if !ok(expected) {
        return None;
    }
    // The oracle observes `createOpenClawCodingTools`; the per-run toolsAllow cap runs later, in
    // the run attempt (docs/conformance.md), so tools it removed count as present here.
    let capped: BTreeSet<String> = removed_map(actual.get("removed"))
        .into_iter()
        .filter(|(_, step)| step == RUNTIME_CAP_LABEL)
        .map(|(t, _)| t)
        .collect();
    let want = string_set(expected.get("tools"));
    let got: BTreeSet<String> = string_set(actual.get("tools")).union(&capped).cloned().collect();
    if want != got {
        let missing: Vec<_> = want.difference(&got).collect();
        let extra: Vec<_> = got.difference(&want).collect();
        return Some(format!("tools: missing {missing:?}, extra {extra:?}"));
    }
    let want = removed_map(expected.get("removed"));
    let got: BTreeMap<String, String> =
        removed_map(actual.get("removed")).into_iter().filter(|(_, step)| step != RUNTIME_CAP_LABEL).collect();
    let diffs: Vec<String> = want
        .iter()
        .filter(|(tool, step)| got.get(*tool) != Some(step))
        .map(|(tool, step)| format!("{tool}: expected `{step}`, got {:?}", got.get(tool)))
        .collect();
    (!diffs.is_empty()).then(|| format!("removed: {}", diffs.join("; ")))
}

/// Runs every case of `<dir>/tools-<version>.cases.jsonl` and compares it with the same line of
/// `tools-<version>.expected.jsonl`. Returns the number of cases and `(id, difference)` for each
/// case that disagrees.
pub fn tools_disagreements(dir: &Path, version: &str) -> (usize, Vec<(String, String)>) {
    let cases = read_jsonl(&dir.join(format!("tools-{version}.cases.jsonl")));
    let expected = read_jsonl(&dir.join(format!("tools-{version}.expected.jsonl")));
    assert_eq!(cases.len(), expected.len(), "cases and expected outputs must line up");
    let default_version: OpenClawVersion = version.parse().unwrap();
    let disagreements = cases
        .iter()
        .zip(&expected)
        .filter_map(|(case, want)| {
            let id = case["id"].as_str().unwrap_or_default();
            assert_eq!(Some(id), want["id"].as_str(), "expected file out of order");
            compare(want, &run_tools_case(case, default_version, dir)).map(|diff| (id.to_string(), diff))
        })
        .collect();
    (cases.len(), disagreements)
}
