//! Conformance with the real OpenClaw: every case in `fixtures/conformance/tools-<v>.cases.jsonl`
//! was run through the release by the oracle; the answers are in `…expected.jsonl`. Per case we
//! compare `ok`, the final tool set and the step that removed each removed tool.

mod common;

use std::path::Path;

/// Differences we know about and cannot remove, with the reason (also in docs/conformance.md).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[(
    "hand-legacy-agents-list-single",
    "2026.9 migrates a one-entry legacy agents.list into agents.entries before validating; \
     clawpolicy validates the file as written and rejects the legacy key",
)];

fn check_version(version: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
    let (total, disagreements) = common::tools_disagreements(&dir, version);
    let (known, failures): (Vec<_>, Vec<_>) =
        disagreements.into_iter().partition(|(id, _)| KNOWN_DIFFERENCES.iter().any(|(known_id, _)| known_id == id));
    let passed = total - failures.len() - known.len();
    println!(
        "tools conformance {version}: {passed}/{total} cases agree ({:.1} %), {} known differences",
        100.0 * passed as f64 / total as f64,
        known.len()
    );
    let failures: Vec<String> = failures.iter().map(|(id, diff)| format!("{id}: {diff}")).collect();
    assert!(failures.is_empty(), "{} cases differ from OpenClaw {version}:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn tools_conformance_2026_9() {
    check_version("2026.9");
}

#[test]
fn tools_conformance_2026_2() {
    check_version("2026.2");
}
