//! What a person reads: `--help` of clawpolicy and of every command (the list comes from the
//! command definitions, so a new command without a snapshot fails), and the human output of
//! `tools`, `explain` and `exec` on the team example (`fixtures/examples/team.json5`). Width,
//! colour, home and state directory are fixed, so the output is the same on every machine.

use std::path::Path;

use assert_cmd::Command;
use clap::CommandFactory;
use clawpolicy::cli::Cli;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const TEAM: &str = "fixtures/examples/team.json5";

/// Runs clawpolicy in a fixed environment; returns (exit code, stdout with the checkout path
/// replaced by `[ROOT]` and table padding collapsed, since column widths follow that path).
fn run(args: &[&str]) -> (i32, String) {
    let home = Path::new(ROOT).join("fixtures/paths/no-such-home");
    let output = Command::cargo_bin("clawpolicy")
        .unwrap()
        .current_dir(ROOT)
        .env("COLUMNS", "100")
        .env("NO_COLOR", "1")
        .env("HOME", &home)
        .env("OPENCLAW_HOME", &home)
        .env_remove("OPENCLAW_STATE_DIR")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .args(args)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout).replace(ROOT, "[ROOT]");
    (output.status.code().unwrap(), out.lines().map(collapse_table_padding).collect::<Vec<_>>().join("\n"))
}

/// A table line with its runs of padding and of border characters made one character long.
fn collapse_table_padding(line: &str) -> String {
    if !line.contains(['│', '┆']) && !line.starts_with(['┌', '╞', '└', '├']) {
        return line.to_string();
    }
    let mut collapsed = String::new();
    for c in line.chars() {
        if matches!(c, ' ' | '─' | '═') && collapsed.ends_with(c) {
            continue;
        }
        collapsed.push(c);
    }
    collapsed
}

#[test]
fn help_of_clawpolicy_and_every_command() {
    let cli = Cli::command();
    let commands = cli.get_subcommands().map(|c| c.get_name().to_string()).filter(|name| name != "help");
    for command in std::iter::once(String::new()).chain(commands) {
        let args: Vec<&str> = [command.as_str(), "--help"].into_iter().filter(|a| !a.is_empty()).collect();
        let (code, out) = run(&args);
        assert_eq!(code, 0, "{args:?}");
        let name = if command.is_empty() { "help".to_string() } else { format!("help_{command}") };
        insta::assert_snapshot!(name, out);
    }
}

#[test]
fn human_output_of_tools_explain_and_exec() {
    let cases: [(&str, &[&str], i32); 6] = [
        // A profile, an agent deny and a sender rule; the group's own allowlist in a Telegram group.
        ("human_tools_support", &["tools", "-c", TEAM, "--agent", "support"], 0),
        (
            "human_tools_support_in_group",
            &["tools", "-c", TEAM, "--agent", "support", "--session", "agent:support:telegram:group:-1001234567890"],
            0,
        ),
        // A byProvider rule for one model removes web_fetch.
        (
            "human_tools_research_gpt5",
            &["tools", "-c", TEAM, "--agent", "research", "--provider", "openai", "--model", "gpt-5"],
            0,
        ),
        // Missing, with the smallest fix; present, with the steps that kept it.
        ("human_explain_missing", &["explain", "exec", "-c", TEAM, "--agent", "support"], 0),
        ("human_explain_present", &["explain", "browser", "-c", TEAM, "--agent", "dev"], 0),
        // The agent's allowlist/on-miss settings, read from the config.
        (
            "human_exec_settings_from_config",
            &["exec", "mytool --x", "-c", TEAM, "--agent", "dev", "--path", "/nonexistent", "--cwd", "/tmp"],
            3,
        ),
    ];
    for (name, args, expected_code) in cases {
        let (code, out) = run(args);
        assert_eq!(code, expected_code, "{name}:\n{out}");
        insta::assert_snapshot!(name, out);
    }
}
