//! Strict inline eval (2026.9, spec §4.13): interpreter invocations that carry code on the
//! command line (`python3 -c`, `node -e`, `awk '{…}'`, `xargs cmd`…), seen through env
//! assignments, dispatch wrappers and carriers.

use std::collections::HashSet;

use crate::exec::argv::scan::{AnyFlag, Grammar, Item, Opt, Walk, scan};
use crate::exec::argv::shells::{is_parseable_shell, posix_inline_command};
use crate::exec::argv::wrappers::carriers::{CARRIERS, carried_argv};
use crate::exec::argv::wrappers::{Unwrap, unwrap_dispatch_syntax};
use crate::exec::argv::{is_env_assignment, normalize_executable};
use crate::release::exec::{ClusterFlag, ExecRules, InlineEvalSpec, PositionalEvalSpec};

/// A detected inline-eval invocation: `python3 -c`, `awk inline program`…
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineEvalHit {
    pub interpreter: String,
    pub flag: String,
}

impl InlineEvalHit {
    /// `describeInterpreterInlineEval`.
    pub fn describe(&self) -> String {
        match self.flag.as_str() {
            "<command>" => format!("{} inline command", self.interpreter),
            "<program>" => format!("{} inline program", self.interpreter),
            f => format!("{} {f}", self.interpreter),
        }
    }
}

/// `python3.12` → also `python`; `node-20` → also `node` (the version suffix stripped whole).
fn name_variants(name: &str) -> impl Iterator<Item = &str> {
    let stripped = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let stripped = stripped.strip_suffix('-').unwrap_or(stripped);
    let versionless = (stripped != name && stripped.len() >= 2).then_some(stripped);
    std::iter::once(name).chain(versionless)
}

/// Whether `names` lists the executable, or (where the release strips version suffixes) its name
/// without one.
fn names_include(data: &ExecRules, names: &[String], executable: &str) -> bool {
    if !data.inline_eval_name_variants {
        return names.iter().any(|n| n == executable);
    }
    name_variants(executable).any(|v| names.iter().any(|n| n == v))
}

/// `isInterpreterLikeAllowlistPattern` (2026.9): an approvals allowlist pattern that names an
/// interpreter or code carrier (`/usr/bin/python3`, `node*`, `awk`), by executable or basename.
pub fn is_interpreter_allowlist_pattern(data: &ExecRules, pattern: &str) -> bool {
    let trimmed = pattern.trim().to_lowercase();
    if trimmed.is_empty() {
        return false;
    }
    let known = |candidate: &str| {
        let flag_specs = data.inline_eval_specs.iter().map(|s| &s.names);
        let positional_specs = data.positional_inline_eval_specs.iter().map(|s| &s.names);
        flag_specs.chain(positional_specs).any(|names| names_include(data, names, candidate))
    };
    if known(&normalize_executable(&trimmed)) {
        return true;
    }
    let slashed = trimmed.replace('\\', "/");
    let basename = slashed.rsplit('/').next().unwrap_or(&slashed);
    let basename = basename.strip_suffix(".exe").unwrap_or(basename);
    let unglobbed: String = basename.chars().filter(|c| !"*?[]{}()".contains(*c)).collect();
    let unglobbed = if data.inline_eval_name_variants { unglobbed.trim_end_matches(['.', '-']) } else { &unglobbed };
    known(unglobbed)
}

fn is_single_letter_flag(flag: &str) -> bool {
    let b = flag.as_bytes();
    b.len() == 2 && b[0] == b'-' && b[1].is_ascii_alphabetic()
}

fn cluster_prefix_allowed(cluster: &ClusterFlag, prefix: &str) -> bool {
    let chars: Vec<char> = prefix.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].to_string();
        if cluster.prefix_chars.contains(&c) {
            if cluster.numeric_value_prefix_chars.contains(&c) {
                while chars.get(i + 1).is_some_and(char::is_ascii_digit) {
                    i += 1;
                }
            }
        } else if cluster.allow_numeric_record_separator && chars[i] == '0' {
            while chars.get(i + 1).is_some_and(char::is_ascii_digit) {
                i += 1;
            }
        } else {
            return false;
        }
        i += 1;
    }
    true
}

fn flag_hit(spec: &InlineEvalSpec, token: &str) -> Option<String> {
    if let Some(label) = spec.raw_exact_flags.get(token) {
        return Some(label.clone());
    }
    for (flag, label) in &spec.raw_exact_flags {
        if is_single_letter_flag(flag) && token.starts_with(flag.as_str()) && token.len() > flag.len() {
            return Some(label.clone());
        }
    }
    if let Some(f) = spec.raw_prefix_flags.iter().find(|f| token.starts_with(&f.prefix) && token.len() > f.prefix.len())
    {
        return Some(f.label.clone());
    }
    let lower = token.to_lowercase();
    let option = lower.split('=').next().unwrap_or(&lower);
    if let Some(f) = spec.abbreviated_flags.iter().find(|f| {
        option.len() >= f.min.len() && f.full.starts_with(option) && f.min.starts_with(&option[..f.min.len()])
    }) {
        return Some(f.label.clone());
    }
    if spec.exact_flags.contains(&lower) {
        return Some(lower);
    }
    let denied_joined = spec.joined_flag_deny_exact.contains(&lower)
        || spec.joined_flag_deny_prefixes.iter().any(|p| lower.starts_with(p.as_str()));
    if !denied_joined {
        for flag in spec.exact_flags.iter().filter(|f| f.starts_with("--")) {
            let prefix = format!("{flag}=");
            if lower.starts_with(&prefix) && lower.len() > prefix.len() {
                return Some(flag.clone());
            }
        }
        let joined = spec.joined_exact_flags.as_ref().unwrap_or(&spec.exact_flags);
        if let Some(f) =
            joined.iter().find(|f| is_single_letter_flag(f) && token.starts_with(f.as_str()) && token.len() > f.len())
        {
            return Some(f.to_lowercase());
        }
    }
    if token.starts_with('-') && !token.starts_with("--") {
        for cluster in &spec.short_cluster_flags {
            let index = token.get(2..).and_then(|rest| rest.find(cluster.flag.as_str())).map(|i| i + 2);
            if index.is_some_and(|i| cluster_prefix_allowed(cluster, &token[1..i])) {
                return Some(cluster.label.clone());
            }
        }
    }
    spec.prefix_flags
        .iter()
        .find(|f| lower.starts_with(&f.prefix) && lower.len() > f.prefix.len())
        .map(|f| f.label.clone())
}

/// A positional interpreter's options: its value options take the next token, and every other
/// token starting with `-` (or naming a program file, or one of its value-prefixes) is an option.
struct PositionalOptions<'s>(&'s PositionalEvalSpec);

fn prefixed(prefixes: &[String], token: &str) -> bool {
    prefixes.iter().any(|p| token.starts_with(p.as_str()) && token.len() > p.len())
}

impl PositionalOptions<'_> {
    fn names_file(&self, token: &str) -> bool {
        self.0.file_flags.iter().any(|f| f == token) || prefixed(&self.0.file_flag_prefixes, token)
    }
}

impl Grammar for PositionalOptions<'_> {
    fn is_option(&self, token: &str) -> bool {
        let spec = self.0;
        token.starts_with('-')
            || self.names_file(token)
            || spec.exact_optional_value_flags.iter().any(|f| f == token)
            || prefixed(&spec.prefix_value_flags, token)
    }

    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        if self.0.exact_value_flags.iter().any(|f| f == token) { Opt::Takes(1) } else { Opt::Flag }
    }
}

/// Whether the interpreter's first operand is code (no program file given first).
fn positional_hit(spec: &PositionalEvalSpec, argv: &[String]) -> bool {
    let grammar = PositionalOptions(spec);
    for item in scan(argv, 1, Walk::TRIMMED, &grammar) {
        match item {
            Item::EndOfOptions { index } => return argv.get(index + 1).is_some_and(|t| !t.trim().is_empty()),
            Item::Option { token, .. } => {
                if grammar.names_file(token) {
                    return false;
                }
            }
            Item::Operand { .. } => return true,
            Item::Empty { .. } => {}
        }
    }
    false
}

/// `detectInterpreterInlineEvalArgv`.
fn interpreter_hit(argv: &[String], data: &ExecRules) -> Option<InlineEvalHit> {
    let executable = argv.first()?.trim();
    if executable.is_empty() {
        return None;
    }
    let name = normalize_executable(executable);
    let hit = |flag: String| InlineEvalHit { interpreter: name.clone(), flag };
    if let Some(spec) = data.inline_eval_specs.iter().find(|s| names_include(data, &s.names, &name)) {
        for item in scan(argv, 1, Walk::TRIMMED, &AnyFlag) {
            let token = match item {
                Item::EndOfOptions { .. } if spec.scan_past_double_dash => continue,
                Item::Operand { token: "--", .. } => continue,
                Item::Option { token, .. } | Item::Operand { token, .. } => token,
                Item::EndOfOptions { .. } | Item::Empty { .. } => break,
            };
            if let Some(flag) = flag_hit(spec, token) {
                return Some(hit(flag));
            }
        }
    }
    let spec = data.positional_inline_eval_specs.iter().find(|s| names_include(data, &s.names, &name))?;
    positional_hit(spec, argv).then(|| hit(spec.flag.clone()))
}

fn strip_assignments(argv: &[String]) -> &[String] {
    let n = argv.iter().take_while(|t| is_env_assignment(t)).count();
    &argv[n..]
}

/// `$0 "$@"`-style payloads: which positional args run as the command.
fn positional_carrier_argv(argv: &[String]) -> Option<Vec<String>> {
    let (payload, index) = posix_inline_command(argv)?;
    let tokens: Vec<&str> = payload.split_whitespace().collect();
    let mut i = 0;
    if tokens.first() == Some(&"exec") {
        i += 1;
        if tokens.get(i) == Some(&"--") {
            i += 1;
        }
    }
    let positional = |t: &str| -> Option<String> {
        let t = t.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(t);
        let inner = t.strip_prefix("${").and_then(|x| x.strip_suffix('}')).or_else(|| t.strip_prefix('$'))?;
        (inner.len() == 1 && (inner == "@" || inner == "*" || inner.chars().all(|c| c.is_ascii_digit())))
            .then(|| inner.to_string())
    };
    if positional(tokens.get(i)?)?.as_str() != "0" {
        return None;
    }
    let rest = &argv[index + 1..];
    let mut picked = vec![rest.first()?.clone()];
    for t in &tokens[i + 1..] {
        match positional(t)?.as_str() {
            "@" => {
                return Some(rest.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect());
            }
            "0" | "*" => return None,
            n => picked.push(rest.get(n.parse::<usize>().ok()?).cloned().unwrap_or_default()),
        }
    }
    Some(picked.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
}

fn detect(argv: &[String], seen: &mut HashSet<Vec<String>>, data: &ExecRules) -> Option<InlineEvalHit> {
    if let Some(hit) = interpreter_hit(argv, data) {
        return Some(hit);
    }
    let argv = strip_assignments(argv);
    if argv.is_empty() || !seen.insert(argv.to_vec()) {
        return None;
    }
    let name = normalize_executable(&argv[0]);
    let carried = is_parseable_shell(&name, &data.wrappers).then(|| positional_carrier_argv(argv)).flatten();
    if let Some(carried) = carried.filter(|c| !c.is_empty()) {
        return detect(&carried, seen, data);
    }
    if let Unwrap::Unwrapped { argv: inner, .. } = unwrap_dispatch_syntax(argv, &data.wrappers) {
        return detect(&inner, seen, data);
    }
    if CARRIERS.contains(&name.as_str()) {
        return detect(&carried_argv(argv, &data.wrappers)?, seen, data);
    }
    None
}

/// `detectInlineEvalArgv` on a segment's effective argv, then its raw argv.
pub fn detect_in_segment(effective: Option<&[String]>, raw: &[String], data: &ExecRules) -> Option<InlineEvalHit> {
    effective.and_then(|e| detect(e, &mut HashSet::new(), data)).or_else(|| detect(raw, &mut HashSet::new(), data))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::exec::argv::words as argv;

    #[test]
    fn interpreter_allowlist_patterns() {
        let data = crate::OpenClawVersion::V2026_9.exec();
        for pattern in ["/usr/bin/python3", "python3.12", "/opt/node*/bin/node", "C:\\Tools\\node.exe", "awk"] {
            assert!(is_interpreter_allowlist_pattern(data, pattern), "{pattern}");
        }
        for pattern in ["/usr/bin/git", "ls", "", "/usr/bin/*"] {
            assert!(!is_interpreter_allowlist_pattern(data, pattern), "{pattern}");
        }
    }

    #[test]
    fn detects_interpreters() {
        let data = crate::OpenClawVersion::V2026_9.exec();
        let d = |s: &str| detect_in_segment(None, &argv(s), data).map(|h| h.describe());
        assert_eq!(d("python3 -c 'print(1)'").as_deref(), Some("python3 -c"));
        assert_eq!(d("python3.11 -Ic x").as_deref(), Some("python3.11 -c"));
        assert_eq!(d("python3 script.py"), None);
        assert_eq!(d("node -e 1").as_deref(), Some("node -e"));
        assert_eq!(d("awk '{print}'").as_deref(), Some("awk inline program"));
        assert_eq!(d("awk -f prog.awk"), None);
        assert_eq!(d("env FOO=1 python3 -c x").as_deref(), Some("python3 -c"));
        assert_eq!(d("sudo perl -ne x").as_deref(), Some("perl -e"));
        assert_eq!(d("xargs rm").as_deref(), Some("xargs inline command"));
        assert_eq!(d("sed -e s/a/b/").as_deref(), Some("sed -e"));
        assert_eq!(d("find . -exec rm {} ;").as_deref(), Some("find -exec"));
    }
}
