//! Multi-call binaries (`busybox`, `toybox`): unwrapped only when their applet is a shell, where
//! the release's data lists them (`wrappers.multiplexers`); any other applet blocks.

use super::Unwrap;
use crate::exec::argv::normalize_executable;
use crate::exec::argv::shell_names::is_shell_wrapper_executable;
use crate::release::exec::WrapperRules;

pub fn unwrap(argv: &[String], rules: &WrapperRules) -> Unwrap {
    unwrap_among(argv, &rules.multiplexers, rules)
}

/// [`unwrap`] for the multiplexers named.
pub fn unwrap_among(argv: &[String], multiplexers: &[String], rules: &WrapperRules) -> Unwrap {
    let Some(token0) = argv.first().map(|t| t.trim()).filter(|t| !t.is_empty()) else {
        return Unwrap::NotWrapper;
    };
    let name = normalize_executable(token0);
    if !multiplexers.contains(&name) {
        return Unwrap::NotWrapper;
    }
    let applet_index = if argv.get(1).map(|t| t.trim()) == Some("--") { 2 } else { 1 };
    match argv.get(applet_index).map(|t| t.trim()) {
        Some(applet) if is_shell_wrapper_executable(applet, rules) => {
            Unwrap::Unwrapped { wrapper: name, argv: argv[applet_index..].to_vec() }
        }
        _ => Unwrap::Blocked(name),
    }
}
