//! `clawpolicy lsp`: the language server, over stdin and stdout.

use std::process::ExitCode;

use clap::Args;

use super::ConfigArgs;
use crate::lsp::{self, Settings};

#[derive(Debug, Args)]
#[command(
    after_help = "Editors start it and talk to it over stdin/stdout (Language Server Protocol); see docs/editor.md.\n\nExit codes:\n  0  the editor shut the server down\n  2  the protocol broke (the editor went away without shutting it down, or sent what is not LSP)"
)]
pub struct LspArgs {
    /// Lint these config files as configs whether or not they are open (repeatable); without it
    /// each opened file is a config, unless an open config `$include`s it.
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Talk over stdin/stdout (the only transport; accepted because editors pass it).
    #[arg(long)]
    pub stdio: bool,
}

pub fn run(global: &super::Global, args: &LspArgs) -> miette::Result<ExitCode> {
    let protocol = |e: &dyn std::fmt::Display| miette::miette!(code = "lsp::protocol", "{e}");
    let (connection, io_threads) = lsp_server::Connection::stdio();
    let capabilities = serde_json::to_value(lsp::capabilities()).map_err(|e| miette::miette!("{e}"))?;
    connection.initialize(capabilities).map_err(|e| protocol(&e))?;
    let cwd = super::sweep::current_dir()?;
    let configs = args.config.files.iter().map(|file| crate::config::fspath::resolve(&cwd, file)).collect();
    lsp::serve(&connection, Settings { options: global.options(), configs }).map_err(|e| protocol(&e))?;
    drop(connection);
    io_threads.join().map_err(|e| protocol(&e))?;
    Ok(ExitCode::SUCCESS)
}
