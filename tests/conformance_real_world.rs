//! Conformance on configs people actually run: `fixtures/real-world/` holds public OpenClaw configs
//! (each with its source), the minimal edit each release accepts, and the real releases' answers
//! for every agent × session × model of each config (fixtures/real-world/README.md). Per case we
//! compare whether the release accepts the config, `ok`, the tools constructed, the final tool
//! set and the step that removed each removed tool, as `conformance_tools` does for the synthetic
//! cases.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

/// Longest difference text shown per case; the whole answer is one `clawpolicy tools` run away.
const MAX_DIFF_CHARS: usize = 160;

fn check_version(version: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/real-world");
    let outcome = common::run_family(&dir, version, "", common::ConfigCheck::Validity);
    let (total, disagreements) = (outcome.total, outcome.disagreements);
    println!("real-world tools {version}: {}/{total} cases agree", total - disagreements.len());
    if disagreements.is_empty() {
        return;
    }
    // Case ids are `<config>/<agent>/<session>/<model>` (or `<config>/default-agent`).
    let mut per_config: BTreeMap<&str, usize> = BTreeMap::new();
    for (id, _) in &disagreements {
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
        "{} of {total} real-world cases differ from OpenClaw {version}, in {}\n{}",
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
