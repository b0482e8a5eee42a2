//! Version packs: everything that differs between OpenClaw releases about tool policy, kept as
//! data (`data/openclaw-<version>.json`) so a reader can audit it without reading code.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;

use crate::base::js::{js_trim, lower_case};

/// One release's tool-policy semantics.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VersionPack {
    pub release: String,
    pub sections: Vec<Section>,
    pub tools: Vec<CatalogTool>,
    pub profiles: Vec<Profile>,
    /// Permanent name aliases applied by every normalization (`bash` → `exec`).
    pub aliases: BTreeMap<String, String>,
    /// Shipped renames and families applied during plugin-group expansion (`canvas` → canvas + show_widget).
    pub expansions: BTreeMap<String, Vec<String>>,
    /// Names only `openclaw doctor --fix` rewrites; the pipeline treats them literally.
    pub doctor_renames: BTreeMap<String, String>,
    pub apply_patch: ApplyPatchRules,
    pub sandbox: SandboxRules,
    pub subagents: SubagentRules,
    pub owner_only: OwnerOnlyRules,
    pub message_provider_filter: BTreeMap<String, ProviderFilter>,
    pub local_model_lean: Option<Vec<String>>,
    /// Whether the local-model lean filter keeps a listed tool that a non-profile allowlist
    /// names (2026.9); 2026.5 drops it whatever the allowlists say.
    pub local_model_lean_keeps_allowed: bool,
    /// Whether it keeps, instead, only a listed tool that the run's own `toolsAllow` names
    /// (2026.6: `applyModelProviderToolPolicy` preserves the runtime allowlist alone).
    #[serde(default)]
    pub local_model_lean_keeps_run_allowed: bool,
    pub tools_by_sender: SenderRules,
    pub by_provider: ByProviderRules,
    pub unknown_allowlist_entries: UnknownEntryHandling,
    /// Tools a configured `tools.<section>` block (the agent's or the global one) adds to the
    /// `tools.profile` step's alsoAllow, by section (2026.3: `exec` adds `exec` and `process`,
    /// `fs` the file tools).
    #[serde(default)]
    pub implicit_profile_also_allow: BTreeMap<String, Vec<String>>,
    /// Whether an allowlist entry naming a bundled plugin that is not loaded for the run, or one
    /// of its tools, counts as a plugin entry rather than an unknown one (2026.7: every bundled
    /// manifest is declared to the pipeline, `buildDeclaredToolAllowlistContext`).
    #[serde(default)]
    pub declared_bundled_tools: bool,
    /// Bundled plugins whose tools the oracle environment loads, in manifest order.
    pub plugins: Vec<BundledPlugin>,
    /// How tools dropped by the pre-pipeline filters are reported.
    pub pre_filtered_tools: PreFilterReport,
    pub runtime_tools_allow: RuntimeAllowRules,
    pub post_policy: PostPolicyRules,
    /// When the provider searches natively, the managed `web_search` tool is not offered.
    pub native_web_search: Option<NativeWebSearch>,
    /// 2026.2 builds `image` without `agents.defaults.imageModel` when it can pair a vision model
    /// with the provider credentials it finds.
    pub image_model_pairing: Option<ImageModelPairing>,
    /// How the release reads the agent roster and picks a session's agent.
    pub agents: AgentRules,
    /// How the file tools contain paths.
    pub files: FileRules,
    /// Where a group conversation's candidate group ids come from.
    pub group_ids: GroupIdSource,
    /// The channels whose session keys name a forum topic as `<chat>:topic:<t>`, read as the
    /// chat by `callerFirst`, where a caller's group id is then taken as given (2026.3: Telegram
    /// alone); absent, every channel's group id, the caller's too.
    #[serde(default)]
    pub topic_channels: Option<Vec<String>>,
    /// `DocumentModel` and `MediaModel` tools are built from their model settings alone, whatever
    /// the plugin switch and the construction-time allow/deny lists say (2026.3).
    #[serde(default)]
    pub media_tools_from_settings_alone: bool,
    /// The core tools the release's tool builder constructs, in its order, each group with the
    /// condition under which it is built (`createOpenClawCodingTools` + `createOpenClawTools`).
    pub core_tools: Vec<CoreToolGroup>,
    /// How bundled plugins load and which of their tools are selected.
    pub plugin_loading: PluginLoadingRules,
    /// What happens to a tool call after tool policy: loop detection, hooks, exec approvals.
    pub tool_calls: ToolCallRules,
    #[serde(skip)]
    groups: Vec<(String, Vec<String>)>,
    /// The lengths of the aliases (bit `n`: an alias of `n` bytes; the last bit stands for every
    /// length from 127 on): most names are told apart from every alias by their length alone.
    #[serde(skip)]
    alias_lengths: u128,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    pub id: String,
    pub label: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CatalogTool {
    pub id: String,
    pub section: String,
    /// Member of `group:openclaw`.
    pub openclaw_group: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub id: String,
    /// `None`: the profile resolves to no policy at all, so its step is skipped (2026.2 `full`).
    pub allow: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApplyPatchRules {
    /// The tool whose allow entry also admits `apply_patch` (`write` in 2026.9, `exec` in 2026.2).
    pub piggyback_on: String,
    /// A deny entry matching the piggyback tool denies `apply_patch` too (2026.3, 2026.4).
    #[serde(default)]
    pub denied_with_piggyback: bool,
    pub enabled_by_default: bool,
    /// Providers for which apply_patch is built at all; `None` means every provider.
    pub providers: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SandboxRules {
    pub default_allow: Vec<String>,
    pub default_deny: Vec<String>,
    /// Whether `tools.sandbox.tools.alsoAllow` has any effect.
    pub also_allow: bool,
    /// Whether explicit sandbox allow entries remove matching names from the default deny.
    pub reallow_subtracts_default_deny: bool,
    /// Appended to a non-empty sandbox allow list unless named already.
    pub forced_allow: String,
    /// A deny matching `image` also denies this name (2026.9 legacy image handling).
    pub legacy_image_deny_also_denies: Option<String>,
    /// How fix-it keys name the per-agent block (`agents.entries.*`, `agents.list[]`).
    pub agent_key_prefix: String,
    /// 2026.2: the sandbox (mode, workspace access, tool policy) belongs to the session key's agent
    /// (its classifier takes no agent id), while the tool policy uses the explicit agent.
    pub follows_session_key_agent: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubagentRules {
    pub default_max_spawn_depth: u32,
    pub always_deny: Vec<String>,
    pub leaf_deny: Vec<String>,
    /// 2026.2: names in `tools.subagents.tools.allow|alsoAllow` are taken out of the default deny.
    pub allow_removes_from_default_deny: bool,
    /// 2026.2 to 2026.6 count the spawn depth as the key's `:subagent:` segments (the old
    /// `getSubagentDepth`), so a leading `subagent:` without an `agent:` prefix does not count: a
    /// bare `subagent:x` key is a sub-agent of depth 0 there, `subagent:a:subagent:b` of depth 1.
    pub depth_needs_agent_prefix: bool,
    /// 2026.9: a spawned child stores its requester's effective allowlist and denies (pipeline step
    /// `inherited tools`) and, run without an external sender, skips group and sender policy.
    pub inherits_requester_policy: bool,
}

/// How the release reads the agent roster and picks a session's agent.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AgentRules {
    /// Where the roster is written, most preferred first: the first form present with its
    /// expected type is the roster (2026.9 reads `agents.entries`, then the legacy `agents.list`).
    pub roster: Vec<RosterForm>,
    /// How the agent of a session without an explicit agent is chosen.
    pub default_agent: DefaultAgentRule,
    /// When the agent named by a session key (`agent:<id>:…`) owns a session for which no agent
    /// was given.
    pub session_key_agent: SessionKeyAgent,
    /// An agent other than the default works in `<agents.defaults.workspace>/<id>` (2026.9); else
    /// `agents.defaults.workspace` is the default agent's only and the others get a state-dir folder.
    pub nested_defaults_workspace: bool,
}

/// How the file tools contain paths to their root.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileRules {
    /// A dangling symlink is judged by where it points (2026.9), not by where it stands.
    pub follows_dangling_links: bool,
}

/// A way of writing the agent roster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RosterForm {
    /// `agents.entries`: an object keyed by agent id.
    Entries,
    /// `agents.list`: an array of entries with an `id` field.
    List,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DefaultAgentRule {
    /// The entry marked `default: true`, else the first entry, else `main` (2026.2).
    MarkedOrFirst,
    /// `agents.defaults.systemAgent.agentId`, else the only entry, else `main` for an empty
    /// roster; several entries without a system agent have no default (2026.9, whose loader
    /// strips the `default: true` marker).
    SystemAgentOrOnlyEntry,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SessionKeyAgent {
    /// The session key's agent always owns the session (2026.2).
    Always,
    /// Only in a roster of at most one agent: a multi-agent roster needs an explicit owner even
    /// when the key names one (2026.9).
    SingleAgentRoster,
}

/// Where the candidate ids of a group conversation come from (`resolveGroupToolPolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum GroupIdSource {
    /// Only ids derived by the server from the session key (or the spawning session's key),
    /// expanded `<chat>:topic:<t>` → chat and `…:sender:<s>` → base; the channel comes from the
    /// key, else from the message provider. A caller-supplied group id is ignored (2026.9).
    SessionKey,
    /// The caller's group id as given, else the key's; a forum topic maps to its chat and nothing
    /// else is expanded; the channel comes from the message provider, else from the key (2026.2).
    CallerFirst,
}

/// Core tools built together under one condition.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CoreToolGroup {
    pub tools: Vec<String>,
    pub when: BuildCondition,
}

/// When the tool builder constructs a group of core tools.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum BuildCondition {
    Always,
    /// Not in a sandbox whose workspace is read-only (`workspaceAccess: ro`).
    WritableWorkspace,
    /// `tools.exec.applyPatch` (agent block over global) enabled, the provider gate
    /// (`applyPatch.providers`), `allowModels`, and a writable workspace.
    ApplyPatchEnabled,
    /// The model is not known to lack vision.
    VisionNotRuledOut,
    NotSandboxed,
    /// Not sandboxed, and the session's agent is not named like the tool (the `openclaw` agent
    /// does not get the `openclaw` tool).
    NotSandboxedOtherAgent,
    /// Swarm tools are on: `tools.swarm` (or its `enabled`), the agent block over the global one,
    /// else the release's default (on in 2026.9, off in 2026.8).
    Swarm {
        default: bool,
    },
    /// `tools.web.search.enabled` is not `false`.
    WebSearchEnabled,
    /// `tools.web.search.enabled` is not `false` and plugins are on: the managed `web_search`
    /// is built by a bundled search provider plugin (2026.3).
    WebSearchProviderPlugins,
    /// `tools.web.fetch.enabled` is not `false`.
    WebFetchEnabled,
    /// The model has vision, or `agents.defaults.imageModel` names a model.
    VisionOrImageModel,
    /// A media-understanding factory tool: `agents.defaults.pdfModel` or `imageModel` names a
    /// model, plugins are on, and the construction-time allow/deny lists admit the tool (not
    /// checked where `mediaToolsFromSettingsAlone`).
    DocumentModel,
    /// A generation factory tool: the model setting at this dotted path under
    /// `agents.defaults` names a model (`mediaModels.image` in 2026.9, `imageGenerationModel` in
    /// 2026.5), plugins are on, and the construction-time allow/deny lists admit the tool (not
    /// checked where `mediaToolsFromSettingsAlone`).
    MediaModel(String),
    /// `agents.defaults.imageModel` names a model, whatever the model's vision (2026.4).
    ImageModel,
    /// `agents.defaults.pdfModel` or `imageModel` names a model, whatever the allow/deny lists
    /// and plugins say (2026.4's `pdf`).
    ConfiguredDocumentModel,
    /// The model setting at this dotted path under `agents.defaults` names a model, whatever the
    /// allow/deny lists and plugins say (2026.4's generation tools).
    ConfiguredMediaModel(String),
    /// `transcripts.enabled` is not `false` and a sender writes on one of these channels.
    TranscriptChannels(Vec<String>),
    /// `transcripts.enabled` is `true` (2026.5: whatever the channel).
    TranscriptsEnabled,
    /// 2026.5's `update_plan`: the construction-time allowlists (`tools.allow`, `alsoAllow`
    /// and every policy's allow entries) name it and the deny lists do not; else
    /// `tools.experimental.planTool` when set; else a strict-agentic run (a GPT-5 model of one of
    /// these providers, whose agent's execution contract is not `default`: 2026.5 also counts
    /// OpenAI Codex, 2026.7 does not). 2026.4 has no allowlist clause and reads the contract
    /// from `embeddedPi`.
    PlanTool(PlanToolRule),
    /// A primary session (neither a sub-agent nor an ACP session) whose construction-time deny
    /// lists do not name the tool.
    PrimarySession,
    /// `progress_card` passes the profile, provider, global and agent policies (and the
    /// sub-agent policy when `subagentPolicy`: 2026.9, not 2026.8), the plugin denylist and the
    /// runtime allowlist, and `tools.updatePlan` is not `false`.
    ProgressCard {
        #[serde(rename = "subagentPolicy")]
        subagent_policy: bool,
    },
    /// 2026.2's `image`: an explicit image model, or one paired from credentials
    /// (`imageModelPairing`).
    PairedImageModel,
}

/// How a release builds `update_plan` (see [`BuildCondition::PlanTool`]).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanToolRule {
    pub strict_agentic_providers: Vec<String>,
    /// Whether the allowlists naming the tool build it (2026.4: no).
    #[serde(default = "yes")]
    pub named_by_allowlists: bool,
    /// The agent block holding `executionContract` (`embeddedAgent`; 2026.4: `embeddedPi`).
    #[serde(default = "embedded_agent")]
    pub contract_block: String,
}

fn yes() -> bool {
    true
}

fn embedded_agent() -> String {
    "embeddedAgent".into()
}

/// How bundled plugins load and which of their tools are selected.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginLoadingRules {
    pub tool_selection: PluginToolSelection,
    /// The memory slot plugin loads whatever a restrictive `plugins.allow` says (2026.9).
    pub memory_slot_bypasses_allow: bool,
    /// A plugin entry with material settings joins a restrictive `plugins.allow` (2026.9's loader).
    pub material_entries_join_allow: bool,
    /// `plugins.entries.<id>.enabled: false` does not turn off the memory slot plugin (2026.2).
    pub memory_slot_ignores_entry_switch: bool,
    /// The plugin id that owns the tools of `mcp.servers` (`bundle-mcp`); `None`: the release
    /// has no MCP servers.
    pub mcp_plugin_id: Option<String>,
    /// The tool builder reads the plugin metadata a run attempt prepares: a plugin manifest's
    /// `toolMetadata[tool].profiles` adds the tool to those profiles (the installed plugins'
    /// always; in a run's own attempt, `--turn`, the bundled plugins' too, and the plugins the
    /// settings allow are known names to the unknown-allowlist warning) (2026.8, 2026.9).
    pub manifest_profiles: bool,
    /// The switch of the memory-search tools: dotted paths under the agent's entry and under the
    /// config root; the agent's value, when set, wins.
    pub memory_search_switch: AgentOverGlobal,
}

/// A setting an agent's entry can override: dotted key paths under the entry and the root.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AgentOverGlobal {
    pub agent: String,
    pub global: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PluginToolSelection {
    /// Wholesale by `*`, `group:plugins` or the plugin id, by default for non-optional tools
    /// when an allowlist includes defaults, or by name (globs allowed); a deny naming the tool,
    /// its plugin or `group:plugins` keeps it out (2026.9).
    Allowlists,
    /// As `allowlists`, but a tool is selected by name only when an allowlist names it exactly:
    /// a glob selects no plugin tool (2026.5's `listManifestToolNamesForAllowlist`).
    AllowlistsByExactName,
    /// Non-optional tools always load; optional ones need the tool, its plugin or
    /// `group:plugins` named exactly in an allowlist (no `*`, no globs) (2026.2).
    OptionalNamedExactly,
}

/// What happens to a tool call after tool policy, as `simulate` plays it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolCallRules {
    pub loop_detection: LoopDetectionRules,
    pub hook_block: HookBlockRule,
    /// The approval timeout when the scenario sets none.
    pub approval_timeout_ms: u64,
    /// Whether an approval request under `ask: always` offers `allow-always`.
    pub ask_always_offers_allow_always: bool,
    pub allow_always_stores: AllowAlwaysStore,
}

/// `tools.loopDetection` as the release reads it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoopDetectionRules {
    /// Whether thresholds and detector switches are read from config (2026.2); 2026.9 reads
    /// only `enabled` and uses the defaults.
    pub configurable: bool,
    /// A non-poll call whose identical outcome repeated `criticalThreshold` times is blocked.
    pub generic_critical: bool,
    pub history_size: usize,
    pub warning_threshold: usize,
    pub critical_threshold: usize,
    pub global_circuit_breaker_threshold: usize,
}

/// How the results of several before-tool-call hooks combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum HookBlockRule {
    /// The first hook that blocks stops the chain, and its block stands (2026.9).
    FirstBlockStops,
    /// Every hook runs; the last one that says anything about blocking decides (2026.2).
    LastWordWins,
}

/// What an `allow-always` answer stores in the approvals allowlist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AllowAlwaysStore {
    /// One entry per command segment: the executable's real path with an argument pattern bound
    /// to the argv and working directory; nothing when an executable does not resolve (2026.9).
    BoundSegments,
    /// The resolved executable paths, and only under `security: allowlist` (2026.2).
    ResolvedPathsUnderAllowlist,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OwnerOnlyRules {
    pub tools: Vec<String>,
    pub applies_when: OwnerCondition,
    pub placement: OwnerOnlyPlacement,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OwnerCondition {
    /// Filter only when the sender is known not to be the owner (2026.9).
    SenderIsOwnerFalse,
    /// Filter unless the sender is known to be the owner (2026.2: undefined counts as non-owner).
    SenderIsOwnerNotTrue,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OwnerOnlyPlacement {
    /// A deny step inside the pipeline (`gateway sender owner-only tools`).
    PipelineStep,
    /// A filter on the tool list before the pipeline runs.
    BeforePipeline,
    /// Only the gateway's own tool surfaces (`POST /tools/invoke`, its MCP endpoint) filter them:
    /// a session's tool list keeps them whoever the sender is (2026.6, whose coding-tools pipeline
    /// has no owner-only step).
    GatewayInvokeOnly,
}

impl OwnerOnlyRules {
    /// Whether a session's tool list ever loses these tools to a sender who is not the owner.
    pub fn filters_sessions(&self) -> bool {
        self.placement != OwnerOnlyPlacement::GatewayInvokeOnly
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProviderFilter {
    #[serde(default)]
    pub keep_only: Option<Vec<String>>,
    #[serde(default)]
    pub remove: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SenderRules {
    /// Where `toolsBySender` maps are read: `group`, `global`, `agent`.
    pub scopes: Vec<String>,
    /// Typed key prefixes in match order (the wildcard `*` always comes last).
    pub key_prefixes: Vec<String>,
    /// Where the global and agent maps read the sender's channel (for `channel:` keys).
    pub channel_from: SenderChannel,
    /// An owner writing from webchat skips the global and agent maps (2026.9).
    pub webchat_owner_exempt: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SenderChannel {
    /// The session key's delivery route, else the message provider (2026.9).
    SessionKeyFirst,
    /// The message provider only (2026.5).
    MessageProvider,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ByProviderRules {
    /// 2026.9 splits `provider/model` keys at the first `/` and normalizes each side.
    pub split_model_keys: bool,
    pub model_id_prefix: ModelIdPrefix,
    pub duplicate_keys: DuplicateKeyRule,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ModelIdPrefix {
    /// `openrouter` + `anthropic/claude` looks up `openrouter/anthropic/claude`.
    Always,
    /// A model id that already contains `/` is looked up as is.
    UnlessModelHasSlash,
}

/// What the per-run `toolsAllow` list does besides plugin loading.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RuntimeAllowRules {
    /// Applied as a final filter after the pipeline, at the run-attempt level.
    pub cap_after_pipeline: bool,
    /// A list naming `message` or `*` adds `message` to the profile steps.
    pub profiles_gain_message: bool,
    /// A run that asks to inherit its toolsAllow (embedded runs) also gets it as the pipeline step
    /// `runtime tools.allow`.
    pub pipeline_step_when_inherited: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NativeWebSearch {
    pub provider: String,
    pub model_api: String,
}

/// Removals after the pipeline.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PostPolicyRules {
    /// Tools removed in scheduled (cron) sessions.
    pub cron_sessions_drop: Vec<String>,
}

/// A plugin bundled with the release that contributes agent tools.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BundledPlugin {
    pub id: String,
    pub tools: Vec<String>,
    /// Tools that load only when named explicitly.
    pub optional: Vec<String>,
    /// `None`: the plugin is the memory slot, enabled by `plugins.slots.memory` rather than a flag.
    pub enabled_by_default: Option<bool>,
    /// Provider-activated plugins load only for that provider when a config key is set.
    #[serde(default)]
    pub activation: Option<PluginActivation>,
    /// When the release's config loader enables the plugin because the config uses it.
    #[serde(default)]
    pub auto_enable: Option<AutoEnable>,
    /// 2026.2: `channels.<id>.enabled: true` also enables the plugin of this built-in chat channel.
    #[serde(default)]
    pub enabled_by_channel: bool,
    /// The tools come from the channel's agent-tool hook, not the plugin-tool registry: the
    /// pipeline treats them as core tools (no plugin group, no plugin-tool selection).
    #[serde(default)]
    pub channel_agent_tools: bool,
    /// The settings of `channels.<id>` (or of one of its accounts) that hold its credentials,
    /// read by the tool gates.
    #[serde(default)]
    pub credentials: Vec<String>,
    /// Conditions the plugin checks before it registers a tool; a tool without one is registered
    /// whenever the plugin loads.
    #[serde(default)]
    pub tool_gates: BTreeMap<String, ToolGate>,
    /// With `declaredBundledTools`: the plugin's tools are declared only when one of these
    /// settings (dotted paths) holds a value (its manifest's config signals; 2026.7's xai). A
    /// SecretRef counts as a value, and the provider credentials its auth signals also accept
    /// are not read.
    #[serde(default)]
    pub declared_when_configured: Vec<String>,
}

/// When a channel plugin registers a tool (tools not listed are registered unconditionally).
#[derive(Debug, Deserialize)]
#[serde(tag = "when", rename_all = "camelCase", deny_unknown_fields)]
pub enum ToolGate {
    /// The channel's first enabled account whose credentials are non-blank strings (accounts
    /// in `channels.<id>.accounts`, each over the channel block; the block itself when there are
    /// none) has `tools.<flag>` truthy, `default` when unset.
    AccountTool { flag: String, default: bool },
    /// Every credential setting is truthy directly in `channels.<id>` (accounts do not count).
    ChannelCredentials,
    /// The plugin's own `plugins.entries.<id>.config` is an object that sets one of these keys
    /// (2026.9's 1Password broker starts only with a vault or items configured).
    PluginConfig { keys: Vec<String> },
    /// The setting at this dotted path is not `false` (2026.7's xai: `x_search` unless
    /// `plugins.entries.xai.config.xSearch.enabled` is `false`).
    NotSwitchedOff { setting: String },
}

impl BundledPlugin {
    /// The tools that are plugin tools to the pipeline (members of `group:plugins` and of the
    /// plugin's own group).
    pub fn plugin_tools(&self) -> &[String] {
        if self.channel_agent_tools { &[] } else { &self.tools }
    }
}

/// How 2026.2 pairs a vision model for the `image` tool when `agents.defaults.imageModel` is unset
/// (`resolveImageModelConfigForTool`): credentials for any provider of `anyModelProviders`, or for
/// the default model's provider when that is in `pairedProviders` or lists a model with image input
/// under `models.providers.<provider>.models`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImageModelPairing {
    /// The provider of the default model when `agents.defaults.model` names none.
    pub default_provider: String,
    pub any_model_providers: Vec<String>,
    pub paired_providers: Vec<String>,
    /// Provider id spellings normalized before lookups (`z.ai` → `zai`).
    pub provider_aliases: BTreeMap<String, String>,
    /// The environment variables that hold each provider's credentials, in lookup order.
    pub credential_env: BTreeMap<String, Vec<String>>,
}

/// The uses of the config that make 2026.9's loader auto-enable a bundled plugin: it sets
/// `plugins.entries.<id>.enabled: true` and adds the id to a restrictive `plugins.allow` (unless
/// the plugin is denied or its entry says `enabled: false`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AutoEnable {
    /// `plugins.entries.<id>.config.<key>` is set for one of these keys (its tool configuration).
    #[serde(default)]
    pub tool_config_keys: Vec<String>,
    /// A configured model reference `<provider>/<model>` names one of these providers.
    #[serde(default)]
    pub model_providers: Vec<String>,
    /// `tools.web.search.provider` selects one of these search providers.
    #[serde(default)]
    pub web_search_providers: Vec<String>,
    /// The plugin's own probe (browser): a top-level `<id>` block, any `plugins.entries.<id>`, or
    /// a global or per-agent `tools.allow`/`alsoAllow` naming `<id>`; off when either block says
    /// `enabled: false`.
    #[serde(default)]
    pub when_referenced: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginActivation {
    /// The model provider the run must use (none: any provider, 2026.7's xai).
    #[serde(default)]
    pub provider: Option<String>,
    /// Dotted config path that must hold a value.
    pub config_key: String,
    /// Tools that also load when one of their own settings holds a value (2026.3's `x_search`
    /// with `tools.web.x_search.apiKey`).
    #[serde(default)]
    pub tool_keys: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PreFilterReport {
    /// 2026.9 drops them while constructing: they never reach the pipeline's input.
    NotConstructed,
    /// 2026.2 filters the constructed list; the tools show as removed by a pre-policy filter.
    Removed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DuplicateKeyRule {
    /// The first key in object order wins.
    First,
    /// The last key in object order wins (a JS `Map` filled in order).
    Last,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum UnknownEntryHandling {
    /// Unknown allowlist entries only produce a warning; the allowlist is applied as written.
    Warn,
    /// An allowlist with no core entry is dropped (its deny still applies), with a warning.
    StripPluginOnly,
    /// As `StripPluginOnly`, but the warning sorts the unknown entries (in the allowlist's
    /// order) into unavailable core tools and others, worded as `Warn`'s; a profile step without
    /// alsoAllow does not warn about unavailable core tools alone (2026.3).
    StripPluginOnlyClassified,
    /// As `Warn`, except a warning whose text the release already made, silently, while it
    /// projected the lone `read` tool (no plugin tools) through the same policies
    /// (`projectConversationToolNames`, 2026.8): its warning de-duplication drops the repeat.
    WarnUnlessReadProbeWarned,
}

impl UnknownEntryHandling {
    /// Whether an allowlist naming no core tool is dropped (2026.2, 2026.3).
    pub fn strips_plugin_only(self) -> bool {
        matches!(self, UnknownEntryHandling::StripPluginOnly | UnknownEntryHandling::StripPluginOnlyClassified)
    }
}

impl VersionPack {
    pub(crate) fn parse(text: &str) -> VersionPack {
        // The packs are compiled in and covered by tests, so a parse failure is a build defect.
        let mut pack: VersionPack = serde_json::from_str(text).expect("bundled version pack is valid");
        pack.groups = pack.build_groups();
        pack.alias_lengths = pack.aliases.keys().fold(0, |lengths, alias| lengths | Self::length_bit(alias));
        pack
    }

    fn length_bit(name: &str) -> u128 {
        1 << name.len().min(127)
    }

    /// Static groups: one per catalog section, then `group:openclaw`, members in catalog order.
    fn build_groups(&self) -> Vec<(String, Vec<String>)> {
        let mut groups: Vec<(String, Vec<String>)> = self
            .sections
            .iter()
            .map(|section| {
                let members = self.tools.iter().filter(|t| t.section == section.id).map(|t| t.id.clone());
                (format!("group:{}", section.id), members.collect())
            })
            .collect();
        let openclaw = self.tools.iter().filter(|t| t.openclaw_group).map(|t| t.id.clone()).collect();
        groups.push(("group:openclaw".to_string(), openclaw));
        groups
    }

    /// Static groups in display order.
    pub fn groups(&self) -> &[(String, Vec<String>)] {
        &self.groups
    }

    /// Members of a static group (`group:fs`), or `None` for any other name.
    pub fn group(&self, name: &str) -> Option<&[String]> {
        // Every static group is named `group:…` (see `build_groups`): other names, which long
        // allow and deny lists are made of, need no scan.
        if !name.starts_with("group:") {
            return None;
        }
        self.groups.iter().find(|(id, _)| id == name).map(|(_, members)| members.as_slice())
    }

    pub fn is_catalog_tool(&self, id: &str) -> bool {
        self.tools.iter().any(|t| t.id == id)
    }

    pub fn catalog_tool(&self, id: &str) -> Option<&CatalogTool> {
        self.tools.iter().find(|t| t.id == id)
    }

    /// The profile's allow list; `None` for unknown profiles and for profiles without a policy.
    pub fn profile_allow(&self, id: &str) -> Option<&[String]> {
        self.profiles.iter().find(|p| p.id == id)?.allow.as_deref()
    }

    pub fn is_profile(&self, id: &str) -> bool {
        self.profiles.iter().any(|p| p.id == id)
    }

    /// OpenClaw's name normalization: trim, lowercase, then apply a permanent alias.
    pub fn normalize(&self, name: &str) -> String {
        self.normalized(name).into_owned()
    }

    /// [`VersionPack::normalize`] without a copy when the name is already normalized, as most
    /// names a session compares are.
    pub fn normalized<'a>(&'a self, name: &'a str) -> Cow<'a, str> {
        let lowered = lower_case(js_trim(name));
        let maybe_alias = self.alias_lengths & Self::length_bit(&lowered) != 0;
        match maybe_alias.then(|| self.aliases.get(lowered.as_ref())).flatten() {
            Some(target) => Cow::Borrowed(target),
            None => lowered,
        }
    }

    /// Whether a normalized name matches one pattern as a plain glob (no group or plugin
    /// expansion), as OpenClaw's plugin-loading checks compare names.
    pub fn plain_glob_matches(&self, pattern: &str, name: &str) -> bool {
        crate::base::glob::glob_matches(&self.normalize(pattern), name)
    }

    /// Shipped renames/families for an already-normalized entry (`canvas` → canvas, show_widget).
    pub fn expansion(&self, normalized: &str) -> Option<&[String]> {
        self.expansions.get(normalized).map(Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use crate::OpenClawVersion;

    #[test]
    fn packs_parse_and_have_expected_sizes() {
        let current = OpenClawVersion::V2026_9.policy();
        assert_eq!(current.release, "2026.9.6");
        assert_eq!(current.tools.len(), 61);
        assert_eq!(current.group("group:openclaw").unwrap().len(), 53);
        let seed = OpenClawVersion::V2026_2.policy();
        assert_eq!(seed.tools.len(), 25);
        assert_eq!(seed.group("group:openclaw").unwrap().len(), 19);
        assert!(seed.profile_allow("full").is_none());
        assert_eq!(current.profile_allow("full").unwrap(), ["*"]);
    }

    #[test]
    fn groups_follow_catalog_order() {
        let pack = OpenClawVersion::V2026_9.policy();
        assert_eq!(pack.group("group:fs").unwrap(), ["ls", "read", "write", "edit", "apply_patch"]);
        assert_eq!(pack.group("group:runtime").unwrap(), ["exec", "process", "code_execution", "secrets"]);
        let seed = OpenClawVersion::V2026_2.policy();
        assert_eq!(seed.group("group:fs").unwrap(), ["read", "write", "edit", "apply_patch"]);
        assert!(seed.group("group:openclaw").unwrap().contains(&"canvas".to_string()));
    }

    #[test]
    fn normalization_trims_lowercases_and_aliases() {
        let pack = OpenClawVersion::V2026_9.policy();
        assert_eq!(pack.normalize("  Bash\u{feff}"), "exec");
        assert_eq!(pack.normalize("CRON"), "automations");
        assert_eq!(pack.normalize("image"), "image");
        let seed = OpenClawVersion::V2026_2.policy();
        assert_eq!(seed.normalize("cron"), "cron");
    }

    #[test]
    fn tool_gates_name_their_plugins_tools() {
        for version in OpenClawVersion::ALL {
            for plugin in &version.policy().plugins {
                for tool in plugin.tool_gates.keys() {
                    assert!(plugin.tools.contains(tool), "{version}: {} gates unknown tool {tool}", plugin.id);
                }
                // The channel gates read the plugin's credential settings.
                let reads_credentials = plugin.tool_gates.values().any(|gate| {
                    matches!(gate, super::ToolGate::AccountTool { .. } | super::ToolGate::ChannelCredentials)
                });
                assert!(!reads_credentials || !plugin.credentials.is_empty(), "{}", plugin.id);
            }
        }
    }

    #[test]
    fn every_listed_name_is_normalized_already() {
        for version in OpenClawVersion::ALL {
            let pack = version.policy();
            let lists = pack
                .profiles
                .iter()
                .filter_map(|p| p.allow.as_ref())
                .chain([&pack.sandbox.default_allow, &pack.sandbox.default_deny, &pack.owner_only.tools])
                .chain([&pack.subagents.always_deny, &pack.subagents.leaf_deny]);
            for name in lists.flatten() {
                assert_eq!(&pack.normalize(name), name, "{version}: {name}");
            }
        }
    }
}
