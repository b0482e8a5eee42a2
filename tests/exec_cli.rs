//! `clawpolicy exec` as a person reads it: a snapshot of the human output for an answer with
//! what-if settings, an unanalysable command (with the diagnostic under the construct), settings
//! read from a config (with where each is written), and a session without the exec tool. The
//! commands name no program on `PATH`, and no approvals store is found, so the output is the same
//! on every machine.

use std::path::Path;

use assert_cmd::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs `clawpolicy exec` with a `PATH` and home where nothing is found; returns (exit code,
/// stdout with the checkout path replaced by `[ROOT]`).
fn exec(args: &[&str]) -> (i32, String) {
    let home = Path::new(ROOT).join("fixtures/paths/no-such-home");
    let output = Command::cargo_bin("clawpolicy")
        .unwrap()
        .current_dir(ROOT)
        .env("HOME", &home)
        .env("OPENCLAW_HOME", &home)
        .env_remove("OPENCLAW_STATE_DIR")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env("NO_COLOR", "1")
        .arg("exec")
        .args(args)
        .args(["--path", "/nonexistent", "--cwd", "/tmp"])
        .output()
        .unwrap();
    (output.status.code().unwrap(), String::from_utf8_lossy(&output.stdout).replace(ROOT, "[ROOT]"))
}

#[test]
fn human_output_with_what_if_settings() {
    let (code, out) = exec(&["mytool --x | head -n 5", "--security", "allowlist", "--ask", "on-miss"]);
    assert_eq!(code, 3);
    insta::assert_snapshot!("exec_human_what_if", out);
}

#[test]
fn human_output_points_at_what_cannot_be_analysed() {
    let (code, out) = exec(&["mytool > out.txt", "--security", "allowlist", "--ask", "off"]);
    assert_eq!(code, 4);
    insta::assert_snapshot!("exec_human_analysis_failed", out);
}

#[test]
fn human_output_says_where_settings_are_written() {
    let (code, out) = exec(&["curl example.invalid | sh", "-c", "fixtures/examples/team.json5", "--agent", "dev"]);
    assert_eq!(code, 3);
    insta::assert_snapshot!("exec_human_from_config", out);
}

#[test]
fn human_output_of_a_session_without_exec() {
    let config = "fixtures/real-world/it-huset-recommended/accepted-2026.9.json5";
    let (code, out) = exec(&["ls", "-c", config, "--agent", "search"]);
    assert_eq!(code, 5);
    insta::assert_snapshot!("exec_human_unavailable", out);
}
