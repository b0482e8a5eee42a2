//! JSON documents from outside the config (approvals and jobs stores, probes, manifests, batch
//! lines) read within a budget of values.
//!
//! A document is parsed whole, and a parsed value costs tens of bytes: within the 16 MiB a file
//! may hold, a list of millions of numbers took 700 MB. The values are counted first by a scan
//! of the bytes, which stops at the budget.

use serde::de::DeserializeOwned;

/// The most values a document may hold: far more than any store or manifest holds (an approvals
/// store of thousands of entries holds tens of thousands), few enough to parse in tens of MB.
pub const MAX_VALUES: usize = 200_000;

#[derive(Debug, thiserror::Error)]
pub enum JsonError {
    #[error("it holds more than {MAX_VALUES} values")]
    TooManyValues,
    #[error("{0}")]
    Syntax(#[from] serde_json::Error),
}

/// Parses `text` if it holds at most [`MAX_VALUES`] values.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    if holds_more_values(text.as_bytes(), MAX_VALUES) {
        return Err(JsonError::TooManyValues);
    }
    Ok(serde_json::from_str(text)?)
}

/// Whether the JSON text holds more than `limit` values, counted without parsing it: each value
/// past the first follows a `,` or opens with `[` or `{` outside strings. A text too short to
/// hold that many (`[1,1,1]`: a value for every two bytes, and one) is not scanned. Text that is
/// no JSON is counted all the same; the parser says what is wrong with it.
pub fn holds_more_values(text: &[u8], limit: usize) -> bool {
    if text.len() / 2 < limit {
        return false;
    }
    let (mut values, mut in_string, mut escaped) = (1, false, false);
    for &byte in text {
        match (in_string, byte) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (_, b'"') => in_string = !in_string,
            (false, b',' | b'[' | b'{') => {
                values += 1;
                if values > limit {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_counted_outside_strings_without_parsing() {
        let numbers = |n: usize| format!("{{\"config\": {{\"a\": [{}]}}}}", vec!["1"; n].join(","));
        // `numbers(n)` holds n + 3 values.
        assert!(!holds_more_values(numbers(97).as_bytes(), 100));
        assert!(holds_more_values(numbers(98).as_bytes(), 100));
        // The densest text, at the length below which texts are not scanned.
        assert!(holds_more_values(b"[1,1,1]", 3) && !holds_more_values(b"[1,1,1]", 4));
        // Commas, brackets and escaped quotes inside strings are no values.
        let text = format!("{{\"config\": \"{}\\\" ,\", \"b\": [1, 2]}}", ",[{".repeat(100));
        assert!(!holds_more_values(text.as_bytes(), 5));
        assert!(holds_more_values(text.as_bytes(), 3));
    }

    #[test]
    fn a_document_over_the_budget_is_refused_before_it_is_parsed() {
        let many = format!("[{}]", vec!["1"; MAX_VALUES].join(","));
        let refused = from_str::<serde_json::Value>(&many).unwrap_err();
        assert_eq!(refused.to_string(), format!("it holds more than {MAX_VALUES} values"));
        let within = format!("[{}]", vec!["1"; MAX_VALUES - 1].join(","));
        assert_eq!(from_str::<Vec<u8>>(&within).unwrap().len(), MAX_VALUES - 1);
        assert!(matches!(from_str::<serde_json::Value>("{bad"), Err(JsonError::Syntax(_))));
    }
}
