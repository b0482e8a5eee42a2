//! Targets of the two exec analyses: 2026.9's tree-sitter explanation and plan, and 2026.2's
//! chain splitter with its enforced command and obfuscation detector.

use std::ops::Range;
use std::path::PathBuf;

use crate::OpenClawVersion;
use crate::exec::approvals::document::allowlist_entry;
use crate::exec::decide;
use crate::exec::lookup::ExecEnv;
use crate::exec::satisfy::safe_bins::SafeBinPolicy;
use crate::exec::segments::{EvalContext, Evaluation};
use crate::exec::v2026_2::{obfuscation, splitter};
use crate::exec::v2026_9::analysis;

/// The command as the CLI takes it (`exec --file`): UTF-8 text without NUL bytes, not empty,
/// within the length cap; `None` for what the CLI refuses before analysis.
fn command(data: &[u8]) -> Option<String> {
    crate::exec::command_from_bytes(data).ok()
}

/// An evaluation context with an allowlist of the usual system folders, so that analysis goes
/// on past the first segment.
fn context(version: OpenClawVersion) -> EvalContext {
    let rules = version.exec();
    let allowlist = ["/usr/bin/*", "/bin/*", "~/bin/*"]
        .iter()
        .enumerate()
        .filter_map(|(i, pattern)| allowlist_entry(&serde_json::json!(pattern), format!("allowlist[{i}]")))
        .collect();
    EvalContext {
        rules,
        allowlist,
        safe_bins: SafeBinPolicy::resolve(rules, None, &[], &[]),
        env: ExecEnv::new(PathBuf::from("/tmp"), "/usr/bin:/bin".into(), Some("/home/fuzz".into())),
        windows: false,
        auto_allow_skills: false,
        skill_bins: Vec::new(),
    }
}

fn assert_within(span: &Range<usize>, command: &str, what: &str) {
    assert!(span.start <= span.end && span.end <= command.len(), "{what} span {span:?} outside {command:?}");
}

fn assert_failure_span_within(eval: &Evaluation, command: &str) {
    if let Some(span) = eval.plan_failure.as_ref().and_then(|f| f.span.as_ref()) {
        assert_within(span, command, "plan failure");
    }
}

/// 2026.9: the explanation (every span inside the command) and the plan never panic.
pub fn exec_2026_9(data: &[u8]) {
    let Some(command) = command(data) else { return };
    let ctx = context(OpenClawVersion::V2026_9);
    if let Ok(explanation) = analysis::explain(&command, &ctx.rules.wrappers) {
        for step in explanation.all_steps() {
            assert_within(&step.span, &command, "step");
            assert_within(&step.executable_span, &command, "executable");
        }
        for risk in &explanation.risks {
            assert_within(&risk.span, &command, "risk");
        }
        for (_, span) in &explanation.shapes {
            assert_within(span, &command, "shape");
        }
    }
    if let Ok(eval) = decide::analyse(&command, &ctx) {
        assert_failure_span_within(&eval, &command);
    }
}

/// 2026.2: the splitter, the enforced command of a satisfied command and the obfuscation
/// detector never panic.
pub fn exec_2026_2(data: &[u8]) {
    let Some(command) = command(data) else { return };
    let ctx = context(OpenClawVersion::V2026_2);
    obfuscation::detect_obfuscation(&command, ctx.rules);
    let Ok(eval) = splitter::evaluate(&command, &ctx) else { return };
    assert_failure_span_within(&eval, &command);
    if eval.allowlist_satisfied {
        let _ = splitter::enforced_command(&command, &eval, splitter::Dialect::of(ctx.rules));
    }
}
