//! How a release loads its config, where releases differ (`data/<release>/config.json`): config
//! discovery, `$include`, `${VAR}` substitution, the `env` block and validation quirks.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoaderRules {
    pub release: String,
    pub about: String,
}
