//! Target of the JSONL batch protocol: every line answered as a `tools`, an `exec` and a `url`
//! case.

use std::path::PathBuf;

use serde_json::Value;

use super::scratch_dir;
use crate::OpenClawVersion;
use crate::batch::{exec, tools};
use crate::config::LoadOptions;
use crate::exec::request::Availability;

/// Each line of the input that is JSON is a case for each of the three batch commands, with
/// each release; every answer is an object. A `configPath` is kept only when it names a file in
/// the (empty) batch folder: config files are `config_load`'s target.
pub fn batch(data: &[u8]) {
    let base_dir = batch_dir();
    let tools_batches = [OpenClawVersion::V2026_9, OpenClawVersion::V2026_2].map(|version| {
        tools::ToolsBatch::new(
            LoadOptions { version, env: Default::default(), cwd: base_dir.clone() },
            base_dir.clone(),
        )
    });
    for line in data.split(|b| *b == b'\n') {
        let Ok(mut case) = serde_json::from_slice::<Value>(line) else { continue };
        if let Some(object) = case.as_object_mut()
            && object.get("configPath").and_then(Value::as_str).is_some_and(|p| p.contains('/') || p.contains('\\'))
        {
            object.remove("configPath");
        }
        for (version, tools_batch) in
            [OpenClawVersion::V2026_9, OpenClawVersion::V2026_2].into_iter().zip(&tools_batches)
        {
            let answer = tools_batch.answer(&case);
            assert!(answer.is_object(), "tools answer {answer}");
            let answer = exec::evaluate_batch_case(&case, version, Availability::Required);
            assert!(answer.is_object(), "exec answer {answer}");
            let _ = crate::cli::url_cmd::answer_offline_case(version, &case);
        }
    }
}

/// An empty folder the cases' relative paths resolve against.
fn batch_dir() -> PathBuf {
    let dir = scratch_dir().join("batch");
    std::fs::create_dir_all(&dir).expect("the scratch folder is writable");
    dir
}
