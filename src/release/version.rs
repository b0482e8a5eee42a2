//! OpenClaw releases whose behaviour clawpolicy simulates.

use std::fmt;
use std::str::FromStr;

use super::Release;
use super::audit::AuditLists;
use super::exec::ExecRules;
use super::lint::LintRules;
use super::loader::LoaderRules;
use super::migrations::ReleaseMigrations;
use super::pack::VersionPack;
use super::plugins::PluginRules;
use super::registry::RELEASES;

/// A simulated OpenClaw release: a handle to its registered [`Release`]. Code asks the release's
/// data (`version.policy()`, `version.exec()`, …), never which release it is; the named constants
/// (`OpenClawVersion::V2026_9`, …) are for tests and documentation.
#[derive(Clone, Copy)]
pub struct OpenClawVersion(&'static Release);

impl OpenClawVersion {
    pub(super) const fn at(release: &'static Release) -> Self {
        OpenClawVersion(release)
    }

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

    pub fn plugins(self) -> &'static PluginRules {
        self.data().plugins()
    }

    pub fn lint(self) -> &'static LintRules {
        self.data().lint()
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
            .ok_or_else(|| {
                let supported: Vec<&str> = OpenClawVersion::ALL.iter().map(|v| v.line()).collect();
                format!("unsupported OpenClaw version `{s}` (supported: {})", supported.join(", "))
            })
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
