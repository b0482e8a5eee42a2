//! Making text from a config safe to print. A config is input from anywhere: its keys, group ids,
//! sender keys and patterns can hold newlines, terminal escape sequences, bidirectional overrides
//! or characters XML cannot carry. Printed raw they would forge lines in a CI log (a GitHub
//! workflow command after an injected newline), drive the terminal, or break a report. A leaf
//! module: everything that renders text uses it, and it uses nothing.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` must not reach output as is: C0 and C1 controls and DEL, line and paragraph
/// separators, bidirectional controls (they reorder what a reader sees), and noncharacters
/// (U+FFFE, U+FFFF and friends, which XML 1.0 cannot carry).
fn unsafe_char(c: char) -> bool {
    let code = c as u32;
    c.is_control()
        || matches!(code, 0x2028 | 0x2029 | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069)
        || (0xFDD0..=0xFDEF).contains(&code)
        || code & 0xFFFE == 0xFFFE
}

/// `\n`, `\t`, `\r` as such, anything else as `\u{…}`, so the reader sees what is there.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        _ => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

fn escape_where(text: &str, escape: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !needs_escape(text, &escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escape(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether `text` has a character `escape` picks. Printable ASCII is safe everywhere and most text
/// is nothing else, so only the other bytes are decoded and judged.
fn needs_escape(text: &str, escape: &impl Fn(char) -> bool) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        if (0x20..0x7f).contains(&bytes[at]) {
            at += 1;
            continue;
        }
        let c = text[at..].chars().next().expect("`at` is on a character boundary");
        if escape(c) {
            return true;
        }
        at += c.len_utf8();
    }
    false
}

/// A value shown on one line: every unsafe character, newlines included, made visible.
pub fn visible(text: &str) -> Cow<'_, str> {
    escape_where(text, unsafe_char)
}

/// A whole block of text for a log or a pipe: unsafe characters made visible except the line
/// breaks and tabs the block is laid out with.
pub fn block(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| c != '\n' && c != '\t' && unsafe_char(c))
}

/// Whether a line of `text` could be read as a CI log command: a GitHub workflow command
/// (`::error …::`, possibly indented) or its older `##[…]` form.
pub fn looks_like_log_command(text: &str) -> bool {
    text.split(['\n', '\r']).any(|line| line.trim_start().starts_with("::") || line.contains("##["))
}

/// A string for a structured document that may keep its line breaks (a YAML block), unless a
/// line could pass for a log command: then, as every string with other unsafe characters, it
/// is shown escaped.
pub fn document_string(text: &str) -> Cow<'_, str> {
    if looks_like_log_command(text) { visible(text) } else { block(text) }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The byte scan judges exactly the characters a scan of every character would.
        #[test]
        fn the_byte_scan_finds_what_a_character_scan_finds(text in "(\\PC|[\\x00-\\x1f\\x7f\\u{85}\\u{202e}\\u{fffe}\\n\\t]){0,40}") {
            proptest::prop_assert_eq!(needs_escape(&text, &unsafe_char), text.chars().any(unsafe_char));
            let in_block = |c| c != '\n' && c != '\t' && unsafe_char(c);
            proptest::prop_assert_eq!(needs_escape(&text, &in_block), text.chars().any(in_block));
        }
    }

    #[test]
    fn controls_become_visible() {
        assert_eq!(visible("plain id -100"), "plain id -100");
        assert!(matches!(visible("ok"), Cow::Borrowed(_)));
        assert_eq!(visible("a\n::error file=x::b"), "a\\n::error file=x::b");
        assert_eq!(visible("\u{1b}]8;;x\u{7}"), "\\u{1b}]8;;x\\u{7}");
        assert_eq!(visible("nul\0"), "nul\\u{0}");
        assert_eq!(visible("rtl\u{202e}txt"), "rtl\\u{202e}txt");
        assert_eq!(visible("\u{fffe}\u{ffff}\u{1fffe}"), "\\u{fffe}\\u{ffff}\\u{1fffe}");
        assert_eq!(visible("\u{85}"), "\\u{85}");
        assert_eq!(visible("é ü 中文 🎉"), "é ü 中文 🎉");
    }

    #[test]
    fn strings_that_could_forge_a_log_line_are_escaped_whole() {
        assert_eq!(document_string("expected\nactual\n"), "expected\nactual\n");
        assert_eq!(document_string("-100\n  ::error file=x::y"), "-100\\n  ::error file=x::y");
        assert_eq!(document_string("a ##[error]b"), "a ##[error]b");
        assert!(looks_like_log_command("a ##[error]b"));
    }

    #[test]
    fn blocks_keep_their_layout() {
        assert_eq!(block("line 1\n\tline 2\u{1b}[31m\r"), "line 1\n\tline 2\\u{1b}[31m\\r");
    }
}
