//! Shell builtins that need no allowlist entry (`safeBuiltins` in the release's data: `cd`,
//! `pwd`, `true`, `test`, …, and `[ … ]`), where the release has them (2026.9).

use crate::exec::segments::EvalContext;

/// Whether a segment is a safe builtin: `[` closed by `]`, or a name the release lists.
pub fn safe_builtin(argv: &[String], raw: &str, ctx: &EvalContext) -> bool {
    let head = argv[0].trim().to_lowercase();
    if head == "[" {
        return argv.last().map(String::as_str) == Some("]") || raw.trim().ends_with(']');
    }
    ctx.rules.safe_builtins.contains(&head)
}
