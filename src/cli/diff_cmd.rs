//! `clawpolicy diff`: what a config change grants, session by session.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::exit::Exit;
use super::output::{self, Format};
use super::sweep::{self, SweepArgs, current_dir, explicit_approvals};
use crate::OpenClawVersion;
use crate::config::gitrev;
use crate::config::path::KeyPath;
use crate::fleet::diff::{self, Changes};
use crate::report;

/// `--format`: readable text, the documents, or a CI format.
const FORMATS: &[Format] = &[Format::Human, Format::Json, Format::Yaml, Format::Github, Format::Sarif];

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// A tool became reachable somewhere, a session holding tools became reachable by more
    /// senders, or a probe command's exec decision loosened.
    NewAccess,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes:\n  0  compared (and, with --fail-on new-access, nothing became reachable)\n  1  --fail-on new-access: a tool became reachable, more senders can reach a session with tools, or an exec decision loosened\n  2  could not compare: bad config, unknown revision, bad arguments"
)]
pub struct DiffArgs {
    /// Base config file (repeat to overlay files).
    #[arg(long = "base", value_name = "FILE", required_unless_present = "base_rev", conflicts_with = "base_rev")]
    pub base: Vec<PathBuf>,
    /// Compare with the head files as they were at this git revision (`origin/main`); their
    /// `$include`s are read at that revision too.
    #[arg(long, value_name = "REV")]
    pub base_rev: Option<String>,
    /// Head config file (repeat to overlay files); `-c` as in every other command.
    #[arg(long = "head", short = 'c', alias = "config", value_name = "FILE", required = true)]
    pub head: Vec<PathBuf>,
    /// More probe commands, one per line (`#` comments), besides the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub probe: Option<PathBuf>,
    /// Exit 1 when the change grants new access.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub fail_on: Option<FailOn>,
    /// Also list every context compared (agent × session), and which side has it.
    #[arg(long)]
    pub show_contexts: bool,
    /// The approvals store for exec decisions (2026.9 SQLite database or 2026.2
    /// `exec-approvals.json`), the same for both sides. Default: none, the configs alone decide.
    #[arg(long, value_name = "PATH")]
    pub approvals: Option<PathBuf>,
    #[command(flatten)]
    pub sweep: SweepArgs,
    #[arg(long, value_parser = output::formats("human", FORMATS), default_value = "human")]
    pub format: Format,
}

pub fn run(global: &super::Global, args: &DiffArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    let machine = args.format.machine("diff");
    let head = global.load(&args.head, machine).map_err(|e| e.wrap_err("cannot load the head config"))?;
    let materialized = args.base_rev.as_deref().map(|rev| gitrev::materialize(rev, &args.head)).transpose()?;
    let base_files = materialized.as_ref().map_or(args.base.as_slice(), |m| m.files.as_slice());
    let base = global.load(base_files, machine).map_err(|e| {
        let what = args.base_rev.as_ref().map_or("the base config".to_string(), |rev| format!("the config at {rev}"));
        e.wrap_err(format!("cannot load {what}"))
    })?;
    // Paths below the working directory print relative to it, as CI annotations expect.
    let cwd = format!("{}/", current_dir()?.display());
    let relative = |file: String| file.strip_prefix(&cwd).map_or(file.clone(), str::to_string);
    let shown = |file: String| match &materialized {
        Some(m) => m.display(&file),
        None => relative(file),
    };
    let base_locate = |path: &KeyPath| base.locate(path).map(|l| l.map_file(shown));
    let base_nearest = |path: &KeyPath| base.locate_nearest(path).map(|l| l.map_file(shown));
    let head_locate = |path: &KeyPath| head.locate(path).map(|l| l.map_file(relative));
    let head_nearest = |path: &KeyPath| head.locate_nearest(path).map(|l| l.map_file(relative));

    let probes = sweep::probe_commands(args.probe.as_deref())?;
    let plugin_tools = args.sweep.plugins.plugin_tools()?;
    let agents =
        sweep::selected_agents(&args.sweep, &[(version, head.config()), (version, base.config())], "either config")?;
    let jobs = super::jobs::given_store(global, head.config(), args.sweep.jobs.as_deref())?;
    let options = diff::Options {
        plugin_tools: &plugin_tools,
        jobs: &jobs,
        agents: &agents,
        probes: &probes,
        approvals: explicit_approvals(args.approvals.as_deref()),
        cwd: current_dir()?,
    };
    let changes = diff::diff(
        &diff::Config { value: base.config(), version, locate: &base_locate, locate_nearest: &base_nearest },
        &diff::Config { value: head.config(), version, locate: &head_locate, locate_nearest: &head_nearest },
        &options,
    )?;
    let report = DiffReport { openclaw_version: version, changes };

    let failing = args.fail_on == Some(FailOn::NewAccess) && report.changes.summary.new_access;
    let head_file = head.paths().first().map(|p| relative(p.display().to_string()));
    match args.format {
        Format::Json | Format::Yaml => {
            let mut document = serde_json::to_value(&report).map_err(|e| miette::miette!("{e}"))?;
            if !args.show_contexts {
                document.as_object_mut().map(|o| o.remove("contexts"));
            }
            output::emit_machine(args.format, "diff", &document)?;
        }
        Format::Github => {
            let findings = diff::findings(&report.changes, args.fail_on.is_some(), head_file.as_deref());
            output::write_stdout(&report::github::annotations(&findings))?;
        }
        Format::Sarif => {
            let findings = diff::findings(&report.changes, args.fail_on.is_some(), head_file.as_deref());
            output::write_stdout(&report::sarif::render(
                "clawpolicy",
                env!("CARGO_PKG_VERSION"),
                &diff::rules(),
                &findings,
            ))?;
        }
        _ => output::write_stdout(&render(&report, args.show_contexts))?,
    }
    Ok(Exit::flagged_if(failing).into())
}

/// The `diff` document: the release and what changed.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DiffReport {
    openclaw_version: OpenClawVersion,
    #[serde(flatten)]
    changes: Changes,
}

fn render(report: &DiffReport, show_contexts: bool) -> String {
    let changes = &report.changes;
    format!(
        "OpenClaw {} · compared {} session(s) (agent × context) and {} probe command(s)\n{}",
        report.openclaw_version.id(),
        changes.contexts.len(),
        changes.probes.len(),
        render_changes(changes, show_contexts)
    )
}

/// Agents that share a change: all of them up to eight, else the first six and how many more.
fn agent_list(agents: &[&str]) -> String {
    const SHOWN: usize = 6;
    match agents.len() {
        0..=8 => agents.join(", "),
        n => format!("{} and {} more agents", agents[..SHOWN].join(", "), n - SHOWN),
    }
}

/// What changed, section by section, and a closing summary line (`diff`, and each step of `upgrade`).
pub(super) fn render_changes(report: &Changes, show_contexts: bool) -> String {
    let mut out = String::new();
    if !report.agents_added.is_empty() {
        out.push_str(&format!("\nAgents added: {}\n", report.agents_added.join(", ")));
    }
    if !report.agents_removed.is_empty() {
        out.push_str(&format!("\nAgents removed: {}\n", report.agents_removed.join(", ")));
    }
    let groups = diff::change_groups(&report.access);
    let shared = diff::shared_changes(&groups);
    for (gained, title) in [(true, "Became reachable"), (false, "Became unreachable")] {
        let mut section = String::new();
        for group in shared.iter().filter(|g| g.change.change.gained == gained) {
            let change = &group.change.change;
            let sign = if gained { '+' } else { '−' };
            let tools: Vec<String> = group.tools.iter().map(|tool| format!("{sign}{tool}")).collect();
            section.push_str(&format!(
                "  {} {} in {}\n    base: {}\n    head: {}\n",
                agent_list(&group.agent_ids),
                tools.join(" "),
                group.contexts.join(", "),
                change.before.describe(),
                change.after.describe()
            ));
            if let Some(location) = &group.change.location {
                section.push_str(&format!("    at {location}\n"));
            }
        }
        if !section.is_empty() {
            out.push_str(&format!("\n{title}:\n{section}"));
        }
    }
    if !report.audiences.is_empty() {
        out.push_str("\nReachable by more senders:\n");
        for change in &report.audiences {
            out.push_str(&format!(
                "  {}/{}: {}\n    base: {}\n    head: {}\n    holds {} tool(s): {}\n",
                change.agent_id,
                change.context,
                change.description,
                change.base.describe(),
                change.head.describe(),
                change.tools.len(),
                change.tools.join(", ")
            ));
            if let Some(location) = &change.location {
                out.push_str(&format!("    at {location}\n"));
            }
        }
    }
    if !report.exec.is_empty() {
        out.push_str("\nExec decisions that flip (probe commands):\n");
        for shared in diff::shared_flips(diff::flip_groups(&report.exec)) {
            let group = &shared.group;
            let tag = if group.loosened { "loosened" } else { "tightened" };
            out.push_str(&format!(
                "  {}: {} → {} ({tag}) in {}\n",
                shared.agent_ids.join(", "),
                group.base,
                group.head,
                shared.contexts.join(", ")
            ));
            let commands: Vec<String> = group.commands.iter().map(|c| format!("`{c}`")).collect();
            out.push_str(&format!("    {}\n", commands.join(", ")));
            if let Some(location) = group.location {
                out.push_str(&format!("    at {location}\n"));
            }
        }
    }
    if !report.posture.is_empty() {
        out.push_str("\nExec posture:\n");
        let show = |v: &Option<serde_json::Value>| v.as_ref().map_or("unset".to_string(), ToString::to_string);
        for change in &report.posture {
            out.push_str(&format!(
                "  {} {}: {} → {}  ({})\n",
                change.agent_id,
                change.setting,
                show(&change.base),
                show(&change.head),
                change.head_source.as_deref().unwrap_or("unset")
            ));
            if let Some(location) = &change.location {
                out.push_str(&format!("    at {location}\n"));
            }
        }
    }
    if show_contexts {
        out.push_str("\nContexts compared:\n");
        for context in &report.contexts {
            let sides = match (context.in_base, context.in_head) {
                (true, true) => "",
                (false, true) => " [head only]",
                _ => " [base only]",
            };
            out.push_str(&format!("  {}/{}: {}{sides}\n", context.agent_id, context.context, context.description));
        }
    }
    let s = &report.summary;
    let spread = |gained: bool| {
        let changes = report.access.iter().flat_map(|a| a.changes.iter().map(move |c| (a, c)));
        let (mut tools, mut sessions) = (std::collections::BTreeSet::new(), std::collections::BTreeSet::new());
        for (access, located) in changes.filter(|(_, c)| c.change.gained == gained) {
            tools.insert(&located.change.tool);
            sessions.insert((&access.agent_id, &access.context));
        }
        format!("{} tool(s) {} in {} session(s)", tools.len(), if gained { "gained" } else { "lost" }, sessions.len())
    };
    out.push_str(&format!(
        "\n{}, {}, {} session(s) reachable by more senders, {} exec decision(s) loosened, {} tightened, {} exec setting(s) changed{}\n",
        spread(true),
        spread(false),
        s.audiences_widened,
        s.exec_loosened,
        s.exec_tightened,
        s.posture_changes,
        if s.new_access { ": new access" } else { ": no new access" }
    ));
    out
}
