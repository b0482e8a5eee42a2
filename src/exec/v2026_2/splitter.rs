//! 2026.2 analysis: the hand-written chain/pipeline splitter, per-segment evaluation that stops
//! at the first miss, and the single-quoting enforced-command rebuild (deltas B3–B6).

use crate::exec::argv::shells::shell_wrapper;
use crate::exec::argv::wrappers::trust_plan;
use crate::exec::argv::{EmptyWords, split_shell_args};
use crate::exec::lookup::{Executable, candidate_path, resolve_executable};
use crate::exec::satisfy::allowlist::{InvalidPattern, match_v2};
use crate::exec::segments::{EvalContext, Evaluation, PlanFailure, SatisfiedBy, Segment};
use crate::exec::v2026_9::plan;
use crate::release::exec::{AllowlistMatch, ExecRules};

/// Where the splitter's shell grammar differs between releases (the release's `chainSplitter`
/// rules; the default is 2026.2's).
#[derive(Debug, Clone, Copy, Default)]
pub struct Dialect {
    /// An unquoted `#` at the start or after whitespace ends the command (`isShellCommentStart`).
    comments: bool,
    /// An unquoted heredoc body is read in logical lines (a line ending in an odd number of
    /// backslashes continues), each refused for any shell expansion ([`LogicalLine`]); 2026.2
    /// reads single lines and refuses command substitution only.
    heredoc_logical_lines: bool,
}

impl Dialect {
    pub fn of(rules: &ExecRules) -> Dialect {
        let rules = rules.chain_splitter.as_ref();
        Dialect {
            comments: rules.is_some_and(|r| r.shell_comments),
            heredoc_logical_lines: rules.is_some_and(|r| r.heredoc_logical_lines),
        }
    }

    fn comment_starts(self, chars: &[char], i: usize) -> bool {
        self.comments && chars[i] == '#' && (i == 0 || chars[i - 1].is_whitespace())
    }
}

/// A chain part and the operator that follows it.
struct ChainPart {
    text: String,
    op_to_next: Option<&'static str>,
}

/// `splitCommandChainWithOperators`: `None` when there is no chain or it is malformed.
fn split_chain(command: &str, dialect: Dialect) -> Option<Vec<ChainPart>> {
    let chars: Vec<char> = command.chars().collect();
    let mut parts = Vec::new();
    let mut buf = String::new();
    let (mut in_single, mut in_double, mut escaped) = (false, false, false);
    let (mut found, mut invalid) = (false, false);
    let push = |buf: &mut String, op: &'static str, parts: &mut Vec<ChainPart>| {
        let trimmed = buf.trim().to_string();
        buf.clear();
        if trimmed.is_empty() {
            return false;
        }
        parts.push(ChainPart { text: trimmed, op_to_next: Some(op) });
        true
    };
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        let next = chars.get(i + 1).copied();
        if escaped {
            buf.push(ch);
            escaped = false;
        } else if !in_single && !in_double && ch == '\\' {
            escaped = true;
            buf.push(ch);
        } else if in_single {
            in_single = ch != '\'';
            buf.push(ch);
        } else if in_double {
            if ch == '\\' && matches!(next, Some('\n' | '\r')) {
                invalid = true;
                break;
            }
            if ch == '\\' && matches!(next, Some('\\' | '"' | '$' | '`')) {
                buf.push(ch);
                buf.push(next.unwrap_or_default());
                i += 2;
                continue;
            }
            in_double = ch != '"';
            buf.push(ch);
        } else if ch == '\'' || ch == '"' {
            in_single = ch == '\'';
            in_double = ch == '"';
            buf.push(ch);
        } else if dialect.comment_starts(&chars, i) {
            break;
        } else if (ch == '&' && next == Some('&')) || (ch == '|' && next == Some('|')) {
            let op = if ch == '&' { "&&" } else { "||" };
            invalid |= !push(&mut buf, op, &mut parts);
            found = true;
            i += 2;
            continue;
        } else if ch == ';' {
            invalid |= !push(&mut buf, ";", &mut parts);
            found = true;
        } else {
            buf.push(ch);
        }
        i += 1;
    }
    if !found {
        return None;
    }
    let last = buf.trim().to_string();
    if last.is_empty() || invalid {
        return None;
    }
    parts.push(ChainPart { text: last, op_to_next: None });
    Some(parts)
}

struct Heredoc {
    delimiter: String,
    strip_tabs: bool,
    quoted: bool,
}

fn parse_heredoc_delimiter(chars: &[char], start: usize) -> Option<(String, usize, bool)> {
    let mut i = start;
    while i < chars.len() && (chars[i] == ' ' || chars[i] == '\t') {
        i += 1;
    }
    let first = *chars.get(i)?;
    if first == '\'' || first == '"' {
        i += 1;
        let mut delimiter = String::new();
        while i < chars.len() {
            let ch = chars[i];
            if ch == '\n' || ch == '\r' {
                return None;
            }
            if first == '"' && ch == '\\' && i + 1 < chars.len() {
                delimiter.push(chars[i + 1]);
                i += 2;
                continue;
            }
            if ch == first {
                return Some((delimiter, i + 1, true));
            }
            delimiter.push(ch);
            i += 1;
        }
        return None;
    }
    let mut delimiter = String::new();
    while i < chars.len() && !chars[i].is_whitespace() && !"|&;<>".contains(chars[i]) {
        delimiter.push(chars[i]);
        i += 1;
    }
    (!delimiter.is_empty()).then_some((delimiter, i, false))
}

fn escaped_at(line: &[char], index: usize) -> bool {
    line[..index].iter().rev().take_while(|c| **c == '\\').count() % 2 == 1
}

/// One logical line of an unquoted heredoc body, as 2026.5 reads it.
#[derive(Default)]
struct LogicalLine {
    text: Vec<char>,
    lines: usize,
}

impl LogicalLine {
    /// How many physical lines and characters one logical line may hold.
    const MAX_LINES: usize = 1024;
    const MAX_CHARS: usize = 64 * 1024;

    fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// Adds a body line (its leading tabs already stripped where the heredoc strips them); the
    /// release's reason when it refuses the body.
    fn push(&mut self, line: &[char]) -> Result<(), &'static str> {
        let (line, continues) = without_continuation(line);
        self.text.extend_from_slice(line);
        self.lines += 1;
        if self.lines > Self::MAX_LINES {
            return Err("heredoc continuation too long");
        }
        if self.text.len() > Self::MAX_CHARS {
            return Err("heredoc logical line too large");
        }
        if !continues {
            if expansion_token(&self.text, &[]) {
                return Err("shell expansion in unquoted heredoc");
            }
            *self = LogicalLine::default();
        }
        Ok(())
    }

    /// Whether the body ends inside this logical line with an expansion in it.
    fn ends_expanding(&self, last: &[char]) -> bool {
        expansion_token(&self.text, without_continuation(last).0)
    }
}

/// A body line without its continuation backslash (a line ending in an odd number of them
/// continues on the next), and whether it continues.
fn without_continuation(line: &[char]) -> (&[char], bool) {
    let continues = line.iter().rev().take_while(|c| **c == '\\').count() % 2 == 1;
    (if continues { &line[..line.len() - 1] } else { line }, continues)
}

/// 2026.5's `hasUnquotedHeredocExpansionToken` over `head` followed by `tail`: an unescaped
/// backquote, or an unescaped `$` before `(`, `{`, `[`, a name, a digit or one of `@*?!$#-`.
fn expansion_token(head: &[char], tail: &[char]) -> bool {
    let text: Vec<char> = head.iter().chain(tail).copied().collect();
    (0..text.len()).any(|i| {
        !escaped_at(&text, i)
            && (text[i] == '`'
                || (text[i] == '$'
                    && text.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric() || "({[_@*?!$#-".contains(*n))))
    })
}

fn heredoc_line_expands(line: &[char]) -> bool {
    (0..line.len()).any(|i| {
        (line[i] == '`' && !escaped_at(line, i))
            || (line[i] == '$' && !escaped_at(line, i) && matches!(line.get(i + 1), Some('(' | '{')))
    })
}

fn fail(reason: impl Into<String>) -> Result<Vec<String>, String> {
    Err(reason.into())
}

/// `splitShellPipeline`: split on `|`, refusing every construct the 2026.2 analyser cannot follow.
fn split_pipeline(command: &str, dialect: Dialect) -> Result<Vec<String>, String> {
    let chars: Vec<char> = command.chars().collect();
    let mut segments = Vec::new();
    let mut buf = String::new();
    let (mut in_single, mut in_double, mut escaped, mut empty_segment) = (false, false, false, false);
    // Here-documents waiting for their body, oldest first (a queue: thousands may be pending).
    let mut pending: std::collections::VecDeque<Heredoc> = std::collections::VecDeque::new();
    let mut in_body = false;
    let mut line: Vec<char> = Vec::new();
    let push = |buf: &mut String, segments: &mut Vec<String>| {
        let t = buf.trim().to_string();
        if !t.is_empty() {
            segments.push(t);
        }
        buf.clear();
    };
    let body_text = |h: &Heredoc, line: &'_ [char]| -> Vec<char> {
        let tabs = if h.strip_tabs { line.iter().take_while(|c| **c == '\t').count() } else { 0 };
        line[tabs..].to_vec()
    };
    let line_ends_heredoc = |h: &Heredoc, line: &[char]| body_text(h, line).iter().copied().eq(h.delimiter.chars());
    let mut logical = LogicalLine::default();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        let next = chars.get(i + 1).copied();
        if in_body {
            if ch == '\n' || ch == '\r' {
                if let Some(current) = pending.front() {
                    if !dialect.heredoc_logical_lines {
                        if line_ends_heredoc(current, &line) {
                            pending.pop_front();
                        } else if !current.quoted && heredoc_line_expands(&line) {
                            return fail("command substitution in unquoted heredoc");
                        }
                    } else if line_ends_heredoc(current, &line) && (current.quoted || logical.is_empty()) {
                        pending.pop_front();
                    } else if !current.quoted
                        && let Err(reason) = logical.push(&body_text(current, &line))
                    {
                        return fail(reason);
                    }
                }
                line.clear();
                in_body = !pending.is_empty();
                if ch == '\r' && next == Some('\n') {
                    i += 1;
                }
            } else {
                line.push(ch);
            }
            i += 1;
            continue;
        }
        if escaped {
            buf.push(ch);
            escaped = false;
            empty_segment = false;
        } else if !in_single && !in_double && ch == '\\' {
            escaped = true;
            buf.push(ch);
            empty_segment = false;
        } else if in_single {
            in_single = ch != '\'';
            buf.push(ch);
            empty_segment = false;
        } else if in_double {
            if ch == '\\' && matches!(next, Some('\n' | '\r')) {
                return fail("unsupported shell token: newline");
            }
            if ch == '\\' && matches!(next, Some('\\' | '"' | '$' | '`')) {
                buf.push(ch);
                buf.push(next.unwrap_or_default());
                i += 2;
                empty_segment = false;
                continue;
            }
            if ch == '$' && next == Some('(') {
                return fail("unsupported shell token: $()");
            }
            if ch == '`' {
                return fail("unsupported shell token: `");
            }
            if ch == '\n' || ch == '\r' {
                return fail("unsupported shell token: newline");
            }
            in_double = ch != '"';
            buf.push(ch);
            empty_segment = false;
        } else if ch == '\'' || ch == '"' {
            in_single = ch == '\'';
            in_double = ch == '"';
            buf.push(ch);
            empty_segment = false;
        } else if dialect.comment_starts(&chars, i) {
            break;
        } else if (ch == '\n' || ch == '\r') && !pending.is_empty() {
            in_body = true;
            line.clear();
            if ch == '\r' && next == Some('\n') {
                i += 1;
            }
        } else if ch == '|' && next == Some('|') {
            return fail("unsupported shell token: ||");
        } else if ch == '|' && next == Some('&') {
            return fail("unsupported shell token: |&");
        } else if ch == '|' {
            empty_segment = true;
            push(&mut buf, &mut segments);
        } else if ch == '&' || ch == ';' {
            return fail(format!("unsupported shell token: {ch}"));
        } else if ch == '<' && next == Some('<') {
            buf.push_str("<<");
            empty_segment = false;
            i += 1;
            let mut scan = i + 1;
            let mut strip_tabs = false;
            if chars.get(scan) == Some(&'-') {
                strip_tabs = true;
                buf.push('-');
                scan += 1;
            }
            if let Some((delimiter, end, quoted)) = parse_heredoc_delimiter(&chars, scan) {
                pending.push_back(Heredoc { delimiter, strip_tabs, quoted });
                buf.extend(&chars[scan..end]);
                i = end - 1;
            }
        } else if matches!(ch, '>' | '<' | '`' | '\n' | '\r' | '(' | ')') {
            // 2026.2 prints the raw character, a newline included.
            return fail(format!("unsupported shell token: {ch}"));
        } else if ch == '$' && next == Some('(') {
            return fail("unsupported shell token: $()");
        } else {
            buf.push(ch);
            empty_segment = false;
        }
        i += 1;
    }
    if let Some(current) = pending.front().filter(|_| in_body) {
        if dialect.heredoc_logical_lines && !current.quoted && !logical.is_empty() {
            if logical.ends_expanding(&body_text(current, &line)) {
                return fail("shell expansion in unquoted heredoc");
            }
        } else if line_ends_heredoc(current, &line) {
            pending.pop_front();
            in_body = !pending.is_empty();
        }
    }
    if !pending.is_empty() || in_body {
        return fail("unterminated heredoc");
    }
    if escaped || in_single || in_double {
        return fail("unterminated shell quote/escape");
    }
    push(&mut buf, &mut segments);
    if segments.is_empty() {
        return fail("empty command");
    }
    if empty_segment {
        return fail("empty pipeline segment");
    }
    Ok(segments)
}

/// A 2026.2 segment before evaluation.
struct LegacySegment {
    raw: String,
    argv: Vec<String>,
    effective_argv: Vec<String>,
    execution: Executable,
    wrapper_chain: Vec<String>,
    policy_blocked: bool,
}

fn segment(raw: &str, ctx: &EvalContext) -> Option<LegacySegment> {
    let argv = split_shell_args(raw, EmptyWords::Drop).filter(|a| !a.is_empty())?;
    let plan = trust_plan(&argv, &ctx.rules.wrappers);
    let exe_raw = plan.argv.first().map(|t| t.trim().to_string()).unwrap_or_default();
    Some(LegacySegment {
        raw: raw.to_string(),
        execution: resolve_executable(&exe_raw, &ctx.env, ctx.rules.lookup),
        argv,
        effective_argv: plan.argv,
        wrapper_chain: plan.wrapper_chain,
        policy_blocked: plan.policy_blocked,
    })
}

/// `analyzeShellCommand` for one chain part (or a whole chain-free command): its pipeline segments.
fn analyze_part(text: &str, ctx: &EvalContext) -> Result<Vec<LegacySegment>, String> {
    let parts = split_pipeline(text, Dialect::of(ctx.rules))?;
    parts
        .iter()
        .map(|p| segment(p, ctx))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| "unable to parse shell segment".to_string())
}

/// How deep a shell wrapper's inline chain is evaluated (`MAX_SHELL_WRAPPER_INLINE_EVAL_DEPTH`).
const MAX_INLINE_DEPTH: usize = 3;

fn evaluate_segment(
    seg: &LegacySegment,
    ctx: &EvalContext,
    inline_depth: usize,
) -> Result<(Option<usize>, Option<SatisfiedBy>), InvalidPattern> {
    if seg.policy_blocked {
        return Ok((None, None));
    }
    // Matching sees the candidate path of an unresolved path-like token (`~/bin/tool`).
    let mut candidate = seg.execution.clone();
    if candidate.resolved_path.is_none() {
        candidate.resolved_path = candidate_path(&candidate.raw, &ctx.env);
    }
    let matched = match ctx.rules.allowlist_match() {
        kind @ (AllowlistMatch::RegexBug | AllowlistMatch::PathGlobs) => {
            let home = ctx.env.home.as_deref();
            let mut entry = match_v2(&ctx.allowlist, &candidate, home, kind)?;
            // 2026.3 also matches the script a shell wrapper runs (`bash ./x.sh`).
            if entry.is_none() && kind == AllowlistMatch::PathGlobs {
                let script = plan::shell_script_path(&seg.effective_argv, &seg.execution, ctx);
                entry = script
                    .map(|s| plan::executable_at(&s))
                    .and_then(|s| match_v2(&ctx.allowlist, &s, home, kind).ok()?);
            }
            entry.and_then(|m| ctx.allowlist.iter().position(|e| std::ptr::eq(e, m)))
        }
        _ => plan::resolve_argv(&seg.argv, ctx).and_then(|res| plan::segment_allowlist_match(&seg.argv, &res, ctx).1),
    };
    let by = if matched.is_some() {
        Some(SatisfiedBy::Allowlist)
    } else if ctx.safe_bins.accepts(&seg.execution, &seg.effective_argv[1.min(seg.effective_argv.len())..], ctx.windows)
    {
        Some(SatisfiedBy::SafeBins)
    } else if !matches!(ctx.rules.allowlist_match(), AllowlistMatch::RegexBug | AllowlistMatch::PathGlobs) {
        // 2026.4 and 2026.5 look into a shell wrapper's inline chain; 2026.2 and 2026.3 do not.
        inline_chain(seg, ctx, inline_depth + 1)
    } else {
        None
    };
    Ok((matched, by))
}

/// `resolveInlineCommandFallback` (2026.5): a shell wrapper whose inline command is a chain of
/// several parts is satisfied when every segment of every part is, by the allowlist (or
/// `inlineChain` when safe bins helped; 2026.4 always says `allowlist`).
fn inline_chain(seg: &LegacySegment, ctx: &EvalContext, depth: usize) -> Option<SatisfiedBy> {
    if depth >= MAX_INLINE_DEPTH {
        return None;
    }
    // 2026.4 reads any shell payload and reports the chain as the allowlist's.
    let executable_paths = ctx.rules.allowlist_match() == AllowlistMatch::ExecutablePaths;
    let wrapper = shell_wrapper(&seg.effective_argv, &ctx.rules.wrappers)?;
    let inline = if executable_paths { wrapper.payload } else { wrapper.bindable? };
    if inline.contains("\\\n") || inline.contains("\\\r") {
        return None;
    }
    let parts = split_chain(&inline, Dialect::of(ctx.rules)).filter(|parts| parts.len() > 1)?;
    let mut helped = false;
    for part in parts {
        for inner in analyze_part(&part.text, ctx).ok()? {
            match evaluate_segment(&inner, ctx, depth).ok()?.1? {
                SatisfiedBy::SafeBins | SatisfiedBy::InlineChain => helped = true,
                _ => {}
            }
        }
    }
    Some(if helped && !executable_paths { SatisfiedBy::InlineChain } else { SatisfiedBy::Allowlist })
}

fn report(seg: &LegacySegment) -> Segment {
    let mut s = Segment::unevaluated(seg.argv.clone(), seg.raw.clone(), None);
    s.resolved_path = seg.execution.resolved_path.clone();
    s.real_path = seg.execution.real_path.clone();
    s.effective_argv = Some(seg.effective_argv.clone());
    s.wrapper_chain = seg.wrapper_chain.clone();
    s.policy_blocked = seg.policy_blocked;
    if seg.policy_blocked {
        s.reasons.push(format!("blocked wrapper: {}", seg.wrapper_chain.last().cloned().unwrap_or_default()));
    }
    s
}

/// 2026.2 `evaluateShellAllowlist`. Evaluation stops at the first unsatisfied segment; the
/// reported segments cover only the chain parts seen so far. An invalid allowlist pattern
/// (the regex-metachar bug) is an error for the whole evaluation.
pub fn evaluate(command: &str, ctx: &EvalContext) -> Result<Evaluation, InvalidPattern> {
    let failure = |reason: String| Evaluation {
        analysis_ok: false,
        allowlist_satisfied: false,
        segments: Vec::new(),
        plan_failure: Some(PlanFailure { span: failure_span(command, &reason), reason }),
        pinned: None,
    };
    if command.contains("\\\n") || command.contains("\\\r") {
        return Ok(failure("line continuation".to_string()));
    }
    // 2026.2 analyses chain parts lazily (a part after the first unsatisfied one is never looked
    // at); 2026.5 analyses them all first.
    let parts: Vec<String> = split_chain(command, Dialect::of(ctx.rules))
        .map_or_else(|| vec![command.to_string()], |p| p.into_iter().map(|p| p.text).collect());
    let mut eager: Vec<Option<Vec<LegacySegment>>> =
        if ctx.rules.chain_splitter.as_ref().is_some_and(|r| r.analyses_every_part) {
            match parts.iter().map(|part| analyze_part(part, ctx)).collect::<Result<Vec<_>, _>>() {
                Ok(groups) => groups.into_iter().map(Some).collect(),
                Err(reason) => return Ok(failure(reason)),
            }
        } else {
            Vec::new()
        };
    let mut segments = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        let analysed = match eager.get_mut(index).and_then(Option::take) {
            Some(group) => Ok(group),
            None => analyze_part(part, ctx),
        };
        let group = match analysed {
            Ok(g) => g,
            Err(reason) => return Ok(failure(reason)),
        };
        let start = segments.len();
        segments.extend(group.iter().map(report));
        for (i, seg) in group.iter().enumerate() {
            let (matched, by) = evaluate_segment(seg, ctx, 0)?;
            segments[start + i].matched = matched.map(|m| ctx.allowlist[m].clone());
            segments[start + i].satisfied_by = by;
            if by.is_none() {
                // Segments after the miss are reported but were never evaluated.
                segments[start + i + 1..]
                    .iter_mut()
                    .for_each(|s| s.reasons.push("not evaluated (2026.2 stops at the first miss)".into()));
                return Ok(Evaluation {
                    analysis_ok: true,
                    allowlist_satisfied: false,
                    segments,
                    plan_failure: None,
                    pinned: None,
                });
            }
        }
    }
    Ok(Evaluation { analysis_ok: true, allowlist_satisfied: true, segments, plan_failure: None, pinned: None })
}

/// `analyzeShellCommand`: every segment's argv of a command (all chain parts), or `None` when
/// the command does not parse.
pub(crate) fn segment_argvs(command: &str, ctx: &EvalContext) -> Option<Vec<Vec<String>>> {
    let parts: Vec<String> = split_chain(command, Dialect::of(ctx.rules))
        .map_or_else(|| vec![command.to_string()], |p| p.into_iter().map(|p| p.text).collect());
    let mut argvs = Vec::new();
    for part in &parts {
        argvs.extend(analyze_part(part, ctx).ok()?.into_iter().map(|segment| segment.argv));
    }
    Some(argvs)
}

/// Where the construct a 2026.2 failure reason names first appears (a best effort: the splitter
/// works on chain parts, so the exact offset is not kept).
fn failure_span(command: &str, reason: &str) -> Option<std::ops::Range<usize>> {
    let token = match reason {
        "line continuation" => "\\\n",
        "unsupported shell token: newline" => "\n",
        r if r.starts_with("unsupported shell token: ") => &r["unsupported shell token: ".len()..],
        "command substitution in unquoted heredoc" | "unterminated heredoc" => "<<",
        _ => return None,
    };
    let token = if token == "$()" { "$(" } else { token };
    command.find(token).map(|start| start..start + token.len())
}

fn single_quote(token: &str) -> String {
    format!("'{}'", token.replace('\'', "'\"'\"'"))
}

/// `buildEnforcedShellCommand`: every satisfied segment re-rendered with its resolved path (its
/// real path where the release's lookup resolves one) and every token single-quoted, chain
/// operators and pipes kept.
pub fn enforced_command(command: &str, evaluation: &Evaluation, dialect: Dialect) -> Result<String, String> {
    let source = command.trim();
    if source.is_empty() {
        return Err("empty command".into());
    }
    let parts =
        split_chain(source, dialect).unwrap_or_else(|| vec![ChainPart { text: source.to_string(), op_to_next: None }]);
    let mut out = String::new();
    let mut index = 0;
    for part in parts {
        let pipeline = split_pipeline(&part.text, dialect)?;
        let mut rendered = Vec::new();
        for _ in pipeline {
            let seg = evaluation.segments.get(index).ok_or("segment mapping failed")?;
            index += 1;
            if seg.policy_blocked {
                return Err("segment execution plan unavailable".into());
            }
            let mut argv = seg.effective_argv.clone().filter(|a| !a.is_empty()).unwrap_or_else(|| seg.argv.clone());
            let path = seg.real_path.as_deref().or(seg.resolved_path.as_deref());
            if let Some(path) = path.filter(|p| !p.trim().is_empty()) {
                argv[0] = path.to_string();
            }
            rendered.push(argv.iter().map(|t| single_quote(t)).collect::<Vec<_>>().join(" "));
        }
        out.push_str(&rendered.join(" | "));
        if let Some(op) = part.op_to_next {
            out.push_str(&format!(" {op} "));
        }
    }
    if index != evaluation.segments.len() {
        return Err("segment count mismatch".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipeline_split_reasons() {
        assert_eq!(split_pipeline("ls -la | head", Dialect::default()).unwrap(), vec!["ls -la", "head"]);
        assert_eq!(split_pipeline("ls > x", Dialect::default()).unwrap_err(), "unsupported shell token: >");
        assert_eq!(split_pipeline("echo \"$(x)\"", Dialect::default()).unwrap_err(), "unsupported shell token: $()");
        assert_eq!(split_pipeline("ls |", Dialect::default()).unwrap_err(), "empty pipeline segment");
        assert_eq!(split_pipeline("echo 'x", Dialect::default()).unwrap_err(), "unterminated shell quote/escape");
        assert_eq!(split_pipeline("cat <<EOF\nhi\nEOF", Dialect::default()).unwrap(), vec!["cat <<EOF"]);
        assert_eq!(
            split_pipeline("cat <<EOF\n$(x)\nEOF", Dialect::default()).unwrap_err(),
            "command substitution in unquoted heredoc"
        );
        assert_eq!(split_pipeline("cat <<EOF\nhi", Dialect::default()).unwrap_err(), "unterminated heredoc");
    }

    #[test]
    fn thousands_of_pending_heredocs_are_read_in_linear_time() {
        let n = 60_000;
        let command = format!("cat {}\n{}", "<<A ".repeat(n), "A\n".repeat(n));
        let started = std::time::Instant::now();
        assert_eq!(split_pipeline(&command, Dialect::default()).unwrap().len(), 1);
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
        let unterminated = format!("cat {}\n{}", "<<A ".repeat(3), "A\n".repeat(2));
        assert_eq!(split_pipeline(&unterminated, Dialect::default()).unwrap_err(), "unterminated heredoc");
    }

    #[test]
    fn failure_spans_point_at_the_token() {
        assert_eq!(failure_span("ls > out", "unsupported shell token: >"), Some(3..4));
        assert_eq!(failure_span("echo \"$(id)\"", "unsupported shell token: $()"), Some(6..8));
        assert_eq!(failure_span("ls", "empty command"), None);
    }

    #[test]
    fn comments_end_the_command_where_the_dialect_has_them() {
        let comments = Dialect { comments: true, ..Dialect::default() };
        assert_eq!(split_pipeline("ls # c", comments).unwrap(), vec!["ls"]);
        assert_eq!(split_pipeline("ls a#b '# q'", comments).unwrap(), vec!["ls a#b '# q'"]);
        assert_eq!(split_pipeline("ls # c", Dialect::default()).unwrap(), vec!["ls # c"]);
        assert_eq!(split_chain("ls # c && rm x", comments).map(|p| p.len()), None);
        assert_eq!(split_chain("ls && true # x; rm", comments).unwrap()[1].text, "true");
    }

    #[test]
    fn heredoc_logical_lines_refuse_any_expansion() {
        let logical = Dialect { heredoc_logical_lines: true, ..Dialect::default() };
        assert_eq!(
            split_pipeline("cat <<EOF\n$HOME\nEOF", logical).unwrap_err(),
            "shell expansion in unquoted heredoc"
        );
        assert!(split_pipeline("cat <<EOF\n$HOME\nEOF", Dialect::default()).is_ok());
        assert!(split_pipeline("cat <<EOF\nfoo$\nEOF", logical).is_ok());
        assert!(split_pipeline("cat <<'EOF'\n$HOME\nEOF", logical).is_ok());
        let joined = "cat <<EOF\na $\\\n(x)\nEOF";
        assert_eq!(split_pipeline(joined, logical).unwrap_err(), "shell expansion in unquoted heredoc");
        assert_eq!(split_pipeline("cat <<EOF\nok \\\nEOF\nEOF", logical).unwrap(), vec!["cat <<EOF"]);
    }

    #[test]
    fn chain_split() {
        let parts = split_chain("git status && rm -rf x; ls", Dialect::default()).unwrap();
        assert_eq!(parts.iter().map(|p| p.text.as_str()).collect::<Vec<_>>(), vec!["git status", "rm -rf x", "ls"]);
        assert!(split_chain("ls", Dialect::default()).is_none());
        assert!(split_chain("ls &&", Dialect::default()).is_none());
    }
}
