//! Dispatch wrappers (`nice`, `timeout`, `stdbuf`, `time`, `flock`, …): programs that run the
//! command after their own options. Each is read by its option grammar from the release's data
//! (`wrappers.dispatch` in `data/<line>/exec.json`); a new one is a data entry.

use super::Unwrap;
use crate::exec::argv::scan::{Item, Opt, Walk, option_name, scan};
use crate::release::exec::DispatchWrapper;

/// The command a dispatch wrapper runs, and whether the wrapper is transparent (none of its
/// semantic options is used); `None` when its options do not parse.
pub fn unwrap(argv: &[String], wrapper: &DispatchWrapper) -> Option<(Vec<String>, bool)> {
    let mut transparent = true;
    for item in scan(argv, 1, Walk::WRAPPER, &wrapper.options) {
        let start = match item {
            Item::Option { opt: Opt::Unknown, .. } | Item::Option { complete: false, .. } => return None,
            Item::Option { token, .. } => {
                let name = token.to_lowercase();
                transparent &= !wrapper.semantic_options.iter().any(|o| o == option_name(&name));
                continue;
            }
            Item::EndOfOptions { index } => index + 1,
            Item::Operand { index, .. } => index,
            Item::Empty { .. } => continue,
        };
        return command_at(argv, start + wrapper.operands_before_command, wrapper).map(|c| (c, transparent));
    }
    None
}

fn command_at(argv: &[String], index: usize, wrapper: &DispatchWrapper) -> Option<Vec<String>> {
    let command = argv.get(index)?.trim();
    if wrapper.command_not_an_option && (command.is_empty() || (command.starts_with('-') && command != "-")) {
        return None;
    }
    Some(argv[index..].to_vec())
}

/// The outcome for a wrapper whose options either parse (unwrapped) or do not (blocked).
pub fn outcome(name: &str, unwrapped: Option<(Vec<String>, bool)>) -> (Unwrap, bool) {
    match unwrapped {
        Some((argv, transparent)) => (Unwrap::Unwrapped { wrapper: name.to_string(), argv }, transparent),
        None => (Unwrap::Blocked(name.to_string()), false),
    }
}
