//! A release's SSRF guard (`data/<release>/ssrf.json`): blocked host names, special address ranges
//! and the parsing quirks that differ between releases.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SsrfRules {
    pub release: String,
    pub about: String,
}
