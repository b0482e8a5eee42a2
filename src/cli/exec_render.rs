//! Human output for `clawpolicy exec`: decision first, then the effective settings with their
//! sources, then the segments; plus a miette diagnostic pointing at an unanalyzable construct.

use std::collections::BTreeMap;
use std::fmt::Write;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use crate::base::escape;
use crate::config::Location;
use crate::config::path::KeyPath;
use crate::exec::approvals::allow_always::Persistence;
use crate::exec::coverage::AllowAlwaysCoverage;
use crate::exec::elevated::sender::Verdict;
use crate::exec::elevated::{ElevatedGates, Gate};
use crate::exec::v2026_9::pin::render_bare;
use crate::exec::{Elevated, ExecOutcome};
use crate::release::exec::ElevatedFull;

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
    match &o.auto_review {
        Some(review) if review.reviewed => {
            let _ = writeln!(
                s,
                "  reviewer: mode auto, the automatic reviewer (tools.exec.reviewer) decides before a human (unless the command's executables cannot be pinned)"
            );
        }
        Some(review) => {
            let why = review.human_because.as_deref().unwrap_or_default();
            let _ = writeln!(s, "  reviewer: mode auto, but this call goes straight to a human: {why}");
        }
        None => {}
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
        for near in &seg.near_misses {
            let bound = near
                .arg_pattern
                .as_deref()
                .map(|a| format!(" (argPattern {})", escape::visible(a)))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "       near miss `{}`{bound} at {}: {}",
                escape::visible(&near.pattern),
                escape::visible(&near.origin),
                escape::visible(&near.why)
            );
        }
    }
    if let Some(cmd) = &o.enforced_command {
        let _ = writeln!(s, "runs as: {cmd}");
    }
    for w in &o.warnings {
        let _ = writeln!(s, "warning: {w}");
    }
    s
}

/// The elevated gates of the call: each failing gate with its key, where it is written and the
/// edit that opens it (as OpenClaw's `sandbox explain` lists them at runtime), or what let the
/// sender in and what the level changes.
pub fn render_elevated(gates: &ElevatedGates, o: &ExecOutcome, locations: &BTreeMap<String, Location>) -> String {
    let mut s = String::new();
    let at = |path: &KeyPath| locations.get(&path.to_string()).map(|l| format!(" at {l}")).unwrap_or_default();
    let channel = gates.channel.as_deref().map(|c| format!(" on {}", escape::visible(c))).unwrap_or_default();
    if !gates.allowed {
        let level =
            if o.elevated == Elevated::Off && o.decision != crate::exec::Decision::Error { "off, " } else { "" };
        let _ = writeln!(s, "elevated: {level}not available{channel}");
        for failure in &gates.failures {
            let key = failure.path.as_ref().map(|p| format!("`{p}`{}", at(p))).unwrap_or_else(|| failure.key.clone());
            let _ = writeln!(s, "  ✗ {:<10} {key}", failure.gate.as_str());
            let _ = writeln!(s, "      {}", escape::visible(&failure.why));
            let _ = writeln!(s, "      fix: {}", escape::visible(&failure.fix));
            if failure.gate == Gate::Provider {
                let _ = writeln!(
                    s,
                    "      (describe the message with --channel and --sender, --sender-username, --sender-e164, --sender-name)"
                );
            }
        }
    } else {
        let _ = writeln!(s, "elevated: {} (allowed{channel})", o.elevated.as_str());
        for admission in &gates.admitted_by {
            let by = match &admission.verdict {
                Verdict::Entry(entry) => format!("\"{}\"", escape::visible(entry)),
                _ => "\"*\" (everyone)".into(),
            };
            let _ = writeln!(s, "  admitted by {by} in `{}`{}", admission.path, at(&admission.path));
        }
        if let Some(level) = &gates.default_level {
            let from = match &gates.default_level_path {
                Some(path) => format!("`{path}`{}", at(path)),
                None => "OpenClaw's default".into(),
            };
            let _ = writeln!(s, "  session level without a directive: {} ({from})", escape::visible(level));
        }
        let _ = writeln!(s, "  effect: {}", elevated_effect(o));
    }
    for note in &gates.notes {
        let _ = writeln!(s, "  note: {}", escape::visible(note));
    }
    s
}

/// What the level in force changes, as the release does it.
fn elevated_effect(o: &ExecOutcome) -> String {
    let escape = "exec runs on the gateway host, never in a sandbox (on the node when host=node)";
    match (o.elevated, o.version.exec().gateway.elevated_full) {
        (Elevated::Off, _) => "none (the session is not elevated)".into(),
        (Elevated::Ask, _) => format!("{escape}; exec approvals still apply"),
        (Elevated::Full, ElevatedFull::Bypasses) => format!("{escape}; security=full, ask=off: approvals are bypassed"),
        (Elevated::Full, ElevatedFull::BypassesWhenFullOff) => format!(
            "{escape}; approvals are bypassed only when the config and the host approvals both say security=full, ask=off"
        ),
    }
}

/// What answering the prompt with "allow always" would store, and which later calls it covers.
pub fn render_allow_always(c: &AllowAlwaysCoverage, agent: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "if you answer \"allow always\":");
    if !c.offered {
        let _ = writeln!(s, "  the prompt does not offer it under ask=always; every call asks");
        return s;
    }
    match &c.stores {
        Persistence::OneShot { reasons } => {
            let _ = writeln!(s, "  nothing is stored (one-shot: {}); the next call asks again", reasons.join(", "));
        }
        Persistence::Patterns { .. } => {
            let _ = writeln!(s, "  stored in agent {}'s allowlist:", escape::visible(agent));
            for entry in &c.entries {
                let pattern = entry["pattern"].as_str().unwrap_or_default();
                let bound = entry["argPattern"].as_str().map(|a| format!("  argPattern {a}")).unwrap_or_default();
                let note = if pattern.starts_with("=node-command:") { "  (this exact command text)" } else { "" };
                let _ = writeln!(s, "    {}{bound}{note}", escape::visible(pattern));
            }
        }
    }
    for call in &c.later {
        let (mark, what) = if call.covered {
            ("✓", "runs without asking".to_string())
        } else {
            ("✗", call.decision.as_str().to_string())
        };
        let _ = writeln!(s, "  {mark} `{}` in {}: {what}", escape::visible(&call.command), escape::visible(&call.cwd));
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
