//! One validation issue, rendered like OpenClaw (`- <path>: <message>`) and as a miette diagnostic.

use std::fmt;
use std::sync::OnceLock;

use miette::{Diagnostic, LabeledSpan, SourceCode};

use crate::config::path::{PathSeg, dotted};
use crate::config::problem::ProblemKind;
use crate::config::snippet::{Excerpt, Mark};
use crate::config::source::Origin;

/// What kind of mistake an issue is, for grouping and for hints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IssueCategory {
    /// A key the schema does not know (strict objects).
    UnknownKey,
    /// A required key is absent.
    MissingKey,
    WrongType,
    /// A value outside an enumeration (`profile: "default"`).
    InvalidEnum,
    /// A number or length outside its range.
    OutOfRange,
    /// A string or key not matching the required pattern (e.g. agent ids).
    InvalidFormat,
    /// A value matching none of the allowed shapes.
    InvalidUnion,
    /// A cross-field rule OpenClaw writes by hand (allow + alsoAllow, roster rules, …).
    Refinement,
    /// A `${VAR}` without a value (2026.2).
    MissingEnvVar,
    /// A retired key the release reports with its own legacy message (2026.2 validation).
    Legacy,
}

impl IssueCategory {
    pub fn code(self) -> &'static str {
        match self {
            IssueCategory::UnknownKey => "config::invalid::unknown-key",
            IssueCategory::MissingKey => "config::invalid::missing-key",
            IssueCategory::WrongType => "config::invalid::wrong-type",
            IssueCategory::InvalidEnum => "config::invalid::enum",
            IssueCategory::OutOfRange => "config::invalid::range",
            IssueCategory::InvalidFormat => "config::invalid::format",
            IssueCategory::InvalidUnion => "config::invalid::union",
            IssueCategory::Refinement => "config::invalid::rule",
            IssueCategory::MissingEnvVar => "config::invalid::missing-env-var",
            IssueCategory::Legacy => "config::invalid::legacy",
        }
    }
}

/// The help line naming the known key an unknown `key` probably meant.
pub fn unknown_key_hint(key: &str, suggestion: &str) -> String {
    format!("`{key}` → did you mean `{suggestion}`?")
}

#[derive(Debug, Clone)]
pub struct ValidationIssue {
    /// Where the issue is; for unknown or missing keys, the object that holds them.
    pub path: Vec<PathSeg>,
    pub message: String,
    pub category: IssueCategory,
    /// A fix hint (e.g. "did you mean `alsoAllow`?").
    pub help: Option<String>,
    pub origin: Option<Origin>,
    /// Whether `openclaw doctor --fix` repairs it or nothing does.
    pub kind: ProblemKind,
    /// Where each of the [`unknown_keys`](Self::unknown_keys) is written (the snippet underlines
    /// them, not the object).
    pub unknown_key_origins: Vec<Origin>,
    excerpt: OnceLock<Excerpt>,
}

impl ValidationIssue {
    pub fn new(path: Vec<PathSeg>, message: impl Into<String>, category: IssueCategory) -> Self {
        ValidationIssue {
            path,
            message: message.into(),
            category,
            help: None,
            origin: None,
            kind: ProblemKind::Fatal,
            unknown_key_origins: Vec::new(),
            excerpt: OnceLock::new(),
        }
    }

    /// The keys an unknown-key issue names (`Unrecognized keys: "a", "b"`); empty for other issues.
    pub fn unknown_keys(&self) -> Vec<&str> {
        if self.category != IssueCategory::UnknownKey {
            return Vec::new();
        }
        self.message.split('"').skip(1).step_by(2).collect()
    }

    /// What the issue is about: each unknown key's own path, or the issue's path.
    pub fn subjects(&self) -> Vec<Vec<PathSeg>> {
        match self.category {
            IssueCategory::UnknownKey => self
                .unknown_keys()
                .into_iter()
                .map(|key| {
                    let mut path = self.path.clone();
                    path.push(PathSeg::key(key));
                    path
                })
                .collect(),
            _ => vec![self.path.clone()],
        }
    }

    /// The key the help suggests for the unknown `key` ([`unknown_key_hint`]).
    pub fn suggested_key(&self, key: &str) -> Option<&str> {
        let prefix = format!("`{key}` → did you mean `");
        let line = self.help.as_deref()?.lines().find_map(|line| line.strip_prefix(&prefix))?;
        line.strip_suffix("`?")
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The snippet: each unknown key, else the value the issue is about (for a missing key, the
    /// object that lacks it), cut to a few lines.
    fn excerpt(&self) -> Option<&Excerpt> {
        let origin = self.origin.as_ref()?;
        Some(self.excerpt.get_or_init(|| {
            let same_file =
                self.unknown_key_origins.iter().filter(|o| std::sync::Arc::ptr_eq(&o.source, &origin.source));
            let mut marks: Vec<Mark> = same_file.map(|key| Mark::key(key, "unknown key")).collect();
            if marks.is_empty() {
                let label = if self.category == IssueCategory::MissingKey { "in this object" } else { "this value" };
                marks.push(Mark::member(origin, label));
            }
            Excerpt::new(&origin.source, marks)
        }))
    }

    /// OpenClaw's path format: dot-joined, array indexes as bare numbers, root `""`.
    pub fn dotted_path(&self) -> String {
        dotted(&self.path)
    }
}

impl fmt::Display for ValidationIssue {
    /// `<path>: <message>`, the root printed as `<root>` (as OpenClaw's log lines do).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.dotted_path();
        let path = if path.is_empty() { "<root>" } else { path.as_str() };
        write!(f, "{}: {}", crate::base::escape::visible(path), crate::base::escape::visible(&self.message))
    }
}

impl std::error::Error for ValidationIssue {}

impl Diagnostic for ValidationIssue {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.category.code()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let kind = self.kind.explanation();
        Some(Box::new(match &self.help {
            Some(help) => format!("{help}\n{kind}"),
            None => kind.to_string(),
        }))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.excerpt().map(|e| e as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.excerpt().map(Excerpt::labels)
    }
}
