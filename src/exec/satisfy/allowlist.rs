//! Allowlist entries and how each release matches them against a resolved executable
//! (spec §4.1–§4.4, deltas B4): 2026.9's anchored globs with argument patterns and cwd-bound
//! hashes ([`match_v9`]), 2026.2's case-insensitive regex with its metacharacter bug
//! ([`match_v2`]), each called by its release's pipeline.

use std::path::Path;

use regex::Regex;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::exec::lookup::{Executable, expand_home};

/// One approvals-document allowlist entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AllowlistEntry {
    pub pattern: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arg_pattern: Option<String>,
    /// `Some("allow-always")` for generated entries; any other value is dropped on load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Legacy exact-command text (2026.9 honours it for durable approvals).
    #[serde(skip)]
    pub command_text: Option<String>,
    /// Where the entry came from, e.g. `agents.*.allowlist[0]`.
    pub origin: String,
}

impl AllowlistEntry {
    pub fn is_generated(&self) -> bool {
        self.source.as_deref() == Some(crate::exec::approvals::document::ALLOW_ALWAYS)
    }
}

fn has_path_selector(value: &str) -> bool {
    value.contains('/') || value.contains('\\') || value.contains('~')
}

/// Translates an allowlist glob to regex source: `**` is any text, `*` stays within a path
/// segment; `?` and every other character are translated by the release's own rules.
fn glob_regex(pattern: &str, question: &str, literal: impl Fn(char) -> String) -> String {
    let mut out = String::from("^");
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                out.push_str(".*");
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str(question),
            c => out.push_str(&literal(c)),
        }
    }
    out.push('$');
    out
}

/// 2026.9: `?` is one character within a path segment; everything else is literal.
fn glob_regex_v9(pattern: &str) -> String {
    glob_regex(pattern, "[^/]", |c| regex::escape(&c.to_string()))
}

/// An allowlist pattern that 2026.2 cannot compile (its regex-metachar bug; deltas B4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidPattern {
    pub pattern: String,
    pub message: String,
}

/// 2026.2 glob → regex: the escape step never fires, so `.`, `+`, `(` … keep their regex meaning.
/// Case-insensitive, `?` is any character. The source text is the JavaScript regex.
fn glob_regex_v2(pattern: &str) -> String {
    glob_regex(pattern, ".", |c| c.to_string())
}

/// Compiles the 2026.2 regex; a pattern JavaScript rejects is an error for the whole evaluation.
pub fn compile_v2(pattern: &str) -> Result<Regex, InvalidPattern> {
    cached(&format!("v2\0{pattern}"), || compile_v2_uncached(pattern))
        .map_err(|message| InvalidPattern { pattern: pattern.to_string(), message })
}

/// Compiled patterns are cached per thread, bounded like OpenClaw's own glob cache (512 entries).
fn cached(key: &str, compile: impl FnOnce() -> Result<Regex, String>) -> Result<Regex, String> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static CACHE: RefCell<HashMap<String, Result<Regex, String>>> = RefCell::new(HashMap::new());
    }
    CACHE.with(|cache| {
        if let Some(hit) = cache.borrow().get(key) {
            return hit.clone();
        }
        let result = compile();
        let mut cache = cache.borrow_mut();
        if cache.len() >= 512 {
            cache.clear();
        }
        cache.insert(key.to_string(), result.clone());
        result
    })
}

/// The JavaScript error message when the 2026.2 regex source does not compile.
fn compile_v2_uncached(pattern: &str) -> Result<Regex, String> {
    let source = glob_regex_v2(&pattern.to_lowercase());
    let invalid = |why: &str| format!("Invalid regular expression: /{source}/i: {why}");
    let rust = js_to_rust_regex(&source).map_err(invalid)?;
    regex::RegexBuilder::new(&rust).case_insensitive(true).build().map_err(|_| invalid("Invalid regular expression"))
}

/// Translates a JavaScript regex source (non-unicode mode) to the `regex` crate's syntax, or
/// returns the JavaScript `SyntaxError` text. Lone `{`, `}` and `]` are literals in JavaScript.
fn js_to_rust_regex(source: &str) -> Result<String, &'static str> {
    let chars: Vec<char> = source.chars().collect();
    static QUANTIFIER: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let quantifier = QUANTIFIER.get_or_init(|| Regex::new(r"^\{\d+(,\d*)?\}").expect("static regex"));
    let mut out = String::new();
    let mut depth = 0i32;
    let mut in_class = false;
    let mut quantifiable = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_class {
            match c {
                '\\' if i + 1 < chars.len() => {
                    out.push(c);
                    out.push(chars[i + 1]);
                    i += 1;
                }
                ']' => {
                    in_class = false;
                    quantifiable = true;
                    out.push(c);
                }
                '[' | '&' | '~' => out.push_str(&format!("\\{c}")),
                _ => out.push(c),
            }
            i += 1;
            continue;
        }
        match c {
            '\\' => {
                let next = *chars.get(i + 1).ok_or("\\ at end of pattern")?;
                out.push(c);
                out.push(next);
                i += 2;
                quantifiable = true;
                continue;
            }
            '[' => {
                in_class = true;
                out.push(c);
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i + 1) == Some(&']') {
                    // `[]` matches nothing and `[^]` anything in JavaScript.
                    return Err("Unsupported empty character class");
                }
            }
            '(' => {
                depth += 1;
                quantifiable = false;
                out.push(c);
                i += 1;
                continue;
            }
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err("Unmatched ')'");
                }
                quantifiable = true;
                out.push(c);
            }
            '*' | '+' | '?' => {
                if !quantifiable {
                    return Err("Nothing to repeat");
                }
                out.push(c);
                if chars.get(i + 1) == Some(&'?') {
                    out.push('?');
                    i += 1;
                }
                quantifiable = false;
                i += 1;
                continue;
            }
            '{' => {
                let rest: String = chars[i..].iter().collect();
                if let Some(m) = quantifier.find(&rest) {
                    if !quantifiable {
                        return Err("Nothing to repeat");
                    }
                    out.push_str(m.as_str());
                    i += m.as_str().chars().count();
                    quantifiable = false;
                    continue;
                }
                out.push_str("\\{");
                quantifiable = true;
            }
            '}' | ']' => {
                out.push('\\');
                out.push(c);
                quantifiable = true;
            }
            '^' | '$' | '|' => {
                out.push(c);
                quantifiable = false;
            }
            _ => {
                out.push(c);
                quantifiable = true;
            }
        }
        i += 1;
    }
    if in_class {
        return Err("Unterminated character class");
    }
    if depth > 0 {
        return Err("Unterminated group");
    }
    Ok(out)
}

/// Normalizes `.`/`..` segments (2026.9 does so for wildcard patterns).
fn normalize_dot_segments(target: &str) -> String {
    crate::exec::lookup::lexical_resolve(Path::new("/"), target).to_string_lossy().into_owned()
}

/// `matchesExecAllowlistPattern` (2026.9, POSIX): case-sensitive, anchored.
pub fn glob_matches_v9(pattern: &str, target: &str, home: Option<&str>) -> bool {
    let trimmed = pattern.trim();
    if trimmed.is_empty() {
        return false;
    }
    let expanded = expand_home(trimmed, home).replace("\\\\", "/");
    let mut target = target.replace("\\\\", "/");
    let has_wildcard = expanded.contains(['*', '?']);
    if has_wildcard && target.split(['/', '\\']).any(|s| s == "." || s == "..") {
        target = normalize_dot_segments(&target);
    }
    cached(&format!("v9\0{expanded}"), || Regex::new(&glob_regex_v9(&expanded)).map_err(|e| e.to_string()))
        .is_ok_and(|re| re.is_match(&target))
}

/// argPattern: regex over the args joined by a space (or NUL-terminated when the pattern has a NUL).
fn arg_pattern_matches(arg_pattern: &str, argv: &[String]) -> bool {
    if arg_pattern.starts_with("sha256:argv:") {
        return false;
    }
    let args = &argv[1.min(argv.len())..];
    let subject = if arg_pattern.contains('\0') {
        if args.is_empty() { "\0\0".to_string() } else { args.join("\0") + "\0" }
    } else {
        args.join(" ")
    };
    // ECMAScript-only syntax (lookaround, backreferences) fails to compile here and never matches.
    cached(&format!("arg\0{arg_pattern}"), || Regex::new(arg_pattern).map_err(|e| e.to_string()))
        .is_ok_and(|re| re.is_match(&subject))
}

/// `buildCwdBoundHashedArgPattern`: the hash generated allow-always entries carry.
pub fn cwd_bound_hash(argv: &[String], cwd: &str) -> String {
    let cwd = normalize_dot_segments(cwd);
    let args = &argv[1.min(argv.len())..];
    let mut subject = format!("{}\0{}\0{}\0", cwd.len(), cwd, args.len());
    for a in args {
        subject.push_str(&format!("{}\0{}\0", a.len(), a));
    }
    format!("sha256:cwd-argv:v1:{}", hex(&Sha256::digest(subject.as_bytes())))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The executable facts matching needs.
pub struct MatchTarget<'a> {
    pub exe: &'a Executable,
    /// The candidate path when nothing resolved (path-like tokens only).
    pub resolved_path: Option<&'a str>,
    pub trust_path: Option<&'a str>,
    pub argv: &'a [String],
    pub cwd: &'a str,
    pub home: Option<&'a str>,
}

/// `matchAllowlist` (2026.9): bare `*`, then path globs against the trust path, bare-name globs for
/// PATH-invoked commands; an argPattern match wins over a path-only match.
pub fn match_v9<'e>(entries: &'e [AllowlistEntry], t: &MatchTarget) -> Option<&'e AllowlistEntry> {
    if entries.is_empty() {
        return None;
    }
    if let Some(wild) = entries.iter().find(|e| e.pattern.trim() == "*" && e.arg_pattern.is_none() && !e.is_generated())
    {
        return Some(wild);
    }
    let resolved = t.resolved_path?;
    let trust = t.trust_path.filter(|p| !p.trim().is_empty()).unwrap_or(resolved);
    let mut path_only = None;
    let mut hash: Option<String> = None;
    for entry in entries {
        let pattern = entry.pattern.trim();
        if pattern.is_empty() {
            continue;
        }
        let pattern_hit = if has_path_selector(pattern) {
            glob_matches_v9(pattern, trust, t.home)
        } else {
            pattern != "*" && !has_path_selector(&t.exe.raw) && {
                let base = Path::new(resolved).file_name().map(|n| n.to_string_lossy().into_owned());
                [Some(t.exe.name.clone()), base].into_iter().flatten().any(|c| glob_matches_v9(pattern, &c, t.home))
            }
        };
        if !pattern_hit {
            continue;
        }
        match entry.arg_pattern.as_deref().filter(|a| !a.is_empty()) {
            None => {
                if !entry.is_generated() && path_only.is_none() {
                    path_only = Some(entry);
                }
            }
            Some(ap) if ap.starts_with("sha256:cwd-argv:v1:") => {
                if *hash.get_or_insert_with(|| cwd_bound_hash(t.argv, t.cwd)) == ap {
                    return Some(entry);
                }
            }
            Some(ap) => {
                if !entry.is_generated() && arg_pattern_matches(ap, t.argv) {
                    return Some(entry);
                }
            }
        }
    }
    path_only
}

/// `matchAllowlist` (2026.2): bare `*`, else only path patterns, through the buggy regex.
pub fn match_v2<'e>(
    entries: &'e [AllowlistEntry],
    exe: &Executable,
    home: Option<&str>,
) -> Result<Option<&'e AllowlistEntry>, InvalidPattern> {
    if entries.is_empty() {
        return Ok(None);
    }
    if let Some(wild) = entries.iter().find(|e| e.pattern.trim() == "*") {
        return Ok(Some(wild));
    }
    let Some(resolved) = exe.resolved_path.as_deref() else {
        return Ok(None);
    };
    let target = resolved.replace("\\\\", "/").to_lowercase();
    for entry in entries {
        let pattern = entry.pattern.trim();
        if pattern.is_empty() || !has_path_selector(pattern) {
            continue;
        }
        let expanded = expand_home(pattern, home).replace("\\\\", "/");
        if compile_v2(&expanded)?.is_match(&target) {
            return Ok(Some(entry));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v9_globs_follow_spec() {
        assert!(glob_matches_v9("/usr/*/ls", "/usr/bin/ls", None));
        assert!(!glob_matches_v9("/usr/*", "/usr/bin/ls", None));
        assert!(glob_matches_v9("/usr/**", "/usr/bin/ls", None));
        assert!(glob_matches_v9("/usr/bin/l?", "/usr/bin/ls", None));
        assert!(!glob_matches_v9("/usr/bin/LS", "/usr/bin/ls", None));
        assert!(!glob_matches_v9("/usr/bin/l.", "/usr/bin/ls", None));
        assert!(glob_matches_v9("~/bin/*", "/h/bin/x", Some("/h")));
    }

    #[test]
    fn v2_regex_bug_is_reproduced() {
        assert!(compile_v2("/usr/bin/l.").unwrap().is_match("/usr/bin/ls"));
        assert!(compile_v2("/USR/bin/LS").unwrap().is_match("/usr/bin/ls"));
        assert!(compile_v2("/usr/bin/?s").unwrap().is_match("/usr/bin/ls"));
        let err = compile_v2("/usr/bin/g++").unwrap_err();
        assert!(err.message.contains("Nothing to repeat"), "{}", err.message);
        assert!(compile_v2("/usr/bin/(x").is_err());
        assert!(compile_v2("/usr/bin/{x").unwrap().is_match("/usr/bin/{x"));
        assert!(compile_v2("/usr/bin/x{2}").unwrap().is_match("/usr/bin/xx"));
    }

    #[test]
    fn hashes_are_stable() {
        let argv = vec!["/usr/bin/git".to_string(), "status".to_string()];
        assert!(cwd_bound_hash(&argv, "/tmp").starts_with("sha256:cwd-argv:v1:27cf6bec89e"));
    }
}
