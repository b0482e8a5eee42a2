//! Prepares each release's data (`data/<line>/`) at build time, so that a command parses only the
//! parts it reaches: the config schema cut into pieces ([`schema_pieces`]), the legacy rules kept
//! as text each, indexed by the keys their patterns name ([`legacy_rules`]), and the bundled
//! plugins' config schemas apart from their records ([`plugin_schemas`]). Each writes a Rust
//! expression to `$OUT_DIR`, which `src/release/registry.rs` includes.

mod legacy_rules;
mod plugin_schemas;
mod schema_pieces;

use std::path::Path;

use serde_json::Value;

fn main() {
    println!("cargo::rerun-if-changed=data");
    println!("cargo::rerun-if-changed=src/release/pattern_path.rs");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut folders: Vec<_> = std::fs::read_dir("data").expect("data/").flatten().map(|e| e.path()).collect();
    folders.sort();
    for folder in folders {
        let Some(line) = folder.file_name().and_then(|n| n.to_str()).filter(|_| folder.is_dir()) else { continue };
        let write = |name: &str, source: String| {
            std::fs::write(Path::new(&out).join(format!("{name}-{line}.rs")), source).expect("OUT_DIR is writable");
        };
        if let Some(schema) = read_json(&folder.join("config-schema.json")) {
            write("schema-pieces", schema_pieces::pieces_source(&schema));
        }
        if let Some(migrations) = read_json(&folder.join("migrations.json")) {
            write("migrations", legacy_rules::split_source(migrations));
        }
        if let Some(plugins) = read_json(&folder.join("plugins.json")) {
            write("plugins", plugin_schemas::split_source(plugins));
        }
    }
}

/// One text the build writes parts into, each part named by its offsets (`[start, end]`): the
/// generated tables hold offsets into it, not references the dynamic loader would patch.
#[derive(Default)]
struct OffsetText(String);

impl OffsetText {
    fn append(&mut self, part: &str) -> [usize; 2] {
        let start = self.0.len();
        self.0.push_str(part);
        [start, self.0.len()]
    }
}

/// The JSON of a release data file, `None` where the folder has no such file.
fn read_json(file: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(file).ok()?;
    println!("cargo::rerun-if-changed={}", file.display());
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", file.display())))
}
