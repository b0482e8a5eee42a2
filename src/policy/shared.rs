//! Allow and deny lists compiled once and shared. A config can hold a list of hundreds of
//! thousands of names; every session reads it several times (construction checks, plugin
//! selection, `progress_card`, the pipeline step), and `lint` and `matrix` resolve many sessions.
//! So a list is compiled once per session into a [`NameSet`] for the construction-time checks
//! (here); a pipeline list is compiled once per run whatever the number of sessions, a long one
//! once per process and a short one once per thread ([`super::matcher::compiled_list`]).

use std::borrow::Cow;

use ahash::AHashSet;

use crate::base::glob::Glob;
use crate::release::pack::VersionPack;

/// A list of patterns as a set of names: plain names looked up, globs tried in turn. What a name
/// matches does not depend on the order of the list, only on whether any pattern matches it.
#[derive(Default)]
pub struct NameSet {
    exact: AHashSet<String>,
    globs: Vec<Glob>,
    /// Whether a pattern was more than blanks (a group may stand for no tool at all).
    names_something: bool,
}

impl NameSet {
    /// Patterns compared as they are (already normalized), as plugin selection compares them.
    pub fn plain<'p>(patterns: impl IntoIterator<Item = impl Into<Cow<'p, str>>>) -> NameSet {
        let patterns = patterns.into_iter();
        let mut set = NameSet { exact: AHashSet::with_capacity(patterns.size_hint().0), ..NameSet::default() };
        for pattern in patterns {
            set.insert(pattern.into());
        }
        set
    }

    /// The construction-time reading of a list (OpenClaw's `allowed_by`): each pattern
    /// normalized, a static group standing for its members, the rest plain globs (no shipped
    /// renames, no plugin groups).
    pub fn construction<'p>(pack: &VersionPack, patterns: impl IntoIterator<Item = &'p str>) -> NameSet {
        let patterns = patterns.into_iter();
        let mut set = NameSet { exact: AHashSet::with_capacity(patterns.size_hint().0), ..NameSet::default() };
        for pattern in patterns {
            // Normalizing is idempotent (tested below), so a pattern is normalized once.
            let pattern = pack.normalized(pattern);
            set.names_something |= !pattern.is_empty();
            match pack.group(&pattern) {
                Some(members) => set.exact.extend(members.iter().cloned()),
                None => set.insert(pattern),
            }
        }
        set
    }

    fn insert(&mut self, pattern: Cow<'_, str>) {
        self.names_something |= !pattern.is_empty();
        match pattern.as_ref() {
            "" => {}
            plain if !plain.contains('*') => {
                self.exact.insert(pattern.into_owned());
            }
            glob => self.globs.push(Glob::compile(glob)),
        }
    }

    pub fn matches(&self, name: &str) -> bool {
        self.exact.contains(name) || self.globs.iter().any(|glob| glob.matches(name))
    }

    /// Whether the list names `name` literally: a plain name, or `*` itself.
    pub fn lists(&self, name: &str) -> bool {
        match name {
            "*" => self.globs.iter().any(|glob| matches!(glob, Glob::Any)),
            _ => self.exact.contains(name),
        }
    }

    /// Whether every pattern was blank (an allowlist of blanks allows everything).
    pub fn is_blank(&self) -> bool {
        !self.names_something
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;

    #[test]
    fn construction_sets_expand_static_groups_and_match_globs() {
        let pack = OpenClawVersion::V2026_9.policy();
        let set = NameSet::construction(pack, ["group:fs", " Sessions_* ", "", "BASH"]);
        assert!(set.matches("read") && set.matches("sessions_list") && set.matches("exec"));
        assert!(!set.matches("browser"));
        assert!(NameSet::construction(pack, ["", "  "]).is_blank());
        let plain = NameSet::plain(["*", "memory-core"]);
        assert!(plain.lists("*") && plain.lists("memory-core") && !plain.lists("memory"));
        assert!(!NameSet::plain(["m*"]).lists("*"));
    }

    #[test]
    fn normalizing_a_normalized_name_changes_nothing() {
        for version in [OpenClawVersion::V2026_2, OpenClawVersion::V2026_9] {
            let pack = version.policy();
            let aliases = pack.aliases.iter().flat_map(|(from, to)| [from.as_str(), to.as_str()]);
            for name in pack.tools.iter().map(|t| t.id.as_str()).chain(aliases).chain([" Bash ", "X"]) {
                let once = pack.normalize(name);
                assert_eq!(pack.normalize(&once), once, "{version:?} {name}");
            }
        }
    }
}
