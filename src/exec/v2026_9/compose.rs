//! 2026.9's gateway composition (`processGatewayAllowlist`): durable approvals, the pinned
//! command (execution plan), strict inline eval, heredocs and security-audit-suppression edits
//! each add their own approval requirement (spec §4.9–§4.14).

use crate::exec::approvals::allow_always::Persistence;
use std::sync::LazyLock;

use sha2::{Digest, Sha256};

use super::inline_eval::{InlineEvalHit, detect_in_segment};
use super::pin::SHELL_EXPANSION;
use super::plan;
use crate::exec::argv::scan::{Empty, Item, Opt, Walk, scan};
use crate::exec::pipeline::Gate;
use crate::exec::pipeline::{ApprovalFlags, finish, has_heredoc_token, requires_approval};
use crate::exec::posture::{Ask, Security};
use crate::exec::satisfy::allowlist::{AllowlistEntry, hex};
use crate::exec::segments::Evaluation;
use crate::exec::{Decision, ExecOutcome};
use crate::release::exec::{Case, OptionTable};

fn exact_command_marker(command: &str) -> String {
    let digest = hex(&Sha256::digest(command.trim().as_bytes()));
    format!("=command:{}", &digest[..16])
}

/// `hasExactCommandDurableExecApproval`.
pub(crate) fn exact_durable(allowlist: &[AllowlistEntry], command: &str) -> bool {
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

/// The `openclaw` CLI's global options, read before its subcommand.
static OPENCLAW_OPTIONS: LazyLock<OptionTable> = LazyLock::new(|| OptionTable {
    flags: vec!["--dev".into(), "--no-color".into()],
    value_flags: vec!["--profile".into(), "--container".into(), "--log-level".into()],
    case: Case::Sensitive,
    exact_flags: true,
    ..OptionTable::default()
});

/// `openclaw [global options] config get|schema|validate`: reading the config, not editing it.
fn read_only_inspection(argv: &[String]) -> bool {
    let name =
        |t: Option<&String>| t.map(|t| t.rsplit(['/', '\\']).next().unwrap_or("").to_lowercase()).unwrap_or_default();
    let start = usize::from(name(argv.first()) == "pnpm" && argv.get(1).map(String::as_str) == Some("openclaw"));
    if name(argv.get(start)) != "openclaw" {
        return false;
    }
    let walk = Walk { trim: false, empty: Empty::Report, end_of_options: &[] };
    let mut at = argv.len();
    for item in scan(argv, start + 1, walk, &*OPENCLAW_OPTIONS) {
        if !matches!(item, Item::Option { opt: Opt::Flag | Opt::Attached(_) | Opt::Takes(_), .. }) {
            at = item.index();
            break;
        }
    }
    argv.get(at).map(String::as_str) == Some("config")
        && argv.get(at + 1).is_some_and(|s| ["get", "schema", "validate"].contains(&s.as_str()))
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

/// The first segment whose interpreter runs inline code, when strict inline eval is on.
pub(crate) fn strict_inline_eval_hit(gate: &Gate) -> Option<InlineEvalHit> {
    let Gate { input, ctx, eval, .. } = *gate;
    if !input.settings.strict_inline_eval.value {
        return None;
    }
    eval.segments.iter().find_map(|s| {
        let resolved = s.effective_argv.clone().or_else(|| plan::resolve_argv(&s.argv, ctx).map(|r| r.effective_argv));
        detect_in_segment(resolved.as_deref(), &s.argv, ctx.rules)
    })
}

/// Completes the decision after analysis.
pub fn compose(mut out: ExecOutcome, gate: &Gate) -> ExecOutcome {
    let Gate { input, ctx, eval, security, ask, ask_fallback } = *gate;
    let allowlist_ok = out.allowlist_satisfied;
    let exact = exact_durable(&ctx.allowlist, input.command);
    let segment_durable = eval.analysis_ok
        && !eval.segments.is_empty()
        && eval.segments.iter().all(|s| s.matched.as_ref().is_some_and(AllowlistEntry::is_generated));
    let durable = exact || segment_durable;
    out.durable_approval = durable;
    let inline_eval = strict_inline_eval_hit(gate);
    if let Some(hit) = &inline_eval {
        out.warnings.push(format!(
            "Warning: strict inline-eval mode requires reviewer or explicit approval for {}.",
            hit.describe()
        ));
    }
    if security == Security::Allowlist && allowlist_ok {
        match eval.pinned.clone() {
            Some(Ok(cmd)) => out.enforced_command = Some(cmd),
            Some(Err(reason)) => out.plan_unavailable_reason = Some(reason),
            None => {}
        }
    }
    let needs_plan = allowlist_ok && !exact && out.plan_unavailable_reason.is_some();
    let heredoc = allowlist_ok && has_heredoc_token(eval);
    let audit = ctx.rules.gateway.audit_suppression_gate
        && audit_suppression_edit(input.command, eval)
        && !(security == Security::Full && ask == Ask::Off);
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
    // An approval the allowlist plan asked for is never remembered (`ONE_SHOT_ALLOW_ALWAYS`).
    if needs_plan && matches!(out.allow_always, Some(Persistence::Patterns { .. })) {
        out.allow_always = Some(Persistence::OneShot { reasons: vec!["no-reusable-pattern".into()] });
    }
    out.policy_requires_ask = base || needs_plan || heredoc || inline_eval.is_some() || audit;
    out.reasons = reasons(&out, eval, ask, security, allowlist_ok, inline_eval.as_ref().map(|h| h.describe()));
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

fn reasons(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audit_suppression_mentions() {
        for (text, mentions) in [
            ("openclaw config set security.audit.suppressions []", true),
            ("echo Security and Audit with suppressions", true),
            ("echo security audit", false),
        ] {
            assert_eq!(mentions_audit_suppressions(text), mentions, "{text}");
        }
        assert_eq!(exact_command_marker("ls > out.txt"), "=command:f15baa997f7a31ce");
    }

    #[test]
    fn read_only_config_inspection() {
        let argv = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert!(read_only_inspection(&argv("openclaw --profile work --dev config get security.audit.suppressions")));
        assert!(read_only_inspection(&argv("pnpm openclaw --log-level=debug config schema")));
        assert!(!read_only_inspection(&argv("openclaw --dev=1 config get x")));
        assert!(!read_only_inspection(&argv("openclaw config set x")));
        assert!(!read_only_inspection(&argv("openclaw --profile")));
    }
}
