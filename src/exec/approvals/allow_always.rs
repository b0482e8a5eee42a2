//! What an "allow always" answer stores in the approvals document for a command, in the release's
//! own form: 2026.9 one entry per executable with an argument pattern bound to the argv and the
//! working directory (`sha256:cwd-argv:v1:…`), plus a marker for the exact command text when every
//! segment is covered, or nothing at all ("one-shot") with the reasons; 2026.2 the bare executable
//! paths, and only under `security: allowlist`. `simulate` persists these entries; `exec` shows them
//! and which later commands they cover.

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::OpenClawVersion;
use crate::exec::argv::shells::{has_startup_before_inline, posix_inline_command, shell_wrapper};
use crate::exec::posture::Security;
use crate::exec::satisfy::allowlist::{ALLOW_ALWAYS, hex};
use crate::exec::segments::{EvalContext, Segment, TrustMode};
use crate::exec::v2026_9::allow_always::{is_shell_invocation, segment_pattern};
use crate::exec::v2026_9::inline_eval::detect_in_segment;
use crate::release::pack::AllowAlwaysStore;

/// One stored allowlist entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredEntry {
    pub pattern: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arg_pattern: Option<String>,
    /// `allow-always` where the release marks generated entries (2026.9).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<&'static str>,
}

/// What allow-always stores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", rename_all_fields = "camelCase", tag = "kind")]
pub enum Persistence {
    /// These entries; `commandText`: the exact command is remembered too (every segment covered).
    Patterns { entries: Vec<StoredEntry>, command_text: bool },
    /// Nothing is stored: the approval counts for this run only.
    OneShot { reasons: Vec<String> },
}

/// The facts of one analysed exec call that allow-always depends on.
pub struct CallFacts<'a> {
    pub analysis_ok: bool,
    pub segments: &'a [Segment],
    pub command: &'a str,
    /// The context the command was evaluated in (working directory, `PATH`, the release's rules).
    pub ctx: &'a EvalContext,
    pub strict_inline_eval: bool,
    pub security: Security,
}

/// What allow-always would store for this call, as `version` stores it.
pub fn persistence(version: OpenClawVersion, call: &CallFacts<'_>) -> Persistence {
    match version.policy().tool_calls.allow_always_stores {
        AllowAlwaysStore::BoundSegments => bound_segments(call),
        AllowAlwaysStore::ResolvedPathsUnderAllowlist => resolved_paths(call),
    }
}

/// The entries as the approvals document stores them (what `simulate` appends to the agent's list).
pub fn stored_entries(persistence: &Persistence, command: &str) -> Vec<serde_json::Value> {
    let Persistence::Patterns { entries, command_text } = persistence else { return Vec::new() };
    let mut out: Vec<serde_json::Value> = entries.iter().map(|e| serde_json::json!(e)).collect();
    if *command_text {
        out.push(serde_json::json!({"pattern": node_command_pattern(command), "source": ALLOW_ALWAYS}));
    }
    out
}

/// `buildNodeCommandApprovalPattern`: the marker for an exact command text.
fn node_command_pattern(command: &str) -> String {
    let digest = hex(&Sha256::digest(command.trim().as_bytes()));
    format!("=node-command:{}", &digest[..16])
}

/// 2026.2 `resolveAllowAlwaysPatterns`: each segment's executable path (the gateway stores them
/// only under `security: allowlist`).
fn resolved_paths(call: &CallFacts<'_>) -> Persistence {
    if call.security != Security::Allowlist {
        return Persistence::OneShot { reasons: vec!["security-not-allowlist".into()] };
    }
    let argvs = call.segments.iter().map(|s| s.argv.as_slice());
    let entries: Vec<StoredEntry> = crate::exec::v2026_2::allow_always::patterns(argvs, call.ctx)
        .into_iter()
        .map(|pattern| StoredEntry { pattern, arg_pattern: None, source: None })
        .collect();
    if entries.is_empty() {
        return Persistence::OneShot { reasons: vec!["no-reusable-pattern".into()] };
    }
    Persistence::Patterns { entries, command_text: false }
}

/// 2026.9 `resolveAllowAlwaysPersistenceDecision`.
fn bound_segments(call: &CallFacts<'_>) -> Persistence {
    let rules = call.ctx.rules;
    let mut reasons: Vec<&str> = Vec::new();
    let mut add = |reason| {
        if !reasons.contains(&reason) {
            reasons.push(reason);
        }
    };
    let inline_eval = call.strict_inline_eval
        && call.segments.iter().any(|s| detect_in_segment(s.effective_argv.as_deref(), &s.argv, rules).is_some());
    if inline_eval {
        add("runtime-payload");
    }
    let mut reusable = call.analysis_ok;
    if !call.analysis_ok {
        add("unplanned");
    }
    for (i, segment) in call.segments.iter().enumerate().filter(|_| call.analysis_ok) {
        // An inline-eval step (`python -c`, `awk '…'`) is never reusable.
        let inline = detect_in_segment(segment.effective_argv.as_deref(), &segment.argv, rules).is_some();
        // A shell in a pipeline is never reusable either.
        let piped_shell = is_shell_invocation(&segment.argv, call.ctx) && in_pipeline(call, i);
        let trusted =
            segment.trust_mode == Some(TrustMode::Executable) && !segment.policy_blocked && !inline && !piped_shell;
        match segment.trust_mode {
            Some(TrustMode::PromptOnly) => add("prompt-only"),
            Some(TrustMode::ExactCommand) => add("no-reusable-pattern"),
            _ if !trusted => add("no-reusable-pattern"),
            _ => {}
        }
        reusable &= trusted;
        if runtime_shell_payload(&segment.argv, rules) {
            add("runtime-payload");
        }
    }
    let hard: Vec<String> = reasons.iter().filter(|r| **r != "no-reusable-pattern").map(|r| r.to_string()).collect();
    if !hard.is_empty() {
        return Persistence::OneShot { reasons: sorted(hard) };
    }
    if reusable {
        let mut entries: Vec<StoredEntry> = Vec::new();
        let mut represented = 0;
        for segment in call.segments {
            let entry = segment_pattern(&segment.argv, call.ctx, call.strict_inline_eval)
                .map(|(pattern, arg)| StoredEntry { pattern, arg_pattern: Some(arg), source: Some(ALLOW_ALWAYS) });
            // A shell's own patterns are kept, but a shell never counts as covered.
            if entry.is_some() && !is_shell_invocation(&segment.argv, call.ctx) {
                represented += 1;
            }
            if let Some(entry) = entry.filter(|e| !entries.contains(e)) {
                entries.push(entry);
            }
        }
        if !entries.is_empty() {
            let complete = represented == call.segments.len() && !call.command.trim().is_empty();
            return Persistence::Patterns { entries, command_text: complete };
        }
    }
    Persistence::OneShot { reasons: vec!["no-reusable-pattern".into()] }
}

/// Whether segment `i` is joined to a neighbour by a pipe (`|`, `|&`).
fn in_pipeline(call: &CallFacts<'_>, i: usize) -> bool {
    let span = |j: usize| call.segments.get(j).and_then(|s| s.span.clone());
    let piped = |from: Option<std::ops::Range<usize>>, to: Option<std::ops::Range<usize>>| match (from, to) {
        (Some(a), Some(b)) if a.end <= b.start => {
            matches!(call.command.get(a.end..b.start).map(str::trim), Some("|" | "|&"))
        }
        _ => false,
    };
    (i > 0 && piped(span(i - 1), span(i))) || piped(span(i), span(i + 1))
}

/// `hasRuntimeShellPayload`: a shell wrapper whose inline command expands variables or commands,
/// or that runs startup files first.
fn runtime_shell_payload(argv: &[String], rules: &crate::release::exec::ExecRules) -> bool {
    if shell_wrapper(argv, &rules.wrappers).is_none_or(|w| w.bindable.is_none()) {
        return false;
    }
    let Some((inline, _)) = posix_inline_command(argv) else { return false };
    let bytes = inline.as_bytes();
    let expands =
        bytes.windows(2).any(|w| w[0] == b'$' && (w[1].is_ascii_alphanumeric() || b"_@*?#$!-{(".contains(&w[1])))
            || inline.contains('`');
    expands || has_startup_before_inline(argv)
}

fn sorted(mut reasons: Vec<String>) -> Vec<String> {
    reasons.sort();
    reasons
}
