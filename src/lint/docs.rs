//! Rule documentation: `docs/rules.md` is generated from the registry (a test fails when the
//! committed file is stale), and `clawpolicy rule <code>` prints one rule.

use std::fmt::Write;

use super::registry::RETIRED;
use super::{Category, Rule, all_rules};
use crate::OpenClawVersion;

/// The path of the generated reference, relative to the repository root.
pub const RULES_DOC: &str = "docs/rules.md";

fn versions(rule: &Rule) -> String {
    let versions = rule.versions();
    if versions.len() == OpenClawVersion::ALL.len() {
        "all".to_string()
    } else {
        versions.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
    }
}

/// One rule as Markdown (a `###` section).
pub fn rule_markdown(rule: &Rule) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "### {} `{}`\n", rule.code, rule.name);
    let _ = writeln!(md, "{}\n", rule.summary);
    let _ = writeln!(md, "- Severity: {}", rule.severity);
    let _ = writeln!(md, "- Category: {}", rule.category.title());
    let _ = writeln!(md, "- Releases: {}", versions(rule));
    if let Some(check) = rule.openclaw_check {
        let _ = writeln!(md, "- OpenClaw audit check: `{check}`");
    }
    if rule.needs_valid_config {
        let _ = writeln!(md, "- Runs only on a config the release accepts");
    }
    let _ = writeln!(md, "\n**Why it matters.** {}\n", rule.why);
    let _ = writeln!(md, "**Example.**\n\n```json5\n{}\n```\n", rule.example);
    let _ = writeln!(md, "**Fix.** {}\n", rule.fix);
    md
}

/// One rule as plain text for the terminal.
pub fn rule_text(rule: &Rule) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "{} {} ({}, {})", rule.code, rule.name, rule.severity, rule.category.title());
    let _ = writeln!(text, "\n{}", rule.summary);
    if let Some(check) = rule.openclaw_check {
        let _ = writeln!(text, "OpenClaw audit check: {check}");
    }
    let _ = writeln!(text, "Releases: {}", versions(rule));
    let _ = writeln!(text, "\nWhy it matters:\n  {}", rule.why);
    let _ = writeln!(text, "\nExample:\n  {}", rule.example.replace('\n', "\n  "));
    let _ = writeln!(text, "\nFix:\n  {}", rule.fix);
    text
}

/// The whole reference: an index table, then one section per category.
pub fn rules_markdown() -> String {
    let mut md = String::from(
        "# Lint rules\n\n<!-- Generated from the rule registry (src/lint/rules/); do not edit by hand. \
         Regenerate with `cargo run -- rule --markdown > docs/rules.md`. -->\n\n\
         Every rule has a stable code and a kebab-case name; both work with `--only`, `--skip`, \
         suppressions and `clawpolicy rule`. Severities, lowest first: suggestion, warning, \
         security, error. Rules that mirror an OpenClaw `security audit` check name its checkId; \
         their findings take the audit's own severity (`critical` → error, `warn` → security, \
         `info` → suggestion).\n\n| Code | Name | Severity | Category | OpenClaw check |\n|---|---|---|---|---|\n",
    );
    for rule in all_rules() {
        let check = rule.openclaw_check.map_or(String::new(), |c| format!("`{c}`"));
        let _ = writeln!(
            md,
            "| [{}](#{}) | `{}` | {} | {} | {} |",
            rule.code,
            rule.anchor(),
            rule.name,
            rule.severity,
            rule.category.title(),
            check
        );
    }
    let mut categories: Vec<Category> = all_rules().iter().map(|r| r.category).collect();
    categories.sort();
    categories.dedup();
    for category in categories {
        let _ = writeln!(md, "\n## {}\n", category.title());
        for rule in all_rules().iter().filter(|r| r.category == category) {
            md.push_str(&rule_markdown(rule));
        }
    }
    let _ = writeln!(md, "\n## Retired codes\n\nNever given to another rule.\n");
    for (code, why) in RETIRED {
        let _ = writeln!(md, "- {code}: {why}");
    }
    md
}
