//! The scenario file: a session's tool calls, the hooks in force, and the operator's answers.
//! Checked against `schemas/scenario.schema.json` before it is read.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

const SCHEMA: &str = include_str!("../../schemas/scenario.schema.json");

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    pub name: Option<String>,
    pub openclaw_version: Option<String>,
    pub config: Option<Value>,
    #[serde(default)]
    pub context: ScenarioContext,
    pub approvals: Option<Value>,
    pub cwd: Option<String>,
    pub path: Option<String>,
    pub approval_timeout_ms: Option<u64>,
    #[serde(default)]
    pub hooks: Vec<Hook>,
    pub calls: Vec<Call>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ScenarioContext {
    pub agent: Option<String>,
    pub session: Option<String>,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub channel: Option<String>,
    pub sender: Option<String>,
    pub owner: Option<bool>,
    pub sandbox: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Hook {
    pub name: String,
    pub tools: Option<Vec<String>>,
    #[serde(default)]
    pub when: BTreeMap<String, String>,
    pub block: Option<bool>,
    pub reason: Option<String>,
    pub params: Option<serde_json::Map<String, Value>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Call {
    pub tool: String,
    #[serde(default)]
    pub params: serde_json::Map<String, Value>,
    pub command: Option<String>,
    pub result: Option<Value>,
    pub repeat: Option<u32>,
    pub at_ms: Option<u64>,
    pub approval_id: Option<String>,
    pub answer: Option<Answer>,
    pub expect: Option<Expect>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Answer {
    Simple(String),
    Attempts(Vec<Attempt>),
}

/// One `/approve` the operator sends.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    pub decision: String,
    #[serde(default)]
    pub after_ms: u64,
    pub id: Option<String>,
}

impl Answer {
    /// The resolve attempts; `none` is none at all.
    pub fn attempts(&self) -> Vec<Attempt> {
        match self {
            Answer::Simple(decision) if decision == "none" => Vec::new(),
            Answer::Simple(decision) => vec![Attempt { decision: decision.clone(), after_ms: 0, id: None }],
            Answer::Attempts(attempts) => attempts.clone(),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Expect {
    pub outcome: Option<String>,
    pub stage: Option<String>,
    pub decision: Option<String>,
    pub reason: Option<String>,
}

/// Why a scenario cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("not valid YAML: {0}")]
    Yaml(String),
    /// The first place the schema refuses (`the scenario` for the document itself).
    #[error("{at}: {message}")]
    Schema { at: String, message: String },
    #[error("{0}")]
    Shape(#[from] serde_json::Error),
}

/// Parses YAML (or JSON) text and checks it against the schema; errors name the failing place.
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    let value: Value = crate::base::yaml::from_str(text).map_err(|e| ScenarioError::Yaml(e.to_string()))?;
    // Compiled once per process: a batch of scenarios (or a fuzzer) parses thousands.
    static VALIDATOR: std::sync::LazyLock<jsonschema::Validator> = std::sync::LazyLock::new(|| {
        let schema: Value = serde_json::from_str(SCHEMA).expect("bundled schema is JSON");
        jsonschema::validator_for(&schema).expect("bundled schema compiles")
    });
    if let Some(error) = VALIDATOR.iter_errors(&value).next() {
        let at = error.instance_path().to_string();
        let at = if at.is_empty() { "the scenario".to_string() } else { at };
        return Err(ScenarioError::Schema { at, message: error.to_string() });
    }
    Ok(serde_json::from_value(value)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects_with_the_failing_place() {
        let scenario = parse("calls:\n  - tool: exec\n    command: ls\n    answer: allow-once\n").unwrap();
        assert_eq!(scenario.calls[0].command.as_deref(), Some("ls"));
        let error = parse("calls:\n  - tool: exec\n    answer: maybe\n").unwrap_err();
        assert!(matches!(&error, ScenarioError::Schema { at, .. } if at == "/calls/0/answer"), "{error}");
        assert!(error.to_string().starts_with("/calls/0/answer"), "{error}");
        assert!(parse("calls: [").unwrap_err().to_string().starts_with("not valid YAML"));
        assert!(parse("hooks: []\n").unwrap_err().to_string().contains("calls"));
    }

    #[test]
    fn a_deeply_nested_scenario_is_refused_quickly() {
        let started = std::time::Instant::now();
        let error = parse(&format!("calls: {}", "[".repeat(40_000))).unwrap_err().to_string();
        assert!(error.contains("nested more than 128 deep"), "{error}");
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
    }
}
