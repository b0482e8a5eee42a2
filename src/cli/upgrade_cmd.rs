//! `clawpolicy upgrade`: what moving a config to another release does, release by release.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::exit::Exit;
use super::output::{self, Format};
use super::sweep::{self, SweepArgs, current_dir};
use crate::OpenClawVersion;
use crate::config::ProblemKind;
use crate::config::loading::LoadedFiles;
use crate::config::path::KeyPath;
use crate::config::view::meta;
use crate::exec::ApprovalsInput;
use crate::fleet::diff;
use crate::fleet::upgrade::{self, ReleaseLoad, Stop, UpgradeReport};
use crate::release::version::StampRelease;
use crate::report;

const FORMATS: &[Format] = &[Format::Human, Format::Json, Format::Yaml, Format::Sarif, Format::Github, Format::Junit];

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// The target release refuses the config for a problem nothing repairs automatically.
    Fatal,
    /// At some release a tool becomes reachable, a session holding tools becomes reachable by
    /// more senders, or a probe command's exec decision loosens.
    NewAccess,
    /// At some release a tool becomes unreachable or a probe command's exec decision tightens.
    LostAccess,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes:\n  0  compared (and nothing that --fail-on names happens)\n  1  what --fail-on names happens: the target refuses the config with a fatal problem (fatal),\n     access is gained (new-access) or lost (lost-access) at some release on the way\n  2  could not compare: unreadable config, unknown release, bad arguments, or no --from and no\n     usable meta.lastTouchedVersion"
)]
pub struct UpgradeArgs {
    #[command(flatten)]
    pub config: super::ConfigArgs,
    /// The release to upgrade to: a line (`2026.9`) or a release (`2026.9.6`).
    #[arg(long, value_name = "RELEASE")]
    pub to: OpenClawVersion,
    /// The release the config runs on now. Default: the release of the config's
    /// `meta.lastTouchedVersion` (the newest registered one before it when its line has no pack).
    #[arg(long, value_name = "RELEASE")]
    pub from: Option<OpenClawVersion>,
    /// More probe commands, one per line (`#` comments), besides the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub probe: Option<PathBuf>,
    /// Exit 1 when this happens (repeatable).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub fail_on: Vec<FailOn>,
    /// Also list every context compared (agent × session) at each step, and which side has it.
    #[arg(long)]
    pub show_contexts: bool,
    #[command(flatten)]
    pub sweep: SweepArgs,
    #[arg(long, value_parser = output::formats("human", FORMATS), default_value = "human")]
    pub format: Format,
}

pub fn run(global: &super::Global, args: &UpgradeArgs) -> miette::Result<ExitCode> {
    let machine = args.format.machine("upgrade");
    let target = global.load_any(&args.config.files, args.to, machine)?;
    let (from, note) = match args.from {
        Some(from) => (from, None),
        None => from_stamp(&target)?,
    };
    if from == args.to {
        return Err(miette::miette!(
            code = "cli::upgrade-same-release",
            help = "name the release the config runs on now with --from",
            "--from and --to are the same release ({})",
            from.id()
        ));
    }
    if let Some(note) = &note
        && !global.quiet
    {
        output::write_stderr(&format!("note: {note}"));
    }
    let releases = upgrade::path(from, args.to);
    let mut loaded: Vec<LoadedFiles> = Vec::with_capacity(releases.len());
    for version in &releases[..releases.len() - 1] {
        loaded.push(global.load_any(&args.config.files, *version, machine)?);
    }
    loaded.push(target);

    let relative = |file: String| report::display_path(std::path::Path::new(&file));
    let locators: Vec<_> = loaded
        .iter()
        .map(|files| {
            let locate = move |path: &KeyPath| files.locate(path).map(|l| l.map_file(relative));
            let nearest = move |path: &KeyPath| files.locate_nearest(path).map(|l| l.map_file(relative));
            (locate, nearest)
        })
        .collect();
    let stops: Vec<Stop<'_>> = releases
        .iter()
        .zip(&loaded)
        .zip(&locators)
        .map(|((version, files), (locate, nearest))| Stop {
            config: diff::Config { value: files.config(), version: *version, locate, locate_nearest: nearest },
            files,
        })
        .collect();

    let probes = sweep::probe_commands(args.probe.as_deref())?;
    let plugin_tools = args.sweep.plugins.plugin_tools()?;
    let sides: Vec<_> = stops.iter().map(|s| (s.config.version, s.config.value)).collect();
    let agents = sweep::selected_agents(&args.sweep, &sides, "the config under any of these releases")?;
    let jobs = match stops.first() {
        Some(first) => super::jobs::given_store(global, first.config.value, args.sweep.jobs.as_deref())?,
        None => Vec::new(),
    };
    let options = diff::Options {
        plugin_tools: &plugin_tools,
        jobs: &jobs,
        agents: &agents,
        probes: &probes,
        approvals: ApprovalsInput::None,
        cwd: current_dir()?,
    };
    let Some((from, onward)) = stops.split_first() else {
        return Err(miette::miette!("no release to compare"));
    };
    let report = upgrade::upgrade(from, onward, &options)?;

    let fail_on = upgrade::FailOn {
        fatal: args.fail_on.contains(&FailOn::Fatal),
        new_access: args.fail_on.contains(&FailOn::NewAccess),
        lost_access: args.fail_on.contains(&FailOn::LostAccess),
    };
    let config_file = loaded[0].paths().first().map(|p| relative(p.display().to_string()));
    match args.format {
        Format::Json | Format::Yaml => {
            let mut document = serde_json::to_value(&report).map_err(|e| miette::miette!("{e}"))?;
            document["fromChosenBy"] = note.map_or(serde_json::Value::Null, serde_json::Value::String);
            if !args.show_contexts {
                for step in document["steps"].as_array_mut().into_iter().flatten() {
                    step.as_object_mut().map(|o| o.remove("contexts"));
                }
            }
            output::emit_machine(args.format, "upgrade", &document)?;
        }
        Format::Github => {
            let findings = upgrade::findings(&report, fail_on, config_file.as_deref());
            output::write_stdout(&report::github::annotations(&findings))?;
        }
        Format::Sarif => {
            let findings = upgrade::findings(&report, fail_on, config_file.as_deref());
            output::write_stdout(&report::sarif::render(
                "clawpolicy",
                env!("CARGO_PKG_VERSION"),
                &upgrade::rules(),
                &findings,
            ))?;
        }
        Format::Junit => output::write_stdout(&junit(&report, fail_on)?)?,
        _ => output::write_stdout(&render(&report, note.as_deref(), args.show_contexts))?,
    }
    Ok(Exit::flagged_if(fail_on.fails(&report)).into())
}

/// `--from` read from the config's `meta.lastTouchedVersion`, with the note that says so.
fn from_stamp(target: &LoadedFiles) -> miette::Result<(OpenClawVersion, Option<String>)> {
    let missing = |why: String| {
        miette::miette!(
            code = "cli::upgrade-from",
            help = "name the release the config runs on now with --from (`--from 2026.2`)",
            "{why}"
        )
    };
    let stamp = meta::last_touched_version(target.config())
        .ok_or_else(|| missing("no --from, and the config has no meta.lastTouchedVersion to read it from".into()))?;
    let text = stamp.as_str().unwrap_or_default();
    let shown = crate::base::escape::visible(text);
    let read = OpenClawVersion::for_stamp(text)
        .ok_or_else(|| missing(format!("meta.lastTouchedVersion `{shown}` is not a release version")))?;
    let version = read.version();
    let how = match read {
        StampRelease::SameLine(_) => String::new(),
        StampRelease::NewestBefore(_) => " (no pack for its line; the newest registered release before it)".into(),
        StampRelease::Oldest(_) => " (older than every registered release; the oldest one)".into(),
    };
    let shown_place = |file: String| report::display_path(std::path::Path::new(&file));
    let at = target.locate(&stamp.path).map(|l| format!(" at {}", l.map_file(shown_place))).unwrap_or_default();
    Ok((
        version,
        Some(format!(
            "--from not given: meta.lastTouchedVersion{at} is {shown}, read as {} ({}){how}",
            version.line(),
            version.id()
        )),
    ))
}

fn load_line(load: &ReleaseLoad) -> String {
    if load.problems.is_empty() {
        return "loads".into();
    }
    let counts: Vec<String> = [ProblemKind::Fatal, ProblemKind::Doctor, ProblemKind::Migrated]
        .into_iter()
        .map(|kind| (kind, load.count(kind)))
        .filter(|(_, n)| *n > 0)
        .map(|(kind, n)| format!("{n} {kind}"))
        .collect();
    let verdict = if load.loads { "loads" } else { "refuses the config" };
    format!("{verdict}: {}", counts.join(", "))
}

fn render(report: &UpgradeReport, note: Option<&str>, show_contexts: bool) -> String {
    let mut out = format!("Upgrade OpenClaw {} → {}\n", report.from.id(), report.to.id());
    if let Some(note) = note {
        out.push_str(&format!("({note})\n"));
    }
    out.push_str("\nWill the config load?\n");
    for (i, load) in report.releases.iter().enumerate() {
        let role = match i {
            0 => " (from)",
            _ if i + 1 == report.releases.len() => " (target)",
            _ => "",
        };
        out.push_str(&format!("  OpenClaw {}{role}: {}\n", load.openclaw_version.id(), load_line(load)));
        for problem in &load.problems {
            let kind = problem.kind.map_or("", ProblemKind::as_str);
            out.push_str(&format!("    {kind:<8} {} {}\n", problem.code, problem.message));
            if let Some(location) = upgrade::place(problem) {
                out.push_str(&format!("             at {location}\n"));
            }
            for line in problem.help.iter().flat_map(|h| h.lines()) {
                out.push_str(&format!("             {line}\n"));
            }
        }
        if load.rules_skipped > 0 {
            out.push_str(&format!(
                "    ({} lint rule(s) that need an accepted config did not run on this release)\n",
                load.rules_skipped
            ));
        }
    }
    for (step, load) in report.steps.iter().zip(&report.releases[1..]) {
        let changes = &step.changes;
        out.push_str(&format!(
            "\n── {} → {} · compared {} session(s) (agent × context) and {} probe command(s)\n",
            step.from.id(),
            step.to.id(),
            changes.contexts.len(),
            changes.probes.len()
        ));
        if !load.loads {
            out.push_str(&format!(
                "(OpenClaw {} refuses this config: below is how it would read the config once the problems above are fixed)\n",
                load.openclaw_version.id()
            ));
        }
        out.push_str(&super::diff_cmd::render_changes(changes, show_contexts));
        for (title, list) in [
            (format!("Lint findings new on {}", step.to.id()), &step.lint.new),
            (format!("Lint findings gone on {}", step.to.id()), &step.lint.gone),
        ] {
            if list.is_empty() {
                continue;
            }
            out.push_str(&format!("\n{title}:\n"));
            for finding in list {
                out.push_str(&format!(
                    "  {} {} ({}): {}\n",
                    finding.code, finding.rule, finding.severity, finding.message
                ));
                if let Some(location) = upgrade::place(finding) {
                    out.push_str(&format!("    at {location}\n"));
                }
            }
        }
    }
    let s = &report.summary;
    let target = if s.loads { "loads on the target" } else { "refused by the target" };
    out.push_str(&format!(
        "\nSummary: {target} ({} fatal, {} doctor, {} migrated); tools gained in {} (session, tool) pair(s), lost in {}; {} exec decision(s) loosened, {} tightened; {} lint finding(s) new, {} gone{}{}\n",
        s.fatal,
        s.doctor,
        s.migrated,
        s.tools_gained,
        s.tools_lost,
        s.exec_loosened,
        s.exec_tightened,
        s.lint_new,
        s.lint_gone,
        if s.new_access { "; new access" } else { "" },
        if s.lost_access { "; lost access" } else { "" },
    ));
    out
}

/// JUnit: one suite per release on the way (does it load?) and one per step (one case per
/// agent). A case fails when it shows what `--fail-on` names.
fn junit(report: &UpgradeReport, fail_on: upgrade::FailOn) -> miette::Result<String> {
    use report::junit::{Case, Failure, Suite};
    let mut suites = Vec::new();
    for load in &report.releases {
        let fatal = load.count(ProblemKind::Fatal);
        let target = load.openclaw_version == report.to;
        let body: Vec<String> = load
            .problems
            .iter()
            .map(|p| {
                let at = upgrade::place(p).map(|l| format!(" at {l}")).unwrap_or_default();
                format!("{} {} {}{at}", p.kind.map_or("", ProblemKind::as_str), p.code, p.message)
            })
            .collect();
        let failure = (target && fail_on.fatal && fatal > 0).then(|| Failure {
            message: format!("OpenClaw {} refuses the config: {}", load.openclaw_version.id(), load_line(load)),
            body: body.join("\n"),
        });
        suites.push(Suite {
            name: format!("load on OpenClaw {}", load.openclaw_version.id()),
            cases: vec![Case { name: load_line(load), classname: None, failure }],
        });
    }
    for step in &report.steps {
        let name = format!("{} → {}", step.from.id(), step.to.id());
        let mut agents: Vec<&str> = Vec::new();
        for context in &step.changes.contexts {
            if !agents.contains(&context.agent_id.as_str()) {
                agents.push(&context.agent_id);
            }
        }
        let groups = diff::change_groups(&step.changes.access);
        let flips = diff::flip_groups(&step.changes.exec);
        let cases = agents
            .into_iter()
            .map(|agent| {
                let changes = groups.iter().filter(|g| g.agent_id == agent);
                let flips = flips.iter().filter(|f| f.agent_id == agent);
                let lines: Vec<String> = changes
                    .clone()
                    .map(|g| {
                        let change = &g.change.change;
                        let sign = if change.gained { '+' } else { '−' };
                        format!(
                            "{sign}{} in {}: {} → {}",
                            change.tool,
                            g.contexts.join(", "),
                            change.before.describe(),
                            change.after.describe()
                        )
                    })
                    .chain(flips.clone().map(|f| {
                        format!("exec {} → {} in {}: {}", f.base, f.head, f.contexts.join(", "), f.commands.join(", "))
                    }))
                    .collect();
                let moved = |gain: bool| {
                    changes.clone().any(|g| g.change.change.gained == gain) || flips.clone().any(|f| f.loosened == gain)
                };
                let widened = step.changes.audiences.iter().any(|a| a.agent_id == agent);
                let fails = (fail_on.new_access && (moved(true) || widened)) || (fail_on.lost_access && moved(false));
                let failure = fails.then(|| Failure {
                    message: format!("agent {agent}: access changes at {name}"),
                    body: lines.join("\n"),
                });
                Case { name: format!("agent {agent}"), classname: Some(name.clone()), failure }
            })
            .collect();
        suites.push(Suite { name, cases });
    }
    report::junit::write("clawpolicy upgrade", &suites).map_err(|e| miette::miette!("{e}"))
}
