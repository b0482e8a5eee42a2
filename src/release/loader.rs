//! How a release loads its config, where releases differ (`data/<release>/config.json`): config
//! discovery, `$include`, `${VAR}` substitution, the `env` block and validation quirks.
//!
//! Each field names a fact or, where the release's JavaScript does something else altogether, the
//! variant it follows; `src/config` dispatches on these and names no version. A new release
//! whose loader matches existing variants needs only its data file.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoaderRules {
    pub release: String,
    pub about: String,
    pub discovery: DiscoveryRules,
    pub include: IncludeRules,
    pub merge: MergeRules,
    pub env: EnvRules,
    pub validation: ValidationRules,
}

/// Where the release looks for its config and state (`src/config/paths.ts`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiscoveryRules {
    /// State folders under the home from older product names, tried after `.openclaw`
    /// (`resolveLegacyStateDirs`).
    pub legacy_state_dirs: Vec<String>,
    /// Config file names from older product names, tried after `openclaw.json` in each folder
    /// (`LEGACY_CONFIG_FILENAMES`).
    pub legacy_config_files: Vec<String>,
    /// Pre-rename environment variables read when the current one is unset or blank
    /// (`OPENCLAW_CONFIG_PATH` → `CLAWDBOT_CONFIG_PATH`, …).
    pub legacy_env_names: BTreeMap<String, String>,
}

/// How `$include` is resolved beyond what every release does (confinement to the config
/// directory, depth limit, cycles; `src/config/includes.ts`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IncludeRules {
    /// The variable listing further directories includes may read from (`:`-separated); `null`:
    /// only the config's own directory.
    pub extra_roots_env: Option<String>,
    /// Include paths are refused for a null byte and at this many UTF-16 code units, as written
    /// and as resolved; `null`: no such checks.
    pub max_path_length: Option<usize>,
    /// What an included file must be before it is read.
    pub read_guard: IncludeReadGuard,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum IncludeReadGuard {
    /// At most the size limit, read plainly.
    SizeOnly,
    /// A regular file within the size limit with a single hard link (`readConfigIncludeFileWithGuards`).
    RegularFileSingleLink,
}

/// OpenClaw's deep merge (`$include` arrays, sibling keys, overlays).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MergeRules {
    /// Where the prototype-pollution keys (`__proto__`, `prototype`, `constructor`) are dropped.
    pub blocked_keys: BlockedKeys,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum BlockedKeys {
    /// Only keys the later (source) side adds.
    SourceKeys,
    /// Also from the earlier side and from every object copied over (`sanitizeMergeValue`).
    Everywhere,
}

/// The config's `env` block and `${VAR}` substitution (`config-env-vars.ts`,
/// `env-substitution.ts`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EnvRules {
    /// Variable names the `env` block may not set (`isBlockedConfigEnvVar`, compared upper-case;
    /// the release also blocks a generated list of loader-injection variables, not reproduced).
    pub blocked_names: BTreeSet<String>,
    /// Values that themselves hold a `${VAR}` reference are not exported.
    pub refuse_references: bool,
    /// Which `env.vars` values are exported.
    pub var_values: EnvVarValues,
    /// What a `${VAR}` without a value does.
    pub missing_variable: MissingVariable,
    /// How the path of a `${VAR}` reference is printed in the release's messages.
    pub reference_path: ReferencePath,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum EnvVarValues {
    /// Non-blank strings only.
    NonBlankStrings,
    /// Any truthy value (even `"  "`), stringified as JavaScript's environment does.
    Truthy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum MissingVariable {
    /// Loading fails at the first one: its message is the only validation issue.
    Refuse,
    /// The literal `${VAR}` stays and the loader warns.
    KeepLiteralAndWarn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ReferencePath {
    /// Keys joined with `.`, indexes as `[i]` (`agents.list[2].my key`).
    Dotted,
    /// The same, with keys that are not identifier-like quoted (`agents.list[2]["my key"]`).
    QuotedKeys,
}

/// Where the release's validation differs beyond its JSON Schema.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValidationRules {
    /// The hand-written (zod refinement) checks the release runs.
    pub refinements: BTreeSet<Refinement>,
    /// The agent roster the refinements walk.
    pub roster: RosterForm,
    /// The sandbox bind-mount sources the release accepts as absolute.
    pub bind_sources: BindSources,
    /// Keys under `channels` that are not channel ids.
    pub reserved_channel_keys: Vec<String>,
    /// A matching doctor-fixable legacy rule replaces the whole validation result (its message is
    /// the issue); otherwise legacy rules only classify the issues.
    pub legacy_rules_replace_validation: bool,
    /// The checks the release runs on the parsed config once its schema and refinements pass, in
    /// its order: the first that finds anything is the whole answer (`validateConfigObjectRaw`).
    pub post_schema: Vec<PostSchemaCheck>,
    /// Which agents the duplicate-agentDir check compares and how it says so.
    pub agent_dirs: AgentDirRules,
    /// Where an agent without its own `workspace` works (the avatar check confines avatars there).
    pub workspaces: WorkspaceLayout,
}

/// One check of the post-schema stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PostSchemaCheck {
    /// Docker/Podman sandbox `docker.env`: portable names, single-line values without NUL.
    SandboxContainerEnv,
    /// Two agents whose effective `agentDir` is one directory.
    DuplicateAgentDirs,
    /// `identity.avatar`: workspace-relative path, http(s) URL or data URI, inside the workspace.
    IdentityAvatar,
    /// Tailscale serve/funnel needs a loopback bind.
    TailscaleBind,
    /// Tailscale serve/funnel refuses `auth.mode: "none"`.
    TailscaleAuth,
    /// `modelPolicy.allow` refs: configured alias, exact `provider/model` or prefix wildcard.
    ModelPolicyAllow,
}

/// The duplicate-agentDir check (`findDuplicateAgentDirs`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AgentDirRules {
    /// Whether the default agent takes part even when no entry is marked `default`.
    pub default_agent: DefaultAgentDir,
    /// How two directories are judged the same.
    pub identity: AgentDirIdentity,
    /// The message's closing lines, after the conflicts (the release's own words).
    pub fix: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DefaultAgentDir {
    /// The entry marked `default`, if any; the check runs from two agents on.
    Marked,
    /// The marked entry, else the first entry, else `main`: always compared.
    Always,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AgentDirIdentity {
    /// `path.resolve` only.
    Lexical,
    /// The real path of the longest existing prefix, following dangling symlinks, plus the
    /// missing rest (`realpathAgentDir`): depends on the machine's filesystem.
    Realpath,
}

/// An agent's workspace when its entry sets none (`resolveAgentWorkspaceDir`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum WorkspaceLayout {
    /// The owner (legacy data owner, else the sole agent) gets `agents.defaults.workspace`, else
    /// `OPENCLAW_WORKSPACE_DIR`, `<state dir>/workspace` when `OPENCLAW_STATE_DIR` is set, or
    /// `~/.openclaw[-<profile>]/workspace`; any other agent `<agents.defaults.workspace>/<id>`,
    /// else `<state dir>/workspace-<id>`.
    DefaultsPerAgent,
    /// The default agent (marked, else first) gets `agents.defaults.workspace`, else
    /// `~/.openclaw/workspace[-<profile>]`; any other agent `<state dir>/workspace-<id>`.
    StatePerAgent,
}

/// One hand-written validation check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Refinement {
    /// `allow` and `alsoAllow` both set in one tool-policy scope.
    AllowWithAlsoAllow,
    /// The same, in channel groups (`channels.*.groups.*.tools`, `toolsBySender`).
    ChannelGroupToolPolicies,
    /// `tools.exec.mode` beside the legacy `security`/`ask`.
    ExecModeConflict,
    /// `agents.entries` non-empty, unique normalized ids, ownership or one `default` marker.
    AgentRoster,
    /// Agent ids named by heartbeat, system agent, talk and bindings are in the roster.
    AgentReferences,
    /// `McpServerSchema`: retired keys, `disabled`, per-requester OAuth, stdio without a command.
    McpServers,
    /// Sandbox binds, network modes and security profiles.
    SandboxSecurity,
    /// `channels.<id>` is a channel the release knows.
    ChannelIds,
    /// `dmPolicy: "open"` needs `"*"` in `allowFrom`.
    OpenDmPolicy,
    /// Loop-detection thresholds increase.
    LoopDetectionThresholds,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RosterForm {
    /// `agents.list[]`.
    List,
    /// `agents.entries.<id>`.
    Entries,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum BindSources {
    /// Absolute POSIX paths.
    Posix,
    /// Absolute POSIX paths or Windows drive-letter paths (`C:\…`, `C:/…`).
    PosixOrWindowsDrive,
}

impl BindSources {
    /// The release's own words for what it accepts, completing "Only … supported".
    pub fn supported(self) -> &'static str {
        match self {
            BindSources::Posix => "absolute POSIX paths are",
            BindSources::PosixOrWindowsDrive => "absolute POSIX or Windows drive-letter paths are",
        }
    }
}

impl ValidationRules {
    pub fn runs(&self, refinement: Refinement) -> bool {
        self.refinements.contains(&refinement)
    }
}
