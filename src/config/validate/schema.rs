//! The release's own JSON Schema (`data/config-schema-<version>.json`, see
//! `data/trim-config-schema.py`), and its errors translated to OpenClaw-style issues.

use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::{Location, LocationSegment};
use jsonschema::{ValidationError, Validator};
use serde_json::Value;

use super::issue::{IssueCategory, ValidationIssue, unknown_key_hint};
use crate::OpenClawVersion;
use crate::config::path::PathSeg;

/// The release's schema, compiled piece by piece as a config needs it: compiling all of 2026.9's
/// (470 KB) took most of a command's start-up, while a config touches a few of its sections.
struct ReleaseSchema {
    schema: &'static Value,
    root: Piece,
}

/// A node of the schema validated on its own, with its large members split off into pieces of
/// their own. Only plain object nodes are split (`type`, `properties`, `required`, a boolean
/// `additionalProperties`): validating such a node is validating its own keywords, then each
/// present member against its subschema, so the split changes nothing but the order of issues.
struct Piece {
    node: &'static Value,
    /// The node with its split members accepting anything, compiled on first use.
    shallow: OnceLock<Validator>,
    members: Vec<(&'static str, Piece)>,
}

/// Members with fewer schema nodes than this are validated with their parent.
const SPLIT_NODES: usize = 64;

const SPLITTABLE_KEYWORDS: &[&str] = &["$schema", "type", "properties", "required", "additionalProperties"];

impl Piece {
    fn new(node: &'static Value) -> Piece {
        Piece::weighed(node).0
    }

    /// The piece of `node` and the number of schema nodes in it, each node visited once.
    fn weighed(node: &'static Value) -> (Piece, usize) {
        let splittable = node.as_object().is_some_and(|obj| {
            obj.keys().all(|k| SPLITTABLE_KEYWORDS.contains(&k.as_str()))
                && obj.get("additionalProperties").is_none_or(Value::is_boolean)
        });
        let mut members = Vec::new();
        let mut weight = 1;
        match node {
            Value::Object(obj) => {
                for (key, child) in obj {
                    let properties = child.as_object().filter(|_| splittable && key == "properties");
                    let Some(properties) = properties else {
                        weight += node_count(child);
                        continue;
                    };
                    for (name, sub) in properties {
                        let (piece, size) = Piece::weighed(sub);
                        weight += size;
                        if size >= SPLIT_NODES {
                            members.push((name.as_str(), piece));
                        }
                    }
                }
            }
            _ => weight = node_count(node),
        }
        (Piece { node, shallow: OnceLock::new(), members }, weight)
    }

    /// The compiled node, in the schema's own dialect (`$schema` of the root: a member compiled
    /// alone would otherwise be read as the newest draft, where tuple `items` mean something else).
    fn validator(&self, dialect: Option<&Value>) -> &Validator {
        self.shallow.get_or_init(|| {
            // The node without the split members' subschemas (never copied).
            let mut shallow: serde_json::Map<String, Value> = match self.node.as_object() {
                Some(obj) => obj
                    .iter()
                    .map(|(key, child)| match (key.as_str(), child.as_object()) {
                        ("properties", Some(properties)) if !self.members.is_empty() => {
                            let kept = properties.iter().map(|(name, sub)| {
                                let split = self.members.iter().any(|(member, _)| member == name);
                                (name.clone(), if split { Value::Bool(true) } else { sub.clone() })
                            });
                            (key.clone(), Value::Object(kept.collect()))
                        }
                        _ => (key.clone(), child.clone()),
                    })
                    .collect(),
                None => return jsonschema::validator_for(self.node).expect("bundled schema compiles"),
            };
            if let Some(dialect) = dialect {
                shallow.entry("$schema").or_insert_with(|| dialect.clone());
            }
            jsonschema::validator_for(&Value::Object(shallow)).expect("bundled schema compiles")
        })
    }

    /// The issues of `value` (found at `at`), this piece's own first.
    fn check(&self, value: &Value, at: &[PathSeg], dialect: Option<&Value>, issues: &mut Vec<ValidationIssue>) {
        for error in self.validator(dialect).iter_errors(value) {
            issues.extend(translate(&error, self.node).into_iter().map(|mut issue| {
                issue.path.splice(0..0, at.iter().cloned());
                issue
            }));
        }
        for (name, piece) in &self.members {
            if let Some(member) = value.as_object().and_then(|obj| obj.get(*name)) {
                let mut path = at.to_vec();
                path.push(PathSeg::Key((*name).to_string()));
                piece.check(member, &path, dialect, issues);
            }
        }
    }
}

/// The number of JSON values in `node`, itself included.
fn node_count(node: &Value) -> usize {
    1 + match node {
        Value::Object(obj) => obj.values().map(node_count).sum(),
        Value::Array(items) => items.iter().map(node_count).sum(),
        _ => 0,
    }
}

/// The release's schema, read once per release on first use.
fn release_schema(version: OpenClawVersion) -> &'static ReleaseSchema {
    static COMPILED: [OnceLock<ReleaseSchema>; crate::release::registry::RELEASES.len()] =
        [const { OnceLock::new() }; crate::release::registry::RELEASES.len()];
    let index = crate::release::registry::RELEASES.iter().position(|r| r.id == version.id()).expect("registered");
    COMPILED[index].get_or_init(|| {
        let schema: &'static Value =
            Box::leak(Box::new(serde_json::from_str(version.config_schema()).expect("bundled schema is JSON")));
        ReleaseSchema { schema, root: Piece::new(schema) }
    })
}

/// The top-level channel ids the release knows (`channels.<id>`): its schema's, and the ones its
/// bundled channel plugins declare (`channels.json`).
pub fn known_channel_ids(version: OpenClawVersion) -> Vec<&'static str> {
    let schema = release_schema(version).schema["properties"]["channels"]["properties"].as_object();
    let mut ids: Vec<&'static str> = schema.map(|props| props.keys().map(String::as_str).collect()).unwrap_or_default();
    let plugin_channels = version.data().channels()["pluginChannels"].as_array().into_iter().flatten();
    ids.extend(plugin_channels.filter_map(Value::as_str));
    ids
}

pub fn check(value: &Value, version: OpenClawVersion) -> Vec<ValidationIssue> {
    let mut issues = Vec::new();
    let release = release_schema(version);
    release.root.check(value, &[], release.schema.get("$schema"), &mut issues);
    issues
}

fn to_path(location: &Location) -> Vec<PathSeg> {
    location
        .iter()
        .map(|seg| match seg {
            LocationSegment::Property(name) => PathSeg::Key(name.into_owned()),
            LocationSegment::Index(index) => PathSeg::Index(index),
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

fn translate(error: &ValidationError<'_>, schema: &Value) -> Vec<ValidationIssue> {
    let path = to_path(error.instance_path());
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
        ValidationErrorKind::Pattern { pattern } => {
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

/// The closest known key, if it is close enough to be a likely typo.
pub fn did_you_mean<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|candidate| (strsim::jaro_winkler(&key.to_lowercase(), &candidate.to_lowercase()), *candidate))
        .filter(|(score, _)| *score >= 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Validating piece by piece finds exactly what the whole schema finds, on every config of the
    /// conformance families a release has (refused ones included), for every release.
    #[test]
    fn pieces_find_what_the_whole_schema_finds() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
        for version in OpenClawVersion::ALL {
            let release = release_schema(version);
            let whole = jsonschema::validator_for(release.schema).unwrap();
            let mut compared = 0;
            for family in ["", "-legacy", "-plugins", "-validation"] {
                let cases = dir.join(format!("tools-{}{family}.cases.jsonl", version.line()));
                // Not every release has every family recorded (2026.5: the main one only).
                let Ok(text) = std::fs::read_to_string(cases) else { continue };
                for line in text.lines() {
                    let case: Value = serde_json::from_str(line).unwrap();
                    let config = &case["config"];
                    let issues = |found: Vec<ValidationIssue>| {
                        let mut pairs: Vec<(Vec<PathSeg>, String)> =
                            found.into_iter().map(|i| (i.path, i.message)).collect();
                        pairs.sort();
                        pairs
                    };
                    let expected =
                        issues(whole.iter_errors(config).flat_map(|e| translate(&e, release.schema)).collect());
                    assert_eq!(issues(check(config, version)), expected, "{}", case["id"]);
                    compared += 1;
                }
            }
            assert!(compared > 900, "{compared}");
        }
    }
}
