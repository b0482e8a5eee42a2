//! Allow and deny lists compiled once and shared. A config can hold a list of hundreds of
//! thousands of names; every session reads it several times (construction checks, plugin
//! selection, `progress_card`, the pipeline step), and `lint` and `matrix` resolve many sessions.
//! So a list is compiled once per session into a [`NameSet`] for the construction-time checks,
//! and a pipeline list once per run ([`compiled_list`]), whatever the number of sessions: a long
//! one once per process, a short one (a profile, a group's list) once per thread.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use super::matcher::{CompiledList, PluginGroups};
use super::rules::Entry;
use crate::base::glob::Glob;
use crate::release::pack::VersionPack;

/// A list of patterns as a set of names: plain names looked up, globs tried in turn. What a name
/// matches does not depend on the order of the list, only on whether any pattern matches it.
#[derive(Default)]
pub struct NameSet {
    exact: HashSet<String>,
    globs: Vec<Glob>,
    /// Whether a pattern was more than blanks (a group may stand for no tool at all).
    names_something: bool,
}

impl NameSet {
    /// Patterns compared as they are (already normalized), as plugin selection compares them.
    pub fn plain<'p>(patterns: impl IntoIterator<Item = &'p str>) -> NameSet {
        let mut set = NameSet::default();
        for pattern in patterns {
            set.insert(pattern);
        }
        set
    }

    /// The construction-time reading of a list (OpenClaw's `allowed_by`): each pattern
    /// normalized, a static group standing for its members, the rest plain globs (no shipped
    /// renames, no plugin groups).
    pub fn construction<'p>(pack: &VersionPack, patterns: impl IntoIterator<Item = &'p str>) -> NameSet {
        let patterns = patterns.into_iter();
        let mut set = NameSet { exact: HashSet::with_capacity(patterns.size_hint().0), ..NameSet::default() };
        for pattern in patterns {
            // Normalizing is idempotent (tested below), so a pattern is normalized once.
            let pattern = pack.normalize(pattern);
            set.names_something |= !pattern.is_empty();
            match pack.group(&pattern) {
                Some(members) => set.exact.extend(members.iter().cloned()),
                None => set.insert(&pattern),
            }
        }
        set
    }

    fn insert(&mut self, pattern: &str) {
        self.names_something |= !pattern.is_empty();
        match pattern {
            "" => {}
            plain if !plain.contains('*') => {
                self.exact.insert(plain.to_string());
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

/// Lists shorter than this compile faster than they are compared with the cached ones.
const SHARED_FROM: usize = 1_000;
/// Compiled long lists kept at once: a run has a few (a global deny list, its plugin-group
/// variants); a batch moves on to the next case's.
const SHARED_LISTS: usize = 8;

struct Cached {
    pack: usize,
    plugins: PluginGroups,
    patterns: Vec<String>,
    list: Arc<CompiledList>,
}

static CACHE: Mutex<Vec<Cached>> = Mutex::new(Vec::new());

/// [`CompiledList::compile`], shared: a long list compiled earlier in this process, with the same
/// patterns in the same order, the same release and the same plugin tools, is not compiled again.
/// The sources of the entries play no part in a compiled list (it refers to entries by position).
pub fn compiled_list(pack: &VersionPack, entries: &[Entry], plugins: &PluginGroups) -> Arc<CompiledList> {
    let pack_id = std::ptr::from_ref(pack) as usize;
    let same = |cached: &Cached| {
        cached.pack == pack_id
            && cached.patterns.len() == entries.len()
            && cached.plugins.all == plugins.all
            && cached.plugins.by_plugin == plugins.by_plugin
            && cached.patterns.iter().zip(entries).all(|(pattern, entry)| *pattern == entry.pattern)
    };
    let cached = |list: &Arc<CompiledList>| Cached {
        pack: pack_id,
        plugins: plugins.clone(),
        patterns: entries.iter().map(|entry| entry.pattern.clone()).collect(),
        list: list.clone(),
    };
    if entries.len() < SHARED_FROM {
        // Short lists (profiles, group and agent lists) come back in every session of a fleet:
        // found by a hash of their patterns, per thread, so that sessions resolved in parallel
        // do not wait on each other.
        let key = short_list_key(pack_id, entries, plugins);
        return SHORT_LISTS.with_borrow_mut(|lists| {
            if let Some(found) = lists.get(&key).and_then(|bucket| bucket.iter().find(|c| same(c))) {
                return found.list.clone();
            }
            if lists.len() >= SHORT_LISTS_KEPT {
                lists.clear();
            }
            let list = Arc::new(CompiledList::compile(pack, entries, plugins));
            lists.entry(key).or_default().push(cached(&list));
            list
        });
    }
    // A poisoned lock only means another thread panicked while holding it; the list is intact.
    let mut cache = CACHE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(found) = cache.iter().find(|cached| same(cached)) {
        return found.list.clone();
    }
    let list = Arc::new(CompiledList::compile(pack, entries, plugins));
    if cache.len() == SHARED_LISTS {
        cache.remove(0);
    }
    cache.push(cached(&list));
    list
}

/// Short lists kept per thread before the cache starts over (a batch moves from config to config).
const SHORT_LISTS_KEPT: usize = 4_096;

thread_local! {
    static SHORT_LISTS: RefCell<HashMap<u64, Vec<Cached>>> = RefCell::new(HashMap::new());
}

fn short_list_key(pack: usize, entries: &[Entry], plugins: &PluginGroups) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    pack.hash(&mut hasher);
    entries.iter().for_each(|entry| entry.pattern.hash(&mut hasher));
    plugins.all.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OpenClawVersion;
    use crate::policy::rules::Source;

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

    #[test]
    fn a_long_list_compiles_once_per_content() {
        let pack = OpenClawVersion::V2026_9.policy();
        let entries = |prefix: &str| -> Vec<Entry> {
            (0..SHARED_FROM)
                .map(|i| Entry { pattern: format!("{prefix}{i}"), source: Source::builtin("test") })
                .collect()
        };
        let plugins = PluginGroups::default();
        let first = compiled_list(pack, &entries("t"), &plugins);
        assert!(Arc::ptr_eq(&first, &compiled_list(pack, &entries("t"), &plugins)));
        let other = compiled_list(pack, &entries("u"), &plugins);
        assert!(!Arc::ptr_eq(&first, &other));
        assert_eq!(other.find("u7").map(|m| m.entry), Some(7));
        let mut with_plugin = PluginGroups::default();
        with_plugin.add("p", "p_tool");
        assert!(!Arc::ptr_eq(&first, &compiled_list(pack, &entries("t"), &with_plugin)));
    }
}
