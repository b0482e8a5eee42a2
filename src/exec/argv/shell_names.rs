//! Which program names are shells, and of which kind: the names both the shell reader
//! ([`super::shells`]) and the wrapper unwrapping ([`super::wrappers`]) ask about. The POSIX
//! shells are the release's (`wrappers.posixShells` in its data).

use super::normalize_executable;
use crate::release::exec::WrapperRules;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ShellKind {
    Posix,
    Cmd,
    PowerShell,
}

pub(super) fn shell_kind(name: &str, rules: &WrapperRules) -> Option<ShellKind> {
    if rules.posix_shells.iter().any(|s| s == name) {
        Some(ShellKind::Posix)
    } else if name == "cmd" {
        Some(ShellKind::Cmd)
    } else if is_powershell(name) {
        Some(ShellKind::PowerShell)
    } else {
        None
    }
}

pub(super) fn is_powershell(name: &str) -> bool {
    name == "powershell" || name == "pwsh"
}

/// A POSIX shell name (`POSIX_SHELL_WRAPPERS`).
pub fn is_posix_shell(token: &str, rules: &WrapperRules) -> bool {
    shell_kind(&normalize_executable(token), rules) == Some(ShellKind::Posix)
}

/// `isShellWrapperExecutable`: a POSIX shell, cmd or PowerShell name.
pub fn is_shell_wrapper_executable(token: &str, rules: &WrapperRules) -> bool {
    shell_kind(&normalize_executable(token), rules).is_some()
}
