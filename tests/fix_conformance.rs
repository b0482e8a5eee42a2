//! `fix` on the real-world configs, checked against the real release: the forms 2026.9 migrates
//! at load, written down by `fix`, must leave every answer of the release as it was, with none of
//! its migration warnings left. `fixtures/real-world/record_fixed.py` recorded the fixed texts
//! (`<config>/fixed-2026.9.json5`) and the release's answers on them
//! (`tools-2026.9.fixed.*.jsonl`, the same cases as `tools-2026.9.*.jsonl`).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clawpolicy::OpenClawVersion;
use clawpolicy::config::LoadOptions;
use clawpolicy::fix::{Request, run};
use clawpolicy::lint::Selection;
use clawpolicy::lint::suppress::Suppressions;
use serde_json::Value;

const HOME: &str = "/home/openclaw";

/// The configs whose roster had one `default: true` marker: asked with no agent, clawpolicy
/// answers for the agent the gateway's routing uses (the marker's, now written as
/// `agents.defaults.systemAgent.agentId`), while the oracle's deprecated `resolveDefaultAgentId`
/// fails with AgentSelectionRequiredError — on the fixed config as on the original
/// (`conformance_real_world.rs`, MARKED_DEFAULT_AGENT).
const NO_AGENT_GIVEN: &[&str] = &[
    "aa-cma/default-agent",
    "agentorg/default-agent",
    "aws-bedrock-sample/default-agent",
    "claws-and-pincers/default-agent",
    "egonolson-ten-agents/default-agent",
    "it-huset-recommended/default-agent",
    "kianoush-slack-team/default-agent",
    "kurultai/default-agent",
    "openclaw-crew/default-agent",
    "seo-agent/default-agent",
];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/real-world")
}

/// The text `fix` (2026.9, safe fixes) makes of a config, as the recording ran it: a copy in a
/// folder of its own, HOME set.
fn fixed_text(config: &Path) -> Option<String> {
    let folder = tempfile::tempdir().unwrap();
    let copy = folder.path().join("openclaw.json5");
    std::fs::copy(config, &copy).unwrap();
    let options = LoadOptions {
        version: OpenClawVersion::V2026_9,
        env: std::sync::Arc::new([("HOME".to_string(), HOME.to_string())].into()),
        cwd: folder.path().to_path_buf(),
    };
    let outcome = run(Request {
        files: std::slice::from_ref(&copy),
        options: &options,
        unsafe_fixes: false,
        lint: Some(&Selection::default()),
        suppressions: &Suppressions::default(),
        given: Vec::new(),
        buffers: Default::default(),
    })
    .unwrap();
    outcome.files.first().map(|file| file.after.clone())
}

/// `fixed file → original file` of the recorded cases.
fn fixed_configs() -> BTreeMap<String, String> {
    let cases = common::read_jsonl(&dir().join("tools-2026.9.fixed.cases.jsonl"));
    cases.iter().map(|c| (c["configPath"].as_str().unwrap().into(), c["fixedFrom"].as_str().unwrap().into())).collect()
}

#[test]
fn fix_still_writes_the_recorded_texts_and_nothing_for_the_other_configs() {
    let fixed = fixed_configs();
    let originals: BTreeSet<String> = common::read_jsonl(&dir().join("tools-2026.9.cases.jsonl"))
        .iter()
        .map(|c| c["configPath"].as_str().unwrap().to_string())
        .collect();
    for original in &originals {
        let written = fixed.iter().find(|(_, from)| *from == original).map(|(to, _)| to);
        let text = fixed_text(&dir().join(original));
        match written {
            Some(to) => {
                let recorded = std::fs::read_to_string(dir().join(to)).unwrap();
                assert_eq!(text.as_deref(), Some(recorded.as_str()), "{original}: run record_fixed.py again");
            }
            None => assert_eq!(text, None, "{original}: fix changes it now; run record_fixed.py again"),
        }
    }
    println!("fix: {} of {} real-world configs rewritten, as recorded", fixed.len(), originals.len());
}

#[test]
fn the_release_answers_the_fixed_configs_as_the_originals_without_migrating() {
    let original: BTreeMap<String, Value> = common::read_jsonl(&dir().join("tools-2026.9.expected.jsonl"))
        .into_iter()
        .map(|answer| (answer["id"].as_str().unwrap().to_string(), answer))
        .collect();
    let fixed = common::read_jsonl(&dir().join("tools-2026.9.fixed.expected.jsonl"));
    let messages = |answer: &Value| -> BTreeSet<String> {
        let warnings = answer["config"]["warnings"].as_array().into_iter().flatten();
        warnings.map(|w| w["message"].as_str().unwrap().to_string()).collect()
    };
    let mut migrations_gone = 0;
    for answer in &fixed {
        let id = answer["id"].as_str().unwrap();
        let before = &original[id];
        for key in ["ok", "tools", "removed", "candidates", "notConstructed"] {
            assert_eq!(answer[key], before[key], "{id}: `{key}` differs on the fixed config");
        }
        assert_eq!(answer["config"]["valid"], before["config"]["valid"], "{id}");
        let (now, was) = (messages(answer), messages(before));
        assert!(now.is_subset(&was), "{id}: new warnings {:?}", now.difference(&was).collect::<Vec<_>>());
        migrations_gone += usize::from(now.len() < was.len());
    }
    assert!(migrations_gone > 0);
    println!("fix: {}/{} cases answered the same on the fixed configs by OpenClaw 2026.9", fixed.len(), fixed.len());
}

#[test]
fn clawpolicy_answers_the_fixed_configs_as_the_release_does() {
    let options = LoadOptions {
        env: std::sync::Arc::new([("HOME".to_string(), HOME.to_string())].into()),
        ..clawpolicy::config::loading::process_options(OpenClawVersion::V2026_9)
    };
    let outcome = common::run_family_with(&dir(), "2026.9", ".fixed", common::ConfigCheck::Validity, &options);
    for id in NO_AGENT_GIVEN {
        let found = outcome.disagreements.iter().find(|(case, _)| case == id);
        assert!(found.is_some_and(|(_, diff)| diff.starts_with("ok: expected false, got true")), "{id}: {found:?}");
    }
    let disagreements: Vec<String> = outcome
        .disagreements
        .iter()
        .filter(|(id, _)| !NO_AGENT_GIVEN.contains(&id.as_str()))
        .map(|(id, diff)| format!("{id}: {diff}"))
        .collect();
    println!(
        "fixed real-world tools 2026.9: {}/{} cases agree, {} known differences",
        outcome.total - disagreements.len() - NO_AGENT_GIVEN.len(),
        outcome.total,
        NO_AGENT_GIVEN.len()
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    for fixed in fixed_configs().keys() {
        let files = clawpolicy::config::loading::load_files(&[dir().join(fixed)], &options).unwrap();
        assert!(files.loaded().migrated_forms().is_empty(), "{fixed} still has forms the release migrates");
    }
}
