//! Loaded source texts and the origin (file, key path, span, line:column) of every value.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use std::ops::Range;

use miette::SourceSpan;

use super::path::{PathSeg, dotted};
use super::secrets;

/// One file that was read while loading: its path and its text.
///
/// `display_text` is the text as it may be shown: secrets masked (by position and by value, see
/// [`super::secrets`]) and control characters neutralized, at the same byte length and with the
/// same line breaks, so spans and line numbers stay valid. Snippets are only ever cut from it.
/// It is made when first asked for: most runs show no snippet, and finding the credential-looking
/// parts of a text compiles several regexes.
pub struct SourceFile {
    pub path: PathBuf,
    text: Arc<str>,
    /// Byte ranges of values under secret paths.
    secret_ranges: Vec<Range<usize>>,
    display_text: OnceLock<Box<str>>,
    line_starts: Vec<usize>,
    /// UTF-8 continuation bytes before each block of [`COLUMN_BLOCK`] bytes, so that a column
    /// (in characters) costs O(1), not a scan from the line start: a minified file has one line.
    continuation_bytes_before_block: Vec<usize>,
}

const COLUMN_BLOCK: usize = 256;

fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

impl SourceFile {
    /// A file with no secrets known by position (credential-looking text is still masked).
    pub fn new(path: PathBuf, text: String) -> Self {
        SourceFile::with_secrets(path, text, &[])
    }

    /// A file whose `secret_ranges` (byte ranges of values under secret paths) are masked.
    pub fn with_secrets(path: PathBuf, text: String, secret_ranges: &[Range<usize>]) -> Self {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let mut continuation_bytes_before_block = vec![0];
        for block in text.as_bytes().chunks(COLUMN_BLOCK) {
            let before = continuation_bytes_before_block.last().copied().unwrap_or(0);
            continuation_bytes_before_block.push(before + block.iter().filter(|&&b| is_continuation(b)).count());
        }
        SourceFile {
            path,
            text: text.into(),
            secret_ranges: secret_ranges.to_vec(),
            display_text: OnceLock::new(),
            line_starts,
            continuation_bytes_before_block,
        }
    }

    /// The text exactly as read.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text with secrets masked and control characters neutralized: safe to show.
    pub fn display_text(&self) -> &str {
        self.display_text.get_or_init(|| display_text(&self.text, &self.secret_ranges).into())
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        (self.line_index(offset) + 1, self.column(offset) + 1)
    }

    /// 0-based column, in characters of the text as read, of a byte offset.
    pub(crate) fn column(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let line_start = self.line_starts[self.line_index(offset)];
        // No multi-byte character in the blocks from the line's start to the offset's (most
        // configs have none): bytes are characters.
        let blocks = &self.continuation_bytes_before_block;
        if blocks[line_start / COLUMN_BLOCK] == blocks[(offset / COLUMN_BLOCK + 1).min(blocks.len() - 1)] {
            return offset - line_start;
        }
        self.chars_before(offset) - self.chars_before(line_start)
    }

    fn chars_before(&self, offset: usize) -> usize {
        let block = offset / COLUMN_BLOCK;
        let in_block = &self.text.as_bytes()[block * COLUMN_BLOCK..offset];
        offset - self.continuation_bytes_before_block[block] - in_block.iter().filter(|&&b| is_continuation(b)).count()
    }

    /// 0-based line of a byte offset.
    pub(crate) fn line_index(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset) - 1
    }

    pub(crate) fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte range of a 0-based line's content, without its line break.
    pub(crate) fn line_range(&self, line: usize) -> Range<usize> {
        let start = self.line_starts[line];
        let end = self.line_starts.get(line + 1).map_or(self.text.len(), |next| next - 1);
        let end = if end > start && self.text.as_bytes()[end - 1] == b'\r' { end - 1 } else { end };
        start..end
    }
}

/// The text with `secret_ranges` and every credential-looking part masked, and control
/// characters (C0 but tab and line breaks, a `\r` outside `\r\n`, DEL, C1, bidirectional
/// overrides) replaced by `?` byte for byte: a snippet can neither leak a secret nor drive the
/// terminal.
fn display_text(text: &str, secret_ranges: &[Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for range in secret_ranges.iter().cloned().chain(secrets::credential_ranges(text)) {
        secrets::mask_range(&mut bytes, range);
    }
    let mut chars = text.char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        let lone_carriage_return = c == '\r' && chars.peek().is_none_or(|&(_, next)| next != '\n');
        let neutralize = lone_carriage_return
            || matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if neutralize && bytes[offset] != b'*' {
            bytes[offset..offset + c.len_utf8()].fill(b'?');
        }
    }
    String::from_utf8(bytes).expect("masking replaces whole characters with ASCII")
}

impl fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SourceFile").field("path", &self.path).field("bytes", &self.text.len()).finish()
    }
}

/// A key path that shares its prefix with its parent's: every value of a file has one, and a file
/// 512 levels deep with a million values must not hold 512 segments per value.
#[derive(Clone, Default)]
pub struct SharedKeyPath(Option<Arc<(PathSeg, SharedKeyPath)>>);

impl SharedKeyPath {
    pub fn child(&self, seg: PathSeg) -> Self {
        SharedKeyPath(Some(Arc::new((seg, self.clone()))))
    }

    pub fn to_vec(&self) -> Vec<PathSeg> {
        let mut segments = Vec::new();
        let mut at = self;
        while let Some(link) = &at.0 {
            segments.push(link.0.clone());
            at = &link.1;
        }
        segments.reverse();
        segments
    }
}

impl Drop for SharedKeyPath {
    /// Iterative, so that dropping a deep path cannot overflow the stack.
    fn drop(&mut self) {
        let mut next = self.0.take();
        while let Some(link) = next {
            next = Arc::try_unwrap(link).ok().and_then(|(_, mut parent)| parent.0.take());
        }
    }
}

/// Where a value was written: the file, its key path inside that file, and the byte span of the
/// value (plus the span of its key when it is an object member).
#[derive(Clone)]
pub struct Origin {
    pub source: Arc<SourceFile>,
    /// Key path of the value inside `source` (not the resolved path: an included file's root is
    /// `[]`); see [`Origin::key_path`].
    key_path: SharedKeyPath,
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
        key_path: SharedKeyPath,
        span: SourceSpan,
        key_span: Option<SourceSpan>,
    ) -> Self {
        let (line, column) = source.line_col(key_span.unwrap_or(span).offset());
        Origin { source: source.clone(), key_path, span, key_span, line, column }
    }

    /// Key path of the value inside its file (not the resolved path: an included file's root is `[]`).
    pub fn key_path(&self) -> Vec<PathSeg> {
        self.key_path.to_vec()
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
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.source.path.display(), self.line, self.column)
    }
}

impl fmt::Debug for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Origin({self} `{}`)", dotted(&self.key_path()))
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

    proptest::proptest! {
        /// Columns count the characters from the line's start, whether or not multi-byte
        /// characters sit in the blocks between.
        #[test]
        fn a_column_is_the_characters_since_the_line_start(text in "([a-z ]{0,300}|é|😀|\\n){0,12}", pick in 0usize..4000) {
            let src = SourceFile::new("a".into(), text.clone());
            let boundaries: Vec<usize> = text.char_indices().map(|(at, _)| at).chain([text.len()]).collect();
            let offset = boundaries[pick % boundaries.len()];
            let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
            proptest::prop_assert_eq!(src.column(offset), text[line_start..offset].chars().count());
        }
    }

    #[test]
    fn line_col_is_one_based_in_chars() {
        let src = SourceFile::new("a.json5".into(), "{\n  é: 1,\n  b: 2\n}".into());
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(4), (2, 3));
        let b = src.text().find('b').unwrap();
        assert_eq!(src.line_col(b), (3, 3));
        assert_eq!(src.line_col(10_000), (4, 2));
    }

    #[test]
    fn columns_count_characters_across_blocks() {
        let line = "é".repeat(300) + "x" + &"😀".repeat(200) + "y";
        let src = SourceFile::new("a".into(), format!("ab\n{line}"));
        let x = src.text().find('x').unwrap();
        let y = src.text().find('y').unwrap();
        assert_eq!(src.line_col(x), (2, 301));
        assert_eq!(src.line_col(y), (2, 502));
    }

    #[test]
    fn display_text_neutralizes_control_characters() {
        let src = SourceFile::new("a".into(), "{a: 'x\u{1b}[2J\u{202e}\ry'}\r\n".into());
        assert_eq!(src.display_text(), "{a: 'x?[2J????y'}\r\n");
        assert_eq!(src.display_text().len(), src.text().len());
    }

    #[test]
    fn deep_key_paths_are_shared_and_drop_without_recursion() {
        let mut path = SharedKeyPath::default();
        for i in 0..200_000 {
            path = path.child(PathSeg::Index(i));
        }
        assert_eq!(path.child(PathSeg::key("k")).to_vec().len(), 200_001);
    }
}
