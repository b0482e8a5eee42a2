//! Shells and their inline commands: which names are shells (POSIX, `cmd`, PowerShell), which
//! of them OpenClaw parses, where a shell invocation carries its command (`sh -c '…'`, `cmd /c`,
//! `pwsh -Command`), whether it starts a login or interactive shell first, and which script a
//! shell runs (`bash ./run.sh`). These are 2026.9's tables (the release whose analysis looks
//! into shells); a shell OpenClaw learns to read is added here.

use super::normalize_executable;
use super::scan::{AnyFlag, Empty, Grammar, Item, Opt, Walk, scan};
pub use super::shell_names::is_shell_wrapper_executable;
use super::shell_names::{ShellKind, is_powershell, shell_kind};
use super::wrappers::{Unwrap, multiplexers, unwrap_dispatch_syntax};
use crate::release::exec::WrapperRules;

/// POSIX shells whose `-c` payload OpenClaw parses (those of them the release knows as shells);
/// the others are opaque.
const PARSEABLE_SHELLS: &[&str] = &["ash", "bash", "dash", "fish", "ksh", "mksh", "sh", "yash", "zsh"];
/// Shells whose startup files run before an inline command, so the payload cannot be bound to.
const OPAQUE_STARTUP_SHELLS: &[&str] = &["csh", "osh", "tcsh"];
/// Shells whose script argument is not resolved (their option grammars are not read).
const OPAQUE_SCRIPT_SHELLS: &[&str] = &["csh", "elvish", "nu", "osh", "tcsh", "xonsh"];
/// Shells that also take `+o`-style options.
const PLUS_OPTION_SHELLS: &[&str] = &["ash", "bash", "dash", "ksh", "mksh", "osh", "sh", "yash", "zsh"];
const POSIX_INLINE_FLAGS: &[&str] = &["-lc", "-c", "--command", "--commands", "--cmdline"];
/// POSIX shell options whose value is the next token.
const POSIX_VALUE_OPTIONS: &[&str] = &["--init-file", "--rcfile", "-O", "-o", "+O", "+o"];
const STARTUP_FILE_OPTIONS: &[&str] = &["--rcfile", "--init-file", "--startup-file"];
const POWERSHELL_VALUE_OPTIONS: &[&str] = &[
    "-executionpolicy",
    "-ep",
    "-windowstyle",
    "-w",
    "-workingdirectory",
    "-wd",
    "-inputformat",
    "-outputformat",
    "-version",
    "-v",
    "-configurationfile",
    "-settingsfile",
];

/// `sh`, `bash`, … whose payload can be parsed.
pub fn is_parseable_shell(token: &str, rules: &WrapperRules) -> bool {
    let name = normalize_executable(token);
    PARSEABLE_SHELLS.contains(&name.as_str()) && shell_kind(&name, rules) == Some(ShellKind::Posix)
}

/// A shell whose script argument is not resolved.
pub fn is_opaque_script_shell(token: &str) -> bool {
    OPAQUE_SCRIPT_SHELLS.contains(&normalize_executable(token).as_str())
}

fn count_o_options(token: &str) -> usize {
    token.chars().skip(1).filter(|c| *c == 'o' || *c == 'O').count()
}

/// `parseCombinedCommandFlag`: `-xc` style clusters. Returns (attached payload, separate-value count).
fn combined_command_flag(token: &str) -> Option<(Option<String>, usize)> {
    let rest = token.strip_prefix('-')?;
    if rest.is_empty() || rest.starts_with('-') || rest.contains('-') {
        return None;
    }
    let c = rest.find('c')?;
    let suffix = &rest[c + 1..];
    if !suffix.is_empty() && !suffix.chars().all(|ch| ch.is_ascii_alphabetic()) {
        return Some((Some(suffix.to_string()), 0));
    }
    Some((None, count_o_options(token)))
}

/// POSIX shell options (`-x`, `+o pipefail`, `-oo a b`): a cluster takes one value per `o`/`O`.
struct PosixOptions;

impl Grammar for PosixOptions {
    fn is_option(&self, token: &str) -> bool {
        token.starts_with('-') || token.starts_with('+')
    }

    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        let combined = if token.len() >= 2 && !token[1..].contains('-') { count_o_options(token) } else { 0 };
        if combined > 0 {
            Opt::Takes(combined)
        } else if POSIX_VALUE_OPTIONS.contains(&token) {
            Opt::Takes(1)
        } else {
            Opt::Flag
        }
    }
}

/// Where a POSIX shell's inline command is: (payload, index of the payload token).
pub fn posix_inline_command(argv: &[String]) -> Option<(String, usize)> {
    for item in scan(argv, 1, Walk::TRIMMED, &PosixOptions) {
        let Item::Option { index: i, token, .. } = item else { return None };
        if POSIX_INLINE_FLAGS.contains(&token) {
            let cmd = argv.get(i + 1)?.trim();
            return (!cmd.is_empty()).then(|| (cmd.to_string(), i + 1));
        }
        if let Some((attached, separate)) = combined_command_flag(token) {
            if let Some(attached) = attached {
                let attached = attached.trim().to_string();
                return (!attached.is_empty()).then_some((attached, i));
            }
            let index = i + 1 + separate;
            let cmd = argv.get(index)?.trim();
            return (!cmd.is_empty()).then(|| (cmd.to_string(), index));
        }
    }
    None
}

fn is_short_option_with(token: &str, option: char) -> bool {
    token.len() >= 2 && token.starts_with('-') && !token[1..].contains('-') && token[1..].contains(option)
}

/// A login (`-l`, `--login`) or interactive (`-i`) option before the inline command flag.
pub fn has_startup_before_inline(argv: &[String]) -> bool {
    let mut saw = false;
    for item in scan(argv, 1, Walk::TRIMMED, &PosixOptions) {
        let Item::Option { token, .. } = item else { return false };
        if token == "--login"
            || token == "--interactive"
            || is_short_option_with(token, 'l')
            || is_short_option_with(token, 'i')
        {
            saw = true;
        }
        if POSIX_INLINE_FLAGS.contains(&token) || combined_command_flag(token).is_some() {
            return saw;
        }
    }
    false
}

fn cmd_inline_command(argv: &[String]) -> Option<String> {
    let idx = argv.iter().position(|t| ["/c", "/k", "-c", "-k"].contains(&t.trim().to_lowercase().as_str()))?;
    let cmd = argv[idx + 1..].join(" ").trim().to_string();
    (!cmd.is_empty()).then_some(cmd)
}

/// PowerShell's options (`-Name`, `/Name`), some of which take the next token.
struct PowerShellOptions;

impl Grammar for PowerShellOptions {
    fn is_option(&self, token: &str) -> bool {
        token.starts_with('-') || token.starts_with('/')
    }

    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        if POWERSHELL_VALUE_OPTIONS.contains(&token.to_lowercase().as_str()) { Opt::Takes(1) } else { Opt::Flag }
    }
}

fn powershell_inline_command(argv: &[String]) -> Option<String> {
    let walk = Walk { trim: true, empty: Empty::Skip, end_of_options: &[] };
    for item in scan(argv, 1, walk, &PowerShellOptions) {
        let (Item::Option { index: i, token, .. } | Item::Operand { index: i, token }) = item else { continue };
        let lower = token.to_lowercase();
        let bare = lower.trim_start_matches(['-', '/']);
        let is_prefix_of =
            |full: &str, min: &str| bare.len() >= min.len() && full.starts_with(bare) && bare.starts_with(min);
        if is_prefix_of("command", "c") || is_prefix_of("commandwithargs", "commandw") || bare == "cwa" {
            let cmd = argv[i + 1..].iter().map(|a| a.trim()).collect::<Vec<_>>().join(" ").trim().to_string();
            return (!cmd.is_empty()).then_some(cmd);
        }
        if is_prefix_of("file", "f") || is_prefix_of("encodedcommand", "e") || bare == "ec" {
            let cmd = argv.get(i + 1)?.trim();
            return (!cmd.is_empty()).then(|| cmd.to_string());
        }
        if let Item::Operand { .. } = item {
            break;
        }
    }
    None
}

/// The shell invocation behind dispatch wrappers and busybox (`resolveShellWrapperCandidate`).
fn shell_candidate(argv: &[String], rules: &WrapperRules, depth: usize) -> Option<Vec<String>> {
    if depth > rules.max_depth || argv.first().is_none_or(|t| t.trim().is_empty()) {
        return None;
    }
    match unwrap_dispatch_syntax(argv, rules) {
        Unwrap::Blocked(_) => return None,
        Unwrap::Unwrapped { argv: inner, .. } => return shell_candidate(&inner, rules, depth + 1),
        Unwrap::NotWrapper => {}
    }
    match multiplexers::unwrap(argv, rules) {
        Unwrap::Blocked(_) => None,
        Unwrap::Unwrapped { argv: inner, .. } => shell_candidate(&inner, rules, depth + 1),
        Unwrap::NotWrapper => Some(argv.to_vec()),
    }
}

/// A recognized shell-wrapper invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellWrapper {
    /// The shell argv (after dispatch wrappers / busybox).
    pub argv: Vec<String>,
    /// The raw inline payload.
    pub payload: String,
    /// The payload when it may be bound to (startup options and fish `-cX` forms make it `None`).
    pub bindable: Option<String>,
}

/// `extractShellWrapperCommand`: `None` when argv is not a shell wrapper with a payload.
pub fn shell_wrapper(argv: &[String], rules: &WrapperRules) -> Option<ShellWrapper> {
    let candidate = shell_candidate(argv, rules, 0)?;
    let name = normalize_executable(&candidate[0]);
    let payload = match shell_kind(&name, rules)? {
        ShellKind::Posix if OPAQUE_STARTUP_SHELLS.contains(&name.as_str()) => None,
        ShellKind::Posix => posix_inline_command(&candidate).map(|(p, _)| p),
        ShellKind::Cmd => cmd_inline_command(&candidate),
        ShellKind::PowerShell => powershell_inline_command(&candidate),
    }?;
    let fish_attached = name == "fish"
        && candidate
            .iter()
            .skip(1)
            .map(|t| t.trim())
            .take_while(|t| t.starts_with('-') || t.starts_with('+') || t.is_empty())
            .any(|t| t.starts_with("-c") && t != "-c");
    let startup = shell_kind(&name, rules) == Some(ShellKind::Posix) && has_startup_before_inline(&candidate);
    let bindable = (!fish_attached && !startup).then(|| payload.clone());
    Some(ShellWrapper { argv: candidate, payload, bindable })
}

/// The tokens before `--`, trimmed, empty ones passed over.
fn tokens_before_end(argv: &[String]) -> impl Iterator<Item = &str> {
    scan(argv, 1, Walk::TRIMMED, &AnyFlag).map_while(|item| match item {
        Item::Option { token, .. } | Item::Operand { token, .. } => Some(token),
        Item::EndOfOptions { .. } | Item::Empty { .. } => None,
    })
}

/// The inline-command flag of a parseable shell is `-c`, `--command` or a cluster containing `c`
/// (without a `-` in it).
pub fn has_parseable_command_flag(argv: &[String]) -> bool {
    for lower in tokens_before_end(argv).map(str::to_lowercase) {
        if lower == "-c" || lower == "--command" {
            return true;
        }
        if lower.starts_with('-') && !lower.starts_with("--") && lower[1..].contains('c') {
            return !lower[1..].contains('-');
        }
    }
    false
}

/// `shellCommandFlag`: the shell's inline-command flag anywhere before `--` (`/c` for cmd, the
/// PowerShell command and file switches, `-c`/`--command`/a cluster containing `c` otherwise).
pub fn has_shell_command_flag(argv: &[String]) -> bool {
    let shell = normalize_executable(&argv[0]);
    tokens_before_end(argv).map(str::to_lowercase).any(|lower| match shell.as_str() {
        "cmd" => lower == "/c" || lower == "/k",
        "powershell" | "pwsh" => {
            ["-c", "-command", "--command", "-encodedcommand", "-enc", "-e", "-f", "-file"].contains(&lower.as_str())
        }
        _ => {
            lower == "-c"
                || lower == "--command"
                || (lower.starts_with('-') && !lower.starts_with("--") && lower[1..].contains('c'))
        }
    })
}

/// Shell options as `resolveShellWrapperScriptCandidatePath` steps over them.
struct ScriptOptions {
    powershell: bool,
    plus_options: bool,
}

impl Grammar for ScriptOptions {
    fn is_option(&self, token: &str) -> bool {
        token.starts_with('-') || token.starts_with('+')
    }

    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        if ["-c", "--command", "-o", "-O", "+O", "+o"].contains(&token) {
            return Opt::Takes(1);
        }
        if !self.powershell && (token.starts_with('-') || (self.plus_options && token.starts_with('+'))) {
            let o_count = if token[1..].contains('-') { 0 } else { count_o_options(token) };
            if o_count > 0 {
                return Opt::Takes(o_count);
            }
        }
        Opt::Flag
    }
}

/// The script a shell invocation runs (`bash -e ./run.sh args` → `./run.sh`), as written; `None`
/// when it runs an inline command, reads stdin (`-s`) or a startup file.
pub fn script_operand(argv: &[String]) -> Option<&str> {
    let name = normalize_executable(&argv[0]);
    let powershell = is_powershell(&name);
    let grammar = ScriptOptions { powershell, plus_options: PLUS_OPTION_SHELLS.contains(&name.as_str()) };
    let mut at = argv.len();
    for item in scan(argv, 1, Walk::TRIMMED, &grammar) {
        let token = match item {
            Item::Option { token, .. } => token,
            Item::EndOfOptions { index } => {
                at = index + 1;
                break;
            }
            Item::Operand { index, .. } | Item::Empty { index } => {
                at = index;
                break;
            }
        };
        let cluster = token.starts_with('-') && !token.starts_with("--") && token.len() > 1;
        if !powershell && (POSIX_INLINE_FLAGS.contains(&token) || (cluster && token[1..].contains('c'))) {
            return None;
        }
        if token == "-s" || (!powershell && cluster && token[1..].contains('s')) {
            return None;
        }
        if STARTUP_FILE_OPTIONS.iter().any(|o| token == *o || token.starts_with(&format!("{o}="))) {
            return None;
        }
    }
    Some(argv.get(at)?.trim()).filter(|script| !script.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use crate::exec::argv::words as argv;

    #[test]
    fn shell_wrappers_and_payloads() {
        let rules = &OpenClawVersion::V2026_9.exec().wrappers;
        let w = shell_wrapper(&argv("sh -c 'ls -la'"), rules).unwrap();
        assert_eq!(w.payload, "ls -la");
        assert_eq!(w.bindable.as_deref(), Some("ls -la"));
        let login = shell_wrapper(&argv("bash -lc ls"), rules).unwrap();
        assert_eq!(login.bindable, None);
        assert_eq!(shell_wrapper(&argv("bash ./x.sh"), rules), None);
        assert_eq!(shell_wrapper(&argv("busybox sh -c ls"), rules).unwrap().payload, "ls");
        assert_eq!(posix_inline_command(&argv("bash -xc 'echo hi'")).unwrap().0, "echo hi");
        assert_eq!(posix_inline_command(&argv("bash -o pipefail -c 'echo hi'")).unwrap(), ("echo hi".into(), 4));
        assert_eq!(shell_wrapper(&argv("pwsh -NoProfile -Command Get-Date"), rules).unwrap().payload, "Get-Date");
    }

    #[test]
    fn scripts_and_command_flags() {
        assert_eq!(script_operand(&argv("bash -e -o pipefail ./run.sh a")), Some("./run.sh"));
        assert_eq!(script_operand(&argv("bash -- ./run.sh")), Some("./run.sh"));
        assert_eq!(script_operand(&argv("bash -s")), None);
        assert_eq!(script_operand(&argv("bash --rcfile=x run.sh")), None);
        assert!(has_shell_command_flag(&argv("bash -xc ls")));
        assert!(!has_shell_command_flag(&argv("bash -- -c")));
        assert!(has_parseable_command_flag(&argv("sh -ec ls")));
        assert!(!has_parseable_command_flag(&argv("sh -e-c ls")));
    }
}
