//! A config value together with the key path it was read from: what every view hands out, so a
//! caller can point at the key itself (file, line and column come from the path).

use serde_json::{Map, Value};

use crate::config::path::KeyPath;

/// A value read from the config and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<'a> {
    pub path: KeyPath,
    pub value: &'a Value,
}

impl<'a> Located<'a> {
    pub fn new(path: KeyPath, value: &'a Value) -> Self {
        Located { path, value }
    }

    /// The value at `path` under the config root, if every key on the way exists.
    pub fn lookup(root: &'a Value, path: KeyPath) -> Option<Self> {
        path.lookup(root).map(|value| Located { path, value })
    }

    /// The value at a dotted path of keys the release's data names (`memory.search.enabled`).
    pub fn lookup_dotted(root: &'a Value, dotted: &str) -> Option<Self> {
        Located::lookup(root, KeyPath::keys(&dotted.split('.').collect::<Vec<_>>()))
    }

    /// A member of this object, whatever its type; `None` when absent or when this is no object.
    pub fn member(&self, key: &str) -> Option<Located<'a>> {
        self.value.get(key).map(|value| Located { path: self.path.key(key), value })
    }

    /// A member several keys down (`at(&["web", "search", "enabled"])`).
    pub fn at(&self, keys: &[&str]) -> Option<Located<'a>> {
        keys.iter().try_fold(self.clone(), |located, key| located.member(key))
    }

    /// The value at a dotted path below this one.
    pub fn at_dotted(&self, dotted: &str) -> Option<Located<'a>> {
        self.at(&dotted.split('.').collect::<Vec<_>>())
    }

    pub fn as_str(&self) -> Option<&'a str> {
        self.value.as_str()
    }

    pub fn as_bool(&self) -> Option<bool> {
        self.value.as_bool()
    }

    pub fn as_object(&self) -> Option<&'a Map<String, Value>> {
        self.value.as_object()
    }

    /// JavaScript's `value === false`: how the release reads a switch that is on unless turned off.
    pub fn is_false(&self) -> bool {
        self.value == &Value::Bool(false)
    }

    /// The members of an object, each with its path (none when this is no object).
    pub fn members(&self) -> impl Iterator<Item = (&'a String, Located<'a>)> + '_ {
        let members = self.value.as_object().into_iter().flatten();
        members.map(|(key, value)| (key, Located { path: self.path.key(key), value }))
    }

    /// The string elements of a list, each with the path of its element; `None` when this is no
    /// list. Other elements are skipped: the release normalizes them to nothing.
    pub fn string_items(&self) -> Option<Vec<(KeyPath, &'a str)>> {
        let items = self.value.as_array()?;
        Some(items.iter().enumerate().filter_map(|(i, item)| Some((self.path.index(i), item.as_str()?))).collect())
    }
}

/// Whether the setting in force is `false` (unset counts as on).
pub fn switched_off(setting: Option<&Located<'_>>) -> bool {
    setting.is_some_and(Located::is_false)
}

/// The strings of a list setting, without their paths (nothing when it is no list).
pub fn strings(setting: Option<&Located<'_>>) -> Vec<String> {
    let items = setting.and_then(Located::string_items).unwrap_or_default();
    items.into_iter().map(|(_, item)| item.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_and_items_keep_their_paths() {
        let config = json!({"tools": {"deny": ["read", 5, "exec"], "web": {"search": {"enabled": false}}}});
        let tools = Located::lookup(&config, KeyPath::keys(&["tools"])).unwrap();
        let items = tools.member("deny").unwrap().string_items().unwrap();
        assert_eq!(items[1].0.to_string(), "tools.deny[2]");
        assert_eq!(items[1].1, "exec");
        let switch = tools.at(&["web", "search", "enabled"]).unwrap();
        assert_eq!(switch.path.to_string(), "tools.web.search.enabled");
        assert!(switched_off(Some(&switch)));
        assert_eq!(Located::lookup_dotted(&config, "tools.web.search.enabled"), Some(switch));
        assert!(tools.member("missing").is_none() && tools.member("deny").unwrap().member("x").is_none());
        assert_eq!(strings(tools.member("deny").as_ref()), ["read", "exec"]);
    }
}
