//! Replays every committed fuzz corpus and crash input (`fuzz/corpus/<target>/`,
//! `fuzz/artifacts/<target>/`) through the fuzz targets' bodies on stable, so that a regression
//! fails `cargo test` without nightly or cargo-fuzz (docs/reliability.md#fuzzing).

use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files: Vec<PathBuf> = ["corpus", "artifacts"]
        .iter()
        .filter_map(|kind| std::fs::read_dir(fuzz.join(kind).join(target)).ok())
        .flatten()
        .map(|entry| entry.expect("a readable corpus folder").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

fn replay(target: &str) {
    let (_, run) = clawpolicy::fuzzing::TARGETS.iter().find(|(name, _)| *name == target).expect("a known target");
    let files = inputs(target);
    assert!(!files.is_empty(), "no corpus for {target}: run scripts/fuzz-seed.py");
    for file in files {
        let data = std::fs::read(&file).expect("a readable corpus file");
        // The panic message names the input; the file name tells which one.
        eprintln!("{}", file.display());
        run(&data);
    }
}

#[test]
fn every_target_has_a_replay_test() {
    let source = include_str!("fuzz_corpus.rs");
    for (name, _) in clawpolicy::fuzzing::TARGETS {
        assert!(source.contains(&format!("replay(\"{name}\")")), "{name} is not replayed");
    }
}

#[test]
fn config_load_corpus() {
    replay("config_load");
}

#[test]
fn secrets_mask_corpus() {
    replay("secrets_mask");
}

#[test]
fn exec_2026_9_corpus() {
    replay("exec_2026_9");
}

#[test]
fn exec_2026_2_corpus() {
    replay("exec_2026_2");
}

#[test]
fn ssrf_corpus() {
    replay("ssrf");
}

#[test]
fn yaml_corpus() {
    replay("yaml");
}

#[test]
fn batch_corpus() {
    replay("batch");
}
