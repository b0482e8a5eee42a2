//! 2026.9 authorization plan: explanation → candidates, and per-candidate satisfaction
//! (`planShellAuthorization`, `evaluateAuthorizationPlan`; spec §3.3–§3.6, §4.5).

use std::ops::Range;
use std::path::Path;

use crate::exec::argv::normalize_executable;
use crate::exec::argv::shells::{
    has_startup_before_inline, is_opaque_script_shell, is_parseable_shell, is_shell_wrapper_executable, script_operand,
    shell_wrapper,
};
use crate::exec::argv::wrappers::trust_plan;
use crate::exec::lookup::{
    Executable, candidate_path, has_path_separator, lexical_resolve, resolve_executable, trust_path_or_candidate,
};
use crate::exec::satisfy::allowlist::{MatchTarget, match_v4, match_v9};
use crate::exec::satisfy::builtins::safe_builtin;
use crate::exec::satisfy::skills::skill_allowed;
use crate::exec::segments::{EvalContext, Evaluation, PlanFailure, SatisfiedBy, Segment, TrustMode};
use crate::exec::v2026_9::analysis::{ExplainError, Explanation, RiskKind, Step, StepContext, explain};
use crate::exec::v2026_9::pkg_manager::{PackageTarget, allowlist_target};
use crate::release::exec::AllowlistMatch;
use crate::release::exec::WrapperRules;

/// `resolveCommandResolutionFromArgv`: wrappers stripped, execution and policy executables resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    pub execution: Executable,
    /// The executable policy matches (differs from `execution` only behind busybox/toybox).
    pub policy: Executable,
    pub effective_argv: Vec<String>,
    pub wrapper_chain: Vec<String>,
    pub policy_blocked: bool,
    pub blocked_wrapper: Option<String>,
}

pub fn resolve_argv(argv: &[String], ctx: &EvalContext) -> Option<Resolution> {
    let plan = trust_plan(argv, &ctx.rules.wrappers);
    let raw = plan.argv.first()?.trim().to_string();
    if raw.is_empty() {
        return None;
    }
    let execution = resolve_executable(&raw, &ctx.env, ctx.rules.lookup);
    let policy_raw = plan.policy_argv.first().map(|t| t.trim().to_string()).unwrap_or_default();
    let policy = if policy_raw.is_empty() || policy_raw == raw {
        execution.clone()
    } else {
        resolve_executable(&policy_raw, &ctx.env, ctx.rules.lookup)
    };
    Some(Resolution {
        execution,
        policy,
        effective_argv: plan.argv,
        wrapper_chain: plan.wrapper_chain,
        policy_blocked: plan.policy_blocked,
        blocked_wrapper: plan.blocked_wrapper,
    })
}

/// One member of a plan group, with how it may be trusted.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub step: Step,
    pub resolution: Option<Resolution>,
    pub trust_mode: TrustMode,
    /// Promoted from a `sh -c` payload (never pinnable on the gateway).
    pub via_shell_wrapper: bool,
    /// Why the candidate is prompt-only, when it is.
    pub reasons: Vec<String>,
}

fn inside(inner: &Range<usize>, outer: &Range<usize>) -> bool {
    inner.start >= outer.start && inner.end <= outer.end
}

fn has_shell_wrapper_risk(e: &Explanation, step: &Step) -> bool {
    e.risks.iter().any(|r| r.kind == RiskKind::ShellWrapper && inside(&r.span, &step.span))
}

/// `FOO=bar cmd`: text before the executable starts with an assignment.
fn has_command_prelude(step: &Step) -> bool {
    let prefix_len = step.executable_span.start.saturating_sub(step.span.start);
    let prefix = step.text.get(..prefix_len).unwrap_or("").trim_start();
    let mut chars = prefix.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && {
        let name: String = prefix.chars().take_while(|c| *c != '=').collect();
        prefix.contains('=') && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    }
}

/// A dynamic argument blocks planning only when it expands variables or commands.
fn is_shell_expansion_argument(text: &str) -> bool {
    let b = text.as_bytes();
    b.windows(2).any(|w| w[0] == b'$' && (w[1].is_ascii_alphanumeric() || b"_@*?#$!-{(".contains(&w[1])))
        || text.contains('`')
        || text.contains("<(")
        || text.contains(">(")
}

fn step_prompt_reasons(e: &Explanation, step: &Step) -> Vec<String> {
    let mut reasons: Vec<String> = Vec::new();
    for r in e.risks.iter().filter(|r| r.kind.is_prompt_only() && inside(&r.span, &step.span)) {
        let label = r.kind.label().to_string();
        if !reasons.contains(&label) {
            reasons.push(label);
        }
    }
    reasons
}

/// The first reason planning must fail, with the span of the construct responsible.
fn blocking_reason(e: &Explanation) -> Option<(String, Option<Range<usize>>)> {
    if let Some(r) = e.risks.iter().find(|r| r.kind.is_unanalyzable()) {
        return Some((r.kind.label().to_string(), Some(r.span.clone())));
    }
    if let Some((shape, span)) = e.shapes.iter().find(|s| s.0.blocks_planning()) {
        return Some((shape.label().to_string(), Some(span.clone())));
    }
    let in_prompt_only_step =
        |span: &Range<usize>| e.all_steps().any(|s| inside(span, &s.span) && !step_prompt_reasons(e, s).is_empty());
    e.risks
        .iter()
        .find(|r| {
            r.kind == RiskKind::DynamicArgument && is_shell_expansion_argument(&r.text) && !in_prompt_only_step(&r.span)
        })
        .map(|r| (r.kind.label().to_string(), Some(r.span.clone())))
}

fn create_candidate(e: &Explanation, step: &Step, via_shell_wrapper: bool, ctx: &EvalContext) -> Candidate {
    let resolution = resolve_argv(&step.argv, ctx);
    let direct_shell_wrapper =
        !via_shell_wrapper && shell_wrapper(&step.argv, &ctx.rules.wrappers).is_some_and(|w| w.bindable.is_some());
    let mut reasons = step_prompt_reasons(e, step);
    let prelude = has_command_prelude(step);
    if prelude {
        let prelude_risks: Vec<String> = e
            .risks
            .iter()
            .filter(|r| {
                r.kind.is_unanalyzable() && inside(&r.span, &step.span) && r.span.end <= step.executable_span.start
            })
            .map(|r| r.kind.label().to_string())
            .collect();
        reasons.extend(if prelude_risks.is_empty() { vec!["shell-env-assignment".to_string()] } else { prelude_risks });
    }
    let blocked = resolution.as_ref().is_some_and(|r| r.policy_blocked);
    let trust_mode = if blocked || prelude {
        TrustMode::PromptOnly
    } else if direct_shell_wrapper {
        TrustMode::ExactCommand
    } else if !reasons.is_empty() {
        TrustMode::PromptOnly
    } else {
        TrustMode::Executable
    };
    if let Some(w) = resolution.as_ref().and_then(|r| r.blocked_wrapper.clone()) {
        reasons.push(format!("blocked wrapper: {w}"));
    }
    Candidate { step: step.clone(), resolution, trust_mode, via_shell_wrapper, reasons }
}

/// `wrapperPayloadPlan`: replace a lone `sh -c '…'` step by its payload commands when allowed.
fn wrapper_payload_steps<'e>(e: &'e Explanation, allow_nested: bool, rules: &WrapperRules) -> Option<Vec<&'e Step>> {
    let [wrapper] = e.top_level.as_slice() else {
        return None;
    };
    if !has_shell_wrapper_risk(e, wrapper) || has_command_prelude(wrapper) || !allow_nested {
        return None;
    }
    let argv0 = wrapper.argv[0].trim();
    if has_path_separator(argv0) || !is_parseable_shell(argv0, rules) || has_startup_before_inline(&wrapper.argv) {
        return None;
    }
    let payload: Vec<&Step> =
        e.nested.iter().filter(|s| s.context == StepContext::WrapperPayload && s.parent == Some(wrapper.id)).collect();
    let first = payload.first()?;
    let reusable = !first.argv[0].trim().is_empty()
        && payload
            .iter()
            .all(|s| !has_path_separator(s.argv[0].trim()) && !normalize_executable(&s.argv[0]).ends_with("-wrapper"));
    reusable.then_some(payload)
}

/// Why planning failed, with the explanation when one was produced (for the segment report).
pub type PlanError = (PlanFailure, Option<Explanation>);

/// Plans `command`: the candidates to authorize, or why the command cannot be analyzed.
pub fn plan(command: &str, ctx: &EvalContext) -> Result<(Explanation, Vec<Candidate>), Box<PlanError>> {
    let e = explain(command, &ctx.rules.wrappers)
        .map_err(|err: ExplainError| Box::new((PlanFailure { reason: err.message().to_string(), span: None }, None)))?;
    let blocking = blocking_reason(&e);
    let first_unanalyzable = e.risks.iter().find(|r| r.kind.is_unanalyzable());
    let can_fall_back_to_exact_wrapper = e.top_level.len() == 1
        && has_shell_wrapper_risk(&e, &e.top_level[0])
        && first_unanalyzable.is_none_or(|r| inside(&r.span, &e.top_level[0].span));
    if !e.ok || (blocking.is_some() && !can_fall_back_to_exact_wrapper) {
        let (reason, span) = blocking.unwrap_or_else(|| ("unable to parse command".to_string(), None));
        return Err(Box::new((PlanFailure { reason, span }, Some(e))));
    }
    let allow_nested = blocking.is_none() && !e.shapes.iter().any(|s| s.0.blocks_planning());
    let candidates: Vec<Candidate> = match wrapper_payload_steps(&e, allow_nested, &ctx.rules.wrappers) {
        Some(steps) => {
            let mut steps = steps;
            steps.sort_by_key(|s| s.span.start);
            steps.into_iter().map(|s| create_candidate(&e, s, true, ctx)).collect()
        }
        None => {
            let mut steps: Vec<&Step> = e.top_level.iter().collect();
            steps.sort_by_key(|s| s.span.start);
            steps.into_iter().map(|s| create_candidate(&e, s, false, ctx)).collect()
        }
    };
    if candidates.is_empty() {
        return Err(Box::new((PlanFailure { reason: "no commands to authorize".to_string(), span: None }, Some(e))));
    }
    Ok((e, candidates))
}

fn is_shell_wrapper_segment(argv: &[String], execution: &Executable, rules: &WrapperRules) -> bool {
    [execution.name.as_str(), execution.raw.as_str(), argv[0].as_str()]
        .iter()
        .any(|t| !t.trim().is_empty() && is_shell_wrapper_executable(t.trim(), rules))
}

fn is_opaque_shell(argv: &[String], execution: &Executable) -> bool {
    [execution.name.as_str(), execution.raw.as_str(), argv[0].as_str()].iter().any(|t| is_opaque_script_shell(t))
}

/// `resolveShellWrapperScriptCandidatePath`: `bash ./run.sh args` → the script's path.
pub(crate) fn shell_script_path(argv: &[String], execution: &Executable, ctx: &EvalContext) -> Option<String> {
    if !is_shell_wrapper_segment(argv, execution, &ctx.rules.wrappers)
        || is_opaque_shell(argv, execution)
        || argv.len() < 2
    {
        return None;
    }
    let script = script_operand(argv)?;
    if script.starts_with('/') {
        return Some(script.to_string());
    }
    let expanded = crate::exec::lookup::expand_home(script, ctx.env.home.as_deref());
    Some(lexical_resolve(&ctx.env.cwd, &expanded).to_string_lossy().into_owned())
}

pub(crate) fn executable_at(path: &str) -> Executable {
    Executable {
        raw: path.to_string(),
        resolved_path: Some(path.to_string()),
        real_path: std::fs::canonicalize(path).ok().map(|p| p.to_string_lossy().into_owned()),
        name: Path::new(path).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
    }
}

/// `resolveSegmentAllowlistMatch`: the allowlist entry satisfying this candidate, if any.
fn allowlist_match(c: &Candidate, ctx: &EvalContext) -> (Vec<String>, Option<usize>) {
    match &c.resolution {
        Some(res) => segment_allowlist_match(&c.step.argv, res, ctx),
        None => (c.step.argv.clone(), None),
    }
}

/// `resolveSegmentAllowlistMatch` for a segment's argv and resolution: its effective argv and
/// the index of the allowlist entry satisfying it, if any (the executable, unless it is a shell
/// carrying an inline command, else the script a shell runs). Generated allow-always entries
/// count as the release's allowlist matching says.
pub(crate) fn segment_allowlist_match(
    argv: &[String],
    res: &Resolution,
    ctx: &EvalContext,
) -> (Vec<String>, Option<usize>) {
    let generated_entries = ctx.rules.allowlist_match() == AllowlistMatch::GlobsWithGeneratedEntries;
    let executable_paths = ctx.rules.allowlist_match() == AllowlistMatch::ExecutablePaths;
    let effective = if res.effective_argv.is_empty() { argv.to_vec() } else { res.effective_argv.clone() };
    let (match_argv, match_res) = match allowlist_target(&effective, &ctx.rules.wrappers) {
        PackageTarget::Blocked => return (effective, None),
        PackageTarget::Unchanged => (effective.clone(), res.clone()),
        PackageTarget::Inner(inner) => match resolve_argv(&inner, ctx) {
            Some(r) => (inner, r),
            None => return (effective, None),
        },
    };
    let policy = &match_res.policy;
    let candidate = policy.resolved_path.clone().or_else(|| candidate_path(&policy.raw, &ctx.env));
    let trust = trust_path_or_candidate(policy, &ctx.env);
    let cwd = ctx.env.cwd.to_string_lossy();
    let wrapper = shell_wrapper(&match_argv, &ctx.rules.wrappers);
    let inline_command = if executable_paths { wrapper.map(|w| w.payload) } else { wrapper.and_then(|w| w.bindable) };
    let target = MatchTarget {
        exe: policy,
        resolved_path: candidate.as_deref(),
        trust_path: trust.as_deref(),
        argv: &match_argv,
        cwd: &cwd,
        home: ctx.env.home.as_deref(),
    };
    let index_of =
        |e: &crate::exec::satisfy::allowlist::AllowlistEntry| ctx.allowlist.iter().position(|x| std::ptr::eq(x, e));
    let mut executable_match = if executable_paths {
        // 2026.4: the shell itself is what an allowlist names, unless it only runs its arguments.
        let carrier = inline_command.as_deref().is_some_and(runs_only_positional_arguments);
        if carrier { None } else { match_v4(&ctx.allowlist, &target, ctx.windows) }
    } else {
        match_v9(&ctx.allowlist, &target, generated_entries)
    };
    let target_is_execution = match_res.policy == match_res.execution;
    let shell_invocation = is_shell_wrapper_segment(&match_argv, &match_res.execution, &ctx.rules.wrappers);
    if let Some(m) = executable_match {
        let bound_arg_pattern = m.arg_pattern.as_deref().is_some_and(|a| !a.trim().is_empty());
        let bare_wildcard = m.pattern.trim() == "*" && !bound_arg_pattern;
        if !executable_paths
            && target_is_execution
            && (inline_command.is_some() || (shell_invocation && match_argv.len() > 1))
            && !bound_arg_pattern
            && !bare_wildcard
        {
            executable_match = None;
        }
    }
    if let Some(m) = executable_match {
        return (effective, index_of(m));
    }
    if inline_command.is_some() {
        return (effective, None);
    }
    let Some(script) = shell_script_path(&match_argv, &match_res.execution, ctx) else {
        return (effective, None);
    };
    let base = script.rsplit('/').next().unwrap_or("").to_lowercase();
    let position = match_argv
        .iter()
        .position(|a| lexical_resolve(&ctx.env.cwd, a).to_string_lossy() == script)
        .or_else(|| match_argv.iter().position(|a| a.rsplit('/').next().unwrap_or("").to_lowercase() == base));
    let script_args = position.map_or_else(Vec::new, |i| match_argv[i + 1..].to_vec());
    let script_argv: Vec<String> = std::iter::once(script.clone()).chain(script_args).collect();
    let script_exe = executable_at(&script);
    let script_target = MatchTarget {
        exe: &script_exe,
        resolved_path: Some(&script),
        trust_path: script_exe.real_path.as_deref().or(Some(&script)),
        argv: &script_argv,
        cwd: &cwd,
        home: ctx.env.home.as_deref(),
    };
    let script_match = if executable_paths {
        match_v4(&ctx.allowlist, &script_target, ctx.windows)
    } else {
        match_v9(&ctx.allowlist, &script_target, generated_entries)
    };
    (effective, script_match.and_then(index_of))
}

/// `isDirectShellPositionalCarrierInvocation` (2026.4): an inline command that only runs `$0`
/// (optionally through `exec`) with positional arguments, so the shell carries the arguments.
fn runs_only_positional_arguments(command: &str) -> bool {
    static CARRIER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        let gap = r"[^\S\r\n]+";
        let zero = r#"(?:\$(?:0|\{0\})|"\$(?:0|\{0\})")"#;
        let arg = r#"(?:\$(?:[@*]|[1-9]|\{[@*1-9]\})|"\$(?:[@*]|[1-9]|\{[@*1-9]\})")"#;
        regex::Regex::new(&format!("^(?:exec{gap}(?:--{gap})?)?{zero}(?:{gap}{arg})*$")).expect("static pattern")
    });
    let trimmed = command.trim();
    !trimmed.is_empty() && CARRIER.is_match(trimmed)
}

fn evaluate_candidate(c: &Candidate, ctx: &EvalContext) -> (Option<usize>, Option<SatisfiedBy>) {
    if c.trust_mode == TrustMode::PromptOnly {
        return (None, None);
    }
    let (effective, matched) = allowlist_match(c, ctx);
    if matched.is_some() {
        return (matched, Some(SatisfiedBy::Allowlist));
    }
    let Some(res) = &c.resolution else {
        return (None, safe_builtin(&c.step.argv, &c.step.text, ctx).then_some(SatisfiedBy::SafeBuiltins));
    };
    let by = if ctx.safe_bins.accepts(&res.execution, &effective[1.min(effective.len())..], ctx.windows) {
        Some(SatisfiedBy::SafeBins)
    } else if safe_builtin(&c.step.argv, &c.step.text, ctx) {
        Some(SatisfiedBy::SafeBuiltins)
    } else if skill_allowed(&res.execution, ctx) {
        Some(SatisfiedBy::Skills)
    } else {
        None
    };
    (None, by)
}

/// Evaluates `command` against the allowlist and safe bins the way 2026.9's
/// `evaluateShellAllowlistWithAuthorization` does on POSIX.
/// Evaluates `command`, with the plan's candidates (none when it cannot be analysed).
pub fn evaluate(command: &str, ctx: &EvalContext) -> (Evaluation, Vec<Candidate>) {
    match plan(command, ctx) {
        Err(failed) => {
            let (failure, explanation) = *failed;
            let evaluation = Evaluation {
                analysis_ok: false,
                allowlist_satisfied: false,
                segments: explanation
                    .map(|e| {
                        e.all_steps()
                            .map(|s| Segment::unevaluated(s.argv.clone(), s.text.clone(), Some(s.span.clone())))
                            .collect()
                    })
                    .unwrap_or_default(),
                plan_failure: Some(failure),
                pinned: None,
            };
            (evaluation, Vec::new())
        }
        Ok((_, candidates)) => {
            let mut segments = Vec::with_capacity(candidates.len());
            for c in &candidates {
                let (matched, by) = evaluate_candidate(c, ctx);
                let res = c.resolution.as_ref();
                segments.push(Segment {
                    argv: c.step.argv.clone(),
                    raw: c.step.text.clone(),
                    span: Some(c.step.span.clone()),
                    resolved_path: res.and_then(|r| r.execution.resolved_path.clone()),
                    real_path: res.and_then(|r| r.execution.real_path.clone()),
                    effective_argv: res.map(|r| r.effective_argv.clone()),
                    wrapper_chain: res.map(|r| r.wrapper_chain.clone()).unwrap_or_default(),
                    policy_blocked: res.is_some_and(|r| r.policy_blocked),
                    trust_mode: Some(c.trust_mode),
                    reasons: c.reasons.clone(),
                    matched: matched.map(|i| ctx.allowlist[i].clone()),
                    satisfied_by: by,
                    near_misses: Vec::new(),
                });
            }
            let evaluation = Evaluation {
                analysis_ok: true,
                allowlist_satisfied: segments.iter().all(|s| s.satisfied_by.is_some()),
                segments,
                plan_failure: None,
                pinned: None,
            };
            (evaluation, candidates)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prelude_detection() {
        let rules = &crate::OpenClawVersion::V2026_9.exec().wrappers;
        let e = explain("FOO=bar ls", rules).unwrap();
        assert!(has_command_prelude(&e.top_level[0]));
        let e = explain("ls FOO=bar", rules).unwrap();
        assert!(!has_command_prelude(&e.top_level[0]));
    }

    #[test]
    fn shell_expansion_arguments() {
        assert!(is_shell_expansion_argument("$HOME"));
        assert!(is_shell_expansion_argument("${x}"));
        assert!(!is_shell_expansion_argument("*.txt"));
    }
}
