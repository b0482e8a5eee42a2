//! `clawpolicy tools`: one session's final tool list, or a batch of sessions as JSONL.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use super::output::{self, Format};
use super::{ConfigArgs, ContextArgs};
use crate::batch::tools::ToolsBatch;
use crate::config::Location;
use crate::config::loading::LoadedFiles;
use crate::config::view::inbound::Audience;
use crate::policy::rules::Source;
use crate::policy::session::Assumption;
use crate::policy::{self, Removal, Resolution, SessionContext};

#[derive(Debug, Args)]
pub struct ToolsArgs {
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub context: ContextArgs,
    #[arg(long, value_parser = output::formats("table", output::TABLES_AND_DOCUMENTS), default_value = "table")]
    pub format: Format,
    /// Resolve many contexts: one JSON case per line (oracle field names), JSONL answers out.
    /// `-` reads standard input.
    #[arg(long, value_name = "FILE.jsonl")]
    pub batch: Option<PathBuf>,
}

pub fn run(global: &super::Global, args: &ToolsArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    if let Some(batch) = &args.batch {
        return run_batch(global, batch);
    }
    let loaded = global.load(&args.config.files, args.format.machine("tools"))?;
    let ctx = args.context.to_run_context(global, loaded.config())?;
    super::check_known_agent(version, loaded.config(), &ctx)?;
    let resolution = policy::resolve(version, loaded.config(), &ctx)
        .map_err(|e| miette::miette!(code = "session", help = "pass --agent <id> or --session <key>", "{e}"))?;
    let sessions = crate::fleet::contexts::Sessions::new(version, loaded.config());
    let ctx = SessionContext {
        agent_id: Some(resolution.agent_id.clone()),
        session_key: Some(resolution.session_key.clone()),
        ..ctx
    };
    let mut report = ToolsReport::new(&resolution, &loaded);
    let gains = policy::turn_gains(version, loaded.config(), &ctx, &resolution);
    if !gains.is_empty() {
        report.assumptions.push(Assumption {
            fact: "tool builder".into(),
            assumed: format!(
                "as OpenClaw's effective-tools listing builds the tools; the run's own attempt also gets {} (a bundled plugin's manifest puts it in the profile; --turn answers for the attempt)",
                gains.join(", ")
            ),
        });
    }
    // Nobody sends messages into an automation run: the scheduler starts it.
    if resolution.automation.is_none() {
        let (audience, reached_by) = sessions.audience(&resolution.agent_id, &ctx);
        report.audience = Some(audience);
        report.reached_by = reached_by;
    }
    match args.format {
        Format::Human => output::write_stdout(&render(&report))?,
        format => output::emit_machine(format, "tools", &report)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn run_batch(global: &super::Global, path: &Path) -> miette::Result<ExitCode> {
    let batch = ToolsBatch::new(global.options(), output::batch_folder(path));
    let unreadable =
        |message| serde_json::json!({"id": null, "ok": false, "error": {"kind": "case", "message": message}});
    output::run_jsonl_lines(path, |line| match line {
        Ok((number, text)) => batch.answer_line(number, text).unwrap_or_else(unreadable),
        Err(message) => unreadable(message),
    })
}

/// A removal with the place it was written, for people and scripts.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocatedRemoval {
    #[serde(flatten)]
    pub removal: Removal,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// The deciding key as written in that file, when it is not the key in force (a migrated
    /// legacy roster, an included file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written_as: Option<String>,
}

/// The `tools` answer as printed.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolsReport {
    pub openclaw_version: String,
    pub agent_id: String,
    pub session_key: String,
    pub sandboxed: bool,
    pub sandbox_mode: String,
    /// Who can send messages into this session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audience: Option<Audience>,
    /// The inbound routes that reach it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reached_by: Vec<String>,
    /// For a spawned sub-agent: its requester, stored depth and what it inherited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spawn: Option<crate::policy::context::SpawnEnvelope>,
    /// For an automation run (cron job, heartbeat): what the release derived for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub automation: Option<crate::policy::automation::AutomationRun>,
    pub tools: Vec<String>,
    pub removed: BTreeMap<String, LocatedRemoval>,
    pub not_constructed: BTreeMap<String, String>,
    pub steps: Vec<StepSummary>,
    pub warnings: Vec<String>,
    pub assumptions: Vec<Assumption>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepSummary {
    pub label: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub allowlist_ignored: bool,
    pub removed: Vec<String>,
}

/// Where a source written in config is.
pub fn locate(source: Option<&Source>, loaded: &LoadedFiles) -> Option<Location> {
    loaded.locate(source?.config_path()?)
}

impl ToolsReport {
    pub fn new(resolution: &Resolution, loaded: &LoadedFiles) -> Self {
        ToolsReport {
            spawn: resolution.spawn.clone(),
            automation: resolution.automation.clone(),
            openclaw_version: resolution.version.id().to_string(),
            agent_id: resolution.agent_id.clone(),
            session_key: resolution.session_key.clone(),
            sandboxed: resolution.sandbox.sandboxed,
            sandbox_mode: resolution.sandbox.mode.clone(),
            audience: None,
            reached_by: Vec::new(),
            tools: resolution.tools.clone(),
            removed: resolution
                .removed
                .iter()
                .map(|(tool, removal)| {
                    let location = locate(removal.source.as_deref(), loaded);
                    let path = removal.source.as_deref().and_then(Source::config_path);
                    let written_as = path.and_then(|p| loaded.written_path(p)).map(|p| p.to_string());
                    (tool.clone(), LocatedRemoval { removal: removal.clone(), location, written_as })
                })
                .collect(),
            not_constructed: resolution
                .not_constructed
                .iter()
                .map(|(tool, why)| (tool.clone(), why.to_string()))
                .collect(),
            steps: resolution
                .steps
                .iter()
                .map(|s| StepSummary {
                    label: s.step.label.clone(),
                    allowlist_ignored: s.allowlist_ignored,
                    removed: s.removed.clone(),
                })
                .collect(),
            warnings: resolution.warnings.clone(),
            assumptions: resolution.assumptions.clone(),
        }
    }
}

/// Who spawned this sub-agent and whether the release would let it.
fn spawn_summary(spawn: &crate::policy::context::SpawnEnvelope) -> String {
    use crate::base::escape::visible;
    let mut out = format!("Spawned by: {} (depth {})\n", visible(&spawn.requester_key), spawn.depth);
    if !spawn.requester_has_spawn_tool {
        out.push_str("  ✗ the requester has no sessions_spawn tool: it cannot spawn this session\n");
    }
    if let Some(refused) = &spawn.refused {
        out.push_str(&format!("  ✗ sessions_spawn refuses: {}\n", visible(refused)));
    }
    out
}

/// What the release derived for an automation run.
fn automation_summary(run: &crate::policy::automation::AutomationRun, agent: &str) -> String {
    use crate::base::escape::visible;
    let job = match (&run.job_id, &run.job_name) {
        (Some(id), Some(name)) => format!(" job `{}` ({})", visible(id), visible(name)),
        (Some(id), None) => format!(" job `{}`", visible(id)),
        _ => String::new(),
    };
    let mut out = format!("Run: {}{job} · {}\n", run.run, visible(&run.session_from));
    if let Some(cap) = &run.tools_allow {
        let list =
            if cap.is_empty() { "(empty: no tools at all)".to_string() } else { visible(&cap.join(", ")).into_owned() };
        out.push_str(&format!("  per-run cap (the job's payload.toolsAllow): {list}\n"));
    }
    for (tool, why) in &run.not_built {
        out.push_str(&format!("  not built: {tool} ({})\n", visible(why)));
    }
    for tool in &run.extra_built {
        out.push_str(&format!("  built for this run: {tool}\n"));
    }
    for note in &run.notes {
        out.push_str(&format!("  note: {}\n", visible(note)));
    }
    let agent = visible(agent);
    out.push_str(&format!(
        "  nobody answers an exec approval in this run: `ask` becomes what askFallback decides (approvals store: agents.{agent}, else agents.*, else defaults)\n"
    ));
    out
}

fn render(report: &ToolsReport) -> String {
    let mut out = format!(
        "OpenClaw {} · agent {} · session {} · sandbox {}{}\n",
        report.openclaw_version,
        report.agent_id,
        report.session_key,
        report.sandbox_mode,
        if report.sandboxed { " (sandboxed)" } else { "" }
    );
    if let Some(audience) = &report.audience {
        out.push_str(&format!("Reachable by: {}\n", audience.describe()));
        for route in &report.reached_by {
            out.push_str(&format!("  via {route}\n"));
        }
    }
    if let Some(spawn) = &report.spawn {
        out.push_str(&spawn_summary(spawn));
    }
    if let Some(run) = &report.automation {
        out.push_str(&automation_summary(run, &report.agent_id));
    }
    out.push('\n');
    out.push_str(&format!("Available tools ({}):\n", report.tools.len()));
    out.push_str(&textwrap(&report.tools.join(", "), 96, "  "));
    out.push('\n');
    if !report.removed.is_empty() {
        let mut table = output::table(&["Removed tool", "Step", "Why", "Written at"]);
        for (tool, located) in &report.removed {
            let removal = &located.removal;
            let why = match (&removal.pattern, &removal.via) {
                (Some(pattern), Some(via)) if via != pattern => {
                    format!("deny \"{pattern}\" (via {via})")
                }
                (Some(pattern), _) => format!("deny \"{pattern}\""),
                (None, _) if removal.rule == policy::RemovalRule::Filter => "filtered before the pipeline".into(),
                (None, _) => "not in allowlist".into(),
            };
            let at = match (&located.location, &removal.source) {
                (Some(location), Some(_)) if located.written_as.is_some() => {
                    format!("{} (as written)\n{location}", located.written_as.as_deref().unwrap_or_default())
                }
                (Some(location), Some(source)) => format!("{source}\n{location}"),
                (None, Some(source)) => source.to_string(),
                _ => String::new(),
            };
            table.add_row(output::cells([tool.clone(), removal.step.to_string(), why, at]));
        }
        out.push_str(&format!("\nRemoved tools ({}):\n{table}\n", report.removed.len()));
    }
    if !report.not_constructed.is_empty() {
        // Grouped by reason: most of the catalog is usually missing for the same few reasons.
        let mut by_reason: Vec<(&str, Vec<&str>)> = Vec::new();
        for (tool, reason) in &report.not_constructed {
            match by_reason.iter_mut().find(|(r, _)| r == reason) {
                Some((_, tools)) => tools.push(tool),
                None => by_reason.push((reason, vec![tool])),
            }
        }
        out.push_str(&format!("\nNever built for this session ({}):\n", report.not_constructed.len()));
        for (reason, tools) in by_reason {
            out.push_str(&textwrap(&format!("{}: {reason}", tools.join(", ")), 96, "  "));
        }
    }
    for warning in &report.warnings {
        out.push_str(&format!("\nwarning: {warning}\n"));
    }
    if !report.assumptions.is_empty() {
        out.push_str("\nAssumed (not given on the command line):\n");
        for a in &report.assumptions {
            out.push_str(&format!("  - {}: {}\n", a.fact, a.assumed));
        }
    }
    out
}

/// Wraps a comma-separated list at word boundaries with an indent.
fn textwrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    for word in text.split(' ') {
        if line.len() + word.len() + 1 > width && !line.trim().is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(indent);
        }
        line.push_str(word);
        line.push(' ');
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}
