//! `clawpolicy path`: would a file tool be allowed to touch this path for this agent and session?

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use super::exit::Exit;
use super::output::{self, Format};
use super::{ConfigArgs, ContextArgs};
use crate::config::Location;
use crate::guards::file_access::{self, Dirs, FileAccess, FileRequest, FileVerdict};
use crate::policy::{self, session::Session};

#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes:\n  0  allowed\n  1  denied (tool policy, or the path escapes the root)\n  2  could not answer: bad config or arguments, unreadable filesystem"
)]
pub struct PathArgs {
    /// The path as the agent would pass it to the tool (relative paths resolve against --cwd).
    pub path: String,
    /// Ask about writing (the `write` tool) instead of reading.
    #[arg(long)]
    pub write: bool,
    /// The file tool: read, ls, write, edit or apply_patch (default: read, or write with --write).
    #[arg(long, value_parser = parse_tool)]
    pub tool: Option<String>,
    /// Working directory of the call (default: the root the tool is contained to).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// The agent workspace (default: what the config and environment imply).
    #[arg(long)]
    pub workspace: Option<PathBuf>,
    /// Host directory of the sandbox's own workspace (sandboxed sessions with workspaceAccess none).
    #[arg(long)]
    pub sandbox_dir: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub context: ContextArgs,
    #[arg(long, value_parser = output::formats("table", output::TABLES_AND_DOCUMENTS), default_value = "table")]
    pub format: Format,
}

fn parse_tool(s: &str) -> Result<String, String> {
    if file_access::is_file_tool(s) {
        Ok(s.to_string())
    } else {
        Err(format!("tool must be read, ls, write, edit or apply_patch, got `{s}`"))
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PathReport<'a> {
    openclaw_version: &'static str,
    agent_id: &'a str,
    session_key: &'a str,
    #[serde(flatten)]
    access: &'a FileAccess,
    /// Where the setting that contains the tool and the workspace are written, when in a file.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    locations: std::collections::BTreeMap<&'static str, Location>,
}

pub fn run(global: &super::Global, args: &PathArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    let tool = match (&args.tool, args.write) {
        (Some(tool), true) if !matches!(tool.as_str(), "write" | "edit" | "apply_patch") => {
            return Err(miette::miette!(code = "path::tool", "--write conflicts with the read-only tool `{tool}`"));
        }
        (Some(tool), _) => tool.clone(),
        (None, write) => file_access::default_tool(write).to_string(),
    };
    let loaded = global.load(&args.config.files, args.format.machine("path"))?;
    let ctx = args.context.to_run_context(global, loaded.config())?;
    super::check_known_agent(version, loaded.config(), &ctx)?;
    let session_error = |e| miette::miette!(code = "session", help = "pass --agent <id> or --session <key>", "{e}");
    let session = Session::resolve(loaded.config(), &ctx, version).map_err(session_error)?;
    let resolution = policy::resolve(version, loaded.config(), &ctx).map_err(session_error)?;
    let request = FileRequest {
        path: args.path.clone(),
        tool,
        cwd: args.cwd.clone(),
        workspace: args.workspace.clone(),
        sandbox_dir: args.sandbox_dir.clone(),
        dirs: Dirs::from_env(),
    };
    let access = file_access::decide(version, loaded.config(), &session, &resolution, &request);
    let mut locations = std::collections::BTreeMap::new();
    if let Some(at) = access.root.as_ref().and_then(|root| root.key.as_ref()).and_then(|key| loaded.locate(key)) {
        locations.insert("root", at);
    }
    if let Some(at) = access.workspace.key.as_ref().and_then(|key| loaded.locate(key)) {
        locations.insert("workspace", at);
    }
    match args.format {
        Format::Human => output::write_stdout(&render_text(&access, &locations))?,
        format => {
            let report = PathReport {
                openclaw_version: version.id(),
                agent_id: &resolution.agent_id,
                session_key: &resolution.session_key,
                access: &access,
                locations,
            };
            output::emit_machine(format, "path", &report)?;
        }
    }
    Ok(match access.verdict {
        FileVerdict::Allowed => Exit::Success,
        FileVerdict::Denied => Exit::Flagged,
        FileVerdict::Error => Exit::CannotAnswer,
    }
    .into())
}

fn render_text(access: &FileAccess, locations: &std::collections::BTreeMap<&'static str, Location>) -> String {
    let verdict = match access.verdict {
        FileVerdict::Allowed => "ALLOWED",
        FileVerdict::Denied => "DENIED",
        FileVerdict::Error => "ERROR",
    };
    let mode = if access.write { "write" } else { "read" };
    let mut text = format!("{verdict}  {} {} ({mode})\n", access.tool, access.path);
    text.push_str(&format!("rule:      {}: {}\n", access.rule, access.reason));
    if let Some(root) = &access.root {
        let at = locations.get("root").map(|at| format!(" at {at}")).unwrap_or_default();
        text.push_str(&format!("root:      {} ({}{at})\n", root.value.display(), root.source));
    }
    let at = locations.get("workspace").map(|at| format!(" at {at}")).unwrap_or_default();
    text.push_str(&format!("workspace: {} ({}{at})\n", access.workspace.value.display(), access.workspace.source));
    let sandbox = if access.sandboxed {
        format!("sandboxed, workspaceAccess {}", access.workspace_access)
    } else {
        "not sandboxed".into()
    };
    text.push_str(&format!("session:   {sandbox}\n"));
    if let Some(landed) = &access.landed {
        text.push_str(&format!("lands at:  {}\n", landed.canonical.display()));
    }
    text
}
