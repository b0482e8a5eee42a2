//! Exec in a run nobody can answer: a cron job's agent turn or a heartbeat. When the gateway
//! would ask, no operator client, forwarder or chat surface can see the request, so the release
//! decides it with the approvals document's `askFallback` at once (2026.9's "no approval route"),
//! or when the request times out (2026.2), with exceptions a fallback never stands in for (strict
//! inline eval and heredocs in 2026.9, obfuscation in 2026.2). 2026.9 first binds the approval to
//! the command (its parse, executables and script files) and refuses one it cannot bind. What each
//! release does is its data (`noApprover` in `data/<line>/automation.json`).

use serde::Serialize;

use super::argv::normalize_executable;
use super::argv::shell_names::is_posix_shell;
use super::argv::shells::{self, is_parseable_shell};
use super::argv::wrappers::{Unwrap, unwrap_dispatch_syntax};
use super::pipeline::{Gate, has_heredoc_token};
use super::posture::Security;
use super::v2026_9::inline_eval::detect_in_segment;
use super::v2026_9::pkg_manager::{PackageTarget, allowlist_target};
use super::{Decision, ExecOutcome};
use crate::OpenClawVersion;
use crate::policy::RunKind;
use crate::release::automation::{BindingRules, HumanOnly, NoApproverMessage, NoApproverRules};
use crate::release::exec::{ExecRules, WrapperRules};
use std::path::Path;

/// What became of an approval nobody could answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NoApprover {
    /// The run that had no approver.
    pub run: RunKind,
    /// The fallback that decided (`askFallback`, capped by the host security where the release
    /// caps it).
    pub ask_fallback: Security,
    /// Whether the command runs.
    pub runs: bool,
    /// The fallback's denial reason (`approval-timeout`, `approval-timeout: allowlist-miss`, …);
    /// `None` when the fallback lets the command run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the release does not even ask: it cannot bind the approval to this command (then the
    /// command is refused whatever the fallback says).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unbound: Option<String>,
}

/// `out` (whose decision is `ask`) as decided without an approver in a `run`.
pub fn without_approver(mut out: ExecOutcome, gate: &Gate, run: RunKind, version: OpenClawVersion) -> ExecOutcome {
    let automation = version.automation();
    let rules = &automation.no_approver;
    let fallback = out.ask_fallback.value;
    let satisfied = fallback == Security::Allowlist && fallback_satisfied(&out, gate, rules);
    let heredoc = has_heredoc_token(gate.eval) && (out.approval_flags.heredoc || satisfied);
    let human_only = rules.human_only.iter().any(|trigger| match trigger {
        HumanOnly::InlineEval => out.approval_flags.inline_eval,
        HumanOnly::Heredoc => heredoc,
        HumanOnly::Obfuscation => out.approval_flags.obfuscation,
    });
    let reasons = &rules.reasons;
    let refused = |reason: &str| Some(reason.to_string());
    let reason = match fallback {
        _ if human_only && rules.human_only_before_fallback => refused(&reasons.human_only),
        Security::Deny => refused(&reasons.timeout),
        Security::Allowlist if !satisfied => refused(&reasons.allowlist_miss),
        Security::Allowlist if rules.fallback_needs_pinned_command && !pinned(gate) => {
            reasons.plan_miss.clone().or_else(|| refused(&reasons.allowlist_miss))
        }
        _ if human_only => refused(&reasons.human_only),
        _ => None,
    };
    // The approval is never requested when the release cannot bind it to the command.
    let unbound = rules.binding.as_ref().and_then(|binding| {
        let why = unbindable(binding, &out, gate)?;
        Some((binding.refusal.replace("{why}", why).replace("{command}", gate.input.command), why.to_string()))
    });
    let runs = reason.is_none() && unbound.is_none();
    out.message = Some(match (&unbound, &reason) {
        (Some((refusal, _)), _) => refusal.clone(),
        (None, None) => format!("nobody can answer the approval in a {run} run: askFallback={fallback} lets it run"),
        (None, Some(reason)) => refusal_text(&rules.message, &out, reason, gate.input.command, run, version),
    });
    out.decision = if runs { Decision::Allow } else { Decision::Deny };
    out.no_approver =
        Some(NoApprover { run, ask_fallback: fallback, runs, reason, unbound: unbound.map(|(_, why)| why) });
    out
}

/// Why the release cannot bind an approval to the command, if it cannot: a command it could not
/// analyse; a segment that sources a file, follows a change of directory or names an executable
/// found nowhere; then a script operand that is missing or no file (`prepareSystemRunMutableFileBinding`).
fn unbindable<'r>(rules: &'r BindingRules, out: &ExecOutcome, gate: &Gate) -> Option<&'r str> {
    if !out.analysis_ok {
        return Some(&rules.unanalyzable);
    }
    let listed = |list: &[String], word: &str| list.iter().any(|w| w == word);
    let segments = &gate.eval.segments;
    // The segments as written, each without the wrappers in front of the program it runs.
    let wrappers = &gate.ctx.rules.wrappers;
    let unwrapped: Vec<Vec<String>> = segments.iter().map(|s| unwrap_for_operand(rules, &s.argv, wrappers)).collect();
    for (index, (segment, argv)) in segments.iter().zip(&unwrapped).enumerate() {
        let skip = usize::from(argv.first().is_some_and(|w| listed(&rules.dispatchers, w.trim())));
        let executable = argv.get(skip).map(|w| w.trim()).unwrap_or_default();
        let sets_startup = |token: &String| {
            let name = token.trim().split('=').next().unwrap_or_default();
            token.contains('=') && listed(&rules.startup_environment_variables, name)
        };
        if is_posix_shell(executable, wrappers) && segment.argv.iter().any(sets_startup) {
            return Some(&rules.shell_startup_environment);
        }
        if listed(&rules.source_commands, executable) {
            return Some(&rules.source_operand);
        }
        if listed(&rules.cwd_mutators, executable) && index + 1 < segments.len() {
            return Some(&rules.after_cwd_change);
        }
        let explicit_path = executable.starts_with('.') || executable.contains('/') || executable.contains('\\');
        if !executable.is_empty() && !explicit_path && segment.resolved_path.is_none() {
            return Some(&rules.unresolved_executable);
        }
    }
    let loads_startup = |argv: &Vec<String>| {
        argv.first().is_some_and(|exe| is_parseable_shell(exe, wrappers))
            && argv
                .iter()
                .skip(1)
                .take_while(|t| t.as_str() != "--")
                .any(|t| listed(&rules.shell_code_loading_options, t.split('=').next().unwrap_or(t)))
    };
    if segments.iter().any(|s| changes_directory_first(rules, &s.argv)) {
        return Some(&rules.dispatch_cwd_option);
    }
    if unwrapped.iter().any(loads_startup) {
        return Some(&rules.shell_startup_files);
    }
    let cwd = &gate.input.cwd;
    let scripts = unwrapped.iter().filter_map(|argv| script_operand(rules, argv, wrappers)).find_map(|operand| {
        match std::fs::metadata(cwd.join(operand)) {
            Err(_) => Some(rules.missing_script.as_str()),
            Ok(meta) if !meta.is_file() => Some(rules.not_a_file_script.as_str()),
            Ok(_) => None,
        }
    });
    scripts.or_else(|| {
        let unbound = |argv: &&Vec<String>| runner_without_script(rules, argv, cwd, gate.ctx.rules);
        unwrapped.iter().find(unbound).map(|_| rules.runtime_command.as_str())
    })
}

/// A program given as a path that does not exist, or a script runner (an interpreter, `awk`,
/// `tsx`, …; not a shell) that names no script operand and no single existing file, and whose
/// command text cannot stand for the program either (inline code such as `node -e`, or just
/// `--version`).
fn runner_without_script(rules: &BindingRules, argv: &[String], cwd: &Path, exec: &ExecRules) -> bool {
    let Some(first) = argv.first() else { return false };
    let path = first.trim();
    if (path.starts_with('.') || path.contains('/') || path.contains('\\')) && !cwd.join(path).is_file() {
        return true;
    }
    let name = normalize_executable(first);
    let runner = rules.script_runners.contains(&name) || rules.script_runner_patterns.any_match(&name);
    if !runner || is_posix_shell(&name, &exec.wrappers) || script_operand(rules, argv, &exec.wrappers).is_some() {
        return false;
    }
    let existing_files = argv[1..].iter().filter(|t| !t.starts_with('-') && cwd.join(t.trim()).is_file()).count();
    let text_bound = detect_in_segment(None, argv, exec).is_some()
        || (argv.len() == 2 && rules.text_bound_flags.iter().any(|f| argv[1].trim().eq_ignore_ascii_case(f)));
    existing_files != 1 && !text_bound
}

/// `env -C dir …` / `env --chdir=dir …`: the command runs elsewhere than the approval's cwd.
fn changes_directory_first(rules: &BindingRules, argv: &[String]) -> bool {
    if argv.first().map(|w| normalize_executable(w)).as_deref() != Some("env") {
        return false;
    }
    for token in &argv[1..] {
        let option = token.trim().to_lowercase();
        let name = option.split('=').next().unwrap_or_default();
        if rules.dispatch_cwd_options.iter().any(|o| o == name) {
            return true;
        }
        if !option.starts_with('-') && !option.contains('=') {
            return false;
        }
    }
    false
}

/// `argv` without the wrappers in front of the program that reads a script: dispatch wrappers
/// (`env FOO=1 python3 x.py`, `timeout 5 …`) and package-manager execs (`npx tsx x.ts`); a shell
/// builtin dispatcher (`command python3 x.py`) is not looked through.
fn unwrap_for_operand(rules: &BindingRules, argv: &[String], wrappers: &WrapperRules) -> Vec<String> {
    let mut current = argv.to_vec();
    loop {
        if current.first().is_some_and(|w| rules.dispatchers.iter().any(|d| d == w.trim())) {
            return current;
        }
        if let Unwrap::Unwrapped { argv, .. } = unwrap_dispatch_syntax(&current, wrappers) {
            current = argv;
            continue;
        }
        match allowlist_target(&current, wrappers) {
            PackageTarget::Inner(inner) if inner != current => current = inner,
            _ => return current,
        }
    }
}

/// The script file a segment runs: an interpreter's first argument, or a shell's first operand
/// after its options (none when the shell runs inline code or stdin).
fn script_operand<'a>(rules: &BindingRules, argv: &'a [String], wrappers: &WrapperRules) -> Option<&'a str> {
    let name = normalize_executable(argv.first()?);
    let interpreter = rules.script_interpreters.any_match(&name);
    if interpreter {
        let operand = argv.get(1)?.trim();
        return (!operand.is_empty() && operand != "-" && !operand.starts_with('-')).then_some(operand);
    }
    is_parseable_shell(&name, wrappers).then(|| shells::script_operand(argv)).flatten()
}

/// Whether `askFallback: allowlist` finds the command covered: by the allowlist whatever the host
/// security (2026.9, or by an exact-command approval), or only as the host's allowlist judged it.
fn fallback_satisfied(out: &ExecOutcome, gate: &Gate, rules: &NoApproverRules) -> bool {
    if !rules.fallback_reads_raw_allowlist {
        return out.allowlist_satisfied;
    }
    let exact = crate::exec::v2026_9::compose::exact_durable(&gate.ctx.allowlist, gate.input.command);
    (gate.eval.analysis_ok && gate.eval.allowlist_satisfied) || exact
}

/// Whether a pinned (enforced) command could be built, or an exact-command approval stands in.
fn pinned(gate: &Gate) -> bool {
    matches!(gate.eval.pinned, Some(Ok(_)))
        || crate::exec::v2026_9::compose::exact_durable(&gate.ctx.allowlist, gate.input.command)
}

/// The release's refusal, as the run sees it.
fn refusal_text(
    message: &NoApproverMessage,
    out: &ExecOutcome,
    reason: &str,
    command: &str,
    run: RunKind,
    version: OpenClawVersion,
) -> String {
    match message {
        NoApproverMessage::Followup { followup } => followup.replace("{reason}", reason).replace("{command}", command),
        NoApproverMessage::Headless { headless, cron_gateway_fix, interactive_fix } => {
            let automation = version.automation();
            let label = match run {
                RunKind::Cron => automation.cron.run_label.as_deref(),
                _ => automation.heartbeat.run_label.as_deref(),
            };
            let fix =
                if run == RunKind::Cron && out.host.value == "gateway" { cron_gateway_fix } else { interactive_fix };
            let lines: Vec<String> = headless
                .iter()
                .map(|line| {
                    line.replace("{runLabel}", label.unwrap_or_default())
                        .replace("{security}", out.security.value.as_str())
                        .replace("{ask}", out.ask.value.as_str())
                        .replace("{askFallback}", out.ask_fallback.value.as_str())
                        .replace("{surfaceFix}", fix)
                })
                .collect();
            lines.join("\n")
        }
    }
}
