//! Policies as OpenClaw builds them from config blocks, with the origin of every entry kept.

use std::sync::Arc;

use serde::Serialize;

use crate::base::js::js_trim;
use crate::config::path::KeyPath;
use crate::config::view::tools::{ListKind, ToolsScope};

/// Where a policy entry came from. The descriptions are shared: every entry of a built-in list
/// carries the same one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Source {
    /// A value written in the config (the path points at the list element or scalar).
    Config { path: KeyPath },
    /// A built-in list of the release (profile contents, sandbox defaults, owner-only list…).
    Builtin { what: Arc<str> },
    /// A value given on the command line or in a batch case.
    Context { what: Arc<str> },
}

impl Source {
    pub fn config(path: KeyPath) -> Self {
        Source::Config { path }
    }

    pub fn builtin(what: impl Into<Arc<str>>) -> Self {
        Source::Builtin { what: what.into() }
    }

    pub fn config_path(&self) -> Option<&KeyPath> {
        match self {
            Source::Config { path } => Some(path),
            _ => None,
        }
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Config { path } => write!(f, "{path}"),
            Source::Builtin { what } => write!(f, "built-in {what}"),
            Source::Context { what } => write!(f, "{what}"),
        }
    }
}

/// One allow or deny entry as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub pattern: String,
    pub source: Source,
}

impl Entry {
    /// The `*` an alsoAllow-only scope gets, which plugin loading reads as "include default
    /// plugin tools" rather than "every plugin tool".
    pub fn is_implicit_star(&self) -> bool {
        self.pattern == "*" && matches!(&self.source, Source::Builtin { what } if &**what == IMPLICIT_STAR)
    }
}

/// A runtime policy `{allow?, deny?}`. `allow: None` and `allow: Some([])` both allow everything.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Policy {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow: Option<Vec<Entry>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deny: Option<Vec<Entry>>,
}

impl Policy {
    pub fn is_empty(&self) -> bool {
        self.allow.is_none() && self.deny.is_none()
    }

    pub fn allow_patterns(&self) -> impl Iterator<Item = &str> {
        self.allow.iter().flatten().map(|e| e.pattern.as_str())
    }

    pub fn deny_patterns(&self) -> impl Iterator<Item = &str> {
        self.deny.iter().flatten().map(|e| e.pattern.as_str())
    }
}

/// The entries of a config list (its string elements, each with its element's path).
pub fn entries(items: Vec<(KeyPath, &str)>) -> Vec<Entry> {
    items
        .into_iter()
        .map(|(path, pattern)| Entry { pattern: pattern.to_string(), source: Source::config(path) })
        .collect()
}

/// The raw `{allow, alsoAllow, deny}` lists of one config scope.
#[derive(Debug, Clone, Default)]
pub struct ScopeLists {
    pub allow: Option<Vec<Entry>>,
    pub also_allow: Option<Vec<Entry>>,
    pub deny: Option<Vec<Entry>>,
}

impl ScopeLists {
    /// Reads `allow`, `alsoAllow` and `deny` of a tool-policy block (missing block = nothing).
    pub fn read(scope: Option<&ToolsScope<'_>>) -> Self {
        let list = |kind| scope.and_then(|s| s.list(kind)).map(entries);
        ScopeLists { allow: list(ListKind::Allow), also_allow: list(ListKind::AlsoAllow), deny: list(ListKind::Deny) }
    }

    /// OpenClaw's config-block → runtime policy conversion (`pickSandboxToolPolicy`), used for
    /// the global, provider, agent, group and sender scopes.
    pub fn to_policy(&self) -> Option<Policy> {
        let also = self.also_allow.as_deref().unwrap_or_default();
        // Only an alsoAllow without any allow array (and without its own `*`) gets the *implicit*
        // star, which plugin loading reads as "default plugin tools"; `allow: []` + alsoAllow gets
        // a real `*`, which selects every plugin tool, optional ones included.
        let names_star = also.iter().any(|e| js_trim(&e.pattern) == "*");
        let allow = match &self.allow {
            Some(allow) if also.is_empty() => Some(allow.clone()),
            Some(allow) if allow.is_empty() => Some(star_then(also, StarKind::EmptyAllowExtended)),
            Some(allow) => Some(unique_entries(allow.iter().chain(also))),
            None if names_star => Some(star_then(also, StarKind::AlsoAllowNamesStar)),
            None if !also.is_empty() => Some(star_then(also, StarKind::Implicit)),
            None => None,
        };
        let policy = Policy { allow, deny: self.deny.clone() };
        (!policy.is_empty()).then_some(policy)
    }
}

/// Why `pickSandboxToolPolicy` put a `*` in front of an alsoAllow list.
#[derive(Clone, Copy)]
enum StarKind {
    /// alsoAllow alone: marked as implicit (2026.9 `IMPLICIT_ALLOW_ALL_FROM_ALSO_ALLOW`).
    Implicit,
    /// `allow: []` widened by alsoAllow: an ordinary `*`.
    EmptyAllowExtended,
    /// alsoAllow alone, but it names `*` itself: an ordinary `*`.
    AlsoAllowNamesStar,
}

/// The text that marks the implicit star (see [`Entry::is_implicit_star`]).
const IMPLICIT_STAR: &str = "implicit \"*\" added because only alsoAllow is set";

/// `["*", ...extras]`, the allow-all that alsoAllow produces outside profile steps.
fn star_then(extras: &[Entry], kind: StarKind) -> Vec<Entry> {
    let what = match kind {
        StarKind::Implicit => IMPLICIT_STAR,
        StarKind::EmptyAllowExtended => "\"*\" added because alsoAllow extends an empty allow",
        StarKind::AlsoAllowNamesStar => "\"*\" added because alsoAllow names \"*\"",
    };
    let star = Entry { pattern: "*".into(), source: Source::builtin(what) };
    unique_entries(std::iter::once(&star).chain(extras))
}

/// De-duplicates by pattern text, keeping the first occurrence.
pub fn unique_entries<'a>(entries: impl Iterator<Item = &'a Entry>) -> Vec<Entry> {
    let mut seen = std::collections::HashSet::new();
    entries.filter(|e| seen.insert(e.pattern.clone())).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::view::located::Located;
    use serde_json::{Value, json};

    fn scope(value: &Value) -> ToolsScope<'_> {
        ToolsScope(Located::new(KeyPath::keys(&["tools"]), value))
    }

    fn patterns(policy: &Option<Policy>) -> (Option<Vec<String>>, Option<Vec<String>>) {
        let p = policy.as_ref().unwrap();
        let names = |l: &Option<Vec<Entry>>| l.as_ref().map(|v| v.iter().map(|e| e.pattern.clone()).collect());
        (names(&p.allow), names(&p.deny))
    }

    #[test]
    fn also_allow_conversion_matches_openclaw() {
        let read = |v: Value| ScopeLists::read(Some(&scope(&v))).to_policy();
        assert_eq!(read(json!({})), None);
        assert_eq!(patterns(&read(json!({"alsoAllow": ["browser"]}))).0.unwrap(), ["*", "browser"]);
        assert_eq!(patterns(&read(json!({"allow": [], "alsoAllow": ["x"]}))).0.unwrap(), ["*", "x"]);
        assert_eq!(patterns(&read(json!({"allow": ["a"], "alsoAllow": ["b", "a"]}))).0.unwrap(), ["a", "b"]);
        assert_eq!(patterns(&read(json!({"allow": []}))).0.unwrap(), Vec::<String>::new());
        assert_eq!(patterns(&read(json!({"deny": ["exec"]}))), (None, Some(vec!["exec".to_string()])));
    }

    #[test]
    fn only_an_also_allow_alone_gets_the_implicit_star() {
        let star = |v: Value| {
            let policy = ScopeLists::read(Some(&scope(&v))).to_policy().unwrap();
            policy.allow.unwrap().iter().find(|e| e.pattern == "*").map(Entry::is_implicit_star)
        };
        assert_eq!(star(json!({"alsoAllow": ["read"]})), Some(true));
        assert_eq!(star(json!({"allow": [], "alsoAllow": ["read"]})), Some(false));
        assert_eq!(star(json!({"alsoAllow": [" * ", "read"]})), Some(false));
        assert_eq!(star(json!({"allow": ["read"], "alsoAllow": ["exec"]})), None);
    }

    #[test]
    fn entries_remember_their_element_path() {
        let v = json!({"deny": ["read", 5, "exec"]});
        let lists = ScopeLists::read(Some(&scope(&v)));
        let deny = lists.deny.unwrap();
        assert_eq!(deny[1].pattern, "exec");
        assert_eq!(deny[1].source.config_path().unwrap().to_string(), "tools.deny[2]");
    }
}
