//! Package-manager exec unwrapping for allowlist targets (2026.9, spec §3.8):
//! `npx tool`, `npm exec tool`, `pnpm dlx tool`, `yarn exec tool` are matched as `tool`. Each
//! manager's options are a `ManagerOptions` table read by the one option scanner; a manager
//! OpenClaw learns to see through gets a table and a branch in `classify`.

use crate::exec::argv::scan::{Empty, Grammar, Item, Opt, Walk, scan};
use crate::exec::argv::shells::shell_wrapper;
use crate::exec::argv::wrappers::trust_plan;
use crate::exec::argv::{normalize_executable, option_name};
use crate::release::exec::WrapperRules;

/// A package manager's options: which take a value and which are flags, those that change the
/// package context (a different directory, package or workspace) listed apart.
struct ManagerOptions {
    with_value: &'static [&'static str],
    case_sensitive_with_value: &'static [&'static str],
    flags: &'static [&'static str],
    context_with_value: &'static [&'static str],
    context_flags: &'static [&'static str],
}

/// `npx` and `npm exec`'s own options.
const NPM_DIRECT: ManagerOptions = ManagerOptions {
    with_value: &["--loglevel"],
    case_sensitive_with_value: &[],
    flags: &["--no", "--quiet", "--yes", "-q", "-y"],
    context_with_value: &[
        "--cache",
        "--package",
        "--prefix",
        "--script-shell",
        "--userconfig",
        "--workspace",
        "-p",
        "-w",
    ],
    context_flags: &["--ws", "--workspaces"],
};
const NPM: ManagerOptions = ManagerOptions { case_sensitive_with_value: &["-C"], ..NPM_DIRECT };
const PNPM: ManagerOptions = ManagerOptions {
    with_value: &["--reporter", "--stream", "--test-pattern", "--workspace-concurrency"],
    case_sensitive_with_value: &["-C"],
    flags: &["--aggregate-output", "--color", "--parallel", "--silent", "-s"],
    context_with_value: &["--allow-build", "--config", "--dir", "--filter", "--package", "-p"],
    context_flags: &["--recursive", "--workspace-root", "-r", "-w"],
};
/// `pnpm dlx`'s options: pnpm's without `-C`.
const PNPM_DLX: ManagerOptions = ManagerOptions { case_sensitive_with_value: &[], ..PNPM };
/// yarn's options before its subcommand, when looking for `exec`/`dlx`.
const YARN_TOP: ManagerOptions = ManagerOptions {
    with_value: &["--cwd"],
    case_sensitive_with_value: &[],
    flags: &["--immutable", "--silent", "-s"],
    context_with_value: &[],
    context_flags: &[],
};
const YARN: ManagerOptions = ManagerOptions {
    with_value: &["--package", "-p"],
    flags: &["--immutable", "--silent", "-s", "--quiet", "-q"],
    context_with_value: &["--cwd"],
    ..YARN_TOP
};
const YARN_DLX: ManagerOptions = ManagerOptions {
    with_value: &[],
    case_sensitive_with_value: &[],
    flags: &["--quiet", "-q"],
    context_with_value: &["--package", "-p"],
    context_flags: &[],
};

const PNPM_SCRIPT_RUN: &[&str] = &["restart", "run", "start", "stop", "test"];
const PNPM_BUILTINS: &[&str] = &[
    "add", "audit", "bin", "config", "dedupe", "deploy", "help", "import", "init", "install", "licenses", "link",
    "list", "outdated", "patch", "prune", "publish", "rebuild", "remove", "root", "server", "store", "unlink",
    "update", "view", "why",
];
const YARN_BUILTINS: &[&str] = &[
    "add",
    "audit",
    "autoclean",
    "bin",
    "cache",
    "check",
    "config",
    "create",
    "dedupe",
    "generate-lock-entry",
    "global",
    "help",
    "import",
    "info",
    "init",
    "install",
    "licenses",
    "link",
    "list",
    "login",
    "logout",
    "outdated",
    "owner",
    "pack",
    "policies",
    "prune",
    "publish",
    "remove",
    "self-update",
    "tag",
    "team",
    "unlink",
    "upgrade",
    "upgrade-interactive",
    "version",
    "versions",
    "why",
    "workspace",
];

impl ManagerOptions {
    fn takes_value(&self, name: &str, lower: &str) -> bool {
        self.case_sensitive_with_value.contains(&name)
            || self.with_value.contains(&lower)
            || self.context_with_value.contains(&lower)
    }

    fn is_flag(&self, lower: &str) -> bool {
        self.flags.contains(&lower) || self.context_flags.contains(&lower)
    }

    fn changes_context(&self, name: &str, lower: &str) -> bool {
        self.context_with_value.contains(&lower)
            || self.context_flags.contains(&lower)
            || (name == "-C" && self.case_sensitive_with_value.contains(&"-C"))
    }
}

impl Grammar for ManagerOptions {
    fn is_option(&self, token: &str) -> bool {
        token.starts_with('-')
    }

    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        let name = option_name(token);
        let lower = name.to_lowercase();
        if self.takes_value(name, &lower) {
            token.split_once('=').map_or(Opt::Takes(1), |(_, value)| Opt::Attached(value))
        } else if self.is_flag(&lower) {
            Opt::Flag
        } else {
            Opt::Unknown
        }
    }
}

/// Trimmed tokens, empty ones passed over; `--` is read by each caller.
const MANAGER_WALK: Walk = Walk { trim: true, empty: Empty::Skip, end_of_options: &[] };

/// What `--` does where a command is looked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Terminator {
    Skip,
    Stop,
    Reject,
}

fn first_non_option(argv: &[String], start: usize, g: &ManagerOptions, terminator: Terminator) -> Option<usize> {
    for item in scan(argv, start, MANAGER_WALK, g) {
        match item {
            Item::Option { index, token: "--", .. } => match terminator {
                Terminator::Reject => return None,
                Terminator::Stop => return (index + 1 < argv.len()).then_some(index + 1),
                Terminator::Skip => {}
            },
            Item::Operand { index, .. } => return Some(index),
            Item::Option { opt: Opt::Unknown, .. } => return None,
            _ => {}
        }
    }
    None
}

/// How far [`has_context_option`] looks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ContextScope {
    /// The leading options: up to the first operand or unknown option.
    Leading,
    /// Everything before `--`.
    BeforeTerminator,
}

fn has_context_option(argv: &[String], start: usize, g: &ManagerOptions, scope: ContextScope) -> bool {
    let leading = scope == ContextScope::Leading;
    for item in scan(argv, start, MANAGER_WALK, g) {
        match item {
            Item::Option { token: "--", .. } if leading => {}
            Item::Option { token: "--", .. } => return false,
            Item::Option { token, opt, .. } => {
                let name = option_name(token);
                if g.changes_context(name, &name.to_lowercase()) {
                    return true;
                }
                if opt == Opt::Unknown && leading {
                    return false;
                }
            }
            Item::Operand { .. } if leading => return false,
            _ => {}
        }
    }
    false
}

fn manager(token: &str) -> String {
    let name = normalize_executable(token);
    for suffix in [".cjs", ".mjs", ".js"] {
        if let Some(stripped) = name.strip_suffix(suffix) {
            return stripped.to_string();
        }
    }
    name
}

enum Invocation {
    Unwrapped(Vec<String>),
    UnsafeExec,
    NotExec,
    NotPackageManager,
}

fn tail_after(argv: &[String], idx: usize) -> Vec<String> {
    let tail = &argv[idx + 1..];
    if tail.first().map(String::as_str) == Some("--") { tail[1..].to_vec() } else { tail.to_vec() }
}

fn first_subcommand(argv: &[String], g: &ManagerOptions) -> Option<String> {
    first_non_option(argv, 1, g, Terminator::Skip).map(|i| argv[i].to_lowercase())
}

fn contains_any(argv: &[String], words: &[&str]) -> bool {
    argv.iter().skip(1).any(|t| words.contains(&t.to_lowercase().as_str()))
}

fn classify(argv: &[String]) -> Invocation {
    let Some(first) = argv.first() else {
        return Invocation::NotPackageManager;
    };
    let non_empty = |v: Vec<String>| (!v.is_empty()).then_some(v);
    match manager(first).as_str() {
        "npm" => {
            let unwrapped = first_non_option(argv, 1, &NPM, Terminator::Reject)
                .filter(|&i| ["exec", "x"].contains(&argv[i].trim()))
                .and_then(|i| {
                    let tail = &argv[i + 1..];
                    if tail.first().map(String::as_str) == Some("--") {
                        (tail.len() > 1).then(|| tail[1..].to_vec())
                    } else {
                        first_non_option(argv, i + 1, &NPM_DIRECT, Terminator::Reject).map(|j| argv[j..].to_vec())
                    }
                });
            if let Some(u) = unwrapped {
                return Invocation::Unwrapped(u);
            }
            match first_subcommand(argv, &NPM) {
                Some(s) if s == "exec" || s == "x" => Invocation::UnsafeExec,
                None if contains_any(argv, &["exec", "x"]) => Invocation::UnsafeExec,
                _ => Invocation::NotExec,
            }
        }
        "npx" | "bunx" => match first_non_option(argv, 1, &NPM_DIRECT, Terminator::Reject) {
            Some(i) => Invocation::Unwrapped(argv[i..].to_vec()),
            None => Invocation::UnsafeExec,
        },
        "pnpm" => {
            let unwrapped = first_non_option(argv, 1, &PNPM, Terminator::Skip).and_then(|i| match argv[i].trim() {
                "exec" => {
                    let tail = tail_after(argv, i);
                    let first = tail.first().map(|t| option_name(t).to_lowercase());
                    if matches!(first.as_deref(), Some("-c" | "--shell-mode")) { None } else { non_empty(tail) }
                }
                "dlx" => first_non_option(argv, i + 1, &PNPM_DLX, Terminator::Stop).map(|j| argv[j..].to_vec()),
                "node" => Some(std::iter::once("node".to_string()).chain(tail_after(argv, i)).collect()),
                _ => None,
            });
            if let Some(u) = unwrapped {
                return Invocation::Unwrapped(u);
            }
            match first_subcommand(argv, &PNPM) {
                Some(s) if ["exec", "dlx", "node"].contains(&s.as_str()) => Invocation::UnsafeExec,
                Some(s) if !PNPM_SCRIPT_RUN.contains(&s.as_str()) && !PNPM_BUILTINS.contains(&s.as_str()) => {
                    Invocation::UnsafeExec
                }
                None if contains_any(argv, &["exec", "dlx", "node"]) => Invocation::UnsafeExec,
                _ => Invocation::NotExec,
            }
        }
        "yarn" => {
            let unwrapped = first_non_option(argv, 1, &YARN_TOP, Terminator::Skip).and_then(|i| match argv[i].trim() {
                "exec" => non_empty(tail_after(argv, i)),
                "dlx" => first_non_option(argv, i + 1, &YARN_DLX, Terminator::Stop).map(|j| argv[j..].to_vec()),
                _ => None,
            });
            if let Some(u) = unwrapped {
                return Invocation::Unwrapped(u);
            }
            match first_subcommand(argv, &YARN) {
                Some(s) if s == "exec" || s == "dlx" || s == "run" || !YARN_BUILTINS.contains(&s.as_str()) => {
                    Invocation::UnsafeExec
                }
                None if contains_any(argv, &["exec", "dlx"]) => Invocation::UnsafeExec,
                _ => Invocation::NotExec,
            }
        }
        _ => Invocation::NotPackageManager,
    }
}

fn has_context_options(argv: &[String]) -> bool {
    match manager(&argv[0]).as_str() {
        "npm" => {
            has_context_option(argv, 1, &NPM, ContextScope::Leading)
                || first_non_option(argv, 1, &NPM, Terminator::Skip)
                    .filter(|&i| ["exec", "x"].contains(&argv[i].as_str()))
                    .is_some_and(|i| has_context_option(argv, i + 1, &NPM, ContextScope::BeforeTerminator))
        }
        "npx" | "bunx" => has_context_option(argv, 1, &NPM, ContextScope::Leading),
        "pnpm" => {
            has_context_option(argv, 1, &PNPM, ContextScope::Leading)
                || first_non_option(argv, 1, &PNPM, Terminator::Skip)
                    .filter(|&i| argv[i] == "dlx")
                    .is_some_and(|i| has_context_option(argv, i + 1, &PNPM, ContextScope::Leading))
        }
        "yarn" => {
            has_context_option(argv, 1, &YARN, ContextScope::Leading)
                || first_non_option(argv, 1, &YARN, Terminator::Skip)
                    .filter(|&i| argv[i] == "dlx")
                    .is_some_and(|i| has_context_option(argv, i + 1, &YARN_DLX, ContextScope::Leading))
        }
        _ => false,
    }
}

/// What the allowlist should match for `argv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackageTarget {
    /// Not a package-manager exec: match the segment as it is.
    Unchanged,
    /// Match this inner tool argv instead.
    Inner(Vec<String>),
    /// A package-manager exec OpenClaw refuses to see through: no allowlist match at all.
    Blocked,
}

/// `resolvePackageManagerAllowlistTargetArgv` (up to 6 levels, dispatch wrappers in between).
pub fn allowlist_target(argv: &[String], rules: &WrapperRules) -> PackageTarget {
    let mut current = argv.to_vec();
    let mut saw_exec = false;
    for _ in 0..6 {
        let plan = trust_plan(&current, rules);
        if plan.policy_blocked {
            return PackageTarget::Blocked;
        }
        current = plan.argv;
        match classify(&current) {
            Invocation::Unwrapped(_) if rules.package_context_blocks && has_context_options(&current) => {
                return PackageTarget::Blocked;
            }
            Invocation::Unwrapped(inner) => {
                saw_exec = true;
                current = inner;
            }
            Invocation::UnsafeExec => return PackageTarget::Blocked,
            Invocation::NotExec | Invocation::NotPackageManager if !saw_exec => {
                return PackageTarget::Unchanged;
            }
            Invocation::NotExec | Invocation::NotPackageManager => {
                let plan = trust_plan(&current, rules);
                let inline_shell = shell_wrapper(&plan.argv, rules).is_some_and(|w| w.bindable.is_some());
                return if plan.policy_blocked || inline_shell {
                    PackageTarget::Blocked
                } else {
                    PackageTarget::Inner(plan.argv)
                };
            }
        }
    }
    PackageTarget::Blocked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn allowlist_target(argv: &[String]) -> PackageTarget {
        super::allowlist_target(argv, &crate::OpenClawVersion::V2026_9.exec().wrappers)
    }

    #[test]
    fn unwraps_known_forms() {
        assert_eq!(allowlist_target(&argv("npx prettier --check .")), PackageTarget::Inner(argv("prettier --check .")));
        assert_eq!(allowlist_target(&argv("npm exec -- eslint x")), PackageTarget::Inner(argv("eslint x")));
        assert_eq!(allowlist_target(&argv("pnpm dlx tsx a.ts")), PackageTarget::Inner(argv("tsx a.ts")));
        assert_eq!(allowlist_target(&argv("yarn exec jest")), PackageTarget::Inner(argv("jest")));
        assert_eq!(allowlist_target(&argv("npx --package foo bar")), PackageTarget::Blocked);
        assert_eq!(allowlist_target(&argv("pnpm eslint")), PackageTarget::Blocked);
        assert_eq!(allowlist_target(&argv("pnpm install")), PackageTarget::Unchanged);
        assert_eq!(allowlist_target(&argv("ls -la")), PackageTarget::Unchanged);
    }
}
