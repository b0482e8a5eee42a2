//! Key paths into a config tree and the two ways OpenClaw prints them.

use std::fmt;

use serde_json::Value;

use crate::release::loader::ReferencePath;

/// One step of a key path: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathSeg {
    Key(String),
    Index(usize),
}

impl PathSeg {
    pub fn key(key: impl Into<String>) -> Self {
        PathSeg::Key(key.into())
    }

    pub fn as_key(&self) -> Option<&str> {
        match self {
            PathSeg::Key(key) => Some(key),
            PathSeg::Index(_) => None,
        }
    }
}

impl From<&str> for PathSeg {
    fn from(key: &str) -> Self {
        PathSeg::Key(key.to_string())
    }
}

impl From<usize> for PathSeg {
    fn from(index: usize) -> Self {
        PathSeg::Index(index)
    }
}

impl fmt::Display for PathSeg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathSeg::Key(key) => f.write_str(key),
            PathSeg::Index(index) => write!(f, "{index}"),
        }
    }
}

/// Parses a dotted path (`agents.list.0.tools`); all-digit segments become indexes.
pub fn parse_dotted(path: &str) -> Vec<PathSeg> {
    if path.is_empty() {
        return Vec::new();
    }
    path.split('.')
        .map(|seg| match seg.parse::<usize>() {
            Ok(index) if !seg.starts_with('+') => PathSeg::Index(index),
            _ => PathSeg::Key(seg.to_string()),
        })
        .collect()
}

/// Validation issue format: segments joined with `.`, array indexes as bare numbers
/// (`agents.list.0.tools.exec`); the root is the empty string.
pub fn dotted(path: &[PathSeg]) -> String {
    path.iter().map(ToString::to_string).collect::<Vec<_>>().join(".")
}

/// `${VAR}` error/warning format: keys joined with `.`, indexes as `[i]`; with
/// [`ReferencePath::QuotedKeys`], keys that are not identifier-like are quoted (`env["my key"]`) so
/// a literal dot in a key is not mistaken for nesting.
pub fn substitution_path(path: &[PathSeg], style: ReferencePath) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            PathSeg::Index(index) => out.push_str(&format!("[{index}]")),
            PathSeg::Key(key) if style == ReferencePath::QuotedKeys && !is_plain_path_key(key) => {
                out.push('[');
                out.push_str(&serde_json::Value::String(key.clone()).to_string());
                out.push(']');
            }
            PathSeg::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
        }
    }
    out
}

/// `^[A-Za-z_$][A-Za-z0-9_$:-]*$`, the keys printed without quoting.
fn is_plain_path_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | ':' | '-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(segs: &[PathSeg]) -> Vec<PathSeg> {
        segs.to_vec()
    }

    #[test]
    fn dotted_uses_bare_indexes() {
        let path = p(&["agents".into(), "list".into(), 0.into(), "id".into()]);
        assert_eq!(dotted(&path), "agents.list.0.id");
        assert_eq!(dotted(&[]), "");
        assert_eq!(parse_dotted("agents.list.0.id"), path);
    }

    #[test]
    fn substitution_path_styles() {
        let path = p(&["agents".into(), "list".into(), 2.into(), "my key".into()]);
        assert_eq!(substitution_path(&path, ReferencePath::Dotted), "agents.list[2].my key");
        assert_eq!(substitution_path(&path, ReferencePath::QuotedKeys), "agents.list[2][\"my key\"]");
    }
}
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
mod key_path_tests {
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
