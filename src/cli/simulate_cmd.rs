//! `clawpolicy simulate`: play a session's tool calls through tool policy, loop detection,
//! hooks and exec approvals; with expectations, a test.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde_json::{Value, json};

use super::exit::Exit;
use super::output::{self, Format};
use super::{ConfigArgs, ContextArgs};
use crate::OpenClawVersion;
use crate::config::loading;
use crate::simulate::{self, CallTrace, Report, Setup, scenario};

#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes:\n  0  played; every expectation met (or none given)\n  1  an expectation was not met\n  2  could not play: unreadable or invalid scenario or config, unknown agent"
)]
pub struct SimulateArgs {
    /// The scenario (YAML or JSON; schema in schemas/scenario.schema.json).
    pub scenario: PathBuf,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub context: ContextArgs,
    /// Working directory of exec calls (default: the scenario's `cwd`, else the current directory).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    #[arg(long, value_parser = output::formats("table", output::TABLES_AND_DOCUMENTS), default_value = "table")]
    pub format: Format,
}

pub fn run(global: &super::Global, args: &SimulateArgs) -> miette::Result<ExitCode> {
    let cli_version = global.version;
    let text = crate::base::userfile::read_text(&args.scenario, crate::base::userfile::MAX_INPUT_BYTES)
        .map_err(|e| miette::miette!(code = "simulate::read", "cannot read {}: {e}", args.scenario.display()))?;
    let scenario = scenario::parse(&text).map_err(|e| {
        let message = crate::config::secrets::parse_error_message(&e.to_string());
        miette::miette!(code = "simulate::scenario", "{}: {message}", args.scenario.display())
    })?;
    let version = match &scenario.openclaw_version {
        Some(v) => v.parse().map_err(|e| miette::miette!(code = "simulate::scenario", "openclawVersion: {e}"))?,
        None => cli_version,
    };
    let base_dir = args.scenario.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let config = scenario_config(global, &scenario, version, base_dir, &args.config)?;
    let mut ctx = args.context.with_job(global, &config)?;
    let c = &scenario.context;
    let overlay = |slot: &mut Option<String>, value: &Option<String>| {
        if value.is_some() {
            slot.clone_from(value);
        }
    };
    overlay(&mut ctx.agent_id, &c.agent);
    overlay(&mut ctx.session_key, &c.session);
    overlay(&mut ctx.model_provider, &c.provider);
    overlay(&mut ctx.model_id, &c.model);
    overlay(&mut ctx.message_provider, &c.channel);
    overlay(&mut ctx.sender_id, &c.sender);
    if c.owner.is_some() {
        ctx.sender_is_owner = c.owner;
    }
    super::check_known_agent(version, &config, &ctx)?;
    if let Some(sandbox) = &c.sandbox {
        ctx.sandbox = sandbox
            .parse()
            .map_err(|e: String| miette::miette!(code = "simulate::scenario", "context.sandbox: {e}"))?;
    }
    let cwd = match (&args.cwd, &scenario.cwd) {
        (Some(cwd), _) => cwd.clone(),
        (None, Some(cwd)) => base_dir.join(cwd),
        (None, None) => std::env::current_dir().map_err(|e| miette::miette!("no current directory: {e}"))?,
    };
    let setup = Setup { version, config, ctx, cwd, path_var: scenario.path.clone() };
    let report = simulate::run(&setup, &scenario)
        .map_err(|e| miette::miette!(code = "session", help = "set context.agent or context.session", "{e}"))?;
    match args.format {
        Format::Human => output::write_stdout(&render_text(&report))?,
        format => output::emit_machine(format, "simulate", &report)?,
    }
    Ok(Exit::flagged_if(report.failed > 0).into())
}

/// The scenario's own config (inline, or a path relative to it), else the `--config` files.
fn scenario_config(
    global: &super::Global,
    scenario: &scenario::Scenario,
    version: OpenClawVersion,
    base_dir: &Path,
    files: &ConfigArgs,
) -> miette::Result<Value> {
    let case = match &scenario.config {
        None => return Ok(global.load_as(&files.files, version, None)?.config().clone()),
        Some(Value::String(path)) => json!({"configPath": path}),
        Some(inline) => json!({"config": inline}),
    };
    let loaded = loading::load_case_config(&case, &global.options_for(version), base_dir).map_err(|e| {
        miette::miette!(code = "simulate::config", "{}", e["message"].as_str().unwrap_or("config error"))
    })?;
    if let Some(issue) = loaded.issues.first() {
        return Err(miette::miette!(
            code = "simulate::config",
            "OpenClaw {} would refuse the scenario's config: {}: {}",
            version.id(),
            issue["path"].as_str().unwrap_or_default(),
            issue["message"].as_str().unwrap_or_default()
        ));
    }
    Ok(loaded.config)
}

/// One call's lines. A warning already printed for an earlier call is not repeated: the config's
/// exec warnings (unprofiled safe bins, …) come with every exec call.
fn call_line(call: &CallTrace, shown: &mut BTreeSet<String>) -> String {
    let path: Vec<String> = call.stages.iter().map(|s| format!("{} {}", s.stage, s.result)).collect();
    let mut line = format!(
        "#{} {} @{}ms: {} → {}",
        call.index,
        call.tool,
        call.at_ms,
        path.join(" → "),
        call.outcome.to_uppercase()
    );
    if !call.reason.is_empty() {
        line.push_str(&format!(" ({})", call.reason));
    }
    line.push('\n');
    if let Some(approval) = &call.approval {
        line.push_str(&format!(
            "    approval {} (slug {}), offers {}, expires at {}ms\n",
            approval.request.id,
            approval.request.slug,
            approval.request.allowed_decisions.join("|"),
            approval.request.expires_at_ms
        ));
        for attempt in &approval.attempts {
            let result = attempt.get("error").and_then(Value::as_str).unwrap_or("ok");
            line.push_str(&format!(
                "    /approve {} at {}ms: {result}\n",
                attempt["decision"].as_str().unwrap_or_default(),
                attempt["atMs"]
            ));
        }
        match (&approval.decision, approval.ask_fallback) {
            (None, Some(fallback)) => {
                line.push_str(&format!("    no decision before expiry; askFallback {fallback:?}\n").to_lowercase())
            }
            (Some(decision), _) => line.push_str(&format!("    decision: {decision}\n")),
            _ => {}
        }
        if let Some(persisted) = &approval.persisted {
            line.push_str(&format!("    allow-always stored: {persisted}\n"));
        }
    }
    for warning in call.warnings.iter().filter(|w| shown.insert(w.to_string())) {
        line.push_str(&format!("    warning: {warning}\n"));
    }
    for note in &call.notes {
        line.push_str(&format!("    note: {note}\n"));
    }
    for mismatch in &call.mismatches {
        line.push_str(&format!("    EXPECTATION FAILED: {mismatch}\n"));
    }
    line
}

fn render_text(report: &Report) -> String {
    let mut text = match &report.name {
        Some(name) => format!("scenario {name}: "),
        None => String::new(),
    };
    text.push_str(&format!(
        "OpenClaw {}, agent {}, session {}, loop detection {}\n",
        report.openclaw_version.id(),
        report.agent_id,
        report.session_key,
        if report.loop_detection.enabled { "on" } else { "off" }
    ));
    let mut shown = BTreeSet::new();
    for call in &report.calls {
        text.push_str(&call_line(call, &mut shown));
    }
    if report.expectations > 0 {
        text.push_str(&format!("expectations: {} checked, {} failed\n", report.expectations, report.failed));
    }
    text
}
