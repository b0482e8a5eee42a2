//! JavaScript semantics the release's code relies on, where Rust's differ.

use std::borrow::Cow;

use serde_json::Value;

/// JavaScript's white space and line terminators (`\s`, what `trim` removes): Rust's
/// `char::is_whitespace` plus the byte-order mark, minus U+0085 (NEL), which JavaScript keeps.
pub fn is_js_space(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

/// JavaScript's `String.prototype.trim`.
pub fn js_trim(s: &str) -> &str {
    // Most strings start and end with a visible ASCII character: nothing to trim.
    let visible = |byte: Option<&u8>| byte.is_some_and(|b| b.is_ascii_graphic());
    if visible(s.as_bytes().first()) && visible(s.as_bytes().last()) {
        return s;
    }
    s.trim_matches(is_js_space)
}

/// JavaScript's `toLowerCase` (which `str::to_lowercase` matches, final sigma included), copied
/// only when it changes the text: most tool names are already lower-case ASCII.
pub fn lower_case(text: &str) -> Cow<'_, str> {
    match text.bytes().any(|b| b.is_ascii_uppercase() || !b.is_ascii()) {
        true => Cow::Owned(text.to_lowercase()),
        false => Cow::Borrowed(text),
    }
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

/// JavaScript's `String(value)` of a JSON value.
pub fn js_string(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => js_number(n),
        Value::String(s) => s.clone(),
        // Array.prototype.join: null elements join as "".
        Value::Array(items) => {
            items.iter().map(|v| if v.is_null() { String::new() } else { js_string(v) }).collect::<Vec<_>>().join(",")
        }
        Value::Object(_) => "[object Object]".into(),
    }
}

/// `Number.prototype.toString()`: integers plainly, other numbers in their shortest round-trip
/// form, exponent notation (`1e+21`, `1e-7`) outside [1e-6, 1e21).
fn js_number(n: &serde_json::Number) -> String {
    // Integers a double holds exactly print as themselves; larger ones as the double they round to.
    const EXACT: u64 = 1 << 53;
    if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= EXACT) {
        return i.to_string();
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f == 0.0 {
        return "0".into();
    }
    let magnitude = f.abs();
    if (1e-6..1e21).contains(&magnitude) {
        return format!("{f}");
    }
    let exponent = format!("{f:e}");
    match exponent.split_once('e') {
        Some((mantissa, power)) if !power.starts_with('-') => format!("{mantissa}e+{power}"),
        _ => exponent,
    }
}

/// The order in which JavaScript enumerates an object's keys (`Object.keys`, `Object.entries`):
/// array-index keys (canonical integers below 2³² − 1) first, ascending, then the other keys in
/// the order written.
pub fn js_key_order<'a, T>(entries: impl IntoIterator<Item = (&'a String, T)>) -> Vec<(&'a String, T)> {
    let index = |key: &str| -> Option<u32> {
        let n: u32 = key.parse().ok()?;
        (n != u32::MAX && n.to_string() == key).then_some(n)
    };
    let (mut indices, named): (Vec<_>, Vec<_>) = entries.into_iter().partition(|(key, _)| index(key).is_some());
    indices.sort_by_key(|(key, _)| index(key));
    indices.extend(named);
    indices
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn trim_keeps_nel_and_drops_the_byte_order_mark() {
        assert_eq!(js_trim("\u{feff} a \u{a0}"), "a");
        assert_eq!(js_trim("\u{85}a"), "\u{85}a");
    }

    #[test]
    fn string_of_values_as_javascript_writes_them() {
        assert_eq!(js_string(&json!(12345)), "12345");
        assert_eq!(js_string(&json!(1.5)), "1.5");
        assert_eq!(js_string(&json!(1e21)), "1e+21");
        assert_eq!(js_string(&json!(1e-7)), "1e-7");
        assert_eq!(js_string(&json!(123456789012345680000.0)), "123456789012345680000");
        assert_eq!(js_string(&json!(12345678901234567890u64)), "12345678901234567000");
        assert_eq!(js_string(&json!(-1001)), "-1001");
        assert_eq!(js_string(&json!(null)), "null");
        assert_eq!(js_string(&json!([1, null, "a"])), "1,,a");
        assert_eq!(js_string(&json!({"a": 1})), "[object Object]");
    }
}

#[cfg(test)]
mod key_order_tests {
    use super::*;

    #[test]
    fn array_index_keys_come_first() {
        let keys = ["b", "10", "a", "2", "01", "4294967295"].map(String::from);
        let ordered: Vec<&str> =
            js_key_order(keys.iter().map(|k| (k, ()))).into_iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(ordered, ["2", "10", "b", "a", "01", "4294967295"]);
    }
}
