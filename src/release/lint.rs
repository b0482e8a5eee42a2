//! What lint needs to know of a release beyond the audit's lists (`data/<release>/lint.json`,
//! written by hand): the checks the release's `openclaw security audit` runs on a config, which
//! lint rules mirror, and how the audit and the release read the config where releases differ.

use std::collections::BTreeSet;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LintRules {
    pub release: String,
    pub about: String,
    /// The `checkId`s the release's audit reports from a config (`<provider>` templated): a lint
    /// rule that mirrors one applies where the release runs it.
    pub audit_checks: BTreeSet<String>,
    /// How the audit reads the gateway's credentials.
    pub credentials: Credentials,
    /// What a channel account's settings are, for the trust-model checks.
    pub account_settings: AccountSettings,
    /// How the audit names a model.
    pub model_ids: ModelIds,
    /// The model-size scan resumes one character after a size token and its separator (2026.2's
    /// global regex), so `7b-13b` counts only `7b`.
    pub size_scan_skips_separator: bool,
    /// How the audit decides that web search is configured when `tools.web.search.enabled` is unset.
    pub web_search: WebSearch,
    /// The small-models check resolves a model's tools with its `byProvider` policies.
    pub small_models_by_provider: bool,
    /// A small model outside an `all` sandbox is unsafe even when it reaches no risky tool.
    pub unsandboxed_small_models_unsafe: bool,
    /// What exec host `sandbox` does when the sandbox mode is off.
    pub host_sandbox_without_sandbox: HostSandboxWithoutSandbox,
    /// Safe-bin names lose a Windows executable suffix (`.exe`, `.cmd`, `.bat`, `.com`).
    pub safe_bin_names_drop_windows_suffix: bool,
    /// The state directory always holds the `main` agent's files, configured or not.
    pub main_agent_always_has_state: bool,
    /// An agent's credential stores under `agents/<id>/agent/`.
    pub agent_store_files: Vec<String>,
    /// `openclaw gateway` migrates a refused legacy config and rewrites the file at startup.
    pub gateway_migrates_refused_legacy: bool,
    /// A sub-agent `alsoAllow` is ignored unless the same scope has an `allow` list.
    pub subagent_also_allow_needs_allow: bool,
    /// Allowlist entries match the resolved executable path only: a bare name never matches.
    pub bare_allowlist_entries_never_match: bool,
    /// Where the audit reads plugin and hook install records.
    pub install_records: InstallRecords,
    /// How the audit lists and judges the plugins installed under `<state>/extensions`.
    pub installed_plugins: InstalledPlugins,
    /// How far the audit scans each agent workspace's `skills/` folder for `SKILL.md` files
    /// (absent: it does not scan them).
    #[serde(default)]
    pub workspace_skill_scan: Option<SkillScan>,
}

/// The bounds of the audit's breadth-first scan of a workspace's `skills/` folder.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SkillScan {
    /// It stops once this many `SKILL.md` files are found.
    pub max_files: usize,
    /// It visits at most this many folders per file of `max_files`.
    pub dir_visits_per_file: usize,
}

/// How the audit lists and judges the plugins installed under `<state>/extensions`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InstalledPlugins {
    /// Folder names (compared trimmed and lower-cased) the audit skips: these names, and names
    /// that start with, end with or contain these texts.
    pub skipped_names: Vec<String>,
    pub skipped_prefixes: Vec<String>,
    pub skipped_suffixes: Vec<String>,
    pub skipped_infixes: Vec<String>,
    /// The chat channels whose native skill commands make installed plugins without an
    /// allowlist critical, when configured.
    pub native_skill_channels: Vec<NativeSkillChannel>,
}

impl InstalledPlugins {
    /// Whether the audit skips a folder of this name.
    pub fn skips(&self, name: &str) -> bool {
        let name = crate::base::js::js_trim(name).to_lowercase();
        name.is_empty()
            || self.skipped_names.contains(&name)
            || self.skipped_prefixes.iter().any(|p| name.starts_with(p.as_str()))
            || self.skipped_suffixes.iter().any(|s| name.ends_with(s.as_str()))
            || self.skipped_infixes.iter().any(|i| name.contains(i.as_str()))
    }
}

/// A chat channel with native skill commands, as the audit decides it is configured.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NativeSkillChannel {
    pub channel: String,
    /// A non-blank string under one of these keys, in the channel or one of its accounts,
    /// configures it.
    pub token_keys: Vec<String>,
    /// So does a non-blank one of these variables.
    pub env_vars: Vec<String>,
    /// The commands are on when neither the channel nor `commands.nativeSkills` says (2026.2's
    /// audit asks a channel registry it has not loaded, so its default is off).
    pub native_skills_by_default: bool,
    /// `enabled: false` leaves the channel (or the account) unconfigured.
    pub off_when_disabled: bool,
    /// The environment's token counts only when `channels.<id>` is written.
    pub env_needs_section: bool,
}

/// Where the audit reads plugin and hook install records.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", tag = "from")]
pub enum InstallRecords {
    /// `plugins.installs` and `hooks.internal.installs` in the config.
    Config,
    /// The state database's machine state (`database`, under the state directory): the records of
    /// the installed plugin index (`plugins.installedIndex` → `index.installRecords`, refused as a
    /// whole when one record does not fit the release's schema) and `hooks.internal.installs`.
    StateDatabase { database: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Credentials {
    /// As the gateway resolves them: secret refs, `${VAR}`s left unresolved, the environment and
    /// `gateway.remote` (2026.9).
    Resolved,
    /// As written in `gateway.auth`, else the environment (2026.2).
    Written,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AccountSettings {
    /// The channel's settings, with the account's own over them.
    OverChannel,
    /// The account's own settings only.
    Own,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ModelIds {
    /// `resolveAuditModelId`: an alias gives its model, a bare id gets the default provider.
    Resolved,
    /// The id as written.
    AsWritten,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum WebSearch {
    /// A credential of any search provider, in the config or the environment.
    ProviderCredentials,
    /// `tools.web.search.apiKey`, `perplexity.apiKey` or a web-search variable of the environment.
    SearchKeys,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum HostSandboxWithoutSandbox {
    /// The call fails.
    FailsClosed,
    /// The command runs on the gateway host.
    RunsOnGateway,
}
