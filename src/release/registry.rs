//! The registered releases and the data files each is built from. To add a release, add its
//! folder under `data/` and one `release!` line to [`RELEASES`].

use super::Release;

/// The data files of one release, compiled in.
pub struct Files {
    pub policy: &'static str,
    pub exec: &'static str,
    pub audit: &'static str,
    pub config_schema: &'static str,
    pub migrations: &'static str,
    pub plugins: &'static str,
    pub channels: &'static str,
    pub config: &'static str,
    pub ssrf: &'static str,
}

/// The file names every release folder has.
pub const FILE_NAMES: &[&str] = &[
    "policy.json",
    "exec.json",
    "audit.json",
    "config-schema.json",
    "migrations.json",
    "plugins.json",
    "channels.json",
];

macro_rules! release {
    ($id:literal, $line:literal) => {
        Release::new(
            $id,
            $line,
            Files {
                policy: include_str!(concat!("../../data/", $line, "/policy.json")),
                exec: include_str!(concat!("../../data/", $line, "/exec.json")),
                audit: include_str!(concat!("../../data/", $line, "/audit.json")),
                config_schema: include_str!(concat!("../../data/", $line, "/config-schema.json")),
                migrations: include_str!(concat!("../../data/", $line, "/migrations.json")),
                plugins: include_str!(concat!("../../data/", $line, "/plugins.json")),
                channels: include_str!(concat!("../../data/", $line, "/channels.json")),
                config: include_str!(concat!("../../data/", $line, "/config.json")),
                ssrf: include_str!(concat!("../../data/", $line, "/ssrf.json")),
            },
        )
    };
}

/// Every release clawpolicy simulates, oldest first.
pub static RELEASES: [Release; 2] = [release!("2026.2.25", "2026.2"), release!("2026.9.6", "2026.9")];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_data_folder_is_a_registered_and_complete_release() {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let folders: Vec<String> = std::fs::read_dir(&data)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        for folder in &folders {
            assert!(RELEASES.iter().any(|r| r.line == folder), "data/{folder} is not registered in RELEASES");
            for file in FILE_NAMES {
                assert!(data.join(folder).join(file).is_file(), "data/{folder}/{file} is missing");
            }
        }
        assert_eq!(folders.len(), RELEASES.len(), "every registered release has a data folder");
        for release in &RELEASES {
            assert!(release.id.starts_with(&format!("{}.", release.line)), "{}", release.id);
            // Every part parses.
            let _ = (release.policy(), release.exec(), release.audit(), release.migrations());
            let _ = (release.plugins(), release.channels(), release.loader(), release.ssrf());
            assert!(serde_json::from_str::<serde_json::Value>(release.config_schema()).is_ok());
        }
    }
}
