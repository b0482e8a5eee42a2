use std::collections::BTreeSet;

use super::*;
use crate::config::test_support::options;

/// Lints JSON5 text written to a temp file, so findings carry real file locations.
fn lint_text(version: OpenClawVersion, text: &str) -> LintReport {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openclaw.json5");
    std::fs::write(&path, text).unwrap();
    let loaded = crate::config::load(&[path], &options(version, &[])).unwrap();
    let issues = crate::config::validate(&loaded, version);
    let ctx =
        LintContext { version, pack: VersionPack::get(version), loaded: &loaded, issues: &issues, approvals: None };
    lint(&ctx, &Selection { severity_min: Severity::Suggestion, ..Selection::default() }, &Default::default())
}

fn codes(report: &LintReport) -> Vec<&'static str> {
    report.findings.iter().map(|f| f.code).collect()
}

fn finding<'r>(report: &'r LintReport, code: &str) -> &'r Finding {
    report.findings.iter().find(|f| f.code == code).unwrap_or_else(|| panic!("no {code} in {:#?}", report.findings))
}

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let mut codes = BTreeSet::new();
    let mut names = BTreeSet::new();
    for rule in all_rules() {
        assert!(codes.insert(rule.code), "duplicate code {}", rule.code);
        assert!(names.insert(rule.name), "duplicate name {}", rule.name);
        assert!(
            rule.code.len() == 5 && rule.code.starts_with("CP") && rule.code[2..].chars().all(|c| c.is_ascii_digit()),
            "{}",
            rule.code
        );
        assert!(rule.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'), "{}", rule.name);
        assert!(!rule.versions.is_empty() && !rule.why.is_empty() && !rule.fix.is_empty(), "{}", rule.code);
    }
}

#[test]
fn rules_are_found_by_code_or_name() {
    assert_eq!(find_rule("cp201").unwrap().name, "unknown-tool");
    assert_eq!(find_rule("unknown-tool").unwrap().code, "CP201");
    assert!(find_rule("CP999").is_none());
}

#[test]
fn committed_rule_reference_is_current() {
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md")).unwrap();
    assert!(
        committed == docs::rules_markdown(),
        "docs/rules.md is stale: run `cargo run -- rule --markdown > docs/rules.md`"
    );
}

#[test]
fn a_clean_config_has_no_findings() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { profile: \"coding\", deny: [\"browser\"] } }");
    assert!(report.findings.is_empty(), "{:#?}", report.findings);
}

#[test]
fn unknown_keys_point_at_the_key_with_a_suggestion() {
    let report = lint_text(OpenClawVersion::V2026_9, "{\n  tools: {\n    alsoAlow: [\"browser\"],\n  },\n}\n");
    let unknown = finding(&report, "CP101");
    let location = unknown.location.as_ref().unwrap();
    assert_eq!((location.line, location.column), (3, 5));
    assert!(unknown.help.as_deref().unwrap().contains("alsoAllow"), "{unknown:?}");
}

#[test]
fn typos_in_tool_names_get_a_did_you_mean() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { deny: [\"exce\", \"group:fs\", \"web_*\"] } }");
    assert_eq!(codes(&report), ["CP201"]);
    assert_eq!(finding(&report, "CP201").help.as_deref(), Some("did you mean `exec`?"));
    assert_eq!(finding(&report, "CP201").path.as_deref(), Some("tools.deny[0]"));
}

#[test]
fn renamed_tools_are_reported_per_release() {
    let text = "{ tools: { deny: [\"image\"] } }";
    assert_eq!(codes(&lint_text(OpenClawVersion::V2026_9, text)), ["CP202"]);
    assert!(codes(&lint_text(OpenClawVersion::V2026_2, text)).is_empty());
}

#[test]
fn globs_that_match_nothing_are_dead() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { deny: [\"shell_*\", \"sessions_*\"] } }");
    assert_eq!(codes(&report), ["CP203"]);
}

#[test]
fn deny_shadowing_an_allow_in_one_scope() {
    let report =
        lint_text(OpenClawVersion::V2026_9, "{ tools: { allow: [\"exec\", \"read\"], deny: [\"group:runtime\"] } }");
    assert_eq!(codes(&report), ["CP303"]);
    assert!(finding(&report, "CP303").message.contains("`exec`"));
}

#[test]
fn a_sandbox_allow_of_a_globally_denied_tool_is_dead() {
    let text = r#"{
      tools: { deny: ["exec"], sandbox: { tools: { allow: ["exec", "read"] } } },
      agents: { defaults: { sandbox: { mode: "all" } } },
    }"#;
    let report = lint_text(OpenClawVersion::V2026_9, text);
    let dead = finding(&report, "CP304");
    assert_eq!(dead.path.as_deref(), Some("tools.sandbox.tools.allow[0]"));
    assert!(dead.message.contains("tools.deny"), "{}", dead.message);
}

#[test]
fn sub_agent_also_allow_without_allow_is_ignored_in_2026_9() {
    let text = "{ tools: { subagents: { tools: { alsoAllow: [\"browser\"] } } } }";
    assert_eq!(codes(&lint_text(OpenClawVersion::V2026_9, text)), ["CP301"]);
    assert!(codes(&lint_text(OpenClawVersion::V2026_2, text)).is_empty());
}

#[test]
fn sandbox_also_allow_is_ignored_by_2026_2() {
    let text = "{ tools: { sandbox: { tools: { alsoAllow: [\"browser\"] } } } }";
    assert_eq!(codes(&lint_text(OpenClawVersion::V2026_2, text)), ["CP302"]);
    assert!(codes(&lint_text(OpenClawVersion::V2026_9, text)).is_empty());
}

#[test]
fn an_agent_left_without_tools() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { allow: [\"reed\"] } }");
    assert_eq!(codes(&report), ["CP305", "CP201"]);
}

#[test]
fn duplicate_keys_point_at_both_occurrences() {
    let report = lint_text(
        OpenClawVersion::V2026_9,
        "{\n  tools: { deny: [\"exec\"] },\n  tools: { profile: \"coding\" },\n}\n",
    );
    let duplicate = finding(&report, "CP107");
    assert!(duplicate.help.as_deref().unwrap().contains(":2:"), "{duplicate:?}");
}

#[test]
fn retired_keys_say_what_replaced_them() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { exec: { timeoutSec: 30 } } }");
    assert_eq!(codes(&report), ["CP108"]);
    assert_eq!(finding(&report, "CP108").severity, Severity::Error);
    assert!(finding(&report, "CP108").help.as_deref().unwrap().contains("timeoutSeconds"));
}

#[test]
fn semantic_rules_wait_for_a_valid_config() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { profile: \"default\", allow: [\"reed\"] } }");
    assert!(codes(&report).contains(&"CP103"));
    assert!(!codes(&report).contains(&"CP305"));
    assert!(report.skipped.iter().any(|s| s.code == "CP305"));
}

#[test]
fn selection_filters_by_code_name_and_severity() {
    let rule = find_rule("CP201").unwrap();
    let only = Selection { only: vec!["unknown-tool".into()], ..Selection::default() };
    assert!(only.selects(rule));
    let skip = Selection { skip: vec!["cp201".into()], ..Selection::default() };
    assert!(!skip.selects(rule));
    assert_eq!(Selection { only: vec!["CP999".into()], ..Selection::default() }.unknown_rule_names(), ["CP999"]);
}

#[test]
fn plugin_only_allowlists_mean_opposite_things_per_release() {
    let current = lint_text(OpenClawVersion::V2026_9, "{ tools: { allow: [\"memory-core\"] } }");
    assert!(finding(&current, "CP204").message.contains("every core tool is removed"));
    let seed = lint_text(OpenClawVersion::V2026_2, "{ tools: { allow: [\"memory-core\"] } }");
    assert!(finding(&seed, "CP204").message.contains("restricts nothing"));
}
