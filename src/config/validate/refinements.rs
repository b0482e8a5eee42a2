//! Checks OpenClaw writes by hand (zod refinements); they are in neither release's JSON Schema.

use serde_json::Value;

use super::issue::ValidationIssue;
use crate::OpenClawVersion;

pub fn check(_value: &Value, _version: OpenClawVersion) -> Vec<ValidationIssue> {
    Vec::new()
}
