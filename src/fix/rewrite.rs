//! One [`Change`] applied to the JSON5 text of one file, everything else kept byte for byte.
//!
//! The edit is made on jsonc-parser's concrete syntax tree (its `cst` feature), not as byte
//! ranges cut from the loader's spans: the CST already knows what a member owns (the comma after
//! it, a comment on its line, the blank line before it), adds or drops the comma a neighbour
//! needs, keeps trailing commas where the container has them and indents an inserted member like
//! its siblings — each of which a span-based splice would have to re-derive, for every edit kind.
//! What the CST writes its own way is put back into the file's style: strings in the quote most
//! of the file uses, keys bare where the file writes identifiers bare. The result is then reduced
//! to the one byte range that changed, applied to the original text: the CST reads the text the
//! loader reads ([`crate::config::json5`] rewrites a few characters, byte for byte, before
//! parsing), and a change is refused if that range holds one of the rewritten characters.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstObjectProp, CstRootNode, ObjectPropName};
use serde_json::Value;

use crate::config::edit::Change;
use crate::config::json5;
use crate::config::path::{KeyPath, PathSeg};

/// Why a change could not be made to a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RewriteError {
    #[error("the file does not parse: {0}")]
    Parse(String),
    #[error("nothing is written at `{0}`")]
    Missing(String),
    #[error("`{0}` is not {1}")]
    Shape(String, &'static str),
    #[error("`{0}` already has a key `{1}`")]
    KeyExists(String, String),
    #[error("the edit would touch characters clawpolicy reads differently from how they are written")]
    Untouchable,
}

/// A byte range of a text and what replaces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub range: std::ops::Range<usize>,
    pub replacement: String,
}

impl TextEdit {
    /// The text with the edit made.
    pub fn apply(&self, text: &str) -> String {
        format!("{}{}{}", &text[..self.range.start], self.replacement, &text[self.range.end..])
    }
}

/// The edit that makes `change` at `path` (a key path inside this file) in `text`; `None` when
/// the text already says it.
pub fn rewrite(text: &str, path: &[PathSeg], change: &Change) -> Result<Option<TextEdit>, RewriteError> {
    let readable = json5::jsonc_compatible(text).map_err(|e| RewriteError::Parse(e.message))?;
    let options = ParseOptions { allow_missing_commas: false, ..ParseOptions::default() };
    let root = CstRootNode::parse(&readable, &options).map_err(|e| RewriteError::Parse(e.kind().to_string()))?;
    let style = Style::of(&root);
    let comments_before = root.value().map(|value| comments(&value)).unwrap_or_default();
    let edited = match change {
        Change::Set(value) => {
            set(&root, path, value, &style)?;
            root.to_string()
        }
        Change::Append(value) => {
            append(&root, path, value, &style)?;
            root.to_string()
        }
        Change::RenameKey(key) => {
            let prop = prop_at(&root, path)?;
            let parent = prop.parent().and_then(|p| p.as_object());
            if parent.is_some_and(|object| last_prop(&object, key).is_some()) {
                return Err(RewriteError::KeyExists(KeyPath(path[..path.len() - 1].to_vec()).to_string(), key.clone()));
            }
            rename(&prop, key, &style);
            root.to_string()
        }
        Change::Remove => {
            match slot(&root, path)? {
                Slot::Prop(prop) => prop.remove(),
                Slot::Element(element) => element.remove(),
                Slot::Root => return Err(RewriteError::Shape("<root>".into(), "a member or element")),
            }
            root.to_string()
        }
        Change::ListToEntries { workspace } => list_to_entries(&root, path, workspace.as_deref(), &style)?,
    };
    let mut edit = narrowest_edit(text, &readable, &edited)?;
    if let Some(edit) = &mut edit {
        let after = CstRootNode::parse(&edited, &options).map_err(|e| RewriteError::Parse(e.kind().to_string()))?;
        let mut lost = comments_before;
        for kept in after.value().map(|value| comments(&value)).unwrap_or_default() {
            if let Some(at) = lost.iter().position(|c| *c == kept) {
                lost.remove(at);
            }
        }
        keep_comments(&readable, edit, &lost);
    }
    Ok(edit)
}

/// Writes the comments a removal took with it (the comment after a removed member, inside a
/// replaced value) where the edit starts: no comment of the file is lost.
fn keep_comments(readable: &str, edit: &mut TextEdit, lost: &[String]) {
    if lost.is_empty() {
        return;
    }
    let line_start = readable[..edit.range.start].rfind('\n').map_or(0, |at| at + 1);
    let indent: String = readable[line_start..].chars().take_while(|c| matches!(c, ' ' | '\t')).collect();
    let at_line_start = readable[line_start..edit.range.start].trim().is_empty();
    let mut kept = String::new();
    for comment in lost {
        if at_line_start {
            kept.push_str(&format!("{comment}\n{indent}"));
        } else if comment.starts_with("//") {
            kept.push_str(&format!(" {comment}\n{indent}"));
        } else {
            kept.push_str(&format!(" {comment}"));
        }
    }
    edit.replacement.insert_str(0, &kept);
}

/// The one range where `after` differs from `before`, as an edit of `before`.
pub fn text_edit(before: &str, after: &str) -> Option<TextEdit> {
    narrowest_edit(before, before, after).ok().flatten()
}

/// The one range where `edited` differs from `readable`, as an edit of `text` (the same bytes
/// but for the characters the loader rewrites before parsing).
fn narrowest_edit(text: &str, readable: &str, edited: &str) -> Result<Option<TextEdit>, RewriteError> {
    if edited == readable {
        return Ok(None);
    }
    let (a, b) = (readable.as_bytes(), edited.as_bytes());
    let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let max_suffix = a.len().min(b.len()) - prefix;
    let mut suffix = a.iter().rev().zip(b.iter().rev()).take(max_suffix).take_while(|(x, y)| x == y).count();
    // Whole characters on both sides.
    while !readable.is_char_boundary(prefix) || !edited.is_char_boundary(prefix) {
        prefix -= 1;
    }
    while !readable.is_char_boundary(a.len() - suffix) || !edited.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    let range = prefix..a.len() - suffix;
    if text[range.clone()] != readable[range.clone()] {
        return Err(RewriteError::Untouchable);
    }
    Ok(Some(TextEdit { range, replacement: edited[prefix..b.len() - suffix].to_string() }))
}

/// How the file writes strings and keys, by majority.
struct Style {
    single_quotes: bool,
    bare_keys: bool,
}

impl Style {
    fn of(root: &CstRootNode) -> Style {
        #[derive(Default)]
        struct Counts {
            single: usize,
            double: usize,
            bare: usize,
            quoted: usize,
        }
        fn visit(node: &CstNode, counts: &mut Counts) {
            if let Some(prop) = node.as_object_prop() {
                match prop.name() {
                    Some(ObjectPropName::Word(_)) => counts.bare += 1,
                    Some(ObjectPropName::String(_)) => counts.quoted += 1,
                    None => {}
                }
            }
            if let Some(string) = node.as_string_lit() {
                if string.raw_value().starts_with('\'') { counts.single += 1 } else { counts.double += 1 }
            }
            for child in node.children() {
                visit(&child, counts);
            }
        }
        let mut counts = Counts::default();
        if let Some(value) = root.value() {
            visit(&value, &mut counts);
        }
        Style { single_quotes: counts.single > counts.double, bare_keys: counts.bare > counts.quoted }
    }

    fn string(&self, value: &str) -> String {
        let double = serde_json::Value::String(value.to_string()).to_string();
        if self.single_quotes { single_quoted(&double) } else { double }
    }

    fn key(&self, key: &str) -> String {
        if self.bare_keys && json5::is_identifier(key) { key.to_string() } else { self.string(key) }
    }

    /// Writes the strings and keys of a node the CST just inserted in this style.
    fn restyle(&self, node: &CstNode) {
        if let Some(prop) = node.as_object_prop() {
            if let (Some(ObjectPropName::String(name)), Some(decoded)) = (prop.name(), prop.decoded_name()) {
                name.set_raw_value(self.key(&decoded));
            }
            if let Some(value) = prop.value() {
                self.restyle(&value);
            }
            return;
        }
        if let Some(string) = node.as_string_lit()
            && let Ok(decoded) = string.decoded_value()
        {
            string.set_raw_value(self.string(&decoded));
        }
        for child in node.children() {
            self.restyle(&child);
        }
    }
}

/// A double-quoted JSON string literal as a single-quoted JSON5 one.
fn single_quoted(double: &str) -> String {
    let inner = &double[1..double.len() - 1];
    let mut out = String::with_capacity(double.len());
    out.push('\'');
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('"') => out.push('"'),
                Some(escaped) => {
                    out.push('\\');
                    out.push(escaped);
                }
                None => out.push('\\'),
            },
            '\'' => out.push_str("\\'"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect()),
    }
}

/// Where a key path leads: a member of an object, an element of an array, or the root value.
enum Slot {
    Root,
    Prop(CstObjectProp),
    Element(CstNode),
}

impl Slot {
    fn value(&self, root: &CstRootNode) -> Option<CstNode> {
        match self {
            Slot::Root => root.value(),
            Slot::Prop(prop) => prop.value(),
            Slot::Element(node) => Some(node.clone()),
        }
    }
}

/// The member the value of `key` comes from: the last one written (JavaScript keeps the last).
fn last_prop(object: &CstObject, key: &str) -> Option<CstObjectProp> {
    object.properties().into_iter().filter(|p| p.decoded_name().as_deref() == Some(key)).last()
}

fn dotted(path: &[PathSeg]) -> String {
    KeyPath(path.to_vec()).to_string()
}

fn slot(root: &CstRootNode, path: &[PathSeg]) -> Result<Slot, RewriteError> {
    let mut at = Slot::Root;
    for (depth, seg) in path.iter().enumerate() {
        let missing = || RewriteError::Missing(dotted(&path[..=depth]));
        let value = at.value(root).ok_or_else(missing)?;
        at = match seg {
            PathSeg::Key(key) => Slot::Prop(value.as_object().and_then(|o| last_prop(&o, key)).ok_or_else(missing)?),
            PathSeg::Index(index) => {
                Slot::Element(value.as_array().and_then(|a| a.elements().into_iter().nth(*index)).ok_or_else(missing)?)
            }
        };
    }
    Ok(at)
}

fn prop_at(root: &CstRootNode, path: &[PathSeg]) -> Result<CstObjectProp, RewriteError> {
    match slot(root, path)? {
        Slot::Prop(prop) => Ok(prop),
        _ => Err(RewriteError::Shape(dotted(path), "an object member")),
    }
}

/// The longest prefix of `path` that is written, with the value there.
fn deepest(root: &CstRootNode, path: &[PathSeg]) -> Result<(usize, CstNode), RewriteError> {
    for depth in (0..=path.len()).rev() {
        if let Ok(found) = slot(root, &path[..depth])
            && let Some(value) = found.value(root)
        {
            return Ok((depth, value));
        }
    }
    Err(RewriteError::Missing("<root>".into()))
}

/// `value` nested under the keys of `rest`.
fn nested(rest: &[PathSeg], value: &Value) -> Result<Value, RewriteError> {
    rest.iter().rev().try_fold(value.clone(), |inner, seg| match seg {
        PathSeg::Key(key) => Ok(Value::Object([(key.clone(), inner)].into_iter().collect())),
        PathSeg::Index(_) => Err(RewriteError::Missing(dotted(rest))),
    })
}

fn set(root: &CstRootNode, path: &[PathSeg], value: &Value, style: &Style) -> Result<(), RewriteError> {
    let (depth, found) = deepest(root, path)?;
    if depth == path.len() {
        // A string keeps its own quotes.
        if let (Some(string), Value::String(text)) = (found.as_string_lit(), value) {
            let single = string.raw_value().starts_with('\'');
            let double = Value::String(text.clone()).to_string();
            string.set_raw_value(if single { single_quoted(&double) } else { double });
            return Ok(());
        }
        let replaced = match slot(root, path)? {
            Slot::Prop(prop) => {
                prop.set_value(input(value));
                prop.value()
            }
            Slot::Element(element) => replace(element, input(value)),
            Slot::Root => return Err(RewriteError::Shape("<root>".into(), "a member or element")),
        };
        if let Some(node) = replaced {
            style.restyle(&node);
        }
        return Ok(());
    }
    let object = found.as_object().ok_or_else(|| RewriteError::Shape(dotted(&path[..depth]), "an object"))?;
    let PathSeg::Key(key) = &path[depth] else {
        return Err(RewriteError::Missing(dotted(&path[..=depth])));
    };
    let inner = nested(&path[depth + 1..], value)?;
    let prop = object.append(key, input(&inner));
    style.restyle(&CstNode::Container(prop.into()));
    Ok(())
}

/// An array element replaced in place.
fn replace(element: CstNode, value: CstInputValue) -> Option<CstNode> {
    use jsonc_parser::cst::{CstContainerNode, CstLeafNode};
    match element {
        CstNode::Leaf(CstLeafNode::StringLit(n)) => n.replace_with(value),
        CstNode::Leaf(CstLeafNode::NumberLit(n)) => n.replace_with(value),
        CstNode::Leaf(CstLeafNode::BooleanLit(n)) => n.replace_with(value),
        CstNode::Leaf(CstLeafNode::NullKeyword(n)) => n.replace_with(value),
        CstNode::Leaf(CstLeafNode::WordLit(n)) => n.replace_with(value),
        CstNode::Container(CstContainerNode::Object(n)) => n.replace_with(value),
        CstNode::Container(CstContainerNode::Array(n)) => n.replace_with(value),
        _ => None,
    }
}

fn append(root: &CstRootNode, path: &[PathSeg], value: &Value, style: &Style) -> Result<(), RewriteError> {
    match slot(root, path).ok().and_then(|s| s.value(root)) {
        Some(node) => {
            let array: CstArray = node.as_array().ok_or_else(|| RewriteError::Shape(dotted(path), "a list"))?;
            style.restyle(&array.append(input(value)));
            Ok(())
        }
        None => set(root, path, &Value::Array(vec![value.clone()]), style),
    }
}

fn rename(prop: &CstObjectProp, key: &str, style: &Style) {
    match prop.name() {
        Some(ObjectPropName::Word(word)) if json5::is_identifier(key) => word.set_raw_value(key.to_string()),
        Some(ObjectPropName::Word(word)) => word.set_raw_value(style.string(key)),
        Some(ObjectPropName::String(name)) => {
            let single = name.raw_value().starts_with('\'');
            let double = Value::String(key.to_string()).to_string();
            name.set_raw_value(if single { single_quoted(&double) } else { double });
        }
        None => {}
    }
}

/// `list: [{ id: "a", … }, …]` as `entries: { a: { … }, … }`: each entry loses its `id` member
/// and is keyed by it; everything else (comments, blank lines, commas) stays where it was.
fn list_to_entries(
    root: &CstRootNode,
    path: &[PathSeg],
    workspace: Option<&str>,
    style: &Style,
) -> Result<String, RewriteError> {
    let prop = prop_at(root, path)?;
    let array = prop.value().and_then(|v| v.as_array()).ok_or_else(|| RewriteError::Shape(dotted(path), "a list"))?;
    let mut ids = Vec::new();
    let mut hoisted: Vec<Vec<String>> = Vec::new();
    for (index, element) in array.elements().into_iter().enumerate() {
        let entry = element
            .as_object()
            .ok_or_else(|| RewriteError::Shape(format!("{}[{index}]", dotted(path)), "an object"))?;
        let id_prop =
            last_prop(&entry, "id").ok_or_else(|| RewriteError::Missing(format!("{}[{index}].id", dotted(path))))?;
        let id = id_prop.value().and_then(|v| v.as_string_lit()).and_then(|s| s.decoded_value().ok());
        ids.push(id.ok_or_else(|| RewriteError::Shape(format!("{}[{index}].id", dotted(path)), "a string"))?);
        // Every `id` member goes (a duplicate one too); a comment written with it stays, at the
        // top of the entry.
        let entry_node = CstNode::Container(entry.clone().into());
        let mut kept = comments(&entry_node);
        for duplicate in entry.properties().into_iter().filter(|p| p.decoded_name().as_deref() == Some("id")) {
            duplicate.remove();
        }
        for comment in comments(&entry_node) {
            if let Some(at) = kept.iter().position(|c| *c == comment) {
                kept.remove(at);
            }
        }
        hoisted.push(kept);
        if index == 0
            && let Some(workspace) = workspace
        {
            match last_prop(&entry, "workspace") {
                Some(existing) => existing.set_value(CstInputValue::String(workspace.to_string())),
                None => {
                    entry.append("workspace", CstInputValue::String(workspace.to_string()));
                }
            }
            style.restyle(&CstNode::Container(last_prop(&entry, "workspace").expect("just written").into()));
        }
    }
    rename(&prop, "entries", style);
    let array_node = CstNode::Container(array.clone().into());
    let start = offset(&array_node);
    let mut keyed = String::new();
    let mut next_entry = ids.iter().zip(&hoisted);
    for child in array.children() {
        if child.as_object().is_some() {
            let (id, comments) = next_entry.next().expect("one id per element");
            let body = child.to_string();
            let (open, rest) = body.split_at(1);
            let mut lost = String::new();
            for comment in comments {
                lost.push(' ');
                lost.push_str(comment);
            }
            let needs_break = comments.last().is_some_and(|c| c.starts_with("//"))
                && !rest.trim_start_matches([' ', '\t']).starts_with(['\n', '\r']);
            if needs_break {
                lost.push('\n');
            }
            keyed.push_str(&format!("{}: {open}{lost}{rest}", style.key(id)));
        } else {
            match child.to_string().as_str() {
                "[" => keyed.push('{'),
                "]" => keyed.push('}'),
                other => keyed.push_str(other),
            }
        }
    }
    let text = root.to_string();
    let end = start + array_node.to_string().len();
    Ok(format!("{}{keyed}{}", &text[..start], &text[end..]))
}

/// The comments inside a node, in order.
fn comments(node: &CstNode) -> Vec<String> {
    let mut found = Vec::new();
    if node.is_comment() {
        found.push(node.to_string());
    }
    for child in node.children() {
        found.extend(comments(&child));
    }
    found
}

/// The byte offset of a node in the text the tree prints.
fn offset(node: &CstNode) -> usize {
    let mut offset = 0;
    let mut at = node.clone();
    loop {
        offset += at.previous_siblings().map(|sibling| sibling.to_string().len()).sum::<usize>();
        match at.parent() {
            Some(parent) => at = CstNode::Container(parent),
            None => return offset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::path::parse_dotted;

    fn edit(text: &str, path: &str, change: Change) -> String {
        match rewrite(text, &parse_dotted(path), &change).unwrap() {
            Some(edit) => edit.apply(text),
            None => text.to_string(),
        }
    }

    #[test]
    fn a_replaced_string_keeps_its_quotes_and_everything_around_it() {
        let text = "{\n  // why\n  tools: { deny: ['exce', \"web_fetch\"], }, // trailing\n}\n";
        let out = edit(text, "tools.deny.0", Change::Set("exec".into()));
        assert_eq!(out, "{\n  // why\n  tools: { deny: ['exec', \"web_fetch\"], }, // trailing\n}\n");
        let out = edit(text, "tools.deny.1", Change::Set("it's".into()));
        assert!(out.contains("\"it's\""), "{out}");
    }

    #[test]
    fn inserted_members_follow_the_file_style() {
        let text = "{\n  tools: {\n    profile: 'coding', // the base\n  },\n}\n";
        let out = edit(text, "tools.alsoAllow", Change::Append("browser".into()));
        assert_eq!(out, "{\n  tools: {\n    profile: 'coding', // the base\n    alsoAllow: ['browser'],\n  },\n}\n");
        let out = edit(text, "agents.entries.main.tools.allow", Change::Append("read".into()));
        assert!(out.contains("agents: {"), "{out}");
        assert!(out.contains("allow: ['read']"), "{out}");
    }

    #[test]
    fn removing_a_member_takes_its_comma_and_leaves_its_comments() {
        let text = "{\n  a: 1,\n  b: 2, // about b\n  c: 3,\n}\n";
        let out = edit(text, "b", Change::Remove);
        assert_eq!(out, "{\n  a: 1,\n  // about b\n  c: 3,\n}\n");
        let out = edit("{ a: 1, b: { /* inner */ x: 2 } }", "b", Change::Remove);
        assert!(
            out.contains("/* inner */") && crate::config::json5::parse("t".into(), out.clone()).document.is_ok(),
            "{out}"
        );
        let out = edit("{\n  a: 1,\n  b: 2, // last\n}\n", "b", Change::Remove);
        assert!(
            out.contains("// last") && crate::config::json5::parse("t".into(), out.clone()).document.is_ok(),
            "{out}"
        );
        let out = edit("{\"x\": [1, 2, 3]}", "x.2", Change::Remove);
        assert_eq!(out, "{\"x\": [1, 2]}");
    }

    #[test]
    fn renaming_keeps_the_key_style() {
        assert_eq!(
            edit("{tools: {alsoAlow: []}}", "tools.alsoAlow", Change::RenameKey("alsoAllow".into())),
            "{tools: {alsoAllow: []}}"
        );
        assert_eq!(edit("{\"a\": 1}", "a", Change::RenameKey("b".into())), "{\"b\": 1}");
        assert!(matches!(
            rewrite("{a: 1, b: 2}", &parse_dotted("a"), &Change::RenameKey("b".into())),
            Err(RewriteError::KeyExists(..))
        ));
    }

    #[test]
    fn a_legacy_list_becomes_keyed_entries_with_its_comments() {
        let text = "{\n  agents: {\n    list: [\n      // the boss\n      { id: \"main\", default: true },\n      {\n        id: \"work\", // second\n        tools: { deny: [\"exec\"] },\n      },\n    ],\n  },\n}\n";
        let out = edit(text, "agents.list", Change::ListToEntries { workspace: None });
        let value = crate::config::json5::parse("t".into(), out.clone()).document.unwrap().root.to_value();
        assert_eq!(
            value,
            serde_json::json!({"agents": {"entries": {"main": {"default": true}, "work": {"tools": {"deny": ["exec"]}}}}}),
            "{out}"
        );
        assert!(out.contains("// the boss") && out.contains("// second"), "{out}");
        let pinned = edit(text, "agents.list", Change::ListToEntries { workspace: Some("/w".into()) });
        assert!(pinned.contains("workspace: \"/w\""), "{pinned}");
    }

    #[test]
    fn no_change_is_no_edit_and_text_the_loader_rewrites_is_kept() {
        assert_eq!(rewrite("{a: 'x'}", &parse_dotted("a"), &Change::Set("x".into())).unwrap(), None);
        // A BOM between tokens: the edit elsewhere leaves it alone.
        let text = "\u{feff}{a: 1, b: 'x'}";
        assert_eq!(edit(text, "b", Change::Set("y".into())), "\u{feff}{a: 1, b: 'y'}");
        // An unpaired surrogate escape is read as U+FFFD: replacing around it would rewrite it.
        let text = r#"{a: ["\uD800", "exce"]}"#;
        assert_eq!(edit(text, "a.1", Change::Set("exec".into())), r#"{a: ["\uD800", "exec"]}"#);
        assert_eq!(
            rewrite(text, &parse_dotted("a"), &Change::Set(serde_json::json!([]))),
            Err(RewriteError::Untouchable)
        );
    }
}
