//! Key paths into a config tree and the two ways OpenClaw prints them.

use std::fmt;

use crate::OpenClawVersion;

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

/// `${VAR}` error/warning format: keys joined with `.`, indexes as `[i]`. 2026.9 quotes keys that
/// are not identifier-like (`env["my key"]`) so a literal dot in a key is not mistaken for nesting.
pub fn substitution_path(path: &[PathSeg], version: OpenClawVersion) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            PathSeg::Index(index) => out.push_str(&format!("[{index}]")),
            PathSeg::Key(key) if version == OpenClawVersion::V2026_9 && !is_plain_path_key(key) => {
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

/// `^[A-Za-z_$][A-Za-z0-9_$:-]*$`, the keys 2026.9 prints without quoting.
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
    fn substitution_path_per_version() {
        let path = p(&["agents".into(), "list".into(), 2.into(), "my key".into()]);
        assert_eq!(substitution_path(&path, OpenClawVersion::V2026_2), "agents.list[2].my key");
        assert_eq!(substitution_path(&path, OpenClawVersion::V2026_9), "agents.list[2][\"my key\"]");
    }
}
