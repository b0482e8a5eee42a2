//! The cron jobs a command reads: `--jobs FILE`, else the store OpenClaw itself reads in the
//! environment the config loads under (`--run cron --job ID` on the session commands; the
//! sweeping commands read only a store they are given, so their answers depend on the config).

use std::path::Path;

use serde_json::Value;

use super::{ContextArgs, Global};
use crate::config::view::automation::cron_store;
use crate::policy::automation::jobs::{self, CronJob, JobStore};
use crate::policy::automation::{self as automation, AD_HOC_JOB};
use crate::policy::{RunKind, SessionContext};

/// Reads the jobs store `given`, else the one `version` reads under `global`'s environment.
pub fn store(global: &Global, config: &Value, given: Option<&Path>) -> miette::Result<JobStore> {
    let version = global.version;
    let options = global.options_for(version);
    let state_dir = crate::config::state_dir(&options.env, &options.cwd, version);
    let home = crate::config::home_dir(&options.env, &options.cwd);
    let named = cron_store(config).map(|s| crate::config::discovery::resolve_user_path(s, &home, &options.cwd));
    let location = match given {
        Some(path) => jobs::given(version, path, &state_dir, named.as_deref()),
        None => jobs::location(version, &state_dir, named.as_deref()),
    };
    jobs::read(&location).map_err(|e| miette::miette!(code = "cli::jobs", "{e}"))
}

/// The jobs of an explicitly given store, or none.
pub fn given_store(global: &Global, config: &Value, given: Option<&Path>) -> miette::Result<Vec<CronJob>> {
    match given {
        Some(path) => Ok(store(global, config, Some(path))?.jobs),
        None => Ok(Vec::new()),
    }
}

/// The job `id` of the store, or an error naming the ids it has.
fn find(store: &JobStore, id: &str) -> miette::Result<CronJob> {
    if let Some(job) = store.jobs.iter().find(|j| j.id() == Some(id)) {
        return Ok(job.clone());
    }
    let known: Vec<String> = store.jobs.iter().filter_map(|j| j.id().map(str::to_string)).collect();
    let listed =
        if known.is_empty() { "it holds no jobs".to_string() } else { format!("its jobs: {}", known.join(", ")) };
    Err(miette::miette!(
        code = "cli::unknown-job",
        help = format!("{}{listed}", super::did_you_mean_hint(id, &known)),
        "no job `{id}` in {}",
        store.locator
    ))
}

impl ContextArgs {
    /// The session of this command line under a loaded config: for `--run cron|heartbeat`, the run
    /// as the release starts it (a cron run executes the stored job `--job` names, else an ad-hoc
    /// one), so every command, the file guard included, sees the same agent and session.
    pub fn to_run_context(&self, global: &Global, config: &Value) -> miette::Result<SessionContext> {
        let ctx = self.with_job(global, config)?;
        automation::run_context(global.version, config, &ctx)
            .map_err(|e| miette::miette!(code = "session", help = "see `--run` in --help", "{e}"))
    }

    /// [`ContextArgs::to_context`] with the job a `--run cron` executes (the stored job `--job`
    /// names, else an ad-hoc one); the resolver derives the run from it.
    pub fn with_job(&self, global: &Global, config: &Value) -> miette::Result<SessionContext> {
        let mut ctx = self.to_context()?;
        if self.job.is_some() && self.run != RunKind::Cron {
            return Err(miette::miette!(code = "cli::job", "--job names the job of a `--run cron`"));
        }
        if self.run == RunKind::Cron {
            let job = match &self.job {
                Some(id) => find(&store(global, config, self.jobs.as_deref())?, id)?,
                None => automation::ad_hoc_job(Some(AD_HOC_JOB), self.agent.as_deref(), ctx.tools_allow.as_deref()),
            };
            ctx.job = Some(job);
        }
        Ok(ctx)
    }
}
