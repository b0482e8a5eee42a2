//! Exec and approvals: the exec checks of `openclaw security audit` (security, host/sandbox
//! mismatch, safe bins, trusted dirs, elevated allowlists, the approvals store), plus the exec
//! problems the audit misses (security left unset, approvals that contradict the tool policy,
//! allowlist entries that never match).

use crate::lint::registry::Applies;
use crate::release::lint::HostSandboxWithoutSandbox;
use serde_json::Value;

use super::audit::{ExecScope, exec_scopes, lists, normalize_posix, open_exec_surface_paths, string_entries};
use super::walk::agents;
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::config::view::agents::roster;
use crate::config::view::elevated::{ElevatedBlock, first_set};
use crate::config::view::keys;
use crate::config::view::located::switched_off;
use crate::exec::approvals::{LoadedApprovals, resolve_for_agent};
use crate::exec::posture::{Security, Source};
use crate::exec::satisfy::safe_bins::unprofiled_bins;
use crate::exec::v2026_9::inline_eval::is_interpreter_allowlist_pattern;
use crate::lint::{Category, Emitter, LintContext, Rule, Severity};

pub const RULES: &[Rule] = &[
    Rule {
        code: "CP401",
        name: "exec-security-full",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "Exec security `full` is configured (explicitly, or through `mode: \"full\"`).",
        why: "Full exec runs any shell command the model asks for, without an allowlist or a prompt. When any \
              channel is open to strangers the audit rates it critical: one prompt injection is a shell on the host.",
        example: "tools: { exec: { mode: \"full\" } }",
        fix: "Use `mode: \"ask\"` or `\"allowlist\"`; keep `full` for tightly scoped break-glass agents.",
        openclaw_check: Some("tools.exec.security_full_configured"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: security_full,
    },
    Rule {
        code: "CP402",
        name: "exec-host-sandbox-without-sandbox",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "`tools.exec.host` is `sandbox` while the default sandbox mode is `off`.",
        why: "There is no sandbox to run in: 2026.9 fails every exec call closed, 2026.2 runs the command directly \
              on the gateway host.",
        example: "tools: { exec: { host: \"sandbox\" } }",
        fix: "Enable `agents.defaults.sandbox.mode` (`non-main` or `all`), or set the host to `gateway` with approvals.",
        openclaw_check: Some("tools.exec.host_sandbox_no_sandbox_defaults"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: host_sandbox_defaults,
    },
    Rule {
        code: "CP403",
        name: "agent-exec-host-sandbox-without-sandbox",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "An agent sets its own exec host to `sandbox` while its sandbox mode is `off`.",
        why: "Same as CP402 for one agent: its exec calls fail closed (2026.9) or run on the host (2026.2).",
        example: "// OpenClaw 2026.9, 2026.8:\nagents: { entries: { ops: { sandbox: { mode: \"off\" }, tools: { exec: { host: \"sandbox\" } } } } }\n\
                  // OpenClaw 2026.7, 2026.6, 2026.5, 2026.4, 2026.3, 2026.2:\nagents: { list: [{ id: \"ops\", sandbox: { mode: \"off\" }, tools: { exec: { host: \"sandbox\" } } }] }",
        fix: "Enable the agent's `sandbox.mode`, or set its exec host to `gateway`.",
        openclaw_check: Some("tools.exec.host_sandbox_no_sandbox_agents"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: host_sandbox_agents,
    },
    Rule {
        code: "CP404",
        name: "exec-despite-read-only-fs",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "`write`, `edit` and `apply_patch` are all unavailable but `exec` is allowed, outside a read-only \
                  sandbox.",
        why: "Denying the file tools does not make an agent read-only: exec is a shell and writes wherever the host \
              or the sandbox filesystem lets it.",
        example: "tools: { profile: \"coding\", deny: [\"write\", \"edit\", \"apply_patch\"] }",
        fix: "Deny `exec` and `process` too for read-only agents, or run them in sandbox mode `all` with \
              `workspaceAccess` `ro` or `none`.",
        openclaw_check: Some("tools.exec.fs_tools_disabled_but_exec_enabled"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: exec_despite_read_only_fs,
    },
    Rule {
        code: "CP405",
        name: "safe-bin-interpreter-unprofiled",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "`safeBins` lists an interpreter (python3, node, bash, …) without a `safeBinProfiles` entry.",
        why: "A safe bin runs without approval; an interpreter with a permissive argv profile runs any program.",
        example: "tools: { exec: { safeBins: [\"python3\"] } }",
        fix: "Remove interpreters from `safeBins` (allowlist them instead), or define a hardened \
              `safeBinProfiles.<bin>`.",
        openclaw_check: Some("tools.exec.safe_bins_interpreter_unprofiled"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: safe_bins_interpreters,
    },
    Rule {
        code: "CP406",
        name: "safe-bin-broad-behavior",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "`safeBins` lists a binary with broad semantics (jq, sed, awk family).",
        why: "These can run commands, read the environment or write files, which does not fit the low-risk \
              stdin-filter fast path; 2026.9 refuses them as safe bins anyway.",
        example: "tools: { exec: { safeBins: [\"jq\"] } }",
        fix: "Remove them from `safeBins`; use allowlist entries or approval-gated runs.",
        openclaw_check: Some("tools.exec.safe_bins_broad_behavior"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: safe_bins_broad,
    },
    Rule {
        code: "CP407",
        name: "safe-bin-trusted-dir-risky",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "`safeBinTrustedDirs` trusts a mutable directory (relative, temp, home, package-manager bin).",
        why: "A safe bin is trusted by where it lives; anyone who can write that directory can plant a binary that \
              runs without approval.",
        example: "tools: { exec: { safeBinTrustedDirs: [\"/tmp/bin\"] } }",
        fix: "Keep root-owned immutable directories (`/bin`, `/usr/bin`); avoid temp, home and package-manager paths.",
        openclaw_check: Some("tools.exec.safe_bin_trusted_dirs_risky"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: trusted_dirs,
    },
    Rule {
        code: "CP408",
        name: "elevated-allow-from-wildcard",
        severity: Severity::Error,
        category: Category::Exec,
        summary: "`tools.elevated.allowFrom.<channel>` contains `\"*\"`.",
        why: "Everyone on that channel may switch a session to elevated exec on the host.",
        example: "tools: { elevated: { allowFrom: { telegram: [\"*\"] } } }",
        fix: "List the sender ids that need elevated mode, or disable it (`tools.elevated.enabled: false`).",
        openclaw_check: Some("tools.elevated.allowFrom.<provider>.wildcard"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: |ctx, out| elevated_allow_from(ctx, out, ElevatedProblem::Wildcard),
    },
    Rule {
        code: "CP409",
        name: "elevated-allow-from-large",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "`tools.elevated.allowFrom.<channel>` has more than 25 entries.",
        why: "Elevated mode runs exec on the host; a long list of senders is hard to keep trustworthy.",
        example: "tools: { elevated: { allowFrom: { discord: [\
                  \"1001\", \"1002\", \"1003\", \"1004\", \"1005\", \"1006\", \"1007\", \"1008\", \"1009\", \"1010\", \"1011\", \"1012\", \"1013\", \"1014\", \"1015\", \"1016\", \"1017\", \"1018\", \"1019\", \"1020\", \"1021\", \"1022\", \"1023\", \"1024\", \"1025\", \"1026\"] } } }",
        fix: "Trim the list to the people who need elevated mode.",
        openclaw_check: Some("tools.elevated.allowFrom.<provider>.large"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: |ctx, out| elevated_allow_from(ctx, out, ElevatedProblem::Large),
    },
    Rule {
        code: "CP410",
        name: "exec-security-unset",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "An agent can use exec on the gateway or a node host, and no `security`/`mode` is set anywhere: the \
                  runtime default is `full`.",
        why: "OpenClaw 2026.9 runs unsandboxed exec with security `full` and ask `off` when nothing is configured \
              (implicit YOLO). Its own audit treats an unset security as `deny`, so it says nothing.",
        example: "tools: { exec: { host: \"gateway\" } }",
        fix: "Set `tools.exec.mode` (`ask` or `allowlist`), or deny `exec` for agents that do not need a shell.",
        openclaw_check: None,
        applies: Applies::When(|release| {
            release.exec().settings.default_security == "full" && release.exec().settings.default_ask == "off"
        }),
        needs_valid_config: true,
        check: security_unset,
    },
    Rule {
        code: "CP411",
        name: "approvals-auto-allow-skills",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "The exec approvals store enables `autoAllowSkills`.",
        why: "Every skill's binaries become implicitly allowlisted, widening host exec trust beyond the entries you \
              reviewed.",
        example: "// exec approvals store: { \"version\": 1, \"defaults\": { \"autoAllowSkills\": true } }",
        fix: "Disable `autoAllowSkills` (`openclaw approvals`) and keep manual allowlists tight.",
        openclaw_check: Some("tools.exec.auto_allow_skills_enabled"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: false,
        check: auto_allow_skills,
    },
    Rule {
        code: "CP412",
        name: "approvals-interpreter-without-strict-inline-eval",
        severity: Severity::Security,
        category: Category::Exec,
        summary: "An approvals allowlist entry names an interpreter (python, node, ruby, awk, …) while \
                  `strictInlineEval` is off for that agent.",
        why: "An allowlisted interpreter runs `python3 -c '…'` or `node -e '…'` without approval: the allowlist \
              entry becomes a shell.",
        example: "tools: { exec: { security: \"allowlist\" } }\n// exec approvals store: { \"version\": 1, \"agents\": { \"main\": \
                  { \"allowlist\": [{ \"pattern\": \"/usr/bin/python3\" }] } } }",
        fix: "Set `tools.exec.strictInlineEval: true` (globally or for the agent).",
        openclaw_check: Some("tools.exec.allowlist_interpreter_without_strict_inline_eval"),
        applies: Applies::WhereAuditRuns,
        needs_valid_config: true,
        check: interpreter_allowlist,
    },
    Rule {
        code: "CP413",
        name: "approvals-entry-never-matches",
        severity: Severity::Warning,
        category: Category::Exec,
        summary: "An approvals allowlist entry 2026.2 can never match: a bare command name, or a pattern its \
                  matcher cannot compile.",
        why: "2026.2 matches allowlist entries against the resolved executable path only, so `git` never matches \
              (write `/usr/bin/git`); a pattern with regex metacharacters such as `g++` makes matching fail.",
        example: "// exec approvals store: { \"version\": 1, \"agents\": { \"main\": { \"allowlist\": \
                  [{ \"pattern\": \"git\" }] } } }",
        fix: "Write the absolute path (or a path glob such as `/usr/bin/git`, `~/bin/*`).",
        openclaw_check: None,
        applies: Applies::When(|release| release.lint().bare_allowlist_entries_never_match),
        needs_valid_config: false,
        check: never_matching_entries,
    },
    Rule {
        code: "CP414",
        name: "exec-denied-by-approvals",
        severity: Severity::Warning,
        category: Category::Exec,
        summary: "The tool policy gives an agent `exec`, but the approvals store resolves its security to `deny`.",
        why: "The host approvals store is a floor: every exec call is refused, so the model sees a tool that never \
              works (and retries).",
        example: "tools: { exec: { security: \"allowlist\" } }\n// exec approvals store: { \"version\": 1, \"defaults\": \
                  { \"security\": \"deny\" } }",
        fix: "Deny `exec` in the tool policy for that agent, or loosen the agent's entry in the approvals store.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: true,
        check: denied_by_approvals,
    },
    Rule {
        code: "CP417",
        name: "elevated-agent-list-missing-channel",
        severity: Severity::Warning,
        category: Category::Exec,
        summary: "An agent's `tools.elevated.allowFrom` has no list for a channel the global `allowFrom` admits \
                  senders on.",
        why: "Once an agent has an `allowFrom` at all, a sender needs a match in both lists; a channel the agent's \
              map leaves out admits nobody, so `/elevated` is refused there although the global list names the \
              sender.",
        example: "tools: { elevated: { allowFrom: { telegram: [\"tg:123\"] } } },\nagents: { list: [{ id: \"main\", \
                  tools: { elevated: { allowFrom: { discord: [\"456\"] } } } }] }",
        fix: "Add the channel's list to the agent's `allowFrom`, or delete the agent's `allowFrom` to follow the \
              global lists.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: true,
        check: elevated_agent_lists,
    },
    Rule {
        code: "CP419",
        name: "safe-bin-without-profile",
        severity: Severity::Warning,
        category: Category::Exec,
        summary: "`safeBins` lists a binary that has no profile, neither the release's own nor a \
                  `safeBinProfiles` entry: OpenClaw ignores it.",
        why: "A safe bin runs without approval only when its profile says which flags and arguments are safe. \
              OpenClaw drops an entry without one (`exec: ignoring unprofiled safeBins entry …`), so the commands \
              it was meant to let through still ask for approval, or are refused where nobody can answer.",
        example: "tools: { exec: { safeBins: [\"git\"] } }",
        fix: "Allowlist the binary instead, or define `safeBinProfiles.<bin>` with the flags and positionals it \
              may take.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: true,
        check: safe_bins_without_profile,
    },
];

/// CP417: channels the global elevated lists admit senders on that an agent's own map leaves out.
fn elevated_agent_lists(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let config = ctx.config();
    let global = ElevatedBlock::global(config);
    if switched_off(global.enabled().as_ref()) {
        return;
    }
    let admitted: Vec<&String> = global
        .allow_from()
        .and_then(|l| l.as_object())
        .into_iter()
        .flatten()
        .filter(|(_, list)| !string_entries(Some(list)).is_empty())
        .map(|(channel, _)| channel)
        .collect();
    let rules = &ctx.version.exec().elevated;
    for entry in roster(config, ctx.version) {
        let block = ElevatedBlock::of_agent(&entry);
        let Some(own) = block.allow_from().filter(|l| !switched_off(block.enabled().as_ref()) && l.value.is_object())
        else {
            continue;
        };
        for channel in &admitted {
            let fallback = rules.channels.get(channel.as_str()).and_then(|c| first_set(config, &c.fallback_allow_from));
            if own.value.get(channel.as_str()).is_some_and(Value::is_array)
                || fallback.is_some_and(|l| l.value.is_array())
            {
                continue;
            }
            out.report(
                &own.path,
                format!(
                    "agent {} refuses elevated mode on {channel}: its `allowFrom` has no `{channel}` list",
                    entry.id()
                ),
            )
            .agent(entry.id())
            .help(format!("add a `{channel}` list to `{}`, or delete it to follow the global lists", own.path));
        }
    }
}

fn security_full(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let open = open_exec_surface_paths(ctx);
    for scope in exec_scopes(ctx).into_iter().filter(|s| s.security == Security::Full) {
        let finding = out.report(&setting_path(ctx, &scope), format!("exec security is `full` for {}", scope.id));
        if open.is_empty() {
            finding.help("prefer `mode: \"ask\"` or `\"allowlist\"`; keep `full` for break-glass agents");
        } else {
            finding.severity(Severity::Error).help(format!(
                "open channels can reach it ({}); use `mode: \"ask\"` or `\"allowlist\"`",
                super::audit::preview(&open, 3)
            ));
        }
    }
}

/// The key that sets a scope's security (`mode` or `security`), or the exec object itself.
fn setting_path(ctx: &LintContext<'_>, scope: &ExecScope) -> KeyPath {
    [keys::MODE, keys::SECURITY]
        .into_iter()
        .map(|k| scope.path.key(k))
        .find(|p| p.lookup(ctx.config()).is_some())
        .unwrap_or_else(|| scope.path.clone())
}

fn host_sandbox_defaults(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let path = KeyPath::keys(&[keys::TOOLS, keys::EXEC, keys::HOST]);
    if path.lookup(ctx.config()).and_then(Value::as_str) != Some("sandbox") {
        return;
    }
    let defaults_mode =
        ctx.get(&[keys::AGENTS, keys::DEFAULTS, keys::SANDBOX, keys::MODE]).and_then(Value::as_str).unwrap_or("off");
    if defaults_mode == "off" {
        out.report(&path, "exec host is `sandbox` but `agents.defaults.sandbox.mode` is off")
            .help(consequence(ctx.version));
    }
}

fn consequence(version: OpenClawVersion) -> &'static str {
    match version.lint().host_sandbox_without_sandbox {
        HostSandboxWithoutSandbox::FailsClosed => {
            "exec fails closed without a sandbox: enable the sandbox mode or use host `gateway`"
        }
        HostSandboxWithoutSandbox::RunsOnGateway => {
            "exec runs directly on the gateway host: enable the sandbox mode or use host `gateway`"
        }
    }
}

fn host_sandbox_agents(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for agent in agents(ctx) {
        let Some(entry) = &agent.path else { continue };
        let path = entry.key(keys::TOOLS).key(keys::EXEC).key(keys::HOST);
        if path.lookup(ctx.config()).and_then(Value::as_str) != Some("sandbox") {
            continue;
        }
        if ctx.sandbox_mode(&agent.id).as_deref() == Some("off") {
            out.report(&path, format!("agent `{}` runs exec in a sandbox, but its sandbox mode is off", agent.id))
                .agent(&agent.id)
                .help(consequence(ctx.version));
        }
    }
}

fn exec_despite_read_only_fs(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let global_host = ctx.get(&[keys::TOOLS, keys::EXEC, keys::HOST]).and_then(Value::as_str);
    for context in ctx.tool_contexts() {
        let agent_host = context
            .agent_tools
            .as_ref()
            .and_then(|t| t.get(keys::EXEC).and_then(|e| e.get(keys::HOST)))
            .and_then(Value::as_str);
        let host = agent_host.or(global_host).unwrap_or("auto");
        let constrained =
            context.sandbox_mode == "all" && !matches!(host, "gateway" | "node") && context.workspace_access != "rw";
        if constrained || !context.allows("exec") || !context.allowed(&["write", "edit", "apply_patch"]).is_empty() {
            continue;
        }
        let finding = out.report(
            &context.path,
            format!(
                "{}: write, edit and apply_patch are unavailable but exec is allowed (host {host}, sandbox {}, \
                 workspaceAccess {})",
                context.label, context.sandbox_mode, context.workspace_access
            ),
        );
        finding.help("deny `exec` and `process` too, or use sandbox mode `all` with `workspaceAccess` `ro`/`none`");
        if let Some(agent) = &context.agent {
            finding.agent(agent);
        }
    }
}

/// `tools.exec` and each agent's `tools.exec`, with the agent id.
fn exec_blocks(ctx: &LintContext<'_>) -> Vec<(KeyPath, Option<String>)> {
    let mut blocks = vec![(KeyPath::keys(&[keys::TOOLS, keys::EXEC]), None)];
    for agent in agents(ctx) {
        if let Some(path) = &agent.path {
            blocks.push((path.key(keys::TOOLS).key(keys::EXEC), Some(agent.id.clone())));
        }
    }
    blocks
}

/// `normalizeSafeBinName`: the lower-case basename; 2026.9 also drops a Windows suffix
/// (`.exe`, `.cmd`, `.bat`, `.com`).
fn safe_bin_name(version: OpenClawVersion, raw: &str) -> String {
    let lower = raw.trim().to_lowercase();
    let base = lower.rsplit(['/', '\\']).next().unwrap_or_default();
    if version.lint().safe_bin_names_drop_windows_suffix {
        let stem = base.rsplit_once('.').filter(|(_, ext)| ["exe", "cmd", "bat", "com"].contains(ext));
        stem.map_or(base, |(stem, _)| stem).to_string()
    } else {
        base.to_string()
    }
}

/// `normalizeSafeBinProfileName`: profile keys are only trimmed and lower-cased, so a path key
/// (`/usr/bin/python3`) never profiles the bin `python3`.
fn profile_name(raw: &str) -> String {
    raw.trim().to_lowercase()
}

/// Whether a safe bin is interpreter-like (`isInterpreterLikeSafeBin`): a listed name, or
/// python/ruby/perl/php/node with a version suffix.
fn is_interpreter_safe_bin(version: OpenClawVersion, bin: &str) -> bool {
    if lists(version).interpreter_safe_bins.contains(bin) {
        return true;
    }
    ["python", "ruby", "perl", "php", "node"].iter().any(|stem| {
        bin.strip_prefix(stem).is_some_and(|rest| {
            let (major, minor) = rest.split_once('.').unwrap_or((rest, "0"));
            !major.is_empty()
                && major.chars().all(|c| c.is_ascii_digit())
                && !minor.is_empty()
                && minor.chars().all(|c| c.is_ascii_digit())
        })
    })
}

/// Each configured safe bin of a block with its path (trimmed, lower-cased, de-duplicated).
fn safe_bins(ctx: &LintContext<'_>, block: &KeyPath) -> Vec<(KeyPath, String)> {
    list_entries(ctx, &block.key(keys::SAFE_BINS))
}

/// The entries of a `safeBins` list by path, trimmed and lower-cased, each once.
fn list_entries(ctx: &LintContext<'_>, list: &KeyPath) -> Vec<(KeyPath, String)> {
    let mut seen = std::collections::BTreeSet::new();
    let items = list.lookup(ctx.config()).and_then(Value::as_array).into_iter().flatten().enumerate();
    items
        .filter_map(|(i, v)| Some((list.index(i), v.as_str()?.trim().to_lowercase())))
        .filter(|(_, bin)| !bin.is_empty() && seen.insert(bin.clone()))
        .collect()
}

fn safe_bins_interpreters(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let global_profiles = ctx.get(&[keys::TOOLS, keys::EXEC, keys::SAFE_BIN_PROFILES]).and_then(Value::as_object);
    for (block, agent) in exec_blocks(ctx) {
        let local_profiles = block.key(keys::SAFE_BIN_PROFILES).lookup(ctx.config()).and_then(Value::as_object);
        let profiled = |bin: &str| {
            let has = |p: Option<&serde_json::Map<String, Value>>| {
                p.is_some_and(|p| p.keys().any(|k| profile_name(k) == bin))
            };
            has(global_profiles) || has(local_profiles)
        };
        for (path, raw) in safe_bins(ctx, &block) {
            let bin = safe_bin_name(ctx.version, &raw);
            if !is_interpreter_safe_bin(ctx.version, &bin) || profiled(&bin) {
                continue;
            }
            let finding =
                out.report(&path, format!("`{bin}` is an interpreter listed as a safe bin without a profile"));
            finding.help(format!("remove it (allowlist it instead) or define `safeBinProfiles.{bin}`"));
            if let Some(agent) = &agent {
                finding.agent(agent);
            }
        }
    }
}

/// CP419: the safe bins of each agent's effective list (agent over global) that the exec
/// simulator's safe-bin policy finds without a profile (the same function), so `lint` and `exec` cannot disagree.
/// Interpreters are CP405's.
fn safe_bins_without_profile(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let mut reported = std::collections::HashSet::new();
    for agent in agents(ctx) {
        let requested = ctx.exec_settings(&agent.id);
        let Some(list) = &requested.safe_bins else { continue };
        let Source::Config(list_path) = &list.source else { continue };
        let unprofiled = unprofiled_bins(ctx.version.exec(), Some(&list.value), &requested.safe_bin_profiles);
        for (path, bin) in list_entries(ctx, list_path) {
            if !unprofiled.contains(&bin)
                || is_interpreter_safe_bin(ctx.version, &safe_bin_name(ctx.version, &bin))
                || !reported.insert(path.clone())
            {
                continue;
            }
            let finding = out.report(
                &path,
                format!("`{bin}` is listed as a safe bin without a profile, so OpenClaw ignores the entry"),
            );
            finding.help(format!("allowlist `{bin}` instead, or define `safeBinProfiles.{bin}`"));
            if agent.path.as_ref().is_some_and(|own| path.0.starts_with(&own.0)) {
                finding.agent(&agent.id);
            }
        }
    }
}

fn safe_bins_broad(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let broad = &lists(ctx.version).broad_safe_bins;
    for (block, agent) in exec_blocks(ctx) {
        for (path, raw) in safe_bins(ctx, &block) {
            let bin = safe_bin_name(ctx.version, &raw);
            let Some(warning) = broad.get(&bin) else { continue };
            let finding = out.report(&path, format!("`{bin}` has broader semantics than a stream filter"));
            finding.help(warning.clone());
            if let Some(agent) = &agent {
                finding.agent(agent);
            }
        }
    }
}

/// Why a trusted dir is risky (`classifyRiskySafeBinTrustedDir`), if it is.
fn risky_trusted_dir(raw: &str) -> Option<&'static str> {
    let raw = raw.trim();
    if raw.is_empty() {
        return None;
    }
    if !raw.starts_with('/') {
        return Some("a relative path: the trust boundary depends on the process working directory");
    }
    let normalized = normalize_posix(raw).to_lowercase();
    let under = |root: &str| normalized == root || normalized.starts_with(&format!("{root}/"));
    if ["/tmp", "/var/tmp", "/private/tmp"].iter().any(|r| under(r)) {
        return Some("a temporary directory is mutable and easy to poison");
    }
    if ["/usr/local/bin", "/opt/homebrew/bin", "/opt/local/bin", "/home/linuxbrew/.linuxbrew/bin"]
        .contains(&normalized.as_str())
    {
        return Some("a package-manager bin directory is often user-writable");
    }
    if normalized.starts_with("/users/") || normalized.starts_with("/home/") || normalized.contains("/.local/bin") {
        return Some("a home-scoped bin directory is typically user-writable");
    }
    None
}

fn trusted_dirs(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for (block, agent) in exec_blocks(ctx) {
        let list = block.key(keys::SAFE_BIN_TRUSTED_DIRS);
        let items = list.lookup(ctx.config()).and_then(Value::as_array).into_iter().flatten().enumerate();
        for (i, dir) in items.filter_map(|(i, v)| Some((i, v.as_str()?))) {
            let Some(reason) = risky_trusted_dir(dir) else { continue };
            let finding =
                out.report(&list.index(i), format!("`{}` is a risky trusted directory: {reason}", dir.trim()));
            finding.help("keep root-owned immutable directories such as /bin and /usr/bin");
            if let Some(agent) = &agent {
                finding.agent(agent);
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ElevatedProblem {
    Wildcard,
    Large,
}

fn elevated_allow_from(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>, problem: ElevatedProblem) {
    if ctx.get(&[keys::TOOLS, keys::ELEVATED, keys::ENABLED]) == Some(&Value::Bool(false)) {
        return;
    }
    let base = KeyPath::keys(&[keys::TOOLS, keys::ELEVATED, keys::ALLOW_FROM]);
    let large_over = lists(ctx.version).elevated_allow_from_large_over;
    for (provider, list) in base.lookup(ctx.config()).and_then(Value::as_object).into_iter().flatten() {
        let entries = string_entries(Some(list));
        let path = base.key(provider);
        let wildcard = entries.iter().any(|e| e == "*");
        match problem {
            ElevatedProblem::Wildcard if wildcard => {
                out.report(&path, format!("elevated mode is open to everyone on {provider} (`\"*\"`)"))
                    .check_id(format!("tools.elevated.allowFrom.{provider}.wildcard"))
                    .help("list the sender ids that need elevated mode");
            }
            ElevatedProblem::Large if !wildcard && entries.len() > large_over => {
                out.report(&path, format!("elevated mode is open to {} senders on {provider}", entries.len()))
                    .check_id(format!("tools.elevated.allowFrom.{provider}.large"))
                    .help("trim the list to the people who need elevated mode");
            }
            _ => {}
        }
    }
}

fn security_unset(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for agent in agents(ctx) {
        let requested = ctx.exec_settings(&agent.id);
        if requested.security.source != Source::Default || requested.security.value != Security::Full {
            continue;
        }
        let Some(resolution) = ctx.main_resolution(&agent.id) else { continue };
        let host = requested.host.value.as_str();
        let on_host = matches!(host, "gateway" | "node") || (host == "auto" && !resolution.sandbox.sandboxed);
        if !on_host || !resolution.tools.iter().any(|t| t == "exec") {
            continue;
        }
        let exec_path = match &agent.path {
            Some(path) if path.key(keys::TOOLS).key(keys::EXEC).lookup(ctx.config()).is_some() => {
                path.key(keys::TOOLS).key(keys::EXEC)
            }
            _ if ctx.get(&[keys::TOOLS, keys::EXEC]).is_some() => KeyPath::keys(&[keys::TOOLS, keys::EXEC]),
            Some(path) => path.clone(),
            None => KeyPath::keys(&[keys::TOOLS]),
        };
        out.report(
            &exec_path,
            format!(
                "agent `{}` runs exec on host `{host}` with no security set: the runtime default is `full` with no \
                 prompts",
                agent.id
            ),
        )
        .agent(&agent.id)
        .help("set `tools.exec.mode` to `ask` or `allowlist`, or deny `exec` for this agent");
    }
}

/// The store's location for messages, with the field inside it.
fn store_field(approvals: &LoadedApprovals, field: &str) -> String {
    format!("{}: {field}", approvals.locator)
}

fn auto_allow_skills(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(approvals) = ctx.approvals else { return };
    let doc = &approvals.document;
    let mut hits = Vec::new();
    if doc.pointer("/defaults/autoAllowSkills") == Some(&Value::Bool(true)) {
        hits.push("defaults.autoAllowSkills".to_string());
    }
    for (id, agent) in doc.get("agents").and_then(Value::as_object).into_iter().flatten() {
        if agent.get("autoAllowSkills") == Some(&Value::Bool(true)) {
            hits.push(format!("agents.{id}.autoAllowSkills"));
        }
    }
    for hit in hits {
        out.report_global(format!(
            "autoAllowSkills is enabled in the exec approvals store ({})",
            store_field(approvals, &hit)
        ))
        .help("disable it and keep manual allowlists tight");
    }
}

fn interpreter_allowlist(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(approvals) = ctx.approvals else { return };
    let global_strict = ctx.get(&[keys::TOOLS, keys::EXEC, keys::STRICT_INLINE_EVAL]) == Some(&Value::Bool(true));
    let roster = agents(ctx);
    for (id, agent) in approvals.document.get("agents").and_then(Value::as_object).into_iter().flatten() {
        let agent_path = roster.iter().find(|a| &a.id == id).and_then(|a| a.path.clone());
        let own_strict = agent_path
            .as_ref()
            .and_then(|p| p.key(keys::TOOLS).key(keys::EXEC).key(keys::STRICT_INLINE_EVAL).lookup(ctx.config()))
            .and_then(Value::as_bool);
        let strict = if id == "*" { global_strict } else { own_strict.unwrap_or(global_strict) };
        if strict {
            continue;
        }
        for (i, entry) in agent.get("allowlist").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let pattern = entry.as_str().or_else(|| entry.get("pattern").and_then(Value::as_str)).unwrap_or_default();
            if !is_interpreter_allowlist_pattern(ctx.version.exec(), pattern) {
                continue;
            }
            let at = store_field(approvals, &format!("agents.{id}.allowlist[{i}]"));
            let strict_path = agent_path
                .as_ref()
                .map(|p| p.key(keys::TOOLS).key(keys::EXEC).key(keys::STRICT_INLINE_EVAL))
                .unwrap_or_else(|| KeyPath::keys(&[keys::TOOLS, keys::EXEC, keys::STRICT_INLINE_EVAL]));
            let finding = out.report(
                &strict_path,
                format!("interpreter `{pattern}` is allowlisted ({at}) without strictInlineEval"),
            );
            finding.help("set `strictInlineEval: true` so inline code (`-c`, `-e`) still needs approval");
            if id != "*" {
                finding.agent(id);
            }
        }
    }
}

fn never_matching_entries(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(approvals) = ctx.approvals else { return };
    for (id, agent) in approvals.document.get("agents").and_then(Value::as_object).into_iter().flatten() {
        for (i, entry) in agent.get("allowlist").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let pattern = entry.as_str().or_else(|| entry.get("pattern").and_then(Value::as_str)).unwrap_or_default();
            let pattern = pattern.trim();
            if pattern.is_empty() || pattern == "*" {
                continue;
            }
            let at = store_field(approvals, &format!("agents.{id}.allowlist[{i}]"));
            let problem = if !pattern.contains(['/', '\\', '~']) {
                format!("allowlist entry `{pattern}` ({at}) is a bare name: 2026.2 matches resolved paths only")
            } else if let Err(invalid) = crate::exec::satisfy::allowlist::compile_v2(pattern) {
                format!("allowlist entry `{pattern}` ({at}) cannot be compiled by 2026.2: {}", invalid.message)
            } else {
                continue;
            };
            out.report_global(problem).help("write an absolute path or a path glob (`/usr/bin/git`, `~/bin/*`)");
        }
    }
}

fn denied_by_approvals(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some(approvals) = ctx.approvals else { return };
    for agent in agents(ctx) {
        let Some(resolution) = ctx.main_resolution(&agent.id) else { continue };
        if !resolution.tools.iter().any(|t| t == "exec") {
            continue;
        }
        let requested = ctx.exec_settings(&agent.id);
        let resolved =
            resolve_for_agent(&approvals.document, &agent.id, requested.security, requested.ask, ctx.version);
        if resolved.security.value != Security::Deny {
            continue;
        }
        let why = match &approvals.fail_closed {
            Some(reason) => format!("OpenClaw fails closed because {reason}"),
            None => format!("{} is `deny`", resolved.security.source),
        };
        let path = agent.path.clone().unwrap_or_else(|| KeyPath::keys(&[keys::TOOLS]));
        out.report(&path, format!("agent `{}` is given exec, but every call is denied: {why}", agent.id))
            .agent(&agent.id)
            .help("deny `exec` for this agent, or loosen its entry in the approvals store");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trusted_dirs_are_classified_like_the_audit() {
        assert!(risky_trusted_dir("bin").is_some());
        assert!(risky_trusted_dir("/tmp/../tmp/x").is_some());
        assert!(risky_trusted_dir("/usr/local/bin/").is_some());
        assert!(risky_trusted_dir("/Home/Dev/tools").is_some());
        assert!(risky_trusted_dir("/opt/x/.local/bin").is_some());
        assert!(risky_trusted_dir("/usr/bin").is_none());
        assert!(risky_trusted_dir("/opt/tools/bin").is_none());
    }

    #[test]
    fn versioned_interpreters_are_safe_bin_interpreters() {
        let v = OpenClawVersion::V2026_9;
        assert!(is_interpreter_safe_bin(v, "python3.12"));
        assert!(is_interpreter_safe_bin(v, "node20"));
        assert!(is_interpreter_safe_bin(v, "sed"));
        assert!(!is_interpreter_safe_bin(OpenClawVersion::V2026_2, "sed"));
        assert!(!is_interpreter_safe_bin(v, "pyth"));
        assert!(!is_interpreter_safe_bin(v, "jq"));
    }
}
