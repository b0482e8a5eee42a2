//! `env`: runs the command after its options and `NAME=value` assignments, which make it a
//! modifier (not transparent). The release's data says how it reads them (`wrappers.env`):
//! 2026.9's `parseEnvInvocationPrelude` (clusters, `-S` payloads re-split into the command) or
//! 2026.2's dispatch-wrapper scan.

use crate::exec::argv::scan::{AnyFlag, CarrierOptions, Empty, Grammar, Item, Opt, Walk, scan};
use crate::exec::argv::{EmptyWords, is_env_assignment, normalize_executable, split_shell_args};
use crate::release::exec::{EnvReading, EnvWrapper, OptionTable};

/// How deep `env -S` payloads are re-split (`MAX_ENV_SPLIT_PAYLOAD_DEPTH`).
const MAX_SPLIT_DEPTH: usize = 32;

/// `--` and `-` end env's options.
const ENV_WALK: Walk = Walk { trim: false, empty: Empty::Report, end_of_options: &["--", "-"] };

/// The command `env` runs and whether it is transparent; `None` when its options do not parse.
pub fn unwrap(argv: &[String], env: &EnvWrapper) -> Option<(Vec<String>, bool)> {
    match env.reading {
        EnvReading::Prelude => prelude(argv, env, 0).map(|p| (p.command, !p.uses_modifiers)),
        EnvReading::WrapperScan => wrapper_scan(argv, &env.options).map(|c| (c, !uses_modifiers(argv, &env.options))),
    }
}

/// What an `env` prelude carries: the command argv and whether options or assignments modify it.
pub struct Prelude {
    pub command: Vec<String>,
    pub uses_modifiers: bool,
}

/// Assignments read as options beside the release's option grammar.
struct WithAssignments<G>(G);

impl<G: Grammar> Grammar for WithAssignments<G> {
    fn is_option(&self, token: &str) -> bool {
        is_env_assignment(token) || token.starts_with('-')
    }

    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        if is_env_assignment(token) { Opt::Flag } else { self.0.option(token) }
    }
}

/// `parseEnvInvocationPrelude`: tokens as written; an empty one refuses the whole invocation.
pub fn prelude(argv: &[String], env: &EnvWrapper, depth: usize) -> Option<Prelude> {
    if depth > MAX_SPLIT_DEPTH || normalize_executable(argv.first()?) != "env" {
        return None;
    }
    let grammar = WithAssignments(CarrierOptions { flags: &env.options.flags, value_flags: &env.options.value_flags });
    let mut uses_modifiers = false;
    for item in scan(argv, 1, ENV_WALK, &grammar) {
        match item {
            Item::Empty { .. } | Item::Option { opt: Opt::Unknown, .. } => return None,
            Item::EndOfOptions { index } => {
                return (index + 1 < argv.len())
                    .then(|| Prelude { command: argv[index + 1..].to_vec(), uses_modifiers });
            }
            Item::Operand { index, .. } => return Some(Prelude { command: argv[index..].to_vec(), uses_modifiers }),
            Item::Option { token, opt, value, next, .. } => {
                uses_modifiers = true;
                if !is_env_assignment(token) && is_split_string(token, env) {
                    // `env -S 'cmd args'`: the payload is re-split into argv (bounded recursion).
                    let payload = if let Opt::Takes(_) = opt { value? } else { inline_payload(token, env) };
                    let mut inner = split_shell_args(payload, EmptyWords::Keep).filter(|a| !a.is_empty())?;
                    inner.extend_from_slice(&argv[next.min(argv.len())..]);
                    let mut env_argv = vec!["env".to_string()];
                    env_argv.extend(inner.iter().cloned());
                    let command = prelude(&env_argv, env, depth + 1).map_or(inner, |p| p.command);
                    return Some(Prelude { command, uses_modifiers });
                }
            }
        }
    }
    None
}

/// Whether an option token splits a string (`--split-string`, or a short cluster whose first
/// value-taking option is `-S`/`-s`).
fn is_split_string(token: &str, env: &EnvWrapper) -> bool {
    let splits = |name: &str| env.split_string.iter().any(|s| s == name);
    if token.starts_with("--") {
        return splits(crate::exec::argv::option_name(token));
    }
    let takes_value = |name: &String| env.options.value_flags.contains(name);
    token[1..].chars().map(|c| format!("-{c}")).find(takes_value).is_some_and(|name| splits(&name))
}

/// The payload written in the option token: after `=`, else after the split option's letter.
fn inline_payload<'t>(token: &'t str, env: &EnvWrapper) -> &'t str {
    if let Some((_, value)) = token.split_once('=') {
        return value;
    }
    let splits = |c: char| {
        env.split_string
            .iter()
            .any(|s| s.strip_prefix('-').is_some_and(|name| name.starts_with(c) && name.len() == c.len_utf8()))
    };
    token.find(splits).map_or("", |at| &token[at + 1..])
}

/// 2026.2: env as a dispatch wrapper, `--` and `-` as separators, assignments passed over.
fn wrapper_scan(argv: &[String], options: &OptionTable) -> Option<Vec<String>> {
    let walk = Walk { end_of_options: &["--", "-"], ..Walk::WRAPPER };
    for item in scan(argv, 1, walk, &WithAssignments(options)) {
        let start = match item {
            Item::Option { opt: Opt::Unknown, .. } | Item::Option { complete: false, .. } => return None,
            Item::Option { .. } | Item::Empty { .. } => continue,
            Item::EndOfOptions { index } => index + 1,
            Item::Operand { index, .. } => index,
        };
        return argv.get(start).map(|_| argv[start..].to_vec());
    }
    None
}

/// 2026.2 `envInvocationUsesModifiers`: an option or assignment before the command.
fn uses_modifiers(argv: &[String], options: &OptionTable) -> bool {
    let walk = Walk { end_of_options: &["--", "-"], ..Walk::WRAPPER };
    scan(argv, 1, walk, &WithAssignments(options)).next().is_some_and(|item| matches!(item, Item::Option { .. }))
}

/// Whether an `env` invocation splits a string into its command (`env -S …`, `--split-string`,
/// any short cluster with `S`/`s`), which makes it a command carrier (`detectCommandCarrierArgv`).
pub fn splits_string(argv: &[String]) -> bool {
    for item in scan(argv, 1, ENV_WALK, &AnyFlag) {
        let Item::Option { token, .. } = item else { return false };
        if token.starts_with("--split-string") || (!token.starts_with("--") && token[1..].contains(['S', 's'])) {
            return true;
        }
    }
    false
}
