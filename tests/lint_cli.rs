//! `clawpolicy lint` end to end: a snapshot of every fixture under fixtures/lint/ in every
//! format, exit codes, SARIF schema validity, and secrets never printed.

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

const FORMATS: &[&str] = &["human", "json", "sarif", "github", "junit"];
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The binary in a known environment: nothing of the caller's (a gateway token there would change
/// what the audit rules say) and a home without an OpenClaw install.
fn clawpolicy() -> Command {
    let mut command = Command::cargo_bin("clawpolicy").unwrap();
    command.current_dir(ROOT).env_clear().env("NO_COLOR", "1").env("HOME", Path::new(ROOT).join("fixtures/lint"));
    command
}

/// The environment a fixture was audited in (`audit-env.json`), as `--env` flags.
fn fixture_env(config: &Path) -> Vec<String> {
    let file = config.with_file_name("audit-env.json");
    let Ok(text) = std::fs::read_to_string(file) else { return Vec::new() };
    let env: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).unwrap();
    env.iter().flat_map(|(k, v)| ["--env".to_string(), format!("{k}={}", v.as_str().unwrap())]).collect()
}

/// Fixtures with a config OpenClaw can read (the broken one is tested for its exit code).
fn fixtures() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("fixtures/lint"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|dir| dir.join("openclaw.json5").is_file() && !dir.ends_with("broken"))
        .collect();
    dirs.sort();
    dirs
}

fn lint(config: &Path, format: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let output = clawpolicy()
        .args(["lint", "--severity-min", "suggestion", "--format", format, "-c"])
        .arg(config)
        .args(fixture_env(config))
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap().replace(ROOT, "[ROOT]");
    (output.status.code(), stdout, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn every_fixture_in_every_format() {
    for dir in fixtures() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let config = dir.join("openclaw.json5");
        for format in FORMATS {
            let (code, stdout, stderr) = lint(&config, format, &[]);
            assert!(matches!(code, Some(0 | 1)), "{name} {format}: exit {code:?}\n{stderr}");
            insta::assert_snapshot!(format!("{name}.{format}"), stdout);
        }
    }
}

#[test]
fn exit_codes_follow_the_threshold() {
    let config = |name: &str| Path::new(ROOT).join("fixtures/lint").join(name).join("openclaw.json5");
    assert_eq!(lint(&config("clean"), "json", &[]).0, Some(0));
    assert_eq!(lint(&config("dead-rules"), "json", &[]).0, Some(1));
    // The same findings below the threshold do not fail.
    let dead_rules = config("dead-rules");
    let output = clawpolicy()
        .args(["lint", "--severity-min", "error", "-c"])
        .arg(&dead_rules)
        .args(fixture_env(&dead_rules))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    // Suppressed findings do not fail either.
    assert_eq!(lint(&config("suppressed"), "json", &[]).0, Some(0));
    assert_eq!(lint(&config("suppressed"), "json", &["--no-suppressions"]).0, Some(1));
}

#[test]
fn bad_input_exits_2() {
    let broken = Path::new(ROOT).join("fixtures/lint/broken/openclaw.json5");
    let (code, stdout, stderr) = lint(&broken, "json", &[]);
    assert_eq!(code, Some(2));
    // The machine document says why there is no answer, with a structured location.
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("a refusal document");
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["error"]["code"], "config::parse");
    assert_eq!(
        (doc["error"]["location"]["line"].as_u64(), doc["error"]["location"]["column"].as_u64()),
        (Some(2), Some(26))
    );
    assert!(stderr.contains("openclaw.json5:2:26"), "{stderr}");

    let clean = Path::new(ROOT).join("fixtures/lint/clean/openclaw.json5");
    let (code, _, stderr) = lint(&clean, "json", &["--only", "CP999"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("no rule is called `CP999`"), "{stderr}");

    let dir = tempfile::tempdir().unwrap();
    let suppressions = dir.path().join("s.yaml");
    std::fs::write(&suppressions, "suppressions:\n  - rule: CP201\n    reason: \"\"\n").unwrap();
    let (code, _, stderr) = lint(&clean, "json", &["--suppressions", suppressions.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("needs a `reason`"), "{stderr}");
}

#[test]
fn sarif_output_is_valid_sarif_2_1_0() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(ROOT).join("fixtures/schemas/sarif-2.1.0.json")).unwrap(),
    )
    .unwrap();
    // The OASIS schema, with its one invalid regex (`run.language`, an unbalanced `]`) corrected.
    let validator = jsonschema::validator_for(&schema).unwrap();
    for dir in fixtures() {
        let (_, stdout, _) = lint(&dir.join("openclaw.json5"), "sarif", &[]);
        let log: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", dir.display());
    }
}

#[test]
fn json_output_has_a_schema_version_and_locations() {
    let (_, stdout, _) = lint(&Path::new(ROOT).join("fixtures/lint/included/openclaw.json5"), "json", &[]);
    let document: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(document["schemaVersion"], 1);
    assert_eq!(document["kind"], "lint");
    let finding = document["findings"].as_array().unwrap().iter().find(|f| f["code"] == "CP201").unwrap();
    assert_eq!(finding["location"]["file"], "[ROOT]/fixtures/lint/included/tools.json5");
    assert_eq!((finding["location"]["line"].as_u64(), finding["location"]["column"].as_u64()), (Some(4), Some(5)));
}

#[test]
fn secrets_never_appear_in_any_format() {
    for dir in fixtures() {
        let text = std::fs::read_to_string(dir.join("openclaw.json5")).unwrap();
        let secrets: Vec<&str> = text.split('"').filter(|s| s.contains("do-not-print")).collect();
        for format in FORMATS {
            let (_, stdout, stderr) = lint(&dir.join("openclaw.json5"), format, &[]);
            for secret in &secrets {
                assert!(
                    !stdout.contains(secret) && !stderr.contains(secret),
                    "{} {format} prints a secret",
                    dir.display()
                );
            }
        }
    }
}

#[test]
fn rule_reference_by_code_and_name() {
    let output = clawpolicy().args(["rule", "unknown-tool"]).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("CP201 unknown-tool"), "{text}");
    let output = clawpolicy().args(["rule", "CP999"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn post_schema_refusals_are_config_rule_violations_at_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("openclaw.json5");
    let text = "{\n  gateway: {\n    bind: \"lan\",\n    auth: { mode: \"token\", token: \"x\" },\n    tailscale: { mode: \"serve\" },\n  },\n}\n";
    std::fs::write(&config, text).unwrap();
    let findings = |version: &str| -> Vec<serde_json::Value> {
        let (_, stdout, stderr) = lint(&config, "json", &["--openclaw-version", version]);
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
        report["findings"].as_array().unwrap().iter().filter(|f| f["code"] == "CP105").cloned().collect()
    };
    // 2026.9 refuses Tailscale serve on a LAN bind after its schema passes; 2026.2 has no such check.
    let refused = findings("2026.9");
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!(refused[0]["kind"], "fatal");
    assert_eq!(refused[0]["path"], "gateway.bind");
    assert_eq!(
        (refused[0]["location"]["line"].as_u64(), refused[0]["location"]["column"].as_u64()),
        (Some(3), Some(5))
    );
    assert!(
        refused[0]["message"]
            .as_str()
            .unwrap()
            .contains("gateway.bind must resolve to loopback when gateway.tailscale.mode=serve")
    );
    assert!(findings("2026.2").is_empty());
    // The other commands refuse the config too (exit 2, as for any invalid config).
    let status = clawpolicy().args(["tools", "-c"]).arg(&config).output().unwrap().status;
    assert_eq!(status.code(), Some(2));
}
