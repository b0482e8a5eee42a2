//! `clawpolicy completions <shell>`: the shell completion script, generated from the command
//! line's own definition by clap_complete, so it always knows every subcommand and option.

use std::process::ExitCode;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::{Cli, output};

#[derive(Debug, Args)]
#[command(after_help = "\
The script is printed on standard output; put it where the shell looks:
  bash        ~/.local/share/bash-completion/completions/clawpolicy
  zsh         _clawpolicy in a directory of $fpath
  fish        ~/.config/fish/completions/clawpolicy.fish
  powershell  clawpolicy completions powershell | Out-String | Invoke-Expression
              (in $PROFILE)
  elvish      eval (clawpolicy completions elvish | slurp)   (in rc.elv)")]
pub struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn run(args: &CompletionsArgs) -> miette::Result<ExitCode> {
    output::write_stdout(&script(args.shell))?;
    Ok(ExitCode::SUCCESS)
}

/// The completion script for `shell`.
pub fn script(shell: Shell) -> String {
    let mut cmd = Cli::command();
    let name = cmd.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, name, &mut script);
    String::from_utf8(script).expect("clap_complete writes UTF-8")
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::*;

    #[test]
    fn every_shell_completes_every_subcommand() {
        let cli = Cli::command();
        for shell in Shell::value_variants() {
            let script = script(*shell);
            for sub in cli.get_subcommands() {
                assert!(script.contains(sub.get_name()), "{shell} completions lack `{}`", sub.get_name());
            }
        }
    }

    #[test]
    fn bash_completes_every_option_of_every_subcommand() {
        let script = script(Shell::Bash);
        let mut cli = Cli::command();
        cli.build();
        for sub in cli.get_subcommands() {
            for long in sub.get_arguments().filter_map(clap::Arg::get_long) {
                assert!(script.contains(&format!("--{long}")), "bash completions lack `{} --{long}`", sub.get_name());
            }
        }
    }
}
