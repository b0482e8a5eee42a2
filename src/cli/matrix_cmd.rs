//! `clawpolicy matrix`: agents × contexts as a table of tool sets, and `--why` between two cells.

use std::process::ExitCode;

use clap::Args;
use comfy_table::{Attribute, Cell, Color};
use serde::Serialize;

use super::ConfigArgs;
use super::output::{self, Format};
use super::sweep::SweepArgs;
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::fleet::matrix::{self, AgentRow, Why};

#[derive(Debug, Args)]
pub struct MatrixArgs {
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub sweep: SweepArgs,
    /// Explain step by step why two cells differ, each named `agent/context`
    /// (e.g. `--why support/main support/group:telegram:*`).
    #[arg(long, num_args = 2, value_names = ["CELL", "CELL"])]
    pub why: Option<Vec<String>>,
    #[arg(long, value_parser = output::formats("table", output::TABLES_AND_DOCUMENTS), default_value = "table")]
    pub format: Format,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MatrixReport<'a> {
    openclaw_version: &'a str,
    agents: &'a [AgentRow],
}

/// [`MatrixReport`] without its rows, which JSON output streams after it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MatrixHead<'a> {
    openclaw_version: &'a str,
}

pub fn run(global: &super::Global, args: &MatrixArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    let loaded = global.load(&args.config.files, args.format.machine("matrix"))?;
    let plugin_tools = args.sweep.plugins.plugin_tools()?;
    let jobs = super::jobs::given_store(global, loaded.config(), args.sweep.jobs.as_deref())?;
    let sessions = args.sweep.sessions(version, loaded.config(), &jobs);
    let contexts = args.sweep.contexts(&sessions, &plugin_tools)?;
    if let Some([from, to]) = args.why.as_deref() {
        let (from, to) = (matrix::find_cell(&contexts, from)?, matrix::find_cell(&contexts, to)?);
        let locate = |path: &KeyPath| loaded.locate(path);
        let why = matrix::why(version, loaded.config(), from, to, &locate);
        match args.format {
            Format::Human => output::write_stdout(&render_why(&why))?,
            format => output::emit_machine(format, "matrix-why", &why)?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    let rows = matrix::build(&sessions, &contexts);
    match args.format {
        Format::Human => output::write_stdout(&render(version, &rows))?,
        Format::Json => {
            // 20,000 cells make megabytes of JSON: written as serialized, not held as a value.
            let head = MatrixHead { openclaw_version: version.id() };
            output::stream_machine_json_list("matrix", &head, "agents", &rows)?
        }
        format => {
            output::emit_machine(format, "matrix", &MatrixReport { openclaw_version: version.id(), agents: &rows })?
        }
    }
    // A fleet's rows and contexts are hundreds of thousands of small allocations, freed one by
    // one on the main thread after the parallel work; the process ends here, so they are left
    // to the operating system (as `lint` leaves its sessions).
    std::mem::forget((rows, contexts));
    Ok(ExitCode::SUCCESS)
}

/// Agents across when they fit (a few agents, many contexts), else one block per agent.
fn render(version: OpenClawVersion, rows: &[AgentRow]) -> String {
    if rows.len() > WIDE_MAX_AGENTS { render_long(version, rows) } else { render_wide(version, rows) }
}

/// More agents than this print one block each: side by side they would not fit a screen.
const WIDE_MAX_AGENTS: usize = 3;

/// How a cell differs from its agent's main DM, as the tables show it.
fn difference(cell: &matrix::MatrixCell) -> String {
    if cell.error.is_some() {
        return "error".into();
    }
    if cell.context == crate::fleet::contexts::MAIN {
        return format!("{} tools", cell.tools.len());
    }
    if !cell.differs_from_main {
        return "=".into();
    }
    // When most tools are gone, what is left says more than what went.
    if cell.removed.len() > cell.tools.len() {
        return match cell.tools.as_slice() {
            [] => "no tools".into(),
            tools => format!("only {}", tools.join(" ")),
        };
    }
    let removed = cell.removed.iter().map(|t| format!("−{t}"));
    removed.chain(cell.added.iter().map(|t| format!("+{t}"))).collect::<Vec<_>>().join(" ")
}

/// One block per agent: its contexts down, how each differs from the main DM, who reaches it.
fn render_long(version: OpenClawVersion, rows: &[AgentRow]) -> String {
    let mut out = format!(
        "OpenClaw {} · {} agent(s)\nEach context shows how the session differs from the agent's main DM \
         (−removed +added, or the only tools left); \"=\" means the same tools.\n",
        version.id(),
        rows.len()
    );
    for row in rows {
        let mut table = output::table(&["Context", "vs main DM", "Reached by"]);
        if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            table.set_width(MAX_WIDTH);
        }
        for cell in &row.cells {
            table.add_row(output::cells([cell.context.clone(), difference(cell), cell.audience.describe()]));
        }
        out.push_str(&format!("\nagent {} · main DM: {}\n{table}\n", row.agent_id, row.main_tools.join(", ")));
        for cell in row.cells.iter().filter(|c| c.error.is_some()) {
            out.push_str(&format!(
                "error: {}/{}: {}\n",
                row.agent_id,
                cell.context,
                cell.error.as_deref().unwrap_or("")
            ));
        }
    }
    out
}

/// Contexts down, agents across: configs have few agents and many contexts (one per group).
fn render_wide(version: OpenClawVersion, rows: &[AgentRow]) -> String {
    let mut contexts: Vec<(&str, &str)> = Vec::new();
    for cell in rows.iter().flat_map(|r| &r.cells) {
        if !contexts.iter().any(|(id, _)| *id == cell.context) {
            contexts.push((&cell.context, &cell.description));
        }
    }
    let mut header = vec!["Context"];
    header.extend(rows.iter().map(|r| r.agent_id.as_str()));
    let mut table = output::table(&header);
    if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        // Off a terminal the width is unknown; wrap long cells rather than print endless lines.
        table.set_width(MAX_WIDTH);
    }
    for (id, _) in &contexts {
        let mut cells = vec![Cell::new(id)];
        for row in rows {
            cells.push(match row.cells.iter().find(|c| c.context == *id) {
                None => Cell::new(""),
                Some(cell) if cell.error.is_some() => Cell::new("error").fg(Color::Red),
                Some(cell) if *id == crate::fleet::contexts::MAIN || !cell.differs_from_main => {
                    Cell::new(difference(cell))
                }
                Some(cell) => Cell::new(difference(cell)).fg(Color::Yellow).add_attribute(Attribute::Bold),
            });
        }
        table.add_row(cells);
    }
    let mut out = format!(
        "OpenClaw {} · {} agent(s) · {} context(s)\nEach cell shows how the session differs from the agent's main DM \
         (−removed +added, or the only tools left); \"=\" means the same tools.\n\n{table}\n",
        version.id(),
        rows.len(),
        contexts.len()
    );
    out.push_str("\nMain DM tools:\n");
    for row in rows {
        out.push_str(&format!("  {}: {}\n", row.agent_id, row.main_tools.join(", ")));
    }
    out.push_str("\nContexts (and who can reach them):\n");
    for (id, description) in &contexts {
        out.push_str(&format!(
            "  {id}: {description}\n    reached by: {}\n",
            crate::base::escape::visible(&audiences(rows, id))
        ));
    }
    for row in rows {
        for cell in &row.cells {
            if let Some(error) = &cell.error {
                out.push_str(&format!("\nerror: {}/{}: {error}\n", row.agent_id, cell.context));
            }
        }
    }
    out
}

/// Who can reach a context, once when every agent's session has the same audience, else per agent.
fn audiences(rows: &[AgentRow], context: &str) -> String {
    let per_agent: Vec<(&str, String)> = rows
        .iter()
        .filter_map(|row| {
            let cell = row.cells.iter().find(|c| c.context == context)?;
            Some((row.agent_id.as_str(), cell.audience.describe()))
        })
        .collect();
    match per_agent.as_slice() {
        [(_, first), rest @ ..] if rest.iter().all(|(_, a)| a == first) => first.clone(),
        _ => per_agent.iter().map(|(agent, audience)| format!("{agent}: {audience}")).collect::<Vec<_>>().join("; "),
    }
}

/// Table width when printing to a file or pipe.
const MAX_WIDTH: u16 = 160;

fn render_why(why: &Why) -> String {
    let mut out = String::new();
    for (label, facts) in [("from", &why.from), ("to", &why.to)] {
        out.push_str(&format!(
            "{label} {}: {}\n  session {} · {} · role {}\n  applies: {}\n",
            facts.cell,
            facts.description,
            facts.session_key,
            if facts.sandboxed { "sandboxed" } else { "not sandboxed" },
            facts.subagent_role,
            if facts.features.is_empty() {
                "no group, sender or provider block".into()
            } else {
                facts.features.join(", ")
            }
        ));
    }
    if why.tools.is_empty() {
        out.push_str("\nThe two cells have the same tools.\n");
        return out;
    }
    out.push_str("\nSteps that decide differently:\n");
    let removed = |r: &Option<Vec<String>>| match r {
        None => "does not apply".to_string(),
        Some(tools) if tools.is_empty() => "removes nothing".into(),
        Some(tools) => format!("removes {}", tools.join(", ")),
    };
    for step in &why.steps {
        out.push_str(&format!("  {}\n    from: {}\n    to:   {}\n", step.step, removed(&step.from), removed(&step.to)));
    }
    out.push_str("\nTools:\n");
    for change in &why.tools {
        let sign = if change.gained { '+' } else { '−' };
        out.push_str(&format!(
            "  {sign}{}\n    from: {}\n    to:   {}\n",
            change.tool,
            change.before.describe(),
            change.after.describe()
        ));
    }
    out
}
