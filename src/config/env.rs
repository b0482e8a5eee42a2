//! The config `env` block (spec §6) and `${VAR}` substitution (spec §5), ported from both
//! releases' `env-substitution.ts` and `config-env-vars.ts`.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::path::PathSeg;
use super::source::Origin;
use super::tree::{Node, NodeKind};
use super::view::env::EnvBlock;
use crate::OpenClawVersion;
use crate::release::loader::{EnvRules, EnvVarValues};

/// A `${VAR}` whose variable is unset or empty.
#[derive(Debug, Clone, PartialEq)]
pub struct MissingEnvVar {
    pub name: String,
    /// Where the reference is in the resolved config.
    pub path: Vec<PathSeg>,
    pub origin: Option<Arc<Origin>>,
}

/// Copies the config's `env` block into `env` for variables not already set to a non-blank value,
/// before substitution so `${VAR}` can use them: `env.vars.*` entries the release exports
/// ([`EnvVarValues`]) and non-blank strings directly under `env`, under portable names, less what
/// the release refuses ([`EnvRules`]).
pub fn export_env_block(config: &Value, env: &mut HashMap<String, String>, version: OpenClawVersion) {
    let rules = &version.loader().env;
    let block = EnvBlock::of(config);
    let vars = block.vars().filter_map(|entry| Some((entry.name, var_value(entry.value, rules.var_values)?)));
    let direct = block
        .direct()
        .filter_map(|entry| Some((entry.name, entry.value.as_str().filter(|s| !s.trim().is_empty())?.to_string())));
    let entries: Vec<(String, String)> = vars
        .chain(direct)
        .filter_map(|(key, value)| Some((portable_key(key)?, value)))
        .filter(|(key, value)| !is_refused(rules, key, value))
        .collect();
    for (key, value) in entries {
        if env.get(&key).is_none_or(|current| current.trim().is_empty()) {
            env.insert(key, value);
        }
    }
}

/// The text an `env.vars` entry exports: a non-empty string as it is (a blank one only where the
/// release takes any truthy value), and where it does, `true` and non-zero numbers stringified.
fn var_value(value: &Value, exported: EnvVarValues) -> Option<String> {
    match (value, exported) {
        (Value::String(s), EnvVarValues::NonBlankStrings) if s.trim().is_empty() => None,
        (Value::String(s), _) if s.is_empty() => None,
        (Value::String(s), _) => Some(s.clone()),
        (Value::Bool(true), EnvVarValues::Truthy) => Some("true".to_string()),
        (Value::Number(n), EnvVarValues::Truthy) if n.as_f64() != Some(0.0) => Some(n.to_string()),
        _ => None,
    }
}

/// Trimmed key if it is a portable variable name (`^[A-Za-z_][A-Za-z0-9_]*$`).
fn portable_key(key: &str) -> Option<String> {
    let key = key.trim();
    let mut chars = key.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then(|| key.to_string())
}

/// A blocked name, or a value with a `${VAR}` reference where the release refuses those.
fn is_refused(rules: &EnvRules, key: &str, value: &str) -> bool {
    rules.blocked_names.contains(&key.to_uppercase()) || (rules.refuse_references && contains_env_reference(value))
}

/// Replaces `${VAR}` in every string value (keys untouched), left to right, single pass.
/// Missing variables are kept as literal `${VAR}` and returned in order.
pub fn substitute(node: &mut Node, env: &HashMap<String, String>) -> Vec<MissingEnvVar> {
    let mut missing = Vec::new();
    substitute_in(node, env, &mut Vec::new(), &mut missing);
    missing
}

fn substitute_in(
    node: &mut Node,
    env: &HashMap<String, String>,
    path: &mut Vec<PathSeg>,
    missing: &mut Vec<MissingEnvVar>,
) {
    match &mut node.kind {
        NodeKind::String(s) => {
            let (text, names) = substitute_string(s, env);
            *s = text;
            missing.extend(names.into_iter().map(|name| MissingEnvVar {
                name,
                path: path.clone(),
                origin: node.origin.clone(),
            }));
        }
        NodeKind::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                path.push(PathSeg::Index(index));
                substitute_in(item, env, path, missing);
                path.pop();
            }
        }
        NodeKind::Object(map) => {
            for (key, value) in map.iter_mut() {
                path.push(PathSeg::Key(key.clone()));
                substitute_in(value, env, path, missing);
                path.pop();
            }
        }
        _ => {}
    }
}

enum Token {
    /// `$${NAME}` → literal `${NAME}`.
    Escaped { name: String, end: usize },
    /// `${NAME}` → the variable's value.
    Reference { name: String, end: usize },
}

/// The token starting at `chars[i] == '$'`, if any. OpenClaw's pattern is `[A-Z_][A-Z0-9_]*`
/// closed by the *first* `}`: a name is read only as far as name characters go, so that every
/// character is looked at a bounded number of times (a `"${"` repeated 50,000 times is linear).
fn token_at(chars: &[char], i: usize) -> Option<Token> {
    let name_until_brace = |start: usize| {
        let is_name_char = |c: &char| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_';
        let length = chars.get(start..)?.iter().take_while(|c| is_name_char(c)).count();
        let end = start + length;
        let valid = length > 0 && !chars[start].is_ascii_digit() && chars.get(end) == Some(&'}');
        valid.then(|| (chars[start..end].iter().collect::<String>(), end))
    };
    if chars.get(i + 1) == Some(&'$')
        && chars.get(i + 2) == Some(&'{')
        && let Some((name, end)) = name_until_brace(i + 3)
    {
        return Some(Token::Escaped { name, end });
    }
    if chars.get(i + 1) == Some(&'{') {
        return name_until_brace(i + 2).map(|(name, end)| Token::Reference { name, end });
    }
    None
}

/// The substituted text and the names that had no value (kept literally).
fn substitute_string(value: &str, env: &HashMap<String, String>) -> (String, Vec<String>) {
    if !value.contains('$') {
        return (value.to_string(), Vec::new());
    }
    let chars: Vec<char> = value.chars().collect();
    let mut out = String::with_capacity(value.len());
    let mut missing = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match (chars[i], token_at(&chars, i)) {
            ('$', Some(Token::Escaped { name, end })) => {
                out.push_str(&format!("${{{name}}}"));
                i = end;
            }
            ('$', Some(Token::Reference { name, end })) => {
                match env.get(&name).filter(|v| !v.is_empty()) {
                    Some(v) => out.push_str(v),
                    None => {
                        out.push_str(&format!("${{{name}}}"));
                        missing.push(name);
                    }
                }
                i = end;
            }
            (c, _) => out.push(c),
        }
        i += 1;
    }
    (out, missing)
}

/// Whether `value` holds a `${VAR}` that substitution would replace (escapes don't count).
pub fn contains_env_reference(value: &str) -> bool {
    let chars: Vec<char> = value.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '$' {
            match token_at(&chars, i) {
                Some(Token::Reference { .. }) => return true,
                Some(Token::Escaped { end, .. }) => i = end,
                None => {}
            }
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn sub(s: &str, vars: &[(&str, &str)]) -> (String, Vec<String>) {
        substitute_string(s, &env(vars))
    }

    #[test]
    fn grammar() {
        let vars = [("A", "x"), ("B_2", "y"), ("EMPTY", "")];
        assert_eq!(sub("${A}/v1 Bearer ${B_2}", &vars).0, "x/v1 Bearer y");
        assert_eq!(sub("$${A}", &vars).0, "${A}");
        assert_eq!(sub("$${lower}", &vars).0, "$${lower}");
        for literal in ["${lower}", "${env:A}", "${A:-d}", "$A", "${}", "${A", "$5", "${ A}"] {
            assert_eq!(sub(literal, &vars), (literal.to_string(), vec![]), "{literal}");
        }
        assert_eq!(sub("${A}${A}", &vars).0, "xx");
        // The first `}` closes: `${A}}` is `x}`.
        assert_eq!(sub("${A}}", &vars).0, "x}");
        assert_eq!(
            sub("a ${EMPTY} ${NOPE}", &vars),
            ("a ${EMPTY} ${NOPE}".to_string(), vec!["EMPTY".to_string(), "NOPE".to_string()])
        );
        // Substituted text is not re-scanned.
        assert_eq!(substitute_string("${A}", &env(&[("A", "${B}"), ("B", "no")])).0, "${B}");
    }

    #[test]
    fn substitution_walks_strings_only_and_reports_paths() {
        let mut node = Node::from_value(&json!({"k${A}": "${A}", "list": [1, "${MISSING}"], "n": 5}));
        let missing = substitute(&mut node, &env(&[("A", "a")]));
        assert_eq!(node.to_value(), json!({"k${A}": "a", "list": [1, "${MISSING}"], "n": 5}));
        assert_eq!(missing.len(), 1);
        assert_eq!(missing[0].path, vec![PathSeg::key("list"), PathSeg::Index(1)]);
    }

    #[test]
    fn env_block_fills_only_unset_variables() {
        let root = json!({"env": {"vars": {"A": "cfg", "B": "cfg", "bad-name": "x", "N": 5}, "C": "direct", "shellEnv": {"enabled": true}, "D": "  "}});
        let mut vars = env(&[("A", "proc"), ("B", " ")]);
        export_env_block(&root, &mut vars, OpenClawVersion::V2026_9);
        assert_eq!(vars, env(&[("A", "proc"), ("B", "cfg"), ("C", "direct")]));
        let mut vars = HashMap::new();
        export_env_block(&root, &mut vars, OpenClawVersion::V2026_2);
        assert_eq!(vars.get("N").map(String::as_str), Some("5"));
    }

    #[test]
    fn self_reference_differs_per_version() {
        // 2026.2 exports the literal `${X}`, so `${X}` elsewhere resolves to that text; 2026.9 refuses it.
        let root = json!({"env": {"X": "${X}"}, "OPENCLAW_INCLUDE_ROOTS": 1});
        let mut v2 = HashMap::new();
        export_env_block(&root, &mut v2, OpenClawVersion::V2026_2);
        assert_eq!(v2.get("X").map(String::as_str), Some("${X}"));
        let mut v9 = HashMap::new();
        export_env_block(&root, &mut v9, OpenClawVersion::V2026_9);
        assert!(v9.is_empty());
        let blocked = json!({"env": {"vars": {"OPENCLAW_INCLUDE_ROOTS": "/x"}}});
        export_env_block(&blocked, &mut v9, OpenClawVersion::V2026_9);
        assert!(v9.is_empty());
    }

    #[test]
    fn scanning_is_linear_in_the_length_of_the_string() {
        let hostile = "${".repeat(50_000) + &"$${".repeat(50_000) + "${A";
        let started = std::time::Instant::now();
        assert_eq!(sub(&hostile, &[("A", "x")]), (hostile.clone(), vec![]));
        assert!(!contains_env_reference(&hostile));
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
        // Still the first `}` that closes a name.
        assert_eq!(sub("${A${A}}", &[("A", "x")]).0, "${Ax}");
    }

    #[test]
    fn env_reference_detection() {
        assert!(contains_env_reference("a ${B}"));
        assert!(!contains_env_reference("$${B} ${lower}"));
    }
}
