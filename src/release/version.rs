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
