//! `clawpolicy who-can <tool>`: every agent and context that has the tool.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::ConfigArgs;
use super::exit::Exit;
use super::output::{self, Format};
use super::sweep::{SweepArgs, current_dir, explicit_approvals};
use crate::fleet::probe::ExecProber;
use crate::{fleet::contexts, fleet::who_can};

#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes:\n  0  at least one agent and context can\n  1  none can\n  2  could not answer: bad config, unknown tool or agent"
)]
pub struct WhoCanArgs {
    /// The tool (`exec`, `browser`, a plugin tool…).
    pub tool: String,
    /// With `exec`: only sessions where this command is allowed or needs approval.
    #[arg(long, value_name = "CMD")]
    pub command: Option<String>,
    /// The approvals store to read for `--command` (2026.9 SQLite database or 2026.2
    /// `exec-approvals.json`). Default: none, the config alone decides.
    #[arg(long, value_name = "PATH", requires = "command")]
    pub approvals: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub sweep: SweepArgs,
    #[arg(long, value_parser = output::formats("table", output::TABLES_AND_DOCUMENTS), default_value = "table")]
    pub format: Format,
}

pub fn run(global: &super::Global, args: &WhoCanArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    let loaded = global.load(&args.config.files, args.format.machine("who-can"))?;
    let plugin_tools = args.sweep.plugins.plugin_tools()?;
    let jobs = super::jobs::given_store(global, loaded.config(), args.sweep.jobs.as_deref())?;
    let evaluated = args.sweep.evaluate(version, loaded.config(), &plugin_tools, &jobs)?;
    let resolved: Vec<_> = evaluated.iter().filter_map(|e| e.result.as_ref().ok()).collect();
    let tool = contexts::known_tool(version, &args.tool, &plugin_tools, &resolved).map_err(|message| {
        match crate::policy::mcp::undeclared_tool_help(loaded.config(), &args.tool) {
            Some(help) => miette::miette!(code = "who-can::unknown-tool", help = help, "{message}"),
            None => miette::miette!(code = "who-can::unknown-tool", "{message}"),
        }
    })?;
    if args.command.is_some() && tool != "exec" {
        return Err(miette::miette!(code = "who-can::command", "--command only applies to `who-can exec`"));
    }
    let prober = ExecProber::new(version, explicit_approvals(args.approvals.as_deref()), current_dir()?);
    let command = args.command.as_deref().map(|c| (c, &prober));
    let answer = who_can::who_can(&evaluated, &tool, loaded.config(), command)?;
    match args.format {
        Format::Human => output::write_stdout(&render(&answer))?,
        format => output::emit_machine(format, "who-can", &answer)?,
    }
    Ok(Exit::flagged_if(answer.matches.is_empty()).into())
}

fn render(answer: &who_can::WhoCan) -> String {
    let what = match &answer.command {
        Some(command) => format!("exec `{command}` (allowed or needs approval)"),
        None => answer.tool.clone(),
    };
    let mut out = format!("{what}: {} of {} agent × context sessions\n", answer.matches.len(), answer.checked);
    if !answer.matches.is_empty() {
        let mut header = vec!["Agent", "Context", "Who can reach it"];
        if answer.command.is_some() {
            header.push("Decision");
        }
        let mut table = output::table(&header);
        for m in &answer.matches {
            let mut row = vec![m.agent_id.clone(), m.context.clone(), m.audience.describe()];
            row.extend(m.decision.map(|d| d.to_string()));
            table.add_row(output::cells(row));
        }
        out.push_str(&format!("{table}\n"));
    }
    for unresolved in &answer.unresolved {
        out.push_str(&format!("warning: could not resolve {unresolved}\n"));
    }
    out
}
