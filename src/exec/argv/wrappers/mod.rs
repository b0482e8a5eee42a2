//! Wrappers a release looks through or refuses (`resolveExecWrapperTrustPlan`), one file per
//! kind: dispatch wrappers read by an option grammar ([`dispatch`]: `nice`, `timeout`, `time`,
//! `flock`, …, and the blocked ones like `sudo`), `env` ([`env`](self::env)), command carriers
//! ([`carriers`]: `command`, `builtin`, `exec`, `sudo`, `doas`) and multi-call binaries
//! ([`multiplexers`]: `busybox`). Shell wrappers (`sh -c '…'`) are in [`super::shells`].
//!
//! Which wrappers a release knows, and each one's grammar, is data (`data/<line>/exec.json` →
//! `wrappers`): a new wrapper is a data entry; a new kind of wrapper is a file here.

pub mod carriers;
pub mod dispatch;
pub mod env;
pub mod multiplexers;

use crate::exec::argv::normalize_executable;
use crate::release::exec::WrapperRules;

/// The outcome of looking at argv[0] as a wrapper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unwrap {
    NotWrapper,
    Blocked(String),
    Unwrapped { wrapper: String, argv: Vec<String> },
}

/// `unwrapKnownDispatchWrapperInvocation` plus the "semantic usage" check folded in:
/// returns the unwrapped argv and whether the wrapper is transparent here.
fn unwrap_dispatch(argv: &[String], rules: &WrapperRules) -> (Unwrap, bool) {
    let Some(token0) = argv.first().map(|t| t.trim()).filter(|t| !t.is_empty()) else {
        return (Unwrap::NotWrapper, true);
    };
    let name = normalize_executable(token0);
    if rules.blocked.contains(&name) {
        return (Unwrap::Blocked(name), false);
    }
    if name == "env" {
        return dispatch::outcome(&name, env::unwrap(argv, &rules.env));
    }
    match rules.dispatch.get(&name) {
        Some(wrapper) => dispatch::outcome(&name, dispatch::unwrap(argv, wrapper)),
        None => (Unwrap::NotWrapper, true),
    }
}

/// Whether `token` names a dispatch wrapper at all (transparent or blocked).
pub fn is_dispatch_wrapper(token: &str, rules: &WrapperRules) -> bool {
    let name = normalize_executable(token);
    name == "env" || rules.blocked.contains(&name) || rules.dispatch.contains_key(&name)
}

/// `unwrapKnownDispatchWrapperInvocation` without the semantic check (used by risk detection).
pub fn unwrap_dispatch_syntax(argv: &[String], rules: &WrapperRules) -> Unwrap {
    unwrap_dispatch(argv, rules).0
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

/// Strips transparent wrappers up to the release's depth; semantic or unknown-option wrappers
/// block.
pub fn trust_plan(argv: &[String], rules: &WrapperRules) -> TrustPlan {
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
    while chain.len() < rules.max_depth {
        match unwrap_dispatch(&current, rules) {
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
        match carriers::unwrap_shell_argv_carrier(&current, rules) {
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
        match multiplexers::unwrap(&current, rules) {
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
    if chain.len() >= rules.max_depth {
        let overflow = match unwrap_dispatch(&current, rules).0 {
            Unwrap::NotWrapper => match carriers::unwrap_shell_argv_carrier(&current, rules) {
                Unwrap::NotWrapper => multiplexers::unwrap(&current, rules),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use crate::exec::argv::words as argv;

    #[test]
    fn transparent_wrappers_unwrap() {
        let rules = &OpenClawVersion::V2026_9.exec().wrappers;
        assert_eq!(trust_plan(&argv("nice -n 5 ls"), rules).argv, argv("ls"));
        assert_eq!(trust_plan(&argv("timeout 5 ls -la"), rules).argv, argv("ls -la"));
        assert_eq!(trust_plan(&argv("command ls"), rules).argv, argv("ls"));
        assert_eq!(trust_plan(&argv("exec ls"), rules).argv, argv("ls"));
        assert_eq!(trust_plan(&argv("env ls"), rules).argv, argv("ls"));
        assert!(trust_plan(&argv("env FOO=1 ls"), rules).policy_blocked);
        assert!(trust_plan(&argv("sudo ls"), rules).policy_blocked);
        assert!(trust_plan(&argv("command -p ls"), rules).policy_blocked);
        assert!(trust_plan(&argv("nice --bogus ls"), rules).policy_blocked);
        assert!(!trust_plan(&argv("time ls"), rules).policy_blocked);
        assert!(trust_plan(&argv("time -o out ls"), rules).policy_blocked);
        assert!(trust_plan(&argv("busybox ls"), rules).policy_blocked);
        assert_eq!(trust_plan(&argv("flock -n /tmp/l ls"), rules).argv, argv("ls"));
        assert!(trust_plan(&argv("flock /tmp/l -x"), rules).policy_blocked);
    }

    #[test]
    fn legacy_wrappers_differ() {
        let rules = &OpenClawVersion::V2026_2.exec().wrappers;
        assert_eq!(trust_plan(&argv("command ls"), rules).argv, argv("command ls"));
        assert!(trust_plan(&argv("env FOO=1 ls"), rules).policy_blocked);
        assert_eq!(trust_plan(&argv("env ls"), rules).argv, argv("ls"));
        assert_eq!(trust_plan(&argv("env -uHOME ls"), rules).wrapper_chain, ["env"]);
        assert!(!trust_plan(&argv("flock x ls"), rules).policy_blocked);
    }
}
