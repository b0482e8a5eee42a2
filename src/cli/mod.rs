//! The command line: argument parsing and dispatch. Commands are thin: they load the config,
//! call the library, and render.

mod catalog_cmd;
mod completions_cmd;
mod diff_cmd;
mod exec_cmd;
mod exec_render;
mod exit;
mod explain_cmd;
mod fix_cmd;
mod global;
mod jobs;
pub(crate) mod lint_cmd;
mod lsp_cmd;
mod man_cmd;
mod matrix_cmd;
mod output;
mod path_cmd;
mod rule_cmd;
mod simulate_cmd;
mod sweep;
mod test_cmd;
mod tools_cmd;
mod upgrade_cmd;
pub(crate) mod url_cmd;
mod who_can_cmd;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::OpenClawVersion;
use crate::policy::{PluginTool, RunKind, SandboxChoice, SessionContext};
pub use global::{Global, GlobalArgs};
pub use output::Format;

use exit::{EXIT_CODES, Exit};

#[derive(Debug, Parser)]
#[command(name = "clawpolicy", version, about = "Lint and simulate OpenClaw tool policy, offline.", after_help = EXIT_CODES)]
pub struct Cli {
    /// OpenClaw release whose behaviour to simulate.
    #[arg(long, global = true, default_value_t, value_name = "VERSION")]
    pub openclaw_version: OpenClawVersion,

    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The final tool list of a session, and which step removed every other tool.
    Tools(tools_cmd::ToolsArgs),
    /// Why one tool is present or missing, and the smallest edits that would bring it back.
    Explain(explain_cmd::ExplainArgs),
    /// Would a shell command run, need approval, or be denied? Segment by segment.
    Exec(exec_cmd::ExecArgs),
    /// The tools, groups and profiles of the selected OpenClaw release.
    Catalog(catalog_cmd::CatalogArgs),
    /// What is wrong or risky in this config: findings with stable rule codes, in CI formats.
    Lint(lint_cmd::LintArgs),
    /// The documentation of a lint rule (`rule CP201`), or all of them (`--list`, `--markdown`).
    Rule(rule_cmd::RuleArgs),
    /// Would OpenClaw's SSRF guard fetch this URL (and follow its redirects)?
    Url(url_cmd::UrlArgs),
    /// Would a file tool be allowed to touch this path (workspace-only, sandbox root, symlinks)?
    Path(path_cmd::PathArgs),
    /// Play a session's tool calls through policy, loop detection, hooks and exec approvals.
    Simulate(simulate_cmd::SimulateArgs),
    /// Every agent × context of the config as a table of tool sets; `--why` explains a difference.
    Matrix(matrix_cmd::MatrixArgs),
    /// Every agent and context that has a tool (or whose exec decision for a command is allow/ask).
    WhoCan(who_can_cmd::WhoCanArgs),
    /// What a config change grants: tools reachable or unreachable per session, exec changes.
    Diff(diff_cmd::DiffArgs),
    /// What upgrading to another release does to this config: will it load, and what changes
    /// for every agent and session, release by release.
    Upgrade(upgrade_cmd::UpgradeArgs),
    /// Check a YAML policy test suite (or --bless the current behaviour into it).
    Test(test_cmd::TestArgs),
    /// Apply the fixes clawpolicy computes to the config files, keeping their comments and layout.
    Fix(fix_cmd::FixArgs),
    /// The language server for editors (LSP over stdio): diagnostics, hovers, fixes, completion.
    Lsp(lsp_cmd::LspArgs),
    /// The shell completion script for bash, zsh, fish, powershell or elvish.
    Completions(completions_cmd::CompletionsArgs),
    /// The manual page in roff: clawpolicy(1), a subcommand's page, or all of them into a directory.
    Man(man_cmd::ManArgs),
}

/// Which config files to load.
#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// Config file (JSON5). Repeat to overlay files: later ones override earlier ones. Without
    /// it, OpenClaw's own discovery is used (OPENCLAW_CONFIG_PATH, OPENCLAW_STATE_DIR, ~/.openclaw).
    #[arg(long = "config", short = 'c', value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// The session facts shared by every command that resolves a session.
#[derive(Debug, Args, Default)]
#[command(next_help_heading = "Session context")]
pub struct ContextArgs {
    /// Agent id (default: the config's default agent).
    #[arg(long)]
    pub agent: Option<String>,
    /// Session key, e.g. `agent:main:telegram:group:-100123` (default: the agent's main session).
    #[arg(long)]
    pub session: Option<String>,
    /// Model provider (`anthropic`, `openai`, …); selects tools.byProvider entries.
    #[arg(long)]
    pub provider: Option<String>,
    /// Model id (`gpt-5`); selects `provider/model` byProvider entries and apply_patch allowModels.
    #[arg(long)]
    pub model: Option<String>,
    /// Channel the message arrived on (`telegram`, `discord`, `node`, `voice`…).
    #[arg(long)]
    pub channel: Option<String>,
    /// Group id claimed by the caller (trusted only when the session key implies it).
    #[arg(long)]
    pub group: Option<String>,
    /// Channel account id (selects `channels.<ch>.accounts.<id>.groups`).
    #[arg(long)]
    pub account: Option<String>,
    /// Sender id, for toolsBySender `id:` and `channel:` keys.
    #[arg(long)]
    pub sender: Option<String>,
    /// Sender username, for `username:` keys.
    #[arg(long)]
    pub sender_username: Option<String>,
    /// Sender phone number, for `e164:` keys.
    #[arg(long)]
    pub sender_e164: Option<String>,
    /// Sender display name, for `name:` keys.
    #[arg(long)]
    pub sender_name: Option<String>,
    /// The sender is not the owner (owner-only tools are removed).
    #[arg(long, conflicts_with = "owner")]
    pub not_owner: bool,
    /// The sender is the owner.
    #[arg(long)]
    pub owner: bool,
    /// Sandbox: decide from config (auto), or force on/off.
    #[arg(long, default_value = "auto", value_name = "auto|on|off")]
    pub sandbox: SandboxChoice,
    /// Sub-agent depth (number of `subagent:` levels in the session key).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Per-run runtime allowlist (`toolsAllow`), comma-separated; `""` means no tools.
    #[arg(long, value_name = "LIST")]
    pub tools_allow: Option<String>,
    #[command(flatten)]
    pub plugins: PluginToolArgs,
    /// Resolve the sub-agent spawned by this session: `AGENT` (its main session) or
    /// `AGENT:SESSION` (the key after `agent:AGENT:`). The sender, channel, sandbox and toolsAllow
    /// flags then describe the requester's run; `--agent` names the spawned agent (default: AGENT).
    #[arg(long, value_name = "AGENT[:SESSION]", conflicts_with_all = ["session", "depth"])]
    pub spawned_by: Option<String>,
    /// The kind of run: `chat` (a person's turn), `cron` (a scheduled job's isolated agent turn,
    /// `--job` names it) or `heartbeat`. The release then decides the agent and session; nobody
    /// answers an exec approval, so `ask` becomes what askFallback decides.
    #[arg(long, default_value = "chat", value_name = "chat|cron|heartbeat", conflicts_with_all = ["spawned_by", "session", "depth"])]
    pub run: RunKind,
    /// With `--run cron`: the id of the stored job the run executes. Without it, an ad-hoc
    /// isolated job of `--agent`, capped by `--tools-allow`.
    #[arg(long, value_name = "ID")]
    pub job: Option<String>,
    /// Build the tools as the run's own attempt does (a chat turn, a heartbeat, a cron job's
    /// agent turn): with the plugin metadata it prepares, the bundled plugins' manifests put
    /// their tools in profiles (2026.8 and later: memory-core's `intent` in `coding` and
    /// `messaging`). Without it, as OpenClaw's effective-tools listing builds them.
    #[arg(long)]
    pub turn: bool,
    /// The cron jobs store: 2026.9's state database (`<state>/state/openclaw.sqlite`) or 2026.2's
    /// `<state>/cron/jobs.json`. Default: the store OpenClaw itself reads, if it exists.
    #[arg(long, value_name = "FILE")]
    pub jobs: Option<PathBuf>,
}

/// The plugin tools present at runtime (a config does not say which tools its plugins register).
#[derive(Debug, Args, Default)]
pub struct PluginToolArgs {
    /// A plugin tool present at runtime, as `plugin:tool` (repeatable); `plugin:tool?` marks it optional.
    #[arg(long = "plugin-tool", value_name = "PLUGIN:TOOL")]
    pub plugin_tools: Vec<String>,
    /// A JSON file listing plugin tools (`[{"plugin": "...", "name": "...", "optional": false,
    /// "profiles": ["coding"]}]`), or a folder of installed plugins, each with its
    /// `openclaw.plugin.json` manifest (tools, optional, profile membership).
    #[arg(long, value_name = "FILE|DIR")]
    pub plugins: Option<PathBuf>,
    /// The MCP server tools present at runtime: a saved `openclaw mcp probe --json` (its tools
    /// then pass the config's `mcp.servers` switches and `toolFilter`s).
    #[arg(long, value_name = "FILE")]
    pub mcp_probe: Option<PathBuf>,
}

impl PluginToolArgs {
    pub fn plugin_tools(&self) -> miette::Result<Vec<PluginTool>> {
        crate::policy::declared::declared_plugin_tools(
            &self.plugin_tools,
            self.plugins.as_deref(),
            self.mcp_probe.as_deref(),
        )
    }
}

impl ContextArgs {
    pub fn to_context(&self) -> miette::Result<SessionContext> {
        let plugin_tools = self.plugins.plugin_tools()?;
        let run = SessionContext {
            agent_id: self.agent.clone(),
            session_key: self.session.clone(),
            model_provider: self.provider.clone(),
            model_id: self.model.clone(),
            message_provider: self.channel.clone(),
            group_id: self.group.clone(),
            account_id: self.account.clone(),
            spawned_by: None,
            sender_id: self.sender.clone(),
            sender_name: self.sender_name.clone(),
            sender_username: self.sender_username.clone(),
            sender_e164: self.sender_e164.clone(),
            sender_is_owner: if self.not_owner { Some(false) } else { self.owner.then_some(true) },
            spawn_depth: self.depth,
            model_has_vision: None,
            model_api: None,
            sandbox: self.sandbox,
            tools_allow: self
                .tools_allow
                .as_ref()
                .map(|list| list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()),
            plugin_tools,
            run: self.run,
            turn: self.turn,
            ..SessionContext::default()
        };
        let Some(spawner) = self.spawned_by.as_deref() else {
            return Ok(run);
        };
        crate::policy::spawn::spawned_by(run, spawner)
            .map_err(|e| miette::miette!(code = "cli::spawned-by", "--spawned-by {e}"))
    }
}

/// An `--agent` (or the agent of a `--session` key) that the config does not have is an error
/// with a did-you-mean, in every command: answering for a made-up agent would mislead.
pub fn check_known_agent(
    version: OpenClawVersion,
    config: &serde_json::Value,
    ctx: &SessionContext,
) -> miette::Result<()> {
    let known = crate::fleet::contexts::agent_ids(version, config);
    let from_key = ctx.session_key.as_deref().and_then(crate::policy::session::split_agent_key).map(|(agent, _)| agent);
    for agent in ctx.agent_id.as_deref().into_iter().chain(from_key) {
        let agent = crate::config::view::ids::normalize_agent_id(agent);
        if !known.contains(&agent) {
            return Err(unknown_agent(&agent, &known, "this config"));
        }
    }
    Ok(())
}

/// The error for an agent id not among `known`, naming the closest one.
pub fn unknown_agent(agent: &str, known: &[String], within: &str) -> miette::Report {
    miette::miette!(
        code = "cli::unknown-agent",
        help = format!("{}agents of {within}: {}", did_you_mean_hint(agent, known), known.join(", ")),
        "no agent `{agent}` in {within}"
    )
}

/// "did you mean `x`? " when one of `known` is close to `name`, else nothing: the start of a help.
pub fn did_you_mean_hint(name: &str, known: &[String]) -> String {
    let names: Vec<&str> = known.iter().map(String::as_str).collect();
    crate::config::validate::did_you_mean(name, &names).map(|s| format!("did you mean `{s}`? ")).unwrap_or_default()
}

/// Runs the command line and returns the process exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    install_report_handler();
    let result = Global::new(cli.openclaw_version, &cli.global).and_then(|global| match &cli.command {
        Command::Tools(args) => tools_cmd::run(&global, args),
        Command::Explain(args) => explain_cmd::run(&global, args),
        Command::Exec(args) => exec_cmd::run(&global, args),
        Command::Catalog(args) => catalog_cmd::run(&global, args),
        Command::Lint(args) => lint_cmd::run(&global, args),
        Command::Rule(args) => rule_cmd::run(args),
        Command::Url(args) => url_cmd::run(&global, args),
        Command::Path(args) => path_cmd::run(&global, args),
        Command::Simulate(args) => simulate_cmd::run(&global, args),
        Command::Matrix(args) => matrix_cmd::run(&global, args),
        Command::WhoCan(args) => who_can_cmd::run(&global, args),
        Command::Diff(args) => diff_cmd::run(&global, args),
        Command::Upgrade(args) => upgrade_cmd::run(&global, args),
        Command::Test(args) => test_cmd::run(&global, args),
        Command::Fix(args) => fix_cmd::run(&global, args),
        Command::Lsp(args) => lsp_cmd::run(&global, args),
        Command::Completions(args) => completions_cmd::run(args),
        Command::Man(args) => man_cmd::run(args),
    });
    match result {
        Ok(code) => code,
        Err(report) => {
            output::write_stderr(&format!("{report:?}"));
            Exit::CannotAnswer.into()
        }
    }
}

/// Diagnostics wrap to the terminal width only on a terminal: wrapped paths and codes would break
/// grep in CI logs. Colour only on a terminal without `NO_COLOR`.
fn install_report_handler() {
    use std::io::IsTerminal;
    let terminal = std::io::stderr().is_terminal();
    let color = output::styled(terminal);
    // A hook can only be set once per process; a second call is harmless, so its error is ignored.
    let _ = miette::set_hook(Box::new(move |_| {
        Box::new(miette::MietteHandlerOpts::new().wrap_lines(terminal).color(color).build())
    }));
}
