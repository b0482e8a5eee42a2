//! `clawpolicy test suite.yaml`: check a policy test suite, or bless the current behaviour.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::ConfigArgs;
use super::exit::Exit;
use super::output::{self, Format};
use crate::report;
use crate::suite::run::{CaseResult, SuiteRun};
use crate::suite::{self, bless};

/// `--format`: failures in detail, coverage, then `N passed, N failed`; the documents; JUnit.
const FORMATS: &[Format] = &[Format::Human, Format::Json, Format::Yaml, Format::Junit];

#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes:\n  0  every case passed (or --bless wrote the suite)\n  1  a case failed\n  2  could not run: bad suite (unknown field, agent or tool), bad config"
)]
pub struct TestArgs {
    /// The suite file (YAML).
    #[arg(required_unless_present = "schema")]
    pub suite: Option<PathBuf>,
    /// Config files for cases that name none (the suite's own `config` wins). With --bless and a
    /// suite file that does not exist yet, the config to scaffold a suite from.
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Write the current behaviour into the suite (or scaffold a new suite) instead of checking.
    #[arg(long)]
    pub bless: bool,
    /// Print the JSON Schema of the suite format and exit.
    #[arg(long, conflicts_with_all = ["suite", "bless"])]
    pub schema: bool,
    #[arg(long, value_parser = output::formats("human", FORMATS), default_value = "human")]
    pub format: Format,
}

pub fn run(global: &super::Global, args: &TestArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    let Some(path) = args.suite.as_deref().filter(|_| !args.schema) else {
        output::write_stdout(&suite::schema())?;
        return Ok(ExitCode::SUCCESS);
    };
    let suite_dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if args.bless && !path.exists() {
        return scaffold(global, path, suite_dir, &args.config.files);
    }
    let suite = suite::load(path)?;
    let outcome = suite::run::run(&suite, suite_dir, &global.options(), &args.config.files)?;
    if args.bless {
        let version = suite::run::suite_version(&suite, version)?;
        let blessed = bless::update(version, &suite, &outcome);
        write_suite(path, &blessed)?;
        output::write_stderr(&format!("blessed {} case(s) in {}", blessed.cases.len(), path.display()));
        return Ok(ExitCode::SUCCESS);
    }
    match args.format {
        Format::Json | Format::Yaml => output::emit_machine(args.format, "test", &outcome)?,
        Format::Junit => output::write_stdout(&junit(path, &outcome)?)?,
        _ => output::write_stdout(&render(&outcome))?,
    }
    Ok(Exit::flagged_if(outcome.failed() > 0).into())
}

/// A new suite with one case per enumerated session of the given config.
fn scaffold(global: &super::Global, path: &Path, suite_dir: &Path, files: &[PathBuf]) -> miette::Result<ExitCode> {
    let version = global.version;
    if files.is_empty() {
        return Err(miette::miette!(
            code = "test::bless",
            help = "pass --config FILE to scaffold a suite from that config",
            "{} does not exist and no config was given",
            path.display()
        ));
    }
    let loaded = global.load(files, None)?;
    // The suite names its configs relative to itself.
    let absolute_dir = std::path::absolute(suite_dir).map_err(|e| miette::miette!("{e}"))?;
    let relative: Vec<PathBuf> = files
        .iter()
        .map(|f| {
            let absolute = std::path::absolute(f).unwrap_or_else(|_| f.clone());
            relative_path(&absolute_dir, &absolute)
        })
        .collect();
    let suite = bless::scaffold(version, relative, loaded.config());
    write_suite(path, &suite)?;
    output::write_stderr(&format!("wrote {} case(s) to {}", suite.cases.len(), path.display()));
    Ok(ExitCode::SUCCESS)
}

/// `to` relative to the directory `from` (both absolute), with `..` where needed.
fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let (from, to) = (crate::config::fspath::normalize(from), crate::config::fspath::normalize(to));
    let common = from.components().zip(to.components()).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in from.components().skip(common) {
        out.push("..");
    }
    out.extend(to.components().skip(common));
    out
}

fn write_suite(path: &Path, suite: &suite::Suite) -> miette::Result<()> {
    let text = suite::to_yaml(suite).map_err(|e| miette::miette!("cannot write YAML: {e}"))?;
    Ok(bless::write(path, &text)?)
}

fn case_failure_text(case: &CaseResult) -> String {
    case.failures.iter().map(|f| format!("{}:\n{}", f.check, indent(&f.diff(), "  "))).collect()
}

fn indent(text: &str, prefix: &str) -> String {
    text.lines().map(|l| format!("{prefix}{l}\n")).collect()
}

fn render(outcome: &SuiteRun) -> String {
    let mut out = String::new();
    for case in outcome.cases.iter().filter(|c| !c.passed) {
        out.push_str(&format!("FAIL {} ({} · {})\n", case.name, case.agent_id, case.session_key));
        out.push_str(&indent(&case_failure_text(case), "  "));
        out.push('\n');
    }
    for coverage in &outcome.coverage {
        let (covered, total) = coverage.counts();
        out.push_str(&format!("Coverage of {}: {covered} of {total} contexts\n", coverage.config.join(" + ")));
        for agent in &coverage.agents {
            if agent.covered.is_empty() {
                out.push_str(&format!("  agent {}: never exercised\n", agent.agent_id));
            } else if !agent.uncovered.is_empty() {
                out.push_str(&format!("  agent {}: not exercised: {}\n", agent.agent_id, agent.uncovered.join(", ")));
            }
        }
    }
    out.push_str(&format!("{} passed, {} failed\n", outcome.passed(), outcome.failed()));
    out
}

fn junit(path: &Path, outcome: &SuiteRun) -> miette::Result<String> {
    let cases = outcome
        .cases
        .iter()
        .map(|case| report::junit::Case {
            name: case.name.clone(),
            classname: Some(case.agent_id.clone()),
            failure: (!case.passed).then(|| report::junit::Failure {
                message: format!("{} expectation(s) failed", case.failures.len()),
                body: case_failure_text(case),
            }),
        })
        .collect();
    let suite = report::junit::Suite { name: path.display().to_string(), cases };
    report::junit::write("clawpolicy test", &[suite]).map_err(|e| miette::miette!("cannot write JUnit XML: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_with_dot_dot() {
        assert_eq!(relative_path(Path::new("/a/b"), Path::new("/a/c/d.json5")), PathBuf::from("../c/d.json5"));
        assert_eq!(relative_path(Path::new("/a"), Path::new("/a/d.json5")), PathBuf::from("d.json5"));
    }
}
