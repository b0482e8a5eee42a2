//! Batch mode: one JSON case in the oracle's exec field names → one JSON result with the same
//! layers the oracle reports (`core` = the exported building blocks, `gateway` = the exec tool).

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use crate::OpenClawVersion;
use crate::config::view::exec::safe_bin_profile;
use crate::exec::approvals::document::allowlist_entry;
use crate::exec::decide::requires_approval;
use crate::exec::lookup::ExecEnv;
use crate::exec::posture::{Ask, Security};
use crate::exec::satisfy::allowlist::AllowlistEntry;
use crate::exec::satisfy::safe_bins::SafeBinPolicy;
use crate::exec::segments::{EvalContext, Evaluation};
use crate::exec::{ApprovalsInput, Decision, ExecOutcome, ExecRequest, evaluate, settings};
use crate::release::exec::SafeBinProfile;

fn str_field<'a>(case: &'a Value, key: &str) -> Option<&'a str> {
    case.get(key).and_then(Value::as_str)
}

/// Per-segment satisfaction as OpenClaw reports it: 2026.2 stops at the first unsatisfied segment.
fn satisfied_by(eval_segments: &[crate::exec::Segment], version: OpenClawVersion) -> Value {
    let mut out = Vec::new();
    for s in eval_segments {
        out.push(s.satisfied_by.map_or(Value::Null, |b| Value::String(b.as_str().into())));
        if s.satisfied_by.is_none() && version == OpenClawVersion::V2026_2 {
            break;
        }
    }
    Value::Array(out)
}

fn argvs(eval_segments: &[crate::exec::Segment]) -> Value {
    json!(eval_segments.iter().map(|s| s.argv.clone()).collect::<Vec<_>>())
}

fn case_env(case: &Value) -> (String, Option<String>) {
    let env = case.get("env");
    let path = env
        .and_then(|e| e.get("PATH"))
        .and_then(Value::as_str)
        .map(String::from)
        .unwrap_or_else(|| std::env::var("PATH").unwrap_or_default());
    let home = env
        .and_then(|e| e.get("HOME"))
        .and_then(Value::as_str)
        .map(String::from)
        .or_else(|| std::env::var("HOME").ok());
    (path, home)
}

fn case_cwd(case: &Value) -> PathBuf {
    PathBuf::from(str_field(case, "cwd").unwrap_or("/tmp"))
}

fn allowlist_entries(list: Option<&Value>) -> Vec<AllowlistEntry> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, e)| allowlist_entry(e, format!("allowlist[{i}]")))
        .collect()
}

/// The oracle's `core` layer: the building blocks with the case's raw security/ask, no approvals store.
fn core_layer(case: &Value, command: &str, version: OpenClawVersion) -> Value {
    let security: Security = str_field(case, "security").and_then(|s| s.parse().ok()).unwrap_or(Security::Full);
    let ask: Ask = str_field(case, "ask").and_then(|s| s.parse().ok()).unwrap_or(Ask::Off);
    let bins: Option<Vec<String>> = case
        .get("safeBins")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(String::from).collect());
    let profiles: Vec<(String, SafeBinProfile)> = case
        .get("safeBinProfiles")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, profile)| (name.clone(), safe_bin_profile(profile)))
        .collect();
    let dirs: Vec<String> = case
        .get("safeBinTrustedDirs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(String::from)
        .collect();
    let (path_var, home) = case_env(case);
    let windows = str_field(case, "platform").is_some_and(|p| p.starts_with("win"));
    let ctx = EvalContext {
        allowlist: allowlist_entries(case.get("allowlist")),
        rules: version.exec(),
        safe_bins: SafeBinPolicy::resolve(version.exec(), bins.as_deref(), &profiles, &dirs),
        env: ExecEnv::new(case_cwd(case), path_var, home),
        windows,
        auto_allow_skills: false,
        skill_bins: Vec::new(),
    };
    let eval: Evaluation = match crate::exec::pipeline::analyse(command, &ctx) {
        Ok(e) => e,
        Err(message) => return json!({"decision": "error", "error": message}),
    };
    let allowlist_ok = security == Security::Allowlist && eval.analysis_ok && eval.allowlist_satisfied;
    let requires = requires_approval(ask, security, eval.analysis_ok, allowlist_ok, false);
    let decision = if security == Security::Deny {
        "deny"
    } else if requires {
        "ask"
    } else {
        "allow"
    };
    let mut out = json!({
        "decision": decision,
        "analysisOk": eval.analysis_ok,
        // The oracle reports the evaluation's own value here, not the allowlist-mode-zeroed one.
        "allowlistSatisfied": eval.allowlist_satisfied,
        "segments": argvs(&eval.segments),
        "segmentSatisfiedBy": if eval.analysis_ok { satisfied_by(&eval.segments, version) } else { json!([]) },
        "requiresExecApproval": requires,
    });
    if let Some(f) = eval.plan_failure {
        out["planFailure"] = Value::String(f.reason);
    }
    out
}

/// Builds the gateway request the way the oracle does: the case config plus the top-level exec
/// knobs written into `tools.exec`, the approvals document plus `allowlist` for the session agent.
fn gateway_request(case: &Value, command: &str, version: OpenClawVersion) -> ExecRequest {
    let v9 = version == OpenClawVersion::V2026_9;
    let mut config = case.get("config").cloned().filter(Value::is_object).unwrap_or_else(|| json!({}));
    let root = config.as_object_mut().expect("config is an object");
    let tools = root.entry("tools").or_insert_with(|| json!({}));
    if !tools.is_object() {
        *tools = json!({});
    }
    let exec = tools.as_object_mut().expect("object").entry("exec").or_insert_with(|| json!({}));
    if !exec.is_object() {
        *exec = json!({});
    }
    let exec = exec.as_object_mut().expect("object");
    let mut knobs = vec!["security", "ask", "safeBins", "safeBinProfiles", "safeBinTrustedDirs"];
    if v9 {
        knobs.push("strictInlineEval");
    }
    for k in knobs {
        if let Some(v) = case.get(k) {
            exec.insert(k.to_string(), v.clone());
        }
    }
    if let Some(m) = case.get("execMode").filter(|_| v9) {
        exec.insert("mode".into(), m.clone());
    }
    match case.get("host") {
        Some(Value::Null) if !v9 => {
            exec.remove("host");
        }
        Some(Value::String(h)) => {
            exec.insert("host".into(), Value::String(h.clone()));
        }
        _ => {
            exec.insert("host".into(), Value::String("gateway".into()));
        }
    }
    let agent_id = str_field(case, "agentId")
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(String::from)
        .unwrap_or_else(|| settings::default_agent_id(&config, version));
    let mut approvals = case.get("approvals").cloned().filter(Value::is_object).unwrap_or_else(|| json!({}));
    let doc = approvals.as_object_mut().expect("object");
    doc.entry("version").or_insert(json!(1));
    if let Some(extra) = case.get("allowlist").and_then(Value::as_array).filter(|a| !a.is_empty()) {
        let agents = doc.entry("agents").or_insert_with(|| json!({}));
        if let Some(agents) = agents.as_object_mut() {
            let agent = agents.entry(agent_id.clone()).or_insert_with(|| json!({}));
            if let Some(agent) = agent.as_object_mut() {
                let mut list: Vec<Value> =
                    agent.get("allowlist").and_then(Value::as_array).cloned().unwrap_or_default();
                list.extend(extra.iter().cloned());
                agent.insert("allowlist".into(), Value::Array(list));
            }
        }
    }
    let (path_var, home) = case_env(case);
    let mut request = ExecRequest::new(command, case_cwd(case));
    request.config = config;
    request.agent_id = Some(agent_id);
    request.approvals = ApprovalsInput::Document(approvals);
    request.path_var = Some(path_var);
    request.home = home;
    request.sandboxed = case.get("sandboxed").and_then(Value::as_bool).unwrap_or(false);
    request
}

/// The oracle's `gateway` layer fields for an outcome.
fn gateway_layer(o: &ExecOutcome) -> Value {
    let v9 = o.version == OpenClawVersion::V2026_9;
    let decision = if v9 { o.observed_decision } else { o.decision };
    let mut out = Map::new();
    out.insert("decision".into(), json!(decision.as_str()));
    if let Some(m) = &o.message {
        out.insert(
            if matches!(o.decision, Decision::Deny | Decision::Error) { "error" } else { "note" }.into(),
            json!(m),
        );
    }
    if !o.evaluated && o.host.value == "sandbox" && o.decision == Decision::Allow {
        // The oracle reports the policy the sandbox run would carry.
        out.insert("hostSecurity".into(), json!(o.security.value));
        out.insert("hostAsk".into(), json!(o.ask.value));
    }
    if o.evaluated {
        let f = o.approval_flags;
        let special = f.allowlist_plan || f.heredoc || f.inline_eval || f.audit_suppression || f.obfuscation;
        let mut reasons = Map::new();
        if o.policy_requires_ask && !special {
            reasons.insert("requiresExecApproval".into(), json!(true));
        }
        for (flag, key) in [
            (f.allowlist_plan, "allowlistPlan"),
            (f.heredoc, "heredoc"),
            (f.inline_eval, "inlineEval"),
            (f.audit_suppression, "securityAuditSuppression"),
        ] {
            if flag {
                reasons.insert(key.into(), json!(true));
            }
        }
        if f.obfuscation {
            // 2026.2 reports the detector's descriptions.
            let descriptions: Vec<&str> = o.reasons.iter().filter_map(|r| r.strip_prefix("obfuscation: ")).collect();
            reasons.insert("obfuscation".into(), json!(descriptions));
        }
        out.insert("hostSecurity".into(), json!(o.security.value));
        out.insert("hostAsk".into(), json!(o.ask.value));
        out.insert("askFallback".into(), json!(o.ask_fallback.value));
        out.insert("policyRequiresAsk".into(), json!(o.policy_requires_ask));
        out.insert("reasons".into(), Value::Object(reasons));
        out.insert("analysisOk".into(), json!(o.analysis_ok));
        out.insert("allowlistSatisfied".into(), json!(o.allowlist_satisfied));
        out.insert("segments".into(), argvs(&o.segments));
        out.insert(
            "segmentSatisfiedBy".into(),
            if o.analysis_ok { satisfied_by(&o.segments, o.version) } else { json!([]) },
        );
        if let Some(cmd) = &o.enforced_command {
            out.insert("enforcedCommand".into(), json!(cmd));
        }
    }
    Value::Object(out)
}

/// Evaluates one oracle-style exec case (`openclawVersion` "2026.9" | "2026.2", default 2026.9).
/// Never panics on bad input: problems come back as `{"decision":"error","error":…}`.
pub fn evaluate_batch_case(case: &Value, default_version: OpenClawVersion) -> Value {
    let id = case.get("id").cloned().unwrap_or(Value::Null);
    let error = |version: &str, message: String| json!({"id": id, "openclawVersion": version, "decision": "error", "error": message});
    let version: OpenClawVersion = match str_field(case, "openclawVersion").map_or(Ok(default_version), str::parse) {
        Ok(v) => v,
        Err(e) => return error("?", e),
    };
    let Some(command) = str_field(case, "command") else {
        return error(version.id(), "exec case needs a string `command`".into());
    };
    let core = core_layer(case, command, version);
    if let Some(limit) = core.get("planFailure").and_then(Value::as_str).and_then(crate::exec::limit_error) {
        return error(version.id(), limit.to_string());
    }
    let mut out = json!({"id": id, "openclawVersion": version.id(), "core": core});
    if case.get("gateway") == Some(&Value::Bool(false)) {
        out["decision"] = out["core"]["decision"].clone();
        return out;
    }
    let request = gateway_request(case, command, version);
    match evaluate(&request, version) {
        Err(e) => {
            out["decision"] = json!("error");
            out["error"] = json!(e.to_string());
        }
        Ok(o) => {
            out["gateway"] = gateway_layer(&o);
            out["decision"] = json!(o.decision.as_str());
            out["observedDecision"] = json!(o.observed_decision.as_str());
            out["analysisOk"] = json!(o.analysis_ok);
            out["allowlistSatisfied"] = json!(o.allowlist_satisfied);
            out["segments"] = argvs(&o.segments);
            out["segmentSatisfiedBy"] = satisfied_by(&o.segments, version);
            out["reasons"] = json!(o.reasons);
            out["hostSecurity"] = json!(o.security.value);
            out["hostAsk"] = json!(o.ask.value);
            out["askFallback"] = json!(o.ask_fallback.value);
            out["policyRequiresAsk"] = json!(o.policy_requires_ask);
            if let Some(m) = &o.message {
                out["message"] = json!(m);
            }
            if let Some(f) = &o.plan_failure {
                out["planFailure"] = json!(f.reason);
            }
            if let Some(c) = &o.enforced_command {
                out["enforcedCommand"] = json!(c);
            }
        }
    }
    out
}
