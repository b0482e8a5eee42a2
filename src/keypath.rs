//! Key paths into a config document (`agents.entries.work.tools.deny[2]`).

use std::fmt;

use serde_json::Value;

pub use crate::config::path::PathSeg;

/// A path from the config root to a value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyPath(pub Vec<PathSeg>);

impl KeyPath {
    pub fn root() -> Self {
        KeyPath(Vec::new())
    }

    /// Builds a path of object keys: `KeyPath::keys(&["tools", "deny"])`.
    pub fn keys(keys: &[&str]) -> Self {
        KeyPath(keys.iter().map(|k| PathSeg::Key((*k).to_string())).collect())
    }

    pub fn key(&self, key: &str) -> Self {
        let mut next = self.clone();
        next.0.push(PathSeg::Key(key.to_string()));
        next
    }

    pub fn index(&self, index: usize) -> Self {
        let mut next = self.clone();
        next.0.push(PathSeg::Index(index));
        next
    }

    pub fn segments(&self) -> &[PathSeg] {
        &self.0
    }

    /// Parses the displayed form back (`tools.byProvider["openai/gpt-5"].deny[1]`); `None` when
    /// the text is not a key path.
    pub fn parse(text: &str) -> Option<KeyPath> {
        let mut segments = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            if let Some(inner) = rest.strip_prefix("[\"") {
                let close = closing_quote(inner)?;
                segments.push(PathSeg::Key(serde_json::from_str(&rest[1..close + 3]).ok()?));
                rest = inner[close + 1..].strip_prefix(']')?;
            } else if let Some(inner) = rest.strip_prefix('[') {
                let end = inner.find(']')?;
                segments.push(PathSeg::Index(inner[..end].parse().ok()?));
                rest = &inner[end + 1..];
            } else {
                let key = if segments.is_empty() { rest } else { rest.strip_prefix('.')? };
                let end = key.find(['.', '[']).unwrap_or(key.len());
                if end == 0 {
                    return None;
                }
                segments.push(PathSeg::Key(key[..end].to_string()));
                rest = &key[end..];
            }
        }
        Some(KeyPath(segments))
    }

    /// The value at this path, if every segment exists.
    pub fn lookup<'a>(&self, root: &'a Value) -> Option<&'a Value> {
        self.0.iter().try_fold(root, |value, seg| match seg {
            PathSeg::Key(k) => value.as_object()?.get(k),
            PathSeg::Index(i) => value.as_array()?.get(*i),
        })
    }
}

impl fmt::Display for KeyPath {
    /// Dotted keys; keys that are not plain identifiers are bracket-quoted, indexes bracketed:
    /// `tools.byProvider["openai/gpt-5"].deny[0]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("<root>");
        }
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                PathSeg::Key(k) if is_plain_key(k) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(k)?;
                }
                PathSeg::Key(k) => write!(f, "[{}]", serde_json::to_string(k).unwrap_or_default())?,
                PathSeg::Index(idx) => write!(f, "[{idx}]")?,
            }
        }
        Ok(())
    }
}

impl serde::Serialize for KeyPath {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The byte offset of the `"` that closes a JSON string whose opening quote precedes `text`.
fn closing_quote(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(i),
            _ => {}
        }
    }
    None
}

fn is_plain_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn displays_and_looks_up() {
        let path = KeyPath::keys(&["tools", "byProvider"]).key("openai/gpt-5").key("deny").index(1);
        assert_eq!(path.to_string(), r#"tools.byProvider["openai/gpt-5"].deny[1]"#);
        let doc = json!({"tools": {"byProvider": {"openai/gpt-5": {"deny": ["a", "b"]}}}});
        assert_eq!(path.lookup(&doc), Some(&json!("b")));
        assert_eq!(KeyPath::keys(&["tools", "nope"]).lookup(&doc), None);
        assert_eq!(KeyPath::root().to_string(), "<root>");
    }

    #[test]
    fn parses_what_it_displays() {
        let path = KeyPath::keys(&["tools", "byProvider"]).key("openai/gpt-5").key("a\"]b").index(12).key("x");
        assert_eq!(KeyPath::parse(&path.to_string()), Some(path));
        assert_eq!(
            KeyPath::parse("agents.list[1].tools"),
            Some(KeyPath::keys(&["agents", "list"]).index(1).key("tools"))
        );
        for bad in ["a..b", "a[x]", ".a", "a[\"b\"", "a["] {
            assert_eq!(KeyPath::parse(bad), None, "{bad}");
        }
    }
}
