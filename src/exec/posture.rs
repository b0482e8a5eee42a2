//! The exec policy vocabulary shared by every part of exec: security and ask levels, `mode`
//! presets, and where an effective value came from ([`Source`], [`Sourced`]).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::config::path::KeyPath;

/// An ordered exec level, named as OpenClaw writes it: its `as_str`, `FromStr` and `Display`.
macro_rules! level {
    ($(#[$doc:meta])* $level:ident { $($variant:ident = $name:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum $level {
            $($variant),+
        }

        impl $level {
            pub fn as_str(self) -> &'static str {
                match self {
                    $($level::$variant => $name),+
                }
            }
        }

        impl FromStr for $level {
            type Err = ();
            fn from_str(s: &str) -> Result<Self, ()> {
                match s {
                    $($name => Ok($level::$variant),)+
                    _ => Err(()),
                }
            }
        }

        impl fmt::Display for $level {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(self.as_str())
            }
        }
    };
}

level!(
    /// `tools.exec.security` and friends, ordered from strictest to loosest.
    Security { Deny = "deny", Allowlist = "allowlist", Full = "full" }
);

level!(
    /// `tools.exec.ask`, ordered from least to most prompting.
    Ask { Off = "off", OnMiss = "on-miss", Always = "always" }
);

impl Security {
    /// OpenClaw's `minSecurity`: the stricter of the two.
    pub fn min(self, other: Security) -> Security {
        std::cmp::min(self, other)
    }
}

impl Ask {
    /// OpenClaw's `maxAsk`: the more prompting of the two.
    pub fn max(self, other: Ask) -> Ask {
        std::cmp::max(self, other)
    }
}

/// `tools.exec.mode` presets (2026.9 only) and the (security, ask) pair each one stands for.
pub fn mode_policy(mode: &str) -> Option<(Security, Ask)> {
    match mode {
        "deny" => Some((Security::Deny, Ask::Off)),
        "allowlist" => Some((Security::Allowlist, Ask::Off)),
        "ask" | "auto" => Some((Security::Allowlist, Ask::OnMiss)),
        "full" => Some((Security::Full, Ask::Off)),
        _ => None,
    }
}

/// Where an effective setting came from, so a report can point at the config key or store row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "at", rename_all = "camelCase")]
pub enum Source {
    /// A config key path such as `agents.entries.work.tools.exec.security`.
    Config(KeyPath),
    /// A field of the approvals document, such as `agents.*.ask` or `defaults.security`.
    Approvals(String),
    /// A command-line what-if override.
    WhatIf(String),
    /// OpenClaw's built-in default.
    Default,
    /// Derived from other settings (e.g. `minSecurity` of config and approvals).
    Combined(String),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Config(p) => write!(f, "config {p}"),
            Source::Approvals(p) => write!(f, "approvals {p}"),
            Source::WhatIf(p) => write!(f, "what-if {p}"),
            Source::Default => f.write_str("built-in default"),
            Source::Combined(why) => f.write_str(why),
        }
    }
}

/// A value together with its [`Source`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sourced<T> {
    pub value: T,
    pub source: Source,
}

impl<T> Sourced<T> {
    pub fn new(value: T, source: Source) -> Self {
        Sourced { value, source }
    }

    pub fn default_value(value: T) -> Self {
        Sourced { value, source: Source::Default }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_security_and_max_ask_pick_the_strict_side() {
        assert_eq!(Security::Full.min(Security::Allowlist), Security::Allowlist);
        assert_eq!(Security::Deny.min(Security::Full), Security::Deny);
        assert_eq!(Ask::Off.max(Ask::Always), Ask::Always);
        assert_eq!(mode_policy("auto"), Some((Security::Allowlist, Ask::OnMiss)));
        assert_eq!(mode_policy("yolo"), None);
    }
}
