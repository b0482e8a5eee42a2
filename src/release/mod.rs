//! What each simulated OpenClaw release does, as data: one [`Release`] per release, built from the
//! files of `data/<line>/` ([`registry`]). Code asks the release (`version.policy()`,
//! `version.exec()`, …), never which release it is: [`version::OpenClawVersion`] is a handle to
//! its registered `Release`.
//!
//! Adding a release: a new `data/<line>/` folder with every file [`registry::Files`] names, and one
//! line in [`registry`]. A test checks that every folder is registered and complete.

pub mod audit;
pub mod automation;
pub mod elevated;
pub mod exec;
pub mod lint;
pub mod loader;
pub mod migrations;
pub mod pack;
pub mod pattern_path;
pub mod patterns;
pub mod plugins;
pub mod registry;
pub mod schema;
pub mod ssrf;
pub mod version;

use std::sync::OnceLock;

use audit::AuditLists;
use automation::AutomationRules;
use exec::ExecRules;
use lint::LintRules;
use loader::LoaderRules;
use migrations::ReleaseMigrations;
use pack::VersionPack;
use plugins::PluginRules;
use registry::Files;
use schema::SchemaPieces;
use ssrf::SsrfRules;

/// One OpenClaw release: its identity and its data, each part parsed on first use (a command
/// that does not validate never pays for the schema).
pub struct Release {
    /// The exact npm release (`2026.9.6`).
    pub id: &'static str,
    /// The monthly line (`2026.9`), which `--openclaw-version` accepts.
    pub line: &'static str,
    /// The npm releases of the line the pack stands for: those its behaviour was checked against
    /// (`--openclaw-version` accepts each).
    pub patches: &'static [&'static str],
    files: Files,
    policy: OnceLock<VersionPack>,
    exec: OnceLock<ExecRules>,
    audit: OnceLock<AuditLists>,
    migrations: OnceLock<ReleaseMigrations>,
    plugins: OnceLock<PluginRules>,
    channels: OnceLock<serde_json::Value>,
    loader: OnceLock<LoaderRules>,
    ssrf: OnceLock<SsrfRules>,
    lint: OnceLock<LintRules>,
    automation: OnceLock<AutomationRules>,
}

impl Release {
    const fn new(id: &'static str, line: &'static str, patches: &'static [&'static str], files: Files) -> Self {
        Release {
            id,
            line,
            patches,
            files,
            policy: OnceLock::new(),
            exec: OnceLock::new(),
            audit: OnceLock::new(),
            migrations: OnceLock::new(),
            plugins: OnceLock::new(),
            channels: OnceLock::new(),
            loader: OnceLock::new(),
            ssrf: OnceLock::new(),
            lint: OnceLock::new(),
            automation: OnceLock::new(),
        }
    }

    /// Tool-policy semantics: catalog, groups, profiles, aliases, pipeline rules (`policy.json`).
    pub fn policy(&self) -> &VersionPack {
        self.policy.get_or_init(|| VersionPack::parse(self.files.policy))
    }

    /// Exec-approval constants (`exec.json`).
    pub fn exec(&self) -> &ExecRules {
        self.exec.get_or_init(|| parse(self.files.exec, "exec"))
    }

    /// The lists `openclaw security audit` reads (`audit.json`).
    pub fn audit(&self) -> &AuditLists {
        self.audit.get_or_init(|| parse(self.files.audit, "audit"))
    }

    /// Load-time migrations and doctor-fixable legacy rules (`migrations.json`).
    pub fn migrations(&self) -> &ReleaseMigrations {
        self.migrations.get_or_init(|| ReleaseMigrations::parse(self.files.migrations))
    }

    /// The release's config JSON Schema (`config-schema.json`), split into pieces.
    pub fn config_schema(&self) -> &SchemaPieces {
        &self.files.config_schema
    }

    /// The plugins the release ships and what its plugin validation reads (`plugins.json`).
    pub fn plugins(&self) -> &PluginRules {
        self.plugins.get_or_init(|| PluginRules::parse(self.files.plugins))
    }

    /// Channel ids the release's bundled channel plugins add (`channels.json`).
    pub fn channels(&self) -> &serde_json::Value {
        self.channels.get_or_init(|| parse(self.files.channels, "channels"))
    }
}

impl Release {
    /// How the release loads a config where releases differ (`config.json`).
    pub fn loader(&self) -> &LoaderRules {
        self.loader.get_or_init(|| parse(self.files.config, "config"))
    }

    /// The release's SSRF guard (`ssrf.json`).
    pub fn ssrf(&self) -> &SsrfRules {
        self.ssrf.get_or_init(|| parse(self.files.ssrf, "ssrf"))
    }

    /// What lint mirrors of the release's audit and how it reads the config (`lint.json`).
    pub fn lint(&self) -> &LintRules {
        self.lint.get_or_init(|| parse(self.files.lint, "lint"))
    }

    /// Scheduled jobs, heartbeats and exec without an approver (`automation.json`).
    pub fn automation(&self) -> &AutomationRules {
        self.automation.get_or_init(|| parse(self.files.automation, "automation"))
    }
}

/// The part of a text the build wrote that a table of offsets (`[start, end]`) names: the build's
/// tables hold offsets, not references the dynamic loader would patch at every start.
pub(crate) fn text_at(text: &'static str, [start, end]: [u32; 2]) -> &'static str {
    &text[start as usize..end as usize]
}

/// Parses a bundled data file. The files are compiled in and covered by tests, so a parse failure
/// is a build defect, not bad input.
fn parse<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> T {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("bundled {what} data does not parse: {e}"))
}
