//! Automation runs: a scheduled (cron) job's isolated agent turn and a heartbeat, as the release
//! starts them. From the job (or the heartbeat config) this derives what the tool builder is
//! given: the agent, the session key, the job's `toolsAllow` cap, the channel the job delivers
//! to, the tools such a run builds or does not build, and that nobody answers an exec approval.
//! The facts per release are `data/<line>/automation.json` ([`crate::release::automation`]).

pub mod jobs;
pub mod run;

use std::collections::BTreeMap;

use serde_json::Value;

use super::context::SessionContext;
use super::session::{SessionError, split_agent_key};
use crate::OpenClawVersion;
use crate::config::validate::known_channel_ids;
use crate::config::view::agents::{self, DefaultAgent};
use crate::config::view::automation::{self as view, Heartbeat};
use crate::config::view::ids::normalize_agent_id;
use crate::config::view::session::SessionScopes;
use crate::release::automation::{CronSessionKey, DeliveryChannel, JobAgent, MessageToolOff};
use jobs::CronJob;
pub use run::{AutomationRun, RunKind};

/// The session id a per-run cron session key ends with. The release draws a fresh one for every
/// run; any id gives the same tools.
pub const RUN_SESSION_ID: &str = "scheduled";

/// The id of a job made up from command-line flags (`--run cron` without `--job`).
pub const AD_HOC_JOB: &str = "adhoc";

/// The run `ctx` stands for (`ctx.run` is cron or heartbeat), as the release would start it.
pub fn run_context(
    version: OpenClawVersion,
    config: &Value,
    ctx: &SessionContext,
) -> Result<SessionContext, SessionError> {
    match ctx.run {
        RunKind::Chat => Ok(ctx.clone()),
        RunKind::Cron => cron_context(version, config, ctx),
        RunKind::Heartbeat => {
            let agent = match &ctx.agent_id {
                Some(agent) => normalize_agent_id(agent),
                None => default_agent(config, version)?,
            };
            heartbeat_context(version, config, ctx, &agent, None)
        }
    }
}

/// A job the release does not run as an agent turn, or cannot run at all.
fn not_run(why: impl Into<String>) -> SessionError {
    SessionError::AutomationNotRun(why.into())
}

fn default_agent(config: &Value, version: OpenClawVersion) -> Result<String, SessionError> {
    match agents::default_agent(config, version) {
        DefaultAgent::Agent(id) => Ok(id),
        DefaultAgent::Undecided(configured) => Err(SessionError::NoDefaultAgent { configured: configured.join(", ") }),
    }
}

/// A job made up from the command line: an isolated agent turn of `agent` with `tools_allow`.
pub fn ad_hoc_job(id: Option<&str>, agent: Option<&str>, tools_allow: Option<&[String]>) -> CronJob {
    let mut job = serde_json::json!({
        "id": id.unwrap_or(AD_HOC_JOB),
        "sessionTarget": "isolated",
        "payload": {"kind": "agentTurn"},
    });
    if let Some(agent) = agent {
        job["agentId"] = Value::from(agent);
    }
    if let Some(list) = tools_allow {
        job["payload"]["toolsAllow"] = Value::from(list.to_vec());
    }
    CronJob(job)
}

fn cron_context(
    version: OpenClawVersion,
    config: &Value,
    ctx: &SessionContext,
) -> Result<SessionContext, SessionError> {
    let rules = &version.automation().cron;
    let job = ctx.job.as_ref().ok_or_else(|| not_run("a cron run needs its job (--job ID, or a batch `job`)"))?;
    let id = job.id().ok_or_else(|| not_run("the job has no id"))?;
    let agentic = job.payload_kind() == Some("agentTurn");
    // A job without a target runs isolated when it is an agent turn, in the main session else.
    let target =
        job.session_target().map(str::to_string).unwrap_or_else(|| if agentic { "isolated" } else { "main" }.into());
    if target.eq_ignore_ascii_case("main") {
        // The release queues the job's text for the main session and wakes its heartbeat.
        let agent = job_agent(version, config, job)?.0;
        return heartbeat_context(version, config, ctx, &agent, Some(job));
    }
    let runs_isolated = rules.session_targets.iter().any(|t| match t.strip_suffix(':') {
        Some(prefix) => target.strip_prefix(prefix).is_some_and(|rest| rest.starts_with(':')),
        None => *t == target,
    });
    if !runs_isolated {
        return Err(not_run(format!("sessionTarget `{target}` is not one this release runs a job in")));
    }
    if !agentic {
        let kind = job.payload_kind().unwrap_or("none");
        return Err(not_run(format!("payload.kind `{kind}` runs no agent turn (only `agentTurn` does)")));
    }
    let (agent, mut notes) = job_agent(version, config, job)?;
    if !job.enabled() {
        notes.push("the job is disabled (enabled: false): it does not run until it is enabled".into());
    }
    let (session_key, session_from) = cron_session_key(version, config, &agent, id, &target);
    let tools_allow = job.tools_allow().filter(|_| rules.job_tools_allow);
    if !rules.job_tools_allow && job.tools_allow().is_some() {
        notes.push(format!("{version} ignores the job's payload.toolsAllow: the run is not capped"));
    }
    let mut not_built = BTreeMap::new();
    if let Some(why) = message_tool_off(rules.message_tool_off, job) {
        not_built.insert(MESSAGE_TOOL.to_string(), why);
    }
    let automation = AutomationRun {
        run: RunKind::Cron,
        job_id: Some(id.to_string()),
        job_name: job.name().map(str::to_string),
        session_from,
        tools_allow: tools_allow.clone(),
        not_built,
        extra_built: Vec::new(),
        notes,
    };
    Ok(SessionContext {
        agent_id: Some(agent),
        session_key: Some(session_key),
        model_provider: ctx.model_provider.clone(),
        model_id: ctx.model_id.clone(),
        model_api: ctx.model_api.clone(),
        model_has_vision: ctx.model_has_vision,
        message_provider: delivery_channel(version, job),
        sandbox: ctx.sandbox,
        tools_allow,
        plugin_tools: ctx.plugin_tools.clone(),
        run: RunKind::Cron,
        job: Some(job.clone()),
        automation: Some(automation),
        turn: ctx.turn,
        ..SessionContext::default()
    })
}

/// The tool a run delivers messages with.
const MESSAGE_TOOL: &str = "message";

/// The agent that runs `job`, with a note when it is not the one the job names; an error when the
/// release refuses to run it.
pub fn job_agent(
    version: OpenClawVersion,
    config: &Value,
    job: &CronJob,
) -> Result<(String, Vec<String>), SessionError> {
    let named = job.agent_id().map(normalize_agent_id);
    let configured = |id: &str| agents::find_agent(config, version, id).is_some();
    match (version.automation().cron.job_agent, named) {
        (_, None) => Ok((default_agent(config, version)?, Vec::new())),
        (JobAgent::ListedOrDefault, Some(id)) if configured(&id) => Ok((id, Vec::new())),
        (JobAgent::ListedOrDefault, Some(id)) => {
            let default = default_agent(config, version)?;
            let note = format!("the job names agent `{id}`, which the roster does not list: it runs as `{default}`");
            Ok((default, vec![note]))
        }
        (JobAgent::ConfiguredOrDefault, Some(id)) => {
            let default = match agents::default_agent(config, version) {
                DefaultAgent::Agent(default) => Some(default),
                DefaultAgent::Undecided(_) => None,
            };
            if default.as_deref() == Some(id.as_str()) || configured(&id) {
                Ok((id, Vec::new()))
            } else {
                Err(not_run(format!("cron job agent is unavailable: {id}")))
            }
        }
    }
}

/// The session key of an isolated run, and how it was chosen.
fn cron_session_key(version: OpenClawVersion, config: &Value, agent: &str, id: &str, target: &str) -> (String, String) {
    let cron_key = format!("cron:{id}");
    match version.automation().cron.session_key {
        CronSessionKey::PerJob => (
            format!("agent:{agent}:{}", cron_key.to_lowercase()),
            format!("sessionTarget {target}: one session per job"),
        ),
        CronSessionKey::PerRun => {
            let named = target.strip_prefix("session:").map(str::trim);
            let detached = named.is_none();
            let base = named.unwrap_or(&cron_key);
            let execution = if detached && !base.starts_with("cron:") { cron_key.as_str() } else { base };
            let agent_key = store_key(config, agent, execution);
            if detached || base.starts_with("cron:") {
                let key = format!("{agent_key}:run:{RUN_SESSION_ID}");
                (key, format!("sessionTarget {target}: a fresh session per run (`:run:<session id>`)"))
            } else {
                (agent_key, format!("sessionTarget {target}: the job's own session"))
            }
        }
    }
}

/// `toAgentStoreSessionKey`: a request key as an agent's store key, lowercased.
fn store_key(config: &Value, agent: &str, request: &str) -> String {
    let raw = request.trim();
    if raw.is_empty() || raw.eq_ignore_ascii_case("main") {
        return SessionScopes::read(config).main_session_key(agent);
    }
    match split_agent_key(raw) {
        Some((owner, rest)) if raw.to_ascii_lowercase().starts_with("agent:") => {
            format!("agent:{}:{}", normalize_agent_id(owner), rest.to_lowercase())
        }
        _ => format!("agent:{agent}:{}", raw.to_lowercase()),
    }
}

/// Why an isolated run builds no `message` tool, if it does not.
fn message_tool_off(rule: MessageToolOff, job: &CronJob) -> Option<String> {
    let mode = delivery_mode(job);
    match rule {
        MessageToolOff::WebhookDelivery => {
            (mode.as_deref() == Some("webhook")).then(|| "the job delivers to a webhook (delivery.mode webhook)".into())
        }
        MessageToolOff::DeliveryRequested => {
            let requested = match (job.delivery(), mode.as_deref()) {
                (Some(_), mode) => matches!(mode, None | Some("announce")),
                // The legacy form: `payload.deliver`, else a payload target (`payload.to`).
                (None, _) => match job.payload_field("deliver").and_then(Value::as_bool) {
                    Some(deliver) => deliver,
                    None => job.payload_field("to").and_then(Value::as_str).is_some_and(|to| !to.trim().is_empty()),
                },
            };
            requested.then(|| "the job delivers its result itself (delivery announce)".into())
        }
    }
}

/// `delivery.mode`, normalized as the release reads it (`deliver` is `announce`).
fn delivery_mode(job: &CronJob) -> Option<String> {
    let mode = job.delivery()?.get("mode")?.as_str()?.trim().to_lowercase();
    match mode.as_str() {
        "announce" | "deliver" => Some("announce".into()),
        "webhook" | "none" => Some(mode),
        _ => None,
    }
}

/// The channel the job delivers to, when it names one the release resolves (`last` is decided at
/// run time).
fn delivery_channel(version: OpenClawVersion, job: &CronJob) -> Option<String> {
    let rules = &version.automation().cron;
    let written = match (rules.delivery_channel, job.delivery(), delivery_mode(job).as_deref()) {
        (DeliveryChannel::AnnounceOrLegacy, Some(delivery), None | Some("announce")) => delivery.get("channel"),
        (DeliveryChannel::AnnounceOrLegacy, Some(_), _) => None,
        (DeliveryChannel::AnnounceOrLegacy, None, _) => job.payload_field("channel"),
        (DeliveryChannel::UnlessWebhook, Some(delivery), mode) if mode != Some("webhook") => delivery.get("channel"),
        (DeliveryChannel::UnlessWebhook, _, _) => None,
    };
    let channel = written?.as_str()?.trim().to_lowercase();
    let known = !rules.delivery_channel_known_only || known_channel_ids(version).contains(&channel.as_str());
    (!channel.is_empty() && channel != "last" && known).then_some(channel)
}

/// A heartbeat of `agent` (woken for `job`, a main-session job, when given).
fn heartbeat_context(
    version: OpenClawVersion,
    config: &Value,
    ctx: &SessionContext,
    agent: &str,
    job: Option<&CronJob>,
) -> Result<SessionContext, SessionError> {
    let rules = &version.automation().heartbeat;
    if !view::heartbeat_agents(config, version).iter().any(|a| a == agent) {
        return Err(not_run(format!("agent `{agent}` runs no heartbeat (no heartbeat block enrols it)")));
    }
    let heartbeat = Heartbeat::of(config, version, agent);
    if heartbeat.switched_off() {
        return Err(not_run(format!("agent `{agent}`'s heartbeat is switched off (heartbeat.every)")));
    }
    let (mut session_key, mut session_from) = heartbeat_session(version, config, agent, &heartbeat);
    if let Some(suffix) = rules.isolated_session_suffix.as_deref().filter(|_| heartbeat.isolated_session()) {
        session_key.push_str(suffix);
        session_from.push_str(", isolated (heartbeat.isolatedSession)");
    }
    let mut extra_built = Vec::new();
    if let Some(tool) = &rules.response_tool
        && view::visible_replies(config).and_then(|v| v.as_str()) == Some("message_tool")
    {
        extra_built.push(tool.clone());
    }
    let automation = AutomationRun {
        run: RunKind::Heartbeat,
        job_id: job.and_then(CronJob::id).map(str::to_string),
        job_name: job.and_then(CronJob::name).map(str::to_string),
        session_from,
        tools_allow: None,
        not_built: BTreeMap::new(),
        extra_built,
        notes: job.map(|_| "a main-session job runs as the agent's heartbeat".to_string()).into_iter().collect(),
    };
    Ok(SessionContext {
        agent_id: Some(agent.to_string()),
        session_key: Some(session_key),
        run: RunKind::Heartbeat,
        job: None,
        automation: Some(automation),
        requester: None,
        spawn: None,
        tools_allow: None,
        ..ctx.clone()
    })
}

/// The session a heartbeat runs in: `heartbeat.session` when it names one of the agent's own
/// sessions (not a sub-agent's), else the main session.
fn heartbeat_session(
    version: OpenClawVersion,
    config: &Value,
    agent: &str,
    heartbeat: &Heartbeat<'_>,
) -> (String, String) {
    let scopes = SessionScopes::read(config);
    if scopes.global {
        return ("global".into(), "session.scope global".into());
    }
    let main = (scopes.main_session_key(agent), "the agent's main session".to_string());
    let Some(named) = heartbeat.session().and_then(|s| s.as_str().map(str::trim).map(str::to_string)) else {
        return main;
    };
    let lowered = named.to_lowercase();
    let subagent_is_main = version.automation().heartbeat.subagent_session_is_main;
    let subagent = |key: &str| subagent_is_main && super::session::is_subagent_key(key);
    if named.is_empty() || lowered == "main" || lowered == "global" || subagent(&named) {
        return main;
    }
    let candidate = store_key(config, agent, &named);
    let own = split_agent_key(&candidate).is_some_and(|(owner, _)| normalize_agent_id(owner) == agent);
    if subagent(&candidate) || !own {
        return main;
    }
    (candidate, "heartbeat.session".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cron(version: OpenClawVersion, config: &Value, job: Value) -> Result<SessionContext, SessionError> {
        let ctx = SessionContext { run: RunKind::Cron, job: Some(CronJob(job)), ..Default::default() };
        run_context(version, config, &ctx)
    }

    #[test]
    fn session_keys_and_agents_per_release() {
        let config =
            json!({"agents": {"entries": {"main": {}, "ops": {}}, "defaults": {"systemAgent": {"agentId": "main"}}}});
        let job = json!({"id": "Nightly", "agentId": "ops", "sessionTarget": "isolated", "payload": {"kind": "agentTurn", "toolsAllow": ["read"]}});
        let v9 = cron(OpenClawVersion::V2026_9, &config, job.clone()).unwrap();
        assert_eq!(v9.session_key.as_deref(), Some("agent:ops:cron:nightly:run:scheduled"));
        assert_eq!(v9.tools_allow.as_deref(), Some(&["read".to_string()][..]));
        let unknown = json!({"id": "x", "agentId": "ghost", "payload": {"kind": "agentTurn"}});
        let refused = cron(OpenClawVersion::V2026_9, &config, unknown.clone()).unwrap_err();
        assert_eq!(refused.to_string(), "this automation run cannot happen: cron job agent is unavailable: ghost");
        let listed = json!({"agents": {"list": [{"id": "main"}, {"id": "ops"}]}});
        let v2 = cron(OpenClawVersion::V2026_2, &listed, job).unwrap();
        assert_eq!((v2.session_key.as_deref(), v2.tools_allow.as_ref()), (Some("agent:ops:cron:nightly"), None));
        let fallback = cron(OpenClawVersion::V2026_2, &listed, unknown).unwrap();
        assert_eq!(fallback.agent_id.as_deref(), Some("main"));
        let custom = json!({"id": "x", "sessionTarget": "session:Reports", "payload": {"kind": "agentTurn"}});
        let single = json!({});
        assert_eq!(
            cron(OpenClawVersion::V2026_9, &single, custom).unwrap().session_key.as_deref(),
            Some("agent:main:reports")
        );
    }

    #[test]
    fn delivery_decides_the_message_tool() {
        let job = |delivery: Value| json!({"id": "j", "payload": {"kind": "agentTurn"}, "delivery": delivery});
        let off = |version, delivery| {
            cron(version, &json!({}), job(delivery)).unwrap().automation.unwrap().not_built.contains_key("message")
        };
        assert!(off(OpenClawVersion::V2026_9, json!({"mode": "webhook", "to": "https://x"})));
        assert!(!off(OpenClawVersion::V2026_9, json!({"mode": "announce", "channel": "telegram"})));
        assert!(off(OpenClawVersion::V2026_2, json!({"mode": "announce"})));
        assert!(!off(OpenClawVersion::V2026_2, json!({"mode": "none"})));
    }

    #[test]
    fn heartbeat_sessions_and_response_tool() {
        let config = json!({"messages": {"visibleReplies": "message_tool"},
            "agents": {"defaults": {"heartbeat": {"every": "30m", "session": "ops-room", "isolatedSession": true}}}});
        let ctx = SessionContext { run: RunKind::Heartbeat, ..Default::default() };
        let run = run_context(OpenClawVersion::V2026_9, &config, &ctx).unwrap();
        assert_eq!(run.session_key.as_deref(), Some("agent:main:ops-room:heartbeat"));
        assert_eq!(run.automation.unwrap().extra_built, ["heartbeat_respond"]);
        let run = run_context(OpenClawVersion::V2026_2, &config, &ctx).unwrap();
        assert_eq!(run.session_key.as_deref(), Some("agent:main:ops-room"));
        let off = json!({"agents": {"defaults": {"heartbeat": {"every": "0m"}}}});
        assert!(run_context(OpenClawVersion::V2026_9, &off, &ctx).is_err());
    }
}
