//! `clawpolicy fix` (and `lint --fix`, `explain TOOL --apply`): apply the edits clawpolicy
//! computes to the config files, show them as a diff, and say what access they changed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use super::ConfigArgs;
use super::exit::Exit;
use super::output::{self, Format};
use crate::fix::{self, Candidate, FileChange, FixSource, NotApplied, Outcome, Request};
use crate::fleet::diff::Changes;
use crate::lint::Selection;
use crate::lint::suppress::Suppressions;

/// `--format`: a readable report, or the JSON document.
const FORMATS: &[Format] = &[Format::Human, Format::Json];

/// How to apply fixes; shared by `fix`, `lint --fix` and `explain --apply`.
#[derive(Debug, Args, Default)]
#[command(next_help_heading = "Fixing")]
pub struct FixFlags {
    /// Print the edits as a unified diff instead of writing them.
    #[arg(long)]
    pub diff: bool,
    /// Also apply fixes that change access (a typo'd tool name that will now match, a refused
    /// config made valid). Without it only fixes that keep the config in force are applied.
    #[arg(long)]
    pub unsafe_fixes: bool,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes:\n  0  nothing is left to fix (every fix was applied, or there was none); with --diff: nothing to change\n  1  with --diff: there are edits to make; else: some fixes were not applied (they change access and --unsafe-fixes was not given, or the release would refuse the result)\n  2  could not fix: unreadable config, a file outside the config's folder, bad arguments, unknown rule"
)]
pub struct FixArgs {
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Apply only the fixes of these rules (codes or names; repeat or separate with commas).
    #[arg(long, value_delimiter = ',', value_name = "RULE")]
    pub only: Vec<String>,
    /// Never apply the fixes of these rules (codes or names; repeat or separate with commas).
    #[arg(long, value_delimiter = ',', value_name = "RULE")]
    pub skip: Vec<String>,
    #[arg(long, value_parser = output::formats("human", FORMATS), default_value = "human")]
    pub format: Format,
    #[command(flatten)]
    pub flags: FixFlags,
}

pub fn run(global: &super::Global, args: &FixArgs) -> miette::Result<ExitCode> {
    let selection = Selection { only: args.only.clone(), skip: args.skip.clone(), ..Selection::default() };
    if let Some(unknown) = selection.unknown_rule_names().first() {
        return Err(miette::miette!(
            code = "lint::unknown-rule",
            help = "`clawpolicy rule --list` lists the rules",
            "{}",
            crate::lint::no_rule_message(unknown)
        ));
    }
    let loaded = global.load_any(&args.config.files, global.version, args.format.machine("fix"))?;
    global.warn(loaded.loaded());
    let suppressions = Suppressions::for_config(None, loaded.paths().first().map(PathBuf::as_path))?;
    let fixed = apply(global, loaded.paths(), &args.flags, Some(&selection), &suppressions, Vec::new())?;
    match args.format {
        Format::Json => output::emit_machine(args.format, "fix", &document(&fixed, &args.flags))?,
        _ => output::write_stdout(&human(&fixed, &args.flags))?,
    }
    Ok(fixed.exit(&args.flags).into())
}

/// The fixes applied and what they changed in access.
pub struct Fixed {
    pub outcome: Outcome,
    pub access: Changes,
}

impl Fixed {
    /// `fix`'s exit code.
    pub fn exit(&self, flags: &FixFlags) -> Exit {
        let pending = if flags.diff { !self.outcome.files.is_empty() } else { !self.outcome.not_applied.is_empty() };
        Exit::flagged_if(pending)
    }
}

/// `lint --fix`: applies the fixes of the selected rules; the report goes to stderr (stdout is
/// lint's), or with `--diff` the diff to stdout. Returns whether lint should go on.
pub fn before_lint(
    global: &super::Global,
    files: &[PathBuf],
    flags: &FixFlags,
    selection: &Selection,
    suppressions: &Suppressions,
) -> miette::Result<Option<Exit>> {
    let fixed = apply(global, files, flags, Some(selection), suppressions, Vec::new())?;
    if flags.diff {
        output::write_stdout(&human(&fixed, flags))?;
        return Ok(Some(fixed.exit(flags)));
    }
    if !global.quiet {
        output::write_stderr(human(&fixed, flags).trim_end());
    }
    Ok(None)
}

/// `explain TOOL --apply`: applies `fix`, the edits that bring the tool back, and says so.
pub fn after_explain(
    global: &super::Global,
    files: &[PathBuf],
    flags: &FixFlags,
    fix: Candidate,
) -> miette::Result<Exit> {
    let fixed = apply(global, files, flags, None, &Suppressions::default(), vec![fix])?;
    output::write_stdout(&format!("\n{}", human(&fixed, flags)))?;
    Ok(fixed.exit(flags))
}

/// Applies the fixes (lint's with `lint`, and `given`) and writes the files unless `--diff`.
pub fn apply(
    global: &super::Global,
    files: &[PathBuf],
    flags: &FixFlags,
    lint: Option<&Selection>,
    suppressions: &Suppressions,
    given: Vec<Candidate>,
) -> miette::Result<Fixed> {
    let options = global.options();
    let request = Request {
        files,
        options: &options,
        unsafe_fixes: flags.unsafe_fixes,
        lint,
        suppressions,
        given,
        buffers: Default::default(),
    };
    let outcome = fix::run(request).map_err(|e| miette::Report::new(e).wrap_err("cannot fix this config"))?;
    let cwd = super::sweep::current_dir()?;
    let access = fix::access_changes(&outcome, global.version, &cwd)?;
    let folder = config_folder(files)?;
    if !flags.diff {
        // Every file is checked before any is written: a refusal leaves all of them as they were.
        for file in &outcome.files {
            crate::guards::write::check_inside(&file.path, &folder).map_err(|e| refusal(&file.path, &e))?;
        }
        for file in &outcome.files {
            crate::guards::write::write_inside(&file.path, &file.after, &folder)
                .map_err(|e| refusal(&file.path, &e))?;
        }
    }
    Ok(Fixed { outcome, access })
}

fn refusal(path: &Path, error: &crate::guards::write::WriteRefusal) -> miette::Report {
    miette::miette!(
        code = "fix::write",
        help = "fixes are written only inside the folder of the first config file, never through a symlink leaving it",
        "refusing to write {}: {error}",
        path.display()
    )
}

/// The folder writes are confined to: the first config file's.
fn config_folder(files: &[PathBuf]) -> miette::Result<PathBuf> {
    let first = files.first().ok_or_else(|| miette::miette!(code = "fix::no-config", "no config file to fix"))?;
    let folder = first.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::canonicalize(folder)
        .map_err(|e| miette::miette!(code = "fix::write", "cannot open {}: {e}", folder.display()))
}

/// A unified diff of one file, secrets masked.
fn unified_diff(file: &FileChange) -> String {
    let name = crate::report::display_path(&file.path);
    similar::TextDiff::from_lines(&file.before_shown, &file.after_shown)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

fn source_label(fix: &Candidate) -> String {
    let place = fix
        .location
        .as_ref()
        .map(|l| format!("{}:{}:{}  ", crate::report::display_path(Path::new(&l.file)), l.line, l.column));
    let source = match &fix.source {
        FixSource::Lint { code, .. } => code.to_string(),
        FixSource::Explain { tool } => format!("explain {tool}"),
    };
    format!("{}{source}  {}", place.unwrap_or_default(), fix.autofix.title)
}

fn human(Fixed { outcome, access }: &Fixed, flags: &FixFlags) -> String {
    let mut out = String::new();
    if flags.diff {
        for file in &outcome.files {
            out.push_str(&unified_diff(file));
        }
    }
    let verb = if flags.diff { "Would fix" } else { "Fixed" };
    let files = outcome.files.len();
    match outcome.applied.len() {
        0 => out.push_str("Nothing to fix.\n"),
        n => out.push_str(&format!(
            "{verb} {n} problem{} in {files} file{}:\n",
            if n == 1 { "" } else { "s" },
            if files == 1 { "" } else { "s" }
        )),
    }
    for fix in &outcome.applied {
        out.push_str(&format!("  {}\n", source_label(fix)));
    }
    if !outcome.not_applied.is_empty() {
        out.push_str(&format!("Not fixed ({}):\n", outcome.not_applied.len()));
        for NotApplied { fix, reason } in &outcome.not_applied {
            out.push_str(&format!("  {}: {reason}\n", source_label(fix)));
        }
    }
    let changed = !access.access.is_empty()
        || !access.audiences.is_empty()
        || !access.exec.is_empty()
        || !access.posture.is_empty();
    if changed {
        out.push_str(&format!(
            "\nWhat access changed (compared {} session(s), agent × context, and {} probe command(s)):\n",
            access.contexts.len(),
            access.probes.len()
        ));
        out.push_str(&super::diff_cmd::render_changes(access, false));
    } else if !outcome.applied.is_empty() {
        out.push_str("Access unchanged: every session keeps its tools, its senders and its exec decisions.\n");
    }
    out
}

/// The `fix` JSON document.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FixDocument<'a> {
    openclaw_version: &'static str,
    /// Whether the files were written (`false` with `--diff`).
    written: bool,
    applied: &'a [Candidate],
    not_applied: &'a [NotApplied],
    files: Vec<FileDocument>,
    access: &'a Changes,
}

#[derive(Serialize)]
struct FileDocument {
    file: String,
    /// The unified diff, secrets masked.
    diff: String,
}

fn document<'a>(Fixed { outcome, access }: &'a Fixed, flags: &FixFlags) -> FixDocument<'a> {
    FixDocument {
        openclaw_version: outcome.before.loaded().version().id(),
        written: !flags.diff && !outcome.files.is_empty(),
        applied: &outcome.applied,
        not_applied: &outcome.not_applied,
        files: outcome
            .files
            .iter()
            .map(|f| FileDocument { file: crate::report::display_path(&f.path), diff: unified_diff(f) })
            .collect(),
        access,
    }
}
