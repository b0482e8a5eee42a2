//! What a release's exec approvals do (`data/<release>/exec.json`): which analysis pipeline it
//! runs, its settings defaults and gateway rules, how it reads the approvals store and looks up
//! executables, its wrappers and their option grammars, safe bins and their profiles, trusted
//! directories, builtins, inline-eval flags and obfuscation patterns.
//!
//! Each field is a fact or, where the release's JavaScript does something else altogether, the
//! variant it follows; `src/exec` dispatches on these and names no version. A release whose exec
//! behaves like an existing one needs only its data file.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use super::patterns::Patterns;
use regex::Regex;
use serde::Deserialize;

/// A safe-bin argv profile: how many positionals and which flags `validateSafeBinArgv` accepts.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "camelCase")]
pub struct SafeBinProfile {
    #[serde(default)]
    pub min_positional: Option<usize>,
    #[serde(default)]
    pub max_positional: Option<usize>,
    #[serde(default)]
    pub allowed_value_flags: BTreeSet<String>,
    #[serde(default)]
    pub allowed_boolean_flags: BTreeSet<String>,
    #[serde(default)]
    pub denied_flags: BTreeSet<String>,
}

/// The exec-approval behaviour and constants of one release.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecRules {
    /// Which analysis and gateway composition the release runs.
    pub pipeline: Pipeline,
    pub settings: SettingsRules,
    pub gateway: GatewayRules,
    pub approvals: ApprovalsRules,
    pub lookup: LookupRules,
    pub safe_bin_args: SafeBinArgRules,
    pub wrappers: WrapperRules,
    pub default_safe_bins: Vec<String>,
    /// Names the semantic gate always rejects as safe bins (2026.9: jq, sed, awk family).
    #[serde(default)]
    pub never_safe_bins: BTreeSet<String>,
    /// Safe bins refused when a positional matches one of these patterns (2026.6's jq: a program
    /// that reads `env` or `$ENV`; `validateSafeBinSemantics`).
    #[serde(default)]
    pub safe_bin_positional_deny: BTreeMap<String, Patterns>,
    pub base_trusted_dirs: Vec<String>,
    /// Builtins accepted without an allowlist entry (2026.9 only).
    #[serde(default)]
    pub safe_builtins: BTreeSet<String>,
    /// The pinned gateway command rewrites a safe builtin to its resolved path like any other
    /// executable (2026.7); 2026.9 leaves safe builtins as written.
    #[serde(default)]
    pub pins_safe_builtins: bool,
    pub safe_bin_profiles: BTreeMap<String, SafeBinProfile>,
    /// Interpreter inline-eval flags (2026.9 strict inline eval, `risks.ts`).
    #[serde(default)]
    pub inline_eval_specs: Vec<InlineEvalSpec>,
    /// An interpreter is also found by its name without a version suffix (`python3.12`,
    /// `node20`; 2026.7, absent: true); 2026.6 compares names exactly.
    #[serde(default = "true_unless_written")]
    pub inline_eval_name_variants: bool,
    /// Interpreters whose first positional is code (awk, sed) or a command (xargs).
    #[serde(default)]
    pub positional_inline_eval_specs: Vec<PositionalEvalSpec>,
    /// 2026.2's obfuscation detector.
    #[serde(default)]
    pub obfuscation_patterns: Vec<ObfuscationPattern>,
    #[serde(default)]
    pub obfuscation_suppressions: Vec<ObfuscationSuppression>,
    /// Who may switch a session to elevated exec.
    pub elevated: super::elevated::ElevatedRules,
    /// How the `chainSplitter` pipeline analyses a chain and matches the allowlist (releases
    /// with that pipeline only).
    #[serde(default)]
    pub chain_splitter: Option<ChainSplitterRules>,
    /// How a release without the chain splitter matches the allowlist (absent:
    /// `globsWithGeneratedEntries`, 2026.9's; 2026.6: `globs`).
    #[serde(default, rename = "allowlistMatch")]
    plan_allowlist_match: Option<AllowlistMatch>,
    #[serde(skip)]
    compiled_obfuscation: OnceLock<CompiledObfuscation>,
}

/// The obfuscation detector's patterns, compiled.
#[derive(Debug)]
pub struct CompiledObfuscation {
    /// (id, description, pattern).
    pub patterns: Vec<(String, String, Regex)>,
    /// (ids suppressed, pattern).
    pub suppressions: Vec<(Vec<String>, Regex)>,
}

impl ExecRules {
    /// The obfuscation patterns and suppressions, compiled on first use.
    pub fn obfuscation(&self) -> &CompiledObfuscation {
        self.compiled_obfuscation.get_or_init(|| {
            let compile = |regex: &str| Regex::new(regex).expect("bundled obfuscation regex");
            CompiledObfuscation {
                patterns: self
                    .obfuscation_patterns
                    .iter()
                    .map(|p| (p.id.clone(), p.description.clone(), compile(&p.regex)))
                    .collect(),
                suppressions: self
                    .obfuscation_suppressions
                    .iter()
                    .map(|s| (s.suppresses.clone(), compile(&s.regex)))
                    .collect(),
            }
        })
    }
}

/// The analysis and gateway composition of a release, each implemented under `src/exec`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Pipeline {
    /// tree-sitter analysis, an authorization plan, pinned commands, strict inline eval
    /// (2026.9: `exec/v2026_9`).
    TreeSitterPlan,
    /// The hand-written chain and pipeline splitter that stops at the first miss, the
    /// single-quoted enforced command, the obfuscation detector (2026.2: `exec/v2026_2`).
    ChainSplitter,
    /// The same splitter's analysis, its single-quoted command enforced, under 2026.9's gateway
    /// approval gates (2026.5: `exec/v2026_5`).
    SplitterWithApprovalGates,
}

/// Where releases with the hand-written chain splitter differ (`evaluateShellAllowlist`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChainSplitterRules {
    /// Every chain part is analysed before any is evaluated, so a part that does not parse fails
    /// the whole command even after a miss (2026.5); 2026.2 analyses a part only on reaching it.
    pub analyses_every_part: bool,
    /// An unquoted `#` at the start of a word starts a comment (2026.5); 2026.2 keeps it a word.
    pub shell_comments: bool,
    /// An unquoted heredoc body is read in logical lines (backslash continuations joined), each
    /// refused for any shell expansion (`$HOME`, `$1`, `$[…]`; 2026.5); 2026.2 reads single
    /// lines and refuses command substitution (`$(`, `${`, backquotes) only.
    pub heredoc_logical_lines: bool,
    pub allowlist_match: AllowlistMatch,
}

/// How an executable is matched against the allowlist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AllowlistMatch {
    /// Path patterns only, through 2026.2's unescaped, case-insensitive regex (`match_v2`).
    RegexBug,
    /// Path patterns only, as escaped, case-sensitive globs, against the command or the script
    /// a shell wrapper runs (2026.3's `matchAllowlist`: bare names and argPatterns are not read,
    /// a shell wrapper's inline chain is not looked into).
    PathGlobs,
    /// Path globs against the real path, bare-name globs for PATH-invoked commands, argPattern
    /// over path-only matches (2026.5's `matchAllowlist`: 2026.9's without its generated entries).
    Globs,
    /// Path globs against the resolved path (not the real one), bare-name globs; the first
    /// match wins and argPattern counts on Windows only; a shell carrying an inline command
    /// matches as its own executable unless the command only runs its positional arguments, and
    /// its inline chain is read whatever the shell's startup options and reported as satisfied
    /// by the allowlist (2026.4's `matchAllowlist`, `resolveSegmentAllowlistMatch` and
    /// `evaluateShellWrapperInlineChain`).
    ExecutablePaths,
    /// The same, where an allow-always entry counts only through its bound argPattern (2026.9;
    /// the default of releases without a chain splitter).
    GlobsWithGeneratedEntries,
}

impl ExecRules {
    /// Whether a positional of safe bin `name` matches a pattern that refuses it.
    pub fn refuses_positionals(&self, name: &str, positional: &[String]) -> bool {
        let denied = self.safe_bin_positional_deny.get(name);
        denied.is_some_and(|patterns| positional.iter().any(|t| patterns.any_match(t)))
    }

    /// How the release matches an executable against the allowlist.
    pub fn allowlist_match(&self) -> AllowlistMatch {
        self.chain_splitter
            .as_ref()
            .map(|r| r.allowlist_match)
            .or(self.plan_allowlist_match)
            .unwrap_or(AllowlistMatch::GlobsWithGeneratedEntries)
    }
}

/// How `tools.exec` is read (`resolveExecPolicy` and friends).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SettingsRules {
    /// `tools.exec.host` when unset.
    pub default_host: String,
    /// `tools.exec.security` when unset on a host other than `sandbox` (which defaults to `deny`).
    pub default_security: String,
    pub default_ask: String,
    /// `tools.exec.mode` presets are read (and refused beside `security`/`ask` in one object).
    pub modes: bool,
    /// `tools.exec.strictInlineEval` is read.
    pub strict_inline_eval: bool,
    /// `tools.exec.mode: "auto"` puts a model-backed reviewer (`tools.exec.reviewer`) between a
    /// call that would ask and the human, for commands of at most this many segments; absent:
    /// the release has no reviewer.
    #[serde(default)]
    pub auto_review_max_candidates: Option<usize>,
}

/// The gateway's decision around the analysis (`processGatewayAllowlist` and its callers).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GatewayRules {
    /// The values `tools.exec.host` may take.
    pub hosts: Vec<String>,
    /// What host `sandbox` does in a session without a sandbox runtime.
    pub sandbox_unavailable: SandboxUnavailable,
    /// An explicitly configured `security: deny` denies even inside the sandbox.
    pub sandbox_honours_deny: bool,
    /// `askFallback` is capped by the effective security (`minSecurity`).
    pub ask_fallback_capped_by_security: bool,
    /// An approvals file whose agent `ask` resolves to `off` switches asking off, whatever the
    /// config asks (2026.3); otherwise the stricter of the two wins.
    #[serde(default)]
    pub approvals_ask_off_wins: bool,
    pub elevated_full: ElevatedFull,
    /// A command that edits `security.audit.suppressions` needs approval unless exec runs
    /// full/off (2026.5 and later; 2026.4 has no such gate).
    #[serde(default = "gate_on")]
    pub audit_suppression_gate: bool,
}

fn gate_on() -> bool {
    true
}

/// Host `sandbox` without a sandbox runtime: configured, and by default.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SandboxUnavailable {
    pub configured: NoSandbox,
    pub by_default: NoSandbox,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NoSandbox {
    /// The call fails with this message.
    Refuse(String),
    /// The command runs on the gateway host without exec approvals.
    RunOnGateway,
}

/// What `/elevated full` does to exec approvals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ElevatedFull {
    /// Bypassed only when both the requested policy and the host document are full/off.
    BypassesWhenFullOff,
    /// Always bypassed: full/off, no allowlist step.
    Bypasses,
}

/// The host approvals store.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApprovalsRules {
    /// Where the release keeps it.
    pub store: ApprovalsStore,
    /// What an unreadable or invalid stored document does.
    pub invalid_document: InvalidDocument,
    /// The `askFallback` when the document sets none (`deny`; 2026.5: `full`, which its cap by
    /// the effective security turns into that security).
    pub default_ask_fallback: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApprovalsStore {
    pub format: StoreFormat,
    pub under: StoreDir,
    /// The path below that folder.
    pub path: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum StoreFormat {
    /// A SQLite database, row `exec_approvals_config` / `current`.
    Sqlite,
    /// A JSON file.
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum StoreDir {
    /// The state directory (`OPENCLAW_STATE_DIR`, `~/.openclaw`, legacy folders).
    StateDir,
    /// The OpenClaw home (`~`).
    Home,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum InvalidDocument {
    /// Checked against a strict schema; anything unreadable fails closed (deny every host exec).
    FailClosed,
    /// Read loosely; an unreadable document reads as empty.
    ReadAsEmpty,
}

/// How an executable is found (`resolveExecutablePath`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LookupRules {
    /// An empty `PATH` entry is the working directory (else it is skipped).
    pub empty_path_entry_is_cwd: bool,
    /// The real path of a found executable is computed (allowlists and safe bins trust it).
    pub realpath: bool,
}

/// How safe-bin arguments are validated (`validateSafeBinArgv`) and trusted directories found.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SafeBinArgRules {
    /// A `$` expansion in a value or positional is refused.
    pub reject_expansions: bool,
    pub short_clusters: ShortClusters,
    /// The real path's folder of each safe bin found in a trusted folder is trusted too.
    pub trust_realpath_parents: bool,
}

/// How a cluster of short options (`-nc`) is validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ShortClusters {
    /// Boolean flags are allowed; an unknown letter refuses the cluster.
    BooleanFlags,
    /// There are no boolean flags: unknown letters are passed over looking for a value flag, and
    /// a cluster without one is refused.
    NeedValueFlag,
}

/// Wrappers the release looks through or refuses (`resolveExecWrapperTrustPlan`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WrapperRules {
    /// How many wrappers deep it unwraps.
    pub max_depth: usize,
    /// Dispatch wrappers that always block (sudo, chroot, …).
    pub blocked: BTreeSet<String>,
    /// Dispatch wrappers unwrapped by their option grammar.
    pub dispatch: BTreeMap<String, DispatchWrapper>,
    pub env: EnvWrapper,
    /// `command`, `builtin`, `exec`: unwrapped as shell argv carriers (none: not unwrapped).
    pub shell_argv_carriers: Vec<String>,
    /// `busybox`, `toybox`: unwrapped when their applet is a shell (none: not unwrapped).
    pub multiplexers: Vec<String>,
    /// The POSIX shells the release knows as shell wrappers (`POSIX_SHELL_WRAPPER_NAMES`); a name
    /// it does not list runs as a plain program. Absent: 2026.9's fifteen.
    #[serde(default = "posix_shells_2026_9")]
    pub posix_shells: Vec<String>,
    /// A blocked dispatch wrapper (`sudo ls $HOME`) counts as a command carrier, whose step only
    /// prompts, so a shell expansion in its arguments does not fail the analysis (2026.8; absent:
    /// true). 2026.7 fails it.
    #[serde(default = "true_unless_written")]
    pub blocked_wrapper_carries: bool,
    /// A package-manager exec that changes its package context (`npx -p …`, `pnpm --filter …`)
    /// is not seen through (2026.7; absent: true); 2026.6 matches the tool it runs.
    #[serde(default = "true_unless_written")]
    pub package_context_blocks: bool,
    /// Multiplexers the allow-always collector sees through where the analysis does not (2026.2's
    /// `unwrapKnownShellMultiplexerInvocation`); empty: the same as `multiplexers`.
    #[serde(default)]
    pub allow_always_multiplexers: Vec<String>,
}

/// The later releases' behaviour, for the switches an older pack writes `false`.
fn true_unless_written() -> bool {
    true
}

fn posix_shells_2026_9() -> Vec<String> {
    ["ash", "bash", "csh", "dash", "elvish", "fish", "ksh", "mksh", "nu", "osh", "sh", "tcsh", "xonsh", "yash", "zsh"]
        .map(String::from)
        .to_vec()
}

/// A dispatch wrapper read by its option grammar.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DispatchWrapper {
    pub options: OptionTable,
    /// Operands between the options and the command (timeout's DURATION, flock's lock file).
    #[serde(default)]
    pub operands_before_command: usize,
    /// The command may not look like an option (flock).
    #[serde(default)]
    pub command_not_an_option: bool,
    /// Options that make the wrapper do more than run the command (`time -o FILE` writes a
    /// file): the wrapper then blocks.
    #[serde(default)]
    pub semantic_options: Vec<String>,
}

/// `env`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EnvWrapper {
    pub reading: EnvReading,
    pub options: OptionTable,
    /// `-S`/`--split-string`: the value is split into the command (prelude reading only).
    #[serde(default)]
    pub split_string: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum EnvReading {
    /// `parseEnvInvocationPrelude`: tokens as written, short options in clusters, `-S` payloads
    /// re-split; any option or assignment makes it a modifier (2026.9).
    Prelude,
    /// The dispatch-wrapper scan with `--` and `-` as separators; assignments pass (2026.2).
    WrapperScan,
}

/// How an [`OptionTable`] compares tokens with its names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Case {
    /// Lower-cased first; the table's names are lower-case.
    #[default]
    Insensitive,
    /// As written.
    Sensitive,
    /// Long options lower-cased, short options as written (`flock -F` is not `-f`).
    ShortSensitive,
}

/// An option grammar as a table: standalone options and options with a value, compared by name
/// (the part before `=`), the value inline after `=` or in the next token. Read by the exec
/// option scanner (`exec::argv::scan`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OptionTable {
    #[serde(default)]
    pub flags: Vec<String>,
    #[serde(default)]
    pub value_flags: Vec<String>,
    #[serde(default)]
    pub case: Case,
    /// Short value options whose value may follow without a space (`nice -n5`).
    #[serde(default)]
    pub attached_values: bool,
    /// `-<digits>` is an option (`nice -5`).
    #[serde(default)]
    pub numeric_flags: bool,
    /// A cluster of standalone short options is an option (`flock -nx`).
    #[serde(default)]
    pub flag_clusters: bool,
    /// A standalone option matches only as written, never with `=…` after it (`nohup --help`).
    #[serde(default)]
    pub exact_flags: bool,
}

/// A `-c`-style short flag that may follow a cluster of harmless option letters (`python3 -Ic`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterFlag {
    pub label: String,
    pub flag: String,
    pub prefix_chars: Vec<String>,
    #[serde(default)]
    pub allow_numeric_record_separator: bool,
    #[serde(default)]
    pub numeric_value_prefix_chars: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct LabelledFlag {
    pub label: String,
    #[serde(default)]
    pub prefix: String,
    #[serde(default)]
    pub full: String,
    #[serde(default)]
    pub min: String,
}

/// How one interpreter family takes inline code on the command line.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InlineEvalSpec {
    pub names: Vec<String>,
    pub exact_flags: Vec<String>,
    #[serde(default)]
    pub short_cluster_flags: Vec<ClusterFlag>,
    #[serde(default)]
    pub abbreviated_flags: Vec<LabelledFlag>,
    #[serde(default)]
    pub prefix_flags: Vec<LabelledFlag>,
    #[serde(default)]
    pub raw_exact_flags: BTreeMap<String, String>,
    #[serde(default)]
    pub raw_prefix_flags: Vec<LabelledFlag>,
    /// `None` = the exact flags also match joined (`-eCODE`); `Some([])` = never joined.
    #[serde(default)]
    pub joined_exact_flags: Option<Vec<String>>,
    #[serde(default)]
    pub joined_flag_deny_exact: Vec<String>,
    #[serde(default)]
    pub joined_flag_deny_prefixes: Vec<String>,
    #[serde(default)]
    pub scan_past_double_dash: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionalEvalSpec {
    pub names: Vec<String>,
    #[serde(default)]
    pub file_flags: Vec<String>,
    #[serde(default)]
    pub file_flag_prefixes: Vec<String>,
    #[serde(default)]
    pub exact_value_flags: Vec<String>,
    #[serde(default)]
    pub exact_optional_value_flags: Vec<String>,
    #[serde(default)]
    pub prefix_value_flags: Vec<String>,
    pub flag: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ObfuscationPattern {
    pub id: String,
    pub description: String,
    pub regex: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ObfuscationSuppression {
    pub suppresses: Vec<String>,
    pub regex: String,
}

#[cfg(test)]
mod tests {
    use crate::OpenClawVersion;

    #[test]
    fn both_releases_parse() {
        for v in OpenClawVersion::ALL {
            let d = v.exec();
            assert!(d.safe_bin_profiles.contains_key("head"));
            assert!(!d.default_safe_bins.is_empty());
        }
        assert!(OpenClawVersion::V2026_9.exec().never_safe_bins.contains("jq"));
        assert!(OpenClawVersion::V2026_2.exec().default_safe_bins.contains(&"jq".to_string()));
    }
}
