//! The config's `env` block: the variables a config puts into the gateway's environment, as
//! written (`env.vars.<NAME>` and `env.<NAME>`; `env.shellEnv` is a setting, not a variable).
//! Which of them a release exports is the loader's business ([`crate::config::env`]).

use serde_json::{Map, Value};

use crate::config::path::KeyPath;

const ENV: &str = "env";
const VARS: &str = "vars";
const SHELL_ENV: &str = "shellEnv";

/// One variable the block sets, as written.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvEntry<'a> {
    /// The key as written (not yet checked to be a variable name).
    pub name: &'a str,
    pub value: &'a Value,
    pub path: KeyPath,
}

/// The `env` block of a config (empty when absent or not an object).
#[derive(Debug, Clone, Copy)]
pub struct EnvBlock<'a> {
    block: Option<&'a Map<String, Value>>,
}

impl<'a> EnvBlock<'a> {
    pub fn of(config: &'a Value) -> Self {
        EnvBlock { block: config.get(ENV).and_then(Value::as_object) }
    }

    /// `env.vars.<NAME>` entries, in order (any JSON value).
    pub fn vars(&self) -> impl Iterator<Item = EnvEntry<'a>> + 'a {
        let vars = self.block.and_then(|b| b.get(VARS)).and_then(Value::as_object);
        let base = KeyPath::keys(&[ENV, VARS]);
        vars.into_iter().flatten().map(move |(name, value)| EnvEntry { name, value, path: base.key(name) })
    }

    /// `env.<NAME>` entries besides `vars` and `shellEnv`, in order (any JSON value).
    pub fn direct(&self) -> impl Iterator<Item = EnvEntry<'a>> + 'a {
        let base = KeyPath::keys(&[ENV]);
        self.block
            .into_iter()
            .flatten()
            .filter(|(name, _)| *name != VARS && *name != SHELL_ENV)
            .map(move |(name, value)| EnvEntry { name, value, path: base.key(name) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn vars_and_direct_entries_with_their_paths() {
        let config = json!({"env": {"vars": {"A": "1", "B": 2}, "C": "3", "shellEnv": {"enabled": true}}});
        let block = EnvBlock::of(&config);
        let vars: Vec<_> = block.vars().map(|e| (e.name, e.path.to_string())).collect();
        assert_eq!(vars, [("A", "env.vars.A".to_string()), ("B", "env.vars.B".to_string())]);
        let direct: Vec<_> = block.direct().map(|e| (e.name, e.value.clone())).collect();
        assert_eq!(direct, [("C", json!("3"))]);
        assert_eq!(EnvBlock::of(&json!({"env": [1]})).vars().count(), 0);
        assert_eq!(EnvBlock::of(&json!({})).direct().count(), 0);
    }
}
