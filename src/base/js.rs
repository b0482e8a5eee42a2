//! JavaScript string semantics the release's code relies on, where Rust's differ.

/// JavaScript's `String.prototype.trim`: Unicode white space plus the byte-order mark.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}
