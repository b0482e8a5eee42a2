//! Takes the config schema of each bundled plugin out of `plugins.json`: a command reads the
//! plugin records (their tools, their enablement), but a plugin's schema only when a config has
//! an entry for that plugin, and scanning them all was half the file's parse. Its output,
//! `$OUT_DIR/plugins-<line>.rs`, is an expression of type `release::plugins::SplitPlugins`: the
//! file without the schemas, and each plugin's schema text by its position (offsets into one
//! text, as in `schema_pieces`).

use serde_json::Value;

use super::OffsetText;

pub fn split_source(mut plugins: Value) -> String {
    let records = plugins.get_mut("plugins").and_then(Value::as_array_mut).expect("plugins.json has plugins");
    let mut text = OffsetText::default();
    let schemas: Vec<Option<[usize; 2]>> = records
        .iter_mut()
        .map(|record| {
            let schema = record.as_object_mut().expect("a plugin record is an object").remove("configSchema")?;
            Some(text.append(&serde_json::to_string(&schema).expect("a schema serializes")))
        })
        .collect();
    let text = text.0;
    let rest = serde_json::to_string(&plugins).expect("plugins serialize");
    format!("&crate::release::plugins::SplitPlugins {{ rest: {rest:?}, text: {text:?}, schemas: &{schemas:?} }}\n")
}
