//! `clawpolicy man [COMMAND]`: the manual pages, rendered in roff by clap_mangen from the command
//! line's own definition: `clawpolicy(1)` and one page per subcommand (`clawpolicy-lint(1)`),
//! printed, or all written to a directory for packagers.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, CommandFactory};
use clap_mangen::Man;

use super::{Cli, output};

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  clawpolicy man | man -l -                  read clawpolicy(1)
  clawpolicy man lint | man -l -             read clawpolicy-lint(1)
  clawpolicy man --output-dir ~/.local/share/man/man1   install every page")]
pub struct ManArgs {
    /// The subcommand whose page to print (`lint` prints clawpolicy-lint(1)); default: clawpolicy(1).
    #[arg(value_name = "COMMAND", conflicts_with = "output_dir")]
    pub command: Option<String>,
    /// Write every page (clawpolicy.1, clawpolicy-<command>.1, …) into this directory instead.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
}

pub fn run(args: &ManArgs) -> miette::Result<ExitCode> {
    if let Some(dir) = &args.output_dir {
        write_pages(dir)?;
        return Ok(ExitCode::SUCCESS);
    }
    let name = args.command.as_deref();
    let text = page(name).ok_or_else(|| unknown_command(name.unwrap_or_default()))?;
    output::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The roff source of clawpolicy(1), or of the page of the subcommand `command`; `None` when
/// there is no such subcommand.
pub fn page(command: Option<&str>) -> Option<String> {
    let root = root_command();
    let cmd = match command {
        None => root,
        Some(name) => root.find_subcommand(name)?.clone(),
    };
    Some(render(cmd))
}

/// The names of the subcommands that have a page of their own.
pub fn page_commands() -> Vec<String> {
    root_command().get_subcommands().map(|sub| sub.get_name().to_string()).collect()
}

/// The command line, built so that global options and display names (`clawpolicy-lint`) reach
/// every subcommand, and without the `help` subcommand, which has no page.
fn root_command() -> clap::Command {
    let mut root = Cli::command().disable_help_subcommand(true);
    root.build();
    root
}

fn render(cmd: clap::Command) -> String {
    let source = format!("clawpolicy {}", env!("CARGO_PKG_VERSION"));
    let mut roff = Vec::new();
    Man::new(cmd).source(source).render(&mut roff).expect("writing to memory cannot fail");
    String::from_utf8(roff).expect("clap_mangen writes UTF-8")
}

fn write_pages(dir: &Path) -> miette::Result<()> {
    let written =
        |e: std::io::Error| miette::miette!(code = "man::write", "cannot write man pages to {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(written)?;
    for name in std::iter::once(None).chain(page_commands().iter().map(|n| Some(n.as_str()))) {
        let file = match name {
            None => "clawpolicy.1".to_string(),
            Some(name) => format!("clawpolicy-{name}.1"),
        };
        let text = page(name).expect("every listed command has a page");
        std::fs::write(dir.join(file), text).map_err(written)?;
    }
    Ok(())
}

fn unknown_command(name: &str) -> miette::Report {
    let names = page_commands();
    miette::miette!(
        code = "man::unknown-command",
        help = format!("{}commands: {}", super::did_you_mean_hint(name, &names), names.join(", ")),
        "clawpolicy has no command `{name}`"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How roff writes a long flag: every `-` escaped.
    fn roff_flag(long: &str) -> String {
        format!("\\-\\-{}", long.replace('-', "\\-"))
    }

    #[test]
    fn every_subcommand_page_renders_every_option() {
        let root = root_command();
        for sub in root.get_subcommands() {
            let page = page(Some(sub.get_name())).unwrap();
            let title = format!(".TH clawpolicy-{} 1 ", sub.get_name());
            assert!(page.starts_with(".ie") && page.contains(&title), "{title} missing:\n{page}");
            for arg in sub.get_arguments().filter(|arg| !arg.is_hide_set()) {
                let shown = match arg.get_long() {
                    Some(long) => roff_flag(long),
                    None => {
                        let value_name = arg.get_value_names().and_then(|names| names.first().cloned());
                        format!(
                            "\\fI{}\\fR",
                            value_name.map_or_else(|| arg.get_id().to_string().to_uppercase(), |n| n.to_string())
                        )
                    }
                };
                assert!(page.contains(&shown), "clawpolicy-{} page lacks {shown}", sub.get_name());
            }
        }
    }

    #[test]
    fn main_page_lists_every_subcommand_page() {
        let main = page(None).unwrap();
        for name in page_commands() {
            assert!(
                main.contains(&format!("clawpolicy\\-{}(1)", name.replace('-', "\\-"))),
                "no {name} in clawpolicy(1)"
            );
        }
        assert!(!main.contains("clawpolicy\\-help(1)"), "`help` has no page of its own");
    }

    #[test]
    fn unknown_command_suggests_the_closest() {
        assert_eq!(page(Some("lnt")), None);
        let help = unknown_command("lnt").help().unwrap().to_string();
        assert!(help.starts_with("did you mean `lint`?"), "{help}");
    }
}
