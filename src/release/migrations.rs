//! The per-release facts about load-time migrations and doctor-fixable legacy keys, read once from
//! `data/<release>/migrations.json` (texts are the releases' own; see `data/README.md`).

use std::collections::BTreeMap;

use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;

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
    pub legacy_rules: Vec<LegacyRule>,
    /// The legacy rules by the first key their patterns name, built on first use.
    #[serde(skip)]
    legacy_index: OnceLock<LegacyRuleIndex>,
}

impl ReleaseMigrations {
    /// The legacy rules indexed by the first key each pattern names, so that a config is matched
    /// only against the rules whose keys it has (most of a release's hundreds of patterns name a
    /// key a given config does not have).
    pub fn legacy_index(&self) -> &LegacyRuleIndex {
        self.legacy_index.get_or_init(|| LegacyRuleIndex::of(&self.legacy_rules))
    }
}

/// Which legacy rules (by position in [`ReleaseMigrations::legacy_rules`]) can match a config:
/// the leading keys of every pattern as a tree, walked along the keys a config has.
#[derive(Debug, Default)]
pub struct LegacyRuleIndex {
    /// Patterns that start at the root.
    root: KeyTree,
    /// Patterns that start at `agents.defaults` or an agent entry.
    scope: KeyTree,
    /// Rules that may match whatever keys a config has: detectors written in code, patterns that
    /// start with a wildcard or name no key at all.
    always: Vec<usize>,
    /// How many rules the release has (the length of a candidate mask).
    rule_count: usize,
}

/// Patterns' leading keys: a rule is listed at the node its pattern's last leading key reaches.
#[derive(Debug, Default)]
struct KeyTree {
    children: ahash::AHashMap<String, KeyTree>,
    rules: Vec<usize>,
}

impl KeyTree {
    /// Marks the rules whose leading keys `value` has.
    fn mark(&self, value: &Value, mask: &mut [bool]) {
        let Some(object) = value.as_object() else { return };
        for (key, child) in object {
            if let Some(node) = self.children.get(key.as_str()) {
                node.rules.iter().for_each(|at| mask[*at] = true);
                node.mark(child, mask);
            }
        }
    }
}

impl LegacyRuleIndex {
    fn of(rules: &[LegacyRule]) -> Self {
        let mut index = LegacyRuleIndex { rule_count: rules.len(), ..LegacyRuleIndex::default() };
        for (at, rule) in rules.iter().enumerate() {
            if rule.not_simulated.is_some() {
                continue;
            }
            if rule.detector.is_some() {
                index.always.push(at);
                continue;
            }
            for pattern in rule.patterns() {
                let mut node = match pattern.at.start {
                    PatternStart::Root => &mut index.root,
                    PatternStart::Agents | PatternStart::DefaultsAndAgents => &mut index.scope,
                };
                let keys = pattern.at.steps.iter().map_while(|step| match step {
                    PatternStep::Key(key) => Some(key),
                    PatternStep::AnyMember | PatternStep::AnyElement => None,
                });
                let mut depth = 0;
                for key in keys {
                    node = node.children.entry(key.clone()).or_default();
                    depth += 1;
                }
                match depth {
                    0 => index.always.push(at),
                    _ => node.rules.push(at),
                }
            }
        }
        index
    }

    /// Rules that can match a config whose root is `root` and whose defaults and agent entries
    /// are `scopes`, as a mask over the release's rules.
    pub fn candidates<'v>(&self, root: &Value, scopes: impl Iterator<Item = &'v Value>) -> Vec<bool> {
        let mut mask = vec![false; self.rule_count];
        self.always.iter().for_each(|at| mask[*at] = true);
        self.root.mark(root, &mut mask);
        scopes.for_each(|scope| self.scope.mark(scope, &mut mask));
        mask
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

/// A pattern's path, parsed when the release data is read: where it starts, then its steps.
#[derive(Debug, Deserialize)]
#[serde(from = "String")]
pub struct PatternPath {
    pub start: PatternStart,
    pub steps: Vec<PatternStep>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternStart {
    Root,
    /// `@agent`: each agent entry.
    Agents,
    /// `@scope`: `agents.defaults`, then each agent entry.
    DefaultsAndAgents,
}

#[derive(Debug, PartialEq, Eq)]
pub enum PatternStep {
    Key(String),
    /// `*`
    AnyMember,
    /// `[]`
    AnyElement,
}

impl From<String> for PatternPath {
    fn from(at: String) -> Self {
        let mut segments = at.split('.').filter(|_| !at.is_empty()).peekable();
        let start = match segments.peek().copied() {
            Some("@agent") => PatternStart::Agents,
            Some("@scope") => PatternStart::DefaultsAndAgents,
            _ => PatternStart::Root,
        };
        if start != PatternStart::Root {
            segments.next();
        }
        let steps = segments
            .map(|segment| match segment {
                "*" => PatternStep::AnyMember,
                "[]" => PatternStep::AnyElement,
                key => PatternStep::Key(key.to_string()),
            })
            .collect();
        PatternPath { start, steps }
    }
}

impl Pattern {
    /// The value at `at` exists.
    pub fn present(at: &str) -> Self {
        Pattern {
            at: PatternPath::from(at.to_string()),
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
        let parse = |at: &str| PatternPath::from(at.to_string());
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
    fn nested(keys: &[&String]) -> serde_json::Value {
        keys.iter().rev().fold(serde_json::json!(true), |inner, key| serde_json::json!({ key.as_str(): inner }))
    }

    #[test]
    fn the_legacy_index_offers_every_rule_whose_leading_keys_a_config_has() {
        for version in OpenClawVersion::ALL {
            let data = version.migrations();
            let index = data.legacy_index();
            for (at, rule) in data.legacy_rules.iter().enumerate() {
                if rule.not_simulated.is_some() {
                    continue;
                }
                for pattern in rule.patterns() {
                    let keys: Vec<&String> = pattern
                        .at
                        .steps
                        .iter()
                        .map_while(|step| match step {
                            PatternStep::Key(key) => Some(key),
                            _ => None,
                        })
                        .collect();
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
            let always = data.legacy_rules.iter().zip(&bare).filter(|(_, offered)| **offered);
            assert!(always.clone().count() < data.legacy_rules.len() / 4, "{}", version.id());
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
    fn both_releases_parse() {
        for version in [OpenClawVersion::V2026_9, OpenClawVersion::V2026_2] {
            let data = version.migrations();
            assert!(!data.legacy_rules.is_empty());
            assert!(data.legacy_rules.iter().all(|r| r.message.trim() == r.message && !r.message.is_empty()));
        }
        assert!(OpenClawVersion::V2026_2.migrations().load_migrations.is_empty());
    }
}
