//! The registered releases, the data files each is built from, and [`OpenClawVersion`], the
//! handle to one of them. To add a release, add its folder under `data/` and one line to the
//! [`releases!`] call below.

use super::Release;
use std::fmt;

/// The data files of one release, compiled in.
pub struct Files {
    pub policy: &'static str,
    pub exec: &'static str,
    pub audit: &'static str,
    /// Split by `build/schema_pieces.rs`.
    pub config_schema: super::schema::SchemaPieces,
    /// Split by `build/legacy_rules.rs`.
    pub migrations: &'static super::migrations::SplitMigrations,
    /// Split by `build/plugin_schemas.rs`.
    pub plugins: &'static super::plugins::SplitPlugins,
    pub channels: &'static str,
    pub config: &'static str,
    pub ssrf: &'static str,
    pub lint: &'static str,
    pub automation: &'static str,
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
    "config.json",
    "ssrf.json",
    "lint.json",
    "automation.json",
];

macro_rules! release {
    ($id:literal, $line:literal, [$($patch:literal),+]) => {
        Release::new(
            $id,
            $line,
            &[$($patch),+],
            Files {
                policy: include_str!(concat!("../../data/", $line, "/policy.json")),
                exec: include_str!(concat!("../../data/", $line, "/exec.json")),
                audit: include_str!(concat!("../../data/", $line, "/audit.json")),
                config_schema: include!(concat!(env!("OUT_DIR"), "/schema-pieces-", $line, ".rs")),
                migrations: include!(concat!(env!("OUT_DIR"), "/migrations-", $line, ".rs")),
                plugins: include!(concat!(env!("OUT_DIR"), "/plugins-", $line, ".rs")),
                channels: include_str!(concat!("../../data/", $line, "/channels.json")),
                config: include_str!(concat!("../../data/", $line, "/config.json")),
                ssrf: include_str!(concat!("../../data/", $line, "/ssrf.json")),
                lint: include_str!(concat!("../../data/", $line, "/lint.json")),
                automation: include_str!(concat!("../../data/", $line, "/automation.json")),
            },
        )
    };
}

/// Registers releases, oldest first: [`RELEASES`], and a constant on [`OpenClawVersion`] naming
/// each (for tests and documentation; code asks the release's data instead). Each names the npm
/// release its data was made from, its line, and the releases of the line it stands for.
macro_rules! releases {
    ($($(#[$doc:meta])* $name:ident = $id:literal in $line:literal for [$($patch:literal),+],)+) => {
        /// Every release clawpolicy simulates, oldest first; the newest is the default.
        pub static RELEASES: [Release; [$($line),+].len()] = [$(release!($id, $line, [$($patch),+])),+];

        #[allow(non_camel_case_types)]
        #[repr(usize)]
        enum Position { $($name),+ }

        impl OpenClawVersion {
            $($(#[$doc])* pub const $name: OpenClawVersion = OpenClawVersion(&RELEASES[Position::$name as usize]);)+
        }
    };
}

releases! {
    /// openclaw@2026.2.25, the release the design documents describe (2026.2.26, published
    /// later, is not checked).
    V2026_2 = "2026.2.25" in "2026.2" for ["2026.2.25"],
    /// openclaw@2026.3.31, the last stable patch of the 2026.3 line (the earlier patches are not
    /// checked).
    V2026_3 = "2026.3.31" in "2026.3" for ["2026.3.31"],
    /// openclaw@2026.4.29, the last stable patch of the 2026.4 line.
    V2026_4 = "2026.4.29" in "2026.4" for ["2026.4.29"],
    /// openclaw@2026.5.28, the last stable patch of the 2026.5 line.
    V2026_5 = "2026.5.28" in "2026.5" for ["2026.5.28"],
    /// openclaw@2026.6.35, the last stable patch of the 2026.6 line.
    V2026_6 = "2026.6.35" in "2026.6" for ["2026.6.35"],
    /// openclaw@2026.7.35, the last stable patch of the 2026.7 line.
    V2026_7 = "2026.7.35" in "2026.7" for ["2026.7.35"],
    /// openclaw@2026.8.2, the last stable patch of the 2026.8 line.
    V2026_8 = "2026.8.2" in "2026.8" for ["2026.8.2"],
    /// openclaw@2026.9.6, the current release and the default.
    V2026_9 = "2026.9.6" in "2026.9" for ["2026.9.6"],
}

/// A simulated OpenClaw release: a handle to its registered [`Release`]. Code asks the release's
/// data (`version.policy()`, `version.exec()`, …), never which release it is; the named constants
/// (`OpenClawVersion::V2026_9`, …) are for tests and documentation.
#[derive(Clone, Copy)]
pub struct OpenClawVersion(&'static Release);

impl OpenClawVersion {
    /// Every registered release, newest first.
    pub const ALL: [OpenClawVersion; RELEASES.len()] = {
        let mut all = [OpenClawVersion(&RELEASES[0]); RELEASES.len()];
        let mut i = 0;
        while i < RELEASES.len() {
            all[i] = OpenClawVersion(&RELEASES[RELEASES.len() - 1 - i]);
            i += 1;
        }
        all
    };

    /// The release's data.
    pub fn data(self) -> &'static Release {
        self.0
    }

    /// The monthly line, used on the command line and in batch files (`2026.9`).
    pub fn line(self) -> &'static str {
        self.0.line
    }

    /// The exact npm release the behaviour was taken from (`2026.9.6`).
    pub fn id(self) -> &'static str {
        self.0.id
    }

    /// The npm releases of the line the pack stands for (its behaviour was checked against each).
    pub fn patches(self) -> &'static [&'static str] {
        self.0.patches
    }

    /// Where the release stands among the registered ones (oldest first).
    fn position(self) -> usize {
        RELEASES.iter().position(|r| std::ptr::eq(r, self.0)).unwrap_or(usize::MAX)
    }
}

impl Default for OpenClawVersion {
    /// The newest registered release.
    fn default() -> Self {
        OpenClawVersion::ALL[0]
    }
}

impl PartialEq for OpenClawVersion {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for OpenClawVersion {}

impl std::hash::Hash for OpenClawVersion {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.line.hash(state);
    }
}

impl PartialOrd for OpenClawVersion {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OpenClawVersion {
    /// Older releases first.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.position().cmp(&other.position())
    }
}

impl fmt::Debug for OpenClawVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OpenClaw {}", self.0.id)
    }
}

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
            assert!(release.patches.contains(&release.id), "{} stands for its own release", release.id);
            assert!(release.patches.iter().all(|p| p.starts_with(&format!("{}.", release.line))), "{}", release.id);
            // Every part parses.
            let _ = (release.policy(), release.exec(), release.audit(), release.migrations());
            let _ = (release.plugins(), release.channels(), release.loader(), release.ssrf(), release.lint());
            let schema = release.config_schema();
            assert!((0..schema.len()).all(|p| serde_json::from_str::<serde_json::Value>(schema.text(p)).is_ok()));
            // Every regular expression of the release data compiles.
            let binding = release.automation().no_approver.binding.iter();
            let patterns = release
                .exec()
                .safe_bin_positional_deny
                .values()
                .chain(binding.flat_map(|b| [&b.script_interpreters, &b.script_runner_patterns]));
            for pattern in patterns.flat_map(|p| p.as_written()) {
                assert!(regex::Regex::new(pattern).is_ok(), "{}: `{pattern}`", release.id);
            }
            // Every member names a later piece, by a name that is the start of a property.
            assert!((0..schema.len()).all(|p| schema.members(p).all(|(name, at)| at > p && !name.is_empty())));
        }
    }

    #[test]
    fn every_registered_release_is_a_version_and_the_newest_is_the_default() {
        let versions: Vec<&str> = OpenClawVersion::ALL.iter().map(|v| v.line()).collect();
        let mut lines: Vec<&str> = RELEASES.iter().rev().map(|r| r.line).collect();
        assert_eq!(versions, lines);
        assert_eq!(OpenClawVersion::default().line(), lines.remove(0));
        assert_eq!(OpenClawVersion::V2026_9.line(), "2026.9");
        assert_eq!(OpenClawVersion::V2026_2.line(), "2026.2");
        assert!(OpenClawVersion::V2026_2 < OpenClawVersion::V2026_9);
    }
}
