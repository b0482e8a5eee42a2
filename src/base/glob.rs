//! OpenClaw's tool-name glob, written by hand because it must match JavaScript exactly: only `*`
//! is special, matching is case-sensitive (names are normalized first), and `*` never matches a
//! line terminator, as JavaScript's `.` does not.

use regex::Regex;

/// A compiled tool glob.
pub enum Glob {
    Any,
    Exact(String),
    /// The literal parts between `*`s (at least two).
    Stars(Vec<String>),
    /// Patterns with a line terminator keep JavaScript's exact `.*` semantics through a regex.
    Pattern(Regex),
}

/// JavaScript's line terminators, which `.` (and so a glob's `*`) never matches.
fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

impl Glob {
    /// OpenClaw's tool glob: only `*` is special; matching is case-sensitive on normalized names.
    /// Compiled without a regex in the common case, since a batch compiles thousands of them.
    pub fn compile(pattern: &str) -> Glob {
        if pattern == "*" {
            return Glob::Any;
        }
        if !pattern.contains('*') {
            return Glob::Exact(pattern.to_string());
        }
        if pattern.contains(is_line_terminator) {
            let body = pattern.split('*').map(regex::escape).collect::<Vec<_>>().join(".*");
            // Escaped literals and `.*` always form a valid expression.
            return Glob::Pattern(Regex::new(&format!("^{body}$")).expect("escaped glob compiles"));
        }
        Glob::Stars(pattern.split('*').map(str::to_string).collect())
    }

    pub fn matches(&self, name: &str) -> bool {
        match self {
            Glob::Any => true,
            Glob::Exact(exact) => exact == name,
            Glob::Pattern(re) => re.is_match(name),
            // The pattern has no line terminator, so any in the name would fall inside a `*`.
            Glob::Stars(parts) => !name.contains(is_line_terminator) && stars_match(parts, name),
        }
    }
}

/// `parts[0]*parts[1]*…*parts[n]` against `name`: prefix, suffix, and the middle parts in order
/// (leftmost placement is enough to decide whether any placement exists).
fn stars_match(parts: &[String], name: &str) -> bool {
    let (Some((first, rest)), true) = (parts.split_first(), parts.len() >= 2) else { return false };
    let Some(mut tail) = name.strip_prefix(first.as_str()) else { return false };
    let (last, middle) = rest.split_last().expect("at least two parts");
    for part in middle {
        match tail.find(part.as_str()) {
            Some(pos) => tail = &tail[pos + part.len()..],
            None => return false,
        }
    }
    tail.len() >= last.len() && tail.ends_with(last.as_str())
}

/// Whether a normalized tool name matches a normalized pattern.
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    // Plugin selection compares thousands of plain names per session: no glob to build for those.
    match pattern {
        "" => false,
        plain if !plain.contains('*') => plain == name,
        _ => Glob::compile(pattern).matches(name),
    }
}
