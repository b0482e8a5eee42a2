//! Wrapper unwrapping: dispatch wrappers (`nice`, `env`, `sudo`…), shell argv carriers
//! (`command`, `exec`), busybox/toybox, and shell wrappers (`sh -c '…'`). Spec §3.6–§3.7, deltas B3.6.

use crate::OpenClawVersion;

/// A dispatch-wrapper option grammar, as a small table instead of one function per wrapper.
struct WrapperGrammar {
    /// Options that stand alone.
    flags: &'static [&'static str],
    /// Options that take a value (inline `--x=v` / `-xV` or the next token).
    value_flags: &'static [&'static str],
    /// Extra tokens to skip after the options (timeout's DURATION, flock's LOCKFILE).
    positional_prefix: usize,
}

/// How one argv[0] dispatch wrapper behaves.
enum WrapperKind {
    /// Always `policyBlocked` (sudo, chroot, …).
    Blocked,
    /// Unwrapped with a strict option grammar; any unknown option blocks.
    Grammar(WrapperGrammar),
    /// Special grammars.
    Env,
    Nice,
    Nohup,
    Time,
    Flock,
}

const BLOCKED_V9: &[&str] = &[
    "arch",
    "bwrap",
    "catchsegv",
    "chrt",
    "chroot",
    "cpulimit",
    "doas",
    "eatmydata",
    "firejail",
    "gosu",
    "ionice",
    "linux32",
    "linux64",
    "nsenter",
    "numactl",
    "pkexec",
    "proot",
    "proxychains",
    "proxychains4",
    "runuser",
    "script",
    "setarch",
    "setsid",
    "setpriv",
    "su",
    "sudo",
    "systemd-run",
    "taskset",
    "torify",
    "torsocks",
    "unbuffer",
    "unshare",
    "watch",
    "xcrun",
    "xvfb-run",
];
const BLOCKED_V2: &[&str] = &["chrt", "doas", "ionice", "setsid", "sudo", "taskset"];

const STDBUF: WrapperGrammar = WrapperGrammar {
    flags: &[],
    value_flags: &["-i", "--input", "-o", "--output", "-e", "--error"],
    positional_prefix: 0,
};
const TIMEOUT: WrapperGrammar = WrapperGrammar {
    flags: &["--foreground", "--preserve-status", "-v", "--verbose"],
    value_flags: &["-k", "--kill-after", "-s", "--signal"],
    positional_prefix: 1,
};
const CAFFEINATE: WrapperGrammar =
    WrapperGrammar { flags: &["-d", "-i", "-m", "-s", "-u"], value_flags: &["-t", "-w"], positional_prefix: 0 };
const SANDBOX_EXEC: WrapperGrammar =
    WrapperGrammar { flags: &[], value_flags: &["-f", "-p", "-d"], positional_prefix: 0 };

fn wrapper_kind(name: &str, version: OpenClawVersion) -> Option<WrapperKind> {
    let v9 = version == OpenClawVersion::V2026_9;
    let blocked = if v9 { BLOCKED_V9 } else { BLOCKED_V2 };
    if blocked.contains(&name) {
        return Some(WrapperKind::Blocked);
    }
    Some(match name {
        "env" => WrapperKind::Env,
        "nice" => WrapperKind::Nice,
        "nohup" => WrapperKind::Nohup,
        "stdbuf" => WrapperKind::Grammar(STDBUF),
        "timeout" => WrapperKind::Grammar(TIMEOUT),
        "caffeinate" if v9 => WrapperKind::Grammar(CAFFEINATE),
        "sandbox-exec" if v9 => WrapperKind::Grammar(SANDBOX_EXEC),
        "time" if v9 => WrapperKind::Time,
        "flock" if v9 => WrapperKind::Flock,
        _ => return None,
    })
}

/// `normalizeExecutableToken`: lowercase basename without a Windows executable suffix.
pub fn normalize_executable(token: &str) -> String {
    let base = token.rsplit(['/', '\\']).next().unwrap_or(token).trim().to_lowercase();
    for suffix in [".exe", ".cmd", ".bat", ".com"] {
        if let Some(stripped) = base.strip_suffix(suffix) {
            return stripped.to_string();
        }
    }
    base
}

/// `NAME=value` (an environment assignment word).
pub fn is_env_assignment(token: &str) -> bool {
    let Some((name, _)) = token.split_once('=') else {
        return false;
    };
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The option name of `--name=value` / `-x=v` tokens (`parseInlineOptionToken`).
pub fn option_name(token: &str) -> &str {
    token.split_once('=').map_or(token, |(n, _)| n)
}

/// The outcome of looking at argv[0] as a wrapper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unwrap {
    NotWrapper,
    Blocked(String),
    Unwrapped { wrapper: String, argv: Vec<String> },
}

enum Directive {
    Continue,
    ConsumeNext,
    Stop,
    Invalid,
}

/// `scanWrapperInvocation`: walk options until the wrapped command; `None` when the grammar fails.
fn scan(
    argv: &[String],
    separators: &[&str],
    skip_after: usize,
    mut on_token: impl FnMut(&str, &str) -> Directive,
) -> Option<Vec<String>> {
    let mut idx = 1;
    let mut expects_value = false;
    while idx < argv.len() {
        let token = argv[idx].trim();
        if token.is_empty() {
            idx += 1;
            continue;
        }
        if expects_value {
            expects_value = false;
            idx += 1;
            continue;
        }
        if separators.contains(&token) {
            idx += 1;
            break;
        }
        match on_token(token, &token.to_lowercase()) {
            Directive::Stop => break,
            Directive::Invalid => return None,
            Directive::ConsumeNext => expects_value = true,
            Directive::Continue => {}
        }
        idx += 1;
    }
    if expects_value {
        return None;
    }
    let command_index = idx + skip_after;
    (command_index < argv.len()).then(|| argv[command_index..].to_vec())
}

fn unwrap_with_grammar(argv: &[String], g: &WrapperGrammar) -> Option<Vec<String>> {
    scan(argv, &["--"], g.positional_prefix, |token, lower| {
        if !token.starts_with('-') || token == "-" {
            return Directive::Stop;
        }
        let flag = option_name(lower);
        if g.flags.contains(&flag) {
            Directive::Continue
        } else if g.value_flags.contains(&flag) {
            // `-k5` / `--signal=TERM` carry the value inline.
            if lower.contains('=') || (flag.len() == 2 && lower.len() > 2 && !lower.starts_with("--")) {
                Directive::Continue
            } else {
                Directive::ConsumeNext
            }
        } else {
            Directive::Invalid
        }
    })
}

fn unwrap_nice(argv: &[String]) -> Option<Vec<String>> {
    scan(argv, &["--"], 0, |token, lower| {
        if !token.starts_with('-') || token == "-" {
            return Directive::Stop;
        }
        let flag = option_name(lower);
        if lower[1..].chars().all(|c| c.is_ascii_digit()) && lower.len() > 1 {
            Directive::Continue
        } else if ["-n", "--adjustment", "--priority"].contains(&flag) {
            if lower.contains('=') || lower != flag { Directive::Continue } else { Directive::ConsumeNext }
        } else if lower.starts_with("-n") && lower.len() > 2 {
            Directive::Continue
        } else {
            Directive::Invalid
        }
    })
}

fn unwrap_nohup(argv: &[String]) -> Option<Vec<String>> {
    scan(argv, &["--"], 0, |token, lower| {
        if !token.starts_with('-') || token == "-" {
            Directive::Stop
        } else if lower == "--help" || lower == "--version" {
            Directive::Continue
        } else {
            Directive::Invalid
        }
    })
}

const TIME_FLAGS: &[&str] =
    &["-a", "--append", "-h", "--help", "-l", "-p", "-q", "--quiet", "-v", "--verbose", "-V", "--version"];
const TIME_VALUE_FLAGS: &[&str] = &["-f", "--format", "-o", "--output"];

fn unwrap_time(argv: &[String]) -> Option<Vec<String>> {
    scan(argv, &["--"], 0, |token, lower| {
        if !token.starts_with('-') || token == "-" {
            return Directive::Stop;
        }
        let flag = option_name(lower);
        if TIME_FLAGS.contains(&flag) {
            Directive::Continue
        } else if TIME_VALUE_FLAGS.contains(&flag) {
            if lower.contains('=') { Directive::Continue } else { Directive::ConsumeNext }
        } else {
            Directive::Invalid
        }
    })
}

/// `time -o FILE` writes a file, which makes `time` a semantic (blocked) wrapper.
fn time_writes_output_file(argv: &[String]) -> bool {
    let mut expects_value = false;
    for token in argv.iter().skip(1).map(|t| t.trim()) {
        if token.is_empty() {
            continue;
        }
        if expects_value {
            expects_value = false;
            continue;
        }
        if token == "--" || !token.starts_with('-') || token == "-" {
            return false;
        }
        let lower = token.to_lowercase();
        let flag = option_name(&lower);
        if flag == "-o" || flag == "--output" {
            return true;
        }
        if TIME_VALUE_FLAGS.contains(&flag) && !lower.contains('=') {
            expects_value = true;
        }
    }
    false
}

fn unwrap_flock(argv: &[String]) -> Option<Vec<String>> {
    const LONG_FLAGS: &[&str] = &["--close", "--exclusive", "--nb", "--no-fork", "--nonblock", "--shared", "--verbose"];
    const LONG_VALUES: &[&str] = &["--conflict-exit-code", "--timeout", "--wait"];
    const SHORT_FLAGS: &[&str] = &["-e", "-F", "-n", "-o", "-s", "-x"];
    let rest = scan(argv, &["--"], 0, |token, lower| {
        if !token.starts_with('-') || token == "-" {
            return Directive::Stop;
        }
        let name = option_name(token);
        let lower_flag = option_name(lower);
        let has_inline = token.contains('=');
        if LONG_FLAGS.contains(&lower_flag) {
            Directive::Continue
        } else if LONG_VALUES.contains(&lower_flag) {
            if has_inline { Directive::Continue } else { Directive::ConsumeNext }
        } else if token.len() > 1 && token[1..].chars().all(|c| "eFnsxo".contains(c)) || SHORT_FLAGS.contains(&name) {
            Directive::Continue
        } else if name == "-E" || name == "-w" {
            if has_inline || token != name { Directive::Continue } else { Directive::ConsumeNext }
        } else {
            Directive::Invalid
        }
    })?;
    // The first remaining token is the lock file; the command follows it.
    let wrapped = rest.get(1)?.trim();
    (!wrapped.is_empty() && (!wrapped.starts_with('-') || wrapped == "-")).then(|| rest[1..].to_vec())
}

/// 2026.9 `env` options; 2026.2 spells the grammar slightly differently (no -C/-P/-S/--argv0).
const ENV_FLAGS: &[&str] = &["-0", "-i", "--ignore-environment", "--null"];
const ENV_VALUE_FLAGS_V9: &[&str] = &[
    "-C",
    "-P",
    "-S",
    "-s",
    "-u",
    "--argv0",
    "--block-signal",
    "--chdir",
    "--default-signal",
    "--ignore-signal",
    "--split-string",
    "--unset",
];
const ENV_VALUE_FLAGS_V2: &[&str] = &[
    "-u",
    "--unset",
    "-c",
    "--chdir",
    "-s",
    "--split-string",
    "--default-signal",
    "--ignore-signal",
    "--block-signal",
];
const ENV_INLINE_PREFIXES_V2: &[&str] = &[
    "-u",
    "-c",
    "-s",
    "--unset=",
    "--chdir=",
    "--split-string=",
    "--default-signal=",
    "--ignore-signal=",
    "--block-signal=",
];

/// What an `env` prelude carries: the command argv and whether options/assignments modify it.
struct EnvPrelude {
    command: Vec<String>,
    uses_modifiers: bool,
}

/// Parses a short/long carrier option token against a grammar; `None` for unknown options.
/// Returns whether the next token is consumed as a value.
fn carrier_option_consumes_next(token: &str, standalone: &[&str], with_value: &[&str]) -> Option<bool> {
    if token.starts_with("--") {
        let name = option_name(token);
        if standalone.contains(&name) {
            return Some(false);
        }
        return with_value.contains(&name).then_some(!token.contains('='));
    }
    let bytes: Vec<char> = token.chars().collect();
    if bytes.len() < 2 || !bytes[1].is_ascii_alphanumeric() {
        return None;
    }
    for (i, c) in bytes.iter().enumerate().skip(1) {
        let name = format!("-{c}");
        if with_value.contains(&name.as_str()) {
            return Some(i == bytes.len() - 1);
        }
        if !standalone.contains(&name.as_str()) {
            return None;
        }
    }
    Some(false)
}

fn parse_env_prelude_v9(argv: &[String], depth: usize) -> Option<EnvPrelude> {
    if depth > 32 || normalize_executable(argv.first()?) != "env" {
        return None;
    }
    let mut uses_modifiers = false;
    let mut idx = 1;
    while idx < argv.len() {
        let token = argv[idx].as_str();
        if token.is_empty() {
            return None;
        }
        if is_env_assignment(token) {
            uses_modifiers = true;
        } else if token == "--" || token == "-" {
            return (idx + 1 < argv.len()).then(|| EnvPrelude { command: argv[idx + 1..].to_vec(), uses_modifiers });
        } else if token.starts_with('-') {
            let consumes = carrier_option_consumes_next(token, ENV_FLAGS, ENV_VALUE_FLAGS_V9)?;
            uses_modifiers = true;
            if is_split_string_option(token) {
                // `env -S 'cmd args'`: the payload is re-split into argv (bounded recursion).
                let (payload, next) =
                    if consumes { (argv.get(idx + 1)?.clone(), idx + 2) } else { (split_inline_value(token), idx + 1) };
                let mut inner = split_shell_args(&payload).filter(|a| !a.is_empty())?;
                inner.extend_from_slice(&argv[next.min(argv.len())..]);
                let mut env_argv = vec!["env".to_string()];
                env_argv.extend(inner.iter().cloned());
                let command = parse_env_prelude_v9(&env_argv, depth + 1).map_or(inner, |p| p.command);
                return Some(EnvPrelude { command, uses_modifiers });
            }
            if consumes {
                idx += 1;
            }
        } else {
            return Some(EnvPrelude { command: argv[idx..].to_vec(), uses_modifiers });
        }
        idx += 1;
    }
    None
}

fn is_split_string_option(token: &str) -> bool {
    if token.starts_with("--") {
        return option_name(token) == "--split-string";
    }
    // In a short cluster the first value-taking option decides; `-S`/`-s` split.
    token[1..]
        .chars()
        .find(|c| ENV_VALUE_FLAGS_V9.contains(&format!("-{c}").as_str()))
        .is_some_and(|c| c == 'S' || c == 's')
}

fn split_inline_value(token: &str) -> String {
    if let Some((_, v)) = token.split_once('=') {
        return v.to_string();
    }
    let pos = token.find(['S', 's']).map_or(token.len(), |p| p + 1);
    token[pos..].to_string()
}

fn unwrap_env_v2(argv: &[String]) -> Option<Vec<String>> {
    scan(argv, &["--", "-"], 0, |token, lower| {
        if is_env_assignment(token) {
            return Directive::Continue;
        }
        if !token.starts_with('-') || token == "-" {
            return Directive::Stop;
        }
        let flag = lower.split('=').next().unwrap_or(lower);
        if ENV_FLAGS.contains(&flag) {
            Directive::Continue
        } else if ENV_VALUE_FLAGS_V2.contains(&flag) {
            if lower.contains('=') { Directive::Continue } else { Directive::ConsumeNext }
        } else if ENV_INLINE_PREFIXES_V2.iter().any(|p| lower.starts_with(p)) {
            Directive::Continue
        } else {
            Directive::Invalid
        }
    })
}

/// 2026.2 `envInvocationUsesModifiers`: any option or assignment before the command.
fn env_uses_modifiers_v2(argv: &[String]) -> bool {
    for token in argv.iter().skip(1).map(|t| t.trim()) {
        if token.is_empty() {
            continue;
        }
        if token == "--" || token == "-" || !token.starts_with('-') && !is_env_assignment(token) {
            return false;
        }
        return true;
    }
    false
}

/// `unwrapKnownDispatchWrapperInvocation` plus the "semantic usage" check folded in:
/// returns the unwrapped argv and whether the wrapper is transparent here.
fn unwrap_dispatch(argv: &[String], version: OpenClawVersion) -> (Unwrap, bool) {
    let Some(token0) = argv.first().map(|t| t.trim()).filter(|t| !t.is_empty()) else {
        return (Unwrap::NotWrapper, true);
    };
    let name = normalize_executable(token0);
    let Some(kind) = wrapper_kind(&name, version) else {
        return (Unwrap::NotWrapper, true);
    };
    let v9 = version == OpenClawVersion::V2026_9;
    let (unwrapped, transparent) = match kind {
        WrapperKind::Blocked => return (Unwrap::Blocked(name), false),
        WrapperKind::Grammar(g) => (unwrap_with_grammar(argv, &g), true),
        WrapperKind::Nice => (unwrap_nice(argv), true),
        WrapperKind::Nohup => (unwrap_nohup(argv), true),
        WrapperKind::Time => (unwrap_time(argv), !time_writes_output_file(argv)),
        WrapperKind::Flock => (unwrap_flock(argv), true),
        WrapperKind::Env if v9 => {
            let prelude = parse_env_prelude_v9(argv, 0);
            let transparent = prelude.as_ref().is_some_and(|p| !p.uses_modifiers);
            (prelude.map(|p| p.command), transparent)
        }
        WrapperKind::Env => (unwrap_env_v2(argv), !env_uses_modifiers_v2(argv)),
    };
    match unwrapped {
        Some(argv) => (Unwrap::Unwrapped { wrapper: name, argv }, transparent),
        None => (Unwrap::Blocked(name), false),
    }
}

/// Whether `token` names a dispatch wrapper at all (transparent or blocked).
pub fn is_dispatch_wrapper(token: &str, version: OpenClawVersion) -> bool {
    wrapper_kind(&normalize_executable(token), version).is_some()
}

/// `unwrapKnownDispatchWrapperInvocation` without the semantic check (used by risk detection).
pub fn unwrap_dispatch_syntax(argv: &[String], version: OpenClawVersion) -> Unwrap {
    unwrap_dispatch(argv, version).0
}

/// `command`/`builtin`/`exec` carriers (2026.9, POSIX). `command -p` and unparseable forms block.
fn unwrap_shell_argv_carrier(argv: &[String]) -> Unwrap {
    let Some(token0) = argv.first().map(|t| t.trim()) else {
        return Unwrap::NotWrapper;
    };
    if !["builtin", "command", "exec"].contains(&token0) {
        return Unwrap::NotWrapper;
    }
    let blocked = || Unwrap::Blocked(token0.to_string());
    if token0 == "command" {
        for token in argv.iter().skip(1).map(|t| t.trim()) {
            if token == "--" || !token.starts_with('-') {
                break;
            }
            if token.len() > 1 && !token[1..].starts_with('-') && token[1..].contains('p') {
                return blocked();
            }
        }
    }
    match carried_argv(argv) {
        Some(inner) if !inner.is_empty() => Unwrap::Unwrapped { wrapper: token0.to_string(), argv: inner },
        _ => blocked(),
    }
}

/// `resolveCarrierCommandArgv` with exec included: the argv a carrier (`env`, `command`, `builtin`,
/// `sudo`, `doas`, `exec`) would run, or `None` when it runs nothing recognizable.
pub fn carried_argv(argv: &[String]) -> Option<Vec<String>> {
    let executable = normalize_executable(argv.first()?);
    match executable.as_str() {
        "env" => parse_env_prelude_v9(argv, 0).map(|p| p.command),
        "command" | "builtin" => {
            for (i, token) in argv.iter().enumerate().skip(1) {
                if token == "--" {
                    return Some(argv[i + 1..].to_vec());
                }
                if !token.starts_with('-') {
                    return Some(argv[i..].to_vec());
                }
                if option_name(token) != "-p" {
                    return None;
                }
            }
            None
        }
        "sudo" | "doas" => carried_by_sudo_like(argv, &executable),
        "exec" => carried_by_options(argv, &["-c", "-l"], &["-a"]),
        _ => None,
    }
}

fn carried_by_options(argv: &[String], standalone: &[&str], with_value: &[&str]) -> Option<Vec<String>> {
    let mut idx = 1;
    while idx < argv.len() {
        let token = argv[idx].as_str();
        if token == "--" {
            return Some(argv[idx + 1..].to_vec());
        }
        if !token.starts_with('-') {
            return Some(argv[idx..].to_vec());
        }
        if carrier_option_consumes_next(token, standalone, with_value)? {
            idx += 1;
        }
        idx += 1;
    }
    None
}

const SUDO_STANDALONE: &[&str] = &[
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
const SUDO_WITH_VALUE: &[&str] = &[
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

fn carried_by_sudo_like(argv: &[String], executable: &str) -> Option<Vec<String>> {
    let inner = if executable == "sudo" {
        carried_by_options(argv, SUDO_STANDALONE, SUDO_WITH_VALUE)?
    } else {
        carried_by_options(argv, &["-L", "-n", "-s"], &["-a", "-C", "-u"])?
    };
    // sudo accepts `VAR=value` before the command.
    let skip = if executable == "sudo" { inner.iter().take_while(|t| is_env_assignment(t)).count() } else { 0 };
    (skip < inner.len()).then(|| inner[skip..].to_vec())
}

/// busybox/toybox: unwrapped only when the applet is itself a shell wrapper.
pub fn unwrap_multiplexer(argv: &[String]) -> Unwrap {
    let Some(token0) = argv.first().map(|t| t.trim()).filter(|t| !t.is_empty()) else {
        return Unwrap::NotWrapper;
    };
    let name = normalize_executable(token0);
    if name != "busybox" && name != "toybox" {
        return Unwrap::NotWrapper;
    }
    let applet_index = if argv.get(1).map(|t| t.trim()) == Some("--") { 2 } else { 1 };
    match argv.get(applet_index).map(|t| t.trim()) {
        Some(applet) if is_shell_wrapper_executable(applet) => {
            Unwrap::Unwrapped { wrapper: name, argv: argv[applet_index..].to_vec() }
        }
        _ => Unwrap::Blocked(name),
    }
}

/// The result of stripping wrappers from a segment's argv (`resolveExecWrapperTrustPlan`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustPlan {
    /// The argv that actually runs.
    pub argv: Vec<String>,
    /// The argv whose executable policy matches against (stays at busybox for `busybox sh -c`).
    pub policy_argv: Vec<String>,
    pub wrapper_chain: Vec<String>,
    pub policy_blocked: bool,
    pub blocked_wrapper: Option<String>,
}

const MAX_WRAPPER_DEPTH: usize = 4;

/// Strips transparent wrappers up to depth 4; semantic or unknown-option wrappers block.
pub fn trust_plan(argv: &[String], version: OpenClawVersion) -> TrustPlan {
    let mut current = argv.to_vec();
    let mut policy_argv = argv.to_vec();
    let mut chain = Vec::new();
    let mut saw_multiplexer = false;
    let blocked = |argv: Vec<String>, policy_argv: Vec<String>, chain: Vec<String>, wrapper: String| TrustPlan {
        argv,
        policy_argv,
        wrapper_chain: chain,
        policy_blocked: true,
        blocked_wrapper: Some(wrapper),
    };
    while chain.len() < MAX_WRAPPER_DEPTH {
        match unwrap_dispatch(&current, version) {
            (Unwrap::Blocked(w), _) => return blocked(current.clone(), current, chain, w),
            (Unwrap::Unwrapped { wrapper, argv: inner }, transparent) if !inner.is_empty() => {
                chain.push(wrapper.clone());
                if !transparent {
                    return blocked(current.clone(), current, chain, wrapper);
                }
                current = inner;
                if !saw_multiplexer {
                    policy_argv = current.clone();
                }
                continue;
            }
            _ => {}
        }
        if version == OpenClawVersion::V2026_2 {
            break;
        }
        match unwrap_shell_argv_carrier(&current) {
            Unwrap::Blocked(w) => return blocked(current, policy_argv, chain, w),
            Unwrap::Unwrapped { wrapper, argv: inner } => {
                chain.push(wrapper);
                current = inner;
                if !saw_multiplexer {
                    policy_argv = current.clone();
                }
                continue;
            }
            Unwrap::NotWrapper => {}
        }
        match unwrap_multiplexer(&current) {
            Unwrap::Blocked(w) => return blocked(current, policy_argv, chain, w),
            Unwrap::Unwrapped { wrapper, argv: inner } => {
                chain.push(wrapper);
                if !saw_multiplexer {
                    policy_argv = current.clone();
                    saw_multiplexer = true;
                }
                current = inner;
                continue;
            }
            Unwrap::NotWrapper => break,
        }
    }
    if chain.len() >= MAX_WRAPPER_DEPTH {
        let overflow = match unwrap_dispatch(&current, version).0 {
            Unwrap::NotWrapper if version == OpenClawVersion::V2026_9 => match unwrap_shell_argv_carrier(&current) {
                Unwrap::NotWrapper => unwrap_multiplexer(&current),
                other => other,
            },
            other => other,
        };
        match overflow {
            Unwrap::Blocked(w) | Unwrap::Unwrapped { wrapper: w, .. } => {
                return blocked(current, policy_argv, chain, w);
            }
            Unwrap::NotWrapper => {}
        }
    }
    TrustPlan { argv: current, policy_argv, wrapper_chain: chain, policy_blocked: false, blocked_wrapper: None }
}

// ---------------------------------------------------------------------------------------------
// Shell wrappers (2026.9)

const POSIX_SHELLS: &[&str] =
    &["ash", "bash", "csh", "dash", "elvish", "fish", "ksh", "mksh", "nu", "osh", "sh", "tcsh", "xonsh", "yash", "zsh"];
/// POSIX shells whose `-c` payload OpenClaw parses; the others are opaque.
pub const PARSEABLE_SHELLS: &[&str] = &["ash", "bash", "dash", "fish", "ksh", "mksh", "sh", "yash", "zsh"];
const OPAQUE_STARTUP_SHELLS: &[&str] = &["csh", "osh", "tcsh"];
const POSIX_INLINE_FLAGS: &[&str] = &["-lc", "-c", "--command", "--commands", "--cmdline"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum ShellKind {
    Posix,
    Cmd,
    PowerShell,
}

fn shell_kind(name: &str) -> Option<ShellKind> {
    if POSIX_SHELLS.contains(&name) {
        Some(ShellKind::Posix)
    } else if name == "cmd" {
        Some(ShellKind::Cmd)
    } else if name == "powershell" || name == "pwsh" {
        Some(ShellKind::PowerShell)
    } else {
        None
    }
}

/// `isShellWrapperExecutable`: a POSIX shell, cmd or PowerShell name.
pub fn is_shell_wrapper_executable(token: &str) -> bool {
    shell_kind(&normalize_executable(token)).is_some()
}

/// `sh`, `bash`, … whose payload can be parsed.
pub fn is_parseable_shell(token: &str) -> bool {
    PARSEABLE_SHELLS.contains(&normalize_executable(token).as_str())
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

fn advance_option_scan(token: &str) -> usize {
    let combined =
        if token.len() >= 2 && (token.starts_with('-') || token.starts_with('+')) && !token[1..].contains('-') {
            count_o_options(token)
        } else {
            0
        };
    if combined > 0 {
        1 + combined
    } else if ["--init-file", "--rcfile", "-O", "-o", "+O", "+o"].contains(&token) {
        2
    } else {
        1
    }
}

/// Where a POSIX shell's inline command is: (payload, index of the payload token).
pub fn posix_inline_command(argv: &[String]) -> Option<(String, usize)> {
    let mut i = 1;
    while i < argv.len() {
        let token = argv[i].trim();
        if token.is_empty() {
            i += 1;
            continue;
        }
        if token == "--" {
            break;
        }
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
        if !token.starts_with('-') && !token.starts_with('+') {
            break;
        }
        i += advance_option_scan(token);
    }
    None
}

fn is_short_option_with(token: &str, option: char) -> bool {
    token.len() >= 2 && token.starts_with('-') && !token[1..].contains('-') && token[1..].contains(option)
}

/// A login (`-l`, `--login`) or interactive (`-i`) option before the inline command flag.
pub fn has_startup_before_inline(argv: &[String]) -> bool {
    let mut saw = false;
    let mut i = 1;
    while i < argv.len() {
        let token = argv[i].trim();
        if token.is_empty() {
            i += 1;
            continue;
        }
        if token == "--" {
            return false;
        }
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
        if !token.starts_with('-') && !token.starts_with('+') {
            return false;
        }
        i += advance_option_scan(token);
    }
    false
}

fn cmd_inline_command(argv: &[String]) -> Option<String> {
    let idx = argv.iter().position(|t| ["/c", "/k", "-c", "-k"].contains(&t.trim().to_lowercase().as_str()))?;
    let cmd = argv[idx + 1..].join(" ").trim().to_string();
    (!cmd.is_empty()).then_some(cmd)
}

fn powershell_inline_command(argv: &[String]) -> Option<String> {
    const VALUE_OPTIONS: &[&str] = &[
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
    let mut i = 1;
    while i < argv.len() {
        let token = argv[i].trim();
        let lower = token.to_lowercase();
        let bare = lower.trim_start_matches(['-', '/']);
        if token.is_empty() {
            i += 1;
            continue;
        }
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
        if VALUE_OPTIONS.contains(&lower.as_str()) {
            i += 2;
            continue;
        }
        if !token.starts_with('-') && !token.starts_with('/') {
            break;
        }
        i += 1;
    }
    None
}

/// The shell invocation behind dispatch wrappers and busybox (`resolveShellWrapperCandidate`).
fn shell_candidate(argv: &[String], depth: usize) -> Option<Vec<String>> {
    if depth > MAX_WRAPPER_DEPTH || argv.first().is_none_or(|t| t.trim().is_empty()) {
        return None;
    }
    match unwrap_dispatch(argv, OpenClawVersion::V2026_9).0 {
        Unwrap::Blocked(_) => return None,
        Unwrap::Unwrapped { argv: inner, .. } => return shell_candidate(&inner, depth + 1),
        Unwrap::NotWrapper => {}
    }
    match unwrap_multiplexer(argv) {
        Unwrap::Blocked(_) => None,
        Unwrap::Unwrapped { argv: inner, .. } => shell_candidate(&inner, depth + 1),
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

/// `extractShellWrapperCommand` for 2026.9: `None` when argv is not a shell wrapper with a payload.
pub fn shell_wrapper(argv: &[String]) -> Option<ShellWrapper> {
    let candidate = shell_candidate(argv, 0)?;
    let name = normalize_executable(&candidate[0]);
    let payload = match shell_kind(&name)? {
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
    let startup = shell_kind(&name) == Some(ShellKind::Posix) && has_startup_before_inline(&candidate);
    let bindable = (!fish_attached && !startup).then(|| payload.clone());
    Some(ShellWrapper { argv: candidate, payload, bindable })
}

/// POSIX-ish argv splitting (`splitShellArgs`): quotes and backslashes; `None` when unterminated.
pub fn split_shell_args(raw: &str) -> Option<Vec<String>> {
    let mut tokens = Vec::new();
    let mut buf = String::new();
    let mut in_token = false;
    let mut chars = raw.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(ch) = chars.next() {
        match quote {
            Some('\'') => {
                if ch == '\'' {
                    quote = None;
                } else {
                    buf.push(ch);
                }
            }
            Some(_) => match ch {
                '"' => quote = None,
                '\\' if matches!(chars.peek(), Some('\\' | '"' | '$' | '`')) => buf.push(chars.next()?),
                _ => buf.push(ch),
            },
            None => match ch {
                '\'' | '"' => {
                    quote = Some(ch);
                    in_token = true;
                }
                '\\' => {
                    buf.push(chars.next()?);
                    in_token = true;
                }
                c if c.is_whitespace() => {
                    if in_token {
                        tokens.push(std::mem::take(&mut buf));
                        in_token = false;
                    }
                }
                c => {
                    buf.push(c);
                    in_token = true;
                }
            },
        }
    }
    if quote.is_some() {
        return None;
    }
    if in_token {
        tokens.push(buf);
    }
    Some(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        split_shell_args(s).unwrap()
    }

    #[test]
    fn transparent_wrappers_unwrap() {
        let v9 = OpenClawVersion::V2026_9;
        assert_eq!(trust_plan(&argv("nice -n 5 ls"), v9).argv, argv("ls"));
        assert_eq!(trust_plan(&argv("timeout 5 ls -la"), v9).argv, argv("ls -la"));
        assert_eq!(trust_plan(&argv("command ls"), v9).argv, argv("ls"));
        assert_eq!(trust_plan(&argv("exec ls"), v9).argv, argv("ls"));
        assert_eq!(trust_plan(&argv("env ls"), v9).argv, argv("ls"));
        assert!(trust_plan(&argv("env FOO=1 ls"), v9).policy_blocked);
        assert!(trust_plan(&argv("sudo ls"), v9).policy_blocked);
        assert!(trust_plan(&argv("command -p ls"), v9).policy_blocked);
        assert!(trust_plan(&argv("nice --bogus ls"), v9).policy_blocked);
        assert!(!trust_plan(&argv("time ls"), v9).policy_blocked);
        assert!(trust_plan(&argv("time -o out ls"), v9).policy_blocked);
        assert!(trust_plan(&argv("busybox ls"), v9).policy_blocked);
    }

    #[test]
    fn legacy_wrappers_differ() {
        let v2 = OpenClawVersion::V2026_2;
        assert_eq!(trust_plan(&argv("command ls"), v2).argv, argv("command ls"));
        assert!(trust_plan(&argv("env FOO=1 ls"), v2).policy_blocked);
        assert_eq!(trust_plan(&argv("env ls"), v2).argv, argv("ls"));
        assert!(!trust_plan(&argv("flock x ls"), v2).policy_blocked);
    }

    #[test]
    fn shell_wrappers_and_payloads() {
        let w = shell_wrapper(&argv("sh -c 'ls -la'")).unwrap();
        assert_eq!(w.payload, "ls -la");
        assert_eq!(w.bindable.as_deref(), Some("ls -la"));
        let login = shell_wrapper(&argv("bash -lc ls")).unwrap();
        assert_eq!(login.bindable, None);
        assert_eq!(shell_wrapper(&argv("bash ./x.sh")), None);
        assert_eq!(shell_wrapper(&argv("busybox sh -c ls")).unwrap().payload, "ls");
        assert_eq!(posix_inline_command(&argv("bash -xc 'echo hi'")).unwrap().0, "echo hi");
    }

    #[test]
    fn shell_args_split() {
        assert_eq!(argv(r#"a 'b c' "d\"e" f\ g"#), vec!["a", "b c", "d\"e", "f g"]);
        assert_eq!(split_shell_args("'open"), None);
    }
}
