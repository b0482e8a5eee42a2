//! The release's doctor-fixable legacy rules (`findLegacyConfigIssues`): retired keys it does not
//! migrate at load but reports, with its own message, for `openclaw doctor --fix` to repair.
//! 2026.9 reports them only when it refuses the config; 2026.2 reports them instead of every other
//! validation issue. Most rules are path patterns in the release data; two detectors are written
//! here after the release's JavaScript (`visitConflictingToolPolicies`, `visitLegacyToolName`).

use serde_json::{Map, Value};

use crate::OpenClawVersion;
use crate::base::js::js_trim;
use crate::config::path::{PathSeg, parse_dotted};
use crate::config::view::keys;
use crate::release::migrations::{LegacyRule, Pattern, PatternStart, PatternStep, Predicate};
use crate::release::pack::VersionPack;

/// A concrete place a legacy rule matched.
#[derive(Debug, Clone)]
pub struct Matched {
    pub path: Vec<PathSeg>,
    /// What the doctor's fix does there, when the data knows.
    pub fix: Option<&'static str>,
}

/// One legacy rule that matched: what the release prints, and where it matched.
#[derive(Debug, Clone)]
pub struct LegacyMatch {
    pub rule: &'static LegacyRule,
    /// The concrete key paths that made the rule match.
    pub matched: Vec<Matched>,
    /// The paths whose validation issues the doctor fix repairs (`matched` and what the rule
    /// declares it also covers).
    pub covers: Vec<Vec<PathSeg>>,
}

impl LegacyMatch {
    /// The path the release reports (`""` for the root).
    pub fn path(&self) -> &str {
        &self.rule.path
    }

    pub fn message(&self) -> &str {
        &self.rule.message
    }

    /// Whether fixing this rule repairs an issue about exactly `subject`.
    pub fn covers(&self, subject: &[PathSeg]) -> bool {
        self.covers.iter().any(|c| c == subject)
    }
}

/// Every legacy rule of `version` that matches `config` (the migrated config), in the release's
/// order. `authored` gives the file as written, for rules that need the literal there (asked only
/// when such a rule matches the config).
pub fn find<'a>(config: &Value, authored: impl Fn() -> &'a Value, version: OpenClawVersion) -> Vec<LegacyMatch> {
    let data = version.migrations();
    let pack = version.policy();
    let starts = Starts::of(config);
    let rules = &data.legacy_rules;
    let candidates = rules.index().candidates(starts.root, starts.scopes());
    // The file as written, read only when a rule that needs its literal matches.
    let authored_starts = std::cell::OnceCell::new();
    candidates
        .into_iter()
        .enumerate()
        .filter(|(_, candidate)| *candidate)
        .filter_map(|(at, _)| {
            let rule = rules.get(at);
            let matched = rule_matches(rule, &starts, pack);
            let as_written = || authored_starts.get_or_init(|| Starts::of(authored()));
            if matched.is_empty() || (rule.source_literal && rule_matches(rule, as_written(), pack).is_empty()) {
                return None;
            }
            let also = rule.patterns.iter().flatten().flat_map(|p| &p.also_covers).map(|p| parse_dotted(p));
            let covers = matched.iter().map(|m| m.path.clone()).chain(also).collect();
            Some(LegacyMatch { rule, matched, covers })
        })
        .collect()
}

fn rule_matches(rule: &'static LegacyRule, starts: &Starts<'_>, pack: &VersionPack) -> Vec<Matched> {
    let root = starts.root;
    let plain = |paths: Vec<Vec<PathSeg>>| paths.into_iter().map(|path| Matched { path, fix: None }).collect();
    if rule.not_simulated.is_some() {
        return Vec::new();
    }
    match rule.detector.as_deref() {
        Some("toolPolicyConflict") => return plain(tool_policy_conflicts(&starts.policy_scopes(rule.path.as_str()))),
        Some("legacyToolName") => {
            let legacy = rule.legacy.as_deref().unwrap_or_default();
            let canonical = rule.canonical.as_deref().unwrap_or_default();
            return plain(legacy_tool_names(
                &starts.policy_scopes(rule.path.as_str()),
                &ToolRename { legacy, canonical, pack },
            ));
        }
        Some("qqbotOpenAllowFrom") => return plain(qqbot_open_allow_from(root)),
        Some(other) => panic!("unknown legacy detector `{other}` in release data"),
        None => {}
    }
    let mut out = Vec::new();
    for pattern in rule.patterns() {
        let mut paths = Vec::new();
        pattern_matches(starts, pattern, &mut paths);
        out.extend(paths.into_iter().map(|path| Matched { path, fix: pattern.fix.as_deref() }));
    }
    out
}

/// Where the release's patterns start in one config: the root, the agent entries (`@agent`) and
/// the defaults with them (`@scope`), found once for all of a release's patterns.
struct Starts<'v> {
    root: &'v Value,
    defaults: Option<(Vec<PathSeg>, &'v Value)>,
    agents: Vec<(Vec<PathSeg>, &'v Value)>,
    /// The policy scopes under each root key the detectors ask about, found on first use (each
    /// root is walked once for all of its detectors).
    policy_scopes: std::cell::RefCell<Vec<(&'static str, Scopes<'v>)>>,
}

/// The policy scopes under one root, shared by the detectors that read them.
type Scopes<'v> = std::rc::Rc<[PolicyScope<'v>]>;

impl<'v> Starts<'v> {
    fn of(root: &'v Value) -> Self {
        let defaults = root.get(keys::AGENTS).and_then(|a| a.get(keys::DEFAULTS)).filter(|d| d.is_object());
        let defaults = defaults.map(|d| (vec![PathSeg::key(keys::AGENTS), PathSeg::key(keys::DEFAULTS)], d));
        Starts { root, defaults, agents: agent_entries(root), policy_scopes: Default::default() }
    }

    fn policy_scopes(&self, root_key: &'static str) -> Scopes<'v> {
        let mut known = self.policy_scopes.borrow_mut();
        if let Some((_, scopes)) = known.iter().find(|(key, _)| *key == root_key) {
            return scopes.clone();
        }
        let scopes: Scopes<'v> = policy_scopes(self.root, root_key).into();
        known.push((root_key, scopes.clone()));
        scopes
    }

    /// `agents.defaults`, then every agent entry.
    fn scopes(&self) -> impl Iterator<Item = &'v Value> {
        self.defaults.iter().chain(&self.agents).map(|(_, value)| *value)
    }
}

fn pattern_matches(starts: &Starts<'_>, pattern: &Pattern, out: &mut Vec<Vec<PathSeg>>) {
    let steps = &pattern.at.steps;
    let mut path = Vec::new();
    let mut from = |base: &[PathSeg], value: &Value| {
        // Most patterns name a key the config does not have: no path is built for those.
        if let Some(PatternStep::Key(key)) = steps.first()
            && value.get(key).is_none()
        {
            return;
        }
        path.clear();
        path.extend_from_slice(base);
        walk(value, steps, pattern, &mut path, out);
    };
    let agents = starts.agents.iter();
    match pattern.at.start {
        PatternStart::Root => from(&[], starts.root),
        PatternStart::Agents => agents.for_each(|(base, value)| from(base, value)),
        PatternStart::DefaultsAndAgents => {
            starts.defaults.iter().chain(agents).for_each(|(base, value)| from(base, value))
        }
    }
}

/// `visitAgentEntries`: object entries of `agents.entries` (when it is an object), else object
/// items of `agents.list`.
fn agent_entries(root: &Value) -> Vec<(Vec<PathSeg>, &Value)> {
    let Some(agents) = root.get(keys::AGENTS).and_then(Value::as_object) else { return Vec::new() };
    let base = |k: &str| vec![PathSeg::key(keys::AGENTS), PathSeg::key(k)];
    if let Some(entries) = agents.get(keys::ENTRIES).and_then(Value::as_object) {
        return entries
            .iter()
            .filter(|(id, e)| e.is_object() && !is_blocked_key(id))
            .map(|(id, e)| ([base(keys::ENTRIES), vec![PathSeg::key(id)]].concat(), e))
            .collect();
    }
    let list = agents.get(keys::LIST).and_then(Value::as_array).into_iter().flatten().enumerate();
    list.filter(|(_, e)| e.is_object() && !e.get(keys::ID).and_then(Value::as_str).is_some_and(is_blocked_key))
        .map(|(i, e)| ([base(keys::LIST), vec![PathSeg::Index(i)]].concat(), e))
        .collect()
}

fn is_blocked_key(key: &str) -> bool {
    matches!(key, "__proto__" | "prototype" | "constructor")
}

fn walk(value: &Value, segs: &[PatternStep], pattern: &Pattern, path: &mut Vec<PathSeg>, out: &mut Vec<Vec<PathSeg>>) {
    let Some((seg, rest)) = segs.split_first() else {
        if predicate_holds(&pattern.predicate, value) {
            out.push(path.clone());
        }
        return;
    };
    let mut step = |child: &Value, seg: PathSeg, path: &mut Vec<PathSeg>| {
        path.push(seg);
        walk(child, rest, pattern, path, out);
        path.pop();
    };
    match seg {
        PatternStep::Key(key) => {
            if let Some(child) = value.as_object().and_then(|m| m.get(key)) {
                step(child, PathSeg::key(key), path);
            }
        }
        PatternStep::AnyMember => {
            for (key, child) in value.as_object().into_iter().flatten() {
                if rest.is_empty() && pattern.except.contains(key) {
                    continue;
                }
                step(child, PathSeg::key(key), path);
            }
        }
        PatternStep::AnyElement => {
            for (index, child) in value.as_array().into_iter().flatten().enumerate() {
                step(child, PathSeg::Index(index), path);
            }
        }
    }
}

fn predicate_holds(predicate: &Predicate, value: &Value) -> bool {
    match predicate {
        Predicate::Present => true,
        Predicate::Record => value.is_object(),
        Predicate::Boolean => value.is_boolean(),
        Predicate::NotBoolean => !value.is_boolean(),
        Predicate::String => value.is_string(),
        Predicate::Array => value.is_array(),
        Predicate::Equals(equals) => value == equals,
        Predicate::In(values) => values.contains(value),
        Predicate::LowerTrimIn(values) => {
            value.as_str().is_some_and(|s| values.iter().any(|v| *v == js_trim(s).to_lowercase()))
        }
        Predicate::NumberOutside([min, max]) => value.as_f64().is_some_and(|n| n < *min || n > *max),
        Predicate::RecordKeysExcept(keys) => value.as_object().is_some_and(|m| m.keys().any(|k| !keys.contains(k))),
    }
}

/// `isToolPolicyPath`: a scope that holds allow/alsoAllow/deny lists.
fn is_tool_policy_path(path: &[PathSeg]) -> bool {
    let is = |seg: &PathSeg, key: &str| seg.as_key() == Some(key);
    if path.last().is_some_and(|s| is(s, keys::TOOLS)) || path.iter().any(|s| is(s, keys::TOOLS_BY_SENDER)) {
        return true;
    }
    path.iter().rposition(|s| is(s, keys::BY_PROVIDER)).is_some_and(|at| path[..at].iter().any(|s| is(s, keys::TOOLS)))
}

/// Called for every object with its path; returns whether to descend into it.
type Visitor<'v, 'f> = &'f mut dyn FnMut(&'v Map<String, Value>, &[PathSeg]) -> bool;

/// Recursion over objects and arrays, as the release's doctor walks a config root.
fn visit<'v>(value: &'v Value, path: &mut Vec<PathSeg>, visitor: Visitor<'v, '_>) {
    match value {
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(PathSeg::Index(index));
                visit(item, path, visitor);
                path.pop();
            }
        }
        Value::Object(map) => {
            if !visitor(map, path) {
                return;
            }
            for (key, child) in map {
                path.push(PathSeg::key(key));
                visit(child, path, visitor);
                path.pop();
            }
        }
        _ => {}
    }
}

/// An object under a detector's root that holds tool policy lists (or a `toolsAllow`), as the
/// release's doctor walks the root: where it is, whether its path makes it a tool policy scope,
/// and whether it lies at or below a `tools.sandbox` (where the conflict check does not look).
struct PolicyScope<'v> {
    path: Vec<PathSeg>,
    scope: &'v Map<String, Value>,
    tool_policy: bool,
    in_sandbox: bool,
}

/// Every [`PolicyScope`] under `root_key`, in the walk's order.
fn policy_scopes<'v>(root: &'v Value, root_key: &str) -> Vec<PolicyScope<'v>> {
    let Some(value) = root.get(root_key) else { return Vec::new() };
    let mut found = Vec::new();
    // The `tools.sandbox` object the walk is in, if any (the walk is depth first).
    let mut sandbox: Option<Vec<PathSeg>> = None;
    let mut visitor = |scope: &'v Map<String, Value>, path: &[PathSeg]| {
        let mut in_sandbox = sandbox.as_ref().is_some_and(|at| path.starts_with(at));
        if !in_sandbox
            && let [.., parent, last] = path
            && parent.as_key() == Some(keys::TOOLS)
            && last.as_key() == Some(keys::SANDBOX)
        {
            sandbox = Some(path.to_vec());
            in_sandbox = true;
        }
        let tool_policy = is_tool_policy_path(path);
        if tool_policy || scope.contains_key(keys::TOOLS_ALLOW) {
            found.push(PolicyScope { path: path.to_vec(), scope, tool_policy, in_sandbox });
        }
        true
    };
    visit(value, &mut vec![PathSeg::key(root_key)], &mut visitor);
    found
}

/// `findConflicts` under one root: tool policy scopes that set non-empty all-string `allow` and
/// `alsoAllow` together (never below `tools.sandbox`).
fn tool_policy_conflicts(scopes: &[PolicyScope<'_>]) -> Vec<Vec<PathSeg>> {
    let grants = |scope: &Map<String, Value>, key: &str| {
        scope.get(key).and_then(Value::as_array).is_some_and(|l| !l.is_empty() && l.iter().all(Value::is_string))
    };
    scopes
        .iter()
        .filter(|s| s.tool_policy && !s.in_sandbox && grants(s.scope, keys::ALLOW) && grants(s.scope, keys::ALSO_ALLOW))
        .map(|s| s.path.clone())
        .collect()
}

struct ToolRename<'a> {
    legacy: &'a str,
    canonical: &'a str,
    pack: &'a VersionPack,
}

impl ToolRename<'_> {
    /// `hasLegacyToolNameList`: the legacy name itself, or a pattern that covers it without
    /// covering the new name.
    fn list_needs_it(&self, list: &Value) -> bool {
        let Some(items) = list.as_array() else { return false };
        let entries: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
        let legacy = self.pack.normalize(self.legacy);
        if entries.iter().any(|e| self.pack.normalize(e) == legacy) {
            return true;
        }
        let canonical = self.pack.normalize(self.canonical);
        let covers = |name: &str| entries.iter().any(|e| self.pack.plain_glob_matches(e, name));
        covers(&legacy) && !covers(&canonical)
    }
}

/// `findLegacyToolNamePaths` under one root: policy lists (and `toolsAllow`) naming a renamed tool.
fn legacy_tool_names(scopes: &[PolicyScope<'_>], rename: &ToolRename<'_>) -> Vec<Vec<PathSeg>> {
    let mut found = Vec::new();
    for PolicyScope { path, scope, tool_policy, .. } in scopes {
        let policy_keys = if *tool_policy { [keys::ALLOW, keys::ALSO_ALLOW, keys::DENY].as_slice() } else { &[] };
        for key in policy_keys.iter().chain(scope.contains_key(keys::TOOLS_ALLOW).then_some(&keys::TOOLS_ALLOW)) {
            if scope.get(*key).is_some_and(|list| rename.list_needs_it(list)) {
                let mut at = path.clone();
                at.push(PathSeg::key(*key));
                found.push(at);
            }
        }
    }
    found
}

/// QQBot entries (the channel and its accounts; `accounts.default` inherits the channel's
/// `allowFrom`) without `execApprovals` whose `allowFrom` is empty or has `*` (`qqbot:*`).
fn qqbot_open_allow_from(root: &Value) -> Vec<Vec<PathSeg>> {
    let Some(qqbot) = root.get(keys::CHANNELS).and_then(|c| c.get(keys::QQBOT)).filter(|q| q.is_object()) else {
        return Vec::new();
    };
    let accounts = qqbot.get(keys::ACCOUNTS).and_then(Value::as_object).into_iter().flatten();
    let entries = std::iter::once((qqbot, None))
        .chain(accounts.filter(|(_, a)| a.is_object()).map(|(id, a)| (a, (id == "default").then_some(qqbot))));
    let open = |(entry, inherited): (&Value, Option<&Value>)| {
        if entry.get(keys::EXEC_APPROVALS).is_some() {
            return false;
        }
        let allow = if entry.get(keys::ALLOW_FROM).is_some() {
            entry.get(keys::ALLOW_FROM)
        } else {
            inherited.and_then(|i| i.get(keys::ALLOW_FROM))
        };
        let ids: Vec<String> = allow
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|item| match item {
                Value::String(s) => Some(s.trim().to_string()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .filter(|id| !id.is_empty())
            .collect();
        let wildcard = ids.iter().any(|id| {
            let lower = id.to_lowercase();
            lower.strip_prefix("qqbot:").unwrap_or(&lower) == "*"
        });
        ids.is_empty() || wildcard
    };
    if entries.into_iter().any(open) {
        vec![vec![PathSeg::key(keys::CHANNELS), PathSeg::key(keys::QQBOT)]]
    } else {
        Vec::new()
    }
}
