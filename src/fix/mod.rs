//! `clawpolicy fix`: applies the edits clawpolicy computes — lint fixes (CP109 carries the
//! release's load-time migrations), and `explain`'s verified edits — to the JSON5 files, in the
//! file where each value is written, keeping everything else as it was ([`rewrite`]).
//!
//! Fixes are applied to the texts the previous ones left, and checked before they are kept: the
//! edited files must load, the release must not refuse anything it did not refuse before, and a
//! fix marked [`Safety::Safe`] must leave the config in force as it was. Fixes whose edits cannot
//! disturb each other are made and checked together; when that fails, or for the others, one at
//! a time. After every kept fix the config is linted again (a fix can make another exact), until
//! no fix is left, so a second run changes nothing. Nothing is written here: the caller gets the texts
//! before and after, and what access changed ([`access_changes`]).

pub mod rewrite;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::OpenClawVersion;
use crate::config::edit::{Autofix, Change, Place, Safety};
use crate::config::loading::{self, LoadedFiles};
use crate::config::path::{KeyPath, PathSeg};
use crate::config::{Buffers, ConfigError, LoadOptions, Location};
use crate::exec::{ApprovalsInput, ExecError};
use crate::fleet::diff::{self, Changes};
use crate::lint::{self, LintContext, Selection, Severity, suppress::Suppressions};

/// At most this many fixes are tried in one run (each is a load and a lint).
pub const MAX_FIXES: usize = 1_000;

/// Where a fix comes from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum FixSource {
    /// A lint finding (CP109 for a form the release migrates at load).
    Lint { code: &'static str, rule: &'static str, message: String },
    /// `explain TOOL`'s edits that bring the tool back.
    Explain { tool: String },
}

/// A fix to apply, with where it comes from and where it points.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    pub source: FixSource,
    #[serde(flatten)]
    pub autofix: Autofix,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

impl Candidate {
    /// What tells two fixes apart: the same fix found again after another was made is not
    /// tried twice.
    fn key(&self) -> String {
        format!("{:?}{:?}", self.source, self.autofix)
    }
}

/// A fix that was not applied, and why.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotApplied {
    #[serde(flatten)]
    pub fix: Candidate,
    pub reason: String,
}

/// One file the fixes changed: its text before and after.
#[derive(Debug, Clone)]
pub struct FileChange {
    pub path: PathBuf,
    pub before: String,
    pub after: String,
    /// The same texts with secrets masked, safe to show (a diff, a preview).
    pub before_shown: String,
    pub after_shown: String,
}

/// What to fix.
pub struct Request<'a> {
    pub files: &'a [PathBuf],
    pub options: &'a LoadOptions,
    /// Apply fixes that change access.
    pub unsafe_fixes: bool,
    /// Apply the fixes of lint findings (with these rules).
    pub lint: Option<&'a Selection>,
    pub suppressions: &'a Suppressions,
    /// Fixes to apply first, in order (`explain --apply`).
    pub given: Vec<Candidate>,
    /// Texts to read in place of files (an editor's unsaved buffers); empty for the files.
    pub buffers: Buffers,
}

/// What `fix` did.
pub struct Outcome {
    pub before: LoadedFiles,
    pub after: LoadedFiles,
    pub applied: Vec<Candidate>,
    pub not_applied: Vec<NotApplied>,
    pub files: Vec<FileChange>,
}

/// Applies every fix the request allows, checking each (see the module comment).
pub fn run(request: Request<'_>) -> Result<Outcome, ConfigError> {
    let load = || loading::load_files_with_buffers(request.files, request.options, Arc::new(request.buffers.clone()));
    let (before, mut current) = (load()?, load()?);
    let mut buffers = request.buffers.clone();
    let mut applied = Vec::new();
    let mut not_applied = Vec::new();
    let mut tried: HashSet<String> = HashSet::new();
    let mut given = request.given.clone().into_iter();
    'rounds: while tried.len() < MAX_FIXES {
        let next_given = given.next();
        let lint_round = next_given.is_none();
        let candidates: Vec<Candidate> = match (next_given, request.lint) {
            (Some(fix), _) => vec![fix],
            (None, Some(selection)) => lint_fixes(&current, selection, request.suppressions),
            (None, None) => Vec::new(),
        };
        let mut fresh = Vec::new();
        for candidate in candidates {
            if tried.contains(&candidate.key()) {
                continue;
            }
            if candidate.autofix.safety == Safety::Unsafe && !request.unsafe_fixes {
                tried.insert(candidate.key());
                let reason = "it changes access; --unsafe-fixes applies it".to_string();
                not_applied.push(NotApplied { fix: candidate, reason });
                continue;
            }
            fresh.push(candidate);
        }
        // The fixes that can be made together are tried in one pass first (a config with
        // hundreds of typos is not loaded hundreds of times); if that pass fails a check, each
        // is tried alone.
        if let Some((texts, loaded, together)) = together(&request, &current, &buffers, &mut fresh) {
            (buffers, current) = (texts, loaded);
            tried.extend(together.iter().map(Candidate::key));
            applied.extend(together);
            continue 'rounds;
        }
        for candidate in fresh {
            tried.insert(candidate.key());
            match attempt(&request, &current, &buffers, &[&candidate.autofix]) {
                Ok((texts, loaded)) => {
                    (buffers, current) = (texts, loaded);
                    applied.push(candidate);
                    continue 'rounds;
                }
                Err(reason) => not_applied.push(NotApplied { fix: candidate, reason }),
            }
        }
        if lint_round {
            break;
        }
    }
    let files = changed_files(&before, &buffers);
    Ok(Outcome { before, after: current, applied, not_applied, files })
}

/// The fixes of the lint findings of a config, at every severity, suppressed findings aside.
pub fn lint_fixes(files: &LoadedFiles, selection: &Selection, suppressions: &Suppressions) -> Vec<Candidate> {
    let ctx = LintContext::new(files.loaded().version(), files.loaded(), files.issues(), None)
        .with_validation_warnings(files.validation_warnings());
    let selection = Selection { severity_min: Severity::Suggestion, finding_cap: None, ..selection.clone() };
    lint::lint(&ctx, &selection, suppressions)
        .findings
        .into_iter()
        .filter_map(|finding| {
            let autofix = finding.autofix?;
            let location = finding.location.map(|l| Location { file: l.file, line: l.line, column: l.column });
            let source = FixSource::Lint { code: finding.code, rule: finding.rule, message: finding.message };
            Some(Candidate { source, autofix, location })
        })
        .collect()
}

/// Makes the fixes of one kind of safety among `candidates` whose edits cannot move what another
/// points at, in one pass, when there are several; they leave `candidates` if the pass passes.
fn together(
    request: &Request<'_>,
    current: &LoadedFiles,
    buffers: &Buffers,
    candidates: &mut Vec<Candidate>,
) -> Option<(Buffers, LoadedFiles, Vec<Candidate>)> {
    for safety in [Safety::Safe, Safety::Unsafe] {
        let mut places: Vec<(PathBuf, Vec<PathSeg>)> = Vec::new();
        let mut chosen = Vec::new();
        for (index, candidate) in candidates.iter().enumerate() {
            let fix = &candidate.autofix;
            let keeps_paths =
                fix.edits.iter().all(|e| matches!(e.change, Change::Set(_) | Change::RenameKey(_) | Change::Append(_)));
            let Ok(mine) = fix.edits.iter().map(|e| written_place(current, &e.place)).collect::<Result<Vec<_>, _>>()
            else {
                continue;
            };
            let overlaps = |(file, path): &(PathBuf, Vec<PathSeg>)| {
                places.iter().any(|(f, p)| f == file && (p.starts_with(path) || path.starts_with(p)))
            };
            if fix.safety == safety && keeps_paths && !mine.iter().any(overlaps) {
                places.extend(mine);
                chosen.push(index);
            }
        }
        if chosen.len() < 2 {
            continue;
        }
        let fixes: Vec<&Autofix> = chosen.iter().map(|&i| &candidates[i].autofix).collect();
        if let Ok((texts, loaded)) = attempt(request, current, buffers, &fixes) {
            let made = chosen.iter().rev().map(|&i| candidates.remove(i)).collect::<Vec<_>>();
            return Some((texts, loaded, made.into_iter().rev().collect()));
        }
    }
    None
}

/// Makes `fixes` on the texts, loads the result, and checks it; the new texts and load, or why
/// not.
fn attempt(
    request: &Request<'_>,
    current: &LoadedFiles,
    buffers: &Buffers,
    fixes: &[&Autofix],
) -> Result<(Buffers, LoadedFiles), String> {
    let mut texts = buffers.clone();
    for edit in fixes.iter().flat_map(|fix| &fix.edits) {
        let (file, path) = written_place(current, &edit.place)?;
        let text = match texts.get(&file) {
            Some(text) => text.clone(),
            None => document_text(current, &file)
                .ok_or_else(|| format!("{} is not a file of this config", file.display()))?,
        };
        let made = rewrite::rewrite(&text, &path, &edit.change).map_err(|e| format!("{}: {e}", file.display()))?;
        if let Some(made) = made {
            texts.insert(file, made.apply(&text));
        }
    }
    if texts == *buffers {
        return Err("the files already say this".to_string());
    }
    let loaded = loading::load_files_with_buffers(request.files, request.options, Arc::new(texts.clone()))
        .map_err(|e| format!("the edited config would not load: {e}"))?;
    let known: HashSet<(String, &str)> =
        current.issues().iter().map(|i| (i.dotted_path(), i.message.as_str())).collect();
    if let Some(new) = loaded.issues().iter().find(|i| !known.contains(&(i.dotted_path(), i.message.as_str()))) {
        return Err(format!("OpenClaw {} would refuse the result: {new}", request.options.version));
    }
    if fixes.iter().any(|fix| fix.safety == Safety::Safe) && !same_in_force(current, &loaded) {
        return Err("it would change the config in force".to_string());
    }
    Ok((texts, loaded))
}

/// The file and key path where `place` is written (or would be: under its nearest written
/// ancestor).
fn written_place(files: &LoadedFiles, place: &Place) -> Result<(PathBuf, Vec<PathSeg>), String> {
    let path = match place {
        Place::Written { file, path } => return Ok((file.clone(), path.clone())),
        Place::InForce(path) => path,
    };
    let tree = files.loaded().tree();
    for depth in (0..=path.len()).rev() {
        let Some(origin) = tree.get(&path[..depth]).and_then(|node| node.origin.as_deref()) else { continue };
        if depth == path.len() {
            let span = origin.span.offset()..origin.span.offset() + origin.span.len();
            if origin.source.text().get(span).is_some_and(|written| written.contains("${")) {
                return Err(format!("`{}` is written with a ${{VAR}} reference", KeyPath(path.clone())));
            }
        }
        let mut written = origin.key_path();
        written.extend(path[depth..].iter().cloned());
        return Ok((origin.file().to_path_buf(), written));
    }
    Err(format!("no file of this config holds `{}`", KeyPath(path.clone())))
}

fn document_text(files: &LoadedFiles, file: &Path) -> Option<String> {
    let document = files.loaded().documents().iter().find(|d| d.path() == file)?;
    Some(document.source.text().to_string())
}

/// Whether two loads put the same config in force. Writing a legacy `default: true` marker's
/// roles down adds `agents.ownership: "explicit"`, which is what the release assumed.
fn same_in_force(before: &LoadedFiles, after: &LoadedFiles) -> bool {
    if before.config() == after.config() {
        return true;
    }
    let owned = before.loaded().legacy_owner().is_some() && after.loaded().legacy_owner().is_none();
    let mut config = after.config().clone();
    let explicit =
        config.pointer_mut("/agents").and_then(|a| a.as_object_mut()).and_then(|a| a.shift_remove("ownership"));
    owned && explicit.as_ref().and_then(|o| o.as_str()) == Some("explicit") && &config == before.config()
}

/// The files whose text changed, each once (a file included twice is a document per inclusion).
fn changed_files(before: &LoadedFiles, buffers: &Buffers) -> Vec<FileChange> {
    let mut seen = HashSet::new();
    before
        .loaded()
        .documents()
        .iter()
        .filter(|document| seen.insert(document.path().to_path_buf()))
        .filter_map(|document| {
            let after = buffers.get(document.path()).filter(|text| *text != document.source.text())?;
            Some(FileChange {
                path: document.path().to_path_buf(),
                before: document.source.text().to_string(),
                after: after.clone(),
                before_shown: document.source.display_text().to_string(),
                after_shown: document.display_text_of(after),
            })
        })
        .collect()
}

/// What the fixes changed in access: every enumerated session resolved before and after, as
/// `diff` compares two configs.
pub fn access_changes(outcome: &Outcome, version: OpenClawVersion, cwd: &Path) -> Result<Changes, ExecError> {
    let (before, after) = (&outcome.before, &outcome.after);
    // Files below the working directory are named relative to it.
    let shown = |file: String| Path::new(&file).strip_prefix(cwd).map_or(file.clone(), |p| p.display().to_string());
    let before_locate = |path: &KeyPath| before.locate(path).map(|l| l.map_file(shown));
    let before_nearest = |path: &KeyPath| before.locate_nearest(path).map(|l| l.map_file(shown));
    let after_locate = |path: &KeyPath| after.locate(path).map(|l| l.map_file(shown));
    let after_nearest = |path: &KeyPath| after.locate_nearest(path).map(|l| l.map_file(shown));
    let probes: Vec<String> = crate::fleet::probe::BUILTIN_PROBES.iter().map(|p| p.to_string()).collect();
    let options = diff::Options {
        plugin_tools: &[],
        jobs: &[],
        agents: &[],
        probes: &probes,
        approvals: ApprovalsInput::None,
        cwd: cwd.to_path_buf(),
    };
    diff::diff(
        &diff::Config { value: before.config(), version, locate: &before_locate, locate_nearest: &before_nearest },
        &diff::Config { value: after.config(), version, locate: &after_locate, locate_nearest: &after_nearest },
        &options,
    )
}

/// `explain`'s edits that bring `tool` back, as one fix. List elements are removed last, the
/// highest index first, so that each removal's index still points at its element.
pub fn explain_candidate(tool: &str, fixes: &[crate::policy::explain::Fix]) -> Option<Candidate> {
    use crate::config::edit::ConfigEdit;
    use crate::policy::explain::Edit;
    let mut edits: Vec<&Edit> = fixes.iter().flat_map(|fix| &fix.edits).collect();
    let removal_order = |edit: &&Edit| match edit {
        Edit::Remove { path, .. } => match path.segments().split_last() {
            Some((PathSeg::Index(index), list)) => (1, KeyPath(list.to_vec()).to_string(), usize::MAX - index),
            _ => (1, path.to_string(), 0),
        },
        _ => (0, String::new(), 0),
    };
    edits.sort_by_key(removal_order);
    let edits: Vec<ConfigEdit> = edits
        .into_iter()
        .map(|edit| match edit {
            Edit::Append { path, value } => ConfigEdit::in_force(path.segments(), Change::Append(value.clone().into())),
            Edit::Remove { path, .. } => ConfigEdit::in_force(path.segments(), Change::Remove),
            Edit::Set { path, value } => ConfigEdit::in_force(path.segments(), Change::Set(value.clone())),
        })
        .collect();
    if edits.is_empty() {
        return None;
    }
    Some(Candidate {
        source: FixSource::Explain { tool: tool.to_string() },
        autofix: Autofix::new(format!("bring `{tool}` back"), Safety::Unsafe, edits),
        location: None,
    })
}

#[cfg(test)]
mod tests;
