//! What every command shares: the release simulated, the environment configs are loaded under
//! (`--env`, `--env-file`), how loud to be (`--quiet`), and how a config that cannot be used is
//! reported (a diagnostic on stderr and, for `--format json|yaml`, a machine document on stdout).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use miette::Diagnostic;
use serde_json::{Value, json};

use super::output::{self, Format};
use crate::OpenClawVersion;
use crate::config::loading::{self, LoadedFiles, Refusal};
use crate::config::{
    ConfigError, ConfigWarning, LoadOptions, LoadedConfig, Location, MissingEnvVar, ValidationIssue, WarningKind,
};

/// Flags every command takes.
#[derive(Debug, Args, Default)]
pub struct GlobalArgs {
    /// Set an environment variable for `${VAR}` substitution (repeatable), as the gateway's
    /// environment would.
    #[arg(long = "env", global = true, value_name = "NAME=VALUE", value_parser = parse_assignment)]
    pub env: Vec<(String, String)>,
    /// Read environment variables for `${VAR}` substitution from a dotenv file (repeatable).
    #[arg(long = "env-file", global = true, value_name = "FILE")]
    pub env_files: Vec<PathBuf>,
    /// Print only the answer: no warnings about the config on stderr.
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
}

fn parse_assignment(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => Ok((name.trim().to_string(), value.to_string())),
        _ => Err(format!("expected NAME=VALUE, got `{text}`")),
    }
}

/// The release, load options and verbosity a command runs with.
pub struct Global {
    pub version: OpenClawVersion,
    options: LoadOptions,
    pub quiet: bool,
}

/// How a command prints, when a refusal must also be a machine document: the format and the
/// document's `kind`.
pub type Machine<'a> = Option<(Format, &'a str)>;

impl Global {
    pub fn new(version: OpenClawVersion, args: &GlobalArgs) -> miette::Result<Self> {
        let mut options = LoadOptions::from_process(version);
        for file in &args.env_files {
            for (name, value) in read_env_file(file)? {
                Arc::make_mut(&mut options.env).insert(name, value);
            }
        }
        Arc::make_mut(&mut options.env).extend(args.env.iter().cloned());
        Ok(Global { version, options, quiet: args.quiet })
    }

    /// Load options for `version` (a suite or scenario may name its own release).
    pub fn options_for(&self, version: OpenClawVersion) -> LoadOptions {
        LoadOptions { version, ..self.options.clone() }
    }

    pub fn options(&self) -> LoadOptions {
        self.options_for(self.version)
    }

    /// Loads config files the release accepts. Warnings go to stderr (unless `--quiet`); a
    /// config that cannot be used is an error, and for `--format json|yaml` also a document on
    /// stdout, so machine output is never empty.
    pub fn load(&self, files: &[PathBuf], machine: Machine<'_>) -> miette::Result<LoadedFiles> {
        self.load_as(files, self.version, machine)
    }

    /// [`Global::load`] for another release.
    pub fn load_as(
        &self,
        files: &[PathBuf],
        version: OpenClawVersion,
        machine: Machine<'_>,
    ) -> miette::Result<LoadedFiles> {
        let loaded = self.load_any(files, version, machine)?;
        self.warn(loaded.loaded());
        if !self.quiet {
            for warning in loaded.validation_warnings() {
                super::output::write_stderr(&format!("{:?}", miette::Report::new(warning.clone())));
            }
        }
        loaded.accepted().map_err(|refusal| self.refuse(refusal, version, machine))
    }

    /// Loads config files whatever the release would say of them (`lint` reports it); only a
    /// config that cannot be read is an error.
    pub fn load_any(
        &self,
        files: &[PathBuf],
        version: OpenClawVersion,
        machine: Machine<'_>,
    ) -> miette::Result<LoadedFiles> {
        loading::load_files(files, &self.options_for(version))
            .map_err(|error| self.refuse(Refusal::Unreadable(error), version, machine))
    }

    /// Turns a refusal into the command's error, printing its machine document first.
    fn refuse(&self, refusal: Refusal, version: OpenClawVersion, machine: Machine<'_>) -> miette::Report {
        if let Some((format, kind)) = machine {
            // The error itself is reported on stderr either way; a failed write here adds nothing.
            let _ = output::emit_machine(format, kind, &refusal_document(&refusal, version));
        }
        miette::Report::new(refusal)
    }

    /// Prints the loader's warnings on stderr, the missing `${VAR}`s grouped into one.
    pub fn warn(&self, loaded: &LoadedConfig) {
        if self.quiet {
            return;
        }
        let mut missing_warned = false;
        let mut migrated = Vec::new();
        for warning in loaded.warnings() {
            match warning.kind {
                WarningKind::MissingEnvVar => missing_warned = true,
                WarningKind::Migrated => migrated.push(warning),
                _ => output::write_stderr(&format!("{:?}", miette::Report::new(warning.clone()))),
            }
        }
        let missing = GroupedWarning::missing_env_vars(loaded.unset_env_vars()).filter(|_| missing_warned);
        for grouped in GroupedWarning::migrated(&migrated).into_iter().chain(missing) {
            output::write_stderr(&format!("{:?}", miette::Report::new(grouped)));
        }
    }
}

/// `NAME=VALUE` lines of a dotenv file (comments, `export`, quotes as dotenv reads them).
/// The file is read within the limits of [`crate::base::userfile`]; it holds secrets, so a line that
/// does not parse is never shown.
fn read_env_file(path: &Path) -> miette::Result<Vec<(String, String)>> {
    let bytes = crate::base::userfile::read(path, crate::base::userfile::MAX_INPUT_BYTES)
        .map_err(|e| miette::miette!(code = "cli::env-file", "cannot read {}: {e}", path.display()))?;
    let error = |e: dotenvy::Error| {
        let why = match e {
            dotenvy::Error::LineParse(_, at) => format!("a line does not parse (at character {at} of the line)"),
            other => other.to_string(),
        };
        miette::miette!(code = "cli::env-file", "{}: {why}", path.display())
    };
    dotenvy::from_read_iter(bytes.as_slice()).map(|item| item.map_err(error)).collect()
}

/// The machine document of a refusal: `ok: false` and the issues with structured locations, as
/// batch answers carry them.
fn refusal_document(refusal: &Refusal, version: OpenClawVersion) -> Value {
    let issues: Vec<Value> = match refusal {
        Refusal::Invalid { issues, .. } => issues.iter().map(issue_document).collect(),
        Refusal::Unreadable(_) => Vec::new(),
    };
    let code = refusal.code().map(|c| c.to_string());
    let location = match refusal {
        Refusal::Unreadable(error) => error_location(error),
        Refusal::Invalid { .. } => None,
    };
    json!({
        "ok": false,
        "openclawVersion": version.id(),
        "error": {"code": code, "message": refusal.to_string(), "location": location},
        "config": {"valid": false, "issues": issues},
    })
}

fn issue_document(issue: &ValidationIssue) -> Value {
    json!({
        "path": issue.dotted_path(),
        "message": issue.message,
        "code": issue.category.code(),
        "kind": issue.kind,
        "help": issue.help,
        "location": issue.origin.as_ref().map(Location::from),
    })
}

/// Where in a file an unreadable config went wrong, when the loader knows.
fn error_location(error: &ConfigError) -> Option<Location> {
    let source = error.source_code()?;
    let label = error.labels()?.next()?;
    let contents = source.read_span(label.inner(), 0, 0).ok()?;
    Some(Location {
        file: contents.name().unwrap_or_default().to_string(),
        line: contents.line() + 1,
        column: contents.column() + 1,
    })
}

/// `file:line:col` with the file relative to the working directory, for one-line mentions.
fn short_place(origin: &crate::config::Origin) -> String {
    format!("{}:{}:{}", crate::report::display_path(origin.file()), origin.line, origin.column)
}

/// Several warnings of one kind told once: a title and one line per occurrence with its place.
#[derive(Debug, thiserror::Error)]
#[error("{title}")]
struct GroupedWarning {
    code: &'static str,
    title: String,
    lines: Vec<String>,
    advice: &'static str,
}

impl Diagnostic for GroupedWarning {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Warning)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(format!("{}\n{}", self.lines.join("\n"), self.advice)))
    }
}

impl GroupedWarning {
    /// Every `${VAR}` without a value: each variable once, with where it is used.
    fn missing_env_vars(missing: &[MissingEnvVar]) -> Option<Self> {
        let mut uses: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for var in missing {
            let path = crate::config::path::KeyPath(var.path.clone());
            let at = var.origin.as_deref().map(|o| format!(" ({})", short_place(o))).unwrap_or_default();
            uses.entry(var.name.as_str()).or_default().push(format!("{path}{at}"));
        }
        if uses.is_empty() {
            return None;
        }
        let count = uses.len();
        let names = uses.keys().copied().collect::<Vec<_>>().join(", ");
        Some(GroupedWarning {
            code: WarningKind::MissingEnvVar.code(),
            title: format!(
                "{count} environment variable{} not set, so the literal `${{VAR}}` text stays in the config: {names}",
                if count == 1 { " is" } else { "s are" }
            ),
            lines: uses.iter().map(|(name, at)| format!("{name} is used at {}", at.join(", "))).collect(),
            advice: "set them where the gateway runs, in the config's `env` block, or here with --env NAME=VALUE or \
                     --env-file FILE",
        })
    }

    /// The legacy forms the release rewrites while loading, in its own words.
    fn migrated(warnings: &[&ConfigWarning]) -> Option<Self> {
        if warnings.is_empty() {
            return None;
        }
        let line = |w: &&ConfigWarning| {
            let at = w.origin.as_deref().map(|o| format!(" ({})", short_place(o))).unwrap_or_default();
            format!("{}{at}", crate::base::escape::visible(&w.message))
        };
        Some(GroupedWarning {
            code: "config::migrated",
            title: format!(
                "OpenClaw rewrites {} legacy form{} while loading this config; it works, but the file should be updated",
                warnings.len(),
                if warnings.len() == 1 { "" } else { "s" }
            ),
            lines: warnings.iter().map(line).collect(),
            advice: "`clawpolicy lint` shows the edit for each (CP109), or run `openclaw doctor --fix`",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_env_file_line_that_does_not_parse_is_not_shown() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".env");
        std::fs::write(&path, "GOOD=1\nBAD LINE hunter2-secret\n").unwrap();
        let error = format!("{:?}", read_env_file(&path).unwrap_err());
        assert!(error.contains("does not parse") && !error.contains("hunter2"), "{error}");
        std::fs::write(&path, "A=1\nB='two'\n").unwrap();
        assert_eq!(read_env_file(&path).unwrap(), [("A".into(), "1".into()), ("B".into(), "two".into())]);
        #[cfg(unix)]
        assert!(read_env_file(Path::new("/dev/zero")).is_err());
    }
}
