//! Machine reports for CI systems, shared by every command that produces findings: SARIF 2.1.0
//! for code scanning ([`sarif`]), GitHub workflow-command annotations ([`github`]) and JUnit XML
//! ([`junit`]). Commands turn their results into the generic [`Finding`] (or JUnit cases) and
//! pick a writer; nothing here knows about policy.

pub mod github;
pub mod junit;
pub mod sarif;

use serde::Serialize;

/// How serious a finding is, in the vocabulary SARIF and GitHub share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Note,
    Warning,
    Error,
}

/// A place in a file (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl Location {
    /// Parses `file:line:col`, the form config origins print as.
    pub fn parse(text: &str) -> Option<Location> {
        let mut parts = text.rsplitn(3, ':');
        let column = parts.next()?.parse().ok()?;
        let line = parts.next()?.parse().ok()?;
        let file = parts.next().filter(|f| !f.is_empty())?;
        Some(Location { file: file.to_string(), line, column })
    }
}

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
}

/// A rule that findings may refer to, described once per report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub id: &'static str,
    pub description: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_parse_from_the_right() {
        let at = Location::parse("C:/configs/a.json5:12:7").unwrap();
        assert_eq!((at.file.as_str(), at.line, at.column), ("C:/configs/a.json5", 12, 7));
        assert!(Location::parse("a.json5:x:1").is_none());
        assert!(Location::parse(":1:2").is_none());
    }
}
