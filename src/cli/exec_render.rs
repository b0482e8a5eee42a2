//! Human output for `clawpolicy exec`: decision first, then the effective settings with their
//! sources, then the segments; plus a miette diagnostic pointing at an unanalyzable construct.

use std::fmt::Write;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use crate::exec::ExecOutcome;
use crate::exec::v2026_9::pin::render_bare;

/// Renders the outcome as plain text (no colour; stable for snapshots).
pub fn render_text(o: &ExecOutcome) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "decision: {} (OpenClaw {})", o.decision.as_str().to_uppercase(), o.version.id());
    if let Some(m) = &o.message {
        for line in m.lines() {
            let _ = writeln!(s, "  {line}");
        }
    }
    if let Some(n) = &o.no_approver {
        let outcome = match (&n.unbound, &n.reason) {
            (Some(why), _) => format!("the release refuses before asking: {why}"),
            (None, Some(reason)) => format!("askFallback={} refuses it ({reason})", n.ask_fallback),
            (None, None) => format!("askFallback={} lets it run", n.ask_fallback),
        };
        let _ = writeln!(s, "  no approver: the {} run would ask and nobody can answer; {outcome}", n.run);
    }
    for r in &o.reasons {
        let _ = writeln!(s, "  reason: {r}");
    }
    let _ = writeln!(s, "effective settings:");
    let _ = writeln!(s, "  host         {:<10} ({})", o.host.value, o.host.source);
    let _ = writeln!(s, "  security     {:<10} ({})", o.security.value, o.security.source);
    let _ = writeln!(s, "  ask          {:<10} ({})", o.ask.value, o.ask.source);
    let _ = writeln!(s, "  askFallback  {:<10} ({})", o.ask_fallback.value, o.ask_fallback.source);
    if let Some(loc) = &o.approvals_locator {
        let _ = writeln!(s, "  approvals    {loc}");
    }
    if let Some(why) = &o.approvals_fail_closed {
        let _ = writeln!(s, "  approvals    OpenClaw fails closed (denies host exec): {why}");
    }
    if !o.segments.is_empty() {
        let _ = writeln!(s, "segments:");
    }
    for (i, seg) in o.segments.iter().enumerate() {
        let by = match (&seg.satisfied_by, &seg.matched) {
            (Some(crate::exec::SatisfiedBy::Allowlist), Some(m)) => {
                format!("allowlist `{}` ({})", m.pattern, m.origin)
            }
            (Some(b), _) => b.as_str().to_string(),
            (None, _) if !o.analysis_ok => "not evaluated (analysis failed)".to_string(),
            (None, _) if seg.reasons.is_empty() => "nothing matched".to_string(),
            (None, _) => format!("nothing matched: {}", seg.reasons.join(", ")),
        };
        let path = seg.real_path.as_deref().or(seg.resolved_path.as_deref()).unwrap_or("(unresolved)");
        let _ = writeln!(s, "  {}. {}  →  {}  [{}]", i + 1, shell_words(&seg.argv), path, by);
    }
    if let Some(cmd) = &o.enforced_command {
        let _ = writeln!(s, "runs as: {cmd}");
    }
    for w in &o.warnings {
        let _ = writeln!(s, "warning: {w}");
    }
    s
}

fn shell_words(argv: &[String]) -> String {
    argv.iter().map(|a| render_bare(a)).collect::<Vec<_>>().join(" ")
}

/// An analysis failure with a label under the offending construct.
#[derive(Debug, Error, Diagnostic)]
#[error("OpenClaw cannot analyse this command: {reason}")]
#[diagnostic(
    code(clawpolicy::exec::analysis_failed),
    help("in allowlist mode an unanalysable command always needs approval (ask=on-miss) or is denied (ask=off)")
)]
pub struct AnalysisFailure {
    pub reason: String,
    #[source_code]
    pub command: NamedSource<String>,
    #[label("{reason}")]
    pub span: Option<SourceSpan>,
}

/// The diagnostic for an outcome whose analysis failed, if it did.
pub fn analysis_diagnostic(command: &str, o: &ExecOutcome) -> Option<AnalysisFailure> {
    let failure = o.plan_failure.as_ref()?;
    Some(AnalysisFailure {
        reason: failure.reason.clone(),
        command: NamedSource::new("command", command.to_string()),
        span: failure.span.as_ref().map(|r| SourceSpan::from(r.start..r.end)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use crate::exec::{ExecRequest, evaluate};

    #[test]
    fn renders_decision_settings_segments() {
        let mut req = ExecRequest::new("ls > out.txt", "/tmp");
        req.site.path_var = Some("/usr/bin:/bin".into());
        req.what_if.security = Some(crate::exec::Security::Allowlist);
        req.what_if.ask = Some(crate::exec::Ask::OnMiss);
        let o = evaluate(&req, OpenClawVersion::V2026_9).unwrap();
        let text = render_text(&o);
        assert!(text.starts_with("decision: ASK"), "{text}");
        assert!(text.contains("security     allowlist  (what-if --security)"), "{text}");
        let d = analysis_diagnostic(&req.command, &o).unwrap();
        assert_eq!(d.span, Some(SourceSpan::from(3..12)));
    }
}
