//! INTEGRATION POINT (lint engine): the finding codes a config produces, for the `lint:`
//! expectations of policy test suites.
//!
//! This branch has no lint engine yet, so the function refuses: a suite that expects lint
//! findings stops with an error (exit 2) instead of passing silently. When `clawpolicy lint`
//! lands, replace the body with the engine's codes for the loaded config, e.g.
//! `Ok(crate::lint::finding_codes(version, loaded))`; nothing else in the suite runner changes.

use crate::OpenClawVersion;
use crate::loading::LoadedFiles;

/// The codes of every lint finding for `loaded` under `version`.
pub fn finding_codes(version: OpenClawVersion, loaded: &LoadedFiles) -> Result<Vec<String>, String> {
    let _ = (version, loaded);
    Err("lint expectations need the lint engine (`clawpolicy lint`), which this build does not include".into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn refuses_rather_than_passing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.json5");
        std::fs::write(&path, "{}").unwrap();
        let loaded = crate::loading::load_files(&[path], crate::OpenClawVersion::V2026_9).unwrap();
        assert!(super::finding_codes(crate::OpenClawVersion::V2026_9, &loaded).is_err());
    }
}
