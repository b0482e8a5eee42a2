//! JSON5 text → [`Node`] tree with a span for every key and value.
//!
//! Tokenizing and nesting limits come from `jsonc-parser` (all JSON5 extensions switched on,
//! missing commas switched off); this file maps its AST to our tree and adds what JSON5 and
//! OpenClaw need on top: identifier-only unquoted keys, JS number semantics, and duplicate keys
//! (last value wins, the key keeps the position of its first occurrence).

use std::borrow::Cow;
use std::ops::Range;
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
use super::secrets::{self, SecretScope, is_env_reference};
use super::source::{Origin, SharedKeyPath, SourceFile};
use super::tree::{Node, NodeKind};

/// Largest config or include file we read (OpenClaw's include guard uses the same number).
pub const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// The most values (objects, lists and scalars) a config may hold, its included files together:
/// clawpolicy's memory budget. A value of a long list costs up to 4 KB while `lint` holds it (its
/// tree node with origin, the value in force, the steps' entries, name sets and compiled lists,
/// the rules' views and findings), so a config at the budget stays under 200 MB in every command;
/// a 2,000-agent fleet holds about 20,000 values, the largest published configs about 2,000.
pub const MAX_VALUES: usize = 40_000;

/// A parsed file: the tree plus what the parser noticed but JavaScript silently accepts.
#[derive(Debug)]
pub struct ParsedDocument {
    pub root: Node,
    pub notes: Vec<ParseNote>,
    /// How many values it holds (see [`MAX_VALUES`]).
    pub values: usize,
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
    /// The file parsed but holds more values than the budget allows (`span`: the first value
    /// past it).
    pub over_budget: bool,
}

impl Json5Error {
    fn syntax(message: String, span: SourceSpan) -> Self {
        Json5Error { message, span, over_budget: false }
    }
}

/// The file as a [`SourceFile`] (secret literals masked in its display text) and its parse result.
pub struct ParseOutcome {
    pub source: Arc<SourceFile>,
    pub document: Result<ParsedDocument, Json5Error>,
}

/// Parses a top-level file.
pub fn parse(path: PathBuf, text: String) -> ParseOutcome {
    parse_at(path, text, &[])
}

/// Parses a file whose root lands at `base` in the resolved config (an included file), which
/// decides what is a secret in it.
pub fn parse_at(path: PathBuf, text: String, base: &[PathSeg]) -> ParseOutcome {
    parse_within(path, text, base, MAX_VALUES)
}

/// [`parse_at`], refusing a file of more than `max_values` values before its tree is built.
pub fn parse_within(path: PathBuf, text: String, base: &[PathSeg], max_values: usize) -> ParseOutcome {
    let compatible = match jsonc_compatible(&text) {
        Ok(compatible) => compatible,
        Err(error) => return unparsed(path, text, base, error),
    };
    let options = ParseOptions { allow_missing_commas: false, ..ParseOptions::default() };
    let ast = match jsonc_parser::parse_to_ast(&compatible, &CollectOptions::default(), &options) {
        Ok(parsed) => parsed.value,
        Err(err) => {
            let error = Json5Error::syntax(err.kind().to_string(), span_of(err.range()));
            return unparsed(path, text, base, error);
        }
    };
    let Some(value) = ast else {
        let error = Json5Error::syntax(
            "invalid end of input (the file holds no value)".to_string(),
            SourceSpan::from((text.len(), 0)),
        );
        return unparsed(path, text, base, error);
    };
    let values = match count_values(&value, max_values) {
        Ok(values) => values,
        Err(past) => {
            let message = format!("the config holds more than {MAX_VALUES} values");
            return unparsed(path, text, base, Json5Error { message, span: span_of(past), over_budget: true });
        }
    };
    let mut secret_ranges = Vec::new();
    collect_secret_ranges(&value, &SecretScope::of(base), &mut secret_ranges);
    let source = Arc::new(SourceFile::with_secrets(path, text.clone(), &secret_ranges));
    let mut builder = TreeBuilder { source: &source, notes: Vec::new() };
    let document = builder.value(value, &SharedKeyPath::default(), None).map(|root| ParsedDocument {
        root,
        notes: builder.notes,
        values,
    });
    ParseOutcome { source, document }
}

/// A file that did not parse: its secrets are found by a tolerant scan.
fn unparsed(path: PathBuf, text: String, base: &[PathSeg], error: Json5Error) -> ParseOutcome {
    let secret_ranges = secrets::unparsed_secret_ranges(&text, base);
    ParseOutcome { source: Arc::new(SourceFile::with_secrets(path, text, &secret_ranges)), document: Err(error) }
}

/// jsonc-parser and the `json5` package OpenClaw parses with disagree on a few characters; this
/// rewrites them, byte for byte so that spans stay valid, into text jsonc-parser reads the way
/// `json5` reads the original:
/// * a BOM (U+FEFF) between tokens is whitespace (anywhere, not only at the start);
/// * U+0085 is not whitespace (an error, where jsonc-parser would skip it);
/// * U+2028/U+2029 end a `//` comment;
/// * a `\uXXXX` escape of an unpaired surrogate is kept (JavaScript strings may hold one); Rust
///   strings cannot, so it reads as U+FFFD.
///
/// Raw control characters (NUL included) and U+2028/U+2029 inside strings need nothing: both
/// parsers keep them, and both refuse a raw line break (checked in [`TreeBuilder`]).
pub(crate) fn jsonc_compatible(text: &str) -> Result<Cow<'_, str>, Json5Error> {
    let needs_rewrite = text.contains(['\u{feff}', '\u{85}', '\u{2028}', '\u{2029}']) || text.contains("\\u");
    if !needs_rewrite {
        return Ok(Cow::Borrowed(text));
    }
    #[derive(Clone, Copy)]
    enum State {
        Code,
        String(u8),
        LineComment,
        BlockComment,
    }
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut state = State::Code;
    let mut i = 0;
    while i < bytes.len() {
        let c = text[i..].chars().next().expect("i is on a char boundary");
        let mut width = c.len_utf8();
        match state {
            State::Code => match c {
                '"' | '\'' => state = State::String(bytes[i]),
                '/' if bytes.get(i + 1) == Some(&b'/') => (state, width) = (State::LineComment, 2),
                '/' if bytes.get(i + 1) == Some(&b'*') => (state, width) = (State::BlockComment, 2),
                '\u{feff}' => out[i..i + width].fill(b' '),
                '\u{85}' => {
                    return Err(Json5Error::syntax(
                        "invalid character U+0085 (JSON5 does not read it as whitespace)".to_string(),
                        SourceSpan::from((i, width)),
                    ));
                }
                _ => {}
            },
            State::String(quote) => match c {
                '\\' => {
                    width = 1 + text[i + 1..].chars().next().map_or(0, char::len_utf8);
                    if bytes.get(i + 1) == Some(&b'u') {
                        width = unicode_escape(text, i, &mut out).unwrap_or(width);
                    }
                }
                _ if c.is_ascii() && c as u8 == quote => state = State::Code,
                _ => {}
            },
            State::LineComment => match c {
                '\n' | '\r' => state = State::Code,
                '\u{2028}' | '\u{2029}' => {
                    out[i..i + width].copy_from_slice(b"\n  ");
                    state = State::Code;
                }
                _ => {}
            },
            State::BlockComment => {
                if text[i..].starts_with("*/") {
                    (state, width) = (State::Code, 2);
                }
            }
        }
        i += width;
    }
    Ok(Cow::Owned(String::from_utf8(out).expect("rewrites replace ASCII or whole characters with ASCII")))
}

/// The `\uXXXX` escape at `text[i..]`: its length (12 for a surrogate pair), with an unpaired
/// surrogate rewritten to `\uFFFD` in `out`. `None` when it is not four hex digits (the parser
/// reports that).
fn unicode_escape(text: &str, i: usize, out: &mut [u8]) -> Option<usize> {
    let unit = |at: usize| -> Option<u32> {
        let digits = text.get(at + 2..at + 6)?;
        (text.get(at..at + 2) == Some("\\u") && digits.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(digits, 16).ok())
            .flatten()
    };
    let first = unit(i)?;
    let is_high = (0xD800..0xDC00).contains(&first);
    if is_high && unit(i + 6).is_some_and(|second| (0xDC00..0xE000).contains(&second)) {
        return Some(12);
    }
    if (0xD800..0xE000).contains(&first) {
        out[i..i + 6].copy_from_slice(b"\\uFFFD");
    }
    Some(6)
}

/// Byte ranges of the values in secret scopes (strings inside their quotes, numbers whole),
/// except strings that are only an `${ENV}` reference.
fn collect_secret_ranges(value: &ast::Value<'_>, scope: &SecretScope, ranges: &mut Vec<Range<usize>>) {
    match value {
        ast::Value::StringLit(s) if scope.is_secret() && !is_env_reference(&s.value) => {
            ranges.push(s.range.start + 1..s.range.end.saturating_sub(1).max(s.range.start + 1));
        }
        ast::Value::NumberLit(n) if scope.is_secret() => ranges.push(n.range.start..n.range.end),
        ast::Value::Array(array) => {
            for element in &array.elements {
                collect_secret_ranges(element, scope, ranges);
            }
        }
        ast::Value::Object(object) => {
            for prop in &object.properties {
                collect_secret_ranges(&prop.value, &scope.key(prop.name.as_str()), ranges);
            }
        }
        _ => {}
    }
}

/// How many values the file holds (objects, lists and scalars), or where the value after the
/// first `max` of them (in document order) is written.
fn count_values(root: &ast::Value<'_>, max: usize) -> Result<usize, jsonc_parser::common::Range> {
    let mut pending = vec![root];
    let mut seen = 0;
    while let Some(value) = pending.pop() {
        seen += 1;
        if seen > max {
            return Err(value.range());
        }
        match value {
            ast::Value::Array(array) => pending.extend(array.elements.iter().rev()),
            ast::Value::Object(object) => pending.extend(object.properties.iter().rev().map(|p| &p.value)),
            _ => {}
        }
    }
    Ok(seen)
}

fn span_of(range: jsonc_parser::common::Range) -> SourceSpan {
    SourceSpan::from(range.start..range.end)
}

struct TreeBuilder<'s> {
    source: &'s Arc<SourceFile>,
    notes: Vec<ParseNote>,
}

impl TreeBuilder<'_> {
    fn origin(&self, path: &SharedKeyPath, range: jsonc_parser::common::Range, key: Option<SourceSpan>) -> Arc<Origin> {
        Arc::new(Origin::new(self.source, path.clone(), span_of(range), key))
    }

    // Recursion depth is bounded by jsonc-parser's nesting limit (512).
    fn value(
        &mut self,
        value: ast::Value<'_>,
        path: &SharedKeyPath,
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
                    items.push(self.value(element, &path.child(PathSeg::Index(index)), None)?);
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
                    return Err(Json5Error::syntax(
                        "invalid line break in string (end the line with `\\` to continue it)".to_string(),
                        SourceSpan::from((range.start + offset, 1)),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn object(&mut self, object: ast::Object<'_>, path: &SharedKeyPath) -> Result<IndexMap<String, Node>, Json5Error> {
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
                    return Err(Json5Error::syntax(
                        format!("invalid unquoted key `{}` (quote keys that are not identifiers)", word.value),
                        key_span,
                    ));
                }
            };
            let node = self.value(prop.value, &path.child(PathSeg::Key(key.clone())), Some(key_span))?;
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
pub(crate) fn is_identifier(word: &str) -> bool {
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

    #[test]
    fn secrets_are_masked_by_position_and_by_value() {
        let text = "{channels: {telegram: {botTokn: 'typo-secret'}}, env: {vars: {GH_PAT: 'pat-value'}},\n\
                    gateway: {auth: {password: 98765}}, models: {providers: {x: {baseUrl: 'wss://u:url-pass@h/?api_key=qk'}}}}";
        let display = parse("t.json5".into(), text.to_string()).source.display_text().to_string();
        for secret in ["typo-secret", "pat-value", "98765", "url-pass", "qk'"] {
            assert!(!display.contains(secret), "{secret} in {display}");
        }
        assert_eq!(display.len(), text.len());
        // An included file's values are secrets where the file lands.
        let included = parse_at("i.json5".into(), "{GH_PAT: 'in-env'}".into(), &[PathSeg::key("env")]);
        assert_eq!(included.source.display_text(), "{GH_PAT: '******'}");
    }

    /// Each case was checked against both releases' loaders (`json5` 2.2.3 through
    /// `readFileSync(…, "utf-8")`): whether the config is valid and the string it holds.
    #[test]
    fn reads_what_the_json5_package_reads() {
        let accepted = [
            ("\u{feff}{a: 'x'}", "x"),
            ("\u{feff}\u{feff}{a: 'x'}", "x"),
            ("{a:\u{feff}'x'}", "x"),
            (r#"{a: "\uD800"}"#, "\u{fffd}"),
            (r#"{a: "x\uDC00y"}"#, "x\u{fffd}y"),
            (r#"{a: "\uD800\u0041"}"#, "\u{fffd}A"),
            (r#"{a: "\uD83D\uDE00"}"#, "\u{1f600}"),
            ("{a: 'a\u{1}b'}", "a\u{1}b"),
            ("{a: 'a\tb'}", "a\tb"),
            ("{a: 'a\u{0}b'}", "a\u{0}b"),
            ("{a: 'a\u{7f}b'}", "a\u{7f}b"),
            ("{a: 'a\u{2028}b'}", "a\u{2028}b"),
            ("{a:\u{2029}'x'}", "x"),
            ("{a:\u{a0}\u{3000}\u{b}\u{c}'x'}", "x"),
            ("{a: 'a\\0b'}", "a\u{0}b"),
            ("{a: '\\x41'}", "A"),
            ("{a: 'a\\\u{2028}b'}", "ab"),
            ("// c\u{2028}{a: 'x'}", "x"),
            ("// c\u{2029}{a: 'x'}", "x"),
        ];
        for (text, expected) in accepted {
            let parsed = parse_text(text).unwrap_or_else(|e| panic!("{text:?}: {e:?}"));
            assert_eq!(parsed.root.to_value(), json!({"a": expected}), "{text:?}");
        }
        for rejected in ["{a:\u{0}'x'}", "{a: 'a\rb'}", "{a:\u{200b}'x'}", "{a:\u{85}'x'}"] {
            assert!(parse_text(rejected).is_err(), "{rejected:?} should fail");
        }
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
        assert_eq!(origin.key_path(), path);
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
    fn ten_thousand_duplicate_keys_parse_in_linear_time() {
        let text = format!("{{{}}}", "tools: {profile: 'coding'},\n".repeat(10_000));
        let started = std::time::Instant::now();
        let doc = parse_text(&text).unwrap();
        assert_eq!(doc.notes.len(), 9_999);
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
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
