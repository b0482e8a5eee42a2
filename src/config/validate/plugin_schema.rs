//! A plugin's config (`plugins.entries.<id>.config`) checked against its manifest's JSON Schema
//! (`data/<release>/plugins.json`) with the `jsonschema` crate, in the dialect of the release's
//! validator, and each error worded and placed as that validator does: ajv (2026.2: draft 7, one
//! error per unexpected key, the instance path inside the message) or TypeBox (2026.9: draft
//! 2020-12, one error listing every unexpected key, the instance path, and for a missing key the
//! key itself, appended to the issue path; type lists checked as `anyOf`). The wording follows
//! the validators' messages for the keywords the shipped schemas use; the verdict is what counts.
//!
//! 2026.9 fills schema defaults before it validates; no shipped schema lets a default satisfy
//! or break a check (a test in `release::plugins` guards that), so defaults are not applied.

use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::LocationSegment;
use jsonschema::{Draft, ValidationError, Validator};
use serde_json::{Map, Value};

use super::issue::{IssueCategory, unknown_key_hint};
use super::schema::{did_you_mean, to_path};

use crate::OpenClawVersion;
use crate::config::path::PathSeg;
use crate::release::plugins::{PluginRecord, SchemaErrors};
use crate::release::registry::RELEASES;

/// One issue or warning of the plugin stage of validation.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Finding {
    /// The release's path.
    pub path: Vec<PathSeg>,
    /// Where it is written in the config.
    pub at: Vec<PathSeg>,
    pub message: String,
    pub category: IssueCategory,
    pub help: Option<String>,
}

impl Finding {
    pub(super) fn new(path: Vec<PathSeg>, at: Vec<PathSeg>, message: String) -> Self {
        Finding { path, at, message, category: IssueCategory::Refinement, help: None }
    }
}

/// Where a plugin's config is: the release's path (`plugins.entries.<id>.config`) and where it is
/// written in the config.
pub(super) struct ConfigPlace<'p> {
    pub path: &'p [PathSeg],
    pub at: &'p [PathSeg],
}

/// The issues of `config` for `plugin`, in the release's words (`invalid config: …`); none when
/// it is valid or the plugin has no schema (the caller reports that).
pub(super) fn check(
    version: OpenClawVersion,
    plugin: &PluginRecord,
    config: &Value,
    place: &ConfigPlace<'_>,
) -> Vec<Finding> {
    let Some(compiled) = validator(version, plugin) else {
        return Vec::new();
    };
    // Most plugins a config turns on have no config there: their schema's answer to `{}` is
    // worked out once.
    if config.as_object().is_some_and(Map::is_empty) && compiled.accepts_empty() {
        return Vec::new();
    }
    let validator = &compiled.validator;
    let dialect = version.data().plugins().validation.schema_errors;
    let placed = |path: Vec<PathSeg>, at: Vec<PathSeg>, message: String, category| {
        placed(dialect, place, path, at, message, category)
    };
    let mut errors = Vec::new();
    let mut branches = Vec::new();
    for error in validator.iter_errors(config) {
        if let Some((owner, branch)) = conditional_branch(&error, config) {
            let message = format!("must match \"{branch}\" schema");
            if !branches.contains(&(owner.clone(), branch)) {
                errors.push(placed(owner.clone(), owner.clone(), message, IssueCategory::InvalidUnion));
                branches.push((owner, branch));
            }
            // TypeBox reports the branch only, ajv also what failed in it.
            if dialect == SchemaErrors::Typebox {
                continue;
            }
        }
        errors.extend(translate(&error, config, dialect, plugin, &placed));
    }
    errors
}

/// For an error inside an `if`'s `then` or `else`: the object the condition is about and which
/// branch failed.
fn conditional_branch(error: &ValidationError<'_>, config: &Value) -> Option<(Vec<PathSeg>, &'static str)> {
    let schema_path: Vec<LocationSegment<'_>> = error.schema_path().iter().collect();
    let keyword = |seg: &LocationSegment<'_>| match seg {
        LocationSegment::Property(name) => Some(name.to_string()),
        LocationSegment::Index(_) => None,
    };
    let branch_at = schema_path.iter().rposition(|seg| matches!(keyword(seg).as_deref(), Some("then" | "else")))?;
    let branch = if keyword(&schema_path[branch_at]).as_deref() == Some("then") { "then" } else { "else" };
    // Below the branch, each subschema of a property or an item is one step down the instance.
    let (mut steps, mut rest) = (0, &schema_path[branch_at + 1..]);
    while let Some((seg, tail)) = rest.split_first() {
        rest = match keyword(seg).as_deref() {
            Some("properties" | "patternProperties" | "prefixItems") => {
                steps += 1;
                tail.get(1..).unwrap_or_default()
            }
            Some("additionalProperties" | "items") => {
                steps += 1;
                tail
            }
            _ => tail,
        };
    }
    let at = to_path(error.instance_path(), config);
    Some((at[..at.len().saturating_sub(steps)].to_vec(), branch))
}

/// A plugin's config schema compiled, and whether it accepts an empty config.
struct Compiled {
    validator: Validator,
    accepts_empty: OnceLock<bool>,
}

impl Compiled {
    fn accepts_empty(&self) -> bool {
        *self.accepts_empty.get_or_init(|| self.validator.is_valid(&Value::Object(Map::new())))
    }
}

/// Each plugin's schema compiled once, on first use.
fn validator(version: OpenClawVersion, plugin: &PluginRecord) -> Option<&'static Compiled> {
    static COMPILED: [OnceLock<Vec<OnceLock<Compiled>>>; RELEASES.len()] = [const { OnceLock::new() }; RELEASES.len()];
    let release = RELEASES.iter().position(|r| r.id == version.id()).expect("registered");
    let rules = version.data().plugins();
    let slots = COMPILED[release].get_or_init(|| rules.plugins.iter().map(|_| OnceLock::new()).collect());
    let index = rules.plugins.iter().position(|p| std::ptr::eq(p, plugin))?;
    let schema = plugin.config_schema()?;
    Some(slots[index].get_or_init(|| {
        let draft = match rules.validation.schema_errors {
            SchemaErrors::Ajv => Draft::Draft7,
            SchemaErrors::Typebox => Draft::Draft202012,
        };
        let validator = jsonschema::options()
            .with_draft(draft)
            .should_validate_formats(false)
            .build(schema)
            .unwrap_or_else(|e| panic!("bundled schema of plugin {} does not compile: {e}", plugin.id));
        Compiled { validator, accepts_empty: OnceLock::new() }
    }))
}

/// ajv's instance path as its errors print it: dotted, `<root>` for the config itself.
fn ajv_path(path: &[PathSeg]) -> String {
    let dotted = crate::config::path::dotted(path);
    if dotted.is_empty() { "<root>".to_string() } else { dotted }
}

/// A JavaScript number as it prints (`1`, `0.5`).
fn number(limit: &Value) -> String {
    match limit.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e21 => format!("{}", f as i64),
        _ => limit.to_string(),
    }
}

/// TypeBox's hint after an enum or const error: the allowed values, strings quoted, at most 12.
fn allowed_hint(values: &[Value]) -> String {
    const SHOWN: usize = 12;
    let labels: Vec<String> = values.iter().take(SHOWN).map(Value::to_string).collect();
    let hidden = values.len().saturating_sub(SHOWN);
    let more = if hidden > 0 { format!(", ... (+{hidden} more)") } else { String::new() };
    format!(" (allowed: {}{more})", labels.join(", "))
}

/// The release's words for one failed keyword, before they are placed (`invalid` for keywords
/// the shipped schemas do not use).
fn keyword_message(kind: &ValidationErrorKind, dialect: SchemaErrors) -> (String, IssueCategory) {
    // ajv writes "must NOT …", TypeBox "must not …".
    let not = if dialect == SchemaErrors::Ajv { "NOT" } else { "not" };
    match kind {
        ValidationErrorKind::Type { kind: TypeKind::Single(t) } => (format!("must be {t}"), IssueCategory::WrongType),
        ValidationErrorKind::Type { kind: TypeKind::Multiple(types) } => {
            let names: Vec<String> = types.iter().map(|t| t.to_string()).collect();
            (format!("must be {}", names.join(",")), IssueCategory::WrongType)
        }
        ValidationErrorKind::Enum { options } => {
            let hint = match (dialect, options.as_array()) {
                (SchemaErrors::Typebox, Some(values)) => allowed_hint(values),
                _ => String::new(),
            };
            (format!("must be equal to one of the allowed values{hint}"), IssueCategory::InvalidEnum)
        }
        ValidationErrorKind::Constant { expected_value } => {
            let hint = if dialect == SchemaErrors::Typebox {
                allowed_hint(&[(**expected_value).clone()])
            } else {
                String::new()
            };
            (format!("must be equal to constant{hint}"), IssueCategory::InvalidEnum)
        }
        ValidationErrorKind::Minimum { limit } => (format!("must be >= {}", number(limit)), IssueCategory::OutOfRange),
        ValidationErrorKind::Maximum { limit } => (format!("must be <= {}", number(limit)), IssueCategory::OutOfRange),
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            (format!("must be > {}", number(limit)), IssueCategory::OutOfRange)
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            (format!("must be < {}", number(limit)), IssueCategory::OutOfRange)
        }
        ValidationErrorKind::MinLength { limit } => {
            (format!("must {not} have fewer than {limit} characters"), IssueCategory::OutOfRange)
        }
        ValidationErrorKind::MaxLength { limit } => {
            (format!("must {not} have more than {limit} characters"), IssueCategory::OutOfRange)
        }
        ValidationErrorKind::MinItems { limit } => {
            (format!("must {not} have fewer than {limit} items"), IssueCategory::OutOfRange)
        }
        ValidationErrorKind::MaxItems { limit } => {
            (format!("must {not} have more than {limit} items"), IssueCategory::OutOfRange)
        }
        ValidationErrorKind::MinProperties { limit } => {
            (format!("must {not} have fewer than {limit} properties"), IssueCategory::OutOfRange)
        }
        ValidationErrorKind::MaxProperties { limit } => {
            (format!("must {not} have more than {limit} properties"), IssueCategory::OutOfRange)
        }
        ValidationErrorKind::Pattern { pattern } => {
            (format!("must match pattern \"{pattern}\""), IssueCategory::InvalidFormat)
        }
        ValidationErrorKind::UniqueItems => (format!("must {not} have duplicate items"), IssueCategory::InvalidFormat),
        ValidationErrorKind::AnyOf { .. } => ("must match a schema in anyOf".to_string(), IssueCategory::InvalidUnion),
        ValidationErrorKind::OneOfNotValid { .. } | ValidationErrorKind::OneOfMultipleValid { .. } => {
            ("must match exactly one schema in oneOf".to_string(), IssueCategory::InvalidUnion)
        }
        ValidationErrorKind::Not { .. } => (format!("must {not} be valid"), IssueCategory::InvalidUnion),
        ValidationErrorKind::PropertyNames { .. } => {
            ("property name must be valid".to_string(), IssueCategory::InvalidFormat)
        }
        _ => ("invalid".to_string(), IssueCategory::InvalidUnion),
    }
}

/// An error (at `path` inside the config, written at `at`) placed as the release's validator
/// places it: ajv names the path in the message and reports at the config itself, TypeBox
/// appends it to the issue path.
fn placed(
    dialect: SchemaErrors,
    place: &ConfigPlace<'_>,
    path: Vec<PathSeg>,
    at: Vec<PathSeg>,
    message: String,
    category: IssueCategory,
) -> Finding {
    let (path, message) = match dialect {
        SchemaErrors::Ajv => (Vec::new(), format!("{}: {message}", ajv_path(&path))),
        SchemaErrors::Typebox => (path, message),
    };
    Finding {
        path: [place.path, &path].concat(),
        at: [place.at, &at].concat(),
        message: format!("invalid config: {message}"),
        category,
        help: None,
    }
}

/// What `placed` is inside [`check`]: the dialect and the config's place applied.
type Place<'f> = dyn Fn(Vec<PathSeg>, Vec<PathSeg>, String, IssueCategory) -> Finding + 'f;

fn translate(
    error: &ValidationError<'_>,
    config: &Value,
    dialect: SchemaErrors,
    plugin: &PluginRecord,
    placed: &Place<'_>,
) -> Vec<Finding> {
    let at = to_path(error.instance_path(), config);
    match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let known = known_keys(plugin, error).unwrap_or_default();
            let hint = |key: &String| did_you_mean(key, &known).map(|s| unknown_key_hint(key, s));
            let with_key = |key: &String| {
                let mut key_at = at.clone();
                key_at.push(PathSeg::key(key));
                key_at
            };
            match dialect {
                // One error per key; ajv's message does not name it, the help does.
                SchemaErrors::Ajv => unexpected
                    .iter()
                    .map(|key| {
                        let message = "must NOT have additional properties".to_string();
                        let mut found = placed(at.clone(), with_key(key), message, IssueCategory::InvalidUnion);
                        found.help =
                            Some(hint(key).unwrap_or_else(|| format!("`{key}` is not a setting of this plugin")));
                        found
                    })
                    .collect(),
                SchemaErrors::Typebox => {
                    let keys: Vec<String> = unexpected.iter().map(|k| format!("\"{k}\"")).collect();
                    let message = format!("must not have additional properties: {}", keys.join(", "));
                    let first = unexpected.first().map(with_key).unwrap_or_else(|| at.clone());
                    let mut found = placed(at.clone(), first, message, IssueCategory::UnknownKey);
                    let hints: Vec<String> = unexpected.iter().filter_map(hint).collect();
                    found.help = (!hints.is_empty()).then(|| hints.join("\n"));
                    vec![found]
                }
            }
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let message = format!("must have required property '{name}'");
            let mut path = at.clone();
            if dialect == SchemaErrors::Typebox {
                path.push(PathSeg::key(name));
            }
            vec![placed(path, at, message, IssueCategory::MissingKey)]
        }
        // TypeBox checks a list of types as `anyOf` of each.
        ValidationErrorKind::Type { kind: TypeKind::Multiple(types) } if dialect == SchemaErrors::Typebox => {
            let mut errors: Vec<Finding> = types
                .iter()
                .map(|t| placed(at.clone(), at.clone(), format!("must be {t}"), IssueCategory::WrongType))
                .collect();
            let union = "must match a schema in anyOf".to_string();
            errors.push(placed(at.clone(), at.clone(), union, IssueCategory::InvalidUnion));
            errors
        }
        kind => {
            let (message, category) = keyword_message(kind, dialect);
            vec![placed(at.clone(), at, message, category)]
        }
    }
}

/// The keys the object schema that refused a key declares, for did-you-mean.
fn known_keys<'s>(plugin: &'s PluginRecord, error: &ValidationError<'_>) -> Option<Vec<&'s str>> {
    let mut schema_path: Vec<LocationSegment<'_>> = error.schema_path().iter().collect();
    schema_path.pop();
    let object = schema_path.iter().try_fold(plugin.config_schema()?, |node, seg| match seg {
        LocationSegment::Property(name) => node.get(name.as_ref()),
        LocationSegment::Index(index) => node.get(*index),
    });
    let properties = object?.get("properties")?.as_object()?;
    Some(properties.keys().map(String::as_str).collect())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::config::path::dotted;

    fn errors(version: OpenClawVersion, id: &str, config: Value) -> Vec<(String, String)> {
        let plugin = version.data().plugins().plugin(id).unwrap();
        let place = ConfigPlace { path: &[], at: &[] };
        let found = check(version, plugin, &config, &place).into_iter();
        let mut found: Vec<(String, String)> =
            found.map(|e| (dotted(&e.path), e.message.trim_start_matches("invalid config: ").to_string())).collect();
        found.sort();
        found
    }

    fn said(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut said: Vec<(String, String)> = pairs.iter().map(|(p, m)| (p.to_string(), m.to_string())).collect();
        said.sort();
        said
    }

    /// A plugin, its config and the release's `(path, message)` errors for it.
    type Case = (&'static str, Value, &'static [(&'static str, &'static str)]);

    /// What 2026.9's `validatePluginSchemaValue` answers (recorded from the release).
    #[test]
    fn typebox_errors_are_worded_and_placed_as_2026_9_does() {
        let v = OpenClawVersion::V2026_9;
        let cases: [Case; 8] = [
            (
                "llm-task",
                json!({"maxTokens": 0, "timeoutMs": "x", "bogus": 1, "other": 2}),
                &[
                    ("", "must not have additional properties: \"bogus\", \"other\""),
                    ("maxTokens", "must be >= 1"),
                    ("timeoutMs", "must be integer"),
                ],
            ),
            (
                "openai",
                json!({"personality": "x"}),
                &[(
                    "personality",
                    "must be equal to one of the allowed values (allowed: \"friendly\", \"on\", \"off\")",
                )],
            ),
            (
                "beam",
                json!({"mirror": {}}),
                &[
                    ("mirror.endpoint", "must have required property 'endpoint'"),
                    ("mirror.catalogs", "must have required property 'catalogs'"),
                ],
            ),
            (
                "crabbox",
                json!({"sandbox": {"provider": "", "ttl": "5x"}}),
                &[
                    ("sandbox.provider", "must not have fewer than 1 characters"),
                    ("sandbox.ttl", "must match pattern \"^\\d+(?:ms|s|m|h)$\""),
                ],
            ),
            ("onepassword", json!({"vault": "v"}), &[("", "must match \"then\" schema")]),
            (
                "memory-wiki",
                json!({"vaultMode": "unsafe-local", "vault": {"scope": "agent"}}),
                &[("", "must not be valid")],
            ),
            (
                "session-share",
                json!({"share": {"groups": ["a", "a"]}}),
                &[("share.groups", "must not have duplicate items")],
            ),
            (
                "minimax",
                json!({"webSearch": {"apiKey": 5}}),
                &[
                    ("webSearch.apiKey", "must be string"),
                    ("webSearch.apiKey", "must be object"),
                    ("webSearch.apiKey", "must match a schema in anyOf"),
                ],
            ),
        ];
        for (id, config, want) in cases {
            assert_eq!(errors(v, id, config), said(want), "{id}");
        }
        assert_eq!(errors(v, "a2a", json!([])), said(&[("", "must be object")]));
    }

    /// What 2026.2's ajv answers (recorded from the release).
    #[test]
    fn ajv_errors_name_the_instance_path_in_the_message() {
        let v = OpenClawVersion::V2026_2;
        assert_eq!(
            errors(v, "memory-lancedb", json!({})),
            said(&[("", "<root>: must have required property 'embedding'")])
        );
        assert_eq!(
            errors(v, "voice-call", json!({"x": 1, "y": 2})),
            said(&[
                ("", "<root>: must NOT have additional properties"),
                ("", "<root>: must NOT have additional properties")
            ])
        );
    }

    #[test]
    fn an_unexpected_key_points_at_itself_with_a_did_you_mean() {
        let plugin = OpenClawVersion::V2026_9.data().plugins().plugin("llm-task").unwrap();
        let place = ConfigPlace { path: &[], at: &[] };
        let found = check(OpenClawVersion::V2026_9, plugin, &json!({"maxToken": 5}), &place);
        assert_eq!(dotted(&found[0].at), "maxToken");
        assert_eq!(found[0].help.as_deref(), Some("`maxToken` → did you mean `maxTokens`?"));
    }
}
