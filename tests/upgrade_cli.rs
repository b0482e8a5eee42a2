//! `upgrade` on published configs (`fixtures/real-world/`): whether the target release loads the
//! config, what changes for each agent, every output format, and the exit codes.

use assert_cmd::Command;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// Four Telegram agents in a legacy `agents.list`; both releases load it (2026.9 migrates the list).
const AA_CMA: &str = "fixtures/real-world/aa-cma/accepted-2026.2.json5";
/// Six agents and Signal settings 2026.9 no longer accepts.
const KURULTAI: &str = "fixtures/real-world/kurultai/accepted-2026.2.json5";
/// Stamped `meta.lastTouchedVersion: "2026.2.23"`.
const TEAM_AGENTS: &str = "fixtures/real-world/team-agents/original.json5";
/// Stamped `2026.3.13`, a line without a pack.
const VPS_OLLAMA: &str = "fixtures/real-world/vps-ollama/accepted-2026.2.json5";

/// Runs in the checkout and returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let output = Command::cargo_bin("clawpolicy")
        .unwrap()
        .current_dir(ROOT)
        .env_remove("OPENCLAW_CONFIG_PATH")
        .args(args)
        .output()
        .unwrap();
    let clean = |bytes: &[u8]| String::from_utf8_lossy(bytes).replace(ROOT, "[ROOT]");
    (output.status.code().unwrap(), clean(&output.stdout), clean(&output.stderr))
}

fn upgrade(config: &str, more: &[&str]) -> (i32, String, String) {
    let mut args = vec!["upgrade", "-c", config];
    args.extend_from_slice(more);
    run(&args)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("stdout is only JSON")
}

#[test]
fn a_config_both_releases_load_tells_each_change_and_where_it_is_decided() {
    let (code, human, _) = upgrade(AA_CMA, &["--from", "2026.2", "--to", "2026.9"]);
    assert_eq!(code, 0, "without --fail-on the run passes");
    insta::assert_snapshot!("upgrade_aa_cma_human", human);
    let (code, doc, _) = upgrade(AA_CMA, &["--from", "2026.2.25", "--to", "2026.9.6", "--format", "json"]);
    assert_eq!(code, 0);
    let doc = json(&doc);
    assert_eq!((doc["kind"].as_str(), doc["schemaVersion"].as_u64()), (Some("upgrade"), Some(1)));
    assert_eq!((doc["from"].as_str(), doc["to"].as_str()), (Some("2026.2.25"), Some("2026.9.6")));
    // 2026.2 → 2026.3 → 2026.4 → 2026.5 → 2026.6 → 2026.7 → 2026.8 → 2026.9: the target is the last release, the step into it the last step.
    let target = doc["releases"].as_array().unwrap().last().unwrap();
    assert_eq!(target["loads"], true);
    let kinds: Vec<&str> = target["problems"].as_array().unwrap().iter().map(|p| p["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["migrated", "migrated"]);
    let list = &target["problems"][0];
    let at = &list["location"];
    assert_eq!((at["file"].as_str(), at["line"].as_u64(), at["column"].as_u64()), (Some(AA_CMA), Some(28), Some(5)));
    assert_eq!((list["code"].as_str(), at["path"].as_str()), (Some("CP109"), Some("agents.list")));
    assert!(list["help"].as_str().unwrap().contains("entries: { thomas:"), "{list}");
    // `cron` is gone from 2026.8's catalog (and 2026.9's); an allow entry that named it now grants
    // `automations`, a change the step into 2026.8 reports.
    let step = doc["steps"].as_array().unwrap().iter().find(|s| s["to"] == "2026.8.2").unwrap();
    let thomas = step["access"].as_array().unwrap().iter().find(|a| a["agentId"] == "thomas" && a["context"] == "main");
    let changes = thomas.unwrap()["changes"].as_array().unwrap();
    let cron = changes.iter().find(|c| c["tool"] == "cron").unwrap();
    assert_eq!(
        (cron["gained"].as_bool(), cron["after"]["reason"].as_str()),
        (Some(false), Some("OpenClaw 2026.8.2 has no such tool"))
    );
    let automations = changes.iter().find(|c| c["tool"] == "automations").unwrap();
    assert_eq!(automations["location"]["line"], 37);
    // The lint findings about the same written value under two releases are not new or gone.
    let new: Vec<&str> = step["lint"]["new"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap()).collect();
    assert_eq!(new, ["CP702"]);
    assert!(step["lint"]["gone"].as_array().unwrap().is_empty());
    assert!(step.get("contexts").is_none(), "contexts only with --show-contexts");
    assert!(doc["summary"]["newAccess"].as_bool().unwrap() && doc["summary"]["lostAccess"].as_bool().unwrap());
}

#[test]
fn fail_on_names_what_fails_the_run() {
    assert_eq!(upgrade(AA_CMA, &["--from", "2026.2", "--to", "2026.9", "--fail-on", "new-access"]).0, 1);
    assert_eq!(upgrade(AA_CMA, &["--from", "2026.2", "--to", "2026.9", "--fail-on", "lost-access"]).0, 1);
    assert_eq!(upgrade(AA_CMA, &["--from", "2026.2", "--to", "2026.9", "--fail-on", "fatal"]).0, 0, "it loads");
    let (code, human, _) = upgrade(KURULTAI, &["--from", "2026.2", "--to", "2026.9", "--fail-on", "fatal"]);
    assert_eq!(code, 1);
    assert!(human.contains("OpenClaw 2026.9.6 (target): refuses the config: 4 fatal, 2 migrated"), "{human}");
    assert!(human.contains("fatal    CP101 channels.signal: unknown key \"cliPath\"\n             at fixtures/real-world/kurultai/accepted-2026.2.json5:68:7"), "{human}");
    assert!(
        human.contains("(OpenClaw 2026.9.6 refuses this config: below is how it would read the config once"),
        "{human}"
    );
    // Going back: what 2026.9 gained is lost.
    let (code, doc, _) =
        upgrade(AA_CMA, &["--from", "2026.9", "--to", "2026.2", "--fail-on", "lost-access", "--format", "json"]);
    assert_eq!(code, 1);
    let doc = json(&doc);
    assert_eq!((doc["from"].as_str(), doc["to"].as_str()), (Some("2026.9.6"), Some("2026.2.25")));
    assert_eq!(doc["releases"].as_array().unwrap().last().unwrap()["problems"], serde_json::json!([]));
}

#[test]
fn the_release_to_upgrade_from_is_read_from_the_config_stamp() {
    let (code, human, stderr) = upgrade(TEAM_AGENTS, &["--to", "2026.9"]);
    assert_eq!(code, 0, "{stderr}");
    let note = "--from not given: meta.lastTouchedVersion at fixtures/real-world/team-agents/original.json5:4:5 is 2026.2.23, read as 2026.2 (2026.2.25)";
    assert!(stderr.contains(note), "{stderr}");
    assert!(human.starts_with(&format!("Upgrade OpenClaw 2026.2.25 → 2026.9.6\n({note})\n")), "{human}");
    let (_, doc, _) = upgrade(VPS_OLLAMA, &["--to", "2026.9", "--format", "json", "--quiet"]);
    let chosen = json(&doc)["fromChosenBy"].as_str().unwrap().to_string();
    assert!(chosen.ends_with("is 2026.3.13, read as 2026.3 (2026.3.31)"), "{chosen}");
    let (_, doc, _) = upgrade(AA_CMA, &["--from", "2026.2", "--to", "2026.9", "--format", "json"]);
    assert_eq!(json(&doc)["fromChosenBy"], Value::Null);
}

#[test]
fn ci_formats() {
    let args = ["--from", "2026.2", "--to", "2026.9", "--agent", "arc"];
    let (code, github, _) = upgrade(AA_CMA, &[&args[..], &["--format", "github", "--fail-on", "new-access"]].concat());
    assert_eq!(code, 1);
    assert!(github.lines().all(|l| l.starts_with("::")), "{github}");
    insta::assert_snapshot!("upgrade_github", github);
    let (_, sarif, _) = upgrade(
        KURULTAI,
        &["--from", "2026.2", "--to", "2026.9", "--agent", "ops", "--format", "sarif", "--fail-on", "fatal"],
    );
    let sarif = json(&sarif);
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["ruleId"] == "upgrade/fatal" && r["level"] == "error"), "{sarif}");
    insta::assert_json_snapshot!("upgrade_sarif", sarif);
    let (code, junit, _) = upgrade(AA_CMA, &[&args[..], &["--format", "junit", "--fail-on", "lost-access"]].concat());
    // 2026.3's default exec host is `auto` (the gateway, with approvals) where 2026.2 ran the
    // command without any: arc's probes ask from 2026.3 until 2026.5's `full` default.
    assert_eq!(code, 1, "arc loses exec at 2026.3");
    insta::assert_snapshot!("upgrade_junit", junit);
    let (_, yaml, _) = upgrade(AA_CMA, &[&args[..], &["--format", "yaml"]].concat());
    assert!(yaml.starts_with("schemaVersion: 1\nkind: upgrade\nok: true\nfrom: 2026.2.25\nto: 2026.9.6\n"), "{yaml}");
}

#[test]
fn what_it_cannot_compare_exits_2() {
    let (code, _, stderr) = upgrade("fixtures/real-world/kurultai/original.json5", &["--to", "2026.9"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no --from, and the config has no meta.lastTouchedVersion"), "{stderr}");
    let (code, _, stderr) = upgrade(AA_CMA, &["--from", "2026.9", "--to", "2026.9.6"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--from and --to are the same release (2026.9.6)"), "{stderr}");
    let (code, _, stderr) = upgrade(AA_CMA, &["--from", "2026.2", "--to", "2025.1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unsupported OpenClaw version `2025.1`"), "{stderr}");
    let (code, stdout, _) = upgrade("fixtures/nope.json5", &["--from", "2026.2", "--to", "2026.9", "--format", "json"]);
    assert_eq!(code, 2);
    assert_eq!(json(&stdout)["ok"], false, "a machine document even when the config cannot be read");
    let (code, _, stderr) = upgrade(AA_CMA, &["--from", "2026.2", "--to", "2026.9", "--agent", "thomass"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("did you mean `thomas`?"), "{stderr}");
}

#[test]
fn releases_are_listed_and_selected_by_line_or_by_a_release_their_pack_stands_for() {
    let (code, table, _) = run(&["catalog", "--releases"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("catalog_releases", table);
    let (_, doc, _) = run(&["catalog", "--releases", "--format", "json"]);
    let doc = json(&doc);
    assert_eq!(doc["kind"], "releases");
    let first = &doc["releases"][0];
    assert_eq!((first["line"].as_str(), first["default"].as_bool()), (Some("2026.9"), Some(true)));
    for (flag, release) in [
        ("2026.9", "2026.9.6"),
        ("2026.9.6", "2026.9.6"),
        ("2026.8", "2026.8.2"),
        ("2026.8.2", "2026.8.2"),
        ("2026.7", "2026.7.35"),
        ("2026.7.35", "2026.7.35"),
        ("2026.6", "2026.6.35"),
        ("2026.6.35", "2026.6.35"),
        ("2026.5", "2026.5.28"),
        ("2026.5.28", "2026.5.28"),
        ("2026.3", "2026.3.31"),
        ("2026.3.31", "2026.3.31"),
        ("2026.4", "2026.4.29"),
        ("2026.4.29", "2026.4.29"),
        ("2026.2", "2026.2.25"),
        ("2026.2.25", "2026.2.25"),
    ] {
        let (code, doc, _) = run(&["--openclaw-version", flag, "catalog", "--format", "json"]);
        assert_eq!((code, json(&doc)["openclawVersion"].as_str()), (0, Some(release)), "{flag}");
    }
    let (code, _, stderr) = run(&["--openclaw-version", "2026.2.26", "catalog"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("OpenClaw 2026.2.26 is not simulated: the 2026.2 pack stands for 2026.2.25 (checked against it); `2026.2` selects it"), "{stderr}");
    let (code, _, stderr) = run(&["--openclaw-version", "2026.1", "catalog"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(
            "unsupported OpenClaw version `2026.1` (supported: 2026.9, 2026.8, 2026.7, 2026.6, 2026.5, 2026.4, 2026.3, 2026.2"
        ),
        "{stderr}"
    );
}

#[test]
fn a_default_that_moved_flips_exec_decisions_at_the_release_that_moved_it() {
    // `tools.exec.security` unset: 2026.2 and 2026.3 default it to `allowlist`, 2026.4 and later to `full`.
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("openclaw.json5");
    std::fs::write(&config, "{ tools: { exec: { host: \"gateway\" } } }\n").unwrap();
    let probes = dir.path().join("probes.txt");
    std::fs::write(&probes, "# deploys\nmake deploy\n").unwrap();
    let (config, probes) = (config.to_str().unwrap(), probes.to_str().unwrap());
    let args = ["--from", "2026.2", "--to", "2026.9", "--probe", probes, "--format", "json", "--fail-on", "new-access"];
    let (code, doc, _) = upgrade(config, &args);
    assert_eq!(code, 1);
    let doc = json(&doc);
    let step = doc["steps"].as_array().unwrap().iter().find(|s| s["to"] == "2026.4.29").unwrap();
    assert_eq!(step["from"], "2026.3.31");
    let flips = step["exec"].as_array().unwrap();
    let deploy = flips.iter().find(|f| f["command"] == "make deploy" && f["context"] == "main").unwrap();
    assert_eq!(
        (deploy["base"].as_str(), deploy["head"].as_str(), deploy["loosened"].as_bool()),
        (Some("ask"), Some("allow"), Some(true))
    );
    assert_eq!(deploy["location"]["line"], 1);
    let security = step["posture"].as_array().unwrap().iter().find(|p| p["setting"] == "security").unwrap();
    assert_eq!((security["base"].as_str(), security["head"].as_str()), (Some("allowlist"), Some("full")));
    assert!(doc["summary"]["execLoosened"].as_u64().unwrap() > 0);
}
