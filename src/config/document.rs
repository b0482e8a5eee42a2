//! "What each file said": every file read while loading, parsed, before includes and overlays.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::{ConfigError, Snippet};
use super::json5::{self, MAX_FILE_BYTES, ParseNote};
use super::path::PathSeg;
use super::source::{Origin, SourceFile};
use super::tree::Node;

/// One file as written: its source text and its own parsed tree (spans into that text).
#[derive(Debug, Clone)]
pub struct Document {
    pub source: Arc<SourceFile>,
    pub root: Node,
}

impl Document {
    pub fn path(&self) -> &Path {
        &self.source.path
    }

    /// The origin of the value at `path` *in this file's own tree*.
    pub fn origin(&self, path: &[PathSeg]) -> Option<&Origin> {
        self.root.get(path)?.origin.as_deref()
    }
}

/// Collects the documents read during one load, with the parser's notes.
#[derive(Debug, Default)]
pub(crate) struct Documents {
    pub documents: Vec<Document>,
    pub notes: Vec<ParseNote>,
}

/// How a failed parse should be reported: a top-level file is `config::parse`; an include gets
/// OpenClaw's "Failed to parse include file" wording from the caller.
pub(crate) struct ParseFailure {
    pub message: String,
    pub at: Box<Snippet>,
}

impl Documents {
    /// Reads a file with the size cap that protects us from hostile input.
    pub fn read(path: &Path) -> Result<String, ConfigError> {
        let size =
            std::fs::metadata(path).map_err(|source| ConfigError::Read { path: path.to_path_buf(), source })?.len();
        if size > MAX_FILE_BYTES {
            return Err(ConfigError::TooLarge { path: path.to_path_buf(), size, limit: MAX_FILE_BYTES });
        }
        std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_path_buf(), source })
    }

    /// Parses `text` as the file `path` and records it; returns the root to resolve.
    pub fn parse(&mut self, path: PathBuf, text: String) -> Result<Node, ParseFailure> {
        let outcome = json5::parse(path, text);
        match outcome.document {
            Ok(parsed) => {
                self.notes.extend(parsed.notes);
                self.documents.push(Document { source: outcome.source, root: parsed.root.clone() });
                Ok(parsed.root)
            }
            Err(err) => Err(ParseFailure {
                at: Box::new(Snippet {
                    src: outcome.source.named_source(),
                    span: err.span,
                    label: err.message.clone(),
                }),
                message: err.message,
            }),
        }
    }
}
