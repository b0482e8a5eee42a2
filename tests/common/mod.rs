//! Shared by the `tools` conformance tests: runs the cases of a fixture file through clawpolicy
//! and compares each answer with the one the real OpenClaw release gave: `ok`, the tools
//! constructed, the final tool set, the step that removed each removed tool, the tool-policy
//! warnings of the session and, where asked, what the release says about the config.

#![allow(dead_code)] // each test binary uses part of this module

pub mod exec;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use clawpolicy::OpenClawVersion;
use clawpolicy::batch::tools::ToolsBatch;
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

/// Describes how `actual` differs from `expected`, or `None` when they agree. An answer recorded
/// without its tools (`strip_expected.py --config-only`) is compared for `ok` only.
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
    if !ok(expected) || expected.get("candidates").is_none() {
        return None;
    }
    // The oracle observes `createOpenClawCodingTools`; the per-run toolsAllow cap runs later, in
    // the run attempt (docs/conformance.md), so tools it removed count as present here.
    let want = string_set(expected.get("candidates"));
    let got = string_set(actual.get("candidates"));
    if want != got {
        let missing: Vec<_> = want.difference(&got).collect();
        let extra: Vec<_> = got.difference(&want).collect();
        return Some(format!("candidates (constructed): missing {missing:?}, extra {extra:?}"));
    }
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

/// The messages of the release's core legacy rules (`data/<v>/migrations.json`) that clawpolicy
/// simulates. Legacy issues from channel plugins' own doctor rules (e.g. Signal transport fields)
/// and rules marked `notSimulated` (model catalogs) are not.
pub fn core_legacy_messages(version: &str) -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("data/{version}/migrations.json"));
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let rules = data["legacyRules"].as_array().unwrap();
    rules
        .iter()
        .filter(|r| r.get("notSimulated").is_none())
        .map(|r| r["message"].as_str().unwrap().to_string())
        .collect()
}

/// The `config` part of an answer (`valid`, `warnings`, core `legacyIssues`), compared as the
/// release prints it, in order. Issue texts are counted apart (see [`IssueStats`]).
pub fn compare_config(expected: &Value, actual: &Value, core: &BTreeSet<String>) -> Option<String> {
    let want = &expected["config"];
    let got = &actual["config"];
    if want.is_null() {
        return None;
    }
    let pairs = issue_pairs;
    let mut diffs = Vec::new();
    if want["valid"] != got["valid"] {
        diffs.push(format!("valid: expected {}, got {}", want["valid"], got["valid"]));
    }
    if pairs(want, "warnings") != pairs(got, "warnings") {
        diffs.push(format!("warnings: expected {:?}, got {:?}", pairs(want, "warnings"), pairs(got, "warnings")));
    }
    let want_legacy: Vec<_> = pairs(want, "legacyIssues").into_iter().filter(|(_, m)| core.contains(m)).collect();
    if want_legacy != pairs(got, "legacyIssues") {
        diffs.push(format!("legacyIssues: expected {want_legacy:?}, got {:?}", pairs(got, "legacyIssues")));
    }
    (!diffs.is_empty()).then(|| diffs.join("; "))
}

/// `(path, message)` of each item of the list `config[key]` (issues, warnings, legacy issues).
fn issue_pairs(config: &Value, key: &str) -> Vec<(String, String)> {
    config[key]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| {
            (i["path"].as_str().unwrap_or_default().to_string(), i["message"].as_str().unwrap_or_default().to_string())
        })
        .collect()
}

/// The release's issues (`{path, message}`) against ours, in any order.
fn compare_issues(expected: &Value, actual: &Value) -> Option<String> {
    // The release's schema issues come in zod's order, ours in the JSON Schema's.
    let (mut want, mut got) = (issue_pairs(&expected["config"], "issues"), issue_pairs(&actual["config"], "issues"));
    want.sort();
    got.sort();
    (want != got).then(|| format!("issues: expected {want:?}, got {got:?}"))
}

/// How many refused configs get exactly the release's issues (`{path, message}` as a set). Issue
/// texts come from translating the release's JSON Schema and are reported, not asserted.
#[derive(Default)]
pub struct IssueStats {
    pub refused: usize,
    pub same_paths: usize,
    pub same_texts: usize,
}

impl IssueStats {
    fn add(&mut self, expected: &Value, actual: &Value) {
        let set = |v: &Value, text: bool| -> BTreeSet<String> {
            v["config"]["issues"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|i| if text { format!("{}: {}", i["path"], i["message"]) } else { i["path"].to_string() })
                .collect()
        };
        if expected["config"]["valid"] != Value::Bool(false) {
            return;
        }
        self.refused += 1;
        self.same_paths += usize::from(set(expected, false) == set(actual, false));
        self.same_texts += usize::from(set(expected, true) == set(actual, true));
    }
}

/// What a family's cases compare besides `ok` and the tools.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ConfigCheck {
    /// Nothing more.
    None,
    /// Whether the release accepts the config.
    Validity,
    /// Validity, warnings and legacy issues, in order.
    Full,
    /// All of [`ConfigCheck::Full`], and the issues (`{path, message}`).
    Exact,
}

/// The cases of one fixture family and how many agree.
pub struct Outcome {
    pub total: usize,
    /// `(id, difference)` of every case that disagrees.
    pub disagreements: Vec<(String, String)>,
    pub stats: IssueStats,
}

/// The tool-policy warnings the release computes for each accepted case, by id. 2026.9 logs each
/// distinct text once per process, and inside one tool build single-tool projections can print a
/// text before the session's own pipeline run, which the oracle then reports without it; so where
/// `….surface-warnings.jsonl` exists (`record_surface_warnings.sh`: the oracle with that dedupe
/// emptied before every run) it is the truth, else the oracle's own `warnings`.
fn release_warnings(dir: &Path, version: &str, family: &str, expected: &[Value]) -> HashMap<String, Vec<String>> {
    let strings = |v: &Value| -> Vec<String> {
        v.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
    };
    let surface = dir.join(format!("tools-{version}{family}.surface-warnings.jsonl"));
    let answers = if surface.exists() { read_jsonl(&surface) } else { expected.to_vec() };
    answers
        .iter()
        .filter(|a| a["ok"] != Value::Bool(false) && a["config"]["valid"] != Value::Bool(false))
        .map(|a| (a["id"].as_str().unwrap_or_default().to_string(), strings(&a["warnings"])))
        .collect()
}

/// Runs every case of `<dir>/tools-<version><family>.cases.jsonl` and compares it with the same
/// line of `….expected.jsonl`.
pub fn run_family(dir: &Path, version: &str, family: &str, check: ConfigCheck) -> Outcome {
    let opts = clawpolicy::config::loading::process_options(version.parse::<OpenClawVersion>().unwrap());
    run_family_with(dir, version, family, check, &opts)
}

/// [`run_family`] with given load options (an environment of the recording's own).
pub fn run_family_with(
    dir: &Path,
    version: &str,
    family: &str,
    check: ConfigCheck,
    opts: &clawpolicy::config::LoadOptions,
) -> Outcome {
    let core = core_legacy_messages(version);
    let cases = read_jsonl(&dir.join(format!("tools-{version}{family}.cases.jsonl")));
    let expected = read_jsonl(&dir.join(format!("tools-{version}{family}.expected.jsonl")));
    assert_eq!(cases.len(), expected.len(), "cases and expected outputs must line up");
    let warnings = release_warnings(dir, version, family, &expected);
    let mut outcome = Outcome { total: cases.len(), disagreements: Vec::new(), stats: IssueStats::default() };
    // One batch for the whole family, as `tools --batch` runs it: cases that repeat a config
    // share it.
    let batch = ToolsBatch::new(opts.clone(), dir.to_path_buf());
    for (case, want) in cases.iter().zip(&expected) {
        let id = case["id"].as_str().unwrap_or_default();
        assert_eq!(Some(id), want["id"].as_str(), "expected file out of order");
        let got = batch.answer(case);
        outcome.stats.add(want, &got);
        let config_diff = match check {
            ConfigCheck::None => None,
            ConfigCheck::Validity => (want["config"]["valid"] != got["config"]["valid"] && !want["config"].is_null())
                .then(|| format!("valid: expected {}, got {}", want["config"]["valid"], got["config"]["valid"])),
            ConfigCheck::Full => compare_config(want, &got, &core),
            ConfigCheck::Exact => compare_config(want, &got, &core).or_else(|| compare_issues(want, &got)),
        };
        let warnings_diff = warnings.get(id).filter(|_| got["ok"] == Value::Bool(true)).and_then(|want| {
            let got: Vec<&str> = got["warnings"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            (*want != got).then(|| format!("warnings: expected {want:?}, got {got:?}"))
        });
        if let Some(diff) = compare(want, &got).or(config_diff).or(warnings_diff) {
            outcome.disagreements.push((id.to_string(), diff));
        }
    }
    outcome
}
