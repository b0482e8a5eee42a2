//! "What each file said": every file read while loading, as written, before includes and
//! overlays. Only the text is kept: the parsed tree moves into the config, so a file's values are
//! held once ([`Document::parse_as_written`] parses it again when it is asked for).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::{ConfigError, Snippet};
use super::json5::{self, MAX_FILE_BYTES, ParseNote};
use super::path::PathSeg;
use super::source::SourceFile;
use super::tree::Node;
use crate::base::userfile::{self, ReadError};

/// One file as written: its source text, and where its root lands in the resolved config.
#[derive(Debug, Clone)]
pub struct Document {
    pub source: Arc<SourceFile>,
    base: Vec<PathSeg>,
}

impl Document {
    pub fn path(&self) -> &Path {
        &self.source.path
    }

    /// Another text of this file (an edit of it) as it may be shown: secrets masked where this
    /// file's values land, control characters neutralized.
    pub fn display_text_of(&self, text: &str) -> String {
        json5::parse_at(self.source.path.clone(), text.to_string(), &self.base).source.display_text().to_string()
    }

    /// The file's own tree (spans into its text), parsed again: it parsed when it was read, so
    /// it parses now.
    pub fn parse_as_written(&self) -> Option<Node> {
        let outcome = json5::parse_at(self.source.path.clone(), self.source.text().to_string(), &self.base);
        outcome.document.ok().map(|parsed| parsed.root)
    }
}

/// Texts to read in place of files, by the path the loader resolves (an editor's unsaved
/// buffers, a fix being checked before it is written).
pub type Buffers = std::collections::HashMap<PathBuf, String>;

/// Collects the documents read during one load, with the parser's notes.
#[derive(Debug, Default)]
pub(crate) struct Documents {
    pub documents: Vec<Document>,
    pub notes: Vec<ParseNote>,
    pub buffers: Option<Arc<Buffers>>,
    /// Values read so far, every file together (held to [`json5::MAX_VALUES`]).
    pub values: usize,
}

/// How a failed parse should be reported: a syntax error of a top-level file is `config::parse`,
/// of an include OpenClaw's "Failed to parse include file" wording from the caller; a config past
/// the value budget is its own error wherever the file sits.
pub(crate) enum ParseFailure {
    Syntax { message: String, at: Box<Snippet> },
    OverBudget(Box<ConfigError>),
}

impl Documents {
    /// The text given for `path` in place of the file, within the size cap files have.
    pub fn buffer(&self, path: &Path) -> Option<Result<String, ConfigError>> {
        let text = self.buffers.as_ref()?.get(path)?;
        Some(if text.len() as u64 > MAX_FILE_BYTES {
            Err(ConfigError::TooLarge { path: path.to_path_buf(), limit: MAX_FILE_BYTES })
        } else {
            Ok(text.clone())
        })
    }

    /// The text of `path`: its buffer, else the file ([`Documents::read`]).
    pub fn read_text(&self, path: &Path) -> Result<String, ConfigError> {
        self.buffer(path).unwrap_or_else(|| Documents::read(path))
    }

    /// Reads a file the way OpenClaw does (`readFileSync(path, "utf-8")`: invalid UTF-8 becomes
    /// U+FFFD), within the limits that protect us from hostile input ([`crate::base::userfile`]).
    pub fn read(path: &Path) -> Result<String, ConfigError> {
        let bytes = userfile::read(path, MAX_FILE_BYTES).map_err(|error| match error {
            ReadError::Io(source) => ConfigError::Read { path: path.to_path_buf(), source },
            ReadError::NotRegular(kind) => ConfigError::NotRegular { path: path.to_path_buf(), kind },
            ReadError::TooLarge(limit) => ConfigError::TooLarge { path: path.to_path_buf(), limit },
        })?;
        Ok(match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(invalid) => String::from_utf8_lossy(invalid.as_bytes()).into_owned(),
        })
    }

    /// Parses `text` as the file `path`, whose root lands at `base` in the resolved config, and
    /// records it; returns the root to resolve. A file that takes the config past
    /// [`json5::MAX_VALUES`] values is refused before its tree is built.
    pub fn parse(&mut self, path: PathBuf, text: String, base: &[PathSeg]) -> Result<Node, ParseFailure> {
        let outcome = json5::parse_within(path, text, base, json5::MAX_VALUES - self.values);
        match outcome.document {
            Ok(parsed) => {
                self.values += parsed.values;
                self.notes.extend(parsed.notes);
                self.documents.push(Document { source: outcome.source, base: base.to_vec() });
                Ok(parsed.root)
            }
            Err(err) if err.over_budget => Err(ParseFailure::OverBudget(Box::new(ConfigError::TooManyValues {
                path: outcome.source.path.clone(),
                limit: json5::MAX_VALUES,
                at: Some(Snippet::new(&outcome.source, err.span, "the first value past the budget")),
            }))),
            Err(err) => Err(ParseFailure::Syntax {
                at: Snippet::new(&outcome.source, err.span, err.message.clone()),
                message: err.message,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_read_as_node_reads_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.json5");
        std::fs::write(&path, b"\xef\xbb\xbf{a: 'x\xffy'}").unwrap();
        assert_eq!(Documents::read(&path).unwrap(), "\u{feff}{a: 'x\u{fffd}y'}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_refused_before_reading() {
        assert!(matches!(
            Documents::read(Path::new("/dev/zero")),
            Err(ConfigError::NotRegular { kind: "a character device", .. })
        ));
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.json5");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        assert!(matches!(Documents::read(&fifo), Err(ConfigError::NotRegular { kind: "a FIFO", .. })));
    }

    #[test]
    fn an_unparsable_file_is_echoed_only_as_a_masked_bounded_snippet() {
        // What `/proc/self/environ` looks like: one line, NUL-separated assignments.
        let environ = format!(
            "HOSTNAME=box\0AWS_SECRET_ACCESS_KEY=hunter2hunter2\0GH_TOKEN=ghp_{}\0{}",
            "a1".repeat(18),
            "LONG=x\0".repeat(10_000)
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("environ");
        std::fs::write(&path, &environ).unwrap();
        let err =
            crate::config::load(&[path], &crate::config::test_support::options(crate::OpenClawVersion::V2026_9, &[]))
                .unwrap_err();
        let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
        let mut shown = String::new();
        handler.render_report(&mut shown, &err).unwrap();
        assert!(!shown.contains("hunter2") && !shown.contains("a1a1a1"), "{shown}");
        assert!(!shown.contains('\0') && shown.len() < 2_000, "{shown}");
    }

    #[test]
    fn the_size_cap_holds_while_reading() {
        if Path::new("/proc/self/environ").exists() {
            // procfs reports 0 bytes; the read itself is capped.
            assert!(Documents::read(Path::new("/proc/self/environ")).is_ok());
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json5");
        std::fs::write(&path, vec![b' '; MAX_FILE_BYTES as usize + 1]).unwrap();
        assert!(matches!(Documents::read(&path), Err(ConfigError::TooLarge { .. })));
    }
}
