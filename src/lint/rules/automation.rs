//! Automation runs: what a scheduled (cron) job's isolated turn or a heartbeat will find when it
//! runs with nobody watching. The jobs are the store's (`lint --jobs FILE`, or the store OpenClaw
//! itself reads); heartbeats come from the config. Each run is resolved with the one resolver and
//! its exec answered with the one exec path, as `tools --run` and `exec --run` do.

use std::path::PathBuf;

use crate::config::view::automation::{Heartbeat, heartbeat_agents};
use crate::exec::{self, ApprovalsInput, Availability, CallSite, Source, WhatIf};
use crate::lint::registry::Applies;
use crate::lint::{Category, Emitter, LintContext, Rule, Severity};
use crate::policy::automation::jobs::CronJob;
use crate::policy::{Resolution, RunKind, SessionContext};

pub const RULES: &[Rule] = &[
    Rule {
        code: "CP308",
        name: "job-cap-strips-tools",
        severity: Severity::Warning,
        category: Category::DeadRules,
        summary: "A scheduled job's `toolsAllow` names a tool its run does not get, or leaves the run no tools.",
        why: "A cron job's `payload.toolsAllow` caps its isolated run after the tool policy: it can only narrow \
              what the agent's policy, the sandbox and the run itself leave. A tool the job names but the policy \
              removes is missing when the job fires (the model is told to run a command it has no tool for); a \
              cap that leaves nothing makes the release refuse the run (`No callable tools remain after \
              resolving explicit tool allowlist`).",
        example: "tools: { deny: [\"exec\"] }\n// cron jobs store: [{\"id\": \"nightly\", \"sessionTarget\": \"isolated\", \"payload\": {\"kind\": \"agentTurn\", \"message\": \"run the backup\", \"toolsAllow\": [\"exec\", \"read\"]}}]",
        fix: "Allow the tool for the job's agent (or drop it from the job's `toolsAllow`: `openclaw automations \
              edit <id> --tools …`); `clawpolicy tools --run cron --job <id>` shows the step that removes it.",
        openclaw_check: None,
        // Where the release caps a job's run with its `toolsAllow`.
        applies: Applies::When(|release| release.automation().cron.job_tools_allow),
        needs_valid_config: true,
        check: job_cap_strips_tools,
    },
    Rule {
        code: "CP418",
        name: "unattended-exec-refused",
        severity: Severity::Warning,
        category: Category::Exec,
        summary: "A configured heartbeat or a scheduled job has `exec`, its commands need approval, and nobody \
                  can answer: `askFallback` refuses them.",
        why: "In a heartbeat or a cron job's run no person sees the approval request, so the release decides it \
              with the approvals document's `askFallback` (default `deny`) at once. A command the allowlist does \
              not cover (or every command, with `ask: always`) is refused at 3 a.m., and the run carries on \
              without it.",
        example: "agents: { defaults: { heartbeat: { every: \"30m\" } } },\ntools: { exec: { host: \"gateway\", security: \"allowlist\", ask: \"on-miss\" } }",
        fix: "Allowlist the commands the run needs, set `askFallback` in the approvals store to `allowlist` (runs \
              allowlisted commands) or `full`, or keep exec out of the run; `clawpolicy exec '<command>' --run \
              heartbeat` shows the decision.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: true,
        check: unattended_exec_refused,
    },
];

/// The automation runs the config asks for: each enrolled agent's configured heartbeat (the
/// release's default heartbeat, which nothing in the config sets up, is left out) and each enabled
/// job of the jobs store, with a name for messages.
fn runs(ctx: &LintContext<'_>) -> Vec<(String, SessionContext)> {
    let config = ctx.config();
    let heartbeats = heartbeat_agents(config, ctx.version).into_iter().filter(|agent| {
        let heartbeat = Heartbeat::of(config, ctx.version, agent);
        heartbeat.path().is_some() && !heartbeat.switched_off()
    });
    let heartbeat_runs = heartbeats.map(|agent| {
        let run =
            SessionContext { agent_id: Some(agent.clone()), run: RunKind::Heartbeat, ..SessionContext::default() };
        (format!("the heartbeat of agent `{agent}`"), run)
    });
    let job_runs = ctx.jobs.iter().filter(|job| job.enabled()).map(|job| {
        let run = SessionContext { run: RunKind::Cron, job: Some(job.clone()), ..SessionContext::default() };
        (job_name(job), run)
    });
    heartbeat_runs.chain(job_runs).collect()
}

fn job_name(job: &CronJob) -> String {
    format!("job `{}`", job.id().unwrap_or("?"))
}

fn job_cap_strips_tools(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for job in ctx.jobs.iter().filter(|job| job.enabled()) {
        let Some(cap) = job.tools_allow() else { continue };
        let run = SessionContext { run: RunKind::Cron, job: Some(job.clone()), ..SessionContext::default() };
        let Some(resolved) = ctx.resolve(&run) else { continue };
        let name = job_name(job);
        let agent = resolved.agent_id.clone();
        let written = |tool: &String| resolved.removed.get(tool)?.source.as_ref()?.config_path().cloned();
        if resolved.tools.is_empty() && !cap.is_empty() {
            let message = format!(
                "{name} (agent `{agent}`) has no tools: its toolsAllow [{}] leaves none, and the release refuses \
                 the run (No callable tools remain after resolving explicit tool allowlist)",
                cap.join(", ")
            );
            // Where the policy removes the first of the job's tools, when the config says it.
            let finding = match named_tools(ctx, &cap).iter().find_map(written) {
                Some(path) => out.report(&path, message),
                None => out.report_global(message),
            };
            finding.agent(agent.clone()).help(format!(
                "run `clawpolicy tools --run cron --job {}` to see what removes each tool",
                job.id().unwrap_or("?")
            ));
            continue;
        }
        for tool in named_tools(ctx, &cap) {
            let Some((_, why)) = resolved.absence(&tool) else { continue };
            let message = format!(
                "{name} (agent `{agent}`) names `{tool}` in its toolsAllow, but its run does not get it: {why}"
            );
            let finding = match written(&tool) {
                Some(path) => out.report(&path, message),
                None => out.report_global(message),
            };
            finding.agent(agent.clone()).help(format!(
                "allow `{tool}` for agent `{agent}`, or drop it from the job's toolsAllow (`openclaw automations edit {} --tools …`)",
                job.id().unwrap_or("?")
            ));
        }
    }
}

/// The single tools a cap names (not groups, globs or `*`), as the release normalizes them.
fn named_tools(ctx: &LintContext<'_>, cap: &[String]) -> Vec<String> {
    let names = cap.iter().map(|entry| ctx.pack.normalize(entry));
    let single = |name: &String| !name.is_empty() && !name.starts_with("group:") && !name.contains('*');
    let mut out: Vec<String> = names.filter(single).collect();
    out.dedup();
    out
}

/// A command no allowlist covers: what a run's exec approval looks like for anything new (the
/// rule reads the fallback's answer, so the release's binding of this made-up command, which it
/// would refuse, does not matter).
const UNLISTED_PROBE: &str = "/nonexistent/clawpolicy-unlisted-command --probe";

fn unattended_exec_refused(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let approvals = match ctx.approvals {
        Some(loaded) => ApprovalsInput::Document(loaded.document.clone()),
        None => ApprovalsInput::None,
    };
    let site = CallSite { approvals, path_var: Some(String::new()), ..CallSite::new(PathBuf::from("/")) };
    for (name, run) in runs(ctx) {
        let Some(resolved) = ctx.resolve(&run) else { continue };
        let Some(outcome) = probe(ctx, &resolved, &site) else { continue };
        // The fallback's answer: a command the release could not even bind is another matter.
        let Some(refused) = outcome.no_approver.as_ref().filter(|n| n.reason.is_some()) else { continue };
        let agent = resolved.agent_id.clone();
        let reason = refused.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
        let message = format!(
            "{name} has exec, but nobody can answer an approval in a {} run: with security={} ask={} askFallback={}, \
             a command outside the allowlist is refused{reason}",
            refused.run, outcome.security.value, outcome.ask.value, outcome.ask_fallback.value
        );
        let written = [&outcome.ask.source, &outcome.security.source].into_iter().find_map(|source| match source {
            Source::Config(path) => Some(path.clone()),
            _ => None,
        });
        let finding = match written {
            Some(path) => out.report(&path, message),
            None => out.report_global(message),
        };
        finding.agent(agent).help(format!(
            "allowlist what the run needs or set askFallback (approvals store) to allowlist/full; `clawpolicy exec '<command>' {}` shows the decision",
            match &run.job {
                Some(job) => format!("--run cron --job {}", job.id().unwrap_or("?")),
                None => format!("--run heartbeat --agent {}", resolved.agent_id),
            }
        ));
    }
}

/// The exec answer for an unlisted command in a run, when the run has exec.
fn probe(ctx: &LintContext<'_>, resolved: &Resolution, site: &CallSite) -> Option<exec::ExecOutcome> {
    let request =
        exec::request(ctx.config(), resolved, UNLISTED_PROBE, WhatIf::default(), site, Availability::Required).ok()?;
    exec::evaluate(&request, ctx.version).ok()
}
