//! Load errors and warnings, as miette diagnostics with stable codes.

use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use miette::{Diagnostic, LabeledSpan, Severity, SourceCode, SourceSpan};

use super::snippet::{Excerpt, Mark};
use super::source::{Origin, SourceFile};

/// A labelled place in a source file, with the few lines around it.
#[derive(Clone)]
pub struct Snippet {
    excerpt: Excerpt,
}

impl Snippet {
    pub fn new(source: &SourceFile, span: SourceSpan, label: impl Into<String>) -> Box<Self> {
        Box::new(Snippet { excerpt: Excerpt::new(source, vec![Mark::new(span, label)]) })
    }

    /// The value at `origin` (with its key, when it has one).
    pub fn at(origin: &Origin, label: impl Into<String>) -> Box<Self> {
        Box::new(Snippet { excerpt: Excerpt::new(&origin.source, vec![Mark::member(origin, label)]) })
    }
}

impl fmt::Debug for Snippet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Snippet({:?})", self.excerpt.labels().collect::<Vec<_>>())
    }
}

/// Why an `$include` failed; each kind has its own diagnostic code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncludeErrorKind {
    /// `Circular include detected: …`
    Cycle,
    /// `Maximum include depth (10) exceeded at: …`
    Depth,
    /// `Failed to read include file: …`
    Missing,
    /// `Failed to parse include file: …`
    Parse,
    /// Confinement: `Include path escapes config directory` / `… (symlink)`.
    Escape,
    /// Guards on the path or file: null byte, length, regular file, size, hardlinks.
    Guard,
    /// A malformed directive: bad `$include` value, or sibling keys with non-object content.
    Invalid,
}

impl IncludeErrorKind {
    fn code(self) -> &'static str {
        match self {
            IncludeErrorKind::Cycle => "config::include-cycle",
            IncludeErrorKind::Depth => "config::include-depth",
            IncludeErrorKind::Missing => "config::include-missing",
            IncludeErrorKind::Parse => "config::include-parse",
            IncludeErrorKind::Escape => "config::include-escape",
            IncludeErrorKind::Guard => "config::include-guard",
            IncludeErrorKind::Invalid => "config::include-invalid",
        }
    }

    fn help(self) -> &'static str {
        match self {
            IncludeErrorKind::Cycle => {
                "remove one `$include` of the chain; a file may not include one of its ancestors"
            }
            IncludeErrorKind::Depth => "include files may nest at most 10 levels deep; flatten the chain",
            IncludeErrorKind::Missing => "include paths are relative to the file that contains the `$include`",
            IncludeErrorKind::Parse => "fix the syntax of the included file (JSON5)",
            IncludeErrorKind::Escape => {
                "included files must live under the config file's directory (2026.9: or under a directory listed in OPENCLAW_INCLUDE_ROOTS)"
            }
            IncludeErrorKind::Guard => {
                "includes must be regular files of at most 2 MiB, with a path under 4096 characters"
            }
            IncludeErrorKind::Invalid => {
                "`$include` takes a path string or an array of path strings; with sibling keys it must yield an object"
            }
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("config file not found: {}", path.display())]
    NotFound { path: PathBuf },
    #[error("failed to read config file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config file {} is too large (more than {limit} bytes)", path.display())]
    TooLarge { path: PathBuf, limit: u64 },
    #[error("config file {} is not a regular file (it is {kind})", path.display())]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("JSON5 parse failed: {message}")]
    Parse { path: PathBuf, message: String, at: Box<Snippet> },
    #[error("config nests deeper than {limit} levels")]
    TooDeep { limit: usize, at: Option<Box<Snippet>> },
    /// `path`: the file whose values took the config past the budget.
    #[error("config holds more than {limit} values (at {})", path.display())]
    TooManyValues { path: PathBuf, limit: usize, at: Option<Box<Snippet>> },
    #[error("config root must be an object, found {found}")]
    NotObject { path: PathBuf, found: &'static str, at: Option<Box<Snippet>> },
    /// `message` is OpenClaw's own text for the failure.
    #[error("{message}")]
    Include {
        kind: IncludeErrorKind,
        message: String,
        at: Option<Box<Snippet>>,
        /// The underlying cause (I/O or parse error), shown as a note.
        detail: Option<String>,
    },
}

impl ConfigError {
    fn snippet(&self) -> Option<&Snippet> {
        match self {
            ConfigError::Parse { at, .. } => Some(at),
            ConfigError::NotObject { at, .. }
            | ConfigError::Include { at, .. }
            | ConfigError::TooDeep { at, .. }
            | ConfigError::TooManyValues { at, .. } => at.as_deref(),
            ConfigError::NotFound { .. }
            | ConfigError::Read { .. }
            | ConfigError::TooLarge { .. }
            | ConfigError::NotRegular { .. } => None,
        }
    }
}

impl Diagnostic for ConfigError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let code = match self {
            ConfigError::NotFound { .. } => "config::not-found",
            ConfigError::Read { .. } => "config::read",
            ConfigError::TooLarge { .. } => "config::too-large",
            ConfigError::NotRegular { .. } => "config::not-regular-file",
            ConfigError::TooDeep { .. } => "config::too-deep",
            ConfigError::TooManyValues { .. } => "config::too-many-values",
            ConfigError::Parse { .. } => "config::parse",
            ConfigError::NotObject { .. } => "config::not-object",
            ConfigError::Include { kind, .. } => kind.code(),
        };
        Some(Box::new(code))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let help: Box<dyn fmt::Display + 'a> = match self {
            ConfigError::NotFound { .. } => {
                Box::new("check the --config path; without --config a missing default file means an empty config")
            }
            ConfigError::Read { .. } => return None,
            ConfigError::TooLarge { .. } => Box::new(
                "OpenClaw configs are small; split the file with `$include` or check that the right file was given",
            ),
            ConfigError::Parse { .. } => Box::new(
                "openclaw.json is JSON5: comments, trailing commas and unquoted keys are fine, but every value must be complete",
            ),
            ConfigError::NotRegular { .. } => Box::new(
                "configs are read from regular files (or a shell pipe: `--config <(…)`, `--config /dev/stdin`); a FIFO would block and a device may never end",
            ),
            ConfigError::TooDeep { .. } => Box::new(
                "OpenClaw configs nest a few levels deep; check for runaway nesting or includes inside includes",
            ),
            ConfigError::TooManyValues { limit, .. } => Box::new(format!(
                "clawpolicy holds a config, its includes together, to {limit} values (its memory budget; a 2,000-agent fleet holds about 20,000): check for generated lists, or check the parts separately"
            )),
            ConfigError::NotObject { .. } => Box::new("the config must be a JSON5 object: `{ ... }`"),
            ConfigError::Include { kind, detail, .. } => match detail {
                Some(detail) => Box::new(format!("{}\ncause: {detail}", kind.help())),
                None => Box::new(kind.help()),
            },
        };
        Some(help)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.snippet().map(|s| &s.excerpt as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.snippet().map(|s| s.excerpt.labels())
    }
}

/// Something OpenClaw accepts but a user almost never means.
#[derive(Debug, Clone)]
pub struct ConfigWarning {
    pub kind: WarningKind,
    pub message: String,
    /// Key path the warning is about (in the resolved config, or in its file for duplicate keys).
    pub path: Vec<super::path::PathSeg>,
    pub origin: Option<Arc<Origin>>,
    /// Where the overridden/earlier occurrence was (duplicate keys).
    pub related: Option<Arc<Origin>>,
    /// The snippet, cut on first use.
    pub excerpt: OnceLock<Excerpt>,
}

impl ConfigWarning {
    fn excerpt(&self) -> Option<&Excerpt> {
        let origin = self.origin.as_ref()?;
        Some(self.excerpt.get_or_init(|| {
            let mut marks = vec![Mark::member(origin, "here")];
            // Only same-file related spans can be drawn in this snippet.
            if let Some(related) = self.related.as_ref().filter(|r| Arc::ptr_eq(&r.source, &origin.source)) {
                marks.push(Mark::member(related, "first written here"));
            }
            Excerpt::new(&origin.source, marks)
        }))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarningKind {
    DuplicateKey,
    /// 2026.9: `${VAR}` with no value is kept literally.
    MissingEnvVar,
    NonFiniteNumber,
    /// 2026.9 rewrites a retired form while loading (the release's own warning text).
    Migrated,
    /// 2026.9 accepts a multi-agent config in which no agent owns heartbeats (the release's text).
    NoHeartbeatOwner,
    /// The release ignores a plugin setting and starts: a stale or removed plugin id, a plugin
    /// that is not installed, the config of a disabled plugin (the release's text).
    Plugin,
}

impl WarningKind {
    /// The problem kind, for warnings that are config problems: migrated forms, and plugin
    /// settings the release ignores while loading (it works; the file should still change).
    pub fn problem_kind(self) -> Option<super::problem::ProblemKind> {
        matches!(self, WarningKind::Migrated | WarningKind::Plugin).then_some(super::problem::ProblemKind::Migrated)
    }

    pub fn code(self) -> &'static str {
        match self {
            WarningKind::DuplicateKey => "config::duplicate-key",
            WarningKind::MissingEnvVar => "config::missing-env-var",
            WarningKind::NonFiniteNumber => "config::non-finite-number",
            WarningKind::Migrated => "config::migrated",
            WarningKind::NoHeartbeatOwner => "config::no-heartbeat-owner",
            WarningKind::Plugin => "config::plugin",
        }
    }
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::base::escape::visible(&self.message))
    }
}

impl std::error::Error for ConfigWarning {}

impl Diagnostic for ConfigWarning {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.kind.code()))
    }

    fn severity(&self) -> Option<Severity> {
        Some(Severity::Warning)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let help = match self.kind {
            WarningKind::DuplicateKey => "only the last value is used; merge the two entries into one",
            WarningKind::MissingEnvVar => {
                "set the variable (process env, .env or the config `env` block); until then the literal text is used"
            }
            WarningKind::NonFiniteNumber => "use a finite number",
            WarningKind::Migrated => {
                "migrated: OpenClaw rewrites this in memory at load and keeps working; make it permanent with the \
                 edit `clawpolicy lint` shows (CP109) or `openclaw doctor --fix`"
            }
            WarningKind::NoHeartbeatOwner => {
                "set agents.defaults.heartbeat.agentId or agents.defaults.systemAgent.agentId to the agent that should run heartbeats"
            }
            WarningKind::Plugin => {
                "the release starts but does not use this plugin setting; fix or remove it as the message says"
            }
        };
        Some(Box::new(help))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.excerpt().map(|e| e as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.excerpt().map(Excerpt::labels)
    }
}
