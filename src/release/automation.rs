//! What a release does with automation runs (`data/<release>/automation.json`): the session a
//! scheduled (cron) job runs in and which agent runs it, whether the job's `toolsAllow` caps the
//! run, when the run builds no `message` tool, where the jobs are stored, which agents run
//! heartbeats and what a heartbeat adds, and what an exec approval becomes when nobody can answer
//! it. Each field is a fact or the variant the release's JavaScript follows; `src/policy/automation`
//! and `src/exec/unattended.rs` dispatch on these and name no version.

use serde::Deserialize;

use super::patterns::Patterns;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AutomationRules {
    #[serde(rename = "_comment")]
    _comment: String,
    pub cron: CronRules,
    pub heartbeat: HeartbeatRules,
    pub no_approver: NoApproverRules,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CronRules {
    pub session_key: CronSessionKey,
    pub job_agent: JobAgent,
    /// The `sessionTarget` values whose jobs run as an isolated agent turn (`session:` is a
    /// prefix: a persistent session named by the job).
    pub session_targets: Vec<String>,
    /// Whether a job's `payload.toolsAllow` caps its run's tools.
    pub job_tools_allow: bool,
    pub message_tool_off: MessageToolOff,
    /// When the channel the job delivers to is the run's message channel.
    pub delivery_channel: DeliveryChannel,
    /// Only a channel the release knows (a chat channel of its schema or bundled plugins) is
    /// resolved as a delivery target; any other leaves the run without a message channel.
    pub delivery_channel_known_only: bool,
    /// How the release's headless-exec refusal names a cron run (`Automation runs`).
    pub run_label: Option<String>,
    pub store: JobStore,
}

/// The session key of an isolated run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CronSessionKey {
    /// `agent:<agent>:cron:<job>`: every run of the job in one session.
    PerJob,
    /// `agent:<agent>:cron:<job>:run:<session id>`: a fresh session per run.
    PerRun,
}

/// Which agent runs a job that names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum JobAgent {
    /// The named agent if the roster lists it, else the default agent (silently).
    ListedOrDefault,
    /// The named agent if it is the default agent or configured; any other agent refuses the run
    /// (`cron job agent is unavailable: <id>`).
    ConfiguredOrDefault,
}

/// When an isolated run builds no `message` tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum MessageToolOff {
    /// The job delivers its result itself (`delivery.mode` announce, or the legacy payload form).
    DeliveryRequested,
    /// The job delivers to a webhook.
    WebhookDelivery,
}

/// When the job's delivery channel becomes the run's message channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DeliveryChannel {
    /// A `delivery` object's channel when it announces; a legacy job's payload channel always.
    AnnounceOrLegacy,
    /// A `delivery` object's channel unless it delivers to a webhook (the legacy payload channel
    /// is not read).
    UnlessWebhook,
}

/// Where and how the release keeps its cron jobs, below the state directory.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobStore {
    pub format: JobStoreFormat,
    /// The file, relative to the state directory.
    pub path: String,
    /// SQLite: the rows of one store are those whose `store_key` is this path (relative to the
    /// state directory) made absolute.
    pub partition: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum JobStoreFormat {
    /// JSON5 `{version, jobs: [...]}`.
    Json,
    /// Table `cron_jobs` of the state database, one `job_json` per row.
    Sqlite,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HeartbeatRules {
    pub enrollment: HeartbeatEnrollment,
    /// The tool a heartbeat answers through when `messages.visibleReplies` is `message_tool`.
    pub response_tool: Option<String>,
    /// A `heartbeat.session` naming a sub-agent session means the main session.
    pub subagent_session_is_main: bool,
    /// `heartbeat.isolatedSession: true` runs in `<session>` + this suffix.
    pub isolated_session_suffix: Option<String>,
    /// How the headless-exec refusal names a heartbeat run.
    pub run_label: Option<String>,
}

/// Which agents run heartbeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum HeartbeatEnrollment {
    /// The roster entries with a `heartbeat` block; without any, the default agent.
    EntriesOrDefaultAgent,
    /// The roster entries with a `heartbeat` block; else `agents.defaults.heartbeat.agentId`;
    /// else every agent when `agents.defaults.heartbeat` is set; else the default agent.
    EntriesOrDefaultsBlock,
}

/// What an exec approval becomes when nobody can answer it (no operator client, forwarder or
/// chat surface): the approvals document's `askFallback` (capped by the host security where
/// `exec.json` says so), with the release's exceptions.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NoApproverRules {
    /// `askFallback: allowlist` judges the command against the allowlist whatever the host
    /// security is (else: only when the host security is `allowlist`).
    pub fallback_reads_raw_allowlist: bool,
    /// `askFallback: allowlist` also needs the pinned (enforced) command.
    pub fallback_needs_pinned_command: bool,
    /// Before it asks at all, the release binds the approval to the command: its parsed form, its
    /// executables and its script files. `None`: no binding (a command is asked about as it is).
    pub binding: Option<BindingRules>,
    /// Approval triggers a fallback can never stand in for.
    pub human_only: Vec<HumanOnly>,
    /// Whether those are refused before the fallback is read (else: only a fallback approval is
    /// turned into a refusal).
    pub human_only_before_fallback: bool,
    pub reasons: NoApproverReasons,
    pub message: NoApproverMessage,
}

/// What an approval cannot be bound to, and the refusal that says so (`{why}`, `{command}`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BindingRules {
    pub refusal: String,
    /// A command the release cannot analyse.
    pub unanalyzable: String,
    /// A segment that sources a file (`.`, `source`).
    pub source_operand: String,
    /// A segment after one that changes the working directory.
    pub after_cwd_change: String,
    /// A segment whose executable is neither a path nor found on `PATH`.
    pub unresolved_executable: String,
    /// A script operand that does not exist, or is no file.
    pub missing_script: String,
    pub not_a_file_script: String,
    pub source_commands: Vec<String>,
    pub cwd_mutators: Vec<String>,
    /// Words that dispatch to the next one (`command ls`).
    pub dispatchers: Vec<String>,
    /// Interpreters whose first argument, when no option, is a script file.
    pub script_interpreters: Patterns,
    /// A shell given a startup file to load.
    pub shell_startup_files: String,
    /// A shell started with a startup-file variable (`BASH_ENV=… sh x.sh`).
    pub shell_startup_environment: String,
    pub startup_environment_variables: Vec<String>,
    /// `env` told to change directory first (`env -C /tmp ls`); options compared lowercased.
    pub dispatch_cwd_option: String,
    pub dispatch_cwd_options: Vec<String>,
    /// A script runner run without a script file the release can snapshot.
    pub runtime_command: String,
    /// Executables that run scripts or embedded programs (names, then patterns).
    pub script_runners: Vec<String>,
    pub script_runner_patterns: Patterns,
    /// A runner's only argument that binds by the command text (`--version`), as inline code does.
    pub text_bound_flags: Vec<String>,
    pub shell_code_loading_options: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum HumanOnly {
    InlineEval,
    Heredoc,
    Obfuscation,
}

/// The release's denial reasons (`Exec denied (…, <reason>)`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NoApproverReasons {
    pub timeout: String,
    pub allowlist_miss: String,
    pub plan_miss: Option<String>,
    pub human_only: String,
}

/// How the refusal reaches the run, in the release's words.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum NoApproverMessage {
    /// The tool call fails at once with the headless text, lines with `{runLabel}`,
    /// `{security}`, `{ask}`, `{askFallback}` and `{surfaceFix}` (`cronGatewayFix` for a cron
    /// run on the gateway, `interactiveFix` else).
    #[serde(rename_all = "camelCase")]
    Headless { headless: Vec<String>, cron_gateway_fix: String, interactive_fix: String },
    /// The call returns "approval pending"; the refusal arrives later as a system event, with
    /// `{reason}` and `{command}`.
    Followup { followup: String },
}

#[cfg(test)]
mod tests {
    use crate::OpenClawVersion;

    #[test]
    fn every_release_has_automation_rules() {
        for version in OpenClawVersion::ALL {
            let rules = version.data().automation();
            assert!(!rules.cron.session_targets.is_empty(), "{version:?}");
            assert!(!rules.cron.store.path.is_empty(), "{version:?}");
        }
    }
}
