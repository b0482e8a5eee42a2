//! Splits each release's `migrations.json` so that a command parses only the legacy rules a
//! config can match: most of a release's rules (175 in 2026.9) name keys a given config does not
//! have, and parsing them all, with the index, was a sixth of a small command's instructions. Its output,
//! `$OUT_DIR/migrations-<line>.rs`, is an expression of type `release::migrations::SplitMigrations`:
//! the file without its rules, each rule's own JSON text, and the index `LegacyRuleIndex` reads:
//! the keys each rule's patterns name before their first wildcard, as a tree. As in
//! `schema_pieces`, the tables hold offsets into one text, not references the dynamic loader would
//! patch at every start.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::OffsetText;

#[path = "../src/release/pattern_path.rs"]
#[allow(dead_code)]
mod pattern_path;

use pattern_path::{PatternPath, PatternStart};

pub fn split_source(mut migrations: Value) -> String {
    let rules = migrations
        .as_object_mut()
        .and_then(|file| file.remove("legacyRules"))
        .expect("migrations.json has legacyRules");
    let rules = rules.as_array().expect("legacyRules is an array");
    let mut text = OffsetText::default();
    let mut offsets = String::new();
    // The two trees of leading keys: from the root, and from `agents.defaults` or an agent entry.
    let (mut root, mut scope, mut always) = (KeyTree::default(), KeyTree::default(), Vec::new());
    for (at, rule) in rules.iter().enumerate() {
        writeln!(offsets, "{:?},", text.append(&serde_json::to_string(rule).expect("a rule serializes"))).unwrap();
        for path in pattern_paths(rule) {
            let keys: Vec<&str> = path.iter().flat_map(|p| p.leading_keys()).collect();
            let Some(start) = path.as_ref().map(|p| p.start).filter(|_| !keys.is_empty()) else {
                always.push(at);
                continue;
            };
            let tree = if start == PatternStart::Root { &mut root } else { &mut scope };
            let node = keys.iter().fold(tree, |node, key| node.children.entry(key.to_string()).or_default());
            node.rules.push(at);
        }
    }
    // Breadth first, so that each node's children are one run of the table.
    let (mut nodes, mut marked) = (String::new(), Vec::<usize>::new());
    let mut queue: std::collections::VecDeque<(&str, &KeyTree)> = [("", &root), ("", &scope)].into();
    let mut next_child = queue.len();
    while let Some((key, node)) = queue.pop_front() {
        let first_rule = marked.len();
        marked.extend(&node.rules);
        let children = [next_child, next_child + node.children.len()];
        next_child += node.children.len();
        queue.extend(node.children.iter().map(|(key, child)| (key.as_str(), child)));
        writeln!(
            nodes,
            "crate::release::migrations::KeyNode {{ key: {:?}, children: {children:?}, rules: [{first_rule}, {}] }},",
            text.append(key),
            marked.len()
        )
        .unwrap();
    }
    let (rest, text) = (serde_json::to_string(&migrations).expect("migrations serialize"), text.0);
    format!(
        "&crate::release::migrations::SplitMigrations {{ rest: {rest:?}, text: {text:?}, rules: &[\n{offsets}], \
         nodes: &[\n{nodes}], marked: &{marked:?}, always: &{always:?} }}\n"
    )
}

/// Leading keys as a tree: a rule is listed at the node its pattern's last leading key reaches.
#[derive(Default)]
struct KeyTree {
    children: BTreeMap<String, KeyTree>,
    rules: Vec<usize>,
}

/// The paths a rule's patterns start from, as `LegacyRule::patterns` reads them: its `match`
/// patterns, else its own path. A detector written in code may match anything (`None`: no
/// leading keys); a rule whose matcher is not simulated never matches (no path).
fn pattern_paths(rule: &Value) -> Vec<Option<PatternPath>> {
    let text = |value: &Value| value.as_str().expect("a pattern path is a string").to_string();
    if rule.get("notSimulated").is_some() {
        return Vec::new();
    }
    if rule.get("detector").is_some() {
        return vec![None];
    }
    let ats = match rule.get("match") {
        Some(patterns) => patterns.as_array().expect("match is an array").iter().map(|p| text(&p["at"])).collect(),
        None => vec![text(&rule["path"])],
    };
    ats.iter().map(|at| Some(PatternPath::parse(at))).collect()
}
