//! 2026.9 command pinning (spec §4.11): an allowlist-satisfied gateway command runs with each
//! executable rewritten to its resolved path; when that is impossible the command needs approval.

use crate::exec::segments::SatisfiedBy;
use crate::exec::v2026_9::plan::Candidate;

/// Why no pinned command could be built (OpenClaw's reason strings).
pub const SHELL_EXPANSION: &str = "shell expansion in enforced arguments";
const WRAPPER_PAYLOAD: &str = "shell quoting required in wrapper payload";
const PLAN_UNAVAILABLE: &str = "segment execution plan unavailable";

/// A token as OpenClaw renders it: bare when `[A-Za-z0-9_@%+=:,./-]+`, else single-quoted.
pub fn render_bare(token: &str) -> String {
    let bare = !token.is_empty() && token.chars().all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
    if bare { token.to_string() } else { format!("'{}'", token.replace('\'', "'\"'\"'")) }
}

/// Unquoted `~` at a word start, or `{ * ? [` anywhere outside quotes.
fn has_unquoted_expansion(text: &str) -> bool {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut word_start = true;
    for c in text.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        if quote != Some('\'') && c == '\\' {
            escaped = true;
            continue;
        }
        match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                }
                continue;
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                continue;
            }
            None => {}
        }
        if c.is_whitespace() {
            word_start = true;
            continue;
        }
        if (c == '~' && word_start) || "{*?[".contains(c) {
            return true;
        }
        word_start = false;
    }
    false
}

fn argument_text(c: &Candidate) -> &str {
    let end = c.step.executable_span.end.saturating_sub(c.step.span.start);
    c.step.text.get(end..).unwrap_or("")
}

/// `buildAuthorizedShellCommandFromPlan` in enforced mode; `pins_safe_builtins`: safe builtins
/// are rewritten too (the release's data says).
pub fn enforced_command(
    command: &str,
    candidates: &[Candidate],
    satisfied_by: &[Option<SatisfiedBy>],
    pins_safe_builtins: bool,
) -> Result<String, String> {
    let mut replacements: Vec<(usize, usize, String)> = Vec::new();
    for (c, by) in candidates.iter().zip(satisfied_by) {
        if has_unquoted_expansion(argument_text(c)) {
            return Err(SHELL_EXPANSION.into());
        }
        if *by == Some(SatisfiedBy::SafeBuiltins) && !pins_safe_builtins {
            continue;
        }
        let res = c.resolution.as_ref();
        if res.is_some_and(|r| r.policy_blocked) {
            return Err(PLAN_UNAVAILABLE.into());
        }
        let mut argv =
            res.map(|r| r.effective_argv.clone()).filter(|a| !a.is_empty()).unwrap_or_else(|| c.step.argv.clone());
        if let Some(path) = res.and_then(|r| r.execution.real_path.as_deref().or(r.execution.resolved_path.as_deref()))
        {
            argv[0] = path.to_string();
        }
        if c.via_shell_wrapper {
            return Err(WRAPPER_PAYLOAD.into());
        }
        let span = &c.step.span;
        if command.get(span.clone()) != Some(c.step.text.as_str()) {
            return Err("source span mismatch".into());
        }
        if res.is_none_or(|r| r.wrapper_chain.is_empty()) {
            let exe = &c.step.executable_span;
            replacements.push((exe.start, exe.end, render_bare(&argv[0])));
        } else {
            // An unwrapped dispatch wrapper is dropped: the whole step becomes the inner argv.
            replacements.push((
                span.start,
                span.end,
                argv.iter().map(|t| render_bare(t)).collect::<Vec<_>>().join(" "),
            ));
        }
    }
    replacements.sort_by_key(|r| r.0);
    if replacements.windows(2).any(|w| w[1].0 < w[0].1) {
        return Err("overlapping replacement ranges".into());
    }
    let mut out = command.to_string();
    for (start, end, text) in replacements.into_iter().rev() {
        out.replace_range(start..end, &text);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_detection() {
        assert!(has_unquoted_expansion(" *.txt"));
        assert!(has_unquoted_expansion(" ~/x"));
        assert!(!has_unquoted_expansion(" a~b"));
        assert!(!has_unquoted_expansion(" '*.txt'"));
        assert!(!has_unquoted_expansion(" --format='%H'"));
        assert!(has_unquoted_expansion(" []"));
        assert_eq!(render_bare("-la"), "-la");
        assert_eq!(render_bare("a b"), "'a b'");
    }
}
