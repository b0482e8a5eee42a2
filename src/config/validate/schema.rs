//! The release's own JSON Schema (`data/config-schema-<version>.json`, see
//! `data/trim-config-schema.py`), and its errors translated to OpenClaw-style issues.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, OnceLock};

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::{Location, LocationSegment};
use jsonschema::{ValidationError, Validator};
use serde_json::Value;

use super::issue::{IssueCategory, ValidationIssue, unknown_key_hint};
use super::quick_schema::{self, Verdict};
use crate::OpenClawVersion;
use crate::config::path::PathSeg;
use crate::release::schema::SchemaPieces;

/// The release's schema, parsed and compiled piece by piece as a config needs it: parsing and
/// compiling all of 2026.9's (470 KB) took most of a command's start-up, while a config touches a
/// few of its sections. The pieces are cut at build time (`build/schema_pieces.rs` says how, and why
/// validating them one by one finds what the whole schema finds).
struct ReleaseSchema {
    split: &'static SchemaPieces,
    pieces: Vec<Piece>,
}

/// A piece, parsed and compiled on first use.
#[derive(Default)]
struct Piece {
    node: OnceLock<Value>,
    validator: OnceLock<Validator>,
}

impl ReleaseSchema {
    fn node(&self, index: usize) -> &Value {
        self.pieces[index]
            .node
            .get_or_init(|| serde_json::from_str(self.split.text(index)).expect("bundled schema is JSON"))
    }

    fn validator(&self, index: usize) -> &Validator {
        self.pieces[index].validator.get_or_init(|| {
            let options = jsonschema::options().with_keyword("pattern", LazyPattern::keyword);
            options.build(self.node(index)).expect("bundled schema compiles")
        })
    }

    /// The issues of `value` (found at `at`) against piece `index`: the piece's own first, then
    /// its split members', items' and other properties' values'.
    fn check(&self, index: usize, value: &Value, at: &mut Vec<PathSeg>, issues: &mut Vec<ValidationIssue>) {
        // Most values are plainly valid: the piece is then never compiled.
        let plainly_valid = quick_schema::verdict(self.node(index), value, &pattern_matches) == Verdict::Valid;
        let validator = (!plainly_valid).then(|| self.validator(index));
        // Most values are valid, and asking is cheaper than collecting no errors.
        let errors = validator.filter(|v| !v.is_valid(value)).map(|v| v.iter_errors(value));
        for error in errors.into_iter().flatten() {
            issues.extend(translate(&error, self.node(index), value).into_iter().map(|mut issue| {
                issue.path.splice(0..0, at.iter().cloned());
                issue
            }));
        }
        let mut check_part = |part: usize, seg: PathSeg, found: &Value| {
            at.push(seg);
            self.check(part, found, at, issues);
            at.pop();
        };
        if let Some(object) = value.as_object() {
            for (name, member) in self.split.members(index) {
                if let Some(found) = object.get(name) {
                    check_part(member, PathSeg::Key(name.to_string()), found);
                }
            }
            if let Some(other) = self.split.other_properties(index) {
                let declared = self.node(index).get("properties").and_then(Value::as_object);
                for (key, found) in object.iter().filter(|(key, _)| declared.is_none_or(|d| !d.contains_key(*key))) {
                    check_part(other, PathSeg::Key(key.clone()), found);
                }
            }
        }
        if let (Some(items), Some(array)) = (self.split.items(index), value.as_array()) {
            for (position, found) in array.iter().enumerate() {
                check_part(items, PathSeg::Index(position), found);
            }
        }
    }

    /// The subschema of the root's property `name`, wherever the build put it.
    fn property(&self, name: &str) -> Option<&Value> {
        match self.split.members(0).find(|(member, _)| *member == name) {
            Some((_, index)) => Some(self.node(index)),
            None => self.node(0).get("properties")?.get(name),
        }
    }
}

/// `pattern`, compiled the first time a string is checked against it, once per process. The
/// release schemas repeat a few patterns hundreds of times (the ids of secret references), most
/// configs have no string they apply to, and jsonschema compiles a pattern wherever it appears.
/// The regex is built as jsonschema builds it (the ECMA pattern translated by `jsonschema-regex`,
/// compiled by `fancy-regex`), so it matches what jsonschema's would; a match the engine cannot
/// finish counts as no match.
struct LazyPattern {
    pattern: String,
    regex: &'static CompiledPattern,
}

/// A pattern's regex once it is compiled; `None` for one the engine refuses.
type CompiledPattern = OnceLock<Option<fancy_regex::Regex>>;

/// The one slot of `pattern`'s regex in this process.
fn compiled_pattern(pattern: &str) -> &'static CompiledPattern {
    static COMPILED: LazyLock<Mutex<HashMap<String, &'static CompiledPattern>>> = LazyLock::new(Mutex::default);
    let mut compiled = crate::base::parallel::lock(&COMPILED);
    if let Some(regex) = compiled.get(pattern) {
        return regex;
    }
    // Leaked once per distinct pattern of the bundled schemas (a few dozen).
    let regex: &'static CompiledPattern = Box::leak(Box::default());
    compiled.insert(pattern.to_string(), regex);
    regex
}

/// Whether `text` matches the schema pattern `pattern`, as the `pattern` keyword answers.
fn pattern_matches(pattern: &str, text: &str) -> bool {
    regex_matches(compiled_pattern(pattern), pattern, text)
}

fn regex_matches(regex: &CompiledPattern, pattern: &str, text: &str) -> bool {
    let regex = regex.get_or_init(|| {
        let translated = jsonschema_regex::to_rust_regex(pattern).ok()?;
        fancy_regex::Regex::new(&translated).ok()
    });
    regex.as_ref().is_some_and(|regex| regex.is_match(text).unwrap_or(false))
}

impl LazyPattern {
    fn keyword<'a>(
        _: &'a serde_json::Map<String, Value>,
        pattern: &'a Value,
        _: Location,
    ) -> Result<Box<dyn for<'i> jsonschema::Keyword<'i>>, ValidationError<'a>> {
        let pattern = pattern.as_str().expect("bundled schema patterns are strings").to_string();
        let regex = compiled_pattern(&pattern);
        Ok(Box::new(LazyPattern { pattern, regex }))
    }
}

impl<'i> jsonschema::Keyword<'i> for LazyPattern {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) { Ok(()) } else { Err(ValidationError::custom(self.pattern.clone())) }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        instance.as_str().is_none_or(|text| regex_matches(self.regex, &self.pattern, text))
    }
}

/// The release's schema, read once per release on first use.
fn release_schema(version: OpenClawVersion) -> &'static ReleaseSchema {
    static SCHEMAS: [OnceLock<ReleaseSchema>; crate::release::registry::RELEASES.len()] =
        [const { OnceLock::new() }; crate::release::registry::RELEASES.len()];
    let index = crate::release::registry::RELEASES.iter().position(|r| r.id == version.id()).expect("registered");
    SCHEMAS[index].get_or_init(|| {
        let split = version.config_schema();
        ReleaseSchema { split, pieces: (0..split.len()).map(|_| Piece::default()).collect() }
    })
}

/// The top-level channel ids the release knows (`channels.<id>`): its schema's, and the ones its
/// bundled channel plugins declare (`channels.json`).
pub fn known_channel_ids(version: OpenClawVersion) -> Vec<&'static str> {
    let channels = release_schema(version).property("channels");
    let schema = channels.and_then(|c| c.get("properties")).and_then(Value::as_object);
    let mut ids: Vec<&'static str> = schema.map(|props| props.keys().map(String::as_str).collect()).unwrap_or_default();
    let plugin_channels = version.data().channels()["pluginChannels"].as_array().into_iter().flatten();
    ids.extend(plugin_channels.filter_map(Value::as_str));
    ids
}

pub fn check(value: &Value, version: OpenClawVersion) -> Vec<ValidationIssue> {
    let mut issues = Vec::new();
    release_schema(version).check(0, value, &mut Vec::new(), &mut issues);
    issues
}

/// The path of `location` in `instance`. jsonschema reads a numeric object key (a sender or guild
/// id) back as an array index; the instance says which it is.
pub(super) fn to_path(location: &Location, instance: &Value) -> Vec<PathSeg> {
    let mut node = Some(instance);
    location
        .iter()
        .map(|seg| {
            let (seg, next) = match (seg, node) {
                (LocationSegment::Index(index), Some(Value::Array(items))) => (PathSeg::Index(index), items.get(index)),
                (LocationSegment::Index(index), None) => (PathSeg::Index(index), None),
                (seg, _) => {
                    let key = match seg {
                        LocationSegment::Property(name) => name.into_owned(),
                        LocationSegment::Index(index) => index.to_string(),
                    };
                    let next = node.and_then(|n| n.get(&key));
                    (PathSeg::Key(key), next)
                }
            };
            node = next;
            seg
        })
        .collect()
}

/// The schema node at a JSON-pointer-like location.
fn schema_at<'s>(schema: &'s Value, location: &Location) -> Option<&'s Value> {
    location.iter().try_fold(schema, |node, seg| match seg {
        LocationSegment::Property(name) => node.get(name.as_ref()),
        LocationSegment::Index(index) => node.get(index),
    })
}

fn quoted_list(values: impl IntoIterator<Item = String>, separator: &str) -> String {
    values.into_iter().collect::<Vec<_>>().join(separator)
}

fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn expected_types(kind: &TypeKind) -> String {
    let name = |t: &jsonschema::JsonType| t.to_string();
    match kind {
        TypeKind::Single(t) => name(t),
        TypeKind::Multiple(types) => quoted_list(types.iter().map(|t| name(&t)), " | "),
    }
}

/// The literal values a union accepts when every branch is a `const` or an `enum`.
fn union_literals(branches: Option<&Value>) -> Option<Vec<String>> {
    branches?.as_array()?.iter().try_fold(Vec::new(), |mut acc, branch| {
        if let Some(constant) = branch.get("const") {
            acc.push(constant.to_string());
        } else {
            acc.extend(branch.get("enum")?.as_array()?.iter().map(Value::to_string));
        }
        Some(acc)
    })
}

/// The issues of `error`, found validating `instance` against `schema`.
fn translate(error: &ValidationError<'_>, schema: &Value, instance: &Value) -> Vec<ValidationIssue> {
    let path = to_path(error.instance_path(), instance);
    let issue = |message: String, category| ValidationIssue::new(path.clone(), message, category);
    match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let mut schema_path = error.schema_path().iter().collect::<Vec<_>>();
            schema_path.pop();
            let parent = schema_path.iter().try_fold(schema, |node, seg| match seg {
                LocationSegment::Property(name) => node.get(name.as_ref()),
                LocationSegment::Index(index) => node.get(index),
            });
            let known: Vec<&str> = parent
                .and_then(|p| p.get("properties"))
                .and_then(Value::as_object)
                .map(|props| props.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let noun = if unexpected.len() == 1 { "key" } else { "keys" };
            let keys = quoted_list(unexpected.iter().map(|k| format!("\"{k}\"")), ", ");
            let mut unknown = issue(format!("Unrecognized {noun}: {keys}"), IssueCategory::UnknownKey);
            let hints: Vec<String> = unexpected
                .iter()
                .filter_map(|key| did_you_mean(key, &known).map(|s| unknown_key_hint(key, s)))
                .collect();
            if !hints.is_empty() {
                unknown = unknown.with_help(hints.join("\n"));
            }
            vec![unknown]
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            vec![issue(
                format!("Invalid input: expected a value for \"{name}\", received undefined"),
                IssueCategory::MissingKey,
            )]
        }
        ValidationErrorKind::Type { kind } => {
            let received = json_type_name(error.instance());
            vec![issue(
                format!("Invalid input: expected {}, received {received}", expected_types(kind)),
                IssueCategory::WrongType,
            )]
        }
        ValidationErrorKind::Enum { options } => {
            let allowed =
                options.as_array().map(|o| quoted_list(o.iter().map(Value::to_string), "|")).unwrap_or_default();
            vec![issue(format!("Invalid option: expected one of {allowed}"), IssueCategory::InvalidEnum)]
        }
        ValidationErrorKind::Constant { expected_value } => {
            vec![issue(format!("Invalid input: expected {expected_value}"), IssueCategory::InvalidEnum)]
        }
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            let branches = schema_at(schema, error.schema_path());
            match union_literals(branches) {
                Some(allowed) => {
                    vec![issue(format!("Invalid input (allowed: {})", allowed.join(", ")), IssueCategory::InvalidEnum)]
                }
                None => vec![issue("Invalid input".to_string(), IssueCategory::InvalidUnion)],
            }
        }
        ValidationErrorKind::PropertyNames { error: inner } => {
            let mut key_path = path.clone();
            if let Some(key) = inner.instance().as_str() {
                key_path.push(PathSeg::Key(key.to_string()));
            }
            vec![ValidationIssue::new(key_path, "Invalid key in record", IssueCategory::InvalidFormat)]
        }
        ValidationErrorKind::Pattern { pattern } | ValidationErrorKind::Custom { message: pattern, .. } => {
            vec![issue(format!("Invalid string: must match pattern /{pattern}/"), IssueCategory::InvalidFormat)]
        }
        ValidationErrorKind::Minimum { limit } => {
            vec![issue(format!("Too small: expected number to be >={limit}"), IssueCategory::OutOfRange)]
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            vec![issue(format!("Too small: expected number to be >{limit}"), IssueCategory::OutOfRange)]
        }
        ValidationErrorKind::Maximum { limit } => {
            vec![issue(format!("Too big: expected number to be <={limit}"), IssueCategory::OutOfRange)]
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            vec![issue(format!("Too big: expected number to be <{limit}"), IssueCategory::OutOfRange)]
        }
        ValidationErrorKind::MinLength { limit } | ValidationErrorKind::MinItems { limit } => {
            vec![issue(format!("Too small: expected at least {limit}"), IssueCategory::OutOfRange)]
        }
        ValidationErrorKind::MaxLength { limit } | ValidationErrorKind::MaxItems { limit } => {
            vec![issue(format!("Too big: expected at most {limit}"), IssueCategory::OutOfRange)]
        }
        _ => vec![issue(format!("Invalid input: {error}"), IssueCategory::InvalidUnion)],
    }
}

/// The closest known key, if it is close enough to be a likely typo: similar (Jaro-Winkler) and
/// a few edits away for its length, so that a shared prefix alone (`tools` and
/// `toolProgressDetail`) suggests nothing.
pub fn did_you_mean<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let key = key.to_lowercase();
    known
        .iter()
        .filter_map(|candidate| {
            let lower = candidate.to_lowercase();
            let edits = key.chars().count().max(lower.chars().count()).div_ceil(3).max(2);
            let close = strsim::osa_distance(&key, &lower) <= edits;
            close.then(|| (strsim::jaro_winkler(&key, &lower), *candidate))
        })
        .filter(|(score, _)| *score >= 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_suggests_typos_not_shared_prefixes() {
        assert_eq!(did_you_mean("maxToken", &["maxTokens", "temperature"]), Some("maxTokens"));
        assert_eq!(did_you_mean("secuirty", &["security", "safeBins"]), Some("security"));
        assert_eq!(did_you_mean("AlsoAlow", &["alsoAllow", "allow"]), Some("alsoAllow"));
        assert_eq!(did_you_mean("tools", &["toolProgressDetail", "workspace"]), None);
    }

    #[test]
    fn a_numeric_key_stays_a_key_in_an_issue_path() {
        let config =
            serde_json::json!({"channels": {"telegram": {"groups": {"-1001": {"toolsBySender": {"42": ""}}}}}});
        for version in OpenClawVersion::ALL {
            // Through the pieces, and through jsonschema's own path for the whole schema.
            let schema = whole_schema(version);
            let whole = jsonschema::validator_for(&schema).unwrap();
            let through_whole = whole.iter_errors(&config).flat_map(|e| translate(&e, &schema, &config));
            for issue in check(&config, version).into_iter().chain(through_whole) {
                assert_eq!(issue.path.last(), Some(&PathSeg::Key("42".into())), "{:?}", issue.path);
            }
        }
    }

    fn whole_schema(version: OpenClawVersion) -> Value {
        let path = format!("{}/data/{}/config-schema.json", env!("CARGO_MANIFEST_DIR"), version.line());
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// Every value of `config` by its JSON pointer, in document order.
    fn pointers(value: &Value, at: String, found: &mut Vec<String>) {
        found.push(at.clone());
        match value {
            Value::Object(obj) => obj
                .iter()
                .for_each(|(k, v)| pointers(v, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), found)),
            Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| pointers(v, format!("{at}/{i}"), found)),
            _ => {}
        }
    }

    /// `config` and variants of it with a value replaced by one of another shape, so that every
    /// kind of issue turns up inside split pieces (record values, list items, members).
    fn variants(config: &Value) -> Vec<Value> {
        let mut all = Vec::new();
        pointers(config, String::new(), &mut all);
        let replacements = [
            serde_json::json!(7),
            serde_json::json!("x"),
            serde_json::json!({"zzUnknown": true}),
            serde_json::json!([null]),
            serde_json::json!(""),
            serde_json::json!("ID 9"),
        ];
        let mut variants = vec![config.clone()];
        for (n, pointer) in all.iter().skip(1).step_by(all.len() / 9 + 1).enumerate() {
            let mut variant = config.clone();
            *variant.pointer_mut(pointer).unwrap() = replacements[n % replacements.len()].clone();
            variants.push(variant);
        }
        variants
    }

    /// Values of many shapes for `schema`: plain ones, the literals it names, and an object with
    /// every property it declares set to a value of its type.
    fn samples(schema: &Value) -> Vec<Value> {
        use serde_json::json;
        let mut found = vec![
            json!(null),
            json!(true),
            json!(0),
            json!(1),
            json!(-1),
            json!(1.5),
            json!(1e20),
            json!(""),
            json!("a"),
            json!("x y"),
            json!("A1-b_c"),
            json!("a".repeat(300)),
            json!([]),
            json!([1]),
            json!(["a"]),
            json!([null]),
            json!({}),
            json!({"a": 1}),
            json!({"enabled": true}),
        ];
        fn literals(node: &Value, found: &mut Vec<Value>) {
            match node {
                Value::Object(map) => {
                    found.extend(map.get("const").cloned());
                    found.extend(map.get("enum").and_then(Value::as_array).into_iter().flatten().cloned());
                    map.values().for_each(|v| literals(v, found));
                }
                Value::Array(items) => items.iter().for_each(|v| literals(v, found)),
                _ => {}
            }
        }
        literals(schema, &mut found);
        let typed = |node: &Value| match node.get("type").and_then(Value::as_str) {
            _ if node.get("const").is_some() => node["const"].clone(),
            Some("string") => json!("a"),
            Some("number" | "integer") => json!(1),
            Some("boolean") => json!(true),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ => json!(null),
        };
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            found.push(Value::Object(properties.iter().map(|(k, v)| (k.clone(), typed(v))).collect()));
        }
        found
    }

    /// The quick verdict never contradicts the compiled validator: what it calls valid is valid,
    /// what it calls invalid is invalid, on every piece of every release's schema.
    #[test]
    fn the_quick_verdict_agrees_with_the_compiled_validator() {
        for version in OpenClawVersion::ALL {
            let schema = release_schema(version);
            let (mut decided, mut total) = (0, 0);
            for index in 0..schema.pieces.len() {
                let node = schema.node(index);
                for value in samples(node) {
                    let quick = quick_schema::verdict(node, &value, &pattern_matches);
                    total += 1;
                    if quick == Verdict::Unknown {
                        continue;
                    }
                    decided += 1;
                    let valid = schema.validator(index).is_valid(&value);
                    assert_eq!(quick == Verdict::Valid, valid, "{} piece {index} {node} on {value}", version.id());
                }
            }
            assert!(decided * 10 > total * 8, "{}: only {decided} of {total} decided", version.id());
        }
    }

    /// Validating piece by piece finds exactly what the whole schema finds, on every config of the
    /// conformance families a release has (refused ones included) and variants of each with
    /// values of the wrong shape, for every release.
    #[test]
    fn pieces_find_what_the_whole_schema_finds() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
        for version in OpenClawVersion::ALL {
            let schema = whole_schema(version);
            let whole = jsonschema::validator_for(&schema).unwrap();
            let (mut compared, mut refused) = (0, 0);
            for family in ["", "-legacy", "-plugins", "-validation"] {
                let cases = dir.join(format!("tools-{}{family}.cases.jsonl", version.line()));
                // Not every release has every family recorded (2026.5: the main one only).
                let Ok(text) = std::fs::read_to_string(cases) else { continue };
                for line in text.lines() {
                    let case: Value = serde_json::from_str(line).unwrap();
                    for config in variants(&case["config"]) {
                        let issues = |found: Vec<ValidationIssue>| {
                            let mut pairs: Vec<(Vec<PathSeg>, String)> =
                                found.into_iter().map(|i| (i.path, i.message)).collect();
                            pairs.sort();
                            pairs
                        };
                        let expected =
                            issues(whole.iter_errors(&config).flat_map(|e| translate(&e, &schema, &config)).collect());
                        refused += usize::from(!expected.is_empty());
                        assert_eq!(issues(check(&config, version)), expected, "{} {config}", case["id"]);
                        compared += 1;
                    }
                }
            }
            assert!(compared > 5000 && refused > 3000, "{compared} {refused}");
        }
    }
}
