//! OpenClaw releases whose behaviour clawpolicy simulates.

use std::fmt;
use std::str::FromStr;

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

    /// Short name used on the command line and in batch files (`2026.9`).
    pub fn short(self) -> &'static str {
        match self {
            OpenClawVersion::V2026_2 => "2026.2",
            OpenClawVersion::V2026_9 => "2026.9",
        }
    }

    /// The exact npm release the behaviour was taken from.
    pub fn release(self) -> &'static str {
        match self {
            OpenClawVersion::V2026_2 => "2026.2.25",
            OpenClawVersion::V2026_9 => "2026.9.6",
        }
    }
}

impl serde::Serialize for OpenClawVersion {
    /// Serialized as the exact release (`"2026.9.6"`): every machine document names the release
    /// it answers for the same way.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.release())
    }
}

impl fmt::Display for OpenClawVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short())
    }
}

impl FromStr for OpenClawVersion {
    type Err = String;

    /// Accepts the short name (`2026.9`) or any full release of that line (`2026.9.6`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        OpenClawVersion::ALL
            .into_iter()
            .find(|v| s == v.short() || s.strip_prefix(v.short()).is_some_and(|rest| rest.starts_with('.')))
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
