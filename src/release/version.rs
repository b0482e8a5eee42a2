//! OpenClaw releases whose behaviour clawpolicy simulates.

use std::fmt;
use std::str::FromStr;

use super::Release;
use super::audit::AuditLists;
use super::exec::ExecRules;
use super::loader::LoaderRules;
use super::migrations::ReleaseMigrations;
use super::pack::VersionPack;
use super::registry::RELEASES;

/// A simulated OpenClaw release. Every semantic difference between releases is keyed on this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum OpenClawVersion {
    /// openclaw@2026.2.25, the release the design documents describe.
    V2026_2,
    /// openclaw@2026.9.6, the current release and the default.
    #[default]
    V2026_9,
}

impl OpenClawVersion {
    pub const ALL: [OpenClawVersion; 2] = [OpenClawVersion::V2026_9, OpenClawVersion::V2026_2];

    /// The release's data.
    pub fn data(self) -> &'static Release {
        let index = match self {
            OpenClawVersion::V2026_2 => 0,
            OpenClawVersion::V2026_9 => 1,
        };
        &RELEASES[index]
    }

    /// The monthly line, used on the command line and in batch files (`2026.9`).
    pub fn line(self) -> &'static str {
        self.data().line
    }

    /// The exact npm release the behaviour was taken from (`2026.9.6`).
    pub fn id(self) -> &'static str {
        self.data().id
    }
}

/// A version answers for its release's data: `version.policy()`, `version.exec()`, …
impl OpenClawVersion {
    pub fn policy(self) -> &'static VersionPack {
        self.data().policy()
    }

    pub fn exec(self) -> &'static ExecRules {
        self.data().exec()
    }

    pub fn audit(self) -> &'static AuditLists {
        self.data().audit()
    }

    pub fn migrations(self) -> &'static ReleaseMigrations {
        self.data().migrations()
    }

    pub fn config_schema(self) -> &'static str {
        self.data().config_schema()
    }

    pub fn loader(self) -> &'static LoaderRules {
        self.data().loader()
    }
}

impl serde::Serialize for OpenClawVersion {
    /// Serialized as the exact release (`"2026.9.6"`): every machine document names the release
    /// it answers for the same way.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl fmt::Display for OpenClawVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.line())
    }
}

impl FromStr for OpenClawVersion {
    type Err = String;

    /// Accepts the short name (`2026.9`) or any full release of that line (`2026.9.6`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        OpenClawVersion::ALL
            .into_iter()
            .find(|v| s == v.line() || s.strip_prefix(v.line()).is_some_and(|rest| rest.starts_with('.')))
            .ok_or_else(|| format!("unsupported OpenClaw version `{s}` (supported: 2026.9, 2026.2)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_short_and_full_versions() {
        assert_eq!("2026.9".parse::<OpenClawVersion>(), Ok(OpenClawVersion::V2026_9));
        assert_eq!("2026.2.25".parse::<OpenClawVersion>(), Ok(OpenClawVersion::V2026_2));
        assert!("2026.90".parse::<OpenClawVersion>().is_err());
        assert!("2025.1".parse::<OpenClawVersion>().is_err());
    }
}
