//! The decision around the analysis: host selection, the approvals floor, elevated mode, then the
//! release's pipeline analyses the command and composes the gateway's decision
//! (`processGatewayAllowlist`; spec §2.4–§2.7, §4.9–§4.14, deltas B1, B6). Where releases differ
//! here is the release's data (`gateway` in `data/<line>/exec.json`).

use super::elevated::ElevatedGates;
use super::{Decision, Elevated, ExecOutcome};
use crate::OpenClawVersion;
use crate::exec::approvals::allow_always;
use crate::exec::approvals::document::{allowlist_entry, other_agents_allowlists};
use crate::exec::approvals::resolve_for_agent;
use crate::exec::lookup::ExecEnv;
use crate::exec::pipeline::{DecisionInput, Gate, Pipeline, finish};
use crate::exec::posture::{Ask, Security, Source, Sourced};
use crate::exec::satisfy::allowlist::AllowlistEntry;
use crate::exec::satisfy::near_miss::near_misses;
use crate::exec::satisfy::safe_bins::SafeBinPolicy;
use crate::exec::segments::PlanFailure;
use crate::exec::segments::{EvalContext, Evaluation};
use crate::exec::settings::RequestedSettings;
use crate::release::exec::{ElevatedFull, ExecRules, NoSandbox, Pipeline as Kind};

/// Builds the evaluation context for a gateway run.
pub fn eval_context(
    input: &DecisionInput,
    allowlist: Vec<AllowlistEntry>,
    auto_allow_skills: bool,
    rules: &'static ExecRules,
) -> EvalContext {
    let s = input.settings;
    let safe_bins = SafeBinPolicy::resolve(
        rules,
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
        rules,
        allowlist,
        safe_bins,
        env: ExecEnv::new(input.cwd.clone(), path_var, input.home.clone()),
        windows: input.windows,
        auto_allow_skills,
        skill_bins: input.skill_bins.clone(),
    }
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
        elevated: Elevated::Off,
        elevated_gates: None,
        allow_always: None,
        auto_review: None,
        no_approver: None,
    }
}

/// Host selection; `Err` is a terminal outcome (deny or error) for sandbox hosts and bad values.
fn select_host(
    input: &DecisionInput,
    rules: &ExecRules,
) -> Result<Sourced<String>, (Decision, String, Sourced<String>)> {
    let gateway = &rules.gateway;
    let configured = input.settings.host.clone();
    if !gateway.hosts.contains(&configured.value) {
        let msg = format!("Invalid exec host \"{}\". Allowed values: {}.", configured.value, gateway.hosts.join(", "));
        return Err((Decision::Error, msg, configured));
    }
    let explicit_sandbox = configured.value == "sandbox" && configured.source != Source::Default;
    if input.elevated != Elevated::Off {
        // Elevated escapes the sandbox: to the node when node was selected, else the gateway.
        let target = if configured.value == "node" { "node" } else { "gateway" };
        return Ok(Sourced::new(target.to_string(), Source::Combined(format!("elevated ({})", configured.source))));
    }
    let resolved = match configured.value.as_str() {
        "auto" => {
            // Say why `auto` lands where it does: a reader sees `gateway` and asked for neither.
            let (host, why) =
                if input.sandboxed { ("sandbox", "the session is sandboxed") } else { ("gateway", "no sandbox") };
            Sourced::new(host.to_string(), Source::Combined(format!("host auto, {why} ({})", configured.source)))
        }
        _ => configured.clone(),
    };
    if resolved.value != "sandbox" {
        return Ok(resolved);
    }
    if input.sandboxed {
        let settings = input.settings;
        if gateway.sandbox_honours_deny && settings.security.value == Security::Deny && settings.explicit_deny {
            return Err((Decision::Deny, "exec denied: host=sandbox security=deny".into(), resolved));
        }
        return Err((
            Decision::Allow,
            "runs inside the sandbox; host exec approvals are not evaluated".into(),
            resolved,
        ));
    }
    let unavailable = &gateway.sandbox_unavailable;
    match if explicit_sandbox { &unavailable.configured } else { &unavailable.by_default } {
        NoSandbox::Refuse(message) => Err((Decision::Error, message.clone(), resolved)),
        NoSandbox::RunOnGateway => Err((
            Decision::Allow,
            "host=sandbox (default) without a sandbox runtime: runs on the gateway host; exec approvals are not evaluated"
                .into(),
            resolved,
        )),
    }
}

/// The refusal of an elevated call whose gates fail (`formatElevatedUnavailableMessage`).
fn unavailable_message(gates: &ElevatedGates, sandboxed: bool) -> String {
    let runtime = if sandboxed { "sandboxed" } else { "direct" };
    let failing: Vec<String> = gates.failures.iter().map(|f| format!("{} ({})", f.gate.as_str(), f.key)).collect();
    format!("elevated is not available right now (runtime={runtime}). Failing gates: {}", failing.join(", "))
}

/// Decides one exec call end to end as `version` does.
pub fn decide(input: &DecisionInput, version: OpenClawVersion) -> ExecOutcome {
    let mut out = decide_call(input, version);
    let mode = input.settings.mode.as_ref().map(|m| m.value.as_str());
    // In a run without an approver the reviewer still comes first: it sees the call that asks.
    let decided = out.decision;
    if out.no_approver.is_some() {
        out.decision = Decision::Ask;
    }
    out.auto_review = crate::exec::review::auto_review(&out, mode, version.exec());
    out.decision = decided;
    out.elevated = input.elevated;
    // The gates are reported when elevated mode is requested or in force, or the message names
    // a channel (someone asking why a sender is or is not elevated).
    out.elevated_gates =
        input.elevated_gates.filter(|gates| input.elevated != Elevated::Off || gates.channel.is_some()).cloned();
    out
}

fn decide_call(input: &DecisionInput, version: OpenClawVersion) -> ExecOutcome {
    let rules = version.exec();
    let settings = input.settings;
    if let Some(issue) = settings.config_issues.first() {
        return finish(
            base_outcome(version, settings, settings.host.clone()),
            Decision::Error,
            Some(format!("config invalid: {issue}")),
        );
    }
    if input.elevated != Elevated::Off
        && let Some(gates) = input.elevated_gates.filter(|gates| !gates.allowed)
    {
        let out = base_outcome(version, settings, settings.host.clone());
        return finish(out, Decision::Error, Some(unavailable_message(gates, input.sandboxed)));
    }
    let host = match select_host(input, rules) {
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
        version,
    );
    let security = min_sourced(&settings.security, &agent.security);
    let ask = if agent.ask.value > settings.ask.value { agent.ask.clone() } else { settings.ask.clone() };
    let ask_fallback = if rules.gateway.ask_fallback_capped_by_security {
        min_sourced(&security, &agent.ask_fallback)
    } else {
        agent.ask_fallback.clone()
    };
    out.security = security.clone();
    out.ask = ask.clone();
    out.ask_fallback = ask_fallback.clone();
    let floors_full_off = |s: Security, a: Ask| s == Security::Full && a == Ask::Off;
    let bypass = input.elevated == Elevated::Full
        && match rules.gateway.elevated_full {
            ElevatedFull::BypassesWhenFullOff => {
                floors_full_off(settings.security.value, settings.ask.value)
                    && floors_full_off(agent.security.value, agent.ask.value)
            }
            ElevatedFull::Bypasses => true,
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
    allowlist.extend(
        settings.extra_allow.iter().enumerate().filter_map(|(i, p)| {
            allowlist_entry(&serde_json::Value::String(p.clone()), format!("what-if --allow[{i}]"))
        }),
    );
    let ctx = eval_context(input, allowlist, agent.auto_allow_skills, rules);
    out.warnings.extend(ctx.safe_bins.unprofiled.iter().map(|b| {
        format!("exec: ignoring unprofiled safeBins entry {b}; use allowlist or define tools.exec.safeBinProfiles.{b}")
    }));
    let eval = match analyse(input.command, &ctx) {
        Ok(e) => e,
        Err(message) => return finish(out, Decision::Error, Some(message)),
    };
    out.evaluated = true;
    out.analysis_ok = eval.analysis_ok;
    out.plan_failure = eval.plan_failure.clone();
    let allowlist_ok = security.value == Security::Allowlist && eval.analysis_ok && eval.allowlist_satisfied;
    out.allowlist_satisfied = allowlist_ok;
    out.segments = eval.segments.clone();
    if security.value == Security::Allowlist && eval.analysis_ok {
        let others = other_agents_allowlists(&input.approvals.document, &settings.agent_id);
        for segment in &mut out.segments {
            segment.near_misses = near_misses(segment, &ctx.allowlist, &others, rules, &ctx.env);
        }
    }
    out.allow_always = Some(allow_always::persistence(
        version,
        &allow_always::CallFacts {
            analysis_ok: eval.analysis_ok,
            segments: &eval.segments,
            command: input.command,
            ctx: &ctx,
            strict_inline_eval: settings.strict_inline_eval.value,
            security: security.value,
        },
    ));
    let gate = Gate {
        input,
        ctx: &ctx,
        eval: &eval,
        security: security.value,
        ask: ask.value,
        ask_fallback: ask_fallback.value,
    };
    let out = of(rules).compose(out, &gate);
    if out.decision == Decision::Ask && !input.run.has_approver() {
        return crate::exec::unattended::without_approver(out, &gate, input.run, version);
    }
    out
}

/// The pipeline a release runs.
pub fn of(rules: &ExecRules) -> &'static dyn Pipeline {
    match rules.pipeline {
        Kind::TreeSitterPlan => &crate::exec::v2026_9::TreeSitterPlan,
        Kind::ChainSplitter => &crate::exec::v2026_2::ChainSplitter,
        Kind::SplitterWithApprovalGates => &crate::exec::v2026_5::SplitterWithApprovalGates,
    }
}

/// Analyses `command` with the release's pipeline (Windows shells are not simulated).
pub fn analyse(command: &str, ctx: &EvalContext) -> Result<Evaluation, String> {
    if ctx.windows {
        let reason = "windows shell analysis is not simulated".to_string();
        return Ok(Evaluation {
            analysis_ok: false,
            allowlist_satisfied: false,
            segments: Vec::new(),
            plan_failure: Some(PlanFailure { reason, span: None }),
            pinned: None,
        });
    }
    of(ctx.rules).analyse(command, ctx)
}

fn min_sourced(a: &Sourced<Security>, b: &Sourced<Security>) -> Sourced<Security> {
    if b.value < a.value { b.clone() } else { a.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(command: &str, security: Security, ask: Ask) -> super::super::ExecRequest<'static> {
        let mut r = super::super::ExecRequest::new(command, "/tmp");
        r.site.path_var = Some("/usr/bin:/bin".into());
        r.what_if.security = Some(security);
        r.what_if.ask = Some(ask);
        r
    }

    #[test]
    fn elevated_full_bypasses_only_full_off_in_v9() {
        let v9 = OpenClawVersion::V2026_9;
        let mut r = request("rm -rf x", Security::Full, Ask::Off);
        r.site.elevated = Elevated::Full;
        r.sandboxed = true;
        let o = super::super::evaluate(&r, v9).unwrap();
        assert_eq!((o.decision, o.host.value.as_str(), o.evaluated), (Decision::Allow, "gateway", false));
        r.site.approvals =
            super::super::ApprovalsInput::Document(serde_json::json!({"version":1,"defaults":{"ask":"always"}}));
        assert_eq!(super::super::evaluate(&r, v9).unwrap().decision, Decision::Ask);
        let mut legacy = request("rm -rf x", Security::Allowlist, Ask::OnMiss);
        legacy.what_if.host = Some("gateway".into());
        legacy.site.elevated = Elevated::Full;
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
}
