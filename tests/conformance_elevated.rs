//! The elevated gates against the real packages: `fixtures/conformance/elevated-<version>.*`
//! hold each release's own `resolveElevatedPermissions` answers (recorded by
//! `record_elevated.mjs`): whether elevated mode is enabled and allowed for the message, and the
//! failing gates with the release's key labels. Every case must agree.

use std::path::Path;

use clawpolicy::OpenClawVersion;
use clawpolicy::config::loading::{load_case_config, process_options};
use clawpolicy::exec::elevated::{Inbound, Origin, evaluate};
use serde_json::{Value, json};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/conformance");

fn lines(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{DIR}/{name}")).unwrap();
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

fn inbound(ctx: &Value) -> Inbound {
    let field = |name: &str| ctx.get(name).and_then(Value::as_str).map(str::to_string);
    Inbound {
        provider: field("Provider"),
        sender_id: field("SenderId"),
        from: field("From"),
        sender_e164: field("SenderE164"),
        sender_name: field("SenderName"),
        sender_username: field("SenderUsername"),
        sender_tag: field("SenderTag"),
        chat_type: field("ChatType"),
        account_id: field("AccountId"),
    }
}

fn answer(case: &Value, version: OpenClawVersion) -> Value {
    let loaded = match load_case_config(case, &process_options(version), Path::new(DIR)) {
        Ok(loaded) if loaded.issues.is_empty() => loaded,
        _ => return json!({"ok": false}),
    };
    let agent = case["agentId"].as_str().unwrap();
    let gates = evaluate(&loaded.config, version, agent, &Origin::Message(inbound(&case["ctx"])));
    let failures: Vec<Value> = gates.failures.iter().map(|f| json!({"gate": f.gate.as_str(), "key": f.key})).collect();
    json!({"ok": true, "enabled": gates.enabled, "allowed": gates.allowed, "failures": failures})
}

fn check(version: OpenClawVersion) {
    let line = version.line();
    let cases = lines(&format!("elevated-{line}.cases.jsonl"));
    let expected = lines(&format!("elevated-{line}.expected.jsonl"));
    assert_eq!(cases.len(), expected.len());
    assert!(cases.len() >= 300, "{} cases", cases.len());
    let mut disagreements = Vec::new();
    for (case, want) in cases.iter().zip(&expected) {
        assert_eq!(case["id"], want["id"]);
        let mut want = want.clone();
        let want_obj = want.as_object_mut().unwrap();
        want_obj.remove("id");
        if want_obj["ok"] == false {
            want_obj.retain(|k, _| k == "ok");
        }
        let got = answer(case, version);
        if got != want {
            disagreements.push(format!("{}: want {want}, got {got}", case["id"]));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} elevated cases disagree with OpenClaw {}:\n{}",
        disagreements.len(),
        cases.len(),
        version.id(),
        disagreements.join("\n")
    );
}

#[test]
fn elevated_gates_agree_with_2026_9() {
    check(OpenClawVersion::V2026_9);
}

#[test]
fn elevated_gates_agree_with_2026_2() {
    check(OpenClawVersion::V2026_2);
}
