//! Suppressions: findings an operator has reviewed and accepted, kept in a side file next to the
//! config (`clawpolicy.suppressions.yaml`). Every suppression must say why; one that matches
//! nothing is reported, so stale entries do not pile up.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Finding, find_rule, no_rule_message};
use crate::base::userfile;
use crate::config::secrets;

/// The side file's name, looked up in the directory of the first config file.
pub const SIDE_FILE: &str = "clawpolicy.suppressions.yaml";

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct SuppressionsFile {
    suppressions: Vec<Suppression>,
}

/// One reviewed exception.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Suppression {
    /// Rule code or name.
    pub rule: String,
    /// Only findings at this key path or below it (`agents.entries.ops`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Only findings about this agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Why this is acceptable. Required.
    pub reason: String,
}

impl Suppression {
    fn matches(&self, finding: &Finding) -> bool {
        let rule_matches = find_rule(&self.rule).is_some_and(|r| r.code == finding.code);
        let path_matches = self.path.as_deref().is_none_or(|prefix| {
            finding.path.as_deref().is_some_and(|path| {
                path == prefix || path.strip_prefix(prefix).is_some_and(|rest| rest.starts_with(['.', '[']))
            })
        });
        let agent_matches = self.agent.as_deref().is_none_or(|agent| finding.agent.as_deref() == Some(agent));
        rule_matches && path_matches && agent_matches
    }
}

/// A finding moved out of the results by a suppression.
#[derive(Debug, Clone, Serialize)]
pub struct SuppressedFinding {
    #[serde(flatten)]
    pub finding: Finding,
    pub reason: String,
}

/// The suppressions in force, and where they came from.
#[derive(Debug, Clone, Default)]
pub struct Suppressions {
    pub file: Option<PathBuf>,
    pub entries: Vec<Suppression>,
}

/// Why a suppressions file cannot be used.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[diagnostic(code(lint::suppressions))]
pub enum SuppressionsError {
    #[error("cannot read {}: {error}", path.display())]
    Read { path: PathBuf, error: userfile::ReadError },
    /// Not a suppressions file (its text is not echoed).
    #[error("{}: {message}", path.display())]
    Parse { path: PathBuf, message: String },
    #[error("{at}: {message} (see `clawpolicy rule --list`)")]
    UnknownRule { at: String, message: String },
    #[error("{at}: a suppression needs a `reason`")]
    NoReason { at: String },
    #[error(
        "{} is a symlink to a file outside the config's folder; a suppressions file found next to the \
         config is not followed out of it (name it with --suppressions to use it)",
        candidate.display()
    )]
    SymlinkOutside { candidate: PathBuf },
}

impl Suppressions {
    /// Reads a suppressions file. Every entry needs a known rule and a non-empty reason. A file
    /// that is not a suppressions file is not echoed (see [`secrets::parse_error_message`]).
    pub fn read(path: &Path) -> Result<Self, SuppressionsError> {
        let text = userfile::read_text(path, userfile::MAX_INPUT_BYTES)
            .map_err(|error| SuppressionsError::Read { path: path.to_path_buf(), error })?;
        Self::parse(path, &text)
    }

    /// Parses the text of the suppressions file `path` (named in messages).
    pub fn parse(path: &Path, text: &str) -> Result<Self, SuppressionsError> {
        let parsed: SuppressionsFile = crate::base::yaml::from_str(text).map_err(|e| SuppressionsError::Parse {
            path: path.to_path_buf(),
            message: secrets::parse_error_message(&e.to_string()),
        })?;
        for (index, entry) in parsed.suppressions.iter().enumerate() {
            let at = format!("{}: suppressions[{index}]", path.display());
            if find_rule(&entry.rule).is_none() {
                return Err(SuppressionsError::UnknownRule { at, message: no_rule_message(&entry.rule) });
            }
            if entry.reason.trim().is_empty() {
                return Err(SuppressionsError::NoReason { at });
            }
        }
        Ok(Suppressions { file: Some(path.to_path_buf()), entries: parsed.suppressions })
    }

    /// The suppressions a lint of `config` applies: `file` when one is named, else the side file
    /// next to the config, else none.
    pub fn for_config(file: Option<&Path>, config: Option<&Path>) -> Result<Self, SuppressionsError> {
        let discovered = match (file, config) {
            (None, Some(config)) => Self::discover(config)?,
            _ => None,
        };
        match file.map(Path::to_path_buf).or(discovered) {
            Some(path) => Self::read(&path),
            None => Ok(Suppressions::default()),
        }
    }

    /// The side file next to `config`, if there is one. It is found, not named, so it is not
    /// followed out of the config's folder: a symlink to a file elsewhere is an error, not read.
    pub fn discover(config: &Path) -> Result<Option<PathBuf>, SuppressionsError> {
        let folder = config.parent().unwrap_or(Path::new("."));
        let candidate = folder.join(SIDE_FILE);
        let is_symlink = std::fs::symlink_metadata(&candidate).is_ok_and(|m| m.file_type().is_symlink());
        if is_symlink {
            let (Ok(target), Ok(folder)) = (std::fs::canonicalize(&candidate), std::fs::canonicalize(folder)) else {
                return Ok(None);
            };
            if !target.starts_with(&folder) {
                return Err(SuppressionsError::SymlinkOutside { candidate });
            }
        }
        Ok(std::fs::metadata(&candidate).is_ok_and(|m| !m.is_dir()).then_some(candidate))
    }

    /// Splits findings into kept and suppressed (the first matching entry gives the reason).
    /// Whether an entry suppresses `finding`.
    pub fn suppresses(&self, finding: &Finding) -> bool {
        self.entries.iter().any(|s| s.matches(finding))
    }

    pub fn apply(&self, findings: Vec<Finding>) -> (Vec<Finding>, Vec<SuppressedFinding>) {
        let mut kept = Vec::new();
        let mut suppressed = Vec::new();
        for finding in findings {
            match self.entries.iter().find(|s| s.matches(&finding)) {
                Some(entry) => suppressed.push(SuppressedFinding { finding, reason: entry.reason.clone() }),
                None => kept.push(finding),
            }
        }
        (kept, suppressed)
    }

    /// Entries that suppressed nothing in `suppressed`: stale, or written for another config.
    pub fn unused<'s>(&'s self, suppressed: &[SuppressedFinding]) -> Vec<&'s Suppression> {
        self.entries.iter().filter(|entry| !suppressed.iter().any(|s| entry.matches(&s.finding))).collect()
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_deeply_nested_side_file_is_refused_without_stalling_lint() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SIDE_FILE);
        std::fs::write(&path, format!("suppressions: {}", "[".repeat(40_000))).unwrap();
        let started = std::time::Instant::now();
        let error = Suppressions::read(&path).unwrap_err().to_string();
        assert!(error.contains("nested more than 128 deep"), "{error}");
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
    }

    #[test]
    fn a_discovered_suppressions_symlink_out_of_the_folder_is_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("credentials"), "aws_secret_access_key = hunter2\n").unwrap();
        let folder = tempfile::tempdir().unwrap();
        let config = folder.path().join("openclaw.json5");
        std::os::unix::fs::symlink(outside.path().join("credentials"), folder.path().join(SIDE_FILE)).unwrap();
        let refused = Suppressions::discover(&config).unwrap_err();
        assert!(matches!(refused, SuppressionsError::SymlinkOutside { .. }), "{refused}");
        let refused = refused.to_string();
        assert!(refused.contains("outside the config's folder") && !refused.contains("hunter2"), "{refused}");
        // Named explicitly it is read, and its content is not echoed when it does not parse.
        let read = Suppressions::read(&outside.path().join("credentials")).unwrap_err().to_string();
        assert!(!read.contains("hunter2"), "{read}");
        // A symlink inside the folder is fine.
        std::fs::remove_file(folder.path().join(SIDE_FILE)).unwrap();
        std::fs::write(folder.path().join("real.yaml"), "suppressions: []\n").unwrap();
        std::os::unix::fs::symlink(folder.path().join("real.yaml"), folder.path().join(SIDE_FILE)).unwrap();
        assert_eq!(Suppressions::discover(&config).unwrap(), Some(folder.path().join(SIDE_FILE)));
    }
}
