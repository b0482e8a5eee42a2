//! Target of the project's YAML readers: suppressions, suites and scenarios.

use std::path::Path;

use super::text;
use crate::lint::suppress::Suppressions;

/// The input is read as a suppressions file, a suite and a scenario; none may panic, and a
/// refusal is an error message, never a crash.
pub fn yaml(data: &[u8]) {
    let text = text(data);
    let _ = Suppressions::parse(Path::new("clawpolicy.suppressions.yaml"), &text);
    let _ = crate::suite::parse(Path::new("suite.yaml"), &text);
    let _ = crate::simulate::scenario::parse(&text);
}
