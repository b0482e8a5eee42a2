//! CI report formats shared by the commands: SARIF 2.1.0 (GitHub code scanning), GitHub
//! workflow-command annotations, and JUnit XML. Commands map their results onto the generic
//! [`Problem`] and [`ProblemRule`] here, so every command writes these formats the same way.

pub mod github;
pub mod junit;
pub mod sarif;

use std::path::Path;

/// How loud a problem is, in the vocabulary the CI formats share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Note,
}

/// A position in a file (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// As the user should see it: relative to the working directory when inside it.
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// A rule as CI formats describe it.
#[derive(Debug, Clone)]
pub struct ProblemRule {
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

/// One reported problem.
#[derive(Debug, Clone)]
pub struct Problem {
    pub rule_id: String,
    pub level: Level,
    pub title: String,
    pub message: String,
    pub position: Option<Position>,
    /// Set when the problem was reviewed and accepted: the reason.
    pub suppressed: Option<String>,
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
