//! JSON5 text → [`Node`] tree with a span for every key and value.
//!
//! Tokenizing and nesting limits come from `jsonc-parser` (all JSON5 extensions switched on,
//! missing commas switched off); this file maps its AST to our tree and adds what JSON5 and
//! OpenClaw need on top: identifier-only unquoted keys, JS number semantics, and duplicate keys
//! (last value wins, the key keeps the position of its first occurrence).

use std::path::PathBuf;
use std::sync::Arc;

use indexmap::IndexMap;
use indexmap::map::Entry;
use jsonc_parser::ast::{self, ObjectPropName};
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};
use miette::SourceSpan;
use serde_json::Number;

use super::path::PathSeg;
use super::secrets::{self, is_env_reference, is_secret_path};
use super::source::{Origin, SourceFile};
use super::tree::{Node, NodeKind};

/// Largest config or include file we read (OpenClaw's include guard uses the same number).
pub const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// A parsed file: the tree plus what the parser noticed but JavaScript silently accepts.
#[derive(Debug)]
pub struct ParsedDocument {
    pub root: Node,
    pub notes: Vec<ParseNote>,
}

#[derive(Debug, Clone)]
pub enum ParseNote {
    /// A key written twice in one object; `first` lost its value to `last`.
    DuplicateKey { key: String, first: Arc<Origin>, last: Arc<Origin> },
    /// `Infinity`/`NaN` cannot be held by a JSON value; it is kept as `null`.
    NonFiniteNumber { literal: String, origin: Arc<Origin> },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Json5Error {
    pub message: String,
    pub span: SourceSpan,
}

/// The file as a [`SourceFile`] (secret literals masked in its display text) and its parse result.
pub struct ParseOutcome {
    pub source: Arc<SourceFile>,
    pub document: Result<ParsedDocument, Json5Error>,
}

pub fn parse(path: PathBuf, text: String) -> ParseOutcome {
    let options = ParseOptions { allow_missing_commas: false, ..ParseOptions::default() };
    let ast = match jsonc_parser::parse_to_ast(&text, &CollectOptions::default(), &options) {
        Ok(parsed) => parsed.value,
        Err(err) => {
            let error = Json5Error { message: err.kind().to_string(), span: span_of(err.range()) };
            let display = secrets::mask_unparsed_text(&text);
            let source = Arc::new(SourceFile::with_display_text(path, text, display));
            return ParseOutcome { source, document: Err(error) };
        }
    };
    let Some(value) = ast else {
        let error = Json5Error {
            message: "invalid end of input (the file holds no value)".to_string(),
            span: SourceSpan::from((text.len(), 0)),
        };
        let source = Arc::new(SourceFile::new(path, text));
        return ParseOutcome { source, document: Err(error) };
    };
    let mut display = text.clone().into_bytes();
    mask_secret_literals(&value, &mut Vec::new(), &mut display);
    let display = String::from_utf8(display).expect("masking writes ASCII over whole literals");
    let source = Arc::new(SourceFile::with_display_text(path, text.clone(), display));
    let mut builder = TreeBuilder { source: &source, notes: Vec::new() };
    let document =
        builder.value(value, &mut Vec::new(), None).map(|root| ParsedDocument { root, notes: builder.notes });
    ParseOutcome { source, document }
}

/// Masks every string literal that sits at a secret path and is not just an `${ENV}` reference.
fn mask_secret_literals(value: &ast::Value<'_>, path: &mut Vec<PathSeg>, display: &mut [u8]) {
    match value {
        ast::Value::StringLit(s) if is_secret_path(path) && !is_env_reference(&s.value) => {
            secrets::mask_literal(display, s.range.start, s.range.end);
        }
        ast::Value::Array(array) => {
            for (index, element) in array.elements.iter().enumerate() {
                path.push(PathSeg::Index(index));
                mask_secret_literals(element, path, display);
                path.pop();
            }
        }
        ast::Value::Object(object) => {
            for prop in &object.properties {
                path.push(PathSeg::Key(prop.name.as_str().to_string()));
                mask_secret_literals(&prop.value, path, display);
                path.pop();
            }
        }
        _ => {}
    }
}

fn span_of(range: jsonc_parser::common::Range) -> SourceSpan {
    SourceSpan::from(range.start..range.end)
}

struct TreeBuilder<'s> {
    source: &'s Arc<SourceFile>,
    notes: Vec<ParseNote>,
}

impl TreeBuilder<'_> {
    fn origin(&self, path: &[PathSeg], range: jsonc_parser::common::Range, key: Option<SourceSpan>) -> Arc<Origin> {
        Arc::new(Origin::new(self.source, path.to_vec(), span_of(range), key))
    }

    // Recursion depth is bounded by jsonc-parser's nesting limit (512).
    fn value(
        &mut self,
        value: ast::Value<'_>,
        path: &mut Vec<PathSeg>,
        key: Option<SourceSpan>,
    ) -> Result<Node, Json5Error> {
        let origin = self.origin(path, value.range(), key);
        let kind = match value {
            ast::Value::NullKeyword(_) => NodeKind::Null,
            ast::Value::BooleanLit(b) => NodeKind::Bool(b.value),
            ast::Value::StringLit(s) => {
                self.check_string_literal(s.range)?;
                NodeKind::String(s.value.into_owned())
            }
            ast::Value::NumberLit(n) => match js_number(n.value) {
                Some(number) => NodeKind::Number(number),
                None => {
                    self.notes
                        .push(ParseNote::NonFiniteNumber { literal: n.value.to_string(), origin: origin.clone() });
                    NodeKind::Null
                }
            },
            ast::Value::Array(array) => {
                let mut items = Vec::with_capacity(array.elements.len());
                for (index, element) in array.elements.into_iter().enumerate() {
                    path.push(PathSeg::Index(index));
                    items.push(self.value(element, path, None)?);
                    path.pop();
                }
                NodeKind::Array(items)
            }
            ast::Value::Object(object) => NodeKind::Object(self.object(object, path)?),
        };
        Ok(Node::new(kind, Some(origin)))
    }

    /// JSON5 forbids a raw line break inside a string unless it is escaped (a line continuation);
    /// jsonc-parser accepts it, so check the literal's text.
    fn check_string_literal(&self, range: jsonc_parser::common::Range) -> Result<(), Json5Error> {
        let literal = &self.source.text()[range.start..range.end];
        let mut chars = literal.char_indices().peekable();
        while let Some((offset, c)) = chars.next() {
            match c {
                '\\' => {
                    // The escaped character, including a `\r\n` pair, is part of the escape.
                    if let Some((_, '\r')) = chars.next() {
                        chars.next_if(|&(_, c)| c == '\n');
                    }
                }
                '\n' | '\r' => {
                    return Err(Json5Error {
                        message: "invalid line break in string (end the line with `\\` to continue it)".to_string(),
                        span: SourceSpan::from((range.start + offset, 1)),
                    });
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn object(
        &mut self,
        object: ast::Object<'_>,
        path: &mut Vec<PathSeg>,
    ) -> Result<IndexMap<String, Node>, Json5Error> {
        let mut map: IndexMap<String, Node> = IndexMap::with_capacity(object.properties.len());
        for prop in object.properties {
            let key_span = span_of(prop.name.range());
            let key = match prop.name {
                ObjectPropName::String(s) => {
                    self.check_string_literal(s.range)?;
                    s.value.into_owned()
                }
                ObjectPropName::Word(word) if is_identifier(word.value) => word.value.to_string(),
                ObjectPropName::Word(word) => {
                    return Err(Json5Error {
                        message: format!("invalid unquoted key `{}` (quote keys that are not identifiers)", word.value),
                        span: key_span,
                    });
                }
            };
            path.push(PathSeg::Key(key.clone()));
            let node = self.value(prop.value, path, Some(key_span))?;
            path.pop();
            match map.entry(key) {
                Entry::Occupied(mut slot) => {
                    let key = slot.key().clone();
                    let first = slot.get().origin.clone().expect("parsed nodes have origins");
                    let last = node.origin.clone().expect("parsed nodes have origins");
                    // JS property semantics: the value is replaced, the key keeps its first position.
                    slot.insert(node);
                    self.notes.push(ParseNote::DuplicateKey { key, first, last });
                }
                Entry::Vacant(slot) => {
                    slot.insert(node);
                }
            }
        }
        Ok(map)
    }
}

/// JSON5 unquoted keys are ECMAScript identifier names (`$include`, `_x`, `ä`), never `1` or `a-b`.
fn is_identifier(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// A JSON5 number literal as JavaScript reads it (an IEEE double), stored the way JSON would
/// print it: integral values in the safe range become integers (`1.0` and `0x10` are ints in JS).
/// `None` for `Infinity`/`NaN`.
fn js_number(literal: &str) -> Option<Number> {
    let (negative, unsigned) = match literal.as_bytes().first() {
        Some(b'-') => (true, &literal[1..]),
        Some(b'+') => (false, &literal[1..]),
        _ => (false, literal),
    };
    let magnitude = match unsigned.strip_prefix("0x").or_else(|| unsigned.strip_prefix("0X")) {
        Some(hex) => hex.chars().try_fold(0f64, |acc, c| c.to_digit(16).map(|d| acc * 16.0 + f64::from(d)))?,
        None => unsigned.parse::<f64>().ok()?,
    };
    let value = if negative { -magnitude } else { magnitude };
    const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;
    if value.is_finite() && value.fract() == 0.0 && value.abs() <= MAX_SAFE_INTEGER {
        // `as` is exact here: the value is integral and within 2^53. `-0` becomes `0`, as JSON prints it.
        Some(Number::from(value as i64))
    } else {
        Number::from_f64(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_text(text: &str) -> Result<ParsedDocument, Json5Error> {
        parse("t.json5".into(), text.to_string()).document
    }

    #[test]
    fn display_text_masks_secrets_but_not_env_references() {
        let text = "{gateway: {auth: {token: 'sk-1', password: '${PW}'}}, name: 'x'}";
        let outcome = parse("t.json5".into(), text.to_string());
        assert_eq!(outcome.source.display_text(), "{gateway: {auth: {token: '****', password: '${PW}'}}, name: 'x'}");
        assert_eq!(outcome.source.text(), text);
        let broken = parse("t.json5".into(), "{apiKey: \"sk-live\", oops".to_string());
        assert!(broken.document.is_err());
        assert!(!broken.source.display_text().contains("sk-live"));
    }

    fn value(text: &str) -> serde_json::Value {
        parse_text(text).unwrap().root.to_value()
    }

    #[test]
    fn json5_syntax() {
        let text = r#"
        // line comment
        { /* block */ unquoted: 'single', "double": "a\u0041\x41\n\'",
          hex: 0x1F, negHex: -0xff, plus: +5, lead: .5, trail: 5., exp: 1e3, float: 1.25,
          cont: 'line one \
line two', $include_like: 1, _u: [1, 2,], }
        "#;
        assert_eq!(
            value(text),
            json!({"unquoted": "single", "double": "aAA\n'", "hex": 31, "negHex": -255, "plus": 5,
                   "lead": 0.5, "trail": 5, "exp": 1000, "float": 1.25, "cont": "line one line two",
                   "$include_like": 1, "_u": [1, 2]})
        );
    }

    #[test]
    fn non_finite_numbers_become_null_with_a_note() {
        let doc = parse_text("{a: Infinity, b: -Infinity, c: NaN}").unwrap();
        assert_eq!(doc.root.to_value(), json!({"a": null, "b": null, "c": null}));
        assert_eq!(doc.notes.len(), 3);
    }

    #[test]
    fn duplicate_key_last_value_first_position() {
        let doc = parse_text("{a:1, tools:{x:1}, b:2, tools:{y:2}}").unwrap();
        let value = doc.root.to_value();
        assert_eq!(value, json!({"a": 1, "tools": {"y": 2}, "b": 2}));
        let keys: Vec<_> = value.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["a", "tools", "b"]);
        assert!(matches!(&doc.notes[..], [ParseNote::DuplicateKey { key, first, last }]
            if key == "tools" && first.column == 7 && last.column == 25));
    }

    #[test]
    fn spans_point_at_keys_and_values() {
        let text = "{\n  tools: {\n    deny: ['exec', \"browser\"],\n  },\n}";
        let doc = parse_text(text).unwrap();
        let path = [PathSeg::key("tools"), PathSeg::key("deny"), PathSeg::Index(1)];
        let origin = doc.root.get(&path).unwrap().origin.clone().unwrap();
        assert_eq!(&text[origin.span.offset()..origin.span.offset() + origin.span.len()], "\"browser\"");
        assert_eq!((origin.line, origin.column), (3, 20));
        assert_eq!(origin.key_path, path);
        let deny = doc.root.get(&path[..2]).unwrap().origin.clone().unwrap();
        assert_eq!((deny.line, deny.column), (3, 5));
        assert_eq!(origin.to_string(), "t.json5:3:20");
    }

    #[test]
    fn rejects_what_json5_rejects() {
        for bad in [
            "{a-b: 1}",
            "{1: 2}",
            "{a: 1 b: 2}",
            "{a: undefined}",
            "[1,,]",
            "",
            "  // only a comment",
            "{'a': 1",
            "{a: 'x\ny'}",
        ] {
            assert!(parse_text(bad).is_err(), "{bad:?} should fail");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        let err = parse_text(&deep).unwrap_err();
        assert!(err.message.contains("depth"), "{}", err.message);
    }

    #[test]
    fn numbers_follow_javascript() {
        assert_eq!(js_number("1.0"), Some(Number::from(1)));
        assert_eq!(js_number("-0"), Some(Number::from(0)));
        assert_eq!(js_number("1e300").map(|n| n.as_f64()), Some(Some(1e300)));
        assert_eq!(js_number("0x10000000000000000").map(|n| n.as_f64()), Some(Some(18446744073709551616.0)));
        assert_eq!(js_number("NaN"), None);
        assert_eq!(js_number("+Infinity"), None);
    }
}

#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;

    use super::*;
    use crate::OpenClawVersion;
    use crate::config::{LoadOptions, load_inline, validate};

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i32>().prop_map(serde_json::Value::from),
            "[a-z$]{0,6}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(6, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                prop::collection::vec(("(tools|agents|allow|alsoAllow|\\$include|[a-z]{1,4})", inner), 0..6)
                    .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let _ = parse("f.json5".into(), text);
        }

        #[test]
        fn arbitrary_json5_like_text_never_panics(text in "[{}\\[\\]:,'\"a-z0-9 .+\\-\\\\\\n/*$]{0,80}") {
            let _ = parse("f.json5".into(), text);
        }

        #[test]
        fn arbitrary_structures_round_trip_and_validate(value in json_value()) {
            let text = serde_json::to_string(&value).unwrap();
            let parsed = parse("f.json5".into(), text).document.unwrap();
            prop_assert_eq!(parsed.root.to_value(), value.clone());
            for version in OpenClawVersion::ALL {
                let opts = LoadOptions { version, env: Default::default(), cwd: "/".into() };
                if let Ok(cfg) = load_inline(value.clone(), &opts) {
                    let _ = validate(&cfg, version);
                }
            }
        }
    }

    #[test]
    fn deep_nesting_of_every_kind_is_an_error() {
        for open in ["[", "{a:", "{'a':["] {
            let text = open.repeat(50_000);
            assert!(parse("f.json5".into(), text).document.is_err());
        }
    }
}
