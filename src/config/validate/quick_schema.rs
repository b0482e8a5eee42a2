//! A quick verdict on a value against one piece of the release's config schema, for the
//! validation keywords the release schemas use, so that a piece whose value is plainly valid is
//! never compiled: jsonschema compiles a piece (and checks it against its meta-schema) before it
//! can answer anything, and that was most of a single command's start-up. Hand-written because
//! the verdict must never be kinder than jsonschema's: it says `Valid` only on positive evidence,
//! `Invalid` only for plain mismatches (a wrong type, a missing required member), and `Unknown`
//! for everything else (a keyword it does not read, a number whose integer-ness is in doubt, a
//! `format`), which sends the value to the compiled validator as before. `Invalid` is used only
//! to decide `oneOf` and `anyOf`; an invalid value always goes to jsonschema for its errors.

use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    Invalid,
    Unknown,
}

use Verdict::{Invalid, Unknown, Valid};

impl Verdict {
    fn and(self, other: Verdict) -> Verdict {
        match (self, other) {
            (Invalid, _) | (_, Invalid) => Invalid,
            (Unknown, _) | (_, Unknown) => Unknown,
            (Valid, Valid) => Valid,
        }
    }

    fn of(holds: bool) -> Verdict {
        if holds { Valid } else { Invalid }
    }

    /// Known only when it holds: for checks whose failure this module does not claim.
    fn if_holds(holds: bool) -> Verdict {
        if holds { Valid } else { Unknown }
    }
}

/// The verdict of `schema` on `value`. `matches` answers a `pattern` on a string as the compiled
/// validator's own `pattern` keyword does.
pub fn verdict(schema: &Value, value: &Value, matches: &dyn Fn(&str, &str) -> bool) -> Verdict {
    match schema {
        Value::Bool(true) => Valid,
        Value::Object(keywords) => {
            all(keywords.iter().map(|(keyword, argument)| keyword_verdict(keywords, keyword, argument, value, matches)))
        }
        _ => Unknown,
    }
}

fn keyword_verdict(
    keywords: &Map<String, Value>,
    keyword: &str,
    argument: &Value,
    value: &Value,
    matches: &dyn Fn(&str, &str) -> bool,
) -> Verdict {
    match keyword {
        "$schema" => Valid,
        "type" => type_verdict(argument, value),
        "const" => equal(argument, value),
        "enum" => match argument.as_array() {
            Some(options) => options.iter().map(|option| equal(option, value)).fold(Invalid, any_of_two),
            None => Unknown,
        },
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => number_bound(keyword, argument, value),
        "minLength" | "maxLength" => match (value.as_str(), argument.as_u64()) {
            (None, _) => Valid,
            (Some(text), Some(limit)) => {
                let length = text.chars().count() as u64;
                Verdict::if_holds(if keyword == "minLength" { length >= limit } else { length <= limit })
            }
            _ => Unknown,
        },
        "minItems" | "maxItems" => match (value.as_array(), argument.as_u64()) {
            (None, _) => Valid,
            (Some(items), Some(limit)) => {
                let length = items.len() as u64;
                Verdict::if_holds(if keyword == "minItems" { length >= limit } else { length <= limit })
            }
            _ => Unknown,
        },
        "maxProperties" => match (value.as_object(), argument.as_u64()) {
            (None, _) => Valid,
            (Some(members), Some(limit)) => Verdict::if_holds(members.len() as u64 <= limit),
            _ => Unknown,
        },
        "pattern" => match (value.as_str(), argument.as_str()) {
            (None, _) => Valid,
            (Some(text), Some(pattern)) => Verdict::if_holds(matches(pattern, text)),
            _ => Unknown,
        },
        "format" => Verdict::if_holds(!value.is_string()),
        "required" => match (value.as_object(), argument.as_array()) {
            (None, _) => Valid,
            (Some(members), Some(names)) => {
                Verdict::of(names.iter().all(|name| name.as_str().is_some_and(|name| members.contains_key(name))))
            }
            _ => Unknown,
        },
        "properties" => match (value.as_object(), argument.as_object()) {
            (None, _) => Valid,
            (Some(members), Some(declared)) => {
                all(members.iter().filter_map(|(name, member)| declared.get(name).map(|s| verdict(s, member, matches))))
            }
            _ => Unknown,
        },
        "additionalProperties" => match value.as_object() {
            None => Valid,
            // Pattern properties would decide which members are "additional".
            Some(_) if keywords.contains_key("patternProperties") => Unknown,
            Some(members) => {
                let declared = keywords.get("properties").and_then(Value::as_object);
                let mut others = members.iter().filter(|(name, _)| declared.is_none_or(|d| !d.contains_key(*name)));
                match argument {
                    Value::Bool(false) => Verdict::of(others.next().is_none()),
                    schema => all(others.map(|(_, member)| verdict(schema, member, matches))),
                }
            }
        },
        "propertyNames" => match value.as_object() {
            None => Valid,
            Some(members) => all(members.keys().map(|name| verdict(argument, &Value::String(name.clone()), matches))),
        },
        "items" => match (value.as_array(), argument) {
            (None, _) => Valid,
            // A list of schemas is a tuple (draft 7), read with `additionalItems`.
            (Some(_), Value::Array(_)) => Unknown,
            (Some(items), schema) => all(items.iter().map(|item| verdict(schema, item, matches))),
        },
        "anyOf" => match argument.as_array() {
            Some(branches) => branches.iter().map(|branch| verdict(branch, value, matches)).fold(Invalid, any_of_two),
            None => Unknown,
        },
        "oneOf" => match argument.as_array() {
            Some(branches) => {
                let verdicts: Vec<Verdict> = branches.iter().map(|branch| verdict(branch, value, matches)).collect();
                let count = |wanted: Verdict| verdicts.iter().filter(|v| **v == wanted).count();
                match (count(Valid), count(Unknown)) {
                    (1, 0) => Valid,
                    (0, 0) => Invalid,
                    (valid, _) if valid > 1 => Invalid,
                    _ => Unknown,
                }
            }
            None => Unknown,
        },
        "allOf" => match argument.as_array() {
            Some(branches) => all(branches.iter().map(|branch| verdict(branch, value, matches))),
            None => Unknown,
        },
        _ => Unknown,
    }
}

/// Every verdict holds: invalid as soon as one is.
fn all(mut verdicts: impl Iterator<Item = Verdict>) -> Verdict {
    verdicts.try_fold(Valid, |so_far, next| Some(so_far.and(next)).filter(|v| *v != Invalid)).unwrap_or(Invalid)
}

/// At least one of two verdicts holds.
fn any_of_two(a: Verdict, b: Verdict) -> Verdict {
    match (a, b) {
        (Valid, _) | (_, Valid) => Valid,
        (Unknown, _) | (_, Unknown) => Unknown,
        (Invalid, Invalid) => Invalid,
    }
}

/// `type`: one name or a list of names.
fn type_verdict(argument: &Value, value: &Value) -> Verdict {
    let one = |name: &Value| match name.as_str() {
        Some(name) => type_matches(name, value),
        None => Unknown,
    };
    match argument {
        Value::Array(names) => names.iter().map(one).fold(Invalid, any_of_two),
        name => one(name),
    }
}

fn type_matches(name: &str, value: &Value) -> Verdict {
    match (name, value) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("string", Value::String(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_))
        | ("number", Value::Number(_)) => Valid,
        // 1.0 is an integer to JSON Schema: left to jsonschema.
        ("integer", Value::Number(n)) if n.is_i64() || n.is_u64() => Valid,
        ("integer", Value::Number(_)) => Unknown,
        ("null" | "boolean" | "string" | "array" | "object" | "number" | "integer", _) => Invalid,
        _ => Unknown,
    }
}

/// `const` and `enum` members: equal values are valid; a number that differs may still be equal
/// to JSON Schema (1 and 1.0), so only other kinds of value are plainly different.
fn equal(expected: &Value, value: &Value) -> Verdict {
    if expected == value {
        Valid
    } else if value.is_number() || expected.is_number() || value.is_array() || value.is_object() {
        Unknown
    } else {
        Invalid
    }
}

/// A numeric bound, on numbers exactly representable as `f64` (the rest are left to jsonschema).
fn number_bound(keyword: &str, argument: &Value, value: &Value) -> Verdict {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    let Some(number) = value.as_number() else { return Valid };
    let exact = |n: &serde_json::Number| n.as_f64().filter(|f| f.is_finite() && f.abs() <= EXACT);
    let (Some(n), Some(limit)) = (exact(number), argument.as_number().and_then(exact)) else { return Unknown };
    Verdict::if_holds(match keyword {
        "minimum" => n >= limit,
        "maximum" => n <= limit,
        "exclusiveMinimum" => n > limit,
        _ => n < limit,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn no_pattern(_: &str, _: &str) -> bool {
        false
    }

    #[test]
    fn plain_values_are_valid_and_plain_mismatches_invalid() {
        let schema = json!({"type": "object", "properties": {"mode": {"type": "string", "enum": ["a", "b"]}},
            "additionalProperties": false, "required": ["mode"]});
        assert_eq!(verdict(&schema, &json!({"mode": "a"}), &no_pattern), Valid);
        assert_eq!(verdict(&schema, &json!({"mode": "c"}), &no_pattern), Invalid);
        assert_eq!(verdict(&schema, &json!({"mode": "a", "x": 1}), &no_pattern), Invalid);
        assert_eq!(verdict(&schema, &json!({}), &no_pattern), Invalid);
        assert_eq!(verdict(&schema, &json!("a"), &no_pattern), Invalid);
    }

    #[test]
    fn what_it_cannot_decide_exactly_is_unknown() {
        assert_eq!(verdict(&json!({"type": "integer"}), &json!(1.0), &no_pattern), Unknown);
        assert_eq!(verdict(&json!({"const": 1}), &json!(1.0), &no_pattern), Unknown);
        assert_eq!(verdict(&json!({"format": "uri"}), &json!("x"), &no_pattern), Unknown);
        assert_eq!(verdict(&json!({"pattern": "^a$"}), &json!("b"), &no_pattern), Unknown);
        assert_eq!(verdict(&json!({"if": {}}), &json!("b"), &no_pattern), Unknown);
        assert_eq!(verdict(&json!({"maximum": 3}), &json!(u64::MAX), &no_pattern), Unknown);
        assert_eq!(
            verdict(&json!({"oneOf": [{"type": "string"}, {"pattern": "x"}]}), &json!("x"), &no_pattern),
            Unknown
        );
        assert_eq!(
            verdict(&json!({"oneOf": [{"type": "string"}, {"minLength": 0}]}), &json!("x"), &no_pattern),
            Invalid
        );
        assert_eq!(
            verdict(&json!({"oneOf": [{"type": "string"}, {"type": "number"}]}), &json!("x"), &no_pattern),
            Valid
        );
    }
}
