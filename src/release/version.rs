//! A release as the rest of the program names it: [`OpenClawVersion`] (defined with the
//! registry it is a handle into) answers for its release's data, prints and parses as the
//! release's line.

use std::fmt;
use std::str::FromStr;

use super::audit::AuditLists;
use super::automation::AutomationRules;
use super::exec::ExecRules;
use super::lint::LintRules;
use super::loader::LoaderRules;
use super::migrations::ReleaseMigrations;
use super::pack::VersionPack;
use super::plugins::PluginRules;
pub use super::registry::OpenClawVersion;

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

    pub fn config_schema(self) -> &'static super::schema::SchemaPieces {
        self.data().config_schema()
    }

    pub fn loader(self) -> &'static LoaderRules {
        self.data().loader()
    }

    pub fn plugins(self) -> &'static PluginRules {
        self.data().plugins()
    }

    pub fn lint(self) -> &'static LintRules {
        self.data().lint()
    }

    pub fn automation(self) -> &'static AutomationRules {
        self.data().automation()
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

    /// Accepts a line (`2026.9`, its pack) or a release its pack stands for (`2026.9.6`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if let Some(version) = OpenClawVersion::ALL.into_iter().find(|v| s == v.line() || v.patches().contains(&s)) {
            return Ok(version);
        }
        let lines: Vec<&str> = OpenClawVersion::ALL.iter().map(|v| v.line()).collect();
        let releases: Vec<&str> = OpenClawVersion::ALL.iter().flat_map(|v| v.patches().iter().copied()).collect();
        let of_a_line = OpenClawVersion::ALL
            .into_iter()
            .find(|v| s.strip_prefix(v.line()).is_some_and(|rest| rest.starts_with('.')));
        Err(match of_a_line {
            Some(v) => format!(
                "OpenClaw {s} is not simulated: the {} pack stands for {} (checked against it); `{}` selects it",
                v.line(),
                v.patches().join(", "),
                v.line()
            ),
            None => format!(
                "unsupported OpenClaw version `{s}` (supported: {}, or the releases {}; `catalog --releases` lists them)",
                lines.join(", "),
                releases.join(", ")
            ),
        })
    }
}

/// How a version stamp (`meta.lastTouchedVersion`: `2026.3.13`, `2026.1.24-3`) maps to a
/// registered release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StampRelease {
    /// The stamp is of a registered release's line.
    SameLine(OpenClawVersion),
    /// No pack for the stamp's line: the newest registered release before it.
    NewestBefore(OpenClawVersion),
    /// The stamp is older than every registered release: the oldest one.
    Oldest(OpenClawVersion),
}

impl StampRelease {
    pub fn version(self) -> OpenClawVersion {
        match self {
            StampRelease::SameLine(v) | StampRelease::NewestBefore(v) | StampRelease::Oldest(v) => v,
        }
    }
}

/// `year.month` of a version or line (`2026.3.13-beta.1` → (2026, 3)).
fn year_month(text: &str) -> Option<(u32, u32)> {
    let core = text.trim().trim_start_matches('v').split(['-', '+']).next()?;
    let mut parts = core.split('.');
    let year = parts.next()?.parse().ok()?;
    let month = parts.next()?.parse().ok()?;
    Some((year, month))
}

impl OpenClawVersion {
    /// The registered release a version stamp is read as; `None` when it is no `year.month…` version.
    pub fn for_stamp(stamp: &str) -> Option<StampRelease> {
        let wanted = year_month(stamp)?;
        let at_or_before = OpenClawVersion::ALL.into_iter().find(|v| year_month(v.line()).is_some_and(|l| l <= wanted));
        Some(match at_or_before {
            Some(v) if year_month(v.line()) == Some(wanted) => StampRelease::SameLine(v),
            Some(v) => StampRelease::NewestBefore(v),
            None => StampRelease::Oldest(*OpenClawVersion::ALL.last().expect("a registered release")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_stamp_is_read_as_the_release_of_its_line_or_the_newest_before() {
        let read = |s: &str| OpenClawVersion::for_stamp(s);
        assert_eq!(read("2026.2.9"), Some(StampRelease::SameLine(OpenClawVersion::V2026_2)));
        assert_eq!(read("2026.9.6"), Some(StampRelease::SameLine(OpenClawVersion::V2026_9)));
        assert_eq!(read("2026.3.13"), Some(StampRelease::SameLine(OpenClawVersion::V2026_3)));
        assert_eq!(read("2026.4.1"), Some(StampRelease::SameLine(OpenClawVersion::V2026_4)));
        assert_eq!(read("2026.6.2"), Some(StampRelease::SameLine(OpenClawVersion::V2026_6)));
        assert_eq!(read("2026.10.1"), Some(StampRelease::NewestBefore(OpenClawVersion::V2026_9)));
        assert_eq!(read("2027.1.0"), Some(StampRelease::NewestBefore(OpenClawVersion::V2026_9)));
        assert_eq!(read("2026.1.27-beta.1"), Some(StampRelease::Oldest(OpenClawVersion::V2026_2)));
        assert_eq!(read("v2026.2.23"), Some(StampRelease::SameLine(OpenClawVersion::V2026_2)));
        assert_eq!(read("latest"), None);
        assert_eq!(read(""), None);
    }

    #[test]
    fn parses_short_and_full_versions() {
        assert_eq!("2026.9".parse::<OpenClawVersion>(), Ok(OpenClawVersion::V2026_9));
        assert_eq!("2026.2.25".parse::<OpenClawVersion>(), Ok(OpenClawVersion::V2026_2));
        assert_eq!("2026.9.6".parse::<OpenClawVersion>(), Ok(OpenClawVersion::V2026_9));
        assert!("2026.90".parse::<OpenClawVersion>().is_err());
        assert!("2025.1".parse::<OpenClawVersion>().is_err());
        // Another release of a registered line: named, with the line that selects the pack.
        let error = "2026.9.3".parse::<OpenClawVersion>().unwrap_err();
        assert_eq!(
            error,
            "OpenClaw 2026.9.3 is not simulated: the 2026.9 pack stands for 2026.9.6 (checked against it); `2026.9` selects it"
        );
    }
}
