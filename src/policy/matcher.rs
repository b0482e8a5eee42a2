//! Evaluating one `{allow, deny}` policy against tool names, remembering which entry decided.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use ahash::{AHashMap, AHashSet};
use serde::Serialize;

use super::memo::Memo;
use super::rules::{Entry, Policy};
use crate::base::glob::Glob;
use crate::release::pack::VersionPack;

/// Plugin-owned tools present in a run, for `group:plugins` and plugin-id entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginGroups {
    /// Every plugin tool name, in tool-list order.
    pub all: Vec<String>,
    /// Lowercased plugin id → its tool names.
    pub by_plugin: BTreeMap<String, Vec<String>>,
}

impl PluginGroups {
    pub fn add(&mut self, plugin_id: &str, tool: &str) {
        self.all.push(tool.to_string());
        self.by_plugin.entry(plugin_id.trim().to_lowercase()).or_default().push(tool.to_string());
    }
}

/// Which entry of a step's list matched, and the group, plugin or family it expanded from.
/// Cheap to clone: every session's verdicts copy the one their compiled list holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchRef {
    pub entry: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// A thin pointer: a resolution holds one verdict per step and candidate.
    pub via: Option<Arc<String>>,
}

/// What one step decided about one tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "camelCase")]
pub enum Verdict {
    /// The step has no allowlist (or an empty one) and no deny matched.
    AllowedNoAllowlist,
    Allowed {
        by: MatchRef,
    },
    /// `apply_patch` admitted because the allowlist matches the piggyback tool (`write`/`exec`).
    AllowedViaPiggyback {
        by: MatchRef,
        piggyback: Arc<String>,
    },
    Denied {
        by: MatchRef,
    },
    NotInAllowlist,
}

impl Verdict {
    pub fn keeps(&self) -> bool {
        !matches!(self, Verdict::Denied { .. } | Verdict::NotInAllowlist)
    }
}

struct CompiledPattern {
    glob: Glob,
    at: MatchRef,
}

/// A compiled allow or deny list. Plain names are looked up in a map, so a list of hundreds of
/// thousands of names costs one lookup per tool, not a scan; globs are tried in list order.
pub struct CompiledList {
    /// Plain name → the position of its pattern in the list.
    exact: AHashMap<String, (usize, MatchRef)>,
    /// Patterns with a `*`, with their positions, in list order.
    globs: Vec<(usize, CompiledPattern)>,
}

impl CompiledList {
    /// Normalizes, expands (families, plugin groups, static groups) and compiles a list.
    pub fn compile(pack: &VersionPack, entries: &[Entry], plugins: &PluginGroups) -> CompiledList {
        // Sized for the list at once: growing a map of half a million names doubles it in steps,
        // holding the old table and the new one together each time.
        let (mut exact, mut globs, mut seen_globs) =
            (AHashMap::with_capacity(entries.len()), Vec::new(), AHashSet::new());
        let mut position = 0;
        for (index, entry) in entries.iter().enumerate() {
            for (name, via) in expand_entry(pack, &entry.pattern, plugins) {
                if name.is_empty() {
                    continue;
                }
                let at = MatchRef { entry: index, via: via.map(|via| Arc::new(via.to_string())) };
                if name.contains('*') {
                    if seen_globs.insert(name.clone()) {
                        globs.push((position, CompiledPattern { glob: Glob::compile(&name), at }));
                        position += 1;
                    }
                } else if let std::collections::hash_map::Entry::Vacant(slot) = exact.entry(name) {
                    slot.insert((position, at));
                    position += 1;
                }
            }
        }
        CompiledList { exact, globs }
    }

    pub fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.globs.is_empty()
    }

    /// The first pattern of the list that matches `name`.
    pub fn find(&self, name: &str) -> Option<&MatchRef> {
        let exact = self.exact.get(name);
        let before = exact.map_or(usize::MAX, |(position, _)| *position);
        let glob = self.globs.iter().take_while(|(position, _)| *position < before).find(|(_, p)| p.glob.matches(name));
        glob.map(|(_, p)| &p.at).or(exact.map(|(_, at)| at))
    }
}

/// The concrete names one entry stands for, each with what it expanded from.
pub fn expand_entry(pack: &VersionPack, pattern: &str, plugins: &PluginGroups) -> Vec<(String, Option<String>)> {
    let normalized = pack.normalize(pattern);
    let family: Vec<String> = match pack.expansion(&normalized) {
        Some(members) => members.to_vec(),
        None => vec![normalized.clone()],
    };
    let mut out = Vec::new();
    for name in family {
        let renamed = (name != normalized).then(|| normalized.clone());
        if name == "group:plugins" && !plugins.all.is_empty() {
            out.extend(plugins.all.iter().map(|t| (pack.normalize(t), Some(name.clone()))));
        } else if let Some(tools) = plugins.by_plugin.get(&name) {
            out.extend(tools.iter().map(|t| (pack.normalize(t), Some(format!("plugin {name}")))));
        } else if let Some(members) = pack.group(&name) {
            out.extend(members.iter().map(|m| (m.clone(), Some(name.clone()))));
        } else {
            out.push((name, renamed));
        }
    }
    out
}

/// OpenClaw's `expandToolGroups` for one entry: the normalized name, or a static group's members.
/// No shipped renames and no plugin groups; blank entries vanish.
pub fn expand_static_groups(pack: &VersionPack, pattern: &str) -> Vec<String> {
    let normalized = pack.normalize(pattern);
    match pack.group(&normalized) {
        Some(members) => members.to_vec(),
        None if normalized.is_empty() => Vec::new(),
        None => vec![normalized],
    }
}

/// A whole policy compiled for one step (long lists shared, see [`compiled_list`]).
pub struct CompiledPolicy {
    allow: Option<Arc<CompiledList>>,
    deny: Arc<CompiledList>,
    piggyback: Arc<String>,
    denied_with_piggyback: bool,
}

/// The memo key of the compiled forms of one step policy: its address.
#[derive(PartialEq, Eq, Hash)]
struct CompiledAt(usize);

/// A compiled policy with the policy it compiles (held, so that its address cannot be reused
/// while it is known) and the plugin tools it was compiled with.
type CompiledEntry = (Arc<Policy>, PluginGroups, Arc<CompiledPolicy>);

impl CompiledPolicy {
    /// `policy` compiled for a run with `plugins`, shared by the sessions of a config (most of
    /// them compile the same few policies with the same plugin tools).
    pub fn shared(
        memo: &Memo,
        pack: &VersionPack,
        policy: &Arc<Policy>,
        plugins: &PluginGroups,
    ) -> Arc<CompiledPolicy> {
        let compile = || Arc::new(CompiledPolicy::compile(pack, policy, plugins));
        // A policy only this session holds (a spawn's inheritance, a run's toolsAllow, an
        // allowlist stripped for this run) comes back in no other session: not kept.
        if Arc::strong_count(policy) == 1 {
            return compile();
        }
        let key = Arc::as_ptr(policy) as usize;
        let find = |known: &[CompiledEntry]| {
            known.iter().find(|(_, with, _)| with == plugins).map(|(_, _, compiled)| compiled.clone())
        };
        let known =
            |table: &mut AHashMap<CompiledAt, Vec<CompiledEntry>>| table.get(&CompiledAt(key)).and_then(|k| find(k));
        if let Some(found) = memo.with(known) {
            return found;
        }
        let compiled = compile();
        memo.with(|table: &mut AHashMap<CompiledAt, Vec<CompiledEntry>>| {
            let known = table.entry(CompiledAt(key)).or_default();
            find(known).unwrap_or_else(|| {
                known.push((policy.clone(), plugins.clone(), compiled.clone()));
                compiled
            })
        })
    }

    pub fn compile(pack: &VersionPack, policy: &Policy, plugins: &PluginGroups) -> CompiledPolicy {
        let allow = policy.allow.as_deref().map(|a| compiled_list(pack, a, plugins));
        CompiledPolicy {
            // An allowlist that compiles to nothing (absent, `[]`, blanks) allows everything.
            allow: allow.filter(|list| !list.is_empty()),
            deny: compiled_list(pack, policy.deny.as_deref().unwrap_or_default(), plugins),
            piggyback: Arc::new(pack.apply_patch.piggyback_on.clone()),
            denied_with_piggyback: pack.apply_patch.denied_with_piggyback,
        }
    }

    /// OpenClaw's order: deny wins, then an empty allowlist allows, then allow matches, then the
    /// apply_patch piggyback, else an allowlist miss. `name` must be normalized.
    pub fn evaluate(&self, name: &str) -> Verdict {
        if let Some(by) = self.deny.find(name) {
            return Verdict::Denied { by: by.clone() };
        }
        if name == "apply_patch"
            && self.denied_with_piggyback
            && let Some(by) = self.deny.find(&self.piggyback)
        {
            return Verdict::Denied { by: by.clone() };
        }
        let Some(allow) = &self.allow else {
            return Verdict::AllowedNoAllowlist;
        };
        if let Some(by) = allow.find(name) {
            return Verdict::Allowed { by: by.clone() };
        }
        if name == "apply_patch"
            && let Some(by) = allow.find(&self.piggyback)
        {
            return Verdict::AllowedViaPiggyback { by: by.clone(), piggyback: self.piggyback.clone() };
        }
        Verdict::NotInAllowlist
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
    let mut cache = crate::base::parallel::lock(&CACHE);
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
    static SHORT_LISTS: RefCell<AHashMap<u64, Vec<Cached>>> = RefCell::new(AHashMap::new());
}

fn short_list_key(pack: usize, entries: &[Entry], plugins: &PluginGroups) -> u64 {
    // Fixed keys: the key must be the same for the same list all through the process.
    let mut hasher = std::hash::BuildHasher::build_hasher(&ahash::RandomState::with_seeds(1, 2, 3, 4));
    pack.hash(&mut hasher);
    entries.iter().for_each(|entry| entry.pattern.hash(&mut hasher));
    plugins.all.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_verdict_stays_small() {
        // A resolution holds one verdict per step and candidate (lint holds thousands of them).
        assert!(std::mem::size_of::<Option<super::Verdict>>() <= 32);
    }

    use super::*;
    use crate::OpenClawVersion;
    use crate::policy::rules::Source;

    fn entries(patterns: &[&str]) -> Vec<Entry> {
        patterns.iter().map(|p| Entry { pattern: p.to_string(), source: Source::builtin("test") }).collect()
    }

    fn policy(allow: Option<&[&str]>, deny: Option<&[&str]>) -> Policy {
        Policy { allow: allow.map(entries), deny: deny.map(entries) }
    }

    fn keeps(version: OpenClawVersion, p: &Policy, name: &str) -> bool {
        let pack = version.policy();
        CompiledPolicy::compile(pack, p, &PluginGroups::default()).evaluate(name).keeps()
    }

    #[test]
    fn deny_wins_and_empty_allow_allows_all() {
        let v = OpenClawVersion::V2026_9;
        assert!(!keeps(v, &policy(Some(&["*"]), Some(&["exec"])), "exec"));
        assert!(keeps(v, &policy(Some(&[]), None), "exec"));
        assert!(keeps(v, &policy(Some(&["  "]), None), "exec"));
        assert!(!keeps(v, &policy(Some(&["read"]), None), "exec"));
    }

    #[test]
    fn globs_groups_aliases_and_case() {
        let v = OpenClawVersion::V2026_9;
        assert!(keeps(v, &policy(Some(&["SESSIONS_*"]), None), "sessions_list"));
        assert!(keeps(v, &policy(Some(&["Bash"]), None), "exec"));
        assert!(keeps(v, &policy(Some(&["group:fs"]), None), "ls"));
        assert!(keeps(v, &policy(Some(&["cron"]), None), "automations"));
        assert!(!keeps(v, &policy(Some(&["sessions_?ist"]), None), "sessions_list"));
        assert!(keeps(v, &policy(Some(&["sessions_?ist"]), None), "sessions_?ist"));
        assert!(keeps(v, &policy(Some(&["s*s*t"]), None), "sessions_list"));
        assert!(keeps(v, &policy(Some(&["*_list"]), None), "sessions_list"));
        assert!(!keeps(v, &policy(Some(&["sessions_*_x"]), None), "sessions_list"));
        assert!(!keeps(v, &policy(Some(&["ab*ba"]), None), "aba"), "parts may not overlap");
        assert!(keeps(v, &policy(Some(&["ab*ba"]), None), "abba"));
        assert!(keeps(v, &policy(Some(&["update_plan"]), None), "progress_card"));
        assert!(keeps(v, &policy(Some(&["canvas"]), None), "show_widget"));
        // `image` is not an alias outside the sandbox resolver.
        assert!(keeps(v, &policy(None, Some(&["image"])), "view_image"));
    }

    #[test]
    fn apply_patch_piggyback_differs_by_version() {
        let allow_write = policy(Some(&["w*"]), None);
        assert!(keeps(OpenClawVersion::V2026_9, &allow_write, "apply_patch"));
        assert!(!keeps(OpenClawVersion::V2026_2, &allow_write, "apply_patch"));
        let allow_exec_deny_exec = policy(Some(&["read", "exec"]), Some(&["exec"]));
        assert!(keeps(OpenClawVersion::V2026_2, &allow_exec_deny_exec, "apply_patch"));
        // Deny has no mirror rule.
        assert!(keeps(OpenClawVersion::V2026_9, &policy(None, Some(&["write"])), "apply_patch"));
    }

    #[test]
    fn the_first_matching_entry_wins_between_names_and_globs() {
        let pack = OpenClawVersion::V2026_9.policy();
        let first = |patterns: &[&str], name: &str| {
            CompiledList::compile(pack, &entries(patterns), &PluginGroups::default()).find(name).map(|m| m.entry)
        };
        assert_eq!(first(&["re*", "read"], "read"), Some(0));
        assert_eq!(first(&["read", "re*"], "read"), Some(0));
        assert_eq!(first(&["x", "write", "*"], "read"), Some(2));
        assert_eq!(first(&["x", "READ"], "read"), Some(1));
        assert_eq!(first(&["x"], "read"), None);
    }

    #[test]
    fn a_list_of_many_names_is_looked_up_not_scanned() {
        let pack = OpenClawVersion::V2026_9.policy();
        let names: Vec<String> = (0..200_000).map(|i| format!("t{i}")).collect();
        let list = entries(&names.iter().map(String::as_str).collect::<Vec<_>>());
        let compiled = CompiledList::compile(pack, &list, &PluginGroups::default());
        let started = std::time::Instant::now();
        for _ in 0..10_000 {
            assert_eq!(compiled.find("t199999").map(|m| m.entry), Some(199_999));
            assert!(compiled.find("read").is_none());
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
    }

    #[test]
    fn plugin_groups_expand() {
        let pack = OpenClawVersion::V2026_9.policy();
        let mut plugins = PluginGroups::default();
        plugins.add("MyPlugin", "myplugin_tool");
        plugins.add("other", "other_plugin_tool");
        let p = policy(Some(&["myplugin"]), None);
        let compiled = CompiledPolicy::compile(pack, &p, &plugins);
        assert!(compiled.evaluate("myplugin_tool").keeps());
        assert!(!compiled.evaluate("other_plugin_tool").keeps());
        let all = CompiledPolicy::compile(pack, &policy(Some(&["group:plugins"]), None), &plugins);
        assert_eq!(
            all.evaluate("other_plugin_tool"),
            Verdict::Allowed { by: MatchRef { entry: 0, via: Some(Arc::new("group:plugins".into())) } }
        );
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
