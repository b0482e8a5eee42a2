//! The one output-format vocabulary of every command. Each command offers its own subset on
//! `--format` (`cli::output::formats`); what a format means is the same everywhere.

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Readable text and tables, for a terminal (`table`, also called `human`).
    #[default]
    Human,
    /// One JSON document with `schemaVersion` (docs/output-formats.md).
    Json,
    /// The JSON document as YAML.
    Yaml,
    /// SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// GitHub Actions workflow commands (annotations on the pull request).
    Github,
    /// JUnit XML for CI test reports.
    Junit,
}

impl Format {
    /// The name `--format` takes (the human format's other name is an alias).
    pub fn name(self) -> &'static str {
        match self {
            Format::Human => "human",
            Format::Json => "json",
            Format::Yaml => "yaml",
            Format::Sarif => "sarif",
            Format::Github => "github",
            Format::Junit => "junit",
        }
    }

    /// One line for `--help`.
    pub fn summary(self) -> &'static str {
        match self {
            Format::Human => "Readable text and tables, for a terminal",
            Format::Json => "One JSON document with `schemaVersion` (docs/output-formats.md)",
            Format::Yaml => "The JSON document as YAML",
            Format::Sarif => "SARIF 2.1.0 for GitHub code scanning and other SARIF viewers",
            Format::Github => "GitHub Actions workflow commands (annotations on the pull request)",
            Format::Junit => "JUnit XML for CI test reports",
        }
    }

    /// The JSON and YAML documents: the format and document kind a refusal must also be printed
    /// in (`None` for the other formats, whose refusals go to stderr only).
    pub fn machine(self, kind: &str) -> Option<(Format, &str)> {
        matches!(self, Format::Json | Format::Yaml).then_some((self, kind))
    }
}
