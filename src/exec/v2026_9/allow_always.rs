//! 2026.9's `collectAllowAlwaysPatterns`: the entry one command segment contributes to an
//! allow-always answer, if any. Package-manager execs are seen through (or refused), wrappers are
//! stripped, the executable's trust path is bound to its argv and the working directory; an
//! interpreter is stored only under strict inline eval with nothing evaluated inline; a POSIX
//! shell with an inline command contributes nothing, one running a script stores the script.

use crate::exec::argv::shells::is_shell_wrapper_executable;
use crate::exec::argv::wrappers::trust_plan;
use crate::exec::lookup::trust_path_or_candidate;
use crate::exec::satisfy::allowlist::cwd_bound_hash;
use crate::exec::segments::EvalContext;
use crate::exec::v2026_9::inline_eval::{detect_in_segment, is_interpreter_allowlist_pattern};
use crate::exec::v2026_9::pkg_manager::{PackageTarget, allowlist_target};
use crate::exec::v2026_9::plan::{executable_at, resolve_argv, shell_script_path};

/// The (pattern, argument pattern) a segment's argv contributes.
pub fn segment_pattern(argv: &[String], ctx: &EvalContext, strict_inline_eval: bool) -> Option<(String, String)> {
    let wrappers = &ctx.rules.wrappers;
    let pattern_argv = match allowlist_target(argv, wrappers) {
        PackageTarget::Blocked => return None,
        PackageTarget::Unchanged => argv.to_vec(),
        PackageTarget::Inner(inner) => inner,
    };
    let plan = trust_plan(&pattern_argv, wrappers);
    if plan.policy_blocked {
        return None;
    }
    let resolution = resolve_argv(&plan.argv, ctx)?;
    let cwd = ctx.env.cwd.to_string_lossy();
    let path = trust_path_or_candidate(&resolution.execution, &ctx.env)?;
    if is_interpreter_allowlist_pattern(ctx.rules, &path) {
        let effective = if resolution.effective_argv.is_empty() { &plan.argv } else { &resolution.effective_argv };
        if !strict_inline_eval || detect_in_segment(Some(effective), effective, ctx.rules).is_some() {
            return None;
        }
    }
    let shell = plan.argv.first().is_some_and(|t| is_shell_wrapper_executable(t, wrappers));
    if !shell {
        return Some((path, cwd_bound_hash(&plan.argv, &cwd)));
    }
    if crate::exec::argv::shells::posix_inline_command(&plan.argv).is_some() {
        return None;
    }
    let script = shell_script_path(&plan.argv, &resolution.execution, ctx)?;
    let trusted = executable_at(&script).trust_path().map(str::to_string).unwrap_or_else(|| script.clone());
    let base = |arg: &str| std::path::Path::new(arg).file_name().map(|n| n.to_string_lossy().to_lowercase());
    let at = plan
        .argv
        .iter()
        .position(|arg| crate::exec::lookup::lexical_resolve(&ctx.env.cwd, arg).to_string_lossy() == script)
        .or_else(|| plan.argv.iter().position(|arg| base(arg) == base(&script)));
    let tail = at.map(|i| plan.argv[i + 1..].to_vec()).unwrap_or_default();
    let script_argv: Vec<String> = std::iter::once(script).chain(tail).collect();
    Some((trusted, cwd_bound_hash(&script_argv, &cwd)))
}

/// Whether argv runs a shell (`isShellWrapperInvocation`, through dispatch wrappers).
pub fn is_shell_invocation(argv: &[String], ctx: &EvalContext) -> bool {
    let plan = trust_plan(argv, &ctx.rules.wrappers);
    plan.argv.first().is_some_and(|t| is_shell_wrapper_executable(t, &ctx.rules.wrappers))
}
