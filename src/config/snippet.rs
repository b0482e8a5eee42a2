//! Bounded source snippets: a diagnostic shows the lines around what it labels, never a whole
//! object or a whole minified file.
//!
//! miette prints every line a label covers, and its `&str` source rescans the file from the start
//! for every label. An [`Excerpt`] is a small text holding only the lines a diagnostic needs: a
//! label that spans several lines is shown as its first line and its last line (each with one
//! line of context, so the lines between are left out), and a long line is cut to a window
//! around its label with `…` at the cuts. It reports the real line and column numbers, and it is
//! cut from the file's display text (secrets masked, see [`SourceFile`]).

use std::ops::Range;

use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use super::source::{Origin, SourceFile};

/// Lines shown above and below a labelled line.
const CONTEXT_LINES: usize = 1;
/// A label over at most this many lines is shown whole; a longer one by its first and last lines.
const MAX_WHOLE_LINES: usize = 8;
/// Characters of a long line that are shown.
const WINDOW_CHARS: usize = 120;
/// Characters kept before the first label of a cut line.
const CHARS_BEFORE_LABEL: usize = 40;
const CUT: &str = "…";

/// Something to underline: a byte span of the file and its label.
#[derive(Debug, Clone)]
pub struct Mark {
    pub span: Range<usize>,
    pub label: Option<String>,
}

impl Mark {
    pub fn new(span: SourceSpan, label: impl Into<String>) -> Self {
        Mark { span: span.offset()..span.offset() + span.len(), label: Some(label.into()) }
    }

    /// The key and its value (`"allow": [...]` reads as one member), or the value alone.
    pub fn member(origin: &Origin, label: impl Into<String>) -> Self {
        Mark::new(origin.label_span(), label)
    }

    /// Only the key of a member (the value when there is no key).
    pub fn key(origin: &Origin, label: impl Into<String>) -> Self {
        Mark::new(origin.key_span.unwrap_or(origin.span), label)
    }
}

/// The few lines of one file a diagnostic shows, as a miette source with its labels.
#[derive(Debug, Clone)]
pub struct Excerpt {
    name: String,
    text: String,
    lines: Vec<ExcerptLine>,
    labels: Vec<LabeledSpan>,
}

#[derive(Debug, Clone)]
struct ExcerptLine {
    /// Where the line is in the excerpt text (without its line break).
    start: usize,
    end: usize,
    /// 0-based line number in the file.
    number: usize,
    /// File offset and 0-based column (characters) of the first character shown, after the
    /// `…` prefix (of `prefix` bytes) when the line is cut on the left.
    source_start: usize,
    source_column: usize,
    prefix: usize,
    /// File offset after the last character shown.
    source_end: usize,
}

/// A shown piece of one file line: the byte window of its content.
struct Window {
    number: usize,
    range: Range<usize>,
    line: Range<usize>,
}

impl Excerpt {
    /// The excerpt of `source` for `marks`; the first mark anchors a cut line, later marks on the
    /// same line that do not fit its window are left out.
    pub fn new(source: &SourceFile, marks: Vec<Mark>) -> Self {
        let text = source.display_text();
        let parts = split_multiline(source, marks);
        // Labelled lines first (the first mark on a line anchors its window), then their context
        // lines, cut at the same place so that they line up. Nothing here scans a whole line:
        // a minified file is one line, and each finding must cost the same on it.
        let mut windows: Vec<Window> = Vec::new();
        let add = |windows: &mut Vec<Window>, number: usize, start: usize, end: Option<usize>| {
            if windows.iter().all(|w| w.number != number) {
                let line = source.line_range(number);
                // A line without the label itself is cut where the label's line is.
                let start = end.map_or_else(|| aligned(text, line.clone(), start), |_| start);
                let range = window_at(text, line.clone(), start, end.unwrap_or(start));
                windows.push(Window { number, range, line });
            }
        };
        let spans: Vec<(usize, usize, usize)> = parts
            .iter()
            .map(|(span, _)| {
                let (first, last) = (source.line_index(span.start), source.line_index(last_byte(span)));
                (first, last, span.start - source.line_range(first).start)
            })
            .collect();
        for ((span, _), &(first, last, anchor)) in parts.iter().zip(&spans) {
            add(&mut windows, first, span.start, Some(span.end));
            for number in first + 1..=last {
                add(&mut windows, number, anchor, None);
            }
        }
        for &(first, last, anchor) in &spans {
            let after = (last + CONTEXT_LINES).min(source.line_count() - 1);
            for number in (first.saturating_sub(CONTEXT_LINES)..first).chain(last + 1..=after) {
                add(&mut windows, number, anchor, None);
            }
        }
        windows.sort_by_key(|w| w.number);

        let mut excerpt = String::new();
        let mut lines = Vec::with_capacity(windows.len());
        for window in &windows {
            if !excerpt.is_empty() {
                excerpt.push('\n');
            }
            let start = excerpt.len();
            let prefix = if window.range.start > window.line.start { CUT.len() } else { 0 };
            if prefix > 0 {
                excerpt.push_str(CUT);
            }
            excerpt.push_str(&text[window.range.clone()]);
            if window.range.end < window.line.end {
                excerpt.push_str(CUT);
            }
            lines.push(ExcerptLine {
                start,
                end: excerpt.len(),
                number: window.number,
                source_start: window.range.start,
                source_column: source.column(window.range.start),
                prefix,
                source_end: window.range.end,
            });
        }

        // A file offset in the excerpt, if its line is shown and it is inside the shown window.
        let excerpt_offset = |offset: usize, line_of: usize| {
            let line = lines.iter().find(|l| l.number == source.line_index(line_of))?;
            let inside = (line.source_start..=line.source_end).contains(&offset);
            inside.then(|| line.start + line.prefix + (offset - line.source_start))
        };
        let labels = parts
            .into_iter()
            .filter_map(|(span, label)| {
                let start = excerpt_offset(span.start, span.start)?;
                let end_line = lines.iter().find(|l| l.number == source.line_index(last_byte(&span)))?;
                let end = excerpt_offset(span.end.clamp(end_line.source_start, end_line.source_end), last_byte(&span))?;
                Some(LabeledSpan::new(label, start, end.saturating_sub(start)))
            })
            .collect();
        Excerpt { name: source.path.display().to_string(), text: excerpt, lines, labels }
    }

    pub fn labels(&self) -> Box<dyn Iterator<Item = LabeledSpan> + '_> {
        Box::new(self.labels.iter().cloned())
    }

    /// Index of the excerpt line holding excerpt offset `offset`.
    fn line_at(&self, offset: usize) -> usize {
        self.lines.partition_point(|l| l.start <= offset).saturating_sub(1)
    }

    /// 0-based column, in the file, of excerpt offset `offset`.
    fn source_column(&self, offset: usize) -> usize {
        let line = &self.lines[self.line_at(offset)];
        let shown_from = line.start + line.prefix;
        let clamped = offset.clamp(shown_from, line.end.max(shown_from));
        line.source_column + self.text.get(shown_from..clamped).map_or(0, |s| s.chars().count())
    }
}

/// A mark that spans more than [`MAX_WHOLE_LINES`] lines becomes its first line (with the label)
/// and its last line from the first non-blank character (unlabelled): the lines between are left
/// out of the snippet.
fn split_multiline(source: &SourceFile, marks: Vec<Mark>) -> Vec<(Range<usize>, Option<String>)> {
    let text = source.display_text();
    let floor = |mut offset: usize| {
        offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    };
    let mut parts = Vec::new();
    for mark in marks {
        let start = floor(mark.span.start);
        let span = start..floor(mark.span.end.max(mark.span.start));
        let first = source.line_index(start);
        let last = source.line_index(last_byte(&span));
        if last - first < MAX_WHOLE_LINES {
            parts.push((span, mark.label));
            continue;
        }
        parts.push((start..source.line_range(first).end.max(start), mark.label));
        let last_line = &text[source.line_range(last)];
        let blank = last_line.len() - last_line.trim_start().len();
        let tail_start = (source.line_range(last).start + blank).min(span.end);
        parts.push((tail_start..span.end, None));
    }
    parts
}

/// The offset of the last byte of a span (its start when it is empty).
fn last_byte(span: &Range<usize>) -> usize {
    span.end.saturating_sub(1).max(span.start)
}

/// `line.start + offset_in_line`, inside the line and on a character boundary.
fn aligned(text: &str, line: Range<usize>, offset_in_line: usize) -> usize {
    let mut at = (line.start + offset_in_line).min(line.end);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The byte range of `line` to show so that `start..end` is visible: the whole line when it is
/// short, else a window of [`WINDOW_CHARS`] beginning a little before `start`.
fn window_at(text: &str, line: Range<usize>, start: usize, end: usize) -> Range<usize> {
    if text[line.clone()].chars().nth(WINDOW_CHARS).is_none() {
        return line;
    }
    let before = text[line.start..start.clamp(line.start, line.end)].chars().rev().take(CHARS_BEFORE_LABEL);
    let window_start = start.clamp(line.start, line.end) - before.map(char::len_utf8).sum::<usize>();
    let wanted = text[window_start..line.end].chars().take(WINDOW_CHARS).map(char::len_utf8).sum::<usize>();
    let window_end = (window_start + wanted).max(end.min(line.end).min(window_start + 2 * wanted));
    let mut window_end = window_end.min(line.end);
    while !text.is_char_boundary(window_end) {
        window_end -= 1;
    }
    window_start..window_end
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let (offset, end) = (span.offset(), span.offset() + span.len());
        if end > self.text.len() || self.lines.is_empty() {
            return Err(MietteError::OutOfBounds);
        }
        let (mut first, mut last) = (self.line_at(offset), self.line_at(end));
        // Context never crosses a gap: lines left out of the excerpt are not shown as if adjacent.
        for _ in 0..context_lines_before {
            if first > 0 && self.lines[first - 1].number + 1 == self.lines[first].number {
                first -= 1;
            }
        }
        for _ in 0..context_lines_after {
            if last + 1 < self.lines.len() && self.lines[last].number + 1 == self.lines[last + 1].number {
                last += 1;
            }
        }
        let data_start = if context_lines_before == 0 { offset } else { self.lines[first].start };
        let data_end = if context_lines_after == 0 {
            end
        } else {
            // With its line break, as miette's own sources return lines.
            (self.lines[last].end + 1).min(self.text.len())
        };
        let column = if context_lines_before == 0 { self.source_column(offset) } else { 0 };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &self.text.as_bytes()[data_start..data_end],
            (data_start, data_end - data_start).into(),
            self.lines[first].number,
            column,
            last - first + 1,
        )))
    }
}

#[cfg(test)]
mod tests {
    use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("problem")]
    struct Shown(Excerpt);

    impl Diagnostic for Shown {
        fn source_code(&self) -> Option<&dyn SourceCode> {
            Some(&self.0)
        }

        fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
            Some(self.0.labels())
        }
    }

    fn render(source: &SourceFile, marks: Vec<Mark>) -> String {
        let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(usize::MAX);
        let mut out = String::new();
        handler.render_report(&mut out, &Shown(Excerpt::new(source, marks))).unwrap();
        out
    }

    fn span_of(text: &str, needle: &str) -> Range<usize> {
        let start = text.find(needle).unwrap();
        start..start + needle.len()
    }

    #[test]
    fn a_long_object_shows_its_first_and_last_lines() {
        let body: String = (0..300).map(|i| format!("    k{i}: {i},\n")).collect();
        let text = format!("{{\n  tools: {{\n{body}  }},\n}}\n");
        let source = SourceFile::new("c.json5".into(), text.clone());
        let start = text.find("tools").unwrap();
        let end = text.rfind('}').unwrap() - 2;
        let out = render(&source, vec![Mark { span: start..end, label: Some("this value".into()) }]);
        assert!(out.contains("[c.json5:2:3]"), "{out}");
        assert!(out.contains(" 2 │   tools: {") && out.contains("303 │   },"), "{out}");
        assert!(!out.contains("k150"), "{out}");
        assert!(out.lines().count() < 20, "{out}");
    }

    #[test]
    fn a_long_line_is_cut_around_its_label() {
        let text = format!("{{{}, bad: 1, {}}}", "a: 1, ".repeat(5_000), "b: 2, ".repeat(5_000));
        let source = SourceFile::new("min.json5".into(), text.clone());
        let out = render(&source, vec![Mark { span: span_of(&text, "bad"), label: Some("here".into()) }]);
        assert!(out.len() < 1_000, "{out}");
        assert!(out.contains("…") && out.contains("bad: 1"), "{out}");
        let column = text.find("bad").unwrap() + 1;
        assert!(out.contains(&format!("[min.json5:1:{column}]")), "{out}");
        // The label sits under `bad`.
        let code = out.lines().find(|l| l.contains("bad: 1")).unwrap();
        let underline = out.lines().skip_while(|l| !l.contains("bad: 1")).nth(1).unwrap();
        let column = |line: &str, at: Option<usize>| at.map(|i| line[..i].chars().count());
        assert_eq!(column(code, code.find("bad")), column(underline, underline.find(['─', '┬'])), "{out}");
    }

    #[test]
    fn far_apart_marks_render_as_separate_snippets_with_real_line_numbers() {
        let text: String = (1..=50).map(|i| format!("line{i}\n")).collect();
        let source = SourceFile::new("f".into(), text.clone());
        let marks = vec![
            Mark { span: span_of(&text, "line40"), label: Some("here".into()) },
            Mark {
                span: span_of(&text, "line3\n").start..span_of(&text, "line3\n").start + 5,
                label: Some("first".into()),
            },
        ];
        let out = render(&source, marks);
        for shown in [" 2 │ line2", " 3 │ line3", " 4 │ line4", "39 │ line39", "40 │ line40", "41 │ line41"]
        {
            assert!(out.contains(shown), "{shown} missing in\n{out}");
        }
        assert!(!out.contains("line20"), "{out}");
    }

    #[test]
    fn snippets_are_cut_from_the_masked_text() {
        let text = "{ url: 'wss://u:hunter2@h' }".to_string();
        let source = SourceFile::new("f".into(), text.clone());
        let out = render(&source, vec![Mark { span: span_of(&text, "url"), label: Some("here".into()) }]);
        assert!(!out.contains("hunter2") && out.contains("wss://u:*******@h"), "{out}");
    }
}
