//! Loading `openclaw.json` the way OpenClaw does, keeping where every value came from.
//!
//! Pipeline ([`load`]): discovery ([`discovery`]) → read + JSON5 parse with spans ([`json5`]) →
//! `$include` ([`include`]) → `--config` overlays ([`merge`]) → `env` block + `${VAR}` ([`env`]).
//! Each file's own tree is kept ([`Document`]) apart from the merged tree in force
//! ([`LoadedConfig::value`], [`LoadedConfig::origin`]).

pub mod discovery;
pub mod document;
pub mod edit;
pub mod env;
pub mod error;
pub mod fspath;
pub mod gitrev;
pub mod include;
pub mod json5;
pub mod load;
pub mod loading;
pub mod machine_state;
pub mod merge;
pub mod migrate;
pub mod path;
pub mod problem;
pub mod secrets;
pub mod snippet;
pub mod source;
pub mod tree;
pub mod validate;
pub mod view;

pub use discovery::{discover_config_path, home_dir, state_dir};
pub use document::{Buffers, Document};
pub use env::MissingEnvVar;
pub use error::{ConfigError, ConfigWarning, IncludeErrorKind, WarningKind};
pub use load::{LoadOptions, LoadedConfig, load, load_inline, load_with_buffers};
pub use path::PathSeg;
pub use problem::ProblemKind;
pub use source::{Location, Origin, SourceFile};
pub use tree::{Node, NodeKind};
pub use validate::{IssueCategory, ValidationIssue, validate};

#[cfg(test)]
pub(crate) mod test_support {
    use std::collections::HashMap;
    use std::path::PathBuf;

    use super::LoadOptions;
    use crate::OpenClawVersion;

    pub fn fixture(relative: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/config").join(relative)
    }

    /// The config in force without the one-agent roster 2026.9 adds when a config has none: what
    /// the files say, merged.
    pub fn as_merged(cfg: &super::LoadedConfig) -> serde_json::Value {
        let mut value = cfg.value().clone();
        if cfg.implicit_roster()
            && let Some(map) = value.as_object_mut()
        {
            map.shift_remove("agents");
        }
        value
    }

    pub fn options(version: OpenClawVersion, env: &[(&str, &str)]) -> LoadOptions {
        LoadOptions {
            version,
            env: std::sync::Arc::new(
                env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<HashMap<_, _>>(),
            ),
            cwd: fixture(""),
        }
    }
}
