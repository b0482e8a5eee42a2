//! Which program names are shells, and of which kind: the names both the shell reader
//! ([`super::shells`]) and the wrapper unwrapping ([`super::wrappers`]) ask about.

use super::normalize_executable;

const POSIX_SHELLS: &[&str] =
    &["ash", "bash", "csh", "dash", "elvish", "fish", "ksh", "mksh", "nu", "osh", "sh", "tcsh", "xonsh", "yash", "zsh"];

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ShellKind {
    Posix,
    Cmd,
    PowerShell,
}

pub(super) fn shell_kind(name: &str) -> Option<ShellKind> {
    if POSIX_SHELLS.contains(&name) {
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
pub fn is_posix_shell(token: &str) -> bool {
    shell_kind(&normalize_executable(token)) == Some(ShellKind::Posix)
}

/// `isShellWrapperExecutable`: a POSIX shell, cmd or PowerShell name.
pub fn is_shell_wrapper_executable(token: &str) -> bool {
    shell_kind(&normalize_executable(token)).is_some()
}
