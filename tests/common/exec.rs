//! Shared by the `exec` conformance tests: compares clawpolicy's answer to an exec case with the
//! one the real OpenClaw release gave, field by field.

use serde_json::Value;

const LAYER_FIELDS: &[&str] = &["decision", "analysisOk", "allowlistSatisfied", "segments", "segmentSatisfiedBy"];
const GATEWAY_ONLY_FIELDS: &[&str] =
    &["hostSecurity", "hostAsk", "askFallback", "policyRequiresAsk", "reasons", "enforcedCommand"];

/// Compared: the top-level decision (the oracle's gateway decision), and for both oracle layers
/// `decision`, `analysisOk`, `allowlistSatisfied`, segment argv and per-segment satisfaction; for
/// the gateway layer also `hostSecurity`, `hostAsk`, `askFallback`, `policyRequiresAsk`, `reasons`
/// and `enforcedCommand`. Returns the differing field paths with both values.
pub fn compare(expected: &Value, actual: &Value) -> Vec<(String, String)> {
    let mut diffs = Vec::new();
    let mut check = |path: String, want: &Value, got: &Value| {
        if want != got {
            diffs.push((path, format!("oracle {want} / clawpolicy {got}")));
        }
    };
    // The oracle's top-level decision is its gateway layer's (or core's when that did not run).
    let ours_top =
        actual.get("gateway").and_then(|g| g.get("decision")).or(actual.get("decision")).unwrap_or(&Value::Null);
    check("decision".into(), &expected["decision"], ours_top);
    for layer in ["core", "gateway"] {
        let Some(want) = expected.get(layer).and_then(Value::as_object) else {
            continue;
        };
        let got = actual.get(layer).cloned().unwrap_or(Value::Null);
        let fields = LAYER_FIELDS.iter().chain(if layer == "gateway" { GATEWAY_ONLY_FIELDS } else { &[] });
        for field in fields {
            // Fields the oracle did not report (e.g. segments of a deny before analysis) are not compared.
            if let Some(w) = want.get(*field) {
                check(format!("{layer}.{field}"), w, got.get(*field).unwrap_or(&Value::Null));
            }
        }
    }
    diffs
}

/// The top-level (final) decision may differ from the observed gateway decision only by a
/// post-probe refusal, and only in the releases whose oracle stops at that probe (2026.9 to
/// 2026.4): the oracle stops where OpenClaw computes `policyRequiresAsk`, so a command
/// refused after that point (`exec denied: allowlist miss` with ask=off, or
/// `ask-fallback-deny: execution-plan-miss`) is reported by the oracle as `allow`/`ask`.
pub fn final_decision_differs_only_after_the_probe(version: &str, actual: &Value) -> Result<(), String> {
    let (Some(observed), Some(final_)) =
        (actual.get("gateway").and_then(|g| g.get("decision")), actual.get("decision"))
    else {
        return Ok(());
    };
    if observed == final_ {
        return Ok(());
    }
    let message = actual["message"].as_str().unwrap_or("");
    let allowed = matches!(version, "2026.9" | "2026.8" | "2026.7" | "2026.6" | "2026.5" | "2026.4")
        && final_ == "deny"
        && ((observed == "allow" && message == "exec denied: allowlist miss")
            || (observed == "ask" && message == "ask-fallback-deny: execution-plan-miss"));
    if allowed { Ok(()) } else { Err(format!("final {final_} vs observed {observed} ({message})")) }
}
