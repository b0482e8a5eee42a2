//! Conformance with the real OpenClaw: every case in `fixtures/conformance/tools-<v>.cases.jsonl`
//! was run through the release by the oracle; the answers are in `…expected.jsonl`. Per case we
//! compare `ok`, the tools constructed (the pipeline's input), the final tool set and the step that
//! removed each removed tool. The legacy family (`tools-<v>-legacy.…`: load-time migrations and
//! retired keys) also compares what the release says about the config: validity, issues, warnings
//! and legacy issues. The plugins family (`tools-<v>-plugins.…`: `plugins.*` settings) compares the
//! same, with the tools that plugin loading builds. The validation family
//! (`tools-<v>-validation.…`: the checks after the schema) is recorded without its tools and also
//! compares the issues, texts included, in the environment it was recorded in.

mod common;

use std::path::Path;

use common::ConfigCheck;

/// Differences we know about and cannot remove, with the reason (also in docs/conformance.md).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    (
        "hand-agent-default-true-second",
        "no agent given and two agents, one marked `default: true`: 2026.9 migrates the marker into \
         `agents.defaults.systemAgent.agentId` and routes to that agent (the real `openclaw sandbox explain` \
         does); the oracle picks its default agent with the deprecated `resolveDefaultAgentId`, which ignores \
         the migrated owner and fails with AgentSelectionRequiredError",
    ),
    (
        "hand-legacy-agents-list-with-default",
        "same as hand-agent-default-true-second, with the roster written as a legacy `agents.list`",
    ),
];

fn check_version(version: &str) {
    check_family(version, "", ConfigCheck::None);
}

fn check_family(version: &str, family: &str, check: ConfigCheck) {
    let opts = clawpolicy::config::loading::process_options(version.parse().unwrap());
    check_family_with(version, family, check, &opts);
}

fn check_family_with(version: &str, family: &str, check: ConfigCheck, opts: &clawpolicy::config::LoadOptions) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
    let outcome = common::run_family_with(&dir, version, family, check, opts);
    let (known, failures): (Vec<_>, Vec<_>) = outcome
        .disagreements
        .into_iter()
        .partition(|(id, _)| KNOWN_DIFFERENCES.iter().any(|(known_id, _)| known_id == id));
    let (total, stats) = (outcome.total, outcome.stats);
    let passed = total - failures.len() - known.len();
    println!(
        "tools conformance {version}{family}: {passed}/{total} cases agree ({:.1} %), {} known differences",
        100.0 * passed as f64 / total as f64,
        known.len()
    );
    println!(
        "  refused configs: {} ({} with the release's issue paths, {} with its exact issue texts)",
        stats.refused, stats.same_paths, stats.same_texts
    );
    let failures: Vec<String> = failures.iter().map(|(id, diff)| format!("{id}: {diff}")).collect();
    assert!(failures.is_empty(), "{} cases differ from OpenClaw {version}:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn tools_conformance_2026_9() {
    check_version("2026.9");
}

/// The main cases asked again with `turn` (`tools-<v>-turn.…`): the tools as a run's own attempt
/// builds them, with the plugin metadata it prepares (recorded through `chat_turn_oracle.py`).
#[test]
fn turn_conformance_2026_9() {
    check_family("2026.9", "-turn", ConfigCheck::None);
}

#[test]
fn turn_conformance_2026_8() {
    check_family("2026.8", "-turn", ConfigCheck::None);
}

#[test]
fn tools_conformance_2026_2() {
    check_version("2026.2");
}

#[test]
fn tools_conformance_2026_3() {
    check_version("2026.3");
}

#[test]
fn tools_conformance_2026_5() {
    check_version("2026.5");
}

#[test]
fn tools_conformance_2026_6() {
    check_version("2026.6");
}

#[test]
fn tools_conformance_2026_4() {
    check_version("2026.4");
}

#[test]
fn tools_conformance_2026_7() {
    check_version("2026.7");
}

#[test]
fn tools_conformance_2026_8() {
    check_version("2026.8");
}

#[test]
fn legacy_conformance_2026_9() {
    check_family("2026.9", "-legacy", ConfigCheck::Full);
}

#[test]
fn legacy_conformance_2026_2() {
    check_family("2026.2", "-legacy", ConfigCheck::Full);
}

#[test]
fn plugins_conformance_2026_9() {
    check_family("2026.9", "-plugins", ConfigCheck::Full);
}

#[test]
fn plugins_conformance_2026_2() {
    check_family("2026.2", "-plugins", ConfigCheck::Full);
}

/// Where `generate_tools_cases.py` records the validation family: the oracle's HOME and state
/// directory, and a symlink both sides create (`link` → `real`).
const ORACLE_STATE: &str = "/tmp/clawpolicy-oracle-state";
const LINKS: &str = "/tmp/clawpolicy-agentdir-links";

fn check_validation_family(version: &str) {
    let links = Path::new(LINKS);
    std::fs::create_dir_all(links.join("real")).unwrap();
    if std::fs::symlink_metadata(links.join("link")).is_err() {
        std::os::unix::fs::symlink(links.join("real"), links.join("link")).unwrap();
    }
    let mut opts = clawpolicy::config::loading::process_options(version.parse().unwrap());
    opts.env = [("HOME", "home"), ("OPENCLAW_STATE_DIR", "state")]
        .into_iter()
        .map(|(name, dir)| (name.to_string(), format!("{ORACLE_STATE}/{dir}")))
        .collect::<std::collections::HashMap<_, _>>()
        .into();
    check_family_with(version, "-validation", ConfigCheck::Exact, &opts);
}

#[test]
fn validation_conformance_2026_9() {
    check_validation_family("2026.9");
}

#[test]
fn validation_conformance_2026_2() {
    check_validation_family("2026.2");
}

#[test]
fn spawn_conformance_2026_9() {
    check_family("2026.9", "-spawn", ConfigCheck::Validity);
}

#[test]
fn spawn_conformance_2026_2() {
    check_family("2026.2", "-spawn", ConfigCheck::Validity);
}

/// The bundledprofiles family (`tools-<v>-bundledprofiles.…`, written by `generate_mcp_cases.py`):
/// the bundled plugins' own manifest profile membership (2026.9's memory-core `intent` in `coding`
/// and `messaging`) under every profile, plugin state, owner, sandbox and sub-agent: as the
/// effective-tools listing builds the tools (the shared oracle), which applies none of it, and as
/// a run's own attempt does (`-turn`, recorded through `chat_turn_oracle.py`), which applies it
/// (docs/conformance.md, "Plugin and MCP tools").
#[test]
fn bundled_profiles_conformance_2026_9() {
    check_family("2026.9", "-bundledprofiles", ConfigCheck::Validity);
    check_family("2026.9", "-bundledprofiles-turn", ConfigCheck::Validity);
}

#[test]
fn bundled_profiles_conformance_2026_5() {
    check_family("2026.5", "-bundledprofiles", ConfigCheck::Validity);
}

#[test]
fn bundled_profiles_conformance_2026_2() {
    check_family("2026.2", "-bundledprofiles", ConfigCheck::Validity);
}

/// Runs the cases of a family whose tools the test declares per case, as a flag would: `check`
/// answers one case (given the case, its expected answer, the load options and the fixtures
/// folder) with what differs, if anything.
fn check_declared_family(
    version: &str,
    family: &str,
    mut check: impl FnMut(&serde_json::Value, &serde_json::Value, &clawpolicy::config::LoadOptions, &Path) -> Option<String>,
) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
    let cases = common::read_jsonl(&dir.join(format!("tools-{version}{family}.cases.jsonl")));
    let expected = common::read_jsonl(&dir.join(format!("tools-{version}{family}.expected.jsonl")));
    assert_eq!(cases.len(), expected.len(), "cases and expected outputs must line up");
    let opts = clawpolicy::config::loading::process_options(version.parse().unwrap());
    let failures: Vec<String> = cases
        .iter()
        .zip(&expected)
        .filter_map(|(case, want)| check(case, want, &opts, &dir).map(|diff| format!("{}: {diff}", case["id"])))
        .collect();
    let name = family.trim_start_matches('-');
    println!("{name} conformance {version}: {}/{} cases agree", cases.len() - failures.len(), cases.len());
    assert!(failures.is_empty(), "{} cases differ from OpenClaw {version}:\n{}", failures.len(), failures.join("\n"));
}

/// The mcp family (`tools-<v>-mcp.…`, written by `generate_mcp_cases.py`): configs with MCP
/// servers, recorded by `record_mcp.mjs` (2026.9) and the shared oracle (2026.2, which has none).
/// Each case's MCP tools are declared from the probe the release printed for its config (2026.9's
/// `probe` answer) or from the case's saved probe (2026.2), exactly as `--mcp-probe FILE` declares
/// them; besides the tool answers, the probe tools the run does not build and those the per-run
/// toolsAllow cap drops must agree.
fn check_mcp_family(version: &str) {
    use clawpolicy::policy::mcp::{McpProbe, mcp_plugin_id};
    use serde_json::Value;
    check_declared_family(version, "-mcp", |case, want, opts, dir| {
        let probe = want.get("probe").or(case.get("mcpProbe")).cloned().unwrap_or(Value::Null);
        let probe: McpProbe = serde_json::from_value(probe).unwrap_or_default();
        let mut declared = case.clone();
        declared["pluginTools"] = serde_json::to_value(probe.plugin_tools(mcp_plugin_id())).unwrap();
        let got = clawpolicy::batch::tools::run_tools_case(&declared, opts, dir);
        let strings = |v: &Value| -> Vec<String> {
            v.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
        };
        let not_built = |answer: &Value| -> Vec<String> {
            let built = strings(&answer["candidates"]);
            probe.tools.iter().filter(|t| !built.contains(t)).cloned().collect()
        };
        let ok = want["ok"] == Value::Bool(true);
        let not_built_diff = (ok && not_built(&got) != not_built(want))
            .then(|| format!("MCP tools not built: expected {:?}, got {:?}", not_built(want), not_built(&got)));
        let capped: Vec<String> = got["removed"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(tool, step)| probe.tools.contains(tool) && *step == "runtime toolsAllow (per-run cap)")
            .map(|(tool, _)| tool.clone())
            .collect();
        let capped_diff = (ok && capped != strings(&want["mcpCapped"]))
            .then(|| format!("MCP tools the per-run cap drops: expected {}, got {capped:?}", want["mcpCapped"]));
        common::compare(want, &got).or(not_built_diff).or(capped_diff)
    });
}

#[test]
fn mcp_conformance_2026_9() {
    check_mcp_family("2026.9");
}

#[test]
fn mcp_conformance_2026_2() {
    check_mcp_family("2026.2");
}

/// Where the plugintools family's test plugins are installed (`plugins.load.paths` names them).
const PLUGIN_FIXTURES: &str = "/tmp/clawpolicy-plugin-fixtures";

/// The plugintools family (`tools-<v>-plugintools.…`, written by `generate_mcp_cases.py`):
/// plugins installed from disk, recorded by the release (it loads the plugins itself).
/// clawpolicy declares their tools from the same folders, as `--plugins DIR` does.
fn check_plugin_tools_family(version: &str) {
    // Installed once per run: both releases' tests read the folders while they run.
    static INSTALL: std::sync::Once = std::sync::Once::new();
    let installed = Path::new(PLUGIN_FIXTURES);
    INSTALL.call_once(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance/plugins");
        for plugin in ["acme", "beta"] {
            std::fs::create_dir_all(installed.join(plugin)).unwrap();
            for file in ["openclaw.plugin.json", "package.json", "index.js"] {
                std::fs::copy(source.join(plugin).join(file), installed.join(plugin).join(file)).unwrap();
            }
        }
    });
    let tools = clawpolicy::policy::manifest::folder_tools(installed).unwrap();
    check_declared_family(version, "-plugintools", |case, want, opts, dir| {
        // Only the plugins the case installs are present.
        let paths = case["config"]["plugins"]["load"]["paths"].to_string();
        let present: Vec<_> = tools.iter().filter(|t| paths.contains(&format!("/{}\"", t.plugin))).collect();
        let mut declared = case.clone();
        declared["pluginTools"] = serde_json::to_value(present).unwrap();
        let got = clawpolicy::batch::tools::run_tools_case(&declared, opts, dir);
        let validity = (want["config"]["valid"] != got["config"]["valid"])
            .then(|| format!("valid: expected {}, got {}", want["config"]["valid"], got["config"]["valid"]));
        common::compare(want, &got).or(validity)
    });
}

#[test]
fn plugin_tools_conformance_2026_9() {
    check_plugin_tools_family("2026.9");
}

#[test]
fn plugin_tools_conformance_2026_2() {
    check_plugin_tools_family("2026.2");
}
