//! Positions as LSP counts them (0-based lines, UTF-16 code units) ↔ byte offsets, and file
//! URIs ↔ paths.

use std::path::PathBuf;
use std::str::FromStr;

use lsp_types::{Position, Range, Uri};

/// Byte offset of an LSP position in `text` (clamped to the text).
pub fn offset(text: &str, position: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..position.line {
        match text[line_start..].find('\n') {
            Some(at) => line_start += at + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..].find('\n').map_or(text.len(), |at| line_start + at);
    let mut units = 0;
    for (at, c) in text[line_start..line_end].char_indices() {
        if units >= position.character {
            return line_start + at;
        }
        units += c.len_utf16() as u32;
    }
    line_end
}

/// LSP position of a byte offset in `text`.
pub fn position(text: &str, offset: usize) -> Position {
    let offset = offset.min(text.len());
    let before = &text[..floor_boundary(text, offset)];
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    Position {
        line: before.matches('\n').count() as u32,
        character: before[line_start..].chars().map(|c| c.len_utf16() as u32).sum(),
    }
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

pub fn range(text: &str, start: usize, end: usize) -> Range {
    Range { start: position(text, start), end: position(text, end) }
}

/// The file a `file:` URI names.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    url::Url::parse(uri.as_str()).ok()?.to_file_path().ok()
}

/// The `file:` URI of a path.
pub fn uri_of(path: &std::path::Path) -> Option<Uri> {
    Uri::from_str(url::Url::from_file_path(path).ok()?.as_str()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "{\n  a: 'é😀x',\n}";
        let x = text.find('x').unwrap();
        assert_eq!(position(text, x), Position { line: 1, character: 9 });
        assert_eq!(offset(text, Position { line: 1, character: 9 }), x);
        assert_eq!(offset(text, Position { line: 9, character: 0 }), text.len());
        assert_eq!(offset(text, Position { line: 0, character: 40 }), 1);
    }

    #[test]
    fn file_uris_round_trip() {
        let path = PathBuf::from("/tmp/a b/openclaw.json5");
        let uri = uri_of(&path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/openclaw.json5");
        assert_eq!(path_of(&uri), Some(path));
    }
}
