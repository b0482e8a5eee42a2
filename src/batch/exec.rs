//! Batch mode: one JSON case in the oracle's exec field names → one JSON result with the same
//! layers the oracle reports (`core` = the exported building blocks, `gateway` = the exec tool).
//!
//! A case is read as a typed `ExecCase`, loosely (a field of the wrong type is absent, as the
//! oracle's JavaScript reads it). The gateway layer comes into exec the one way every command
//! does ([`exec::request()`]): the session is resolved by the tool policy under the case's config
//! (the oracle's session: model `openai/gpt-5.4`, the sender the owner, unless the case says
//! otherwise), and a session without the `exec` tool answers `unavailable` as the oracle does.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value, json};

use super::recent::Recent;
use crate::OpenClawVersion;
use crate::base::parallel::lock;
use crate::config::LoadOptions;
use crate::config::view::exec::ExecKey;
use crate::config::view::exec::safe_bin_profile;
use crate::config::view::keys;
use crate::exec::approvals::allow_always;
use crate::exec::approvals::document::{self, allowlist_entry};
use crate::exec::decide;
use crate::exec::lookup::ExecEnv;
use crate::exec::pipeline::requires_approval;
use crate::exec::posture::{Ask, Security};
use crate::exec::satisfy::allowlist::AllowlistEntry;
use crate::exec::satisfy::safe_bins::SafeBinPolicy;
use crate::exec::segments::{EvalContext, Evaluation, Segment};
use crate::exec::{self, ApprovalsInput, Availability, CallSite, Decision, ExecError, ExecOutcome, WhatIf};
use crate::policy::automation::jobs::CronJob;
use crate::policy::session::SessionError;
use crate::policy::{self, Resolution, RunKind, SandboxChoice, SessionContext};

/// One exec case, in the oracle's field names.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExecCase {
    #[serde(default)]
    id: Value,
    #[serde(default, deserialize_with = "loose")]
    openclaw_version: Option<String>,
    #[serde(default, deserialize_with = "loose")]
    command: Option<String>,
    /// The `tools.exec` settings the oracle writes into the config, as given (`null` included).
    #[serde(default, deserialize_with = "present")]
    security: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    ask: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    safe_bins: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    safe_bin_profiles: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    safe_bin_trusted_dirs: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    strict_inline_eval: Option<Value>,
    /// `tools.exec.mode` (`mode` is the oracle's own field).
    #[serde(default, deserialize_with = "present")]
    exec_mode: Option<Value>,
    /// `tools.exec.host`: absent is `gateway`, `null` leaves the config's.
    #[serde(default, deserialize_with = "present")]
    host: Option<Value>,
    #[serde(default, deserialize_with = "loose")]
    config: Option<Map<String, Value>>,
    #[serde(default, deserialize_with = "loose")]
    agent_id: Option<String>,
    #[serde(default, deserialize_with = "loose")]
    session_key: Option<String>,
    #[serde(default, deserialize_with = "loose")]
    model_provider: Option<String>,
    #[serde(default, deserialize_with = "loose")]
    model_id: Option<String>,
    #[serde(default, deserialize_with = "loose")]
    sender_is_owner: Option<bool>,
    #[serde(default, deserialize_with = "loose")]
    approvals: Option<Map<String, Value>>,
    /// Allowlist entries for the session's agent (added to the approvals document).
    #[serde(default, deserialize_with = "loose")]
    allowlist: Option<Vec<Value>>,
    #[serde(default, deserialize_with = "loose")]
    env: Option<CaseEnv>,
    #[serde(default, deserialize_with = "loose")]
    cwd: Option<String>,
    #[serde(default, deserialize_with = "loose")]
    platform: Option<String>,
    /// clawpolicy's own: the session has a sandbox runtime.
    #[serde(default, deserialize_with = "loose")]
    sandboxed: Option<bool>,
    /// `false`: only the core layer.
    #[serde(default, deserialize_with = "loose")]
    gateway: Option<bool>,
    /// clawpolicy's own: the kind of run (`cron`, `heartbeat`: nobody answers an approval).
    #[serde(default, deserialize_with = "loose")]
    run: Option<RunKind>,
    /// The job a cron run executes, as stored.
    #[serde(default, deserialize_with = "loose")]
    job: Option<CronJob>,
}

/// The case's `env`: what the command's environment has for these.
#[derive(Debug, Default, Deserialize)]
struct CaseEnv {
    #[serde(rename = "PATH", default, deserialize_with = "loose")]
    path: Option<String>,
    #[serde(rename = "HOME", default, deserialize_with = "loose")]
    home: Option<String>,
}

/// A field read as JavaScript reads it: one of another type is absent.
fn loose<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(deserializer: D) -> Result<Option<T>, D::Error> {
    Ok(serde_json::from_value(Value::deserialize(deserializer)?).ok())
}

/// A field as given, `null` included (absent is `None`).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl ExecCase {
    /// Read loosely: a case that is no object has no fields.
    fn of(case: &Value) -> Self {
        ExecCase::deserialize(case).unwrap_or_default()
    }

    fn cwd(&self) -> PathBuf {
        PathBuf::from(self.cwd.as_deref().unwrap_or("/tmp"))
    }

    /// `PATH` and `HOME` of the command: the case's, else this process's.
    fn env(&self) -> (String, Option<String>) {
        let env = self.env.as_ref();
        let path = env.and_then(|e| e.path.clone()).unwrap_or_else(|| std::env::var("PATH").unwrap_or_default());
        let home = env.and_then(|e| e.home.clone()).or_else(|| std::env::var("HOME").ok());
        (path, home)
    }

    fn text(value: &Option<Value>) -> Option<&str> {
        value.as_ref().and_then(Value::as_str)
    }

    fn strings(value: &Option<Value>) -> Option<Vec<String>> {
        let items = value.as_ref()?.as_array()?;
        Some(items.iter().filter_map(Value::as_str).map(String::from).collect())
    }

    fn allowlist_entries(&self) -> Vec<AllowlistEntry> {
        let entries = self.allowlist.iter().flatten().enumerate();
        entries.filter_map(|(i, e)| allowlist_entry(e, format!("allowlist[{i}]"))).collect()
    }
}

/// Per-segment satisfaction as OpenClaw reports it: a release that stops at the first
/// unsatisfied segment reports none after it.
fn satisfied_by(segments: &[Segment], version: OpenClawVersion) -> Value {
    let stops = decide::of(version.exec()).stops_at_first_miss();
    let mut out = Vec::new();
    for s in segments {
        out.push(s.satisfied_by.map_or(Value::Null, |b| Value::String(b.as_str().into())));
        if s.satisfied_by.is_none() && stops {
            break;
        }
    }
    Value::Array(out)
}

fn argvs(segments: &[Segment]) -> Value {
    json!(segments.iter().map(|s| s.argv.clone()).collect::<Vec<_>>())
}

/// The oracle's `core` layer: the building blocks with the case's raw security/ask, no approvals
/// store; `Err` when the command is past the simulator's own limits.
fn core_layer(case: &ExecCase, command: &str, version: OpenClawVersion) -> Result<Value, ExecError> {
    let security: Security = ExecCase::text(&case.security).and_then(|s| s.parse().ok()).unwrap_or(Security::Full);
    let ask: Ask = ExecCase::text(&case.ask).and_then(|s| s.parse().ok()).unwrap_or(Ask::Off);
    let bins = ExecCase::strings(&case.safe_bins);
    let profiles = case.safe_bin_profiles.as_ref().and_then(Value::as_object).into_iter().flatten();
    let profiles: Vec<_> = profiles.map(|(name, profile)| (name.clone(), safe_bin_profile(profile))).collect();
    let dirs = ExecCase::strings(&case.safe_bin_trusted_dirs).unwrap_or_default();
    let (path_var, home) = case.env();
    let rules = version.exec();
    let ctx = EvalContext {
        rules,
        allowlist: case.allowlist_entries(),
        safe_bins: SafeBinPolicy::resolve(rules, bins.as_deref(), &profiles, &dirs),
        env: ExecEnv::new(case.cwd(), path_var, home),
        windows: case.platform.as_deref().is_some_and(|p| p.starts_with("win")),
        auto_allow_skills: false,
        skill_bins: Vec::new(),
    };
    let eval: Evaluation = match decide::analyse(command, &ctx) {
        Ok(e) => e,
        Err(message) => return Ok(json!({"decision": "error", "error": message})),
    };
    if let Some(limit) = eval.plan_failure.as_ref().and_then(|f| crate::exec::limit_error(&f.reason)) {
        return Err(limit);
    }
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
    let call = allow_always::CallFacts {
        analysis_ok: eval.analysis_ok,
        segments: &eval.segments,
        command,
        ctx: &ctx,
        strict_inline_eval: case.strict_inline_eval == Some(Value::Bool(true)),
        security,
    };
    out["allowAlways"] = json!(allow_always::persistence(version, &call));
    if let Some(f) = eval.plan_failure {
        out["planFailure"] = Value::String(f.reason);
    }
    Ok(out)
}

/// The config the oracle's gateway runs with: the case config plus the top-level exec settings
/// written into `tools.exec`, the host pinned to `gateway` unless the case says otherwise
/// (`null`: the release's default host).
fn gateway_config(case: &ExecCase) -> Value {
    let mut config = case.config.clone().unwrap_or_default();
    let tools = config.entry(keys::TOOLS).or_insert_with(|| json!({}));
    if !tools.is_object() {
        *tools = json!({});
    }
    let exec = tools.as_object_mut().expect("an object").entry(keys::EXEC).or_insert_with(|| json!({}));
    if !exec.is_object() {
        *exec = json!({});
    }
    let exec = exec.as_object_mut().expect("an object");
    let settings = [
        (ExecKey::Security, &case.security),
        (ExecKey::Ask, &case.ask),
        (ExecKey::SafeBins, &case.safe_bins),
        (ExecKey::SafeBinProfiles, &case.safe_bin_profiles),
        (ExecKey::SafeBinTrustedDirs, &case.safe_bin_trusted_dirs),
        (ExecKey::StrictInlineEval, &case.strict_inline_eval),
        (ExecKey::Mode, &case.exec_mode),
    ];
    for (key, value) in settings {
        if let Some(value) = value {
            exec.insert(key.key().to_string(), value.clone());
        }
    }
    let host = ExecKey::Host.key();
    match &case.host {
        Some(Value::Null) => {
            exec.remove(host);
        }
        Some(Value::String(given)) => {
            exec.insert(host.to_string(), json!(given));
        }
        _ => {
            exec.insert(host.to_string(), json!("gateway"));
        }
    }
    Value::Object(config)
}

/// The session the oracle's gateway builds the tools for.
fn session_context(case: &ExecCase) -> SessionContext {
    SessionContext {
        agent_id: case.agent_id.as_deref().map(str::trim).filter(|a| !a.is_empty()).map(String::from),
        session_key: case.session_key.clone(),
        model_provider: Some(case.model_provider.clone().unwrap_or_else(|| "openai".into())),
        model_id: Some(case.model_id.clone().unwrap_or_else(|| "gpt-5.4".into())),
        sender_is_owner: Some(case.sender_is_owner.unwrap_or(true)),
        sandbox: if case.sandboxed == Some(true) { SandboxChoice::On } else { SandboxChoice::Off },
        run: case.run.unwrap_or_default(),
        job: case.job.clone(),
        ..SessionContext::default()
    }
}

/// The oracle's `gateway` layer fields for an outcome.
fn gateway_layer(o: &ExecOutcome) -> Value {
    let mut out = Map::new();
    out.insert("decision".into(), json!(o.observed_decision.as_str()));
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

/// [`evaluate_batch_case`] for a case that may name its config file, as `tools --batch` cases do:
/// without an inline `config`, `configPath` (relative to `base_dir`, the batch file's folder) is
/// loaded as `--config` loads it, with `opts` (the environment) and the case's release. A config
/// the release refuses answers `error`, with what the release says about it, as the oracle does.
/// `sessions` keeps the sessions of earlier cases of the batch.
pub fn evaluate_batch_case_in(
    case: &Value,
    opts: &LoadOptions,
    base_dir: &Path,
    availability: Availability,
    sessions: &RecentSessions,
) -> Value {
    let named = case.get("configPath").filter(|_| case.get("config").is_none());
    let version = case.get("openclawVersion").and_then(Value::as_str).map_or(Ok(opts.version), str::parse);
    let (Some(_), Ok(version)) = (named, version) else {
        return evaluate_case(case, opts.version, availability, sessions);
    };
    let opts = LoadOptions { version, ..opts.clone() };
    let mut case = case.clone();
    match crate::config::loading::load_case_config(&case, &opts, base_dir) {
        Ok(loaded) if loaded.issues.is_empty() => case["config"] = loaded.config,
        Ok(loaded) => {
            return json!({"id": case["id"], "openclawVersion": version.id(), "decision": "error",
                "error": "config invalid", "config": loaded.report});
        }
        Err(e) => {
            let message = e["message"].as_str().unwrap_or("config error").to_string();
            return json!({"id": case["id"], "openclawVersion": version.id(), "decision": "error", "error": message});
        }
    }
    evaluate_case(&case, version, availability, sessions)
}

/// The sessions of the last few cases, by what resolving one reads (the release, the config and
/// the session context): an exec batch's cases mostly differ in their command and share a few
/// sessions, and resolving one was a fifth of answering a case.
#[derive(Default)]
pub struct RecentSessions(Mutex<Recent<String, Arc<Resolution>>>);

impl RecentSessions {
    /// Longer keys (large inline configs) are not kept.
    const MAX_KEY: usize = 64 * 1024;

    fn resolve(
        &self,
        version: OpenClawVersion,
        config: &Value,
        ctx: &SessionContext,
    ) -> Result<Arc<Resolution>, SessionError> {
        // The key is the context as serialized: one that does not serialize whole is never kept.
        let key = ctx.serializes_whole().then(|| serde_json::to_string(&(version.id(), config, ctx)).ok()).flatten();
        let key = key.filter(|key| key.len() <= Self::MAX_KEY);
        if let Some(session) = key.as_ref().and_then(|key| lock(&self.0).get(key)) {
            return Ok(session);
        }
        let session = Arc::new(policy::resolve(version, config, ctx)?);
        if let Some(key) = key {
            lock(&self.0).insert(key, session.clone());
        }
        Ok(session)
    }
}

/// Evaluates one oracle-style exec case (`openclawVersion` "2026.9" | "2026.2", else
/// `default_version`); `availability` says whether a session without the `exec` tool answers
/// `unavailable`. Never panics on bad input: problems come back as
/// `{"decision":"error","error":…}`.
pub fn evaluate_batch_case(case: &Value, default_version: OpenClawVersion, availability: Availability) -> Value {
    evaluate_case(case, default_version, availability, &RecentSessions::default())
}

/// [`evaluate_batch_case`] for one case of a batch, reusing the sessions of earlier cases.
pub fn evaluate_case(
    case: &Value,
    default_version: OpenClawVersion,
    availability: Availability,
    sessions: &RecentSessions,
) -> Value {
    let case = ExecCase::of(case);
    let id = case.id.clone();
    let error = |version: &str, message: String| json!({"id": id, "openclawVersion": version, "decision": "error", "error": message});
    let version: OpenClawVersion = match case.openclaw_version.as_deref().map_or(Ok(default_version), str::parse) {
        Ok(v) => v,
        Err(e) => return error("?", e),
    };
    let Some(command) = case.command.as_deref() else {
        return error(version.id(), "exec case needs a string `command`".into());
    };
    let core = match core_layer(&case, command, version) {
        Ok(core) => core,
        Err(limit) => return error(version.id(), limit.to_string()),
    };
    let mut out = json!({"id": id, "openclawVersion": version.id(), "core": core});
    if case.gateway == Some(false) {
        out["decision"] = out["core"]["decision"].clone();
        return out;
    }
    let config = gateway_config(&case);
    let session = match sessions.resolve(version, &config, &session_context(&case)) {
        Ok(session) => session,
        Err(e) => return error(version.id(), e.to_string()),
    };
    let (path_var, home) = case.env();
    let approvals_agent =
        case.agent_id.as_deref().map(str::trim).filter(|a| !a.is_empty()).unwrap_or(&session.agent_id);
    let site = CallSite {
        path_var: Some(path_var),
        home,
        approvals: ApprovalsInput::Document(document::with_allowlist(
            case.approvals.clone().unwrap_or_default(),
            approvals_agent,
            case.allowlist.as_deref().unwrap_or_default(),
        )),
        ..CallSite::new(case.cwd())
    };
    let request = match exec::request(&config, &session, command, WhatIf::default(), &site, availability) {
        Ok(request) => request,
        Err(unavailable) => {
            out["gateway"] =
                json!({"decision": "unavailable", "note": "the exec tool is not in this session's tool surface"});
            out["decision"] = json!("unavailable");
            out["unavailable"] = json!(unavailable);
            return out;
        }
    };
    match exec::evaluate(&request, version) {
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
            if let Some(no_approver) = &o.no_approver {
                out["noApprover"] = json!(no_approver);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(case: Value) -> Value {
        evaluate_batch_case(&case, OpenClawVersion::V2026_9, Availability::Required)
    }

    /// The oracles (2026.9.6, 2026.2.25) answer `ask`: the case names no agent, so the session
    /// belongs to the roster's default agent, whose exec settings apply. The exec simulator used
    /// to take `main` for a one-agent 2026.9 roster and answer `allow`.
    #[test]
    fn a_case_without_an_agent_runs_as_the_rosters_default_agent() {
        let settings = json!({"tools": {"exec": {"security": "allowlist", "ask": "on-miss"}}});
        let current = json!({"command": "ls", "env": {"PATH": "/usr/bin:/bin"},
            "config": {"agents": {"entries": {"work": settings}}}});
        assert_eq!(answer(current)["decision"], "ask");
        let seed = json!({"command": "ls", "env": {"PATH": "/usr/bin:/bin"}, "openclawVersion": "2026.2",
            "config": {"agents": {"list": [{"id": "work", "tools": settings["tools"]}, {"id": "ops"}]}}});
        assert_eq!(answer(seed)["decision"], "ask");
        let several = json!({"command": "ls", "config": {"agents": {"entries": {"a": {}, "b": {}}}}});
        let refused = answer(several);
        assert_eq!(refused["decision"], "error");
        assert!(refused["error"].as_str().unwrap().starts_with("Multiple agents are configured"), "{refused}");
    }

    /// Both oracles answer `unavailable` when the tool policy removes exec.
    #[test]
    fn a_case_naming_its_config_file_is_answered_with_that_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("strict.json5"), "// comment\n{tools: {exec: {security: 'deny'}}}\n").unwrap();
        std::fs::write(dir.path().join("refused.json5"), "{tools: {exec: {security: 'sometimes'}}}\n").unwrap();
        let opts = crate::config::loading::process_options(OpenClawVersion::V2026_9);
        let sessions = RecentSessions::default();
        let answer = |case: Value| evaluate_batch_case_in(&case, &opts, dir.path(), Availability::Required, &sessions);
        let named = answer(json!({"id": "a", "command": "ls", "configPath": "strict.json5"}));
        assert_eq!(
            (named["decision"].as_str(), named["hostSecurity"].as_str()),
            (Some("deny"), Some("deny")),
            "{named}"
        );
        let inline_wins = answer(json!({"command": "ls", "configPath": "strict.json5", "config": {}}));
        assert_eq!(inline_wins["hostSecurity"], "full", "{inline_wins}");
        let refused = answer(json!({"id": "b", "command": "ls", "configPath": "refused.json5"}));
        assert_eq!((refused["decision"].as_str(), refused["error"].as_str()), (Some("error"), Some("config invalid")));
        assert_eq!(refused["config"]["valid"], false, "{refused}");
        let missing = answer(json!({"command": "ls", "configPath": "nope.json5"}));
        assert_eq!(missing["decision"], "error", "{missing}");
    }

    #[test]
    fn a_session_without_the_exec_tool_is_unavailable() {
        let case = json!({"command": "ls", "config": {"tools": {"deny": ["exec"]}}});
        for version in ["2026.9", "2026.2"] {
            let mut case = case.clone();
            case["openclawVersion"] = json!(version);
            let out = answer(case.clone());
            assert_eq!((&out["decision"], &out["gateway"]["decision"]), (&json!("unavailable"), &json!("unavailable")));
            assert_eq!(out["unavailable"]["removedBy"]["auditLabel"], "tools.deny", "{out}");
            let assumed = evaluate_batch_case(&case, OpenClawVersion::V2026_9, Availability::Assumed);
            let mut without_deny = case.clone();
            without_deny["config"] = json!({});
            assert_eq!(assumed["gateway"], answer(without_deny)["gateway"], "assumed: as if the tool were there");
        }
    }

    #[test]
    fn fields_of_another_type_are_absent() {
        let out = answer(json!({"id": 7, "command": "ls", "cwd": 5, "env": "x", "agentId": [], "gateway": "no",
            "security": 3, "approvals": []}));
        assert_eq!((&out["id"], &out["decision"]), (&json!(7), &json!("allow")));
        assert_eq!(answer(json!(42))["error"], "exec case needs a string `command`");
    }
}
