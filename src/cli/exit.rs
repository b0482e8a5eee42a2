//! The exit codes of every command. The numbers are part of the interface (README "Output and
//! exit codes", `clawpolicy --help`): never renumber one.

use std::process::ExitCode;

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// It answered, and the answer is the good one: `exec` allowed, `url`/`path` allowed, no
    /// finding, every case passed, some session can, no new access.
    Success = 0,
    /// It answered, and the answer is the one CI fails on: lint findings, `url` blocked, `path`
    /// denied, a failed expectation or case, no session can, new access.
    Flagged = 1,
    /// It could not answer: unreadable or invalid config, bad arguments, unknown agent.
    CannotAnswer = 2,
    /// `exec`: the command needs approval.
    ExecAsks = 3,
    /// `exec`: the command is denied.
    ExecDenied = 4,
    /// `exec`: the session has no exec tool at all.
    ExecUnavailable = 5,
}

impl Exit {
    /// [`Exit::Flagged`] when `flagged`, else [`Exit::Success`].
    pub fn flagged_if(flagged: bool) -> Self {
        if flagged { Exit::Flagged } else { Exit::Success }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit as u8)
    }
}

/// The `--help` epilogue: every code, by command.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  answered (`tools`, `explain`, `matrix`: whatever the answer); `exec`: allowed;
     `who-can`: some session can; `diff`: no new access (or no --fail-on); `upgrade`: nothing
     --fail-on names; `test`: all passed; `fix`: nothing left to fix
  1  `lint`: findings at or above --severity-min; `fix`: fixes held back (--diff: edits to make);
     `url`: blocked by the SSRF guard; `path`: denied;
     `simulate`: an expectation failed; `who-can`: no session can; `diff --fail-on new-access`:
     new access; `upgrade --fail-on fatal|new-access|lost-access`: it happens; `test`: a case failed
  3  `exec`: the command needs approval
  4  `exec`: the command is denied
  5  `exec`: the session has no exec tool at all (a tool-policy step removed it)
  2  it could not answer: unreadable or invalid config, bad arguments, unknown agent";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_exit_code_is_documented_with_its_number() {
        for exit in
            [Exit::Success, Exit::Flagged, Exit::CannotAnswer, Exit::ExecAsks, Exit::ExecDenied, Exit::ExecUnavailable]
        {
            let code = exit as u8;
            assert!(EXIT_CODES.lines().any(|l| l.starts_with(&format!("  {code}  "))), "{exit:?} ({code})");
        }
        assert_eq!((Exit::Flagged as u8, Exit::CannotAnswer as u8, Exit::ExecUnavailable as u8), (1, 2, 5));
    }
}
