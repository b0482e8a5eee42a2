//! JavaScript semantics the release's code relies on, where Rust's differ.

use serde_json::Value;

/// JavaScript's `String.prototype.trim`: Unicode white space plus the byte-order mark.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

/// JavaScript truthiness (`Boolean(value)`) of a JSON value.
pub fn js_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}
