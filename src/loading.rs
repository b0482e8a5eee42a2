//! The seam between commands and the config loader: load, validate, and report problems as
//! diagnostics (CLI) or as `{path, message}` issues (batch).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::OpenClawVersion;
use crate::config::{self, LoadOptions, LoadedConfig};
use crate::keypath::KeyPath;

/// A case's config after loading and validation.
pub struct LoadedCase {
    pub config: Value,
    /// Validation issues as `{path, message}`; non-empty means OpenClaw refuses the config.
    pub issues: Vec<Value>,
    pub warnings: Vec<String>,
}

/// Load options from the process environment. The snapshot is taken once per process, not per
/// batch case: a batch of thousands must not copy the environment thousands of times.
fn options(version: OpenClawVersion, cwd: Option<&Path>) -> LoadOptions {
    static PROCESS: std::sync::OnceLock<LoadOptions> = std::sync::OnceLock::new();
    let mut opts = PROCESS.get_or_init(|| LoadOptions::from_process(version)).clone();
    opts.version = version;
    if let Some(cwd) = cwd {
        opts.cwd = cwd.to_path_buf();
    }
    opts
}

/// Loads the config of a batch case: inline `config` (object, or JSON5 text) or `configPath`
/// (relative to the batch file), through the same pipeline and validation as config files.
pub fn load_case_config(case: &Value, version: OpenClawVersion, base_dir: &Path) -> Result<LoadedCase, Value> {
    let opts = options(version, Some(base_dir));
    let config_error = |e: config::ConfigError| json!({"kind": "config", "message": e.to_string()});
    let loaded = match (case.get("config"), case.get("configPath").and_then(Value::as_str)) {
        (Some(Value::String(text)), _) => load_text(text, &opts)?,
        (Some(value), _) => config::load_inline(value.clone(), &opts).map_err(config_error)?,
        (None, Some(path)) => config::load(&[base_dir.join(path)], &opts).map_err(config_error)?,
        (None, None) => config::load_inline(json!({}), &opts).map_err(config_error)?,
    };
    let issues = config::validate(&loaded, version)
        .iter()
        .map(|issue| json!({"path": issue.dotted_path(), "message": issue.message}))
        .collect();
    let warnings = loaded.warnings().iter().map(|w| w.message.clone()).collect();
    Ok(LoadedCase { config: loaded.value().clone(), issues, warnings })
}

/// JSON5 text given inline in a case: parsed with the config parser, then loaded like an inline
/// object.
fn load_text(text: &str, opts: &LoadOptions) -> Result<LoadedConfig, Value> {
    let outcome = config::json5::parse(PathBuf::from("<case config>"), text.to_string());
    let parsed = outcome
        .document
        .map_err(|e| json!({"kind": "config", "message": format!("JSON5 parse failed: {}", e.message)}))?;
    config::load_inline(parsed.root.to_value(), opts).map_err(|e| json!({"kind": "config", "message": e.to_string()}))
}

/// Config files loaded and validated for a command.
pub struct LoadedFiles {
    pub config: Value,
    loaded: LoadedConfig,
}

impl LoadedFiles {
    /// Where the value at `path` was written, as `file:line:col`, if it came from a file.
    /// The loaded config with its provenance, for `lint`.
    pub fn loaded(&self) -> &LoadedConfig {
        &self.loaded
    }

    pub fn locate(&self, path: &KeyPath) -> Option<String> {
        self.loaded.origin(path.segments()).map(|origin| origin.to_string())
    }

    /// Where the value at `path` is written, or its nearest written ancestor (where it would go).
    pub fn locate_nearest(&self, path: &KeyPath) -> Option<String> {
        self.loaded.nearest_origin(path.segments()).map(|origin| origin.to_string())
    }

    /// The top-level config files, in overlay order.
    pub fn paths(&self) -> &[PathBuf] {
        self.loaded.config_paths()
    }
}

/// Loads, overlays (later files override earlier ones) and validates config files. With no
/// files, OpenClaw's own discovery finds the config. A config OpenClaw would refuse is an error.
pub fn load_files(paths: &[PathBuf], version: OpenClawVersion) -> miette::Result<LoadedFiles> {
    let (loaded, issues) = load_unvalidated(paths, version)?;
    // One buffered writer: thousands of warnings (a file of duplicate keys) must not cost a
    // write call per fragment of each.
    let mut stderr = std::io::BufWriter::new(std::io::stderr().lock());
    for warning in loaded.warnings() {
        let _ = writeln!(stderr, "{:?}", miette::Report::new(warning.clone()));
    }
    if let Some(first) = issues.first() {
        for issue in &issues[1..] {
            let _ = writeln!(stderr, "{:?}", miette::Report::new(issue.clone()));
        }
        drop(stderr);
        let count = issues.len();
        return Err(miette::Report::new(first.clone()).wrap_err(format!(
            "OpenClaw {} would refuse this config ({count} problem{})",
            version.release(),
            if count == 1 { "" } else { "s" }
        )));
    }
    Ok(LoadedFiles { config: loaded.value().clone(), loaded })
}

/// Loads config files and lists what the release would reject, without refusing: `lint` reports
/// those issues as findings. Only a config that cannot be read at all is an error.
pub fn load_unvalidated(
    paths: &[PathBuf],
    version: OpenClawVersion,
) -> miette::Result<(LoadedConfig, Vec<config::ValidationIssue>)> {
    let loaded = config::load(paths, &options(version, None))?;
    let issues = config::validate(&loaded, version);
    Ok((loaded, issues))
}
