//! Property tests for the exec simulator's invariants.

use clawpolicy::OpenClawVersion;
use clawpolicy::batch::exec::evaluate_batch_case;
use clawpolicy::exec::{Ask, Decision, ExecRequest, Security, evaluate};
use proptest::prelude::*;

/// Shell-ish text: words, quotes, operators and the constructs the analysers treat specially.
fn shellish() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        Just("ls".to_string()),
        Just("head -n 5".to_string()),
        Just("sh -c '".to_string()),
        Just("'".to_string()),
        Just("\"".to_string()),
        Just(" | ".to_string()),
        Just(" && ".to_string()),
        Just(";".to_string()),
        Just("$(".to_string()),
        Just(")".to_string()),
        Just("<<EOF\n".to_string()),
        Just("\\\n".to_string()),
        Just("sudo ".to_string()),
        Just("env A=1 ".to_string()),
        Just("*".to_string()),
        Just("~".to_string()),
        Just("{".to_string()),
        "[a-z/.$-]{0,6}".prop_map(|s| s),
        any::<char>().prop_map(|c| c.to_string()),
    ];
    prop::collection::vec(atom, 0..12).prop_map(|v| v.concat())
}

fn request(command: &str, security: Security, ask: Ask) -> ExecRequest<'static> {
    let mut r = ExecRequest::new(command, "/tmp");
    r.site.path_var = Some("/usr/bin:/bin".into());
    r.what_if.security = Some(security);
    r.what_if.ask = Some(ask);
    r.what_if.host = Some("gateway".into());
    r.what_if.allow = vec!["*".into(), "/usr/bin/*".into()];
    r
}

fn version() -> impl Strategy<Value = OpenClawVersion> {
    prop_oneof![Just(OpenClawVersion::V2026_9), Just(OpenClawVersion::V2026_2)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn security_deny_never_allows(cmd in shellish(), v in version()) {
        if let Ok(o) = evaluate(&request(&cmd, Security::Deny, Ask::Off), v) {
            prop_assert_eq!(o.decision, Decision::Deny);
        }
    }

    #[test]
    fn ask_always_never_allows(cmd in shellish(), v in version(), full in any::<bool>()) {
        let security = if full { Security::Full } else { Security::Allowlist };
        if let Ok(o) = evaluate(&request(&cmd, security, Ask::Always), v) {
            prop_assert_ne!(o.decision, Decision::Allow);
        }
    }

    #[test]
    fn analysis_never_panics_on_arbitrary_text(cmd in any::<String>(), v in version()) {
        let _ = evaluate(&request(&cmd, Security::Allowlist, Ask::OnMiss), v);
    }

    #[test]
    fn batch_never_panics_on_arbitrary_json(cmd in shellish(), extra in "[ -~]{0,40}") {
        let case = serde_json::json!({"command": cmd, "security": extra, "ask": extra, "allowlist": [extra.clone(), {"pattern": extra}], "safeBins": [extra], "openclawVersion": "2026.2"});
        let out = evaluate_batch_case(&case, clawpolicy::OpenClawVersion::V2026_9, clawpolicy::exec::Availability::Required);
        prop_assert!(out.get("decision").is_some());
    }

    #[test]
    fn a_miss_is_never_allowed_in_allowlist_mode(cmd in shellish(), v in version()) {
        let mut r = request(&cmd, Security::Allowlist, Ask::OnMiss);
        r.what_if.allow.clear();
        if let Ok(o) = evaluate(&r, v).map(|o| (o.decision, o.allowlist_satisfied || o.durable_approval)) {
            prop_assert!(o.0 != Decision::Allow || o.1);
        }
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let v = OpenClawVersion::V2026_9;
    assert!(evaluate(&request("", Security::Full, Ask::Off), v).is_err());
    assert!(evaluate(&request("ls\0x", Security::Full, Ask::Off), v).is_err());
    assert!(
        evaluate(&request(&"a".repeat(clawpolicy::exec::MAX_COMMAND_BYTES + 1), Security::Full, Ask::Off), v).is_err()
    );
    assert!(clawpolicy::exec::command_from_bytes(&[0xff, 0xfe]).is_err());
    // Over OpenClaw's own analysis limit but under ours: analysis fails, the command asks.
    let big = format!("echo {}", "a".repeat(140_000));
    let o = evaluate(&request(&big, Security::Allowlist, Ask::OnMiss), v).unwrap();
    assert_eq!(o.decision, Decision::Ask);
    assert_eq!(o.plan_failure.unwrap().reason, "Shell command is too large to explain");
    let o = evaluate(&request("echo 'unterminated", Security::Allowlist, Ask::OnMiss), v).unwrap();
    assert!(!o.analysis_ok);
}
