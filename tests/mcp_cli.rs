//! MCP server tools and plugin tools declared from a saved probe or installed plugin folders,
//! through the command line: what each session gets, why a tool is missing, who can use it,
//! the lint rules about them, and the errors for a bad probe.

use assert_cmd::Command;
use serde_json::Value;

const CONFIG: &str = "fixtures/examples/mcp-servers.json5";
const PROBE: &str = "fixtures/examples/mcp-probe.json";
const PLUGINS: &str = "fixtures/conformance/plugins";

fn clawpolicy() -> Command {
    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

fn json(args: &[&str]) -> (Option<i32>, Value) {
    let output = clawpolicy().args(args).output().unwrap();
    let doc = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    (output.status.code(), doc)
}

fn strings(value: &Value) -> Vec<&str> {
    value.as_array().into_iter().flatten().filter_map(Value::as_str).collect()
}

#[test]
fn probe_tools_reach_sessions_through_the_servers_switches_and_filters() {
    let (code, doc) = json(&["tools", "-c", CONFIG, "--mcp-probe", PROBE, "--format", "json"]);
    assert_eq!(code, Some(0));
    let tools = strings(&doc["tools"]);
    assert!(tools.contains(&"linear__create_issue") && tools.contains(&"linear__list_issues"), "{tools:?}");
    // A probe tool of a server the config filters or switches off is not built, with the reason.
    let (_, doc) = json(&[
        "tools",
        "-c",
        CONFIG,
        "--mcp-probe",
        PROBE,
        "--plugin-tool",
        "bundle-mcp:old-notes__read",
        "--plugin-tool",
        "bundle-mcp:linear__delete_issue",
        "--format",
        "json",
    ]);
    let not_built = &doc["notConstructed"];
    assert_eq!(not_built["old-notes__read"], "mcp.servers[\"old notes\"].enabled is false");
    let filtered = not_built["linear__delete_issue"].as_str().unwrap();
    assert!(filtered.contains("mcp.servers.linear.toolFilter.exclude[0]"), "{filtered}");
}

#[test]
fn explain_names_the_sandbox_step_that_removes_an_mcp_tool() {
    let output = clawpolicy()
        .args(["explain", "linear__create_issue", "-c", CONFIG, "--mcp-probe", PROBE, "--agent", "ops"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("linear__create_issue is NOT available to agent ops"), "{stdout}");
    assert!(stdout.contains("sandbox tools.allow"), "{stdout}");
}

#[test]
fn who_can_lists_the_agents_that_get_an_mcp_tool() {
    let (code, doc) = json(&["who-can", "linear__list_issues", "-c", CONFIG, "--mcp-probe", PROBE, "--format", "json"]);
    assert_eq!(code, Some(0));
    let agents: Vec<&str> = doc["matches"].as_array().unwrap().iter().filter_map(|m| m["agentId"].as_str()).collect();
    // `ops` runs sandboxed, and the sandbox's default allowlist has no MCP tool.
    assert!(!agents.is_empty() && agents.iter().all(|a| *a == "main"), "{agents:?}");
}

#[test]
fn lint_finds_the_namespaced_filter_and_the_server_it_empties() {
    let args = ["lint", "-c", CONFIG, "--mcp-probe", PROBE, "--only", "CP205,CP309,CP310", "--format", "json"];
    let (code, doc) = json(&args);
    assert_eq!(code, Some(1));
    let found: Vec<(String, u64, u64)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let at = &f["location"];
            (f["code"].as_str().unwrap().to_string(), at["line"].as_u64().unwrap(), at["column"].as_u64().unwrap())
        })
        .collect();
    assert!(found.contains(&("CP205".into(), 19, 64)), "{found:?}");
    assert!(found.contains(&("CP309".into(), 19, 40)), "{found:?}");
    // Without the probe the namespaced filter is still found.
    let (_, doc) = json(&["lint", "-c", CONFIG, "--only", "CP205", "--format", "json"]);
    assert_eq!(doc["findings"][0]["code"], "CP205");
}

#[test]
fn a_file_that_is_no_probe_is_an_error() {
    let output = clawpolicy().args(["tools", "-c", CONFIG, "--mcp-probe", CONFIG]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("cli::mcp-probe") && stderr.contains("not an MCP probe"), "{stderr}");
    let missing = clawpolicy().args(["tools", "-c", CONFIG, "--mcp-probe", "no/such.json"]).output().unwrap();
    assert_eq!(missing.status.code(), Some(2));
}

/// A config file of its own in a fresh folder, removed when dropped.
struct TempConfig(std::path::PathBuf);

impl TempConfig {
    fn new(name: &str, text: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("clawpolicy-mcp-cli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("openclaw.json5"), text).unwrap();
        TempConfig(dir)
    }

    fn path(&self) -> String {
        self.0.join("openclaw.json5").to_string_lossy().into_owned()
    }
}

impl Drop for TempConfig {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_release_without_mcp_servers_builds_no_probe_tool() {
    let config = TempConfig::new("seed", "{}");
    let path = config.path();
    let args = ["tools", "--openclaw-version", "2026.2", "-c", &path, "--mcp-probe", PROBE, "--format", "json"];
    let (code, doc) = json(&args);
    assert_eq!(code, Some(0));
    assert!(!strings(&doc["tools"]).iter().any(|t| t.contains("__")));
    assert_eq!(doc["notConstructed"]["linear__list_issues"], "this release has no MCP servers (`mcp.servers`)");
}

#[test]
fn diff_reports_an_mcp_tool_a_change_takes_away() {
    let overlay = TempConfig::new("overlay", r#"{ tools: { deny: ["linear__list_issues"] } }"#);
    let head = overlay.path();
    let args = ["diff", "--base", CONFIG, "--head", CONFIG, "--head", &head, "--mcp-probe", PROBE, "--format", "json"];
    let (code, doc) = json(&args);
    assert_eq!(code, Some(0));
    let text = doc.to_string();
    assert!(text.contains("linear__list_issues") && !text.contains("linear__create_issue"), "{text}");
}

#[test]
fn installed_plugin_manifests_put_their_tools_in_profiles() {
    let config = TempConfig::new("manifests", r#"{"tools": {"profile": "minimal"}}"#);
    let path = config.path();
    let (_, doc) = json(&["tools", "-c", &path, "--plugins", PLUGINS, "--format", "json"]);
    let tools = strings(&doc["tools"]);
    // acme's manifest puts acme_search in `minimal`; beta_read is only in coding and messaging.
    assert!(tools.contains(&"acme_search") && !tools.contains(&"beta_read"), "{tools:?}");
    assert!(doc["notConstructed"]["acme_admin"].as_str().unwrap().contains("optional"));
}

#[test]
fn a_policy_suite_declares_mcp_tools_from_a_probe() {
    let output = clawpolicy().args(["test", "fixtures/examples/mcp-suite.yaml"]).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("2 passed, 0 failed"), "{stdout}");
}

#[test]
fn an_undeclared_mcp_tool_is_an_error_that_says_how_to_declare_it() {
    let output = clawpolicy().args(["explain", "linear__create_issue", "-c", CONFIG]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("MCP server `linear`") && stderr.contains("--mcp-probe FILE"), "{stderr}");
}

#[test]
fn turn_answers_as_the_run_attempt_builds_the_tools() {
    let config = "fixtures/examples/team.json5";
    let args = ["tools", "-c", config, "--agent", "dev", "--owner", "--format", "json"];
    let (code, listing) = json(&args);
    assert_eq!(code, Some(0));
    assert!(!strings(&listing["tools"]).contains(&"intent"), "the effective-tools listing builds no intent");
    let note = listing["assumptions"].as_array().unwrap().iter().find(|a| a["fact"] == "tool builder").unwrap();
    assert!(note["assumed"].as_str().unwrap().contains("also gets intent"), "{note}");
    let (code, turn) = json(&[&args[..], &["--turn"]].concat());
    assert_eq!(code, Some(0));
    assert!(strings(&turn["tools"]).contains(&"intent"), "a run's own attempt gets memory-core's intent");
    assert!(turn["assumptions"].as_array().unwrap().iter().all(|a| a["fact"] != "tool builder"));
    // Explain names the manifest that put it in the profile; a non-owner never gets it built.
    let out =
        clawpolicy().args(["explain", "intent", "-c", config, "--agent", "dev", "--owner", "--turn"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("plugin `memory-core` manifest puts it in profile `coding`"));
    let (_, not_owner) =
        json(&[&args[..1], &["-c", config, "--agent", "dev", "--not-owner", "--turn", "--format", "json"]].concat());
    assert_eq!(not_owner["notConstructed"]["intent"], "built only when the sender is the owner");
}
