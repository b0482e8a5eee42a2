//! OpenClaw's deep merge, used for `$include` arrays, sibling overrides and `--config` overlays.
//! Nodes keep their own origins, so provenance survives merging.

use indexmap::IndexMap;

use super::tree::{Node, NodeKind};
use crate::release::loader::BlockedKeys;

/// Keys the merge drops (prototype-pollution guard).
const BLOCKED_KEYS: [&str; 3] = ["__proto__", "prototype", "constructor"];

fn is_blocked(key: &str) -> bool {
    BLOCKED_KEYS.contains(&key)
}

/// Merges `source` (later) over `target` (earlier): arrays concatenate, objects merge key by key
/// (target's key order, then new source keys), anything else: source replaces target.
/// Blocked keys the source adds are skipped; with [`BlockedKeys::Everywhere`] they are also
/// stripped from the target side and from objects copied over.
pub fn deep_merge(target: Node, source: Node, blocked: BlockedKeys) -> Node {
    let sanitize = blocked == BlockedKeys::Everywhere;
    match (target.kind, source.kind) {
        (NodeKind::Array(mut earlier), NodeKind::Array(later)) => {
            // Exactly: concatenating five included lists of 100,000 must not leave room for 800,000.
            earlier.reserve_exact(later.len());
            earlier.extend(later);
            Node::new(NodeKind::Array(earlier), target.origin)
        }
        (NodeKind::Object(earlier), NodeKind::Object(later)) => {
            let mut merged = if sanitize { sanitized(earlier) } else { earlier };
            for (key, value) in later {
                if is_blocked(&key) {
                    continue;
                }
                match merged.get_mut(&key) {
                    Some(current) => {
                        let earlier = std::mem::replace(current, Node::new(NodeKind::Null, None));
                        *current = deep_merge(earlier, value, blocked);
                    }
                    None if sanitize => {
                        merged.insert(key, sanitize_node(value));
                    }
                    None => {
                        merged.insert(key, value);
                    }
                }
            }
            Node::new(NodeKind::Object(merged), target.origin)
        }
        (_, kind) if sanitize => sanitize_node(Node::new(kind, source.origin)),
        (_, kind) => Node::new(kind, source.origin),
    }
}

fn sanitized(map: IndexMap<String, Node>) -> IndexMap<String, Node> {
    map.into_iter().filter(|(key, _)| !is_blocked(key)).map(|(key, value)| (key, sanitize_node(value))).collect()
}

fn sanitize_node(node: Node) -> Node {
    match node.kind {
        NodeKind::Object(map) => Node::new(NodeKind::Object(sanitized(map)), node.origin),
        kind => Node::new(kind, node.origin),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use serde_json::json;

    fn merge(a: serde_json::Value, b: serde_json::Value, version: OpenClawVersion) -> serde_json::Value {
        deep_merge(Node::from_value(&a), Node::from_value(&b), version.loader().merge.blocked_keys).to_value()
    }

    #[test]
    fn spec_merge_rules() {
        for version in OpenClawVersion::ALL {
            assert_eq!(
                merge(
                    json!({"deny": ["exec"], "profile": "coding", "x": {"a": 1}}),
                    json!({"deny": ["browser"], "profile": "minimal", "x": null}),
                    version
                ),
                json!({"deny": ["exec", "browser"], "profile": "minimal", "x": null})
            );
            assert_eq!(merge(json!({}), json!([1, 2]), version), json!([1, 2]));
            assert_eq!(
                merge(json!({"a": {"b": 1}, "c": 1}), json!({"d": 1, "a": {"e": 2}}), version),
                json!({"a": {"b": 1, "e": 2}, "c": 1, "d": 1})
            );
        }
    }

    #[test]
    fn key_order_is_targets_then_new_source_keys() {
        let merged = merge(json!({"b": 1, "a": 1}), json!({"c": 1, "b": 2}), OpenClawVersion::V2026_9);
        let keys: Vec<_> = merged.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["b", "a", "c"]);
    }

    #[test]
    fn blocked_keys_are_skipped() {
        let target = json!({"constructor": 1, "a": {"__proto__": 2}});
        let source = json!({"__proto__": {"x": 1}, "prototype": 1, "b": {"constructor": 3}});
        assert_eq!(merge(target.clone(), source.clone(), OpenClawVersion::V2026_9), json!({"a": {}, "b": {}}));
        assert_eq!(
            merge(target, source, OpenClawVersion::V2026_2),
            json!({"constructor": 1, "a": {"__proto__": 2}, "b": {"constructor": 3}})
        );
    }
}
