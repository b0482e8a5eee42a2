//! What differs between two resolved sessions, tool by tool: on each side, whether the tool is
//! present or which step removed it by which rule, and where that rule is written. Used by
//! `diff` (the same session under two configs) and `matrix --why` (two sessions of one config).

use serde::Serialize;

use crate::config::Location;
use crate::config::path::KeyPath;
use crate::policy::explain::{self, StepVerdict};
use crate::policy::matcher::Verdict;
use crate::policy::{Removal, RemovalRule, Resolution};

/// Finds where a config key is written.
pub type Locate<'a> = &'a (dyn Fn(&KeyPath) -> Option<Location> + Sync);

/// One side of a comparison: a resolved session, or why there is none.
pub struct Side<'a> {
    pub resolution: Result<&'a Resolution, String>,
    pub locate: Locate<'a>,
}

/// How one side treats a tool.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum ToolState {
    /// The tool survives; `step` is the step that removes it on the other side, with what it
    /// decided here.
    #[serde(rename_all = "camelCase")]
    Present {
        #[serde(skip_serializing_if = "Option::is_none")]
        step: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        verdict: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        entry: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        location: Option<Location>,
    },
    #[serde(rename_all = "camelCase")]
    Removed {
        step: String,
        rule: RemovalRule,
        #[serde(skip_serializing_if = "Option::is_none")]
        pattern: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        via: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        source: Option<String>,
        /// The config key of `source`, when it is written in config.
        #[serde(skip)]
        source_path: Option<KeyPath>,
        #[serde(skip_serializing_if = "Option::is_none")]
        location: Option<Location>,
    },
    NotConstructed {
        reason: String,
    },
    NoSession {
        reason: String,
    },
}

impl ToolState {
    /// One line for people.
    pub fn describe(&self) -> String {
        let at = |location: &Option<Location>| location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
        match self {
            ToolState::Present { step: None, .. } => "present".into(),
            ToolState::Present { step: Some(step), verdict, entry, location } => {
                let how = match (verdict.as_deref(), entry) {
                    (_, Some(entry)) => format!("allowed by \"{entry}\""),
                    (Some(verdict), None) => verdict.to_string(),
                    (None, None) => "is not in force here".into(),
                };
                format!("present: {step} {how}{}", at(location))
            }
            ToolState::Removed { step, rule, pattern, via, source, location, .. } => {
                let why = match (rule, pattern, via) {
                    (RemovalRule::Deny, Some(p), Some(via)) if via != p => format!("deny \"{p}\" (via {via})"),
                    (RemovalRule::Deny, Some(p), _) => format!("deny \"{p}\""),
                    (RemovalRule::Filter, _, _) => "filtered".into(),
                    _ => "not in allowlist".into(),
                };
                let written = match (location, source) {
                    (Some(l), Some(s)) => format!(" ({s} at {l})"),
                    (None, Some(s)) => format!(" ({s})"),
                    _ => String::new(),
                };
                format!("removed by {step}: {why}{written}")
            }
            ToolState::NotConstructed { reason } => format!("not built: {reason}"),
            ToolState::NoSession { reason } => format!("no session: {reason}"),
        }
    }

    /// Where the deciding rule is written, if it is in a config file.
    pub fn location(&self) -> Option<&Location> {
        match self {
            ToolState::Present { location, .. } | ToolState::Removed { location, .. } => location.as_ref(),
            _ => None,
        }
    }

    fn removal_step(&self) -> Option<&str> {
        match self {
            ToolState::Removed { step, .. } => Some(step),
            _ => None,
        }
    }
}

/// A tool present on one side and missing on the other.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolChange {
    pub tool: String,
    /// True when the tool is present after and missing before (it became reachable).
    pub gained: bool,
    pub before: ToolState,
    pub after: ToolState,
}

/// Every tool in one session and not in the other, sorted by name.
pub fn tool_changes(before: &Side<'_>, after: &Side<'_>) -> Vec<ToolChange> {
    let tools = |side: &Side<'_>| side.resolution.as_ref().map(|r| r.tools.clone()).unwrap_or_default();
    let (before_tools, after_tools) = (tools(before), tools(after));
    let mut changes = Vec::new();
    for tool in after_tools.iter().filter(|t| !before_tools.contains(t)) {
        let was = missing_state(before, tool);
        let now = present_state(after, tool, was.removal_step());
        changes.push(ToolChange { tool: tool.clone(), gained: true, before: was, after: now });
    }
    for tool in before_tools.iter().filter(|t| !after_tools.contains(t)) {
        let now = missing_state(after, tool);
        let was = present_state(before, tool, now.removal_step());
        changes.push(ToolChange { tool: tool.clone(), gained: false, before: was, after: now });
    }
    changes.sort_by(|a, b| a.tool.cmp(&b.tool));
    changes
}

fn missing_state(side: &Side<'_>, tool: &str) -> ToolState {
    let resolution = match &side.resolution {
        Ok(resolution) => resolution,
        Err(reason) => return ToolState::NoSession { reason: reason.clone() },
    };
    if let Some(removal) = resolution.removed.get(tool) {
        return removed_state(removal, side.locate);
    }
    let reason = resolution.not_constructed.get(tool).map(|why| why.to_string());
    ToolState::NotConstructed { reason: reason.unwrap_or_else(|| "not a candidate in this session".into()) }
}

fn removed_state(removal: &Removal, locate: Locate<'_>) -> ToolState {
    ToolState::Removed {
        step: removal.step.to_string(),
        rule: removal.rule,
        pattern: removal.pattern.clone(),
        via: removal.via.clone(),
        source: removal.source.as_ref().map(ToString::to_string),
        source_path: removal.source.as_ref().and_then(|s| s.config_path()).cloned(),
        location: removal.source.as_ref().and_then(|s| s.config_path()).and_then(locate),
    }
}

/// The tool is present on this side; say what `step` (which removes it on the other side)
/// decided here. Without such a step (the other side never built the tool), name the first
/// step whose allowlist entry lets it through.
fn present_state(side: &Side<'_>, tool: &str, step: Option<&str>) -> ToolState {
    let records = side.resolution.as_ref().map(|r| r.steps.as_slice()).unwrap_or_default();
    // A profile step is labelled by its profile (`tools.profile (coding)`): the other side's
    // profile step is the one to compare with, whatever profile it names.
    let family = |label: &str| label.split(" (").next().unwrap_or(label).to_string();
    let record = match step {
        Some(label) => records
            .iter()
            .find(|r| r.step.label == label)
            .or_else(|| records.iter().find(|r| family(&r.step.label) == family(label))),
        None => records.iter().find(|r| {
            explain::step_verdict(r, tool).is_some_and(|v| v.source.as_ref().is_some_and(|s| s.config_path().is_some()))
        }),
    };
    let step = record.map(|r| r.step.label.as_str()).or(step);
    let verdict = record.and_then(|r| explain::step_verdict(r, tool));
    let (entry, location) = match &verdict {
        Some(StepVerdict { entry, source, .. }) => {
            (entry.clone(), source.as_ref().and_then(|s| s.config_path()).and_then(side.locate))
        }
        None => (None, None),
    };
    let location = location.or_else(|| record.and_then(|r| r.step.scope.as_ref()).and_then(side.locate));
    ToolState::Present {
        step: step.map(str::to_string),
        verdict: verdict.map(|v| verdict_text(&v.verdict).to_string()),
        entry,
        location,
    }
}

fn verdict_text(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::AllowedNoAllowlist => "has no allowlist and no matching deny",
        Verdict::Allowed { .. } => "allows it",
        Verdict::AllowedViaPiggyback { .. } => "allows it through its piggyback tool",
        Verdict::Denied { .. } => "denies it",
        Verdict::NotInAllowlist => "does not list it",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use crate::policy::{self, SessionContext};
    use serde_json::json;

    fn resolve(config: serde_json::Value) -> Resolution {
        let ctx = SessionContext { sender_is_owner: Some(true), ..Default::default() };
        policy::resolve(OpenClawVersion::V2026_9, &config, &ctx).unwrap()
    }

    #[test]
    fn a_lifted_deny_shows_both_sides() {
        let before = resolve(json!({"tools": {"deny": ["exec", "browser"]}}));
        let after = resolve(json!({"tools": {"deny": ["browser"], "allow": ["*"]}}));
        let locate = |path: &KeyPath| Some(Location { file: format!("<{path}>"), line: 1, column: 1 });
        let changes = tool_changes(
            &Side { resolution: Ok(&before), locate: &locate },
            &Side { resolution: Ok(&after), locate: &locate },
        );
        assert_eq!(changes.len(), 1, "{changes:?}");
        let change = &changes[0];
        assert_eq!(change.tool, "exec");
        assert!(change.gained);
        assert_eq!(
            change.before.describe(),
            "removed by tools.allow: deny \"exec\" (tools.deny[0] at <tools.deny[0]>:1:1)"
        );
        assert_eq!(change.after.describe(), "present: tools.allow allowed by \"*\" at <tools.allow[0]>:1:1");
        let reverse = tool_changes(
            &Side { resolution: Ok(&after), locate: &locate },
            &Side { resolution: Err("agent removed".into()), locate: &locate },
        );
        assert!(reverse.iter().all(|c| !c.gained && matches!(c.after, ToolState::NoSession { .. })));
    }
}
