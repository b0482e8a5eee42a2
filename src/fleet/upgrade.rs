//! `upgrade`: what moving one config from one release to another does. The config is loaded under
//! every registered release on the way (both ends included); for each it says whether that
//! release loads it, with every config problem classified as the loader classifies it
//! (migrated, doctor, fatal); between each two consecutive releases it compares every session
//! with [`diff`] (one config under two releases) and the lint findings, so each change is told
//! at the release where it happens.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::OpenClawVersion;
use crate::config::loading::LoadedFiles;
use crate::config::{Location, ProblemKind};
use crate::exec::ExecError;
use crate::fleet::diff::{self, Changes};
use crate::lint::{self, Finding, LintContext, Selection, suppress::Suppressions};
use crate::report::{self, Level, Rule};

/// A release the config passes through: the config as that release loads it.
pub struct Stop<'a> {
    pub config: diff::Config<'a>,
    pub files: &'a LoadedFiles,
}

/// Whether one release loads the config, and the problems it reports.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseLoad {
    pub openclaw_version: OpenClawVersion,
    /// The release accepts the config (it may still migrate parts of it while loading).
    pub loads: bool,
    /// The lint findings that are config problems (each with its `kind` and the edit in `help`),
    /// fatal first.
    pub problems: Vec<Finding>,
    /// Lint rules that need a config the release accepts, not run because it refuses this one.
    pub rules_skipped: usize,
}

impl ReleaseLoad {
    pub fn count(&self, kind: ProblemKind) -> usize {
        self.problems.iter().filter(|p| p.kind == Some(kind)).count()
    }
}

/// Lint findings new on the later release of a step, and gone from it.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LintDelta {
    pub new: Vec<Finding>,
    pub gone: Vec<Finding>,
}

/// What changes between two consecutive releases.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub from: OpenClawVersion,
    pub to: OpenClawVersion,
    #[serde(flatten)]
    pub changes: Changes,
    pub lint: LintDelta,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// The target release accepts the config.
    pub loads: bool,
    /// The target's problems by kind.
    pub fatal: usize,
    pub doctor: usize,
    pub migrated: usize,
    pub tools_gained: usize,
    pub tools_lost: usize,
    pub audiences_widened: usize,
    pub exec_loosened: usize,
    pub exec_tightened: usize,
    pub posture_changes: usize,
    pub lint_new: usize,
    pub lint_gone: usize,
    /// At some step a tool became reachable, a session holding tools became reachable by more
    /// senders, or an exec decision loosened.
    pub new_access: bool,
    /// At some step a tool became unreachable or an exec decision tightened.
    pub lost_access: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeReport {
    pub from: OpenClawVersion,
    pub to: OpenClawVersion,
    /// Every release on the way, in order, `from` first.
    pub releases: Vec<ReleaseLoad>,
    pub steps: Vec<Step>,
    pub summary: Summary,
}

/// The registered releases from `from` to `to`, both included, in the order the config meets
/// them (newest first when going back).
pub fn path(from: OpenClawVersion, to: OpenClawVersion) -> Vec<OpenClawVersion> {
    let mut releases: Vec<OpenClawVersion> =
        OpenClawVersion::ALL.into_iter().filter(|v| *v >= from.min(to) && *v <= from.max(to)).collect();
    releases.sort();
    if from > to {
        releases.reverse();
    }
    releases
}

/// Compares the config at each stop (as [`path`] orders them) with the next: `from` first, then
/// `onward`, the target last.
pub fn upgrade(from: &Stop<'_>, onward: &[Stop<'_>], options: &diff::Options<'_>) -> Result<UpgradeReport, ExecError> {
    let stops: Vec<&Stop<'_>> = std::iter::once(from).chain(onward).collect();
    let linted: Vec<(ReleaseLoad, Vec<Finding>, BTreeSet<&'static str>)> =
        stops.iter().map(|stop| lint_stop(stop)).collect();
    let mut steps = Vec::new();
    for (pair, lints) in stops.windows(2).zip(linted.windows(2)) {
        let changes = diff::diff(&pair[0].config, &pair[1].config, options)?;
        let (before, after) = (&lints[0], &lints[1]);
        // A rule one side skipped says nothing about that side: its findings are not compared.
        let compared = |finding: &&Finding| before.2.contains(finding.code) && after.2.contains(finding.code);
        let lint = LintDelta {
            new: missing_from(&after.1, &before.1, (pair[1].config.version, pair[0].config.version), compared),
            gone: missing_from(&before.1, &after.1, (pair[0].config.version, pair[1].config.version), compared),
        };
        steps.push(Step { from: pair[0].config.version, to: pair[1].config.version, changes, lint });
    }
    let releases: Vec<ReleaseLoad> = linted.into_iter().map(|(load, _, _)| load).collect();
    // `from` is always there, so the first and the last release are.
    let target = &releases[releases.len() - 1];
    let total = |count: fn(&Step) -> usize| steps.iter().map(count).sum::<usize>();
    let summary = Summary {
        loads: target.loads,
        fatal: target.count(ProblemKind::Fatal),
        doctor: target.count(ProblemKind::Doctor),
        migrated: target.count(ProblemKind::Migrated),
        tools_gained: total(|s| s.changes.summary.tools_gained),
        tools_lost: total(|s| s.changes.summary.tools_lost),
        audiences_widened: total(|s| s.changes.summary.audiences_widened),
        exec_loosened: total(|s| s.changes.summary.exec_loosened),
        exec_tightened: total(|s| s.changes.summary.exec_tightened),
        posture_changes: total(|s| s.changes.summary.posture_changes),
        lint_new: total(|s| s.lint.new.len()),
        lint_gone: total(|s| s.lint.gone.len()),
        new_access: steps.iter().any(|s| s.changes.summary.new_access),
        lost_access: steps.iter().any(|s| s.changes.summary.tools_lost > 0 || s.changes.summary.exec_tightened > 0),
    };
    Ok(UpgradeReport { from: releases[0].openclaw_version, to: target.openclaw_version, releases, steps, summary })
}

/// Lints the config under the stop's release: its config problems, its other findings (files
/// named relative to the working directory), and the rules that ran.
fn lint_stop(stop: &Stop<'_>) -> (ReleaseLoad, Vec<Finding>, BTreeSet<&'static str>) {
    let version = stop.config.version;
    let files = stop.files;
    let ctx = LintContext::new(version, files.loaded(), files.issues(), None)
        .with_validation_warnings(files.validation_warnings());
    let selection = Selection { finding_cap: Some(lint::FINDINGS_PER_RULE_AND_FILE), ..Selection::default() };
    let report = lint::lint(&ctx, &selection, &Suppressions::default());
    let (mut problems, others): (Vec<Finding>, Vec<Finding>) = report
        .findings
        .into_iter()
        .map(|mut finding| {
            if let Some(location) = &mut finding.location {
                location.file = report::display_path(std::path::Path::new(&location.file));
            }
            finding
        })
        .partition(|finding| finding.kind.is_some());
    problems.sort_by_key(|p| std::cmp::Reverse(p.kind));
    let skipped: BTreeSet<&str> = report.skipped.iter().map(|s| s.code).collect();
    let ran = lint::all_rules()
        .iter()
        .filter(|r| r.applies_to(version) && !skipped.contains(r.code))
        .map(|r| r.code)
        .collect();
    let load = ReleaseLoad {
        openclaw_version: version,
        loads: files.issues().is_empty(),
        problems,
        rules_skipped: skipped.len(),
    };
    (load, others, ran)
}

/// Where a lint finding points, as the CI formats take it.
pub fn place(finding: &Finding) -> Option<Location> {
    finding.location.as_ref().map(|l| Location { file: l.file.clone(), line: l.line, column: l.column })
}

/// The findings of `side` that `other` has not, compared by rule, agent, place and message (with
/// each release's own name taken out of the message). The place is where the finding is written
/// when known: a release that moves a key while loading (`agents.list[0]` read as
/// `agents.entries.main`) reports the same value under another path.
fn missing_from(
    side: &[Finding],
    other: &[Finding],
    (side_version, other_version): (OpenClawVersion, OpenClawVersion),
    compared: impl Fn(&&Finding) -> bool,
) -> Vec<Finding> {
    let key = |finding: &Finding, version: OpenClawVersion| {
        let message = finding.message.replace(version.id(), "<release>").replace(version.line(), "<release>");
        let place = place(finding).map(|l| l.to_string()).or_else(|| finding.path.clone());
        (finding.code, finding.agent.clone(), place, message)
    };
    let known: BTreeSet<_> = other.iter().map(|f| key(f, other_version)).collect();
    side.iter().filter(compared).filter(|f| !known.contains(&key(f, side_version))).cloned().collect()
}

/// The rules `upgrade` reports under (SARIF rule ids): the config problems, the changes of
/// [`diff::rules`] under `upgrade/`, and lint findings new or gone.
pub fn rules() -> Vec<Rule> {
    let problems = [
        ("upgrade/fatal", "The target release refuses the config and nothing repairs it automatically", Level::Error),
        (
            "upgrade/doctor",
            "The target release refuses to start until `openclaw doctor --fix` repairs the config",
            Level::Error,
        ),
        ("upgrade/migrated", "The target release rewrites this while loading; rewrite the file to match", Level::Note),
        ("upgrade/lint-new", "A lint finding the later release has and the earlier had not", Level::Warning),
        ("upgrade/lint-gone", "A lint finding the earlier release had and the later has not", Level::Note),
    ];
    let mut rules: Vec<Rule> = problems.iter().map(|(id, summary, level)| Rule::new(id, summary, *level)).collect();
    rules.extend(diff::rules().into_iter().map(|rule| Rule { id: upgrade_rule_id(&rule.id), ..rule }));
    rules
}

fn upgrade_rule_id(diff_rule: &str) -> String {
    diff_rule.replacen("diff/", "upgrade/", 1)
}

/// What `--fail-on` can name.
#[derive(Debug, Clone, Copy, Default)]
pub struct FailOn {
    pub fatal: bool,
    pub new_access: bool,
    pub lost_access: bool,
}

impl FailOn {
    /// Whether the report fails the run.
    pub fn fails(&self, report: &UpgradeReport) -> bool {
        let s = &report.summary;
        (self.fatal && s.fatal > 0) || (self.new_access && s.new_access) || (self.lost_access && s.lost_access)
    }
}

/// The report as generic findings for SARIF and GitHub annotations: the target's config
/// problems, then each step's changes (titled with the step) and lint findings new or gone.
/// What `fail_on` names is an error, the rest warnings and notes.
pub fn findings(report: &UpgradeReport, fail_on: FailOn, fallback_file: Option<&str>) -> Vec<report::Finding> {
    let at = |location: Option<&Location>| {
        location.cloned().or_else(|| fallback_file.map(|file| Location { file: file.to_string(), line: 1, column: 1 }))
    };
    let mut out = Vec::new();
    let Some(target) = report.releases.last() else { return out };
    for problem in &target.problems {
        let Some(kind) = problem.kind else { continue };
        let level = match kind {
            ProblemKind::Fatal if fail_on.fatal => Level::Error,
            ProblemKind::Migrated => Level::Note,
            _ => Level::Warning,
        };
        let help = problem.help.as_deref().map(|h| format!("\n{h}")).unwrap_or_default();
        out.push(report::Finding {
            rule_id: format!("upgrade/{kind}"),
            level,
            title: format!("{kind} on OpenClaw {}: {}", target.openclaw_version.id(), problem.code),
            message: format!("{}{help}", problem.message),
            location: at(place(problem).as_ref()),
            suppressed: None,
        });
    }
    for step in &report.steps {
        let name = format!("{} → {}", step.from.id(), step.to.id());
        for mut finding in diff::findings(&step.changes, fail_on.new_access, fallback_file) {
            finding.rule_id = upgrade_rule_id(&finding.rule_id);
            finding.title = format!("{name}: {}", finding.title);
            let lost = matches!(finding.rule_id.as_str(), "upgrade/tool-lost" | "upgrade/exec-tightened");
            if lost && fail_on.lost_access {
                finding.level = Level::Error;
            }
            out.push(finding);
        }
        for (rule_id, level, verb, list) in [
            ("upgrade/lint-new", Level::Warning, "new", &step.lint.new),
            ("upgrade/lint-gone", Level::Note, "gone", &step.lint.gone),
        ] {
            for finding in list {
                out.push(report::Finding {
                    rule_id: rule_id.into(),
                    level,
                    title: format!("{name}: {} {} {verb}", finding.code, finding.rule),
                    message: finding.message.clone(),
                    location: at(place(finding).as_ref()),
                    suppressed: None,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_passes_every_registered_release_between_in_the_direction_taken() {
        let (old, new) = (OpenClawVersion::V2026_2, OpenClawVersion::V2026_9);
        let all_between: Vec<OpenClawVersion> = {
            let mut all = OpenClawVersion::ALL.to_vec();
            all.reverse();
            all
        };
        assert_eq!(path(old, new), all_between);
        let mut back = all_between.clone();
        back.reverse();
        assert_eq!(path(new, old), back);
    }

    #[test]
    fn each_change_is_told_at_the_step_where_it_happens() {
        // Three stops, there and back: what 2026.9 changes is undone on the way back, and the
        // summary counts both steps; the last stop is the target.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("openclaw.json5");
        std::fs::write(&file, "{ tools: { exec: { host: \"gateway\" } } }").unwrap();
        let load = |version: OpenClawVersion| {
            let options = crate::config::LoadOptions { version, env: Default::default(), cwd: dir.path().into() };
            crate::config::loading::load_files(std::slice::from_ref(&file), &options).unwrap()
        };
        let (old, new) = (OpenClawVersion::V2026_2, OpenClawVersion::V2026_9);
        let loaded = [load(old), load(new), load(old)];
        let none = |_: &crate::config::path::KeyPath| None;
        let stops: Vec<Stop<'_>> = [old, new, old]
            .into_iter()
            .zip(&loaded)
            .map(|(version, files)| Stop {
                config: diff::Config { value: files.config(), version, locate: &none, locate_nearest: &none },
                files,
            })
            .collect();
        let probes = ["rm -rf build".to_string()];
        let options = diff::Options {
            plugin_tools: &[],
            jobs: &[],
            agents: &[],
            probes: &probes,
            approvals: crate::exec::ApprovalsInput::None,
            cwd: "/".into(),
        };
        let report = upgrade(&stops[0], &stops[1..], &options).unwrap();
        let steps: Vec<(&str, &str)> = report.steps.iter().map(|s| (s.from.id(), s.to.id())).collect();
        assert_eq!(steps, [("2026.2.25", "2026.9.6"), ("2026.9.6", "2026.2.25")]);
        let [there, back] = [&report.steps[0].changes.summary, &report.steps[1].changes.summary];
        assert!(there.exec_loosened > 0 && there.exec_tightened == 0, "{there:?}");
        assert_eq!((back.exec_tightened, back.exec_loosened), (there.exec_loosened, 0));
        assert_eq!(report.summary.exec_loosened + report.summary.exec_tightened, 2 * there.exec_loosened);
        assert!(report.summary.new_access && report.summary.lost_access);
        assert_eq!((report.from, report.to), (old, old));
    }

    fn finding(code: &'static str, message: &str, path: &str, line: usize) -> Finding {
        Finding {
            code,
            rule: "rule",
            severity: lint::Severity::Warning,
            message: message.into(),
            path: Some(path.into()),
            location: Some(lint::Location { file: "c.json5".into(), line, column: 3, path: path.into(), origin: None }),
            help: None,
            openclaw_check: None,
            agent: None,
            kind: None,
            autofix: None,
        }
    }

    #[test]
    fn a_finding_about_the_same_written_value_is_neither_new_nor_gone() {
        let (old, new) = (OpenClawVersion::V2026_2, OpenClawVersion::V2026_9);
        let before = [finding("CP201", "`glob` is no tool of OpenClaw 2026.2", "agents.list[0].tools.allow[1]", 7)];
        let after = [
            finding("CP201", "`glob` is no tool of OpenClaw 2026.9", "agents.entries.a.tools.allow[1]", 7),
            finding("CP201", "`grep` is no tool of OpenClaw 2026.9", "agents.entries.a.tools.allow[2]", 8),
        ];
        let all = |_: &&Finding| true;
        let new_ones = missing_from(&after, &before, (new, old), all);
        assert_eq!(new_ones.len(), 1);
        assert!(new_ones[0].message.contains("grep"));
        assert!(missing_from(&before, &after, (old, new), all).is_empty());
        // A rule that did not run on one side is not compared.
        assert!(missing_from(&after, &before, (new, old), |_: &&Finding| false).is_empty());
    }
}
