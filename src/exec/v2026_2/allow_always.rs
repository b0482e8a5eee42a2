//! 2026.2's `resolveAllowAlwaysPatterns`: the executable paths an allow-always answer stores.
//! Dispatch wrappers (`env`, `nice`, …) and shell multiplexers (`busybox sh`) are seen through (a
//! wrapper that cannot be, stores nothing); a shell's inline command is analysed and its
//! executables stored instead of the shell; at most three levels deep.

use crate::exec::argv::shells::{is_shell_wrapper_executable, shell_wrapper};
use crate::exec::argv::wrappers::{Unwrap, is_dispatch_wrapper, multiplexers, unwrap_dispatch_syntax};
use crate::exec::lookup::{candidate_path, resolve_executable};
use crate::exec::segments::EvalContext;
use crate::exec::v2026_2::splitter::segment_argvs;

/// The paths, in order, without repeats.
pub fn patterns<'a>(argvs: impl IntoIterator<Item = &'a [String]>, ctx: &EvalContext) -> Vec<String> {
    let mut out = Vec::new();
    for argv in argvs {
        collect(argv, ctx, 0, &mut out);
    }
    out
}

fn collect(argv: &[String], ctx: &EvalContext, depth: usize, out: &mut Vec<String>) {
    let rules = &ctx.rules.wrappers;
    let Some(token0) = argv.first().map(|t| t.trim()).filter(|t| !t.is_empty()) else { return };
    if depth >= 3 {
        return;
    }
    if is_dispatch_wrapper(token0, rules) {
        if let Unwrap::Unwrapped { argv: inner, .. } = unwrap_dispatch_syntax(argv, rules)
            && !inner.is_empty()
        {
            collect(&inner, ctx, depth + 1, out);
        }
        return;
    }
    let seen_through =
        if rules.allow_always_multiplexers.is_empty() { &rules.multiplexers } else { &rules.allow_always_multiplexers };
    match multiplexers::unwrap_among(argv, seen_through, rules) {
        Unwrap::Blocked(_) => return,
        Unwrap::Unwrapped { argv: inner, .. } => return collect(&inner, ctx, depth + 1, out),
        Unwrap::NotWrapper => {}
    }
    let execution = resolve_executable(token0, &ctx.env, ctx.rules.lookup);
    let Some(path) = execution.resolved_path.clone().or_else(|| candidate_path(token0, &ctx.env)) else { return };
    let shell = [execution.name.as_str(), token0].iter().any(|t| is_shell_wrapper_executable(t, rules));
    if !shell {
        if !out.contains(&path) {
            out.push(path);
        }
        return;
    }
    let Some(inline) = shell_wrapper(argv, rules).map(|w| w.payload) else { return };
    for nested in segment_argvs(&inline, ctx).unwrap_or_default() {
        collect(&nested, ctx, depth + 1, out);
    }
}
