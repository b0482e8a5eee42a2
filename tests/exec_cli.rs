//! `clawpolicy exec` as a person reads it: a snapshot of the human output for an answer with
//! what-if settings, an unanalysable command (with the diagnostic under the construct), settings
//! read from a config (with where each is written), and a session without the exec tool. The
//! commands name no program on `PATH`, and no approvals store is found, so the output is the same
//! on every machine.

use std::path::Path;

use assert_cmd::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs `clawpolicy` (OpenClaw release `version`) with `args`, in the checkout, with a home where
/// no config or approvals store is found; returns (exit code, stdout with the checkout path
/// replaced by `[ROOT]`).
fn clawpolicy(version: &str, args: &[&str]) -> (i32, String) {
    let home = Path::new(ROOT).join("fixtures/paths/no-such-home");
    let output = Command::cargo_bin("clawpolicy")
        .unwrap()
        .current_dir(ROOT)
        .env("HOME", &home)
        .env("OPENCLAW_HOME", &home)
        .env_remove("OPENCLAW_STATE_DIR")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env("NO_COLOR", "1")
        .args(["--openclaw-version", version])
        .args(args)
        .output()
        .unwrap();
    (output.status.code().unwrap(), String::from_utf8_lossy(&output.stdout).replace(ROOT, "[ROOT]"))
}

/// Runs `clawpolicy exec` (2026.9) in `/tmp` with a `PATH` where nothing is found.
fn exec(args: &[&str]) -> (i32, String) {
    let args: Vec<&str> =
        ["exec"].into_iter().chain(args.iter().copied()).chain(["--path", "/nonexistent", "--cwd", "/tmp"]).collect();
    clawpolicy("2026.9", &args)
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

/// The elevated gates of a message: each failing gate with the key to edit, where it is written
/// and the edit that opens it; or what let the sender in and what elevated mode then changes.
#[test]
fn elevated_gates() {
    let example = "fixtures/examples/elevated.json5";
    let disabled = "fixtures/real-world/it-huset-recommended/accepted-2026.9.json5";
    let discord_9 = "fixtures/real-world/claws-and-pincers/accepted-2026.9.json5";
    let cases: [(&str, &[&str], i32); 6] = [
        // The agent's own list does not name the sender: the session stays in its sandbox.
        (
            "exec_elevated_agent_list",
            &["uptime", "-c", example, "--agent", "ops", "--channel", "telegram", "--sender", "5550001"],
            0,
        ),
        // Both lists name the on-call lead: exec leaves the sandbox at the configured default level.
        (
            "exec_elevated_allowed",
            &[
                "uptime",
                "-c",
                example,
                "--agent",
                "ops",
                "--channel",
                "telegram",
                "--sender",
                "42",
                "--sender-username",
                "@oncall-lead",
            ],
            3,
        ),
        // The Control UI sends no sender, so an id in allowFrom.webchat never matches.
        (
            "exec_elevated_webchat",
            &["uptime", "-c", example, "--agent", "main", "--channel", "webchat", "--elevated", "on"],
            4,
        ),
        // No channel: no message, nothing to admit.
        ("exec_elevated_no_channel", &["uptime", "-c", example, "--agent", "main", "--elevated", "full"], 4),
        // A real config that switches elevated mode off globally and for the agent.
        (
            "exec_elevated_disabled",
            &[
                "ls",
                "-c",
                disabled,
                "--agent",
                "main",
                "--channel",
                "whatsapp",
                "--sender",
                "+15551234567",
                "--elevated",
                "on",
            ],
            4,
        ),
        // A real config admitting one Discord id; 2026.9 does not ship the discord plugin.
        (
            "exec_elevated_external_channel",
            &["ls", "-c", discord_9, "--agent", "developer", "--channel", "discord", "--sender", "10000000001"],
            0,
        ),
    ];
    for (name, args, expected) in cases {
        let (code, out) = exec(args);
        assert_eq!(code, expected, "{name}: {out}");
        insta::assert_snapshot!(name, out);
    }
}

/// The same on 2026.2, whose discord dock strips mentions and falls back to the DM allowlist.
#[test]
fn elevated_gates_2026_2() {
    let config = "fixtures/real-world/claws-and-pincers/accepted-2026.2.json5";
    let (code, out) = clawpolicy(
        "2026.2",
        &["exec", "ls", "-c", config, "--agent", "developer", "--channel", "discord", "--sender", "20000000002"]
            .into_iter()
            .chain(["--elevated", "full", "--format", "json", "--path", "/nonexistent", "--cwd", "/tmp"])
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, 4);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["decision"], "error");
    let failure = &json["elevatedGates"]["failures"][0];
    assert_eq!(failure["key"], "tools.elevated.allowFrom.discord");
    assert_eq!(failure["fix"], "add \"id:20000000002\" to `tools.elevated.allowFrom.discord`");
    let location = &json["elevatedLocations"]["tools.elevated.allowFrom.discord"];
    assert!(location["file"].as_str().unwrap().ends_with("accepted-2026.2.json5"), "{json}");
    assert!(location["line"].as_u64().unwrap() > 1 && location["column"].as_u64().unwrap() > 1, "{json}");
}

/// Runs `clawpolicy exec` with `fixtures/exec/bin` (an executable `real-tool` and a link `tool` to
/// it) as the whole `PATH`, in `/tmp`.
fn exec_with_bin(version: &str, args: &[&str]) -> (i32, String) {
    let bin = format!("{ROOT}/fixtures/exec/bin");
    let args: Vec<&str> =
        ["exec"].into_iter().chain(args.iter().copied()).chain(["--path", &bin, "--cwd", "/tmp"]).collect();
    clawpolicy(version, &args)
}

/// Answers a person can act on: why the nearest allowlist entries missed, what "allow always"
/// would store and which later calls it covers, and the automatic reviewer of mode `auto`.
#[test]
fn exec_answers_to_act_on() {
    let link = format!("{ROOT}/fixtures/exec/bin/tool");
    let asks = ["--security", "allowlist", "--ask", "on-miss", "--host", "gateway"];
    let near: Vec<&str> =
        ["tool -v && real-tool -x", "--allow", &link, "--allow", "real-tool"].into_iter().chain(asks).collect();
    let cases: Vec<(&str, &str, Vec<&str>, i32)> = vec![
        ("exec_near_misses_2026_9", "2026.9", near.clone(), 3),
        ("exec_near_misses_2026_2", "2026.2", near, 3),
        ("exec_auto_mode", "2026.9", vec!["real-tool -v", "-c", "fixtures/exec/auto-mode.json5"], 3),
    ];
    for (name, version, args, expected) in cases {
        let (code, out) = exec_with_bin(version, &args);
        assert_eq!(code, expected, "{name}: {out}");
        insta::assert_snapshot!(name, out);
    }
}

/// `explain exec` for a message (`--channel`) ends with its elevated gates.
#[test]
fn explain_exec_names_the_elevated_gates() {
    let args = ["explain", "exec", "-c", "fixtures/examples/elevated.json5", "--agent", "ops", "--channel", "telegram"];
    let (_, out) = clawpolicy("2026.9", &[&args[..], &["--sender", "5550001"]].concat());
    assert!(out.contains("Elevated mode: not available for this sender on telegram:"), "{out}");
    assert!(
        out.contains("allowFrom (agents.entries.*.tools.elevated.allowFrom.telegram) at ")
            && out.contains("elevated.json5:18:36: add \"id:5550001\""),
        "{out}"
    );
}
