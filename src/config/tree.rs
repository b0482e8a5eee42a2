//! A JSON value tree in which every node remembers where it was written.

use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::{Map, Number, Value};

use super::path::PathSeg;
use super::secrets;
use super::source::Origin;

/// One value with its origin. Nodes built from inline JSON (batch cases) have no origin.
#[derive(Debug, Clone)]
pub struct Node {
    pub kind: NodeKind,
    pub origin: Option<Arc<Origin>>,
}

#[derive(Debug, Clone)]
pub enum NodeKind {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Node>),
    /// Insertion-ordered: OpenClaw's key order decides substitution order, "first default wins" etc.
    Object(IndexMap<String, Node>),
}

impl Node {
    pub fn new(kind: NodeKind, origin: Option<Arc<Origin>>) -> Self {
        Node { kind, origin }
    }

    pub fn empty_object() -> Self {
        Node::new(NodeKind::Object(IndexMap::new()), None)
    }

    pub fn as_object(&self) -> Option<&IndexMap<String, Node>> {
        match &self.kind {
            NodeKind::Object(map) => Some(map),
            _ => None,
        }
    }

    pub fn as_object_mut(&mut self) -> Option<&mut IndexMap<String, Node>> {
        match &mut self.kind {
            NodeKind::Object(map) => Some(map),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The member `key` of an object node.
    pub fn member(&self, key: &str) -> Option<&Node> {
        self.as_object()?.get(key)
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_object(&self) -> bool {
        matches!(self.kind, NodeKind::Object(_))
    }

    /// JavaScript `typeof` of the value, as OpenClaw's error texts print it.
    pub fn js_type(&self) -> &'static str {
        match self.kind {
            NodeKind::Null | NodeKind::Array(_) | NodeKind::Object(_) => "object",
            NodeKind::Bool(_) => "boolean",
            NodeKind::Number(_) => "number",
            NodeKind::String(_) => "string",
        }
    }

    /// The node at `path`, if every step exists.
    pub fn get(&self, path: &[PathSeg]) -> Option<&Node> {
        path.iter().try_fold(self, |node, seg| match (&node.kind, seg) {
            (NodeKind::Object(map), PathSeg::Key(key)) => map.get(key),
            (NodeKind::Array(items), PathSeg::Index(index)) => items.get(*index),
            _ => None,
        })
    }

    /// The node at `path`, mutably.
    pub fn get_mut(&mut self, path: &[PathSeg]) -> Option<&mut Node> {
        path.iter().try_fold(self, |node, seg| match (&mut node.kind, seg) {
            (NodeKind::Object(map), PathSeg::Key(key)) => map.get_mut(key),
            (NodeKind::Array(items), PathSeg::Index(index)) => items.get_mut(*index),
            _ => None,
        })
    }

    /// The deepest existing node along `path` (the root when nothing matches).
    pub fn nearest(&self, path: &[PathSeg]) -> &Node {
        let mut node = self;
        for seg in path {
            let next = match (&node.kind, seg) {
                (NodeKind::Object(map), PathSeg::Key(key)) => map.get(key),
                (NodeKind::Array(items), PathSeg::Index(index)) => items.get(*index),
                _ => None,
            };
            match next {
                Some(next) => node = next,
                None => break,
            }
        }
        node
    }

    pub fn to_value(&self) -> Value {
        match &self.kind {
            NodeKind::Null => Value::Null,
            NodeKind::Bool(b) => Value::Bool(*b),
            NodeKind::Number(n) => Value::Number(n.clone()),
            NodeKind::String(s) => Value::String(s.clone()),
            NodeKind::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            NodeKind::Object(map) => {
                Value::Object(map.iter().map(|(k, v)| (k.clone(), v.to_value())).collect::<Map<_, _>>())
            }
        }
    }

    /// A tree without origins, for inline configs.
    pub fn from_value(value: &Value) -> Self {
        let kind = match value {
            Value::Null => NodeKind::Null,
            Value::Bool(b) => NodeKind::Bool(*b),
            Value::Number(n) => NodeKind::Number(n.clone()),
            Value::String(s) => NodeKind::String(s.clone()),
            Value::Array(items) => NodeKind::Array(items.iter().map(Node::from_value).collect()),
            Value::Object(map) => NodeKind::Object(map.iter().map(|(k, v)| (k.clone(), Node::from_value(v))).collect()),
        };
        Node::new(kind, None)
    }

    /// Nesting depth (a scalar is 0).
    pub fn depth(&self) -> usize {
        match &self.kind {
            NodeKind::Array(items) => 1 + items.iter().map(Node::depth).max().unwrap_or(0),
            NodeKind::Object(map) => 1 + map.values().map(Node::depth).max().unwrap_or(0),
            _ => 0,
        }
    }
}

/// The strings under secret paths of a resolved tree (after `${VAR}` substitution, so secrets
/// that came from the environment are included), for [`secrets::mask_text_and_values`].
pub(crate) fn secret_values(root: &Node) -> Vec<String> {
    let mut values = Vec::new();
    let mut stack = vec![(root, secrets::SecretScope::default())];
    while let Some((node, scope)) = stack.pop() {
        match &node.kind {
            NodeKind::String(s) if scope.is_secret() && !secrets::is_env_reference(s) => values.push(s.clone()),
            NodeKind::Array(items) => stack.extend(items.iter().map(|item| (item, scope.clone()))),
            NodeKind::Object(map) => stack.extend(map.iter().map(|(key, value)| (value, scope.key(key)))),
            _ => {}
        }
    }
    values.sort();
    values.dedup();
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_masked_by_the_values_in_force() {
        let root = Node::from_value(&serde_json::json!({
            "gateway": {"auth": {"token": "from-the-environment", "mode": "token"}},
            "env": {"vars": {"X": "abc", "NODE_ENV": "production", "PW": "hunter2"}},
            "tools": {"profile": "coding"},
        }));
        let values = secret_values(&root);
        assert_eq!(values, ["abc", "from-the-environment", "hunter2", "production"]);
        assert_eq!(
            secrets::mask_text_and_values(
                "token from-the-environment, profile coding, abc, production, hunter2",
                &values
            ),
            "token ********************, profile coding, abc, production, *******"
        );
    }

    use serde_json::json;

    #[test]
    fn value_round_trip_and_lookup() {
        let value = json!({"b": 1, "a": {"list": [true, null, "x"]}});
        let node = Node::from_value(&value);
        assert_eq!(node.to_value(), value);
        let path = [PathSeg::key("a"), PathSeg::key("list"), PathSeg::Index(2)];
        assert_eq!(node.get(&path).and_then(Node::as_str), Some("x"));
        let missing = [PathSeg::key("a"), PathSeg::key("nope"), PathSeg::key("deeper")];
        assert!(node.get(&missing).is_none());
        assert!(node.nearest(&missing).as_object().unwrap().contains_key("list"));
        assert_eq!(node.depth(), 3);
    }
}
