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
