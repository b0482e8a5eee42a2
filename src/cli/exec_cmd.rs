//! `clawpolicy exec`: would this command run, need approval, or be denied in this session?

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use super::exit::Exit;
use super::output::{self, Format};
use super::{ConfigArgs, ContextArgs};
use crate::OpenClawVersion;
use crate::config::Location;
use crate::config::loading;
use crate::exec::{
    self, ApprovalsInput, Ask, Availability, CallSite, Decision, Elevated, ExecOutcome, Security, Unavailable,
};
use crate::policy::{self, Removal, Resolution};

#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes:\n  0  allowed: runs without approval\n  3  needs approval (ask)\n  4  denied, or OpenClaw refuses the call\n  5  unavailable: the session has no exec tool (a tool-policy step removed it)\n  2  could not answer: bad config, bad input, unknown agent"
)]
pub struct ExecArgs {
    /// The shell command, as the agent would pass it to the exec tool.
    #[arg(required_unless_present_any = ["file", "batch"])]
    pub command: Option<String>,
    /// Read the command from a file (`-` for standard input).
    #[arg(long, value_name = "FILE", conflicts_with = "command")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub context: ContextArgs,
    #[command(flatten)]
    pub what_if: WhatIfArgs,
    /// The approvals store: OpenClaw 2026.9's SQLite state database or 2026.2's
    /// `exec-approvals.json`. Default: the store OpenClaw itself would read, if it exists.
    #[arg(long, value_name = "PATH")]
    pub approvals: Option<PathBuf>,
    /// Answer as if the session had the exec tool, looking past the tool policy that removed it.
    #[arg(long)]
    pub assume_available: bool,
    #[arg(long, value_parser = output::formats("table", output::TABLES_AND_DOCUMENTS), default_value = "table")]
    pub format: Format,
    /// Many commands: one JSON case per line (oracle field names), JSONL answers out. `-` = stdin.
    #[arg(long, value_name = "FILE.jsonl", conflicts_with_all = ["command", "file"])]
    pub batch: Option<PathBuf>,
}

/// What-if overrides, applied on top of config like a session `/exec` directive.
#[derive(Debug, Args)]
#[command(next_help_heading = "What if")]
pub struct WhatIfArgs {
    /// Override security: deny, allowlist or full.
    #[arg(long, value_parser = parse_security)]
    pub security: Option<Security>,
    /// Override ask: off, on-miss or always.
    #[arg(long, value_parser = parse_ask)]
    pub ask: Option<Ask>,
    /// Add an allowlist pattern (repeatable).
    #[arg(long = "allow", value_name = "PATTERN")]
    pub allow: Vec<String>,
    /// Replace the safe bins, comma-separated.
    #[arg(long, value_name = "LIST")]
    pub safe_bins: Option<String>,
    /// Exec host: auto, sandbox, gateway or node.
    #[arg(long)]
    pub host: Option<String>,
    /// Working directory of the call (default: the current directory).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// PATH to resolve executables against (default: the current PATH).
    #[arg(long)]
    pub path: Option<String>,
    /// The session's elevated level: `auto` (what OpenClaw gives this message's sender: the
    /// default level when the elevated gates let the sender in, else off), or a requested level
    /// (`off`, `ask`/`on`, `full`), refused like `/elevated` when a gate fails.
    #[arg(long, default_value = "auto", value_name = "auto|off|ask|full", value_parser = parse_elevated)]
    pub elevated: ElevatedChoice,
}

fn parse_security(s: &str) -> Result<Security, String> {
    s.parse().map_err(|()| format!("security must be deny, allowlist or full, got `{s}`"))
}

fn parse_ask(s: &str) -> Result<Ask, String> {
    s.parse().map_err(|()| format!("ask must be off, on-miss or always, got `{s}`"))
}

/// `--elevated`: the level the release gives the session, or one requested.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElevatedChoice {
    Auto,
    Requested(Elevated),
}

fn parse_elevated(s: &str) -> Result<ElevatedChoice, String> {
    match s {
        "auto" => Ok(ElevatedChoice::Auto),
        "off" => Ok(ElevatedChoice::Requested(Elevated::Off)),
        "ask" | "on" => Ok(ElevatedChoice::Requested(Elevated::Ask)),
        "full" => Ok(ElevatedChoice::Requested(Elevated::Full)),
        other => Err(format!("elevated must be auto, off, ask (on) or full, got `{other}`")),
    }
}

/// The `exec` answer as printed.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExecReport<'a> {
    command: &'a str,
    agent_id: &'a str,
    session_key: &'a str,
    #[serde(flatten)]
    outcome: &'a ExecOutcome,
    /// Where every setting that came from the config is written.
    locations: std::collections::BTreeMap<&'static str, Location>,
    /// Where each key the elevated gates name is written (or, for a key not written, where it
    /// would go), by key path.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    elevated_locations: std::collections::BTreeMap<String, Location>,
    /// For a call that asks: what "allow always" would store and which later calls it covers.
    #[serde(skip_serializing_if = "Option::is_none")]
    allow_always_coverage: Option<&'a exec::coverage::AllowAlwaysCoverage>,
}

/// Why the session cannot call exec at all (the step that removed the tool, or why it was never
/// built), with where the removing entry is written.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExecUnavailable {
    #[serde(skip_serializing_if = "Option::is_none")]
    removed_by: Option<Removal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<Location>,
    /// The deciding key as written, when it is not the key in force (a migrated legacy roster).
    #[serde(skip_serializing_if = "Option::is_none")]
    written_as: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    not_constructed: Option<String>,
}

impl ExecUnavailable {
    fn of(unavailable: Unavailable, loaded: &loading::LoadedFiles) -> Self {
        let Unavailable { removed_by, not_constructed } = unavailable;
        let removed_by = removed_by.map(|removal| *removal);
        let source = removed_by.as_ref().and_then(|r| r.source.as_deref());
        let location = super::tools_cmd::locate(source, loaded);
        let written_as =
            source.and_then(|s| s.config_path()).and_then(|p| loaded.written_path(p)).map(|p| p.to_string());
        ExecUnavailable { removed_by, location, written_as, not_constructed }
    }

    fn render(&self, resolution: &Resolution) -> String {
        let mut out = format!("decision: UNAVAILABLE (OpenClaw {})\n", resolution.version.id());
        out.push_str(&format!(
            "  agent {} has no exec tool in session {}: ",
            resolution.agent_id, resolution.session_key
        ));
        match (&self.removed_by, &self.not_constructed) {
            (Some(removal), _) => {
                let why = match &removal.pattern {
                    Some(pattern) => format!("deny \"{pattern}\""),
                    None => "not in its allowlist".into(),
                };
                out.push_str(&format!("removed by step `{}` ({why})\n", removal.step));
                if let Some(source) = &removal.source {
                    let at = self.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
                    let written = self.written_as.clone().unwrap_or_else(|| source.to_string());
                    out.push_str(&format!("  written: {written}{at}\n"));
                }
            }
            (None, Some(reason)) => out.push_str(&format!("never built: {reason}\n")),
            (None, None) => out.push('\n'),
        }
        out.push_str(
            "  (`clawpolicy explain exec` shows how to restore it; --assume-available answers as if it were there)\n",
        );
        out
    }
}

/// Where the config-sourced effective settings were written.
fn setting_locations(
    outcome: &ExecOutcome,
    loaded: &loading::LoadedFiles,
) -> std::collections::BTreeMap<&'static str, Location> {
    let sources = [
        ("host", &outcome.host.source),
        ("security", &outcome.security.source),
        ("ask", &outcome.ask.source),
        ("askFallback", &outcome.ask_fallback.source),
    ];
    sources
        .into_iter()
        .filter_map(|(setting, source)| match source {
            exec::Source::Config(path) => Some((setting, loaded.locate(path)?)),
            _ => None,
        })
        .collect()
}

/// Where the keys the elevated gates name are written (or would go), by key path.
fn elevated_locations(
    outcome: &ExecOutcome,
    loaded: &loading::LoadedFiles,
) -> std::collections::BTreeMap<String, Location> {
    let Some(gates) = &outcome.elevated_gates else { return Default::default() };
    let failing = gates.failures.iter().filter_map(|f| f.path.as_ref());
    let admitting = gates.admitted_by.iter().map(|a| &a.path);
    let paths = failing.chain(admitting).chain(gates.default_level_path.as_ref());
    paths.filter_map(|path| Some((path.to_string(), loaded.locate_nearest(path)?))).collect()
}

pub fn run(global: &super::Global, args: &ExecArgs) -> miette::Result<ExitCode> {
    let version = global.version;
    let availability = if args.assume_available { Availability::Assumed } else { Availability::Required };
    if let Some(batch) = &args.batch {
        return run_batch(global, batch, availability);
    }
    let command = match (&args.command, &args.file) {
        (Some(command), _) => command.clone(),
        (None, Some(file)) => read_command(file)?,
        (None, None) => unreachable!("clap requires a command, --file or --batch"),
    };
    let loaded = global.load(&args.config.files, args.format.machine("exec"))?;
    let ctx = args.context.to_run_context(global, loaded.config())?;
    super::check_known_agent(version, loaded.config(), &ctx)?;
    let session = policy::resolve(version, loaded.config(), &ctx)
        .map_err(|e| miette::miette!(code = "session", help = "pass --agent <id> or --session <key>", "{e}"))?;
    let cwd = match &args.what_if.cwd {
        Some(cwd) => cwd.clone(),
        None => std::env::current_dir().map_err(|e| miette::miette!("no current directory: {e}"))?,
    };
    let gates = exec::elevated::evaluate(
        loaded.config(),
        version,
        &session.agent_id,
        &exec::elevated::Origin::of_context(&ctx),
    );
    let site = CallSite {
        path_var: args.what_if.path.clone(),
        elevated: match args.what_if.elevated {
            ElevatedChoice::Auto => gates.session_level(),
            ElevatedChoice::Requested(level) => level,
        },
        elevated_gates: Some(gates),
        approvals: approvals_input(global, version, args.approvals.as_deref()),
        ..CallSite::new(cwd)
    };
    let what_if = exec::WhatIf {
        security: args.what_if.security,
        ask: args.what_if.ask,
        host: args.what_if.host.clone(),
        allow: args.what_if.allow.clone(),
        safe_bins: args
            .what_if
            .safe_bins
            .as_ref()
            .map(|list| list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()),
    };
    let request = match exec::request(loaded.config(), &session, command.clone(), what_if, &site, availability) {
        Ok(request) => request,
        Err(unavailable) => {
            let unavailable = ExecUnavailable::of(unavailable, &loaded);
            match args.format {
                Format::Human => output::write_stdout(&unavailable.render(&session))?,
                format => output::emit_machine(
                    format,
                    "exec",
                    &serde_json::json!({
                        "openclawVersion": version.id(),
                        "command": command,
                        "agentId": session.agent_id,
                        "sessionKey": session.session_key,
                        "decision": "unavailable",
                        "unavailable": unavailable,
                    }),
                )?,
            }
            return Ok(Exit::ExecUnavailable.into());
        }
    };
    let outcome = exec::evaluate(&request, version)?;
    let allow_always = exec::coverage::allow_always_coverage(&request, &outcome, version);
    let locations = setting_locations(&outcome, &loaded);
    let elevated_locations = elevated_locations(&outcome, &loaded);
    match args.format {
        Format::Human => {
            let mut text = super::exec_render::render_text(&outcome);
            for (setting, location) in &locations {
                text.push_str(&format!("{setting} is set at {location}\n"));
            }
            if let Some(coverage) = &allow_always {
                text.push_str(&super::exec_render::render_allow_always(coverage, &session.agent_id));
            }
            if let Some(gates) = &outcome.elevated_gates {
                text.push_str(&super::exec_render::render_elevated(gates, &outcome, &elevated_locations));
            }
            if let Some(diagnostic) = super::exec_render::analysis_diagnostic(&command, &outcome) {
                text.push_str(&format!("\n{:?}\n", miette::Report::new(diagnostic)));
            }
            output::write_stdout(&text)?;
        }
        format => {
            let report = ExecReport {
                command: &command,
                agent_id: &session.agent_id,
                session_key: &session.session_key,
                outcome: &outcome,
                locations,
                elevated_locations,
                allow_always_coverage: allow_always.as_ref(),
            };
            output::emit_machine(format, "exec", &report)?;
        }
    }
    Ok(match outcome.decision {
        Decision::Allow => Exit::Success,
        Decision::Ask => Exit::ExecAsks,
        Decision::Deny | Decision::Error => Exit::ExecDenied,
    }
    .into())
}

fn read_command(file: &Path) -> miette::Result<String> {
    let bytes = if file == Path::new("-") {
        let limit = crate::base::userfile::MAX_INPUT_BYTES;
        let mut buffer = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(std::io::stdin().lock(), limit + 1), &mut buffer)
            .map_err(|e| miette::miette!("cannot read standard input: {e}"))?;
        if buffer.len() as u64 > limit {
            return Err(miette::miette!(code = "exec::read", "standard input is larger than {limit} bytes"));
        }
        buffer
    } else {
        crate::base::userfile::read(file, crate::base::userfile::MAX_INPUT_BYTES)
            .map_err(|e| miette::miette!(code = "exec::read", "cannot read {}: {e}", file.display()))?
    };
    Ok(exec::command_from_bytes(&bytes)?)
}

/// The approvals store to read: the one given, else the one OpenClaw itself would read in the
/// environment the config loads under (if it exists).
pub(super) fn approvals_input(
    global: &super::Global,
    version: OpenClawVersion,
    given: Option<&Path>,
) -> ApprovalsInput {
    match given {
        Some(path) => exec::approvals::store::input_for(path),
        None => {
            let options = global.options_for(version);
            exec::approvals::store::default_input(version, &options.env, &options.cwd)
        }
    }
}

fn run_batch(global: &super::Global, path: &Path, availability: Availability) -> miette::Result<ExitCode> {
    let opts = global.options();
    let base_dir = output::batch_folder(path);
    let sessions = crate::batch::exec::RecentSessions::default();
    output::run_jsonl(path, |case| match case {
        Ok(case) => crate::batch::exec::evaluate_batch_case_in(&case, &opts, &base_dir, availability, &sessions),
        Err(message) => serde_json::json!({"id": null, "decision": "error", "error": message}),
    })
}
