//! Command carriers: programs whose operands are another command (`command`, `builtin`, `exec`,
//! `sudo`, `doas`, `env`; `resolveCarrierCommandArgv`). The shell argv carriers `command`,
//! `builtin` and `exec` are unwrapped where the release's data lists them
//! (`wrappers.shellArgvCarriers`); the others only tell risk detection what runs. Their option
//! tables are 2026.9's, the only release that reads through carriers.

use super::Unwrap;
use super::env;
use crate::exec::argv::scan::{AnyFlag, CarrierOptions, Empty, Grammar, Item, Opt, Walk, scan};
use crate::exec::argv::{is_env_assignment, normalize_executable, option_name};
use crate::release::exec::WrapperRules;

/// The carriers whose command risk detection looks at.
pub const CARRIERS: &[&str] = &["sudo", "doas", "env", "command", "builtin", "exec"];

const SUDO_FLAGS: &[&str] = &[
    "-A",
    "-B",
    "-b",
    "-E",
    "-H",
    "-i",
    "-k",
    "-N",
    "-n",
    "-P",
    "-S",
    "-s",
    "--askpass",
    "--background",
    "--bell",
    "--login",
    "--no-update",
    "--non-interactive",
    "--preserve-env",
    "--preserve-groups",
    "--reset-home",
    "--reset-timestamp",
    "--set-home",
    "--shell",
    "--stdin",
];
const SUDO_VALUE_FLAGS: &[&str] = &[
    "-C",
    "-D",
    "-g",
    "-h",
    "-p",
    "-R",
    "-T",
    "-U",
    "-u",
    "--chdir",
    "--chroot",
    "--close-from",
    "--command-timeout",
    "--group",
    "--host",
    "--other-user",
    "--prompt",
    "--role",
    "--type",
    "--user",
];
const SUDO: CarrierOptions<'static, &str> = CarrierOptions { flags: SUDO_FLAGS, value_flags: SUDO_VALUE_FLAGS };
const DOAS: CarrierOptions<'static, &str> =
    CarrierOptions { flags: &["-L", "-n", "-s"], value_flags: &["-a", "-C", "-u"] };
const EXEC: CarrierOptions<'static, &str> = CarrierOptions { flags: &["-c", "-l"], value_flags: &["-a"] };

/// Tokens as written; an empty one is the command.
const CARRIER_WALK: Walk = Walk { trim: false, empty: Empty::Report, end_of_options: &["--"] };

/// `command`/`builtin`/`exec` as a wrapper (2026.9, POSIX): `command -p` and unparseable forms block.
pub fn unwrap_shell_argv_carrier(argv: &[String], rules: &WrapperRules) -> Unwrap {
    let Some(token0) = argv.first().map(|t| t.trim()) else {
        return Unwrap::NotWrapper;
    };
    if !rules.shell_argv_carriers.iter().any(|c| c == token0) {
        return Unwrap::NotWrapper;
    }
    let blocked = || Unwrap::Blocked(token0.to_string());
    if token0 == "command" && runs_default_path(argv) {
        return blocked();
    }
    match carried_argv(argv, rules) {
        Some(inner) if !inner.is_empty() => Unwrap::Unwrapped { wrapper: token0.to_string(), argv: inner },
        _ => blocked(),
    }
}

/// `command -p` (in any short cluster before the command): the command runs with a default `PATH`.
fn runs_default_path(argv: &[String]) -> bool {
    let walk = Walk { trim: true, empty: Empty::Report, end_of_options: &["--"] };
    for item in scan(argv, 1, walk, &AnyFlag) {
        let Item::Option { token, .. } = item else { break };
        if token.len() > 1 && !token[1..].starts_with('-') && token[1..].contains('p') {
            return true;
        }
    }
    false
}

/// `resolveCarrierCommandArgv` with exec included: the argv a carrier (`env`, `command`, `builtin`,
/// `sudo`, `doas`, `exec`) would run, or `None` when it runs nothing recognizable.
pub fn carried_argv(argv: &[String], rules: &WrapperRules) -> Option<Vec<String>> {
    let executable = normalize_executable(argv.first()?);
    match executable.as_str() {
        "env" => env::prelude(argv, &rules.env, 0).map(|p| p.command),
        "command" | "builtin" => carried_after(argv, &ExecutingOnly),
        "sudo" => {
            // sudo accepts `VAR=value` before the command.
            let inner = carried_after(argv, &SUDO)?;
            let skip = inner.iter().take_while(|t| is_env_assignment(t)).count();
            (skip < inner.len()).then(|| inner[skip..].to_vec())
        }
        "doas" => carried_after(argv, &DOAS).filter(|inner| !inner.is_empty()),
        "exec" => carried_after(argv, &EXEC),
        _ => None,
    }
}

/// `command`/`builtin`: only `-p` runs the command (`-v`, `-V` and the rest query).
struct ExecutingOnly;

impl Grammar for ExecutingOnly {
    fn is_option(&self, token: &str) -> bool {
        token.starts_with('-')
    }

    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        if option_name(token) == "-p" { Opt::Flag } else { Opt::Unknown }
    }
}

/// The operands after a carrier's options; `None` when an option is unknown or a value missing.
fn carried_after(argv: &[String], grammar: &impl Grammar) -> Option<Vec<String>> {
    for item in scan(argv, 1, CARRIER_WALK, grammar) {
        match item {
            Item::EndOfOptions { index } => return Some(argv[index + 1..].to_vec()),
            Item::Operand { index, .. } | Item::Empty { index } => return Some(argv[index..].to_vec()),
            Item::Option { opt: Opt::Unknown, .. } => return None,
            Item::Option { .. } => {}
        }
    }
    None
}
