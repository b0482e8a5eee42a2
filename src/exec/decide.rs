//! The decision layer: host selection, the approvals floor, and the gateway composition of
//! each release (`processGatewayAllowlist`; spec §2.4–§2.7, §4.9–§4.14, deltas B1, B6).

use std::path::PathBuf;

use sha2::{Digest, Sha256};

use super::{Decision, Elevated, ExecOutcome};
use crate::OpenClawVersion;
use crate::exec::approvals::{LoadedApprovals, resolve_for_agent};
use crate::exec::lookup::ExecEnv;
use crate::exec::posture::{Ask, Security, Source, Sourced};
use crate::exec::satisfy::allowlist::{AllowlistEntry, hex};
use crate::exec::satisfy::safe_bins::SafeBinPolicy;
use crate::exec::segments::{EvalContext, Evaluation, SkillBin};
use crate::exec::settings::RequestedSettings;
use crate::exec::v2026_2::splitter as legacy;
use crate::exec::v2026_9::inline_eval::detect_in_segment;
use crate::exec::v2026_9::pin::{SHELL_EXPANSION, enforced_command};
use crate::exec::v2026_9::plan;

/// The inputs of one decision besides the config-derived settings.
pub struct DecisionInput<'a> {
    pub command: &'a str,
    pub settings: &'a RequestedSettings,
    pub approvals: &'a LoadedApprovals,
    pub cwd: PathBuf,
    pub path_var: String,
    pub home: Option<String>,
    pub windows: bool,
    pub sandboxed: bool,
    pub skill_bins: Vec<SkillBin>,
    pub elevated: Elevated,
}

/// `requiresExecApproval` (2026.2 has no durable parameter: pass `false`).
pub fn requires_approval(ask: Ask, security: Security, analysis_ok: bool, allowlist_ok: bool, durable: bool) -> bool {
    if ask == Ask::Always {
        return true;
    }
    if durable {
        return false;
    }
    ask == Ask::OnMiss && security == Security::Allowlist && (!analysis_ok || !allowlist_ok)
}

/// Builds the evaluation context for a gateway run.
pub fn eval_context(
    input: &DecisionInput,
    allowlist: Vec<AllowlistEntry>,
    auto_allow_skills: bool,
    version: OpenClawVersion,
) -> EvalContext {
    let s = input.settings;
    let safe_bins = SafeBinPolicy::resolve(
        version,
        s.safe_bins.as_ref().map(|b| b.value.as_slice()),
        &s.safe_bin_profiles,
        &s.safe_bin_trusted_dirs,
    );
    let path_var = s
        .path_prepend
        .iter()
        .cloned()
        .chain(std::iter::once(input.path_var.clone()))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(":");
    EvalContext {
        allowlist,
        safe_bins,
        safe_builtins: version.exec().safe_builtins.clone(),
        env: ExecEnv::new(input.cwd.clone(), path_var, input.home.clone()),
        windows: input.windows,
        auto_allow_skills,
        skill_bins: input.skill_bins.clone(),
    }
}

/// Evaluates with the release's analyser; 2026.2 may fail on an invalid allowlist pattern.
pub fn evaluate(command: &str, ctx: &EvalContext, version: OpenClawVersion) -> Result<Evaluation, String> {
    if ctx.windows {
        // Windows command analysis (cmd/PowerShell tokenizing) is not simulated.
        let reason = "windows shell analysis is not simulated".to_string();
        return Ok(Evaluation {
            analysis_ok: false,
            allowlist_satisfied: false,
            segments: Vec::new(),
            plan_failure: Some(crate::exec::segments::PlanFailure { reason, span: None }),
            candidates: Vec::new(),
        });
    }
    match version {
        OpenClawVersion::V2026_9 => Ok(plan::evaluate(command, ctx)),
        OpenClawVersion::V2026_2 => legacy::evaluate(command, ctx).map_err(|e| e.message),
    }
}

fn exact_command_marker(command: &str) -> String {
    let digest = hex(&Sha256::digest(command.trim().as_bytes()));
    format!("=command:{}", &digest[..16])
}

/// `hasExactCommandDurableExecApproval`.
fn exact_durable(allowlist: &[AllowlistEntry], command: &str) -> bool {
    let trimmed = command.trim();
    if trimmed.is_empty() {
        return false;
    }
    let marker = exact_command_marker(trimmed);
    allowlist.iter().any(|e| {
        e.is_generated() && (e.pattern == marker || e.command_text.as_deref().is_some_and(|t| t.trim() == trimmed))
    })
}

/// Security-audit-suppression edits need approval unless full/off (spec §4.14).
fn mentions_audit_suppressions(text: &str) -> bool {
    let lower = text.to_lowercase();
    if lower.contains("security.audit.suppressions") {
        return true;
    }
    let Some(s) = lower.find("security") else {
        return false;
    };
    let after_security = &lower[s + "security".len()..];
    // `security … audit … suppressions`, each gap at most 200 characters (quotes allowed around words).
    after_security.match_indices("audit").filter(|(i, _)| after_security[..*i].chars().count() <= 201).any(|(i, _)| {
        let rest = &after_security[i + "audit".len()..];
        rest.match_indices("suppressions").any(|(j, _)| rest[..j].chars().count() <= 201)
    })
}

fn read_only_inspection(argv: &[String]) -> bool {
    let name =
        |t: Option<&String>| t.map(|t| t.rsplit(['/', '\\']).next().unwrap_or("").to_lowercase()).unwrap_or_default();
    let mut i = usize::from(name(argv.first()) == "pnpm" && argv.get(1).map(String::as_str) == Some("openclaw"));
    if name(argv.get(i)) != "openclaw" {
        return false;
    }
    i += 1;
    while let Some(arg) = argv.get(i) {
        if arg == "--dev" || arg == "--no-color" {
            i += 1;
        } else if ["--profile", "--container", "--log-level"].contains(&arg.as_str()) {
            i += 2;
        } else if ["--profile=", "--container=", "--log-level="].iter().any(|p| arg.starts_with(p)) {
            i += 1;
        } else {
            break;
        }
    }
    argv.get(i).map(String::as_str) == Some("config")
        && argv.get(i + 1).is_some_and(|s| ["get", "schema", "validate"].contains(&s.as_str()))
}

fn audit_suppression_edit(command: &str, eval: &Evaluation) -> bool {
    let mut saw = false;
    for seg in &eval.segments {
        if !mentions_audit_suppressions(&format!("{} {}", seg.raw, seg.argv.join(" "))) {
            continue;
        }
        saw = true;
        if !read_only_inspection(&seg.argv) {
            return true;
        }
    }
    if saw {
        let mut remaining = command.to_string();
        for seg in &eval.segments {
            let raw = seg.raw.trim();
            if !raw.is_empty() {
                remaining = remaining.replacen(raw, " ", 1);
            }
        }
        return mentions_audit_suppressions(&remaining);
    }
    mentions_audit_suppressions(command)
}

fn base_outcome(version: OpenClawVersion, settings: &RequestedSettings, host: Sourced<String>) -> ExecOutcome {
    ExecOutcome {
        version,
        decision: Decision::Allow,
        observed_decision: Decision::Allow,
        message: None,
        reasons: Vec::new(),
        host,
        security: settings.security.clone(),
        ask: settings.ask.clone(),
        ask_fallback: Sourced::default_value(Security::Deny),
        policy_requires_ask: false,
        evaluated: false,
        analysis_ok: false,
        allowlist_satisfied: false,
        segments: Vec::new(),
        plan_failure: None,
        enforced_command: None,
        plan_unavailable_reason: None,
        durable_approval: false,
        approval_flags: Default::default(),
        warnings: Vec::new(),
        approvals_locator: None,
        approvals_fail_closed: None,
        approvals_store_problem: None,
    }
}

fn finish(mut out: ExecOutcome, decision: Decision, message: Option<String>) -> ExecOutcome {
    out.decision = decision;
    out.observed_decision = decision;
    out.message = message;
    out
}

/// Host selection; `Err` is a terminal outcome (deny or error) for sandbox hosts and bad values.
fn select_host(
    input: &DecisionInput,
    version: OpenClawVersion,
) -> Result<Sourced<String>, (Decision, String, Sourced<String>)> {
    let configured = input.settings.host.clone();
    let valid: &[&str] = match version {
        OpenClawVersion::V2026_9 => &["auto", "sandbox", "gateway", "node"],
        OpenClawVersion::V2026_2 => &["sandbox", "gateway", "node"],
    };
    if !valid.contains(&configured.value.as_str()) {
        let msg = format!("Invalid exec host \"{}\". Allowed values: {}.", configured.value, valid.join(", "));
        return Err((Decision::Error, msg, configured));
    }
    let explicit_sandbox = configured.value == "sandbox" && configured.source != Source::Default;
    if input.elevated != Elevated::Off {
        // Elevated escapes the sandbox: to the node when node was selected, else the gateway.
        let target = if configured.value == "node" { "node" } else { "gateway" };
        return Ok(Sourced::new(target.to_string(), Source::Combined(format!("elevated ({})", configured.source))));
    }
    let resolved = match configured.value.as_str() {
        "auto" => Sourced::new(
            if input.sandboxed { "sandbox" } else { "gateway" }.to_string(),
            Source::Combined(format!("host auto ({})", configured.source)),
        ),
        _ => configured.clone(),
    };
    if resolved.value != "sandbox" {
        return Ok(resolved);
    }
    let sandbox_err = |msg: &str| Err((Decision::Error, msg.to_string(), resolved.clone()));
    match (input.sandboxed, version, explicit_sandbox) {
        (false, OpenClawVersion::V2026_9, _) => sandbox_err("exec host=sandbox requires a sandbox runtime for this session."),
        (false, OpenClawVersion::V2026_2, true) => sandbox_err(
            "exec host=sandbox is configured, but sandbox runtime is unavailable for this session. Enable sandbox mode or set tools.exec.host to \"gateway\"/\"node\".",
        ),
        // 2026.2's default host without a sandbox runs the command directly, with no approvals.
        (false, OpenClawVersion::V2026_2, false) => {
            Err((Decision::Allow, "host=sandbox (default) without a sandbox runtime: runs on the gateway host; exec approvals are not evaluated".into(), resolved))
        }
        (true, _, _) => {
            let deny = version == OpenClawVersion::V2026_9 && input.settings.security.value == Security::Deny && input.settings.explicit_deny;
            if deny {
                Err((Decision::Deny, "exec denied: host=sandbox security=deny".into(), resolved))
            } else {
                Err((Decision::Allow, "runs inside the sandbox; host exec approvals are not evaluated".into(), resolved))
            }
        }
    }
}

/// Decides one exec call end to end for `version`.
pub fn decide(input: &DecisionInput, version: OpenClawVersion) -> ExecOutcome {
    let settings = input.settings;
    if let Some(issue) = settings.config_issues.first() {
        return finish(
            base_outcome(version, settings, settings.host.clone()),
            Decision::Error,
            Some(format!("config invalid: {issue}")),
        );
    }
    let host = match select_host(input, version) {
        Ok(h) => h,
        Err((decision, message, host)) => {
            return finish(base_outcome(version, settings, host), decision, Some(message));
        }
    };
    let mut out = base_outcome(version, settings, host.clone());
    out.approvals_locator = Some(input.approvals.locator.clone());
    out.approvals_fail_closed = input.approvals.fail_closed.as_ref().map(ToString::to_string);
    out.approvals_store_problem = input.approvals.fail_closed.as_ref().map(|f| f.problem);
    let agent = resolve_for_agent(
        &input.approvals.document,
        &settings.agent_id,
        settings.security.clone(),
        settings.ask.clone(),
    );
    let security = min_sourced(&settings.security, &agent.security);
    let ask = if agent.ask.value > settings.ask.value { agent.ask.clone() } else { settings.ask.clone() };
    let ask_fallback = match version {
        OpenClawVersion::V2026_9 => min_sourced(&security, &agent.ask_fallback),
        OpenClawVersion::V2026_2 => agent.ask_fallback.clone(),
    };
    out.security = security.clone();
    out.ask = ask.clone();
    out.ask_fallback = ask_fallback.clone();
    let floors_full_off = |s: Security, a: Ask| s == Security::Full && a == Ask::Off;
    let bypass = input.elevated == Elevated::Full
        && match version {
            // 2026.9: only when both the requested policy and the host document are full/off.
            OpenClawVersion::V2026_9 => {
                floors_full_off(settings.security.value, settings.ask.value)
                    && floors_full_off(agent.security.value, agent.ask.value)
            }
            // 2026.2: elevated full forces full/off and skips the allowlist step.
            OpenClawVersion::V2026_2 => true,
        };
    if bypass {
        out.security = Sourced::new(Security::Full, Source::Combined("elevated full".into()));
        out.ask = Sourced::new(Ask::Off, Source::Combined("elevated full".into()));
        return finish(out, Decision::Allow, Some("elevated full: exec approvals are bypassed".into()));
    }
    let host_label = if host.value == "node" { "node" } else { "gateway" };
    if security.value == Security::Deny {
        return finish(out, Decision::Deny, Some(format!("exec denied: host={host_label} security=deny")));
    }
    if host.value == "node" {
        out.warnings.push("host=node: the node's own approvals snapshot is not simulated; gateway policy shown".into());
    }
    let mut allowlist = agent.allowlist.clone();
    allowlist.extend(settings.extra_allow.iter().enumerate().filter_map(|(i, p)| {
        AllowlistEntry::from_json(&serde_json::Value::String(p.clone()), format!("what-if --allow[{i}]"))
    }));
    let ctx = eval_context(input, allowlist, agent.auto_allow_skills, version);
    out.warnings.extend(ctx.safe_bins.unprofiled.iter().map(|b| {
        format!("exec: ignoring unprofiled safeBins entry {b}; use allowlist or define tools.exec.safeBinProfiles.{b}")
    }));
    let eval = match evaluate(input.command, &ctx, version) {
        Ok(e) => e,
        Err(message) => return finish(out, Decision::Error, Some(message)),
    };
    out.evaluated = true;
    out.analysis_ok = eval.analysis_ok;
    out.plan_failure = eval.plan_failure.clone();
    let allowlist_ok = security.value == Security::Allowlist && eval.analysis_ok && eval.allowlist_satisfied;
    out.allowlist_satisfied = allowlist_ok;
    out.segments = eval.segments.clone();
    match version {
        OpenClawVersion::V2026_9 => compose_v9(out, input, &ctx, &eval, security.value, ask.value, ask_fallback.value),
        OpenClawVersion::V2026_2 => compose_v2(out, input, &eval, security.value, ask.value),
    }
}

fn min_sourced(a: &Sourced<Security>, b: &Sourced<Security>) -> Sourced<Security> {
    if b.value < a.value { b.clone() } else { a.clone() }
}

fn has_heredoc_token(eval: &Evaluation) -> bool {
    eval.segments.iter().any(|s| s.argv.iter().any(|t| t.starts_with("<<")))
}

fn compose_v9(
    mut out: ExecOutcome,
    input: &DecisionInput,
    ctx: &EvalContext,
    eval: &Evaluation,
    security: Security,
    ask: Ask,
    ask_fallback: Security,
) -> ExecOutcome {
    let allowlist_ok = out.allowlist_satisfied;
    let exact = exact_durable(&ctx.allowlist, input.command);
    let segment_durable = eval.analysis_ok
        && !eval.segments.is_empty()
        && eval.segments.iter().all(|s| s.matched.as_ref().is_some_and(AllowlistEntry::is_generated));
    let durable = exact || segment_durable;
    out.durable_approval = durable;
    let inline_eval = input.settings.strict_inline_eval.value.then(|| {
        eval.segments.iter().find_map(|s| {
            let resolved =
                s.effective_argv.clone().or_else(|| plan::resolve_argv(&s.argv, ctx).map(|r| r.effective_argv));
            detect_in_segment(resolved.as_deref(), &s.argv)
        })
    });
    let inline_eval = inline_eval.flatten();
    if let Some(hit) = &inline_eval {
        out.warnings.push(format!(
            "Warning: strict inline-eval mode requires reviewer or explicit approval for {}.",
            hit.describe()
        ));
    }
    if security == Security::Allowlist && allowlist_ok {
        let satisfied: Vec<_> = eval.segments.iter().map(|s| s.satisfied_by).collect();
        match enforced_command(input.command, &eval.candidates, &satisfied) {
            Ok(cmd) => out.enforced_command = Some(cmd),
            Err(reason) => out.plan_unavailable_reason = Some(reason),
        }
    }
    let needs_plan = allowlist_ok && !exact && out.plan_unavailable_reason.is_some();
    let heredoc = allowlist_ok && has_heredoc_token(eval);
    let audit = audit_suppression_edit(input.command, eval) && !(security == Security::Full && ask == Ask::Off);
    let base = requires_approval(ask, security, eval.analysis_ok, allowlist_ok, durable);
    if heredoc {
        out.warnings
            .push("Warning: heredoc execution requires reviewer or explicit approval in allowlist mode.".into());
    }
    if needs_plan {
        out.warnings.push(
            "Warning: allowlist auto-execution is unavailable on linux; reviewer or explicit approval is required."
                .into(),
        );
    }
    if audit {
        out.warnings.push("Warning: security audit suppression changes require explicit approval unless exec is running in yolo mode.".into());
    }
    out.approval_flags = ApprovalFlags {
        base,
        allowlist_plan: needs_plan,
        heredoc,
        inline_eval: inline_eval.is_some(),
        audit_suppression: audit,
        obfuscation: false,
    };
    out.policy_requires_ask = base || needs_plan || heredoc || inline_eval.is_some() || audit;
    out.reasons = v9_reasons(&out, eval, ask, security, allowlist_ok, inline_eval.as_ref().map(|h| h.describe()));
    let observed = if out.policy_requires_ask { Decision::Ask } else { Decision::Allow };
    let (decision, message) = if out.policy_requires_ask {
        let fallback_deny = needs_plan
            && out.plan_unavailable_reason.as_deref() == Some(SHELL_EXPANSION)
            && ask == Ask::Off
            && ask_fallback == Security::Deny;
        if fallback_deny {
            (Decision::Deny, Some("ask-fallback-deny: execution-plan-miss".to_string()))
        } else {
            (Decision::Ask, None)
        }
    } else if security == Security::Allowlist && (!eval.analysis_ok || !allowlist_ok) && !durable {
        (Decision::Deny, Some("exec denied: allowlist miss".to_string()))
    } else {
        (Decision::Allow, None)
    };
    let mut out = finish(out, decision, message);
    out.observed_decision = observed;
    out
}

fn v9_reasons(
    out: &ExecOutcome,
    eval: &Evaluation,
    ask: Ask,
    security: Security,
    allowlist_ok: bool,
    inline: Option<String>,
) -> Vec<String> {
    let mut reasons = Vec::new();
    if ask == Ask::Always {
        reasons.push("ask=always".to_string());
    }
    if let Some(f) = &eval.plan_failure {
        reasons.push(format!("analysis-failed: {}", f.reason));
    } else if security == Security::Allowlist && !allowlist_ok && !out.durable_approval {
        reasons.push("allowlist-miss".to_string());
    }
    if let Some(r) = &out.plan_unavailable_reason {
        reasons.push(format!("execution-plan-miss: {r}"));
    }
    if let Some(i) = inline {
        reasons.push(format!("strict-inline-eval: {i}"));
    }
    if out.approval_flags.audit_suppression {
        reasons.push("security-audit-suppression".to_string());
    }
    if out.approval_flags.heredoc {
        reasons.push("heredoc".to_string());
    }
    reasons
}

fn compose_v2(
    mut out: ExecOutcome,
    input: &DecisionInput,
    eval: &Evaluation,
    security: Security,
    ask: Ask,
) -> ExecOutcome {
    let allowlist_ok = out.allowlist_satisfied;
    if security == Security::Allowlist && allowlist_ok {
        match legacy::enforced_command(input.command, eval) {
            Ok(cmd) => out.enforced_command = Some(cmd),
            Err(reason) => {
                out.plan_unavailable_reason = Some(reason.clone());
                return finish(
                    out,
                    Decision::Deny,
                    Some(format!("exec denied: allowlist execution plan unavailable ({reason})")),
                );
            }
        }
    }
    let obfuscation = legacy::detect_obfuscation(input.command);
    if !obfuscation.is_empty() {
        out.warnings.push(format!("⚠️ Obfuscated command detected: {}", obfuscation.join("; ")));
    }
    let heredoc = allowlist_ok && has_heredoc_token(eval);
    if heredoc {
        out.warnings.push("Warning: heredoc execution requires explicit approval in allowlist mode.".into());
    }
    let base = requires_approval(ask, security, eval.analysis_ok, allowlist_ok, false);
    out.approval_flags = ApprovalFlags { base, heredoc, obfuscation: !obfuscation.is_empty(), ..Default::default() };
    out.policy_requires_ask = base || heredoc || !obfuscation.is_empty();
    if ask == Ask::Always {
        out.reasons.push("ask=always".into());
    }
    if let Some(f) = &eval.plan_failure {
        out.reasons.push(format!("analysis-failed: {}", f.reason));
    } else if security == Security::Allowlist && !allowlist_ok {
        out.reasons.push("allowlist-miss".into());
    }
    out.reasons.extend(obfuscation.iter().map(|o| format!("obfuscation: {o}")));
    if heredoc {
        out.reasons.push("heredoc".into());
    }
    if out.policy_requires_ask {
        finish(out, Decision::Ask, None)
    } else if security == Security::Allowlist && !allowlist_ok {
        finish(out, Decision::Deny, Some("exec denied: allowlist miss".into()))
    } else {
        finish(out, Decision::Allow, None)
    }
}

/// Which approval triggers fired (the oracle's `reasons` keys).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ApprovalFlags {
    /// `requiresExecApproval` itself (ask=always or an allowlist-mode miss with ask=on-miss).
    pub base: bool,
    pub allowlist_plan: bool,
    pub heredoc: bool,
    pub inline_eval: bool,
    pub audit_suppression: bool,
    pub obfuscation: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(command: &str, security: Security, ask: Ask) -> super::super::ExecRequest {
        let mut r = super::super::ExecRequest::new(command, "/tmp");
        r.path_var = Some("/usr/bin:/bin".into());
        r.what_if.security = Some(security);
        r.what_if.ask = Some(ask);
        r
    }

    #[test]
    fn elevated_full_bypasses_only_full_off_in_v9() {
        let v9 = OpenClawVersion::V2026_9;
        let mut r = request("rm -rf x", Security::Full, Ask::Off);
        r.elevated = Elevated::Full;
        r.sandboxed = true;
        let o = super::super::evaluate(&r, v9).unwrap();
        assert_eq!((o.decision, o.host.value.as_str(), o.evaluated), (Decision::Allow, "gateway", false));
        r.approvals =
            super::super::ApprovalsInput::Document(serde_json::json!({"version":1,"defaults":{"ask":"always"}}));
        assert_eq!(super::super::evaluate(&r, v9).unwrap().decision, Decision::Ask);
        let mut legacy = request("rm -rf x", Security::Allowlist, Ask::OnMiss);
        legacy.what_if.host = Some("gateway".into());
        legacy.elevated = Elevated::Full;
        assert_eq!(super::super::evaluate(&legacy, OpenClawVersion::V2026_2).unwrap().decision, Decision::Allow);
    }

    #[test]
    fn sandbox_and_hosts() {
        let v9 = OpenClawVersion::V2026_9;
        let mut r = request("ls", Security::Allowlist, Ask::OnMiss);
        r.sandboxed = true;
        let o = super::super::evaluate(&r, v9).unwrap();
        assert_eq!((o.decision, o.host.value.as_str()), (Decision::Allow, "sandbox"));
        r.what_if.security = Some(Security::Deny);
        assert_eq!(super::super::evaluate(&r, v9).unwrap().decision, Decision::Deny);
        let mut explicit = request("ls", Security::Full, Ask::Off);
        explicit.what_if.host = Some("sandbox".into());
        assert_eq!(super::super::evaluate(&explicit, v9).unwrap().decision, Decision::Error);
        explicit.what_if.host = Some("bogus".into());
        assert_eq!(super::super::evaluate(&explicit, v9).unwrap().decision, Decision::Error);
    }

    #[test]
    fn requires_approval_table() {
        assert!(requires_approval(Ask::Always, Security::Full, true, true, true));
        assert!(!requires_approval(Ask::OnMiss, Security::Full, false, false, false));
        assert!(requires_approval(Ask::OnMiss, Security::Allowlist, true, false, false));
        assert!(!requires_approval(Ask::OnMiss, Security::Allowlist, true, false, true));
        assert!(!requires_approval(Ask::Off, Security::Allowlist, false, false, false));
    }

    #[test]
    fn audit_suppression_mentions() {
        assert!(mentions_audit_suppressions("openclaw config set security.audit.suppressions []"));
        assert!(mentions_audit_suppressions("echo Security and Audit with suppressions"));
        assert!(!mentions_audit_suppressions("echo security audit"));
        assert_eq!(exact_command_marker("ls > out.txt"), "=command:f15baa997f7a31ce");
    }
}
