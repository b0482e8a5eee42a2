//! Structured config edits: what a lint rule, a load-time migration or `explain` proposes to
//! change, in terms a machine can apply (`clawpolicy fix`, the language server's code actions).
//! An edit names a value either as it is in force (a key path of the resolved config, which
//! `fix` maps to the file and key path where it is written) or as it is written (a file and the
//! key path inside it, for values a migration has already moved in memory).

use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use super::path::{KeyPath, PathSeg};
use super::source::Origin;

/// Whether applying a fix can change what any session may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Safety {
    /// The config in force stays the same (a legacy form written the way the release reads it).
    Safe,
    /// The fix changes access (a typo'd tool name that now matches, a refused config accepted):
    /// applied only with `--unsafe-fixes`.
    Unsafe,
}

/// The value an edit is about.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    /// A key path of the config in force; it may not exist yet (created where its nearest
    /// written ancestor is written).
    InForce(Vec<PathSeg>),
    /// A key path inside one file, as written.
    Written { file: PathBuf, path: Vec<PathSeg> },
}

impl Place {
    /// Where `origin` is written.
    pub fn written(origin: &Origin) -> Place {
        Place::Written { file: origin.file().to_path_buf(), path: origin.key_path() }
    }

    /// Where the member `key` of the object written at `origin` is (or would be) written.
    pub fn member_of(origin: &Origin, key: &str) -> Place {
        let mut path = origin.key_path();
        path.push(PathSeg::key(key));
        Place::Written { file: origin.file().to_path_buf(), path }
    }
}

impl Serialize for Place {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        match self {
            Place::InForce(path) => map.serialize_entry("path", &KeyPath(path.clone()).to_string())?,
            Place::Written { file, path } => {
                map.serialize_entry("file", &file.display().to_string())?;
                map.serialize_entry("path", &KeyPath(path.clone()).to_string())?;
            }
        }
        map.end()
    }
}

/// What to do at a [`Place`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op", content = "value", rename_all = "camelCase")]
pub enum Change {
    /// Write this value there (replacing what is written, or creating the key and the objects
    /// on the way).
    Set(Value),
    /// Rename the key (the value and everything written with it stay).
    RenameKey(String),
    /// Remove the member or list element.
    Remove,
    /// Append to the list there (created when missing).
    Append(Value),
    /// A legacy `agents.list` array written as keyed `agents.entries` (each entry keyed by its
    /// `id`, which it loses), with the workspace the release pins on the first entry.
    ListToEntries { workspace: Option<String> },
}

/// One change at one place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigEdit {
    #[serde(flatten)]
    pub place: Place,
    #[serde(flatten)]
    pub change: Change,
}

impl ConfigEdit {
    pub fn new(place: Place, change: Change) -> Self {
        ConfigEdit { place, change }
    }

    /// An edit of a value in force.
    pub fn in_force(path: &[PathSeg], change: Change) -> Self {
        ConfigEdit { place: Place::InForce(path.to_vec()), change }
    }
}

/// A machine-applicable fix: what it does, whether it changes access, and its edits in order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Autofix {
    pub title: String,
    pub safety: Safety,
    pub edits: Vec<ConfigEdit>,
}

impl Autofix {
    pub fn new(title: impl Into<String>, safety: Safety, edits: Vec<ConfigEdit>) -> Self {
        Autofix { title: title.into(), safety, edits }
    }
}
