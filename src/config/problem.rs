//! The three kinds of config problem, by what the release does about them.

use std::fmt;

use serde::Serialize;

/// What the selected release does with a config problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProblemKind {
    /// The release rewrites it while loading and works; the file should still be rewritten.
    Migrated,
    /// The release refuses to start, and reports a legacy issue that `openclaw doctor --fix` repairs.
    Doctor,
    /// The release refuses the config and nothing repairs it automatically.
    Fatal,
}

impl ProblemKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::Migrated => "migrated",
            ProblemKind::Doctor => "doctor",
            ProblemKind::Fatal => "fatal",
        }
    }

    /// One line for human output: the kind and what it means.
    pub fn explanation(self) -> &'static str {
        match self {
            ProblemKind::Migrated => "migrated: the release rewrites this at load and works; rewrite the file to match",
            ProblemKind::Doctor => "doctor: the release refuses to start; `openclaw doctor --fix` repairs this",
            ProblemKind::Fatal => "fatal: the release refuses this config and nothing repairs it automatically",
        }
    }
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
