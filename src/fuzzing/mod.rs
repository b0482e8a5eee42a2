//! The bodies of the coverage-guided fuzz targets (`fuzz/`, run with `cargo fuzz`), one function
//! per target, each asserting its property. They live in the library so that a normal
//! `cargo test` replays the committed corpora and crash inputs on stable (`tests/fuzz_corpus.rs`).
//! Not an interface: nothing else calls them.

mod batch;
mod config;
mod exec;
mod ssrf;
mod yaml;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use batch::batch;
pub(crate) use config::render;
pub use config::{Layout, NOISE, PLANTS, PlantedConfig, config_load, planted_config, secrets_mask};
pub use exec::{exec_2026_2, exec_2026_9};
pub use ssrf::ssrf;
pub use yaml::yaml;

/// A target's body: runs one input, panics when its property fails.
pub type Target = fn(&[u8]);

/// Every target by its name (the folder names under `fuzz/corpus/`).
pub const TARGETS: &[(&str, Target)] = &[
    ("config_load", config_load),
    ("secrets_mask", secrets_mask),
    ("exec_2026_9", exec_2026_9),
    ("exec_2026_2", exec_2026_2),
    ("ssrf", ssrf),
    ("yaml", yaml),
    ("batch", batch),
];

/// A folder of this process for the files a target writes (on a RAM disk where there is one),
/// reused by every input so that an input costs a few small writes, not a directory.
fn scratch_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let shm = PathBuf::from("/dev/shm");
        let parent = if shm.is_dir() { shm } else { std::env::temp_dir() };
        tempfile::Builder::new().prefix("clawpolicy-fuzz-").tempdir_in(parent).expect("a scratch folder")
    })
    .path()
}

/// Fuzz input as text, the way the tool reads files (invalid UTF-8 becomes U+FFFD).
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}
