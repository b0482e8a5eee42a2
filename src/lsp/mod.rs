//! `clawpolicy lsp`: a language server over a `lsp-server` connection. An opened config is
//! loaded as OpenClaw loads it (with the editor's unsaved texts in place of the files, its
//! `$include`d files too) and linted; the findings become diagnostics in the file where each
//! value is written, hovers tell what a tool or agent gets, code actions are `fix`'s edits, and
//! completion offers the tool names, groups and profiles of the selected release.
//!
//! A file is a config of its own unless a config already open includes it: then a change to it
//! lints that config again.

mod hover;
pub mod text;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument, Exit, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{CodeActionRequest, Completion, HoverRequest, Request as _, Shutdown};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionProviderCapability, CompletionItem,
    CompletionItemKind, CompletionOptions, CompletionParams, Diagnostic, DiagnosticSeverity, Hover, HoverContents,
    HoverParams, HoverProviderCapability, MarkupContent, MarkupKind, NumberOrString, PublishDiagnosticsParams,
    ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri, WorkspaceEdit,
};
use miette::Diagnostic as _;

use crate::config::edit::Safety;
use crate::config::loading::{self, LoadedFiles};
use crate::config::{Buffers, ConfigError, LoadOptions};
use crate::fix;
use crate::lint::{self, LintContext, Selection, Severity, suppress::Suppressions};

/// What the server needs to know besides the editor's messages.
pub struct Settings {
    pub options: LoadOptions,
    /// Config files to lint as configs whether or not they are open (their includes then never
    /// count as configs of their own).
    pub configs: Vec<PathBuf>,
}

/// One config as last loaded: its files and its findings.
struct Analysis {
    files: LoadedFiles,
    findings: Vec<lint::Finding>,
}

struct Server {
    settings: Settings,
    /// The editor's texts of the open files.
    open: HashMap<PathBuf, String>,
    /// Each config (by its top-level file) as last loaded; `None` when it could not be loaded.
    analyses: BTreeMap<PathBuf, Option<Analysis>>,
    /// The files each config last published diagnostics for (to clear them when they go).
    published: HashMap<PathBuf, BTreeSet<PathBuf>>,
}

/// The capabilities the server announces.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), "'".into()]),
            ..CompletionOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// Serves one editor session on `connection` (already initialized) until it shuts down.
/// An error is the protocol breaking (the editor gone, or a message that is not LSP).
pub fn serve(connection: &Connection, settings: Settings) -> Result<(), String> {
    let mut server = Server { settings, open: HashMap::new(), analyses: BTreeMap::new(), published: HashMap::new() };
    for config in server.settings.configs.clone() {
        server.analyses.insert(config, None);
    }
    // Messages already sent, in order: a change followed by another change of the same file is
    // taken in without linting, so that fast typing is answered for its last text only.
    let mut queued: VecDeque<Message> = VecDeque::new();
    loop {
        if queued.is_empty() {
            match connection.receiver.recv() {
                Ok(message) => queued.push_back(message),
                Err(_) => return Ok(()),
            }
        }
        queued.extend(connection.receiver.try_iter());
        let Some(message) = queued.pop_front() else { continue };
        match message {
            Message::Request(request) if request.method == Shutdown::METHOD => {
                send(connection, Response::new_ok(request.id, ()).into())?;
                // The `exit` that must follow may already be waiting with the others.
                let is_exit = |m: &Message| matches!(m, Message::Notification(n) if n.method == Exit::METHOD);
                let exit = queued.iter().any(is_exit)
                    || connection.receiver.recv_timeout(std::time::Duration::from_secs(30)).is_ok_and(|m| is_exit(&m));
                return if exit { Ok(()) } else { Err("no exit notification after shutdown".to_string()) };
            }
            Message::Request(request) => {
                let response = server.answer(request);
                send(connection, response.into())?;
            }
            Message::Notification(notification) => {
                let superseded = changed_uri(&notification).is_some_and(|uri| {
                    queued
                        .iter()
                        .any(|next| matches!(next, Message::Notification(n) if changed_uri(n) == Some(uri.clone())))
                });
                for published in server.notified(notification, !superseded) {
                    send(connection, published.into())?;
                }
            }
            Message::Response(_) => {}
        }
    }
}

/// The document a `didChange` notification changes.
fn changed_uri(notification: &Notification) -> Option<String> {
    (notification.method == DidChangeTextDocument::METHOD)
        .then(|| notification.params.pointer("/textDocument/uri")?.as_str().map(str::to_string))
        .flatten()
}

fn send(connection: &Connection, message: Message) -> Result<(), String> {
    connection.sender.send(message).map_err(|e| e.to_string())
}

impl Server {
    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            HoverRequest::METHOD => parse::<HoverParams>(request).map(|p| json(self.hover(&p))),
            Completion::METHOD => parse::<CompletionParams>(request).map(|p| json(self.completion(&p))),
            CodeActionRequest::METHOD => parse::<CodeActionParams>(request).map(|p| json(self.code_actions(&p))),
            other => Err(format!("clawpolicy lsp does not answer {other}")),
        };
        match result {
            Ok(value) => Response { id, result: Some(value), error: None },
            Err(message) => Response::new_err(id, lsp_server::ErrorCode::MethodNotFound as i32, message),
        }
    }

    /// Keeps the open texts; re-lints the configs a change touches and returns their diagnostics.
    /// With `lint` false (a later change of the same file is waiting), only keeps the text.
    fn notified(&mut self, notification: Notification, lint: bool) -> Vec<Notification> {
        let changed = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => notification
                .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                .ok()
                .and_then(|p| {
                    let path = text::path_of(&p.text_document.uri)?;
                    self.open.insert(path.clone(), p.text_document.text);
                    Some(path)
                }),
            DidChangeTextDocument::METHOD => notification
                .extract::<lsp_types::DidChangeTextDocumentParams>(DidChangeTextDocument::METHOD)
                .ok()
                .and_then(|p| {
                    let path = text::path_of(&p.text_document.uri)?;
                    // Full synchronization: the last change holds the whole text.
                    let text = p.content_changes.into_iter().last()?.text;
                    self.open.insert(path.clone(), text);
                    Some(path)
                }),
            // An open file's text is already linted; a saved file that is not open may be included.
            DidSaveTextDocument::METHOD => notification
                .extract::<lsp_types::DidSaveTextDocumentParams>(DidSaveTextDocument::METHOD)
                .ok()
                .and_then(|p| text::path_of(&p.text_document.uri))
                .filter(|path| !self.open.contains_key(path)),
            DidCloseTextDocument::METHOD => notification
                .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                .ok()
                .and_then(|p| {
                    let path = text::path_of(&p.text_document.uri)?;
                    self.open.remove(&path);
                    Some(path)
                }),
            _ => None,
        };
        let Some(path) = changed.filter(|_| lint) else { return Vec::new() };
        let mut configs: Vec<PathBuf> = self
            .analyses
            .iter()
            .filter(|(config, analysis)| **config == path || reads(analysis, &path))
            .map(|(c, _)| c.clone())
            .collect();
        if configs.is_empty() && self.open.contains_key(&path) {
            configs.push(path.clone());
        }
        let mut cleared = Vec::new();
        if !self.open.contains_key(&path) && !self.settings.configs.contains(&path) {
            // A closed file stops being a config of its own, and its diagnostics go.
            self.analyses.remove(&path);
            configs.retain(|c| *c != path);
            let published = self.published.remove(&path).unwrap_or_default();
            cleared.extend(published.iter().filter_map(|file| diagnostics(file, Vec::new())));
        }
        cleared.extend(configs.into_iter().flat_map(|config| self.analyze(&config)));
        cleared
    }

    fn buffers(&self) -> Arc<Buffers> {
        Arc::new(self.open.iter().map(|(path, text)| (path.clone(), text.clone())).collect())
    }

    /// Loads and lints `config`; the diagnostics of every file it reads (and empty ones for files
    /// it no longer reads or no longer has findings in).
    fn analyze(&mut self, config: &Path) -> Vec<Notification> {
        let options = &self.settings.options;
        let mut by_file: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
        let analysis = match loading::load_files_with_buffers(&[config.to_path_buf()], options, self.buffers()) {
            Ok(files) => {
                for document in files.loaded().documents() {
                    by_file.entry(document.path().to_path_buf()).or_default();
                }
                let findings = lint_findings(&files);
                for finding in &findings {
                    let (file, diagnostic) = self.diagnostic(config, finding);
                    by_file.entry(file).or_default().push(diagnostic);
                }
                Some(Analysis { files, findings })
            }
            Err(error) => {
                let (file, diagnostic) = self.load_error(config, &error);
                by_file.entry(config.to_path_buf()).or_default();
                by_file.entry(file).or_default().push(diagnostic);
                None
            }
        };
        self.analyses.insert(config.to_path_buf(), analysis);
        let now: BTreeSet<PathBuf> = by_file.keys().cloned().collect();
        let before = self.published.insert(config.to_path_buf(), now.clone()).unwrap_or_default();
        for gone in before.difference(&now) {
            by_file.insert(gone.clone(), Vec::new());
        }
        by_file.into_iter().filter_map(|(file, found)| diagnostics(&file, found)).collect()
    }

    /// The text of a file as the editor or the disk has it.
    fn text_of(&self, file: &Path) -> Option<String> {
        self.open.get(file).cloned().or_else(|| std::fs::read_to_string(file).ok())
    }

    fn diagnostic(&self, config: &Path, finding: &lint::Finding) -> (PathBuf, Diagnostic) {
        let origin = finding.location.as_ref().and_then(|l| l.origin.as_ref());
        let (file, range) = match origin {
            Some(origin) => {
                let span = origin.label_span();
                (
                    origin.file().to_path_buf(),
                    text::range(origin.source.text(), span.offset(), span.offset() + span.len()),
                )
            }
            None => (config.to_path_buf(), lsp_types::Range::default()),
        };
        let message = match &finding.help {
            Some(help) => format!("{}\n{help}", finding.message),
            None => finding.message.clone(),
        };
        let severity = match finding.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Security | Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Suggestion => DiagnosticSeverity::HINT,
        };
        let diagnostic = Diagnostic {
            range,
            severity: Some(severity),
            code: Some(NumberOrString::String(finding.code.to_string())),
            source: Some("clawpolicy".into()),
            message,
            ..Diagnostic::default()
        };
        (file, diagnostic)
    }

    /// A config that cannot be loaded: one error where the loader points (else at the top).
    fn load_error(&self, config: &Path, error: &ConfigError) -> (PathBuf, Diagnostic) {
        let label = error.labels().and_then(|mut labels| labels.next());
        let named = error
            .source_code()
            .zip(label.as_ref())
            .and_then(|(source, label)| source.read_span(label.inner(), 0, 0).ok()?.name().map(PathBuf::from));
        let file = named.unwrap_or_else(|| config.to_path_buf());
        let range = match (&label, self.text_of(&file)) {
            (Some(label), Some(text)) => text::range(&text, label.offset(), label.offset() + label.len()),
            _ => lsp_types::Range::default(),
        };
        let diagnostic = Diagnostic {
            range,
            severity: Some(DiagnosticSeverity::ERROR),
            code: error.code().map(|c| NumberOrString::String(c.to_string())),
            source: Some("clawpolicy".into()),
            message: error.to_string(),
            ..Diagnostic::default()
        };
        (file, diagnostic)
    }

    /// The loaded config that reads `file`.
    fn analysis_of(&self, file: &Path) -> Option<&Analysis> {
        let reading = |analysis: &&Option<Analysis>| reads(analysis, file);
        self.analyses.get(file).and_then(Option::as_ref).or_else(|| self.analyses.values().find(reading)?.as_ref())
    }

    fn hover(&self, params: &HoverParams) -> Option<Hover> {
        let position = &params.text_document_position_params;
        let file = text::path_of(&position.text_document.uri)?;
        let analysis = self.analysis_of(&file)?;
        let text = self.text_of(&file)?;
        let root = crate::config::json5::parse(file.clone(), text.clone()).document.ok()?.root;
        let offset = text::offset(&text, position.position);
        let version = analysis.files.loaded().version();
        let agents = crate::fleet::contexts::agent_ids(version, analysis.files.config());
        let value = match hover::subject_at(&root, offset, version, &agents)? {
            hover::Subject::Tool(tool) => hover::tool_hover(&analysis.files, &tool),
            hover::Subject::Agent(agent) => hover::agent_hover(&analysis.files, &agent),
        };
        let value = analysis.files.loaded().mask_secrets(&value);
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
            range: None,
        })
    }

    fn completion(&self, params: &CompletionParams) -> Vec<CompletionItem> {
        let position = &params.text_document_position;
        let Some(text) = text::path_of(&position.text_document.uri).and_then(|f| self.text_of(&f)) else {
            return Vec::new();
        };
        let offset = text::offset(&text, position.position);
        let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
        let Some(profiles) = hover::completion_kind(&text[line_start..offset]) else { return Vec::new() };
        hover::completions(self.settings.options.version, profiles)
            .into_iter()
            .map(|(label, what)| CompletionItem {
                kind: Some(if what == "group" { CompletionItemKind::MODULE } else { CompletionItemKind::VALUE }),
                detail: Some(format!("{what} of OpenClaw {}", self.settings.options.version)),
                label,
                ..CompletionItem::default()
            })
            .collect()
    }

    /// `fix`'s edits for the findings on the lines asked about, each checked as `fix` checks it.
    fn code_actions(&self, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
        let Some(file) = text::path_of(&params.text_document.uri) else { return Vec::new() };
        let Some((config, analysis)) = self
            .analyses
            .iter()
            .find(|(c, a)| **c == file || reads(a, &file))
            .and_then(|(c, a)| Some((c, a.as_ref()?)))
        else {
            return Vec::new();
        };
        let lines = params.range.start.line as usize + 1..=params.range.end.line as usize + 1;
        let wanted = |finding: &&lint::Finding| {
            finding.autofix.is_some()
                && finding.location.as_ref().is_some_and(|l| Path::new(&l.file) == file && lines.contains(&l.line))
        };
        let mut actions = Vec::new();
        for finding in analysis.findings.iter().filter(wanted) {
            let candidate = fix::Candidate {
                source: fix::FixSource::Lint {
                    code: finding.code,
                    rule: finding.rule,
                    message: finding.message.clone(),
                },
                autofix: finding.autofix.clone().expect("filtered"),
                location: None,
            };
            let safe = candidate.autofix.safety == Safety::Safe;
            let title =
                format!("{} ({}){}", candidate.autofix.title, finding.code, if safe { "" } else { ": changes access" });
            let Some(edit) = self.workspace_edit(config, None, vec![candidate]) else { continue };
            let (_, diagnostic) = self.diagnostic(config, finding);
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic]),
                edit: Some(edit),
                is_preferred: Some(safe),
                ..CodeAction::default()
            }));
        }
        // Every safe fix of the config at once, as `clawpolicy fix` makes them.
        let safe = analysis.findings.iter().any(|f| f.autofix.as_ref().is_some_and(|a| a.safety == Safety::Safe));
        let every_rule = Selection::default();
        if safe && let Some(edit) = self.workspace_edit(config, Some((&every_rule, &analysis.files)), Vec::new()) {
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: "Fix every problem that keeps the config in force (clawpolicy fix)".into(),
                kind: Some(CodeActionKind::SOURCE_FIX_ALL),
                edit: Some(edit),
                ..CodeAction::default()
            }));
        }
        actions
    }

    /// The edits `fix` makes: the `given` fixes (access may change), or with `lint` every safe
    /// fix of those rules; each passes `fix`'s checks.
    fn workspace_edit(
        &self,
        config: &Path,
        lint: Option<(&Selection, &LoadedFiles)>,
        given: Vec<fix::Candidate>,
    ) -> Option<WorkspaceEdit> {
        let files = [config.to_path_buf()];
        let suppressions = lint.map(|(_, files)| suppressions(files)).unwrap_or_default();
        let outcome = fix::run(fix::Request {
            files: &files,
            options: &self.settings.options,
            unsafe_fixes: lint.is_none(),
            lint: lint.map(|(selection, _)| selection),
            suppressions: &suppressions,
            given,
            buffers: (*self.buffers()).clone(),
        })
        .ok()?;
        // `Uri` is a key of the protocol's own map; it is not changed while it is one.
        #[allow(clippy::mutable_key_type)]
        let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
        for file in outcome.files {
            let edit = fix::rewrite::text_edit(&file.before, &file.after)?;
            let range = text::range(&file.before, edit.range.start, edit.range.end);
            changes.entry(text::uri_of(&file.path)?).or_default().push(TextEdit { range, new_text: edit.replacement });
        }
        (!changes.is_empty()).then(|| WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() })
    }
}

/// The notification that publishes `found` as the diagnostics of `file`.
fn diagnostics(file: &Path, found: Vec<Diagnostic>) -> Option<Notification> {
    let params = PublishDiagnosticsParams { uri: text::uri_of(file)?, diagnostics: found, version: None };
    Some(Notification::new(PublishDiagnostics::METHOD.to_string(), params))
}

/// Whether a loaded config read `file`.
fn reads(analysis: &Option<Analysis>, file: &Path) -> bool {
    analysis.as_ref().is_some_and(|a| a.files.loaded().documents().iter().any(|d| d.path() == file))
}

/// The suppressions next to the config (none when the side file cannot be read).
fn suppressions(files: &LoadedFiles) -> Suppressions {
    Suppressions::for_config(None, files.paths().first().map(|p| p.as_path())).unwrap_or_default()
}

/// Every finding of every rule, at every severity, with the suppressions next to the config.
fn lint_findings(files: &LoadedFiles) -> Vec<lint::Finding> {
    let loaded = files.loaded();
    let suppressions = suppressions(files);
    let ctx = LintContext::new(loaded.version(), loaded, files.issues(), None)
        .with_validation_warnings(files.validation_warnings());
    let selection = Selection {
        severity_min: Severity::Suggestion,
        finding_cap: Some(lint::FINDINGS_PER_RULE_AND_FILE),
        ..Selection::default()
    };
    lint::lint(&ctx, &selection, &suppressions).findings
}

fn parse<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, String> {
    serde_json::from_value(request.params).map_err(|e| format!("bad parameters: {e}"))
}

fn json(value: impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn changes_waiting_behind_a_change_of_the_same_file_are_linted_once() {
        let dir = tempfile::tempdir().unwrap();
        let uri = text::uri_of(&dir.path().join("openclaw.json5")).unwrap();
        let (server, client) = Connection::memory();
        let notify = |method: &str, params: serde_json::Value| {
            client.sender.send(Notification::new(method.to_string(), params).into()).unwrap();
        };
        let document = json!({"uri": uri, "languageId": "json5", "version": 1, "text": "{}"});
        notify(DidOpenTextDocument::METHOD, json!({"textDocument": document}));
        for (version, text) in [(2, "{ tools: { deny: ['raed'] } }"), (3, "{ tools: { deny: ['read'] } }")] {
            let change = json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]});
            notify(DidChangeTextDocument::METHOD, change);
        }
        let shutdown = Request::new(1.into(), "shutdown".into(), serde_json::Value::Null);
        client.sender.send(shutdown.into()).unwrap();
        notify("exit", serde_json::Value::Null);
        let settings = Settings {
            options: crate::config::test_support::options(crate::OpenClawVersion::V2026_9, &[]),
            configs: Vec::new(),
        };
        serve(&server, settings).unwrap();
        let published: Vec<serde_json::Value> = client
            .receiver
            .try_iter()
            .filter_map(|m| match m {
                Message::Notification(n) if n.method == PublishDiagnostics::METHOD => Some(n.params),
                _ => None,
            })
            .collect();
        // The open, then the last change only: the typo of the change in between was never linted.
        assert_eq!(published.len(), 2, "{published:?}");
        assert!(published.iter().all(|p| !p.to_string().contains("CP201")), "{published:?}");
    }
}
