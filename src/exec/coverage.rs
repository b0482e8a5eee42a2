//! Which later calls an "allow always" answer to this prompt would let through: the entries the
//! release stores ([`approvals::allow_always`]) are added to the agent's approvals, and the same
//! command, the command with another argument and the command from another working directory are
//! decided again by the same pipeline.

use serde::Serialize;
use serde_json::Value;

use super::approvals::allow_always::{Persistence, stored_entries};
use super::approvals::{self, ApprovalsInput, document};
use super::{Ask, Decision, ExecOutcome, ExecRequest, evaluate};
use crate::OpenClawVersion;

/// The answer "allow always" would give.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AllowAlwaysCoverage {
    /// The prompt offers "allow always" at all (2026.9 does not under `ask: always`).
    pub offered: bool,
    pub stores: Persistence,
    /// The entries as they would be written to the agent's allowlist.
    pub entries: Vec<Value>,
    pub later: Vec<LaterCall>,
}

/// One later call, decided with the stored entries.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LaterCall {
    pub command: String,
    pub cwd: String,
    pub decision: Decision,
    /// It runs without a prompt now.
    pub covered: bool,
}

/// For a call that asks: what "allow always" would store and which later calls it covers.
pub fn allow_always_coverage(
    request: &ExecRequest<'_>,
    outcome: &ExecOutcome,
    version: OpenClawVersion,
) -> Option<AllowAlwaysCoverage> {
    if outcome.decision != Decision::Ask {
        return None;
    }
    let stores = outcome.allow_always.clone()?;
    let offered = outcome.ask.value != Ask::Always || version.policy().tool_calls.ask_always_offers_allow_always;
    let entries = if offered { stored_entries(&stores, &request.command) } else { Vec::new() };
    let mut later = Vec::new();
    if !entries.is_empty() {
        let loaded = approvals::load(&request.site.approvals, version).document;
        let updated =
            document::with_allowlist(loaded.as_object().cloned().unwrap_or_default(), &request.agent_id, &entries);
        let cwd = request.site.cwd.to_string_lossy().into_owned();
        let elsewhere = if cwd == "/" { "/tmp".to_string() } else { "/".to_string() };
        let variants = [
            (request.command.clone(), cwd.clone()),
            (format!("{} --version", request.command.trim_end()), cwd),
            (request.command.clone(), elsewhere),
        ];
        for (command, cwd) in variants {
            let mut next = request.clone();
            next.command = command.clone();
            next.site.cwd = cwd.clone().into();
            next.site.approvals = ApprovalsInput::Document(updated.clone());
            let Ok(decided) = evaluate(&next, version) else { continue };
            later.push(LaterCall {
                command,
                cwd,
                decision: decided.decision,
                covered: decided.decision == Decision::Allow,
            });
        }
    }
    Some(AllowAlwaysCoverage { offered, stores, entries, later })
}
