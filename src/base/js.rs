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
