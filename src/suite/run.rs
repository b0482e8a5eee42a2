//! Running a suite: each case's session is resolved with [`policy::resolve`] (and exec decided
//! with [`crate::exec::evaluate`]), and every expectation is checked. Names the suite gets wrong
//! (an agent or tool the config and release do not have) are errors, never passes.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::coverage::{self, ConfigCoverage};
use super::{Case, Suite};
use crate::OpenClawVersion;
use crate::config::LoadOptions;
use crate::config::loading::{self, LoadedFiles};
use crate::exec::ApprovalsInput;
use crate::fleet::contexts;
use crate::fleet::probe::{ExecProber, ExecVerdict};
use crate::policy::{self, PluginTool, Resolution, SessionContext};

/// One expectation that did not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckFailure {
    /// `present`, `absent`, `exactly`, `removed-by`, `exec` or `lint`.
    pub check: &'static str,
    pub expected: String,
    pub actual: String,
}

impl CheckFailure {
    /// Expected versus actual as a line diff (`-` expected, `+` actual).
    pub fn diff(&self) -> String {
        let diff = similar::TextDiff::from_lines(&self.expected, &self.actual);
        diff.iter_all_changes()
            .map(|change| {
                let sign = match change.tag() {
                    similar::ChangeTag::Delete => '-',
                    similar::ChangeTag::Insert => '+',
                    similar::ChangeTag::Equal => ' ',
                };
                format!("{sign}{}", change.value().trim_end_matches('\n')) + "\n"
            })
            .collect()
    }
}

/// What the session actually does, kept for `--bless`.
#[derive(Debug, Clone, Default)]
pub struct Observed {
    pub tools: Vec<String>,
    /// Removed tool → the step that removed it.
    pub removed_by: BTreeMap<String, String>,
    pub exec: Vec<(String, ExecVerdict)>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseResult {
    pub name: String,
    pub agent_id: String,
    pub session_key: String,
    pub passed: bool,
    pub failures: Vec<CheckFailure>,
    #[serde(skip)]
    pub observed: Observed,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SuiteRun {
    pub openclaw_version: String,
    pub cases: Vec<CaseResult>,
    pub coverage: Vec<ConfigCoverage>,
}

impl SuiteRun {
    pub fn passed(&self) -> usize {
        self.cases.iter().filter(|c| c.passed).count()
    }

    pub fn failed(&self) -> usize {
        self.cases.len() - self.passed()
    }
}

/// A session a case resolved (for coverage, grouped per config file set).
type Session = (SessionContext, Resolution);

fn case_error(case: &Case, message: impl std::fmt::Display) -> miette::Report {
    miette::miette!(code = "suite::case", "case `{}`: {message}", case.name)
}

/// The release a suite simulates: its own `openclaw-version`, else the command line's.
pub fn suite_version(suite: &Suite, default: OpenClawVersion) -> miette::Result<OpenClawVersion> {
    match &suite.openclaw_version {
        Some(v) => v.parse().map_err(|e: String| miette::miette!(code = "suite::version", "{e}")),
        None => Ok(default),
    }
}

/// The config files of a case: its own, else the suite's (both relative to the suite file),
/// else `fallback` (from the command line).
pub fn case_config(suite: &Suite, case: &Case, suite_dir: &Path, fallback: &[PathBuf]) -> Vec<PathBuf> {
    let own = if case.config.is_empty() { &suite.config } else { &case.config };
    if own.is_empty() {
        fallback.to_vec()
    } else {
        own.iter().map(|p| crate::config::fspath::normalize(&suite_dir.join(p))).collect()
    }
}

/// Runs every case of `suite` (read from a file in `suite_dir`); `opts` say how configs load
/// (the suite may name its own release).
pub fn run(
    suite: &Suite,
    suite_dir: &Path,
    opts: &LoadOptions,
    fallback_config: &[PathBuf],
) -> miette::Result<SuiteRun> {
    let version = suite_version(suite, opts.version)?;
    let opts = LoadOptions { version, ..opts.clone() };
    let cwd = std::env::current_dir().map_err(|e| miette::miette!("no current directory: {e}"))?;
    let prober = ExecProber::new(version, ApprovalsInput::None, cwd);
    let mut configs: HashMap<Vec<PathBuf>, LoadedFiles> = HashMap::new();
    let mut exercised: Vec<(Vec<PathBuf>, Vec<Session>)> = Vec::new();
    let mut results = Vec::new();
    for case in &suite.cases {
        let files = case_config(suite, case, suite_dir, fallback_config);
        if files.is_empty() {
            return Err(case_error(case, "no config: set `config` in the suite or pass --config"));
        }
        if !configs.contains_key(&files) {
            let loaded = loading::load_accepted(&files, &opts)
                .map_err(|e| miette::Report::new(e).wrap_err(format!("case `{}`", case.name)))?;
            configs.insert(files.clone(), loaded);
        }
        let loaded = &configs[&files];
        let ctx = case.context.to_session(suite_dir).map_err(|e| e.wrap_err(format!("case `{}`", case.name)))?;
        let resolution = policy::resolve(version, loaded.config(), &ctx).map_err(|e| case_error(case, e))?;
        let agents = contexts::agent_ids(version, loaded.config());
        if !agents.contains(&resolution.agent_id) {
            return Err(case_error(
                case,
                format!("no agent `{}` in this config (agents: {})", resolution.agent_id, agents.join(", ")),
            ));
        }
        let (failures, observed) = check(case, version, loaded, &ctx.plugin_tools, &resolution, &prober)?;
        results.push(CaseResult {
            name: case.name.clone(),
            agent_id: resolution.agent_id.clone(),
            session_key: resolution.session_key.clone(),
            passed: failures.is_empty(),
            failures,
            observed,
        });
        match exercised.iter_mut().find(|(f, _)| *f == files) {
            Some((_, sessions)) => sessions.push((ctx, resolution)),
            None => exercised.push((files, vec![(ctx, resolution)])),
        }
    }
    let coverage = exercised
        .iter()
        .map(|(files, sessions)| coverage::coverage(version, files, configs[files].config(), sessions))
        .collect();
    Ok(SuiteRun { openclaw_version: version.id().to_string(), cases: results, coverage })
}

/// How a session treats a tool, in one phrase.
fn tool_state(resolution: &Resolution, tool: &str) -> String {
    if resolution.tools.iter().any(|t| t == tool) {
        return "present".into();
    }
    if let Some(removal) = resolution.removed.get(tool) {
        return format!("removed by {}", removal.step);
    }
    match resolution.not_constructed.get(tool) {
        Some(reason) => format!("not built ({reason})"),
        None => "not a candidate in this session".into(),
    }
}

fn lines(items: impl IntoIterator<Item = String>) -> String {
    items.into_iter().map(|l| l + "\n").collect()
}

fn check(
    case: &Case,
    version: OpenClawVersion,
    loaded: &LoadedFiles,
    plugin_tools: &[PluginTool],
    resolution: &Resolution,
    prober: &ExecProber,
) -> miette::Result<(Vec<CheckFailure>, Observed)> {
    let expect = &case.expect;
    let tool = |name: &String| {
        contexts::known_tool(version, name, plugin_tools, &[resolution]).map_err(|e| case_error(case, e))
    };
    let tools = |names: &[String]| names.iter().map(tool).collect::<miette::Result<Vec<String>>>();
    let mut failures = Vec::new();
    let has = |t: &String| resolution.tools.contains(t);

    for (check, names, wanted) in [("present", &expect.present, true), ("absent", &expect.absent, false)] {
        let wrong: Vec<String> = tools(names)?.into_iter().filter(|t| has(t) != wanted).collect();
        if !wrong.is_empty() {
            failures.push(CheckFailure {
                check,
                expected: lines(wrong.iter().map(|t| format!("{t}: {}", if wanted { "present" } else { "absent" }))),
                actual: lines(wrong.iter().map(|t| format!("{t}: {}", tool_state(resolution, t)))),
            });
        }
    }
    if let Some(exactly) = &expect.exactly {
        let mut wanted = tools(exactly)?;
        wanted.sort();
        wanted.dedup();
        if wanted != resolution.tools {
            failures.push(CheckFailure {
                check: "exactly",
                expected: lines(wanted),
                actual: lines(resolution.tools.iter().cloned()),
            });
        }
    }
    let mut expected_steps = Vec::new();
    let mut actual_steps = Vec::new();
    for (name, step) in &expect.removed_by {
        let name = tool(name)?;
        let actual = match resolution.removed.get(&name) {
            Some(removal) => format!("{name}: removed by {}", removal.step),
            None => format!("{name}: {}", tool_state(resolution, &name)),
        };
        let expected = format!("{name}: removed by {step}");
        if actual != expected {
            expected_steps.push(expected);
            actual_steps.push(actual);
        }
    }
    if !expected_steps.is_empty() {
        failures.push(CheckFailure {
            check: "removed-by",
            expected: lines(expected_steps),
            actual: lines(actual_steps),
        });
    }
    let mut exec = Vec::new();
    for expectation in &expect.exec {
        let verdict =
            prober.verdict(loaded.config(), resolution, &expectation.command).map_err(|e| case_error(case, e))?;
        if verdict != expectation.decision {
            failures.push(CheckFailure {
                check: "exec",
                expected: format!("`{}`: {}\n", expectation.command, expectation.decision),
                actual: format!("`{}`: {verdict}\n", expectation.command),
            });
        }
        exec.push((expectation.command.clone(), verdict));
    }
    if let Some(lint) = expect.lint.as_ref().filter(|l| !l.present.is_empty() || !l.absent.is_empty()) {
        if let Some(unknown) = lint.present.iter().chain(&lint.absent).find(|c| crate::lint::find_rule(c).is_none()) {
            return Err(case_error(
                case,
                format!("{} (see `clawpolicy rule --list`)", crate::lint::no_rule_message(unknown)),
            ));
        }
        let codes = crate::lint::finding_codes(version, loaded);
        let wrong: Vec<(&String, bool)> = (lint.present.iter().map(|c| (c, true)))
            .chain(lint.absent.iter().map(|c| (c, false)))
            .filter(|(name, wanted)| {
                let code = crate::lint::find_rule(name).map_or("", |rule| rule.code);
                codes.iter().any(|c| c == code) != *wanted
            })
            .collect();
        let reported = |wanted: bool| if wanted { "reported" } else { "not reported" };
        if !wrong.is_empty() {
            failures.push(CheckFailure {
                check: "lint",
                expected: lines(wrong.iter().map(|(c, w)| format!("{c}: {}", reported(*w)))),
                actual: lines(wrong.iter().map(|(c, w)| format!("{c}: {}", reported(!*w)))),
            });
        }
    }
    let observed = Observed {
        tools: resolution.tools.clone(),
        removed_by: resolution.removed.iter().map(|(t, r)| (t.clone(), r.step.to_string())).collect(),
        exec,
    };
    Ok((failures, observed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::{CaseContext, ExecExpectation, Expect, LintExpectation};

    fn suite_with(expect: Expect, context: CaseContext) -> (tempfile::TempDir, Suite) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("c.json5"),
            r#"{ agents: { entries: { a: { tools: { deny: ["exec"] } } } },
                 channels: { telegram: { groups: { "*": { tools: { deny: ["read"] } } } } } }"#,
        )
        .unwrap();
        let case = Case { name: "one".into(), config: vec![], context, expect };
        (dir, Suite { config: vec!["c.json5".into()], cases: vec![case], ..Suite::default() })
    }

    fn run_one(expect: Expect, context: CaseContext) -> miette::Result<SuiteRun> {
        let (dir, suite) = suite_with(expect, context);
        run(&suite, dir.path(), &crate::config::loading::process_options(OpenClawVersion::V2026_9), &[])
    }

    #[test]
    fn passing_and_failing_expectations() {
        let expect = Expect {
            present: vec!["read".into(), "exec".into()],
            absent: vec!["EXEC".into()],
            removed_by: [("exec".to_string(), "agents.a.tools.allow".to_string())].into(),
            exec: vec![ExecExpectation { command: "ls".into(), decision: ExecVerdict::Unavailable }],
            ..Expect::default()
        };
        let run = run_one(expect, CaseContext::default()).unwrap();
        let case = &run.cases[0];
        assert!(!case.passed);
        assert_eq!(case.failures.len(), 1, "{:?}", case.failures);
        let failure = &case.failures[0];
        assert_eq!(failure.check, "present");
        assert_eq!(failure.diff(), "-exec: present\n+exec: removed by agents.a.tools.allow\n");
    }

    #[test]
    fn exact_sets_show_a_diff() {
        let context = CaseContext { session: Some("agent:a:telegram:group:-1".into()), ..CaseContext::default() };
        let expect = Expect { exactly: Some(vec!["read".into()]), ..Expect::default() };
        let run = run_one(expect, context).unwrap();
        let diff = run.cases[0].failures[0].diff();
        assert!(diff.starts_with("-read\n"), "{diff}");
        assert!(diff.contains("\n+"), "{diff}");
        assert_eq!(run.failed(), 1);
    }

    #[test]
    fn unknown_names_are_errors() {
        let expect = Expect { present: vec!["reed".into()], ..Expect::default() };
        let err = run_one(expect, CaseContext::default()).unwrap_err();
        assert!(err.to_string().contains("did you mean `read`"), "{err}");
        let expect = Expect { present: vec!["read".into()], ..Expect::default() };
        let err = run_one(expect.clone(), CaseContext { agent: Some("b".into()), ..CaseContext::default() });
        assert!(err.unwrap_err().to_string().contains("no agent `b`"));
        let lint = Expect { lint: Some(LintExpectation { present: vec!["X1".into()], absent: vec![] }), ..expect };
        assert!(run_one(lint, CaseContext::default()).unwrap_err().to_string().contains("no rule is called `X1`"));
    }

    #[test]
    fn lint_expectations_use_the_lint_engine() {
        let unknown_tool = Expect {
            lint: Some(LintExpectation { present: vec!["CP201".into()], absent: vec![] }),
            ..Expect::default()
        };
        // The suite's config names no unknown tool, so CP201 is missing.
        assert_eq!(run_one(unknown_tool, CaseContext::default()).unwrap().failed(), 1);
        let absent = Expect {
            lint: Some(LintExpectation { present: vec![], absent: vec!["unknown-tool".into()] }),
            ..Expect::default()
        };
        assert_eq!(run_one(absent, CaseContext::default()).unwrap().failed(), 0);
    }
}
