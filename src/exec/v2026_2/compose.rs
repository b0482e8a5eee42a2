//! 2026.2's gateway composition: the single-quoted enforced command (a missing plan denies),
//! the obfuscation detector, heredocs (deltas B6), and, in a release that reads
//! `tools.exec.strictInlineEval` (2026.3), the strict inline-eval gate.

use super::obfuscation::detect_obfuscation;
use super::splitter as legacy;
use crate::exec::pipeline::Gate;
use crate::exec::pipeline::{ApprovalFlags, finish, has_heredoc_token, requires_approval};
use crate::exec::posture::{Ask, Security};
use crate::exec::v2026_9::compose::strict_inline_eval_hit;
use crate::exec::{Decision, ExecOutcome};

/// Completes the decision after analysis.
pub fn compose(mut out: ExecOutcome, gate: &Gate) -> ExecOutcome {
    let Gate { input, ctx, eval, security, ask, .. } = *gate;
    let allowlist_ok = out.allowlist_satisfied;
    if security == Security::Allowlist && allowlist_ok {
        match legacy::enforced_command(input.command, eval, legacy::Dialect::of(ctx.rules)) {
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
    let inline_eval = strict_inline_eval_hit(gate);
    if let Some(hit) = &inline_eval {
        out.warnings
            .push(format!("Warning: strict inline-eval mode requires explicit approval for {}.", hit.describe()));
    }
    let obfuscation = detect_obfuscation(input.command, ctx.rules);
    if !obfuscation.is_empty() {
        out.warnings.push(format!("⚠️ Obfuscated command detected: {}", obfuscation.join("; ")));
    }
    let heredoc = allowlist_ok && has_heredoc_token(eval);
    if heredoc {
        out.warnings.push("Warning: heredoc execution requires explicit approval in allowlist mode.".into());
    }
    let base = requires_approval(ask, security, eval.analysis_ok, allowlist_ok, false);
    out.approval_flags = ApprovalFlags {
        base,
        heredoc,
        inline_eval: inline_eval.is_some(),
        obfuscation: !obfuscation.is_empty(),
        ..Default::default()
    };
    out.policy_requires_ask = base || heredoc || inline_eval.is_some() || !obfuscation.is_empty();
    if ask == Ask::Always {
        out.reasons.push("ask=always".into());
    }
    if let Some(f) = &eval.plan_failure {
        out.reasons.push(format!("analysis-failed: {}", f.reason));
    } else if security == Security::Allowlist && !allowlist_ok {
        out.reasons.push("allowlist-miss".into());
    }
    if let Some(hit) = &inline_eval {
        out.reasons.push(format!("strict-inline-eval: {}", hit.describe()));
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
