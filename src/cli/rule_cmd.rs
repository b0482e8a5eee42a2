//! `clawpolicy rule`: the documentation of one lint rule, the list of rules, or the whole
//! reference as Markdown (which is how docs/rules.md is generated).

use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use super::output::{self, Format};
use crate::lint::{self, Rule};

#[derive(Debug, Args)]
pub struct RuleArgs {
    /// Rule code or name (`CP201`, `unknown-tool`).
    #[arg(required_unless_present_any = ["list", "markdown"])]
    pub rule: Option<String>,
    /// List every rule.
    #[arg(long, conflicts_with_all = ["rule", "markdown"])]
    pub list: bool,
    /// Print the whole rule reference as Markdown (docs/rules.md).
    #[arg(long, conflicts_with = "rule")]
    pub markdown: bool,
    #[arg(long, value_parser = output::formats("table", output::TABLES_AND_DOCUMENTS), default_value = "table")]
    pub format: Format,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleDoc<'a> {
    code: &'a str,
    name: &'a str,
    severity: lint::Severity,
    category: lint::Category,
    summary: &'a str,
    why: &'a str,
    example: &'a str,
    fix: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    openclaw_check: Option<&'a str>,
    versions: Vec<String>,
}

impl<'a> From<&'a Rule> for RuleDoc<'a> {
    fn from(rule: &'a Rule) -> Self {
        RuleDoc {
            code: rule.code,
            name: rule.name,
            severity: rule.severity,
            category: rule.category,
            summary: rule.summary,
            why: rule.why,
            example: rule.example,
            fix: rule.fix,
            openclaw_check: rule.openclaw_check,
            versions: rule.versions().iter().map(ToString::to_string).collect(),
        }
    }
}

pub fn run(args: &RuleArgs) -> miette::Result<ExitCode> {
    if args.markdown {
        output::write_stdout(&lint::docs::rules_markdown())?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.list {
        let rules: Vec<RuleDoc> = lint::all_rules().iter().map(|r| RuleDoc::from(*r)).collect();
        if args.format != Format::Human {
            output::emit_machine(args.format, "rules", &serde_json::json!({ "rules": rules }))?;
            return Ok(ExitCode::SUCCESS);
        }
        let mut table = output::table(&["Code", "Name", "Severity", "Category", "OpenClaw check"]);
        for rule in lint::all_rules() {
            table.add_row([
                rule.code,
                rule.name,
                rule.severity.as_str(),
                rule.category.title(),
                rule.openclaw_check.unwrap_or(""),
            ]);
        }
        output::write_stdout(&format!("{table}\n"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let name = args.rule.as_deref().unwrap_or_default();
    let rule = lint::find_rule(name).ok_or_else(|| {
        miette::miette!(
            code = "rule::unknown",
            help = "`clawpolicy rule --list` lists the rules",
            "{}",
            lint::no_rule_message(name)
        )
    })?;
    match args.format {
        Format::Human => output::write_stdout(&lint::docs::rule_text(rule))?,
        format => output::emit_machine(format, "rule", &RuleDoc::from(rule))?,
    }
    Ok(ExitCode::SUCCESS)
}
