//! Regular expressions of the release data, compiled the first time a value is matched against
//! them: once per process, not once per question (a fleet's exec probes ask thousands of times),
//! and not at all by a command that never asks.

use std::sync::OnceLock;

use regex::Regex;
use serde::Deserialize;

/// A list of the release's patterns. A pattern the engine refuses matches nothing (a test checks
/// that every shipped pattern compiles).
#[derive(Debug, Default, Deserialize)]
#[serde(from = "Vec<String>")]
pub struct Patterns {
    patterns: Vec<String>,
    compiled: OnceLock<Vec<Regex>>,
}

impl From<Vec<String>> for Patterns {
    fn from(patterns: Vec<String>) -> Self {
        Patterns { patterns, compiled: OnceLock::new() }
    }
}

impl Patterns {
    /// Whether any of the patterns matches `text`.
    pub fn any_match(&self, text: &str) -> bool {
        let compiled = self.compiled.get_or_init(|| self.patterns.iter().filter_map(|p| Regex::new(p).ok()).collect());
        compiled.iter().any(|regex| regex.is_match(text))
    }

    /// The patterns as the release data writes them.
    pub fn as_written(&self) -> &[String] {
        &self.patterns
    }
}
