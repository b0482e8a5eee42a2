//! The per-release facts about load-time migrations and doctor-fixable legacy keys, read from
//! `data/<release>/migrations.json` (texts are the releases' own; see `data/README.md`). The build
//! splits the file (`build/legacy_rules.rs`): a legacy rule is parsed the first time a config has
//! the keys its patterns name.

use std::collections::BTreeMap;

use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;

pub use super::pattern_path::{PatternPath, PatternStart, PatternStep};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReleaseMigrations {
    pub release: String,
    pub about: String,
    /// The rewrites the loader runs before validating, in the release's order (none in a release
    /// that migrates nothing at load).
    pub load_migrations: Vec<LoadMigrationStep>,
    /// Texts of the warnings the loader's own migrations print (`{placeholders}` filled in).
    pub load_warnings: BTreeMap<String, String>,
    /// Warnings the release's validation adds to an accepted config.
    pub validation_warnings: BTreeMap<String, PathMessage>,
    /// Chat channel aliases → canonical ids (route bindings compare canonical ids).
    pub channel_aliases: BTreeMap<String, String>,
    /// The forms rewritten at load, for `lint` (clawpolicy's own wording).
    pub migrated_forms: Vec<MigratedFormInfo>,
    /// Not in the file the build leaves: set by [`ReleaseMigrations::parse`].
    #[serde(skip)]
    pub legacy_rules: LegacyRules,
}

/// `migrations.json` as the build splits it (`build/legacy_rules.rs`): the file without its
/// `legacyRules`, each rule's JSON text, and the index [`LegacyRuleIndex`] reads. The tables hold
/// offsets into `text`.
pub struct SplitMigrations {
    pub rest: &'static str,
    pub text: &'static str,
    pub rules: &'static [[u32; 2]],
    /// The trees of the keys the rules' patterns name before their first wildcard, breadth
    /// first: node 0 roots the patterns that start at the config's root, node 1 those that start
    /// at `agents.defaults` or an agent entry.
    pub nodes: &'static [KeyNode],
    /// The rules listed at the nodes, each node's a run.
    pub marked: &'static [u32],
    /// Rules that may match whatever keys a config has: detectors written in code, patterns that
    /// start with a wildcard or name no key at all.
    pub always: &'static [u32],
}

/// One key of the index: the rules whose pattern's leading keys end here, and the keys that
/// follow it (a run of nodes, sorted by key).
pub struct KeyNode {
    pub key: [u32; 2],
    pub children: [u32; 2],
    pub rules: [u32; 2],
}

impl std::fmt::Debug for SplitMigrations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SplitMigrations({} rules)", self.rules.len())
    }
}

impl ReleaseMigrations {
    /// The release's migrations from the build's split of its file; the legacy rules stay text
    /// until asked for.
    pub fn parse(split: &'static SplitMigrations) -> Self {
        let mut migrations: ReleaseMigrations = super::parse(split.rest, "migrations");
        migrations.legacy_rules =
            LegacyRules { split: Some(split), parsed: split.rules.iter().map(|_| OnceLock::new()).collect() };
        migrations
    }
}

/// The release's doctor-fixable legacy rules, in its order, each parsed on first use.
#[derive(Debug, Default)]
pub struct LegacyRules {
    split: Option<&'static SplitMigrations>,
    parsed: Box<[OnceLock<LegacyRule>]>,
}

impl LegacyRules {
    pub fn len(&self) -> usize {
        self.parsed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parsed.is_empty()
    }

    /// Rule `at`, parsed the first time it is asked for.
    pub fn get(&self, at: usize) -> &LegacyRule {
        self.parsed[at].get_or_init(|| {
            let split = self.split.expect("rules come with their text");
            super::parse(super::text_at(split.text, split.rules[at]), "legacy rule")
        })
    }

    /// Every rule, in the release's order.
    pub fn iter(&self) -> impl Iterator<Item = &LegacyRule> {
        (0..self.len()).map(|at| self.get(at))
    }

    /// The rules indexed by the keys their patterns name, so that a config is matched only
    /// against the rules whose keys it has.
    pub fn index(&self) -> LegacyRuleIndex {
        LegacyRuleIndex { split: self.split, rule_count: self.len() }
    }
}

/// Which legacy rules (by position in [`LegacyRules`]) can match a config: the leading keys of
/// every pattern as a tree, walked along the keys a config has.
pub struct LegacyRuleIndex {
    split: Option<&'static SplitMigrations>,
    rule_count: usize,
}

impl LegacyRuleIndex {
    const ROOT: usize = 0;
    const SCOPE: usize = 1;

    /// Rules that can match a config whose root is `root` and whose defaults and agent entries
    /// are `scopes`, as a mask over the release's rules.
    pub fn candidates<'v>(&self, root: &Value, scopes: impl Iterator<Item = &'v Value>) -> Vec<bool> {
        let mut mask = vec![false; self.rule_count];
        let Some(split) = self.split else { return mask };
        split.always.iter().for_each(|at| mask[*at as usize] = true);
        mark(split, Self::ROOT, root, &mut mask);
        scopes.for_each(|scope| mark(split, Self::SCOPE, scope, &mut mask));
        mask
    }
}

/// Marks the rules under `node` whose leading keys `value` has.
fn mark(split: &SplitMigrations, node: usize, value: &Value, mask: &mut [bool]) {
    let Some(object) = value.as_object() else { return };
    let [first, end] = split.nodes[node].children.map(|at| at as usize);
    let children = &split.nodes[first..end];
    for (key, child) in object {
        let Ok(at) = children.binary_search_by(|node| super::text_at(split.text, node.key).cmp(key.as_str())) else {
            continue;
        };
        let [from, to] = children[at].rules.map(|at| at as usize);
        split.marked[from..to].iter().for_each(|rule| mask[*rule as usize] = true);
        mark(split, first + at, child, mask);
    }
}

/// One of the loader's rewrites (`readConfigSnapshotWithPreparation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LoadMigrationStep {
    /// `migrateLegacyContextBudgetConfig`.
    ContextBudget,
    /// `migratePersistedImplicitMainRoster` with `materializeLegacyDefaultAgentRoles`.
    Roster,
    /// `removeLegacyCopilotDiscovery`.
    CopilotDiscovery,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathMessage {
    pub path: String,
    pub message: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MigratedFormInfo {
    pub id: String,
    /// Where the form is written, for the docs.
    pub written: String,
    /// What the release does with it, completing "OpenClaw <release> …".
    pub action: String,
    /// How to make the rewrite permanent.
    pub fix: String,
}

/// One doctor-fixable legacy rule: what the release prints (`path`, `message`) and how it detects it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LegacyRule {
    /// The path the release reports (dotted; `""` for the root).
    pub path: String,
    pub message: String,
    /// The match must also hold in the file as written (before `$include` and `${VAR}`).
    #[serde(default)]
    pub source_literal: bool,
    /// Patterns (from the config root); the rule matches when any does. Absent with no other
    /// detector: the rule's own path is present.
    #[serde(default, rename = "match")]
    pub patterns: Option<Vec<Pattern>>,
    /// A detector written in code (`toolPolicyConflict`, `legacyToolName`).
    #[serde(default)]
    pub detector: Option<String>,
    #[serde(default)]
    pub legacy: Option<String>,
    #[serde(default)]
    pub canonical: Option<String>,
    /// Why this rule's matcher is not reproduced (it then never matches).
    #[serde(default)]
    pub not_simulated: Option<String>,
    /// The pattern of a rule with neither patterns nor a detector: its own path is present.
    #[serde(skip)]
    own_path: OnceLock<Pattern>,
}

impl LegacyRule {
    /// The patterns the rule matches with: its own, else its path being present.
    pub fn patterns(&self) -> &[Pattern] {
        match &self.patterns {
            Some(patterns) => patterns,
            None => std::slice::from_ref(self.own_path.get_or_init(|| Pattern::present(&self.path))),
        }
    }
}

/// A path pattern: dot-separated keys, `*` (any member of an object), `[]` (any element of an
/// array), and, as first segment, `@agent` (each agent entry: `agents.entries.*`, else
/// `agents.list[]`) or `@scope` (`agents.defaults` and each agent entry).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Pattern {
    pub at: PatternPath,
    #[serde(default, rename = "is")]
    pub predicate: Predicate,
    /// Members a trailing `*` skips.
    #[serde(default)]
    pub except: Vec<String>,
    /// Paths whose validation issues the same doctor fix also repairs.
    #[serde(default)]
    pub also_covers: Vec<String>,
    /// What `openclaw doctor --fix` does with a match here (clawpolicy's words), when known.
    #[serde(default)]
    pub fix: Option<String>,
}

/// What the value at a pattern's end must be: a name (`"record"`) or a one-member object
/// (`{"in": […]}`), which is how serde reads an enum, with no trial of each form.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Predicate {
    #[default]
    Present,
    Record,
    Boolean,
    NotBoolean,
    String,
    Array,
    Equals(Value),
    In(Vec<Value>),
    /// A string that, trimmed and lower-cased, is one of these.
    LowerTrimIn(Vec<String>),
    NumberOutside([f64; 2]),
    /// An object with a member not in this list.
    RecordKeysExcept(Vec<String>),
}

/// A pattern's path, parsed when its rule is read.
impl<'de> Deserialize<'de> for PatternPath {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(PatternPath::parse(&String::deserialize(deserializer)?))
    }
}

impl Pattern {
    /// The value at `at` exists.
    pub fn present(at: &str) -> Self {
        Pattern {
            at: PatternPath::parse(at),
            predicate: Predicate::Present,
            except: Vec::new(),
            also_covers: Vec::new(),
            fix: None,
        }
    }
}

impl ReleaseMigrations {
    /// A load-warning text with its `{placeholders}` filled in.
    pub fn load_warning(&self, id: &str, fill: &[(&str, &str)]) -> String {
        let template = self.load_warnings.get(id).unwrap_or_else(|| panic!("load warning `{id}` in migrations data"));
        fill.iter().fold(template.clone(), |text, (name, value)| text.replace(&format!("{{{name}}}"), value))
    }

    pub fn form(&self, id: &str) -> &MigratedFormInfo {
        self.migrated_forms.iter().find(|f| f.id == id).unwrap_or_else(|| panic!("migrated form `{id}` in data"))
    }
}

#[cfg(test)]
mod tests {
    use super::{PatternPath, PatternStart, PatternStep};
    use crate::OpenClawVersion;

    #[test]
    fn a_pattern_path_is_parsed_into_where_it_starts_and_its_steps() {
        let parse = PatternPath::parse;
        let key = |k: &str| PatternStep::Key(k.into());
        let root = parse("tools.*.[]");
        assert_eq!(
            (root.start, root.steps),
            (PatternStart::Root, vec![key("tools"), PatternStep::AnyMember, PatternStep::AnyElement])
        );
        let agent = parse("@agent.tools.exec");
        assert_eq!((agent.start, agent.steps), (PatternStart::Agents, vec![key("tools"), key("exec")]));
        let scope = parse("@scope");
        assert_eq!((scope.start, scope.steps), (PatternStart::DefaultsAndAgents, vec![]));
        let whole = parse("");
        assert_eq!((whole.start, whole.steps), (PatternStart::Root, vec![]));
    }

    /// A value holding `keys` nested, from the outermost.
    fn nested(keys: &[&str]) -> serde_json::Value {
        keys.iter().rev().fold(serde_json::json!(true), |inner, key| serde_json::json!({ *key: inner }))
    }

    #[test]
    fn the_legacy_index_offers_every_rule_whose_leading_keys_a_config_has() {
        for version in OpenClawVersion::ALL {
            let data = version.migrations();
            let index = data.legacy_rules.index();
            for (at, rule) in data.legacy_rules.iter().enumerate() {
                if rule.not_simulated.is_some() {
                    continue;
                }
                for pattern in rule.patterns() {
                    let keys: Vec<&str> = pattern.at.leading_keys().collect();
                    let place = nested(&keys);
                    let (root, scopes) = match pattern.at.start {
                        PatternStart::Root => (place, vec![]),
                        PatternStart::Agents | PatternStart::DefaultsAndAgents => (serde_json::json!({}), vec![place]),
                    };
                    let offered = index.candidates(&root, scopes.iter());
                    assert!(offered[at], "{}: rule `{}` not offered for `{:?}`", version.id(), rule.path, keys);
                }
            }
            // A config with none of the keys is offered only the rules that match anything.
            let bare = index.candidates(&serde_json::json!({}), std::iter::empty());
            let always: Vec<_> = data.legacy_rules.iter().zip(&bare).filter(|(_, offered)| **offered).collect();
            assert!(always.len() < data.legacy_rules.len() / 4, "{}", version.id());
            for (rule, _) in always {
                let wild = rule.patterns().iter().any(|p| !matches!(p.at.steps.first(), Some(PatternStep::Key(_))));
                assert!(
                    rule.detector.is_some() || wild,
                    "{}: `{}` offered to an empty config",
                    version.id(),
                    rule.path
                );
            }
        }
    }

    #[test]
    fn every_release_and_each_of_its_rules_parse() {
        for version in OpenClawVersion::ALL {
            let data = version.migrations();
            assert!(!data.legacy_rules.is_empty());
            assert!(data.legacy_rules.iter().all(|r| r.message.trim() == r.message && !r.message.is_empty()));
        }
        assert!(OpenClawVersion::V2026_2.migrations().load_migrations.is_empty());
    }
}
