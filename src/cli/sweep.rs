//! Arguments and loading shared by the commands that ask every enumerated session of a config
//! (`matrix`, `who-can`, `diff`).

use std::path::PathBuf;

use clap::Args;

use crate::OpenClawVersion;
use crate::config::view::ids::normalize_agent_id;
use crate::exec::ApprovalsInput;
use crate::fleet::contexts::{self, Evaluated, NamedContext};
use crate::policy::PluginTool;
use crate::policy::automation::jobs::CronJob;

/// Which sessions to enumerate.
#[derive(Debug, Args, Default)]
#[command(next_help_heading = "Sessions")]
pub struct SweepArgs {
    /// Only this agent (repeatable). Default: every agent of the config.
    #[arg(long = "agent", value_name = "ID")]
    pub agents: Vec<String>,
    #[command(flatten)]
    pub plugins: super::PluginToolArgs,
    /// A cron jobs store (2026.9's state database, 2026.2's `cron/jobs.json`): also enumerate
    /// each enabled job's run (`cron:<id>`). Heartbeats come from the config alone.
    #[arg(long, value_name = "FILE")]
    pub jobs: Option<PathBuf>,
}

impl SweepArgs {
    /// The sessions of a config, with the runs of the jobs store given.
    pub fn sessions<'a>(
        &self,
        version: OpenClawVersion,
        config: &'a serde_json::Value,
        jobs: &[CronJob],
    ) -> contexts::Sessions<'a> {
        contexts::Sessions::new(version, config).with_jobs(jobs)
    }

    /// The contexts of the selected agents; naming an agent the config does not have is an error.
    pub fn contexts(
        &self,
        sessions: &contexts::Sessions<'_>,
        plugin_tools: &[PluginTool],
    ) -> miette::Result<Vec<NamedContext>> {
        let all = sessions.agents();
        let wanted: Vec<String> = self.agents.iter().map(|a| normalize_agent_id(a)).collect();
        if let Some(unknown) = wanted.iter().find(|a| !all.contains(a)) {
            return Err(super::unknown_agent(unknown, all, "this config"));
        }
        let beyond = crate::policy::spawn::spawns_beyond_cap(sessions.version(), sessions.config());
        if beyond > 0 {
            super::output::write_stderr(&format!(
                "note: the config allows {beyond} more sub-agent spawns than the {} enumerated (each agent's own \
                 spawn first, then allowAgents targets in roster order); their spawned-by contexts are not listed",
                crate::policy::spawn::MAX_ENUMERATED_SPAWNS
            ));
        }
        let selected: Vec<&String> = all.iter().filter(|a| wanted.is_empty() || wanted.contains(a)).collect();
        Ok(sessions.contexts_of(&selected, plugin_tools))
    }

    /// Enumerates and resolves the selected sessions.
    pub fn evaluate(
        &self,
        version: OpenClawVersion,
        config: &serde_json::Value,
        plugin_tools: &[PluginTool],
        jobs: &[CronJob],
    ) -> miette::Result<Vec<Evaluated>> {
        let sessions = self.sessions(version, config, jobs);
        Ok(sessions.evaluate(self.contexts(&sessions, plugin_tools)?))
    }
}

/// `--agent` filters, checked against the agents of every side compared (`within` names them
/// in the error: "either config").
pub fn selected_agents(
    args: &SweepArgs,
    sides: &[(OpenClawVersion, &serde_json::Value)],
    within: &str,
) -> miette::Result<Vec<String>> {
    let mut known: Vec<String> = Vec::new();
    for (version, config) in sides {
        for agent in contexts::agent_ids(*version, config) {
            if !known.contains(&agent) {
                known.push(agent);
            }
        }
    }
    let wanted: Vec<String> = args.agents.iter().map(|a| normalize_agent_id(a)).collect();
    match wanted.iter().find(|a| !known.contains(a)) {
        Some(unknown) => Err(super::unknown_agent(unknown, &known, within)),
        None => Ok(wanted),
    }
}

/// The probe commands `diff` and `upgrade` ask: the built-in ones, then those of `--probe FILE`.
pub fn probe_commands(file: Option<&std::path::Path>) -> miette::Result<Vec<String>> {
    let mut probes: Vec<String> = crate::fleet::probe::BUILTIN_PROBES.iter().map(|p| p.to_string()).collect();
    if let Some(file) = file {
        probes.extend(crate::fleet::probe::read_probe_file(file)?);
    }
    Ok(probes)
}

/// The approvals store named on the command line, if any (these commands read none by default,
/// so their answers depend on the config alone).
pub fn explicit_approvals(path: Option<&std::path::Path>) -> ApprovalsInput {
    match path {
        Some(path) if path.extension().is_some_and(|e| e == "json") => ApprovalsInput::JsonFile(path.to_path_buf()),
        Some(path) => ApprovalsInput::Sqlite(path.to_path_buf()),
        None => ApprovalsInput::None,
    }
}

/// The working directory exec calls are simulated in.
pub fn current_dir() -> miette::Result<PathBuf> {
    std::env::current_dir().map_err(|e| miette::miette!("no current directory: {e}"))
}
