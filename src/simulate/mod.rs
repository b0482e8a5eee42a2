//! Plays a session: each tool call goes through tool policy (the resolver), loop detection,
//! before-tool-call hooks and, for `exec`, the exec decision and the approval lifecycle, in the
//! order both releases run them. Allow-always answers are persisted into the approvals document
//! the way the release stores them, so later calls see them.

pub mod approvals;
pub mod loops;
pub mod scenario;

use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::OpenClawVersion;
use crate::exec::approvals::allow_always::{self, Persistence};
use crate::exec::{self, ApprovalsInput, Ask, Availability, CallSite, Decision, ExecRequest, Security};
use crate::policy::{self, Resolution, SessionContext};
use crate::release::pack::HookBlockRule;
use loops::{LoopHit, LoopSettings, LoopState};
use scenario::{Call, Expect, Hook, Scenario};

/// Everything a run needs besides the scenario's calls.
pub struct Setup {
    pub version: OpenClawVersion,
    pub config: Value,
    pub ctx: SessionContext,
    pub cwd: PathBuf,
    pub path_var: Option<String>,
}

/// One stage a call went through.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stage {
    pub stage: &'static str,
    pub result: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<Value>,
}

/// The approval part of an exec call.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalTrace {
    pub request: approvals::Request,
    /// Each `/approve` attempt and what the manager answered.
    pub attempts: Vec<Value>,
    /// The recorded decision; `None` when the request expired with no decision.
    pub decision: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ask_fallback: Option<Security>,
    /// What allow-always stored (allowlist entries), or why nothing was stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub persisted: Option<Value>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallTrace {
    pub index: usize,
    pub tool: String,
    pub at_ms: u64,
    pub params: Value,
    pub stages: Vec<Stage>,
    /// `ran`, `blocked`, `denied` or `error`.
    pub outcome: &'static str,
    /// The stage that decided the outcome.
    pub decided_by: &'static str,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval: Option<ApprovalTrace>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// clawpolicy's own remarks on the scenario (an answer given to a call that asked for none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Expectation mismatches (`field: expected …, got …`); empty when met or none given.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mismatches: Vec<String>,
    pub checked: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub openclaw_version: OpenClawVersion,
    pub agent_id: String,
    pub session_key: String,
    pub loop_detection: LoopSettings,
    pub calls: Vec<CallTrace>,
    pub expectations: usize,
    pub failed: usize,
}

/// What the before-tool-call hooks decided together.
struct HookOutcome {
    stage: Stage,
    block_reason: Option<String>,
    rewrite: Option<Map<String, Value>>,
}

/// Hook results merged per release: 2026.9 stops at the first block and keeps it; 2026.2 runs
/// every handler and the last one that says anything about blocking wins.
fn run_hooks(
    version: OpenClawVersion,
    hooks: &[Hook],
    tool: &str,
    params: &Map<String, Value>,
) -> Result<HookOutcome, String> {
    let mut ran = Vec::new();
    let (mut block, mut reason, mut rewrite): (Option<bool>, Option<String>, Option<Map<String, Value>>) =
        (None, None, None);
    for hook in hooks {
        if hook.tools.as_ref().is_some_and(|tools| !tools.iter().any(|t| t == tool)) {
            continue;
        }
        let mut applies = true;
        for (param, pattern) in &hook.when {
            let re = regex::Regex::new(pattern)
                .map_err(|e| format!("hook `{}`: bad `when` regex for {param}: {e}", hook.name))?;
            applies &= params.get(param).and_then(Value::as_str).is_some_and(|v| re.is_match(v));
        }
        if !applies {
            continue;
        }
        ran.push(hook.name.clone());
        if hook.params.is_some() {
            rewrite = hook.params.clone();
        }
        if hook.reason.is_some() {
            reason = hook.reason.clone();
        }
        match version.policy().tool_calls.hook_block {
            HookBlockRule::FirstBlockStops => {
                if hook.block == Some(true) {
                    block = Some(true);
                    break;
                }
            }
            HookBlockRule::LastWordWins => {
                if hook.block.is_some() {
                    block = hook.block;
                }
            }
        }
    }
    let blocked = block == Some(true);
    let result = if ran.is_empty() {
        "none"
    } else if blocked {
        "blocked"
    } else if rewrite.is_some() {
        "rewritten"
    } else {
        "pass"
    };
    let stage = Stage { stage: "hooks", result: result.into(), detail: (!ran.is_empty()).then(|| json!({"ran": ran})) };
    let block_reason = blocked.then(|| reason.unwrap_or_else(|| "Tool call blocked by plugin hook".into()));
    Ok(HookOutcome { stage, block_reason, rewrite })
}

/// The running session.
struct Session<'a> {
    setup: &'a Setup,
    scenario: &'a Scenario,
    resolution: Resolution,
    loop_settings: LoopSettings,
    loop_state: LoopState,
    manager: approvals::Manager,
    approvals: Value,
    timeout_ms: u64,
}

impl Session<'_> {
    /// The exec call for `command`, the one way every command makes it; `Err` when the session
    /// has no exec tool (the tool-policy stage stops such a call first).
    fn exec_request(&self, command: &str) -> Result<ExecRequest<'_>, exec::Unavailable> {
        let site = CallSite {
            path_var: self.setup.path_var.clone(),
            approvals: ApprovalsInput::Document(self.approvals.clone()),
            ..CallSite::new(self.setup.cwd.clone())
        };
        exec::request(
            &self.setup.config,
            &self.resolution,
            command,
            exec::WhatIf::default(),
            &site,
            Availability::Required,
        )
    }

    fn persist(&mut self, entries: &[Value]) {
        let agent = self.resolution.agent_id.clone();
        let document = self.approvals.as_object_mut().expect("approvals document is an object");
        document.entry("version").or_insert(json!(1));
        let agents = document.entry("agents").or_insert_with(|| json!({}));
        if !agents.is_object() {
            *agents = json!({});
        }
        let slot = agents.as_object_mut().expect("object").entry(agent).or_insert_with(|| json!({}));
        let list = slot.as_object_mut().map(|o| o.entry("allowlist").or_insert_with(|| json!([])));
        if let Some(Value::Array(list)) = list {
            list.extend(entries.iter().cloned());
        }
    }

    /// The exec stage: decision, then the approval request and its answer.
    fn exec(&mut self, call: &Call, params: &Map<String, Value>, now: u64, trace: &mut CallTrace) -> u64 {
        let Some(command) = params.get("command").and_then(Value::as_str) else {
            (trace.outcome, trace.decided_by, trace.reason) =
                ("error", "exec", "exec needs a `command` parameter".into());
            return now;
        };
        let evaluated = match self.exec_request(command) {
            Ok(request) => exec::evaluate(&request, self.setup.version).map_err(|e| e.to_string()),
            Err(_) => Err("the session has no exec tool".to_string()),
        };
        let outcome = match evaluated {
            Ok(outcome) => outcome,
            Err(reason) => {
                (trace.outcome, trace.decided_by, trace.reason) = ("error", "exec", reason);
                return now;
            }
        };
        trace.decision = Some(outcome.decision);
        trace.warnings.extend(outcome.warnings.iter().cloned());
        let detail = json!({"security": outcome.security.value, "ask": outcome.ask.value, "askFallback": outcome.ask_fallback.value, "reasons": outcome.reasons, "allowlistSatisfied": outcome.allowlist_satisfied});
        trace.stages.push(Stage {
            stage: "exec-approval",
            result: outcome.decision.as_str().into(),
            detail: Some(detail),
        });
        let message = || outcome.message.clone().unwrap_or_default();
        if outcome.decision != Decision::Ask && call.answer.is_some() {
            trace.notes.push(format!(
                "the answer is not used: OpenClaw asks for no approval here (exec decision {})",
                outcome.decision.as_str()
            ));
        }
        match outcome.decision {
            Decision::Allow => {
                (trace.outcome, trace.decided_by, trace.reason) =
                    ("ran", "exec-approval", "allowed without approval".into());
                return now;
            }
            Decision::Deny => {
                (trace.outcome, trace.decided_by, trace.reason) = ("denied", "exec-approval", message());
                return now;
            }
            Decision::Error => {
                (trace.outcome, trace.decided_by, trace.reason) = ("error", "exec-approval", message());
                return now;
            }
            Decision::Ask => {}
        }
        let offers_allow_always = self.setup.version.policy().tool_calls.ask_always_offers_allow_always;
        let allowed = if outcome.ask.value == Ask::Always && !offers_allow_always {
            vec!["allow-once", "deny"]
        } else {
            approvals::DECISIONS.to_vec()
        };
        let request = match self.manager.register(call.approval_id.as_deref(), now, self.timeout_ms, allowed) {
            Ok(request) => request,
            Err(e) => {
                (trace.outcome, trace.decided_by, trace.reason) =
                    ("denied", "exec-approval", format!("approval-request-failed: {e}"));
                return now;
            }
        };
        let mut attempts = call.answer.as_ref().map(|a| a.attempts()).unwrap_or_default();
        attempts.sort_by_key(|a| a.after_ms);
        let mut answered = Vec::new();
        let mut end = request.expires_at_ms;
        for attempt in &attempts {
            let at = now + attempt.after_ms;
            let id = attempt.id.clone().unwrap_or_else(|| request.id.clone());
            let result = self.manager.resolve(&id, &attempt.decision, at);
            if result.is_ok() && at < end {
                end = end.min(at);
            }
            answered.push(match result {
                Ok(decision) => json!({"decision": attempt.decision, "atMs": at, "ok": true, "recorded": decision}),
                Err(error) => json!({"decision": attempt.decision, "atMs": at, "ok": false, "error": error}),
            });
        }
        let decision = self.manager.decision(&request.id);
        let mut approval = ApprovalTrace {
            request,
            attempts: answered,
            decision: decision.clone(),
            ask_fallback: None,
            persisted: None,
        };
        trace.decided_by = "exec-approval";
        match decision.as_deref() {
            Some("allow-once") => (trace.outcome, trace.reason) = ("ran", "approved once".into()),
            Some("allow-always") => {
                (trace.outcome, trace.reason) = ("ran", "approved, allow-always".into());
                approval.persisted = Some(match &outcome.allow_always {
                    Some(persistence @ Persistence::Patterns { .. }) => {
                        let entries = allow_always::stored_entries(persistence, command);
                        self.persist(&entries);
                        json!({"allowlist": entries})
                    }
                    Some(Persistence::OneShot { reasons }) => {
                        json!({"nothing": format!("one-shot ({}): the approval counts for this run only", reasons.join(", "))})
                    }
                    None => json!({"nothing": "one-shot: the command was not analysed"}),
                });
            }
            Some(_) => (trace.outcome, trace.reason) = ("denied", "user-denied".into()),
            None => {
                let fallback = outcome.ask_fallback.value;
                approval.ask_fallback = Some(fallback);
                let human_only = outcome.approval_flags.inline_eval || outcome.approval_flags.obfuscation;
                (trace.outcome, trace.reason) = match fallback {
                    _ if human_only => ("denied", "approval-timeout".to_string()),
                    Security::Full => ("ran", "approval-timeout: askFallback=full runs it".to_string()),
                    Security::Allowlist if outcome.allowlist_satisfied => {
                        ("ran", "approval-timeout: askFallback=allowlist and the allowlist is satisfied".to_string())
                    }
                    Security::Allowlist => ("denied", "approval-timeout: allowlist-miss".to_string()),
                    Security::Deny => ("denied", "approval-timeout".to_string()),
                };
            }
        }
        trace.approval = Some(approval);
        end
    }

    fn play(&mut self, index: usize, call: &Call, now: u64) -> (CallTrace, u64) {
        let tool = call.tool.trim().to_lowercase();
        let mut params = call.params.clone();
        if let Some(command) = &call.command {
            params.insert("command".into(), command.clone().into());
        }
        let mut trace = CallTrace {
            index,
            tool: tool.clone(),
            at_ms: now,
            params: Value::Object(params.clone()),
            stages: Vec::new(),
            outcome: "ran",
            decided_by: "done",
            reason: String::new(),
            decision: None,
            approval: None,
            warnings: Vec::new(),
            notes: Vec::new(),
            mismatches: Vec::new(),
            checked: false,
        };
        if let Some((rule, reason)) = self.resolution.absence(&tool) {
            let result = if rule == "tool-policy" { "removed" } else { rule };
            trace.stages.push(Stage { stage: "tool-policy", result: result.into(), detail: None });
            (trace.outcome, trace.decided_by, trace.reason) = ("blocked", "tool-policy", reason);
            return (trace, now);
        }
        trace.stages.push(Stage { stage: "tool-policy", result: "present".into(), detail: None });
        let original = Value::Object(params.clone());
        let hit = self.loop_state.detect(&self.loop_settings, &tool, &original);
        let loop_result = hit.as_ref().map_or("ok", |h: &LoopHit| h.level);
        trace.stages.push(Stage {
            stage: "loop-detection",
            result: loop_result.into(),
            detail: hit.as_ref().map(|h| json!(h)),
        });
        if let Some(hit) = &hit {
            if hit.level == "critical" {
                (trace.outcome, trace.decided_by, trace.reason) = ("blocked", "loop-detection", hit.message.clone());
                return (trace, now);
            }
            trace.warnings.push(hit.message.clone());
        }
        let hooks = run_hooks(self.setup.version, &self.scenario.hooks, &tool, &params);
        let HookOutcome { stage, block_reason, rewrite } = match hooks {
            Ok(result) => result,
            Err(message) => {
                (trace.outcome, trace.decided_by, trace.reason) = ("error", "hooks", message);
                return (trace, now);
            }
        };
        trace.stages.push(stage);
        if let Some(reason) = block_reason {
            self.loop_state.record(&self.loop_settings, &tool, &original, None);
            (trace.outcome, trace.decided_by, trace.reason) = ("blocked", "hooks", reason);
            return (trace, now);
        }
        if let Some(rewrite) = rewrite {
            params.extend(rewrite);
            trace.params = Value::Object(params.clone());
        }
        let end = if tool == "exec" {
            self.exec(call, &params, now, &mut trace)
        } else {
            trace.reason = "no exec approval for this tool".into();
            now
        };
        let result = (trace.outcome == "ran").then_some(call.result.as_ref()).flatten();
        self.loop_state.record(&self.loop_settings, &tool, &original, result);
        (trace, end)
    }
}

fn check(expect: &Expect, trace: &mut CallTrace) {
    let mut compare = |field: &str, expected: &Option<String>, got: &str| {
        if let Some(expected) = expected
            && expected != got
        {
            trace.mismatches.push(format!("{field}: expected {expected}, got {got}"));
        }
    };
    compare("outcome", &expect.outcome, trace.outcome);
    compare("stage", &expect.stage, trace.decided_by);
    let decision = trace.decision.map_or("none", Decision::as_str);
    compare("decision", &expect.decision, decision);
    if let Some(fragment) = &expect.reason
        && !trace.reason.contains(fragment.as_str())
    {
        trace.mismatches.push(format!("reason: expected to contain {fragment:?}, got {:?}", trace.reason));
    }
    trace.checked = true;
}

/// Plays the scenario. `Err` is a session that cannot be resolved at all (unknown agent…).
pub fn run(setup: &Setup, scenario: &Scenario) -> Result<Report, policy::session::SessionError> {
    let resolution = policy::resolve(setup.version, &setup.config, &setup.ctx)?;
    let agent_session = policy::session::Session::resolve(&setup.config, &setup.ctx, setup.version)?;
    let loop_settings = LoopSettings::resolve(setup.version, &setup.config, agent_session.agent_tools.as_ref());
    let approvals = match &scenario.approvals {
        Some(document @ Value::Object(_)) => document.clone(),
        _ => json!({"version": 1, "agents": {}}),
    };
    let mut session = Session {
        setup,
        scenario,
        resolution,
        loop_settings,
        loop_state: LoopState::default(),
        manager: approvals::Manager::default(),
        approvals,
        timeout_ms: scenario.approval_timeout_ms.unwrap_or(setup.version.policy().tool_calls.approval_timeout_ms),
    };
    let mut calls = Vec::new();
    let mut clock = 0u64;
    for call in &scenario.calls {
        let repeat = call.repeat.unwrap_or(1);
        for round in 0..repeat {
            let now = match call.at_ms {
                Some(at) if round == 0 => at.max(clock),
                _ if calls.is_empty() => 0,
                _ => clock + 1000,
            };
            let (mut trace, end) = session.play(calls.len(), call, now);
            clock = end.max(now);
            if round + 1 == repeat
                && let Some(expect) = &call.expect
            {
                check(expect, &mut trace);
            }
            calls.push(trace);
        }
    }
    let expectations = calls.iter().filter(|c| c.checked).count();
    let failed = calls.iter().filter(|c| !c.mismatches.is_empty()).count();
    Ok(Report {
        name: scenario.name.clone(),
        openclaw_version: setup.version,
        agent_id: session.resolution.agent_id.clone(),
        session_key: session.resolution.session_key.clone(),
        loop_detection: session.loop_settings,
        calls,
        expectations,
        failed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(version: OpenClawVersion, config: Value, yaml: &str) -> Report {
        let scenario = scenario::parse(yaml).unwrap();
        let setup = Setup {
            version,
            config,
            ctx: SessionContext::default(),
            cwd: PathBuf::from("/tmp"),
            path_var: Some("/usr/bin:/bin".into()),
        };
        run(&setup, &scenario).unwrap()
    }

    fn outcomes(report: &Report) -> Vec<(&'static str, &'static str)> {
        report.calls.iter().map(|c| (c.outcome, c.decided_by)).collect()
    }

    const ASKING: &str = r#"{"tools": {"exec": {"security": "allowlist", "ask": "on-miss", "host": "gateway"}}}"#;

    #[test]
    fn allow_always_is_remembered_as_the_release_stores_it() {
        let config: Value = serde_json::from_str(ASKING).unwrap();
        let yaml = "calls:\n  - {tool: exec, command: 'ls -la', answer: allow-always}\n  - {tool: exec, command: 'ls -la'}\n  - {tool: exec, command: 'ls /', answer: none}\n";
        let report = play(OpenClawVersion::V2026_9, config.clone(), yaml);
        assert_eq!(
            outcomes(&report),
            vec![("ran", "exec-approval"), ("ran", "exec-approval"), ("denied", "exec-approval")]
        );
        assert_eq!(report.calls[1].decision, Some(Decision::Allow), "same argv and cwd: durable approval");
        assert_eq!(report.calls[2].reason, "approval-timeout");
        let legacy = play(OpenClawVersion::V2026_2, config, yaml);
        assert_eq!(legacy.calls[2].decision, Some(Decision::Allow), "2026.2 stores the executable path, any arguments");
    }

    #[test]
    fn an_answer_to_a_call_that_asked_for_no_approval_is_noted_as_unused() {
        let config = serde_json::json!({"tools": {"exec": {"security": "allowlist", "ask": "off", "host": "gateway"}}});
        let yaml =
            "calls:\n  - {tool: exec, command: 'git status', answer: allow-always}\n  - {tool: exec, command: 'ls'}\n";
        let report = play(OpenClawVersion::V2026_9, config, yaml);
        assert_eq!(outcomes(&report), vec![("denied", "exec-approval"), ("denied", "exec-approval")]);
        assert_eq!(
            report.calls[0].notes,
            ["the answer is not used: OpenClaw asks for no approval here (exec decision deny)"]
        );
        assert!(report.calls[1].notes.is_empty(), "no answer given, nothing to note");
    }

    #[test]
    fn policy_loops_and_hooks_in_order() {
        let config = serde_json::json!({"tools": {"deny": ["write"], "loopDetection": {"enabled": true}}});
        let yaml = r#"
hooks:
  - {name: guard, tools: [read], when: {path: secret}, block: true, reason: no secrets}
  - {name: rewrite, tools: [read], params: {limit: 10}}
calls:
  - {tool: write, params: {path: a}}
  - {tool: read, params: {path: secret.txt}}
  - {tool: read, params: {path: notes.txt}}
  - {tool: read, params: {path: loop}, result: same, repeat: 20}
  - {tool: read, params: {path: loop}, result: same, expect: {outcome: blocked, stage: loop-detection}}
"#;
        let report = play(OpenClawVersion::V2026_9, config, yaml);
        assert_eq!(report.calls[0].decided_by, "tool-policy");
        assert_eq!((report.calls[1].outcome, report.calls[1].reason.as_str()), ("blocked", "no secrets"));
        assert_eq!(report.calls[2].params["limit"], 10);
        assert_eq!(report.calls[2].params["path"], "notes.txt");
        assert_eq!(report.failed, 0, "{:?}", report.calls.last().unwrap().mismatches);
        assert!(report.calls[13].warnings.iter().any(|w| w.starts_with("WARNING")));
    }

    #[test]
    fn hook_merging_differs_per_release() {
        let yaml = "hooks:\n  - {name: a, block: true, reason: first}\n  - {name: b, block: false}\ncalls:\n  - {tool: read, params: {path: x}}\n";
        assert_eq!(play(OpenClawVersion::V2026_9, json!({}), yaml).calls[0].outcome, "blocked");
        assert_eq!(
            play(OpenClawVersion::V2026_2, json!({}), yaml).calls[0].outcome,
            "ran",
            "a later block:false unblocks"
        );
    }

    #[test]
    fn timeouts_fall_back_and_expectations_fail() {
        let config = json!({"tools": {"exec": {"security": "allowlist", "ask": "always", "host": "gateway"}}});
        let yaml = "approvals: {version: 1, defaults: {askFallback: full}}\ncalls:\n  - {tool: exec, command: 'ls', answer: [{decision: allow-always}, {decision: deny, afterMs: 10}], expect: {outcome: ran}}\n";
        let report = play(OpenClawVersion::V2026_9, config, yaml);
        let approval = report.calls[0].approval.as_ref().unwrap();
        assert_eq!(approval.attempts[0]["error"], "allow-always is unavailable for this command");
        assert_eq!(approval.decision.as_deref(), Some("deny"));
        assert_eq!(report.failed, 1);
    }
}
