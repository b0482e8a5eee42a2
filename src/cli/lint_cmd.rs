//! `clawpolicy lint`: what is wrong or risky in this config, where, and how to fix it.

use std::fmt;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};
use serde::Serialize;

use super::ConfigArgs;
use super::exit::Exit;
use super::output::{self, Format};
use crate::config::snippet::{Excerpt, Mark};
use crate::exec::{self, ApprovalsInput};
use crate::lint::suppress::{Suppression, Suppressions};
use crate::lint::{self, Finding, LintContext, LintReport, Selection, Severity};
use crate::report::{self, Level};

/// `--format`: diagnostics with source snippets for a terminal, JSON, or a CI format.
const FORMATS: &[Format] = &[Format::Human, Format::Json, Format::Sarif, Format::Github, Format::Junit];

#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes:\n  0  no finding at or above --severity-min (suppressed findings do not count)\n  1  findings at or above --severity-min\n  2  could not lint: unreadable config, include errors, bad suppressions file, unknown rule"
)]
pub struct LintArgs {
    #[command(flatten)]
    pub config: ConfigArgs,
    #[arg(long, value_parser = output::formats("human", FORMATS), default_value = "human")]
    pub format: Format,
    /// Report (and fail on) findings of at least this severity.
    #[arg(long, value_enum, default_value_t = Severity::Warning, value_name = "SEVERITY")]
    pub severity_min: Severity,
    /// Run only these rules (codes or names; repeat or separate with commas).
    #[arg(long, value_delimiter = ',', value_name = "RULE")]
    pub only: Vec<String>,
    /// Never run these rules (codes or names; repeat or separate with commas).
    #[arg(long, value_delimiter = ',', value_name = "RULE")]
    pub skip: Vec<String>,
    /// Suppressions file. Default: `clawpolicy.suppressions.yaml` next to the first config file.
    #[arg(long, value_name = "FILE", conflicts_with = "no_suppressions")]
    pub suppressions: Option<PathBuf>,
    /// Ignore every suppression.
    #[arg(long)]
    pub no_suppressions: bool,
    /// The exec approvals store to check (default: the one OpenClaw itself would read, if any).
    #[arg(long, value_name = "PATH")]
    pub approvals: Option<PathBuf>,
    /// The cron jobs store whose jobs' runs to check (default: the one OpenClaw itself would
    /// read, if any): 2026.9's state database or 2026.2's `cron/jobs.json`.
    #[arg(long, value_name = "FILE")]
    pub jobs: Option<PathBuf>,
    /// A saved `openclaw mcp probe --json`: the MCP rules then check `toolFilter` patterns and
    /// policies against the tools it lists.
    #[arg(long, value_name = "FILE")]
    pub mcp_probe: Option<PathBuf>,
    /// Show every finding. By default at most 100 findings of one rule in one file are shown,
    /// and a note counts the rest (they still count in the summary and the exit code).
    #[arg(long)]
    pub all_findings: bool,
    /// Apply the fixes of the selected rules first (as `clawpolicy fix`), then lint what is left.
    #[arg(long)]
    pub fix: bool,
    #[command(flatten)]
    pub fix_flags: super::fix_cmd::FixFlags,
}

/// The JSON document: the report plus counts.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LintDocument<'a> {
    #[serde(flatten)]
    report: &'a LintReport,
    summary: Summary,
    unused_suppressions: Vec<&'a Suppression>,
}

#[derive(Serialize)]
struct Summary {
    error: usize,
    security: usize,
    warning: usize,
    suggestion: usize,
    suppressed: usize,
}

pub fn run(global: &super::Global, args: &LintArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    let selection = Selection {
        severity_min: args.severity_min,
        only: args.only.clone(),
        skip: args.skip.clone(),
        finding_cap: (!args.all_findings).then_some(lint::FINDINGS_PER_RULE_AND_FILE),
    };
    if let Some(unknown) = selection.unknown_rule_names().first() {
        return Err(miette::miette!(
            code = "lint::unknown-rule",
            help = "`clawpolicy rule --list` lists the rules",
            "{}",
            lint::no_rule_message(unknown)
        ));
    }
    let machine = args.format.machine("lint");
    if args.fix {
        let files = global.load_any(&args.config.files, version, machine)?;
        let suppressions = load_suppressions(args.suppressions.as_ref(), args.no_suppressions, files.loaded())?;
        if let Some(exit) =
            super::fix_cmd::before_lint(global, files.paths(), &args.fix_flags, &selection, &suppressions)?
        {
            return Ok(exit.into());
        }
    }
    let files = global.load_any(&args.config.files, version, machine)?;
    let (loaded, issues) = (files.loaded(), files.issues());
    let suppressions = load_suppressions(args.suppressions.as_ref(), args.no_suppressions, loaded)?;
    let approvals = match super::exec_cmd::approvals_input(global, version, args.approvals.as_deref()) {
        ApprovalsInput::None => None,
        input => Some(exec::approvals::load(&input, version)),
    };
    let jobs = super::jobs::store(global, loaded.value(), args.jobs.as_deref())?.jobs;
    let probe = args.mcp_probe.as_deref().map(crate::policy::mcp::read_probe).transpose()?;
    let ctx = LintContext::new(version, loaded, issues, approvals.as_ref())
        .with_validation_warnings(files.validation_warnings())
        .with_jobs(&jobs)
        .with_mcp_probe(probe.as_ref());
    let report = lint::lint(&ctx, &selection, &suppressions);
    // For a fleet, the sessions the rules shared are millions of small allocations, and freeing
    // them one by one cost a twentieth of the run; the process ends after printing, so they are
    // left to the operating system.
    std::mem::forget(ctx);
    let unused = suppressions.unused(&report.suppressed);
    let written = match args.format {
        Format::Json => {
            let document = LintDocument { report: &report, summary: summary(&report), unused_suppressions: unused };
            output::stream_machine_json("lint", &document)
        }
        Format::Sarif => {
            let log = sarif(&report, env!("CARGO_PKG_VERSION"));
            output::stream_stdout(|out| {
                serde_json::to_writer_pretty(&mut *out, &log).map_err(std::io::Error::from)?;
                out.write_all(b"\n")
            })
        }
        Format::Github => output::write_stdout(&github(&report)),
        Format::Junit => output::write_stdout(&junit(&report)?),
        _ => output::stream_stdout(|out| human(out, &report, &unused)),
    };
    finish(written, &report)
}

fn finish(written: miette::Result<()>, report: &LintReport) -> miette::Result<ExitCode> {
    written?;
    Ok(Exit::flagged_if(!report.findings.is_empty()).into())
}

/// The suppressions of `file`, else of the side file next to the first config (none with `ignore`).
fn load_suppressions(
    file: Option<&PathBuf>,
    ignore: bool,
    loaded: &crate::config::LoadedConfig,
) -> miette::Result<Suppressions> {
    if ignore {
        return Ok(Suppressions::default());
    }
    Ok(Suppressions::for_config(file.map(PathBuf::as_path), loaded.config_paths().first().map(PathBuf::as_path))?)
}

fn summary(report: &LintReport) -> Summary {
    Summary {
        error: report.count(Severity::Error),
        security: report.count(Severity::Security),
        warning: report.count(Severity::Warning),
        suggestion: report.count(Severity::Suggestion),
        suppressed: report.suppressed.len(),
    }
}

fn level(severity: Severity) -> Level {
    match severity {
        Severity::Error => Level::Error,
        Severity::Security | Severity::Warning => Level::Warning,
        Severity::Suggestion => Level::Note,
    }
}

fn report_rules() -> Vec<report::Rule> {
    lint::all_rules()
        .iter()
        .map(|rule| report::Rule {
            id: rule.code.to_string(),
            name: rule.name.to_string(),
            summary: rule.summary.to_string(),
            help_markdown: lint::docs::rule_markdown(rule),
            level: level(rule.severity),
            security_severity: match rule.severity {
                Severity::Error if rule.openclaw_check.is_some() => Some(9.0),
                Severity::Security => Some(7.0),
                _ => None,
            },
            tags: vec![rule.category.title().to_string()],
        })
        .collect()
}

fn report_location(finding: &Finding) -> Option<report::Location> {
    let location = finding.location.as_ref()?;
    Some(report::Location {
        file: report::display_path(std::path::Path::new(&location.file)),
        line: location.line,
        column: location.column,
    })
}

fn report_finding(finding: &Finding, suppressed: Option<String>) -> report::Finding {
    let message = match &finding.help {
        Some(help) => format!("{}\nhelp: {help}", finding.message),
        None => finding.message.clone(),
    };
    report::Finding {
        rule_id: finding.code.to_string(),
        level: level(finding.severity),
        title: format!("{} {}", finding.code, finding.rule),
        message,
        location: report_location(finding),
        suppressed,
    }
}

/// The notes on findings left out of the report ([`lint::OmittedFindings`]).
fn omitted_notes(report: &LintReport) -> Vec<String> {
    report.omitted.iter().map(|omitted| omitted.note.clone()).collect()
}

fn sarif(report: &LintReport, version: &str) -> serde_sarif::sarif::Sarif {
    report::sarif::log("clawpolicy", version, &report_rules(), &report_findings(report), &omitted_notes(report))
}

/// The annotations, and a notice for each group of findings left out.
fn github(report: &LintReport) -> String {
    let mut text = report::github::annotations(&report_findings(report));
    for note in omitted_notes(report) {
        text.push_str(&report::github::annotation(report::Level::Note, None, None, None, "", &note));
        text.push('\n');
    }
    text
}

fn report_findings(report: &LintReport) -> Vec<report::Finding> {
    let kept = report.findings.iter().map(|f| report_finding(f, None));
    let suppressed = report.suppressed.iter().map(|s| report_finding(&s.finding, Some(s.reason.clone())));
    kept.chain(suppressed).collect()
}

fn junit(report: &LintReport) -> miette::Result<String> {
    use report::junit::{Case, Failure, Suite};
    let suites: Vec<Suite> = lint::all_rules()
        .iter()
        .filter(|rule| !report.skipped.iter().any(|s| s.code == rule.code))
        .map(|rule| {
            let classname = Some(format!("{} {}", rule.code, rule.name));
            let mut cases: Vec<Case> = report
                .findings
                .iter()
                .filter(|f| f.code == rule.code)
                .map(|f| Case {
                    name: f.path.clone().unwrap_or_else(|| "config".into()),
                    classname: classname.clone(),
                    failure: Some(Failure {
                        message: format!("{}: {}", f.severity, f.message),
                        body: report_finding(f, None).message,
                    }),
                })
                .collect();
            for omitted in report.omitted.iter().filter(|o| o.code == rule.code) {
                let message = format!("{}: {}", omitted.severity, omitted.note);
                let failure = Some(Failure { body: omitted.note.clone(), message });
                cases.push(Case { name: "more findings not shown".into(), classname: classname.clone(), failure });
            }
            if cases.is_empty() {
                cases.push(Case { name: "config".into(), classname: classname.clone(), failure: None });
            }
            Suite { name: format!("{} {}", rule.code, rule.name), cases }
        })
        .collect();
    report::junit::write("clawpolicy lint", &suites).map_err(|e| miette::miette!("cannot write JUnit XML: {e}"))
}

/// A finding as a miette diagnostic: a few lines of the json5 source (secrets masked) with a
/// label under the value, the help, and where the rule is documented.
struct FindingDiagnostic<'a> {
    finding: &'a Finding,
    help: String,
    excerpt: Option<Excerpt>,
}

impl fmt::Debug for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.finding.message)
    }
}

impl fmt::Display for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::base::escape::visible(&self.finding.message))
    }
}

impl std::error::Error for FindingDiagnostic<'_> {}

impl Diagnostic for FindingDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(format!("{} {}", self.finding.code, self.finding.rule)))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Security | Severity::Warning => miette::Severity::Warning,
            Severity::Suggestion => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(crate::base::escape::block(&self.help)))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.excerpt.as_ref().map(|e| e as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.excerpt.as_ref().map(Excerpt::labels)
    }
}

/// Writes the human report finding by finding: the output of a config with thousands of
/// findings is streamed, never held whole.
fn human(out: &mut dyn Write, report: &LintReport, unused: &[&Suppression]) -> std::io::Result<()> {
    let terminal = std::io::stdout().is_terminal();
    let color = output::styled(terminal);
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let width = if terminal { 100 } else { usize::MAX };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width).with_wrap_lines(terminal);
    for finding in &report.findings {
        let mut text = String::new();
        let mut help = finding.help.clone().unwrap_or_default();
        if let Some(check) = &finding.openclaw_check {
            help.push_str(&format!("\nOpenClaw audit: {check}"));
        }
        help.push_str(&format!("\ndocs: `clawpolicy rule {}` (docs/rules.md#{})", finding.code, rule_anchor(finding)));
        let origin = finding.location.as_ref().and_then(|l| l.origin.as_ref());
        let excerpt = origin.map(|o| Excerpt::new(&o.source, vec![Mark::member(o, finding.severity.to_string())]));
        let diagnostic = FindingDiagnostic { finding, help: help.trim_start().to_string(), excerpt };
        if let Some(location) = &finding.location
            && location.origin.is_none()
        {
            text.push_str(&format!("{}:{}:{}\n", location.file, location.line, location.column));
        }
        // Rendering into a String cannot fail.
        let _ = handler.render_report(&mut text, &diagnostic);
        text.push('\n');
        out.write_all(text.as_bytes())?;
    }
    let mut text = String::new();
    for omitted in &report.omitted {
        text.push_str(&format!("note: {}\n", crate::base::escape::visible(&omitted.note)));
    }
    if let Some(first) = report.skipped.first() {
        // The codes are in `--format json`; here the count and the reason say enough.
        text.push_str(&format!("note: {} rules did not run: {}\n", report.skipped.len(), first.reason));
    }
    for entry in unused {
        text.push_str(&format!(
            "note: the suppression of `{}` matched no finding; remove it if it is stale\n",
            entry.rule
        ));
    }
    text.push_str(&summary_line(report));
    out.write_all(text.as_bytes())
}

fn rule_anchor(finding: &Finding) -> String {
    lint::find_rule(finding.code).map_or_else(String::new, |rule| rule.anchor())
}

fn summary_line(report: &LintReport) -> String {
    let s = summary(report);
    let mut parts: Vec<String> =
        [(s.error, "error"), (s.security, "security warning"), (s.warning, "warning"), (s.suggestion, "suggestion")]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}{}", if *n == 1 { "" } else { "s" }))
            .collect();
    if parts.is_empty() {
        parts.push("no findings".into());
    }
    format!(
        "{} ({} suppressed); {} rules run for OpenClaw {}\n",
        parts.join(", "),
        s.suppressed,
        report.rules_run,
        report.openclaw_version.id()
    )
}

/// Everything `lint` and the loader print for the config at `path`, in every format (what the
/// secret-masking property test and fuzz target search for planted secrets).
pub(crate) fn every_output(path: &std::path::Path, version: crate::OpenClawVersion) -> String {
    use crate::config::{self, LoadOptions};
    let render = crate::fuzzing::render;
    let cwd = path.parent().unwrap_or(std::path::Path::new("/")).to_path_buf();
    let opts = LoadOptions { version, env: Default::default(), cwd };
    let loaded = match config::load(&[path.to_path_buf()], &opts) {
        Ok(loaded) => loaded,
        Err(error) => return render(&error),
    };
    let issues = config::validate(&loaded, version);
    let mut out: String = issues.iter().map(|i| render(i)).collect();
    out.extend(loaded.warnings().iter().map(|w| render(w)));
    let ctx = LintContext::new(version, &loaded, &issues, None);
    let selection = Selection { severity_min: Severity::Suggestion, ..Selection::default() };
    let report = lint::lint(&ctx, &selection, &Suppressions::default());
    let mut human_text = Vec::new();
    let _ = human(&mut human_text, &report, &[]);
    out.push_str(&String::from_utf8_lossy(&human_text));
    let document = LintDocument { report: &report, summary: summary(&report), unused_suppressions: Vec::new() };
    out.push_str(&serde_json::to_string(&document).unwrap_or_default());
    out.push_str(&serde_json::to_string(&sarif(&report, "0")).unwrap_or_default());
    out.push_str(&github(&report));
    out.push_str(&junit(&report).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::OpenClawVersion;
    use crate::fuzzing::{Layout, NOISE, PLANTS, PlantedConfig};

    fn case() -> impl Strategy<Value = PlantedConfig> {
        let member = (0..PLANTS.len(), "[A-Za-z0-9]{10,16}", 1_000_000_000_000u64..9_000_000_000_000_000);
        (
            prop::collection::vec(member, 1..5),
            prop::collection::vec(0..NOISE.len(), 0..3),
            any::<bool>(),
            any::<bool>(),
            prop::option::of(any::<u16>()),
        )
            .prop_map(|(plants, noise, one_line, value_on_next_line, cut)| {
                PlantedConfig::build(&plants, &noise, Layout { one_line, value_on_next_line, cut }, "")
            })
    }

    fn every_output(text: &str, version: OpenClawVersion) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("openclaw.json5");
        std::fs::write(&path, text).unwrap();
        super::every_output(&path, version)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn no_planted_secret_appears_in_any_output(case in case(), v2 in any::<bool>()) {
            let version = if v2 { OpenClawVersion::V2026_2 } else { OpenClawVersion::V2026_9 };
            let out = every_output(&case.text, version);
            for secret in &case.secrets {
                prop_assert!(!out.contains(secret.as_str()), "{} leaked:\n{}\n---\n{}", secret, case.text, out);
            }
        }
    }

    #[test]
    fn an_unknown_key_deep_in_a_large_object_shows_a_few_lines() {
        let body: String =
            (0..300).map(|i| format!("      \"agent{i}\": {{ \"workspace\": \"/w/{i}\" }},\n")).collect();
        let text = format!(
            "{{\n  \"agents\": {{\n    \"entries\": {{\n{body}      \"x\": {{ \"tols\": {{}} }}\n    }}\n  }}\n}}\n"
        );
        let out = every_output(&text, OpenClawVersion::V2026_9);
        let human_part = &out[out.find("CP101").unwrap()..];
        let finding = &human_part[..human_part.find("docs:").unwrap()];
        assert!(finding.lines().count() <= 14, "{finding}");
        assert!(finding.contains("\"tols\""), "{finding}");
    }
}
