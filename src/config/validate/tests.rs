use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::OpenClawVersion;
use crate::config::{LoadOptions, load_inline, validate};

fn options(version: OpenClawVersion) -> LoadOptions {
    LoadOptions { version, env: Default::default(), cwd: PathBuf::from("/") }
}

fn issues(config: Value, version: OpenClawVersion) -> Vec<(String, String)> {
    let cfg = load_inline(config, &options(version)).unwrap();
    validate(&cfg, version).into_iter().map(|i| (i.dotted_path(), i.message)).collect()
}

/// Issue paths as `agreement.py` records them: the issues, then the legacy issues.
fn issue_and_legacy_paths(config: Value, version: OpenClawVersion) -> BTreeSet<String> {
    let cfg = load_inline(config, &options(version)).unwrap();
    let checked = super::check(&cfg, version);
    let legacy = checked.legacy.iter().map(|m| m.path().to_string());
    checked.issues.iter().map(|i| i.dotted_path()).chain(legacy).collect()
}

/// Configs where our verdict differs from the release's, with the reason. Kept empty when possible.
const RESIDUAL_DIFFERENCES: &[(&str, &str)] = &[];

/// Replays `fixtures/config/agreement/expected-<family><version>.jsonl` (recorded from the real
/// release by `agreement.py`; the `legacy-` family is full of legacy forms): our valid/invalid
/// verdict must match on every config.
fn agreement(version: OpenClawVersion, family: &str) {
    let path = format!("{}/fixtures/config/agreement/expected-{family}{version}.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let (mut total, mut same_verdict, mut same_paths) = (0, 0, 0);
    let mut mismatches = Vec::new();
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let Some(expected_valid) = case["valid"].as_bool() else {
            continue;
        };
        total += 1;
        let ours = issues(case["config"].clone(), version);
        let id = case["id"].as_str().unwrap();
        if ours.is_empty() == expected_valid {
            same_verdict += 1;
        } else if !RESIDUAL_DIFFERENCES.iter().any(|(residual, _)| *residual == id) {
            mismatches.push(format!(
                "{id}: release valid={expected_valid}, ours={ours:?}\n  config={}\n  release={}",
                case["config"], case["issues"]
            ));
        }
        let expected_paths: BTreeSet<String> =
            case["issues"].as_array().unwrap().iter().map(|i| i["path"].as_str().unwrap().to_string()).collect();
        let our_paths = issue_and_legacy_paths(case["config"].clone(), version);
        if expected_paths == our_paths {
            same_paths += 1;
        }
    }
    eprintln!(
        "{family}{version}: verdict agreement {same_verdict}/{total}, identical issue paths {same_paths}/{total}"
    );
    assert!(mismatches.is_empty(), "{} disagreements:\n{}", mismatches.len(), mismatches.join("\n"));
}

#[test]
fn agreement_with_oracle_2026_9() {
    agreement(OpenClawVersion::V2026_9, "");
}

#[test]
fn agreement_with_oracle_2026_2() {
    agreement(OpenClawVersion::V2026_2, "");
}

#[test]
fn legacy_agreement_with_oracle_2026_9() {
    agreement(OpenClawVersion::V2026_9, "legacy-");
}

#[test]
fn legacy_agreement_with_oracle_2026_2() {
    agreement(OpenClawVersion::V2026_2, "legacy-");
}

#[test]
fn unknown_key_has_did_you_mean_and_parent_path() {
    let cfg = load_inline(json!({"tools": {"alsoAlow": ["exec"]}}), &options(OpenClawVersion::V2026_9)).unwrap();
    let found = validate(&cfg, OpenClawVersion::V2026_9);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].dotted_path(), "tools");
    assert_eq!(found[0].message, "Unrecognized key: \"alsoAlow\"");
    assert!(found[0].help.as_deref().unwrap().contains("alsoAllow"));
}

#[test]
fn stale_config_of_an_uninstalled_channel_plugin_is_accepted_in_2026_9() {
    const V2026_2: OpenClawVersion = OpenClawVersion::V2026_2;
    const V2026_9: OpenClawVersion = OpenClawVersion::V2026_9;
    let unknown =
        |config: Value, version| issues(config, version).iter().any(|(_, m)| m.starts_with("unknown channel id"));
    // Oracle answers (openclaw@2026.9.6): evidence in plugins.entries or plugins.allow, normalized.
    let named = json!({"channels": {"Foo": {}}, "plugins": {"entries": {"foo": {}}}});
    assert!(!unknown(named.clone(), V2026_9));
    assert!(unknown(named, V2026_2));
    assert!(!unknown(json!({"channels": {"dingtalk": {}}, "plugins": {"allow": [" DingTalk "]}}), V2026_9));
    assert!(unknown(json!({"channels": {"foo": {}}}), V2026_9));
    // A plugin the release ships is no stale evidence, also under an alias of its id.
    assert!(unknown(json!({"channels": {"workboard": {}}, "plugins": {"entries": {"workboard": {}}}}), V2026_9));
    assert!(unknown(
        json!({"channels": {"minimax-portal": {}}, "plugins": {"entries": {"minimax-portal": {}}}}),
        V2026_9
    ));
}

/// Validation warnings as `(path, message)` pairs.
fn warnings(config: Value, version: OpenClawVersion) -> Vec<(String, String)> {
    let cfg = load_inline(config, &options(version)).unwrap();
    let checked = super::check(&cfg, version);
    checked.warnings.iter().map(|w| (crate::config::path::dotted(&w.path), w.message.clone())).collect()
}

#[test]
fn missing_plugin_load_path_preserves_channel_config_2026_9_and_refuses_2026_2() {
    // A published config (chisuhua-home) names an acpx folder of its author's machine: 2026.9
    // checks no channel config then (feishu `streaming: true` is a scalar its schema refuses, and
    // an unknown key passes), 2026.2 refuses the missing path.
    let missing = "/nonexistent-clawpolicy-test/acpx";
    let config = json!({
        "plugins": {"load": {"paths": [missing]}, "entries": {"no-such-plugin": {"enabled": true}}},
        "channels": {"feishu": {"enabled": true, "streaming": true}, "telegram": {"bogusKey": 1}},
    });
    assert_eq!(issues(config.clone(), OpenClawVersion::V2026_9), vec![]);
    let text = format!(
        "Configured plugin load path is unavailable: {missing}. Uninspected plugin configuration is preserved. \
         Restore access to the path, then run `openclaw doctor --fix`."
    );
    let said = |path: &str| (path.to_string(), text.clone());
    assert_eq!(
        warnings(config.clone(), OpenClawVersion::V2026_9),
        vec![said("channels.feishu"), said("channels.telegram"), said("plugins.load.paths")]
    );
    let refused = issues(json!({"plugins": {"load": {"paths": [missing]}}}), OpenClawVersion::V2026_2);
    assert_eq!(refused, vec![("plugins.load.paths".to_string(), format!("plugin: plugin path not found: {missing}"))]);
    // A path that exists changes nothing: the channel schema applies again.
    let mut present = config;
    present["plugins"]["load"]["paths"] = json!(["/"]);
    assert!(issues(present, OpenClawVersion::V2026_9).iter().any(|(path, _)| path == "channels.feishu.streaming"));
}
