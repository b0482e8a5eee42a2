//! The path syntax of the release data's legacy-rule patterns. Also compiled into the build script
//! (`build/legacy_rules.rs`), which indexes the rules by their patterns' leading keys, so this
//! file uses nothing but `std`.

/// A pattern's path: where it starts, then its steps. Written as dot-separated keys, `*` (any
/// member of an object), `[]` (any element of an array), and, as first segment, `@agent` (each
/// agent entry: `agents.entries.*`, else `agents.list[]`) or `@scope` (`agents.defaults` and each
/// agent entry).
#[derive(Debug)]
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

impl PatternPath {
    pub fn parse(at: &str) -> Self {
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

    /// The keys the path names before its first wildcard: a config without them cannot match.
    pub fn leading_keys(&self) -> impl Iterator<Item = &str> {
        self.steps.iter().map_while(|step| match step {
            PatternStep::Key(key) => Some(key.as_str()),
            PatternStep::AnyMember | PatternStep::AnyElement => None,
        })
    }
}
