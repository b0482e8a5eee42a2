//! Plugin settings checked as each release checks them, through the command line: unknown,
//! removed and command ids in `plugins.*`, and a plugin's config against its manifest schema,
//! each reported with the release's text at the line and column where it is written.

use assert_cmd::Command;
use serde_json::Value;

const STALE: &str = "fixtures/examples/stale-plugins.json5";

fn clawpolicy() -> Command {
    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// `(path, message, line, column)` of each issue of a refusal document.
fn issues(doc: &Value) -> Vec<(String, String, u64, u64)> {
    let issues = doc["config"]["issues"].as_array().expect("a refusal lists its issues");
    issues
        .iter()
        .map(|i| {
            let at = &i["location"];
            let text = |v: &Value| v.as_str().unwrap().to_string();
            (text(&i["path"]), text(&i["message"]), at["line"].as_u64().unwrap(), at["column"].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn plugin_config_out_of_range_is_refused_where_written_and_stale_ids_are_warnings() {
    let output = clawpolicy().args(["tools", "--config", STALE, "--format", "json"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    let at_max_tokens =
        ("plugins.entries.llm-task.config.maxTokens".into(), "invalid config: must be >= 1".into(), 9, 46);
    assert_eq!(issues(&doc), [at_max_tokens]);
    assert_eq!(doc["config"]["issues"][0]["kind"], "fatal");
    let stderr = String::from_utf8(output.stderr).unwrap();
    for (warning, place) in [
        (
            "plugin not found: old-plugin (stale config entry ignored; remove it from plugins config)",
            "stale-plugins.json5:10:7",
        ),
        ("plugin removed: skill-workshop (stale plugin config ignored;", "stale-plugins.json5:11:7"),
        (
            "\"dreaming\" is not a plugin — it is a command provided by the \"memory-core\" plugin.",
            "stale-plugins.json5:7:40",
        ),
    ] {
        let shown = stderr.find(warning).unwrap_or_else(|| panic!("missing {warning:?} in:\n{stderr}"));
        assert!(stderr[shown..].contains(place), "{warning:?} is not shown at {place}:\n{stderr}");
    }
    assert!(stderr.contains("config::plugin"), "{stderr}");
}

#[test]
fn the_older_release_refuses_every_unknown_plugin_id() {
    let args = ["tools", "--openclaw-version", "2026.2", "--config", STALE, "--format", "json"];
    let output = clawpolicy().args(args).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        issues(&doc),
        [
            ("plugins.entries.old-plugin".into(), "plugin not found: old-plugin".into(), 10, 7),
            ("plugins.entries.skill-workshop".into(), "plugin not found: skill-workshop".into(), 11, 7),
            ("plugins.allow".into(), "plugin not found: dreaming".into(), 7, 40),
        ]
    );
}

#[test]
fn batch_answers_carry_the_plugin_warnings_the_release_gives() {
    let input =
        r#"{"id":"stale","config":{"plugins":{"entries":{"discord":{},"zzz":{"enabled":false}},"deny":["gone"]}}}"#;
    let output = clawpolicy().args(["tools", "--batch", "-"]).write_stdin(input).output().unwrap();
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["ok"], true);
    assert_eq!(
        answer["config"]["warnings"],
        serde_json::json!([
            {"path": "plugins.entries.discord", "message": "plugin not installed: discord — install the official external plugin with: openclaw plugins install @openclaw/discord"},
            {"path": "plugins.deny", "message": "plugin not found: gone (stale config entry ignored; remove it from plugins config)"}
        ])
    );
}
