//! What a release's plugin validation reads (`data/<release>/plugins.json`, written from the
//! installed package by `data/extract-plugins.mjs`): the plugin manifest registry it builds from
//! its bundled extensions, in its order, and the id lists and texts its checks use. Which checks
//! run, and how, is named by [`PluginValidation`]; `src/config/validate/plugins.rs` implements
//! the variants.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;

use crate::base::js::js_trim;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginRules {
    pub release: String,
    pub about: String,
    pub validation: PluginValidation,
    /// The manifest registry, in the release's order (bundled plugins only: offline, nothing is
    /// installed in the state directory).
    pub plugins: Vec<PluginRecord>,
    /// The plugin the memory slot selects when the config names none.
    pub default_memory_slot: String,
    /// Retired and renamed plugin ids its `normalizePluginId` maps (2026.9).
    pub plugin_id_aliases: BTreeMap<String, String>,
    /// Ids of removed plugins: naming one is a warning, not an error.
    pub retired_plugin_ids: Vec<String>,
    /// The warning for a removed plugin (`{id}` as written).
    pub removed_plugin_warning: String,
    /// Removed plugins with a warning of their own, by exact id.
    pub removed_plugin_warnings: BTreeMap<String, String>,
    /// Official external plugins by every id they are looked up by, with their install spec.
    pub official_external_plugins: BTreeMap<String, String>,
    /// The install hint for a missing official external plugin (`{id}`, `{spec}`); `null` where
    /// the release gives none.
    pub missing_official_plugin_warning: Option<String>,
    /// Plugins a memory slot may name before they are installed: the slot is then a warning with
    /// this text, not an error.
    pub memory_slot_plugin_warnings: BTreeMap<String, String>,
    /// Plugins whose entry holding only `config.sessionCatalog.enabled: false` is a privacy
    /// preference, not a request for the plugin.
    pub native_session_catalog_plugin_ids: Vec<String>,
    /// Missing plugins that are only reported when an agent's model route needs them (or their
    /// entry says `enabled: true`), by id.
    pub routed_plugin_suppression: BTreeMap<String, RoutedPlugin>,
}

/// A plugin only an agent's model route through `provider` needs.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RoutedPlugin {
    pub provider: String,
    /// The provider of an agent without a model.
    pub default_provider: String,
}

/// The variants of the release's plugin validation.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginValidation {
    pub unknown_ids: UnknownIds,
    pub id_normalization: IdNormalization,
    pub activation: Activation,
    pub schema_errors: SchemaErrors,
    /// `channels.<id>` of a plugin that is not installed is a warning when the plugin config
    /// still names it.
    pub stale_channel_plugin_config: bool,
    /// What a `plugins.load.paths` entry that does not exist does.
    pub unavailable_load_path: UnavailableLoadPath,
}

/// A `plugins.load.paths` entry that does not exist, as the release's validation treats it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UnavailableLoadPath {
    pub effect: LoadPathEffect,
    /// The or the warnings' text; `{path}` is the resolved path.
    pub message: String,
}

/// What the release does with a config whose plugin load path is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LoadPathEffect {
    /// The registry's `plugin path not found` is an issue at `plugins.load.paths` (2026.2 to 2026.8).
    Refuse,
    /// The plugin configuration it cannot inspect is preserved: no channel config, no plugin entry
    /// is checked, and each `channels.<id>` and `plugins.load.paths` gets the warning (2026.9).
    Preserve,
}

/// What naming a plugin that is not in the registry does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum UnknownIds {
    /// Every unknown id in `entries`, `allow`, `deny` and the memory slot is an error
    /// (`plugin not found: <id>`), a removed plugin's a warning (2026.2).
    Refuse,
    /// Stale entries are warnings (install hints for official external plugins, command aliases
    /// in `allow`, intentional disable markers are quiet); only an unknown memory slot is an error
    /// (2026.9).
    WarnStale,
}

/// How plugin ids in the config are compared with the registry's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum IdNormalization {
    /// Trimmed, as written (2026.2).
    Exact,
    /// Trimmed, lower-cased and through [`PluginRules::plugin_id_aliases`] (2026.9).
    LowercaseAliases,
}

/// How the release decides whether a plugin is enabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Activation {
    /// `resolveEffectiveEnableState` (2026.2): off switch, deny, allow, memory slot, entry,
    /// default enablement, then a built-in chat channel's `enabled: true`.
    EnableState,
    /// `resolveEffectivePluginActivationState` (2026.9): explicit selections (entry, channel,
    /// memory and context-engine slots) and channel switches, before the allowlist.
    ActivationDecision,
}

/// How plugin config schema errors are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SchemaErrors {
    /// ajv (draft 7): at `plugins.entries.<id>.config`, the instance path in the message.
    Ajv,
    /// TypeBox (draft 2020-12): the instance path appended to the issue path.
    Typebox,
}

/// One plugin of the registry, with what validation reads of its manifest.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginRecord {
    pub id: String,
    /// Where it was found (`bundled`).
    pub origin: String,
    /// Its kinds (`memory`, `context-engine`).
    pub kind: Vec<String>,
    pub enabled_by_default: bool,
    pub enabled_by_default_on_platforms: Vec<String>,
    /// The `channels.<id>` whose `enabled` switch turns the plugin on or off.
    pub enablement_channels: Vec<String>,
    /// Command names the plugin provides (`plugins.allow` naming one gets a hint).
    pub command_aliases: Vec<String>,
    /// It provides web search (2026.9 keeps quiet about its config when an allowlist leaves it out).
    pub web_search_providers: bool,
    /// The tools its manifest declares (`contracts.tools`).
    pub tools: Vec<String>,
    /// The tool profiles its manifest puts tools in (`toolMetadata[tool].profiles`, as the release
    /// normalizes them). A run attempt's plugin metadata carries every manifest, so in a run's
    /// own attempt (`--turn`) these apply to the profile steps whether the plugin is on or not
    /// (see `policy::steps`).
    pub tool_profiles: BTreeMap<String, Vec<String>>,
    /// Tools the manifest makes available only on a configured credential or setting
    /// (`toolMetadata[tool]` signals); not simulated, so never counted as declared.
    pub credential_gated_tools: Vec<String>,
    /// `openclaw`, or `bundle` for a plugin without a config schema of its own.
    pub format: String,
    /// The JSON Schema of `plugins.entries.<id>.config` (annotations removed), as the build keeps
    /// it apart ([`SplitPlugins`]): parsed by [`PluginRecord::config_schema`] the first time a
    /// config's entry for the plugin needs it. Building every plugin's schema as a value was a
    /// sixth of a small command's instructions.
    #[serde(skip)]
    config_schema_text: Option<&'static str>,
    #[serde(skip)]
    config_schema: OnceLock<Value>,
}

/// The platform the simulated gateway runs on, as the oracles do.
pub const GATEWAY_PLATFORM: &str = "linux";

impl PluginRecord {
    pub fn is_bundled(&self) -> bool {
        self.origin == "bundled"
    }

    pub fn has_kind(&self, kind: &str) -> bool {
        self.kind.iter().any(|k| k == kind)
    }

    /// The JSON Schema of `plugins.entries.<id>.config`, if the manifest has one.
    pub fn config_schema(&self) -> Option<&Value> {
        let text = self.config_schema_text?;
        Some(self.config_schema.get_or_init(|| {
            serde_json::from_str(text).unwrap_or_else(|e| panic!("bundled schema of plugin {}: {e}", self.id))
        }))
    }

    /// Enabled without any setting (`isPluginEnabledByDefaultForPlatform`).
    pub fn enabled_by_default_here(&self) -> bool {
        self.enabled_by_default || self.enabled_by_default_on_platforms.iter().any(|p| p == GATEWAY_PLATFORM)
    }
}

/// `plugins.json` as the build splits it (`build/plugin_schemas.rs`): the file without the
/// plugins' config schemas, and each plugin's schema (offsets into `text`) by its position.
pub struct SplitPlugins {
    pub rest: &'static str,
    pub text: &'static str,
    pub schemas: &'static [Option<[u32; 2]>],
}

impl PluginRules {
    /// The release's plugin rules from the build's split of its file, each record given its
    /// schema's text.
    pub fn parse(split: &'static SplitPlugins) -> Self {
        let mut rules: PluginRules = super::parse(split.rest, "plugins");
        for (plugin, schema) in rules.plugins.iter_mut().zip(split.schemas) {
            plugin.config_schema_text = schema.map(|at| super::text_at(split.text, at));
        }
        rules
    }

    /// The bundled tools whose plugin's manifest puts them in `profile`, with their plugin ids,
    /// in registry order.
    pub fn bundled_profile_members<'a>(&'a self, profile: &'a str) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        self.plugins.iter().filter(|p| p.is_bundled()).flat_map(move |plugin| {
            plugin
                .tools
                .iter()
                .filter(move |tool| plugin.tool_profiles.get(*tool).is_some_and(|ps| ps.iter().any(|p| p == profile)))
                .map(move |tool| (plugin.id.as_str(), tool.as_str()))
        })
    }

    /// A config's plugin id as the release compares it (empty: no id).
    pub fn normalize_id(&self, id: &str) -> String {
        let trimmed = js_trim(id);
        match self.validation.id_normalization {
            IdNormalization::Exact => trimmed.to_string(),
            IdNormalization::LowercaseAliases => {
                let lowered = trimmed.to_lowercase();
                self.plugin_id_aliases.get(&lowered).cloned().unwrap_or(lowered)
            }
        }
    }

    /// The registry entry with exactly this id.
    pub fn plugin(&self, id: &str) -> Option<&PluginRecord> {
        self.plugins.iter().find(|p| p.id == id)
    }

    /// Whether `id` (as written) names a removed plugin: compared as written (2026.2), or
    /// normalized (2026.9).
    pub fn is_retired(&self, id: &str) -> bool {
        let id = match self.validation.id_normalization {
            IdNormalization::Exact => id.to_string(),
            IdNormalization::LowercaseAliases => self.normalize_id(id),
        };
        self.retired_plugin_ids.contains(&id)
    }

    /// The warning for naming the removed plugin `id` (as written).
    pub fn removed_warning(&self, id: &str) -> String {
        self.removed_plugin_warnings.get(id).cloned().unwrap_or_else(|| self.removed_plugin_warning.replace("{id}", id))
    }

    /// The install hint for `id` (as written) when it is an official external plugin.
    pub fn install_warning(&self, id: &str) -> Option<String> {
        let spec = self.official_external_plugins.get(js_trim(id))?;
        let template = self.missing_official_plugin_warning.as_ref()?;
        Some(template.replace("{spec}", spec).replace("{id}", id))
    }

    /// The plugin that provides the command `name`, unless `name` is itself a plugin id of
    /// another plugin (`resolveManifestCommandAliasOwnerInRegistry`).
    pub fn command_owner(&self, name: &str) -> Option<&PluginRecord> {
        let command = js_trim(name).to_lowercase();
        if command.is_empty() {
            return None;
        }
        let is_plugin_id = self.plugins.iter().any(|p| p.id.to_lowercase() == command);
        self.plugins.iter().find(|p| {
            p.command_aliases.iter().any(|a| a.to_lowercase() == command)
                && (!is_plugin_id || p.id.to_lowercase() == command)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::release::registry::RELEASES;

    /// 2026.9 fills schema defaults before it validates plugin config; clawpolicy does not,
    /// which gives the same verdicts only while no default can satisfy or break a check. Guard
    /// that for the shipped schemas: a defaulted property is never required (anywhere in its
    /// schema, conditionals included) and sits in no object with a property count limit.
    #[test]
    fn plugin_schema_defaults_change_no_verdict() {
        fn walk(node: &Value, defaulted: &mut Vec<String>, required: &mut Vec<String>, counted: &mut bool) {
            match node {
                Value::Array(items) => items.iter().for_each(|n| walk(n, defaulted, required, counted)),
                Value::Object(map) => {
                    let props = map.get("properties").and_then(Value::as_object);
                    let has_defaults = props.is_some_and(|p| p.values().any(|v| v.get("default").is_some()));
                    if has_defaults && (map.contains_key("minProperties") || map.contains_key("maxProperties")) {
                        *counted = true;
                    }
                    for (name, prop) in props.into_iter().flatten() {
                        if prop.get("default").is_some() {
                            defaulted.push(name.clone());
                        }
                    }
                    if let Some(list) = map.get("required").and_then(Value::as_array) {
                        required.extend(list.iter().filter_map(Value::as_str).map(str::to_string));
                    }
                    for (key, value) in map {
                        if !matches!(key.as_str(), "default" | "const" | "enum") {
                            walk(value, defaulted, required, counted);
                        }
                    }
                }
                _ => {}
            }
        }
        for release in &RELEASES {
            for plugin in &release.plugins().plugins {
                let (mut defaulted, mut required, mut counted) = (Vec::new(), Vec::new(), false);
                walk(plugin.config_schema().unwrap_or(&Value::Null), &mut defaulted, &mut required, &mut counted);
                let clash: Vec<&String> = defaulted.iter().filter(|d| required.contains(d)).collect();
                assert!(clash.is_empty() && !counted, "{} {}: defaults {clash:?} matter", release.id, plugin.id);
            }
        }
    }

    #[test]
    fn bundled_manifests_put_tools_in_profiles() {
        let members = |v: crate::OpenClawVersion, profile: &str| -> Vec<(String, String)> {
            let rules = v.data().plugins();
            rules.bundled_profile_members(profile).map(|(p, t)| (p.to_string(), t.to_string())).collect()
        };
        let pair = |p: &str, t: &str| (p.to_string(), t.to_string());
        let v = crate::OpenClawVersion::V2026_9;
        assert_eq!(members(v, "coding"), [pair("crabbox", "crabbox"), pair("memory-core", "intent")]);
        assert_eq!(members(v, "messaging"), [pair("memory-core", "intent")]);
        assert!(members(v, "minimal").is_empty() && members(v, "full").is_empty());
        assert!(members(crate::OpenClawVersion::V2026_5, "coding").is_empty());
    }

    #[test]
    fn command_aliases_resolve_to_the_plugin_that_provides_them() {
        let rules = crate::OpenClawVersion::V2026_9.data().plugins();
        assert_eq!(rules.command_owner(" DREAMING ").map(|p| p.id.as_str()), Some("memory-core"));
        assert_eq!(rules.command_owner("browser").map(|p| p.id.as_str()), Some("browser"));
        assert!(rules.command_owner("nope").is_none());
    }
}
