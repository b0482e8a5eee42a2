//! The seam between commands and the config loader: load and validate config files (or a batch
//! case's config) and say what the release would refuse. Nothing here prints: commands decide
//! how to show warnings and refusals.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::config::path::substitution_path;
use crate::config::{
    self, ConfigError, ConfigWarning, LoadOptions, LoadedConfig, Location, ValidationIssue, WarningKind,
};

/// A case's config after loading and validation.
pub struct LoadedCase {
    pub config: Value,
    /// Validation issues as `{path, message, kind}`; non-empty means OpenClaw refuses the config.
    pub issues: Vec<Value>,
    /// What the release says about the config, in the oracle's shape: `valid`, and when present
    /// `issues`, `warnings` (the release's own, `{path, message}`) and `legacyIssues`.
    pub report: Value,
    /// clawpolicy's own loader notes (duplicate keys, non-finite numbers), not the release's.
    pub notes: Vec<String>,
}

/// Load options for a batch: the process environment, taken once per process, not per case (a
/// batch of thousands must not copy the environment thousands of times).
pub fn process_options(version: OpenClawVersion) -> LoadOptions {
    static PROCESS: std::sync::OnceLock<LoadOptions> = std::sync::OnceLock::new();
    let mut opts = PROCESS.get_or_init(|| LoadOptions::from_process(version)).clone();
    opts.version = version;
    opts
}

/// Loads the config of a batch case: inline `config` (object, or JSON5 text) or `configPath`
/// (relative to the batch file), through the same pipeline and validation as config files.
pub fn load_case_config(case: &Value, opts: &LoadOptions, base_dir: &Path) -> Result<LoadedCase, Value> {
    let mut opts = opts.clone();
    opts.cwd = base_dir.to_path_buf();
    let config_error = |e: ConfigError| json!({"kind": "config", "message": e.to_string()});
    let loaded = match (case.get("config"), case.get("configPath").and_then(Value::as_str)) {
        (Some(Value::String(text)), _) => load_text(text, &opts)?,
        (Some(value), _) => config::load_inline(value.clone(), &opts).map_err(config_error)?,
        // Relative to the batch file's folder, which is the loader's working directory here.
        (None, Some(path)) => config::load(&[PathBuf::from(path)], &opts).map_err(config_error)?,
        (None, None) => config::load_inline(json!({}), &opts).map_err(config_error)?,
    };
    let version = opts.version;
    let validation = config::validate::check(&loaded, version);
    let issues: Vec<Value> = validation
        .issues
        .iter()
        .map(|issue| json!({"path": issue.dotted_path(), "message": issue.message, "kind": issue.kind}))
        .collect();
    let warnings: Vec<Value> = validation
        .warnings
        .iter()
        .chain(loaded.warnings())
        .filter_map(|w| release_warning_path(w, version).map(|path| json!({"path": path, "message": w.message})))
        .collect();
    let legacy: Vec<Value> =
        validation.legacy.iter().map(|m| json!({"path": m.path(), "message": m.message()})).collect();
    let mut report = json!({"valid": issues.is_empty()});
    for (key, list) in [("issues", &issues), ("warnings", &warnings), ("legacyIssues", &legacy)] {
        if !list.is_empty() {
            report[key] = Value::Array(list.clone());
        }
    }
    let notes = loaded.warnings().iter().filter(|w| !is_release_warning(w.kind)).map(|w| w.message.clone()).collect();
    Ok(LoadedCase { config: loaded.value().clone(), issues, report, notes })
}

fn is_release_warning(kind: WarningKind) -> bool {
    matches!(
        kind,
        WarningKind::MissingEnvVar | WarningKind::Migrated | WarningKind::NoHeartbeatOwner | WarningKind::Plugin
    )
}

/// The path a warning of the release's own carries, printed the way the release prints it;
/// `None` for clawpolicy's own loader notes.
pub fn release_warning_path(warning: &ConfigWarning, version: OpenClawVersion) -> Option<String> {
    match warning.kind {
        WarningKind::MissingEnvVar => Some(substitution_path(&warning.path, version.loader().env.reference_path)),
        WarningKind::Migrated => Some(config::migrate::release_path(&warning.path)),
        WarningKind::NoHeartbeatOwner | WarningKind::Plugin => Some(config::path::dotted(&warning.path)),
        WarningKind::DuplicateKey | WarningKind::NonFiniteNumber => None,
    }
}

/// JSON5 text given inline in a case: parsed with the config parser, then loaded like an inline
/// object.
fn load_text(text: &str, opts: &LoadOptions) -> Result<LoadedConfig, Value> {
    // The cap of a config file holds for one written inline: the parser builds a file's whole
    // syntax tree before it counts its values.
    if text.len() as u64 > config::json5::MAX_FILE_BYTES {
        let message = format!(
            "the inline config is larger than {} bytes, the most a config file may hold",
            config::json5::MAX_FILE_BYTES
        );
        return Err(json!({"kind": "config", "message": message}));
    }
    let outcome = config::json5::parse(PathBuf::from("<case config>"), text.to_string());
    let parsed = outcome
        .document
        .map_err(|e| json!({"kind": "config", "message": format!("JSON5 parse failed: {}", e.message)}))?;
    config::load_inline(parsed.root.to_value(), opts).map_err(|e| json!({"kind": "config", "message": e.to_string()}))
}

/// Config files loaded, with what the release would reject in them.
pub struct LoadedFiles {
    loaded: LoadedConfig,
    issues: Vec<ValidationIssue>,
    /// Warnings the release's validation adds.
    warnings: Vec<ConfigWarning>,
}

impl LoadedFiles {
    /// A loaded config with what its release would reject in it.
    pub fn validated(loaded: LoadedConfig) -> Self {
        let validation = config::validate::check(&loaded, loaded.version());
        LoadedFiles { loaded, issues: validation.issues, warnings: validation.warnings }
    }

    /// The config in force.
    pub fn config(&self) -> &Value {
        self.loaded.value()
    }

    /// The loaded config with its provenance, for `lint`.
    pub fn loaded(&self) -> &LoadedConfig {
        &self.loaded
    }

    /// What the release would reject; empty means it accepts the config.
    pub fn issues(&self) -> &[ValidationIssue] {
        &self.issues
    }

    /// Warnings the release's validation adds, also to a config its plugin checks refuse (after
    /// the loader's own, [`LoadedConfig::warnings`]).
    pub fn validation_warnings(&self) -> &[ConfigWarning] {
        &self.warnings
    }

    /// Where the value at `path` was written, if it came from a file.
    pub fn locate(&self, path: &KeyPath) -> Option<Location> {
        self.loaded.origin(path.segments()).map(|origin| Location::from(&origin))
    }

    /// The key path of the value at `path` in the file that holds it, when that differs from
    /// `path`: a legacy roster entry the loader moved (`agents.list[1]…` now in force as
    /// `agents.entries.work…`), or a value read from an `$include`d file.
    pub fn written_path(&self, path: &KeyPath) -> Option<KeyPath> {
        let origin = self.loaded.origin(path.segments())?;
        let written = origin.key_path();
        (written != path.segments()).then_some(KeyPath(written))
    }

    /// Where the value at `path` is written, or its nearest written ancestor (where it would go).
    pub fn locate_nearest(&self, path: &KeyPath) -> Option<Location> {
        self.loaded.nearest_origin(path.segments()).map(|origin| Location::from(&origin))
    }

    /// The top-level config files, in overlay order.
    pub fn paths(&self) -> &[PathBuf] {
        self.loaded.config_paths()
    }

    /// The config, if the release accepts it.
    pub fn accepted(self) -> Result<LoadedFiles, Refusal> {
        if self.issues.is_empty() {
            return Ok(self);
        }
        Err(Refusal::Invalid { release: self.loaded.version().id(), issues: self.issues })
    }
}

/// Why config files cannot be used for an answer.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum Refusal {
    /// They cannot be read at all.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Unreadable(#[from] ConfigError),
    /// The release would refuse them.
    #[error("OpenClaw {release} would refuse this config ({} problem{})", issues.len(), if issues.len() == 1 { "" } else { "s" })]
    #[diagnostic(code(config::invalid), help("fix the problems listed; `clawpolicy lint` shows each with its fix"))]
    Invalid {
        release: &'static str,
        #[related]
        issues: Vec<ValidationIssue>,
    },
}

/// Loads and overlays config files (later files override earlier ones) and validates them.
/// With no files, OpenClaw's own discovery finds the config. Only a config that cannot be read
/// is an error; what the release would reject is in [`LoadedFiles::issues`].
pub fn load_files(paths: &[PathBuf], opts: &LoadOptions) -> Result<LoadedFiles, ConfigError> {
    Ok(LoadedFiles::validated(config::load(paths, opts)?))
}

/// [`load_files`], reading the texts of `buffers` in place of those files.
pub fn load_files_with_buffers(
    paths: &[PathBuf],
    opts: &LoadOptions,
    buffers: std::sync::Arc<config::Buffers>,
) -> Result<LoadedFiles, ConfigError> {
    Ok(LoadedFiles::validated(config::load_with_buffers(paths, opts, buffers)?))
}

/// Loads config files the release accepts: [`load_files`], refusing what the release refuses.
pub fn load_accepted(paths: &[PathBuf], opts: &LoadOptions) -> Result<LoadedFiles, Refusal> {
    load_files(paths, opts)?.accepted()
}
