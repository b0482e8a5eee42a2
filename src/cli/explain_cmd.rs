//! `clawpolicy explain <tool>`: one tool's path through the pipeline and how to restore it.

use std::process::ExitCode;

use clap::Args;

use super::output::{self, Format};
use super::{ConfigArgs, ContextArgs};
use crate::explain::{Explanation, explain};
use crate::loading;
use crate::policy::{self, matcher::Verdict};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Tool name (aliases such as `bash` and `cron` are accepted).
    pub tool: String,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub context: ContextArgs,
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

pub fn run(global: &super::Global, args: &ExplainArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    let loaded = global.load(&args.config.files, args.format.machine("explain"))?;
    let ctx = args.context.to_context()?;
    super::check_known_agent(version, &loaded.config, &ctx)?;
    let resolution = policy::resolve(version, &loaded.config, &ctx)
        .map_err(|e| miette::miette!(code = "session", help = "pass --agent <id> or --session <key>", "{e}"))?;
    crate::contexts::known_tool(version, &args.tool, &ctx.plugin_tools, &[&resolution])
        .map_err(|message| miette::miette!(code = "explain::unknown-tool", "{message}"))?;
    let explanation = explain(version, &loaded.config, &ctx, &resolution, &args.tool);
    match args.format {
        Format::Table => {
            output::write_stdout(&render(&explanation, &resolution.agent_id, &resolution.session_key, &loaded))?
        }
        format => output::emit_machine(format, "explain", &explanation)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn verdict_text(verdict: &Verdict, entry: Option<&str>) -> String {
    let entry = entry.unwrap_or("?");
    match verdict {
        Verdict::AllowedNoAllowlist => "kept (no allowlist here)".into(),
        Verdict::Allowed { by } => match &by.via {
            Some(via) if via != entry => format!("kept: allowed by \"{entry}\" (via {via})"),
            _ => format!("kept: allowed by \"{entry}\""),
        },
        Verdict::AllowedViaPiggyback { piggyback, .. } => {
            format!("kept: \"{entry}\" allows {piggyback}, which admits apply_patch")
        }
        Verdict::Denied { by } => match &by.via {
            Some(via) if via != entry => format!("REMOVED: denied by \"{entry}\" (via {via})"),
            _ => format!("REMOVED: denied by \"{entry}\""),
        },
        Verdict::NotInAllowlist => "REMOVED: not in the allowlist".into(),
    }
}

fn render(e: &Explanation, agent: &str, session: &str, loaded: &loading::LoadedFiles) -> String {
    let mut out = String::new();
    let status = if e.present { "is available" } else { "is NOT available" };
    out.push_str(&format!("{} {status} to agent {agent} in session {session}.\n", e.tool));
    if !e.known_tool {
        out.push_str("  (not a tool of this OpenClaw release; plugin tools must be declared with --plugin-tool)\n");
    }
    if let Some(reason) = &e.not_constructed {
        out.push_str(&format!("  It is not constructed in this session: {reason}.\n"));
    }
    if let Some(removal) = &e.removed_by {
        out.push_str(&format!("  Removed by step `{}`.\n", removal.step));
    }
    if !e.steps.is_empty() {
        let mut table = output::table(&["Step", "Verdict", "Written at"]);
        for step in &e.steps {
            let at = step
                .source
                .as_ref()
                .map(|s| match super::tools_cmd::locate(Some(s), loaded) {
                    Some(location) => format!("{s}\n{location}"),
                    None => s.to_string(),
                })
                .unwrap_or_default();
            table.add_row(vec![step.step.clone(), verdict_text(&step.verdict, step.entry.as_deref()), at]);
        }
        out.push_str(&format!("\n{table}\n"));
    }
    if !e.fixes.is_empty() {
        out.push_str("\nTo bring it back (one edit per blocking step; all are needed):\n");
        for fix in &e.fixes {
            match fix.step.as_str() {
                "construction" => out.push_str("  so that the release builds it here:\n"),
                step => out.push_str(&format!("  at `{step}`:\n")),
            }
            for edit in &fix.edits {
                out.push_str(&format!("    - {}\n", edit.describe()));
            }
            if let Some(note) = &fix.note {
                out.push_str(&format!("    - {note}\n"));
            }
            if !fix.edits.is_empty() {
                let grants =
                    if fix.also_grants.is_empty() { "nothing else".to_string() } else { fix.also_grants.join(", ") };
                let restores = if fix.restores { "restores it" } else { "not enough on its own" };
                out.push_str(&format!("      {restores}; also grants: {grants}\n"));
            }
        }
    }
    if !e.depends_on.is_empty() {
        out.push_str("\nThe answer depends on facts you did not give:\n");
        for d in &e.depends_on {
            let outcome = if d.present {
                "it would be available".to_string()
            } else {
                format!("it would be removed by `{}`", d.removed_by.as_deref().unwrap_or("?"))
            };
            out.push_str(&format!("  - {}, {outcome}\n", d.condition));
        }
    }
    if !e.assumptions.is_empty() {
        out.push_str("\nAssumed:\n");
        for a in &e.assumptions {
            out.push_str(&format!("  - {}: {}\n", a.fact, a.assumed));
        }
    }
    out
}
