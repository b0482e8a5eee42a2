//! `meta.*`: what OpenClaw stamps into the config when it writes it.

use serde_json::Value;

use super::located::Located;
use crate::config::path::KeyPath;

/// `meta.lastTouchedVersion`: the release that last wrote the config, when it is a string.
pub fn last_touched_version(config: &Value) -> Option<Located<'_>> {
    Located::lookup(config, KeyPath::keys(&["meta", "lastTouchedVersion"])).filter(|v| v.value.is_string())
}
