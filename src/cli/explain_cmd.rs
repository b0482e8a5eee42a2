//! `clawpolicy explain <tool>`: one tool's path through the pipeline and how to restore it.

use std::process::ExitCode;

use clap::Args;

use super::output::{self, Format};
use super::{ConfigArgs, ContextArgs};
use crate::config::loading;
use crate::policy::explain::{Explanation, explain};
use crate::policy::{self, matcher::Verdict};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Tool name (aliases such as `bash` and `cron` are accepted).
    pub tool: String,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub context: ContextArgs,
    #[arg(long, value_parser = output::formats("table", output::TABLES_AND_DOCUMENTS), default_value = "table")]
    pub format: Format,
    /// Write the edits that bring the tool back into the config files (as `clawpolicy fix`;
    /// they change access, so no `--unsafe-fixes` is needed). With `--diff`, only show them.
    #[arg(long)]
    pub apply: bool,
    /// With `--apply`: print the edits as a unified diff instead of writing them.
    #[arg(long, requires = "apply")]
    pub diff: bool,
}

pub fn run(global: &super::Global, args: &ExplainArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    if args.apply && args.format != Format::Human {
        return Err(miette::miette!(
            code = "explain::apply",
            "--apply prints a report for people: use it with --format table"
        ));
    }
    let loaded = global.load(&args.config.files, args.format.machine("explain"))?;
    let ctx = args.context.to_run_context(global, loaded.config())?;
    super::check_known_agent(version, loaded.config(), &ctx)?;
    let resolution = policy::resolve(version, loaded.config(), &ctx)
        .map_err(|e| miette::miette!(code = "session", help = "pass --agent <id> or --session <key>", "{e}"))?;
    crate::fleet::contexts::known_tool(version, &args.tool, &ctx.plugin_tools, &[&resolution]).map_err(|message| {
        match crate::policy::mcp::undeclared_tool_help(loaded.config(), &args.tool) {
            Some(help) => miette::miette!(code = "explain::unknown-tool", help = help, "{message}"),
            None => miette::miette!(code = "explain::unknown-tool", "{message}"),
        }
    })?;
    let explanation = explain(version, loaded.config(), &ctx, &resolution, &args.tool);
    match args.format {
        Format::Human => {
            output::write_stdout(&render(&explanation, &resolution.agent_id, &resolution.session_key, &loaded))?
        }
        format => output::emit_machine(format, "explain", &explanation)?,
    }
    if explanation.tool == "exec" && explanation.present && args.format == Format::Human && !global.quiet {
        output::write_stdout(&exec_note(version, loaded.config(), &resolution.agent_id))?;
        if ctx.message_provider.is_some() {
            output::write_stdout(&elevated_note(version, &loaded, &resolution.agent_id, &ctx))?;
        }
    }
    if args.apply {
        let Some(fix) = crate::fix::explain_candidate(&explanation.tool, &explanation.fixes) else {
            output::write_stderr(&format!("note: {} needs no edit here; nothing to apply", explanation.tool));
            return Ok(ExitCode::SUCCESS);
        };
        let flags = super::fix_cmd::FixFlags { diff: args.diff, unsafe_fixes: true };
        return Ok(super::fix_cmd::after_explain(global, loaded.paths(), &flags, fix)?.into());
    }
    Ok(ExitCode::SUCCESS)
}

/// Having the exec tool is half the answer: whether a command runs is decided by the exec
/// approval settings, which the user should see next.
fn exec_note(version: crate::OpenClawVersion, config: &serde_json::Value, agent: &str) -> String {
    let posture = crate::fleet::probe::posture(version, config, agent, &crate::exec::ApprovalsInput::None);
    let get = |name: &str| posture.iter().find(|s| s.setting == name);
    let shown = |name: &str| {
        get(name).map_or("?".to_string(), |s| s.value.as_str().map_or(s.value.to_string(), str::to_string))
    };
    let (security, ask) = (shown("security"), shown("ask"));
    let consequence = match (security.as_str(), ask.as_str()) {
        ("deny", _) => "so every command is denied",
        ("full", "off") => "so every command runs without approval",
        ("allowlist", "off") => "so a command not matched by the allowlist or a safe bin is denied",
        (_, "always") => "so every command asks a person first",
        _ => "so a command outside the allowlist asks a person first",
    };
    format!(
        "\nWhether a command runs is decided by the exec settings: security {security}, ask {ask} (config only), \
         {consequence}.\nAsk about a command with `clawpolicy exec '<command>' --agent {agent}`.\n"
    )
}

/// Elevated mode for the message the context flags describe: who lets the sender in, or every
/// failing gate with where it is written.
fn elevated_note(
    version: crate::OpenClawVersion,
    loaded: &loading::LoadedFiles,
    agent: &str,
    ctx: &crate::policy::SessionContext,
) -> String {
    use crate::exec::elevated::{Origin, evaluate};
    let gates = evaluate(loaded.config(), version, agent, &Origin::of_context(ctx));
    let channel = crate::base::escape::visible(gates.channel.as_deref().unwrap_or("(none)")).into_owned();
    if gates.allowed {
        let level = gates.default_level.as_deref().unwrap_or("on");
        return format!(
            "Elevated mode: allowed for this sender on {channel}; the session starts at level {level} (exec on the gateway host).\n"
        );
    }
    let mut out = format!("Elevated mode: not available for this sender on {channel}:\n");
    for failure in &gates.failures {
        let at = failure
            .path
            .as_ref()
            .and_then(|p| loaded.locate_nearest(p))
            .map(|l| format!(" at {l}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "  - {} ({}){at}: {}\n",
            failure.gate.as_str(),
            failure.key,
            crate::base::escape::visible(&failure.fix)
        ));
    }
    out
}

fn verdict_text(verdict: &Verdict, entry: Option<&str>) -> String {
    let entry = entry.unwrap_or("?");
    match verdict {
        Verdict::AllowedNoAllowlist => "kept (no allowlist here)".into(),
        Verdict::Allowed { by } => match &by.via {
            Some(via) if via.as_str() != entry => format!("kept: allowed by \"{entry}\" (via {via})"),
            _ => format!("kept: allowed by \"{entry}\""),
        },
        Verdict::AllowedViaPiggyback { piggyback, .. } => {
            format!("kept: \"{entry}\" allows {piggyback}, which admits apply_patch")
        }
        Verdict::Denied { by } => match &by.via {
            Some(via) if via.as_str() != entry => format!("REMOVED: denied by \"{entry}\" (via {via})"),
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
            // The entry that decided, else the block the step read: never a blank cell.
            let written = step.source.as_ref().and_then(|s| s.config_path()).or(step.scope.as_ref());
            let location = written.and_then(|path| loaded.locate(path));
            let what = match (&step.source, written) {
                (Some(source @ crate::policy::rules::Source::Config { .. }), _) => source.to_string(),
                (Some(source), Some(path)) => format!("{source} ({path})"),
                (Some(source), None) => source.to_string(),
                (None, Some(path)) => path.to_string(),
                (None, None) => "built in".to_string(),
            };
            let at = match location {
                Some(location) => format!("{what}\n{location}"),
                None => what,
            };
            table.add_row(output::cells([step.step.clone(), verdict_text(&step.verdict, step.entry.as_deref()), at]));
        }
        out.push_str(&format!("\n{table}\n"));
    }
    if !e.fixes.is_empty() {
        out.push_str("\nTo bring it back (every edit below, in order):\n");
        for fix in &e.fixes {
            match fix.step.as_str() {
                "construction" => out.push_str("  so that the release builds it here:\n"),
                step => out.push_str(&format!("  at `{step}`:\n")),
            }
            for edit in &fix.edits {
                // A key the release moved while loading (a legacy `agents.list` entry) is edited
                // where the file writes it.
                let written = loaded.written_path(edit.path()).map(|mut written| {
                    // A removal names the list, as its description does.
                    if matches!(edit, crate::policy::explain::Edit::Remove { .. }) {
                        written.0.pop();
                    }
                    format!(" (written as {written})")
                });
                let written = written.unwrap_or_default();
                out.push_str(&format!("    - {}{written}\n", edit.describe()));
            }
            if let Some(note) = &fix.note {
                out.push_str(&format!("    - {note}\n"));
            }
            if !fix.edits.is_empty() {
                let grants =
                    if fix.also_grants.is_empty() { "nothing else".to_string() } else { fix.also_grants.join(", ") };
                let restores = if fix.restores { "with the edits above, restores it" } else { "not enough yet" };
                out.push_str(&format!("      {restores}; also grants: {grants}\n"));
            }
        }
    }
    if let Some(child) = &e.emptied_child {
        out.push_str(&emptied_child_text(child));
    }
    if !e.depends_on.is_empty() {
        out.push_str("\nThe answer depends on facts you did not give:\n");
        for d in &e.depends_on {
            let outcome = match (d.present, &d.removed_by, &d.not_constructed) {
                (true, _, _) => "it would be available".to_string(),
                (false, Some(step), _) => format!("it would be removed by `{step}`"),
                (false, None, Some(reason)) => format!("it would not be built ({reason})"),
                (false, None, None) => "it would not be built".to_string(),
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

/// A spawned sub-agent with no tools: the step that emptied it and the edit on its own side.
fn emptied_child_text(child: &crate::policy::explain::EmptiedChild) -> String {
    let visible = |text: &str| crate::base::escape::visible(text).into_owned();
    let mut out = format!(
        "\nThis sub-agent has no tools at all: `{}` removed the last ({}).\n",
        child.step,
        visible(&child.removed.join(", "))
    );
    match &child.child_side {
        Some(crate::policy::explain::ChildSideFix { tool, fixes }) => {
            out.push_str(&format!(
                "  Or, on the sub-agent's side, the smallest edit gives it `{}`, which its requester hands down:\n",
                visible(tool)
            ));
            for edit in fixes.iter().flat_map(|f| &f.edits) {
                out.push_str(&format!("    - {}\n", visible(&edit.describe())));
            }
        }
        None => out.push_str("  No edit on the sub-agent's side alone gives it a tool its requester hands down.\n"),
    }
    out
}
