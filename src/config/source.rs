//! Loaded source texts and the origin (file, key path, span, line:column) of every value.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::{NamedSource, SourceSpan};

use super::path::{PathSeg, dotted};

/// One file that was read while loading: its path and its text.
///
/// `display_source` is the text with secret string literals masked (same byte length, so spans
/// stay valid); diagnostics render snippets from it so that no secret is ever printed.
pub struct SourceFile {
    pub path: PathBuf,
    text: Arc<str>,
    pub(crate) display_source: NamedSource<Arc<str>>,
    line_starts: Vec<usize>,
    /// UTF-8 continuation bytes before each multiple of [`CHAR_BLOCK`] bytes, so a column is
    /// counted in characters without rescanning a long line from its start for every value.
    continuation_marks: Vec<usize>,
}

const CHAR_BLOCK: usize = 256;

fn is_continuation(byte: &u8) -> bool {
    (byte & 0xC0) == 0x80
}

impl SourceFile {
    pub fn new(path: PathBuf, text: String) -> Self {
        let display = text.clone();
        SourceFile::with_display_text(path, text, display)
    }

    /// `display_text` must have the same length and line breaks as `text` (secrets masked in place).
    pub fn with_display_text(path: PathBuf, text: String, display_text: String) -> Self {
        debug_assert_eq!(display_text.len(), text.len());
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let continuation_marks = std::iter::once(0)
            .chain(text.as_bytes().chunks(CHAR_BLOCK).scan(0, |total, block| {
                *total += block.iter().filter(|b| is_continuation(b)).count();
                Some(*total)
            }))
            .collect();
        let text: Arc<str> = text.into();
        SourceFile {
            display_source: display_source(&path, display_text.into()),
            path,
            text,
            line_starts,
            continuation_marks,
        }
    }

    /// The text exactly as read.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text with secrets masked: safe to show.
    pub fn display_text(&self) -> &str {
        self.display_source.inner()
    }

    /// A miette source for snippets (secrets masked).
    pub fn named_source(&self) -> NamedSource<Arc<str>> {
        self.display_source.clone()
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let line_start = self.line_starts[line];
        let column =
            (offset - line_start) - (self.continuations_before(offset) - self.continuations_before(line_start));
        (line + 1, column + 1)
    }

    fn continuations_before(&self, offset: usize) -> usize {
        if self.continuation_marks.last() == Some(&0) {
            return 0; // ASCII text
        }
        let block = offset / CHAR_BLOCK;
        let tail = &self.text.as_bytes()[block * CHAR_BLOCK..offset];
        self.continuation_marks[block] + tail.iter().filter(|b| is_continuation(b)).count()
    }
}

fn display_source(path: &Path, text: Arc<str>) -> NamedSource<Arc<str>> {
    NamedSource::new(path.display().to_string(), text).with_language("json5")
}

impl fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SourceFile").field("path", &self.path).field("bytes", &self.text.len()).finish()
    }
}

/// Where a value was written: the file, its key path inside that file, and the byte span of the
/// value (plus the span of its key when it is an object member).
#[derive(Clone)]
pub struct Origin {
    pub source: Arc<SourceFile>,
    /// Key path of the value inside `source` (not the resolved path: an included file's root is `[]`).
    pub key_path: Vec<PathSeg>,
    pub span: SourceSpan,
    pub key_span: Option<SourceSpan>,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
}

impl Origin {
    pub(crate) fn new(
        source: &Arc<SourceFile>,
        key_path: Vec<PathSeg>,
        span: SourceSpan,
        key_span: Option<SourceSpan>,
    ) -> Self {
        let (line, column) = source.line_col(key_span.unwrap_or(span).offset());
        Origin { source: source.clone(), key_path, span, key_span, line, column }
    }

    pub fn file(&self) -> &Path {
        &self.source.path
    }

    /// The span to point at: the key when there is one (`"allow": [...]` reads as one member),
    /// else the value.
    pub fn label_span(&self) -> SourceSpan {
        match self.key_span {
            Some(key) => {
                let end = self.span.offset() + self.span.len();
                SourceSpan::new(key.offset().into(), end.saturating_sub(key.offset()))
            }
            None => self.span,
        }
    }

    pub fn named_source(&self) -> NamedSource<Arc<str>> {
        self.source.named_source()
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.source.path.display(), self.line, self.column)
    }
}

impl fmt::Debug for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Origin({self} `{}`)", dotted(&self.key_path))
    }
}

/// A place in a file as machine output carries it: the file and the 1-based line and column.
/// Displays as `file:line:col`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl Location {
    /// The same place with the file named by `show` (relative paths in CI reports).
    pub fn map_file(self, show: impl FnOnce(String) -> String) -> Location {
        Location { file: show(self.file), ..self }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

impl From<&Origin> for Location {
    fn from(origin: &Origin) -> Self {
        Location { file: origin.file().display().to_string(), line: origin.line, column: origin.column }
    }
}

impl PartialEq for Origin {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.source, &other.source) && self.span == other.span && self.key_span == other.key_span
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_is_one_based_in_chars() {
        let src = SourceFile::new("a.json5".into(), "{\n  é: 1,\n  b: 2\n}".into());
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(4), (2, 3));
        let b = src.text().find('b').unwrap();
        assert_eq!(src.line_col(b), (3, 3));
        assert_eq!(src.line_col(10_000), (4, 2));
        let long = format!("{{\"k\": \"{}\", \"end\": 1}}", "é".repeat(500));
        let long_line = SourceFile::new("long.json5".into(), long.clone());
        let end = long.find("\"end\"").unwrap();
        assert_eq!(long_line.line_col(end), (1, long[..end].chars().count() + 1), "columns across blocks");
    }
}
