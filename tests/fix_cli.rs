//! `clawpolicy fix`, `lint --fix` and `explain --apply` through the command line: the edits as
//! a diff, the files written (comments kept), what is held back without `--unsafe-fixes`, what
//! access changed, the exit codes, and writes confined to the config's folder.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

const LEGACY: &str = "fixtures/examples/legacy-roster.json5";

/// A folder holding `openclaw.json5` with `text`, where the commands run.
fn folder_with(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("openclaw.json5"), text).unwrap();
    dir
}

fn clawpolicy(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("clawpolicy").unwrap();
    cmd.current_dir(dir).env("HOME", "/home/op").env_remove("OPENCLAW_CONFIG_PATH").env_remove("OPENCLAW_STATE_DIR");
    cmd
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = clawpolicy(dir).args(args).output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn legacy_text() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(LEGACY)).unwrap()
}

fn config_of(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("openclaw.json5")).unwrap()
}

#[test]
fn diff_shows_the_edits_and_writes_nothing() {
    let dir = folder_with(&legacy_text());
    let (code, stdout, _) = run(dir.path(), &["fix", "-c", "openclaw.json5", "--diff", "-q"]);
    assert_eq!(code, 1, "--diff exits 1 when there are edits to make");
    insta::assert_snapshot!("fix_diff_legacy_roster", stdout);
    assert_eq!(config_of(dir.path()), legacy_text());
}

#[test]
fn fix_writes_the_file_keeps_its_comments_and_a_second_run_changes_nothing() {
    let dir = folder_with(&legacy_text());
    let (code, stdout, _) = run(dir.path(), &["fix", "-c", "openclaw.json5", "-q"]);
    assert_eq!(code, 0, "{stdout}");
    insta::assert_snapshot!("fix_written_legacy_roster", config_of(dir.path()));
    assert!(stdout.contains("Access unchanged"), "{stdout}");
    let (code, stdout, stderr) = run(dir.path(), &["fix", "-c", "openclaw.json5"]);
    assert_eq!((code, stdout.as_str()), (0, "Nothing to fix.\n"));
    assert!(!stderr.contains("config::migrated"), "the fixed file has no legacy form left: {stderr}");
}

#[test]
fn fixes_that_change_access_need_the_flag_and_the_change_is_reported() {
    let text = "{\n  // keep the shell away\n  tools: { deny: ['exce'] },\n}\n";
    let dir = folder_with(text);
    let (code, stdout, _) = run(dir.path(), &["fix", "-c", "openclaw.json5"]);
    assert_eq!(code, 1, "a fix was held back: {stdout}");
    assert!(
        stdout.contains("CP201  replace `exce` with `exec`: it changes access; --unsafe-fixes applies it"),
        "{stdout}"
    );
    assert_eq!(config_of(dir.path()), text);

    let (code, stdout, _) = run(dir.path(), &["fix", "-c", "openclaw.json5", "--unsafe-fixes"]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(config_of(dir.path()), "{\n  // keep the shell away\n  tools: { deny: ['exec'] },\n}\n");
    insta::assert_snapshot!("fix_unsafe_typo", stdout);
}

#[test]
fn the_json_document_lists_fixes_diffs_and_access() {
    let dir = folder_with("{\n  tools: { deny: ['exce'] },\n}\n");
    let (code, stdout, _) =
        run(dir.path(), &["fix", "-c", "openclaw.json5", "--unsafe-fixes", "--diff", "--format", "json"]);
    assert_eq!(code, 1);
    let doc: Value = serde_json::from_str(&stdout).expect("only JSON on stdout");
    assert_eq!((doc["schemaVersion"].as_u64(), doc["kind"].as_str()), (Some(1), Some("fix")));
    assert_eq!(doc["written"], false);
    let fix = &doc["applied"][0];
    assert_eq!(fix["source"]["code"], "CP201");
    assert_eq!(fix["safety"], "unsafe");
    assert_eq!(fix["edits"][0]["op"], "set");
    assert_eq!(fix["edits"][0]["value"], "exec");
    assert_eq!(fix["location"]["line"], 2);
    assert!(doc["files"][0]["diff"].as_str().unwrap().contains("+  tools: { deny: ['exec'] },"), "{doc}");
    assert!(doc["access"]["summary"]["toolsLost"].as_u64().unwrap() > 0, "{doc}");
}

#[test]
fn lint_fix_fixes_then_lints_what_is_left() {
    let dir = folder_with(&legacy_text());
    let (code, stdout, stderr) = run(dir.path(), &["lint", "-c", "openclaw.json5", "--fix", "--only", "CP109"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stderr.contains("Fixed 3 problems in 1 file"), "{stderr}");
    assert!(config_of(dir.path()).contains("entries: {"));
}

#[test]
fn explain_apply_writes_the_edits_that_bring_the_tool_back() {
    let dir = folder_with("{\n  // messaging only\n  tools: { profile: 'messaging' },\n}\n");
    let (code, stdout, stderr) = run(dir.path(), &["explain", "exec", "-c", "openclaw.json5", "--apply"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("explain exec  bring `exec` back"), "{stdout}");
    let (_, after, _) = run(dir.path(), &["explain", "exec", "-c", "openclaw.json5", "--format", "json"]);
    let doc: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(doc["present"], true, "{doc}");
    assert!(config_of(dir.path()).starts_with("{\n  // messaging only\n"));
}

#[cfg(unix)]
#[test]
fn a_config_reached_through_a_symlink_leaving_the_folder_is_not_written() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("real.json5"), "{ tools: { deny: ['raed'] } }\n").unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path().join("real.json5"), dir.path().join("openclaw.json5")).unwrap();
    let (code, _, stderr) = run(dir.path(), &["fix", "-c", "openclaw.json5", "--unsafe-fixes"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("refusing to write"), "{stderr}");
    assert_eq!(std::fs::read_to_string(outside.path().join("real.json5")).unwrap(), "{ tools: { deny: ['raed'] } }\n");
    // With --diff nothing is written, so it only shows the edit.
    assert_eq!(run(dir.path(), &["fix", "-c", "openclaw.json5", "--unsafe-fixes", "--diff"]).0, 1);
}

#[test]
fn an_unknown_rule_or_an_unreadable_config_exits_2() {
    let dir = folder_with("{ tools: ");
    assert_eq!(run(dir.path(), &["fix", "-c", "openclaw.json5"]).0, 2);
    assert_eq!(run(dir.path(), &["fix", "-c", "openclaw.json5", "--only", "CP999"]).0, 2);
}
