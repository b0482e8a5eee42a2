//! Splits each release's config JSON Schema (`data/<line>/config-schema.json`) into the pieces
//! `config::validate::schema` validates separately, so that a command parses and compiles only
//! the pieces its config reaches: parsing the whole 2026.9 schema (470 KB) was most of a small
//! command's time. Its output, `$OUT_DIR/schema-pieces-<line>.rs`, is an expression of type
//! `release::schema::SchemaPieces` that the release registry includes.
//!
//! A piece is a schema node with its large parts split off: the subschemas of its properties, of
//! its array items and of its other properties' values (`additionalProperties`). Only nodes made
//! of keywords that judge an instance independently of each other are split (`type`,
//! `properties`, `required`, `additionalProperties`, `propertyNames`, one-schema `items`,
//! `minItems`, `maxItems`): validating such a node is validating its own keywords, then each
//! present member, each item and each other property's value against its subschema. A split part
//! reads `true` in its parent's text. Each piece's text carries the root's `$schema` (a member
//! compiled alone would otherwise be read as the newest draft, where tuple `items` mean something
//! else).

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::OffsetText;

/// Members with fewer schema nodes than this are validated with their parent.
const SPLIT_NODES: usize = 8;

const SPLITTABLE_KEYWORDS: &[&str] = &[
    "$schema",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "items",
    "minItems",
    "maxItems",
];

/// Where a split part sits in its parent.
#[derive(Clone, Copy, PartialEq)]
enum Part<'a> {
    Property(&'a str),
    Items,
    OtherProperties,
}

/// A piece before it is written: its node and its split parts, in the order they are written.
struct Piece<'a> {
    node: &'a Value,
    parts: Vec<(Part<'a>, Piece<'a>)>,
}

/// The piece of `node` and the number of schema nodes in it, each node visited once.
fn weighed(node: &Value) -> (Piece<'_>, usize) {
    let splittable = node.as_object().is_some_and(|obj| {
        obj.keys().all(|k| SPLITTABLE_KEYWORDS.contains(&k.as_str())) && obj.get("items").is_none_or(Value::is_object)
    });
    let mut parts = Vec::new();
    let mut weight = 1;
    let mut split_if_large = |part, sub| {
        let (piece, size) = weighed(sub);
        if size >= SPLIT_NODES {
            parts.push((part, piece));
        }
        size
    };
    match node {
        Value::Object(obj) => {
            for (key, child) in obj {
                weight += match (key.as_str(), child) {
                    ("properties", Value::Object(properties)) if splittable => {
                        1 + properties
                            .iter()
                            .map(|(name, sub)| split_if_large(Part::Property(name), sub))
                            .sum::<usize>()
                    }
                    ("items", Value::Object(_)) if splittable => split_if_large(Part::Items, child),
                    ("additionalProperties", Value::Object(_)) if splittable => {
                        split_if_large(Part::OtherProperties, child)
                    }
                    _ => node_count(child),
                };
            }
        }
        _ => weight = node_count(node),
    }
    (Piece { node, parts }, weight)
}

/// The number of JSON values in `node`, itself included.
fn node_count(node: &Value) -> usize {
    1 + match node {
        Value::Object(obj) => obj.values().map(node_count).sum(),
        Value::Array(items) => items.iter().map(node_count).sum(),
        _ => 0,
    }
}

/// The node with its split parts reading `true`, in the root's dialect.
fn shallow(piece: &Piece<'_>, dialect: Option<&Value>) -> Value {
    let Some(obj) = piece.node.as_object() else { return piece.node.clone() };
    let split = |part: Part<'_>| piece.parts.iter().any(|(split, _)| *split == part);
    let mut shallow: Map<String, Value> = obj
        .iter()
        .map(|(key, child)| {
            let kept = match (key.as_str(), child) {
                ("properties", Value::Object(properties)) => {
                    let kept = properties.iter().map(|(name, sub)| {
                        (name.clone(), if split(Part::Property(name)) { Value::Bool(true) } else { sub.clone() })
                    });
                    Value::Object(kept.collect())
                }
                ("items", _) if split(Part::Items) => Value::Bool(true),
                ("additionalProperties", _) if split(Part::OtherProperties) => Value::Bool(true),
                _ => child.clone(),
            };
            (key.clone(), kept)
        })
        .collect();
    if let Some(dialect) = dialect {
        shallow.entry("$schema").or_insert_with(|| dialect.clone());
    }
    Value::Object(shallow)
}

/// The Rust expression of every piece of `schema`, the root first, each part after its parent:
/// one text holding every piece's and member name's text, and tables of offsets into it (see
/// `release::schema` for why no table holds references).
pub fn pieces_source(schema: &Value) -> String {
    let (root, _) = weighed(schema);
    let dialect = schema.get("$schema");
    let mut flat = Vec::new();
    flatten(&root, &mut flat);
    let (mut text, mut pieces, mut members) = (OffsetText::default(), String::new(), String::new());
    let mut member_count = 0;
    for (index, piece) in flat.iter().enumerate() {
        let at = text.append(&serde_json::to_string(&shallow(piece, dialect)).expect("a schema serializes"));
        let (first_member, mut items, mut other_properties) = (member_count, None, None);
        // In pre-order, the first part follows its parent and each next one the previous one's pieces.
        let mut next_index = index + 1;
        for (part, sub) in &piece.parts {
            match part {
                Part::Property(name) => {
                    let name = text.append(name);
                    writeln!(
                        members,
                        "crate::release::schema::SchemaMember {{ name: {name:?}, piece: {next_index} }},"
                    )
                    .unwrap();
                    member_count += 1;
                }
                Part::Items => items = Some(next_index),
                Part::OtherProperties => other_properties = Some(next_index),
            }
            next_index += count_pieces(sub);
        }
        writeln!(
            pieces,
            "crate::release::schema::SchemaPiece {{ text: {at:?}, members: [{first_member}, {member_count}], \
             items: {items:?}, other_properties: {other_properties:?} }},"
        )
        .unwrap();
    }
    let text = text.0;
    format!(
        "crate::release::schema::SchemaPieces {{ text: {text:?}, pieces: &[\n{pieces}], members: &[\n{members}] }}\n"
    )
}

/// The pieces in pre-order: a piece, then each part's pieces in turn.
fn flatten<'p, 'a>(piece: &'p Piece<'a>, flat: &mut Vec<&'p Piece<'a>>) {
    flat.push(piece);
    for (_, part) in &piece.parts {
        flatten(part, flat);
    }
}

fn count_pieces(piece: &Piece<'_>) -> usize {
    1 + piece.parts.iter().map(|(_, part)| count_pieces(part)).sum::<usize>()
}
