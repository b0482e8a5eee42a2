//! A model selector as the config writes it: `"provider/model"` or `{primary, fallbacks}`, read
//! the same wherever an agent or the defaults name a model.

use serde_json::Value;

use super::located::Located;

/// A model setting: a `"provider/model"` string or `{primary, fallbacks}`.
#[derive(Debug, Clone)]
pub struct ModelSetting<'a>(pub Located<'a>);

impl<'a> ModelSetting<'a> {
    /// The primary model: the string itself, or `primary` when that is a string.
    pub fn primary(&self) -> Option<&'a str> {
        match self.0.value {
            Value::String(model) => Some(model),
            Value::Object(model) => model.get("primary").and_then(Value::as_str),
            _ => None,
        }
    }

    /// `fallbacks`, when it is a list (of anything).
    pub fn fallbacks(&self) -> Option<&'a [Value]> {
        self.0.value.get("fallbacks").and_then(Value::as_array).map(Vec::as_slice)
    }

    /// Whether the setting names a model: a non-blank primary, or a non-blank string among
    /// the fallbacks (how 2026.9's tool factories decide a model is configured).
    pub fn names_a_model(&self) -> bool {
        let fallbacks = self.fallbacks().into_iter().flatten();
        self.primary().is_some_and(|p| !p.trim().is_empty())
            || (self.0.value.is_object() && fallbacks.filter_map(Value::as_str).any(|f| !f.trim().is_empty()))
    }

    /// The model references it holds: the string, or `primary` and the string `fallbacks`.
    pub(super) fn refs(&self, refs: &mut Vec<String>) {
        refs.extend(self.primary().map(str::to_string));
        if self.0.value.is_object() {
            refs.extend(self.fallbacks().into_iter().flatten().filter_map(Value::as_str).map(str::to_string));
        }
    }
}
