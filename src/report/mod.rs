//! Output formats: the one [`Format`] vocabulary of every command, and the CI report formats
//! shared by every command that produces findings (`lint`, `diff`, `test`): SARIF 2.1.0 for code
//! scanning ([`sarif`]), GitHub workflow-command annotations ([`github`]) and JUnit XML ([`junit`]). Commands turn their results into the generic [`Finding`] and
//! [`Rule`] here and pick a writer; nothing here knows about policy.

pub mod format;
pub mod github;
pub mod junit;
pub mod sarif;

use std::path::Path;

use serde::Serialize;

pub use format::Format;

/// How loud a finding is, in the vocabulary SARIF and GitHub share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Note,
    Warning,
    Error,
}

pub use crate::config::Location;

/// One result of an analysis, for any output format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable rule identifier (`diff/tool-gained`, a lint code, …).
    pub rule_id: String,
    pub level: Level,
    /// A short title (GitHub shows it above the message).
    pub title: String,
    pub message: String,
    pub location: Option<Location>,
    /// Set when the finding was reviewed and accepted: the reason.
    pub suppressed: Option<String>,
}

/// A rule findings refer to, described once per report.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub id: String,
    pub name: String,
    pub summary: String,
    /// Full documentation, Markdown.
    pub help_markdown: String,
    pub level: Level,
    /// Security rules carry GitHub's `security-severity` (0–10) so code scanning ranks them.
    pub security_severity: Option<f32>,
    pub tags: Vec<String>,
}

impl Rule {
    /// A rule known only by its id and a one-line description.
    pub fn new(id: &str, summary: &str, level: Level) -> Self {
        Rule {
            id: id.to_string(),
            name: id.to_string(),
            summary: summary.to_string(),
            help_markdown: summary.to_string(),
            level,
            security_severity: None,
            tags: Vec::new(),
        }
    }
}

/// A path as reports show it: relative to the working directory when it is inside it (GitHub
/// annotations and code scanning need repository-relative paths), with `/` separators.
pub fn display_path(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(&cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    relative.to_string_lossy().replace('\\', "/")
}
