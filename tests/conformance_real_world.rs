//! Conformance on configs people actually run: `fixtures/real-world/` holds public OpenClaw configs
//! (each with its source), the minimal edit each release accepts, and the real releases' answers
//! for every agent × session × model of each config (fixtures/real-world/README.md). Per case we
//! compare whether the release accepts the config, `ok`, the tools constructed, the final tool
//! set and the step that removed each removed tool, as `conformance_tools` does for the synthetic
//! cases. The `exec` family asks, on the same files, whether each agent's `exec` tool would run a
//! set of probe commands, need approval or refuse them, and compares every field
//! `conformance_exec` compares.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use clawpolicy::batch::exec::{RecentSessions, evaluate_batch_case_in};
use clawpolicy::exec::Availability;

/// Longest difference text shown per case; the whole answer is one `clawpolicy tools` run away.
const MAX_DIFF_CHARS: usize = 160;

/// No agent given, a legacy roster with one `default: true` marker (2026.9 migrates it at load).
const MARKED_DEFAULT_AGENT: &str = "2026.9 moves the marked agent into agents.defaults.systemAgent and keeps it as \
    the legacy owner; the gateway's routing and `openclaw sandbox explain` (no --agent) use that agent, and so does \
    clawpolicy. The oracle picks its default with the deprecated resolveDefaultAgentId, which ignores the migrated \
    owner and fails with AgentSelectionRequiredError";

/// Cases where clawpolicy follows the release's runtime rather than the oracle: `(release, case,
/// the difference, why)`. Each must still differ in exactly that way.
const KNOWN_DIFFERENCES: &[(&str, &str, &str, &str)] = &[
    ("2026.9", "aa-cma/default-agent", "ok: expected false, got true", MARKED_DEFAULT_AGENT),
    ("2026.9", "agentorg/default-agent", "ok: expected false, got true", MARKED_DEFAULT_AGENT),
    ("2026.9", "aws-bedrock-sample/default-agent", "ok: expected false, got true", MARKED_DEFAULT_AGENT),
    ("2026.9", "claws-and-pincers/default-agent", "ok: expected false, got true", MARKED_DEFAULT_AGENT),
    ("2026.9", "egonolson-ten-agents/default-agent", "ok: expected false, got true", MARKED_DEFAULT_AGENT),
    ("2026.9", "it-huset-recommended/default-agent", "ok: expected false, got true", MARKED_DEFAULT_AGENT),
    ("2026.9", "kianoush-slack-team/default-agent", "ok: expected false, got true", MARKED_DEFAULT_AGENT),
    ("2026.9", "kurultai/default-agent", "ok: expected false, got true", MARKED_DEFAULT_AGENT),
    ("2026.9", "openclaw-crew/default-agent", "ok: expected false, got true", MARKED_DEFAULT_AGENT),
    ("2026.9", "seo-agent/default-agent", "ok: expected false, got true", MARKED_DEFAULT_AGENT),
];

fn check_version(version: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/real-world");
    let outcome = common::run_family(&dir, version, "", common::ConfigCheck::Validity);
    let known: Vec<_> = KNOWN_DIFFERENCES.iter().filter(|(release, ..)| *release == version).collect();
    for (_, id, difference, why) in &known {
        let found = outcome.disagreements.iter().find(|(case, _)| case == id);
        assert!(
            found.is_some_and(|(_, diff)| diff.starts_with(difference)),
            "known difference {id} ({why}) no longer differs as `{difference}`: {found:?}"
        );
    }
    let total = outcome.total;
    let disagreements: Vec<_> = outcome
        .disagreements
        .into_iter()
        .filter(|(id, _)| !known.iter().any(|(_, known_id, ..)| known_id == id))
        .collect();
    println!(
        "real-world tools {version}: {}/{total} cases agree, {} known differences",
        total - disagreements.len() - known.len(),
        known.len()
    );
    report(version, "", total, &disagreements);
}

/// Fails listing every disagreeing case, one line each, with a count per config.
fn report(version: &str, family: &str, total: usize, disagreements: &[(String, String)]) {
    if disagreements.is_empty() {
        return;
    }
    // Case ids start with `<config>/`.
    let mut per_config: BTreeMap<&str, usize> = BTreeMap::new();
    for (id, _) in disagreements {
        *per_config.entry(id.split('/').next().unwrap_or(id)).or_default() += 1;
    }
    let summary: Vec<String> = per_config.iter().map(|(config, n)| format!("{config} ({n})")).collect();
    let lines: Vec<String> = disagreements
        .iter()
        .map(|(id, diff)| {
            let short: String = diff.chars().take(MAX_DIFF_CHARS).collect();
            let cut = if short.len() < diff.len() { " …" } else { "" };
            format!("  {id}: {short}{cut}")
        })
        .collect();
    panic!(
        "{} of {total} real-world {family}cases differ from OpenClaw {version}, in {}\n{}",
        disagreements.len(),
        summary.join(", "),
        lines.join("\n")
    );
}

#[test]
fn real_world_tools_2026_9() {
    check_version("2026.9");
}

#[test]
fn real_world_tools_2026_2() {
    check_version("2026.2");
}

/// Runs `exec-<version>.cases.jsonl` as `clawpolicy exec --batch` runs it: each case names its
/// file (`configPath`), loaded as `--config` loads it.
fn check_exec(version: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/real-world");
    let cases = common::read_jsonl(&dir.join(format!("exec-{version}.cases.jsonl")));
    let expected = common::read_jsonl(&dir.join(format!("exec-{version}.expected.jsonl")));
    assert_eq!(cases.len(), expected.len(), "cases and expected outputs must line up");
    let opts = clawpolicy::config::loading::process_options(version.parse().unwrap());
    let mut disagreements = Vec::new();
    let sessions = RecentSessions::default();
    for (case, want) in cases.iter().zip(&expected) {
        let id = case["id"].as_str().unwrap_or_default();
        assert_eq!(Some(id), want["id"].as_str(), "expected file out of order");
        let got = evaluate_batch_case_in(case, &opts, &dir, Availability::Required, &sessions);
        let mut diffs = common::exec::compare(want, &got);
        if let Err(why) = common::exec::final_decision_differs_only_after_the_probe(version, &got) {
            diffs.push(("finalDecision".into(), why));
        }
        if !diffs.is_empty() {
            let fields: Vec<String> = diffs.iter().map(|(field, detail)| format!("{field}: {detail}")).collect();
            disagreements.push((id.to_string(), fields.join("; ")));
        }
    }
    let total = cases.len();
    println!("real-world exec {version}: {}/{total} cases agree", total - disagreements.len());
    report(version, "exec ", total, &disagreements);
}

#[test]
fn real_world_exec_2026_9() {
    check_exec("2026.9");
}

#[test]
fn real_world_exec_2026_2() {
    check_exec("2026.2");
}
