//! The release's validation of `plugins.*` (2026.2 `validateConfigObjectWithPluginsBase`, 2026.9
//! `validateExplicitPluginConfig`), run when the config has a `plugins` key and the schema and
//! the hand-written rules accept it:
//!
//! 1. every id in `plugins.entries`, `allow`, `deny` and the memory slot must be a plugin of the
//!    registry (`data/<release>/plugins.json`); what an unknown one is depends on the release
//!    ([`UnknownIds`]): a removed plugin is a warning in both;
//! 2. every plugin that is enabled (its activation: global switch, deny and allow lists, entry,
//!    channel switches, slots, default enablement; [`Activation`]) or whose entry has `config` has
//!    that config checked against its manifest's schema ([`plugin_schema`]);
//! 3. a disabled plugin with config is a warning (2026.9 keeps quiet for some).
//!
//! Issues and warnings carry the release's paths and texts; each also says where in the config it
//! is written (`at`), which can differ from the release's path (an item of `plugins.allow`, a key
//! spelled in another case, a key inside the plugin's config). Plugins in `plugins.load.paths`
//! folders are known by their manifests' ids; a load path that does not exist is refused (2026.2
//! to 2026.8) or makes 2026.9 preserve what it cannot inspect ([`preserved`]); other installed
//! plugins (none offline), deferred plugin migrations (none in a fresh state directory) and
//! blocked plugin paths are not simulated.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::plugin_schema::{self, ConfigPlace, Finding};
use crate::OpenClawVersion;
use crate::base::js::{js_trim, js_truthy};
use crate::config::path::PathSeg;
use crate::config::view::agents::{AgentDefaults, roster};
use crate::config::view::keys;
use crate::config::view::models::{ModelSetting, configured_model_refs};
use crate::release::plugins::{
    Activation, IdNormalization, LoadPathEffect, PluginRecord, PluginRules, RoutedPlugin, UnknownIds,
};

/// What the plugin stage says: issues refuse the config, warnings do not.
#[derive(Debug, Default)]
pub(super) struct Findings {
    pub issues: Vec<Finding>,
    pub warnings: Vec<Finding>,
}

fn path(keys: &[&str]) -> Vec<PathSeg> {
    keys.iter().map(|k| PathSeg::key(*k)).collect()
}

fn child(base: &[PathSeg], seg: PathSeg) -> Vec<PathSeg> {
    let mut path = base.to_vec();
    path.push(seg);
    path
}

/// The memory slot as `normalizeSlotValue` leaves it: a plugin id, or off (`"none"`).
#[derive(Debug, Clone, PartialEq)]
enum Slot {
    Off,
    Plugin(String),
}

impl Slot {
    fn selects(&self, id: &str) -> bool {
        matches!(self, Slot::Plugin(selected) if selected == id)
    }
}

/// `plugins.slots.<key>` as written: a trimmed id, `Off` for `none`, `None` when unset or blank.
fn slot_value(value: Option<&Value>) -> Option<Slot> {
    let trimmed = js_trim(value?.as_str()?);
    match trimmed {
        "" => None,
        none if none.to_lowercase() == "none" => Some(Slot::Off),
        id => Some(Slot::Plugin(id.to_string())),
    }
}

/// `plugins.entries.<id>` after normalization: several keys of one id merge, later ones winning
/// where they set something.
#[derive(Debug, Default)]
struct Entry<'v> {
    enabled: Option<bool>,
    config: Option<&'v Value>,
    /// The key as written of the last entry of this id, and of the one `config` came from.
    key: &'v str,
    config_key: Option<&'v str>,
}

/// `normalizePluginsConfig`.
struct Settings<'v> {
    enabled: bool,
    allow: Vec<String>,
    deny: Vec<String>,
    memory: Slot,
    context_engine: Option<Slot>,
    entries: HashMap<String, Entry<'v>>,
}

impl<'v> Settings<'v> {
    fn of(plugins: &'v Map<String, Value>, rules: &PluginRules) -> Self {
        let list = |key: &str| -> Vec<String> {
            let items = plugins.get(key).and_then(Value::as_array).into_iter().flatten();
            items.filter_map(Value::as_str).map(|id| rules.normalize_id(id)).filter(|id| !id.is_empty()).collect()
        };
        let slots = plugins.get(keys::SLOTS);
        let mut entries: HashMap<String, Entry<'v>> = HashMap::new();
        for (key, value) in plugins.get(keys::ENTRIES).and_then(Value::as_object).into_iter().flatten() {
            let id = match rules.validation.id_normalization {
                IdNormalization::Exact if js_trim(key).is_empty() => continue,
                IdNormalization::Exact => key.clone(),
                IdNormalization::LowercaseAliases => rules.normalize_id(key),
            };
            if id.is_empty() {
                continue;
            }
            let Some(fields) = value.as_object() else {
                entries.insert(id, Entry { key, ..Entry::default() });
                continue;
            };
            let entry = entries.entry(id).or_default();
            entry.key = key;
            entry.enabled = fields.get(keys::ENABLED).and_then(Value::as_bool).or(entry.enabled);
            if let Some(config) = fields.get(keys::CONFIG) {
                entry.config = Some(config);
                entry.config_key = Some(key);
            }
        }
        Settings {
            enabled: plugins.get(keys::ENABLED) != Some(&Value::Bool(false)),
            allow: list(keys::ALLOW),
            deny: list(keys::DENY),
            memory: slot_value(slots.and_then(|s| s.get(keys::MEMORY)))
                .unwrap_or_else(|| Slot::Plugin(rules.default_memory_slot.clone())),
            context_engine: slot_value(slots.and_then(|s| s.get(keys::CONTEXT_ENGINE))),
            entries,
        }
    }
}

/// A `plugins.load.paths` entry that does not exist on this machine: its index and the path as the
/// release resolves it (`resolveUserPath`: trimmed, `~` expanded, relative to the working
/// directory).
#[derive(Debug, Clone)]
pub(super) struct UnavailablePath {
    index: usize,
    resolved: String,
}

/// The `plugins.load.paths` entries that do not exist, in order. Blank entries resolve to the
/// working directory, which exists.
pub(super) fn unavailable_load_paths(
    config: &Value,
    env: &HashMap<String, String>,
    cwd: &std::path::Path,
) -> Vec<UnavailablePath> {
    let home = crate::config::discovery::home_dir(env, cwd);
    let load = config.get(keys::PLUGINS).and_then(|p| p.get("load")).and_then(|l| l.get("paths"));
    let entries = load.and_then(Value::as_array).into_iter().flatten().enumerate();
    entries
        .filter_map(|(index, entry)| Some((index, entry.as_str()?)))
        .map(|(index, raw)| (index, crate::config::discovery::resolve_user_path(raw, &home, cwd)))
        .filter(|(_, resolved)| !resolved.exists())
        .map(|(index, resolved)| UnavailablePath { index, resolved: resolved.display().to_string() })
        .collect()
}

/// Where a missing load path makes the release preserve what it cannot inspect (2026.9), the whole
/// plugin stage: a warning for each `channels.<id>` (none is checked) and one for
/// `plugins.load.paths`, with the first missing path. `None` where it does not.
pub(super) fn preserved(config: &Value, version: OpenClawVersion, unavailable: &[UnavailablePath]) -> Option<Findings> {
    let first = unavailable.first()?;
    let rule = &version.data().plugins().validation.unavailable_load_path;
    (rule.effect == LoadPathEffect::Preserve).then_some(())?;
    let message = rule.message.replace("{path}", &first.resolved);
    let mut findings = Findings::default();
    let channels = config.get(keys::CHANNELS).and_then(Value::as_object).into_iter().flatten();
    for key in channels.map(|(key, _)| key).filter(|key| !js_trim(key).is_empty()) {
        let at = path(&[keys::CHANNELS, key]);
        findings.warnings.push(Finding::new(path(&[keys::CHANNELS, js_trim(key)]), at, message.clone()));
    }
    let at = path(&[keys::PLUGINS, "load", "paths"]);
    findings.warnings.push(Finding::new(at.clone(), child(&at, PathSeg::Index(first.index)), message));
    Some(findings)
}

/// The plugin stage of `config` (its `plugins` section as loaded, after the release's load-time
/// migrations); nothing when the config has no `plugins` key. A release that refuses a missing
/// load path reports each first, as its registry does.
pub(super) fn check(config: &Value, version: OpenClawVersion, unavailable: &[UnavailablePath]) -> Findings {
    let mut findings = Findings::default();
    let Some(plugins) = config.get(keys::PLUGINS).and_then(Value::as_object) else {
        return findings;
    };
    let rules = version.data().plugins();
    if rules.validation.unavailable_load_path.effect == LoadPathEffect::Refuse {
        let at = path(&[keys::PLUGINS, "load", "paths"]);
        for missing in unavailable {
            let message = rules.validation.unavailable_load_path.message.replace("{path}", &missing.resolved);
            findings.issues.push(Finding::new(at.clone(), child(&at, PathSeg::Index(missing.index)), message));
        }
    }
    let settings = Settings::of(plugins, rules);
    let local = local_plugin_ids(config);
    let mut stage = Stage { version, rules, config, plugins, findings: &mut findings, hinted: HashSet::new(), local };
    stage.unknown_ids(&settings);
    stage.plugin_configs(&settings);
    findings
}

/// How one unknown id is reported (`pushMissingPluginIssue`'s options).
#[derive(Clone, Copy)]
struct Missing<'m> {
    /// A warning rather than an issue.
    warn_only: bool,
    /// An official external plugin gets its install hint.
    install_hint: bool,
    /// The text of a warning given instead of the install hint.
    message: Option<&'m str>,
}

struct Stage<'a, 'v> {
    version: OpenClawVersion,
    rules: &'static PluginRules,
    config: &'v Value,
    plugins: &'v Map<String, Value>,
    findings: &'a mut Findings,
    /// Plugins already given an install hint (one per plugin).
    hinted: HashSet<String>,
    /// The ids of the plugins in `plugins.load.paths` folders.
    local: HashSet<String>,
}

/// The ids the manifests (`openclaw.plugin.json`) of the `plugins.load.paths` folders declare:
/// a folder that holds a manifest, or else each of its sub-folders that does. Paths that are not
/// absolute, or that cannot be read, add nothing.
fn local_plugin_ids(config: &Value) -> HashSet<String> {
    let manifest_id = |dir: &std::path::Path| -> Option<String> {
        let text =
            crate::base::userfile::read_text(&dir.join("openclaw.plugin.json"), crate::base::userfile::MAX_INPUT_BYTES)
                .ok()?;
        let manifest: Value = crate::base::json::from_str(&text).ok()?;
        Some(js_trim(manifest.get("id")?.as_str()?).to_string()).filter(|id| !id.is_empty())
    };
    let mut ids = HashSet::new();
    let paths = crate::config::view::plugins::PluginsSection::of(config).load_paths();
    for dir in paths.iter().map(std::path::Path::new).filter(|p| p.is_absolute()) {
        match manifest_id(dir) {
            Some(id) => {
                ids.insert(id);
            }
            None => {
                let children = std::fs::read_dir(dir).into_iter().flatten().filter_map(Result::ok);
                ids.extend(children.filter_map(|child| manifest_id(&child.path())));
            }
        }
    }
    ids
}

impl<'v> Stage<'_, 'v> {
    fn known(&self, id: &str) -> bool {
        self.rules.plugin(id).is_some() || self.local.contains(js_trim(id))
    }

    fn stale(&self) -> bool {
        self.rules.validation.unknown_ids == UnknownIds::WarnStale
    }

    fn raw_entries(&self) -> Option<&'v Map<String, Value>> {
        self.plugins.get(keys::ENTRIES).and_then(Value::as_object)
    }

    fn warn(&mut self, path: Vec<PathSeg>, at: Vec<PathSeg>, message: String) {
        self.findings.warnings.push(Finding::new(path, at, message));
    }

    /// `plugins.entries.<key>` as written is exactly `{enabled: false}`: a decision, not an
    /// unknown plugin (2026.9).
    fn disable_marker(&self, key: &str) -> bool {
        let entry = self.raw_entries().and_then(|e| e.get(key)).and_then(Value::as_object);
        entry.is_some_and(|e| e.len() == 1 && e.get(keys::ENABLED) == Some(&Value::Bool(false)))
            && !self.rules.is_retired(key)
    }

    /// An entry holding only `config.sessionCatalog.enabled: false` for a plugin with a native
    /// session catalog: a privacy preference (2026.9).
    fn session_catalog_opt_out(&self, id: &str) -> bool {
        let Some(entry) = self.raw_entries().and_then(|e| e.get(id)).and_then(Value::as_object) else {
            return false;
        };
        let only = |map: &Map<String, Value>, key: &str| map.len() == 1 && map.contains_key(key);
        let config = entry.get(keys::CONFIG).and_then(Value::as_object);
        let catalog = config.and_then(|c| c.get(keys::SESSION_CATALOG)).and_then(Value::as_object);
        self.rules.native_session_catalog_plugin_ids.iter().any(|p| p == id)
            && only(entry, keys::CONFIG)
            && config.is_some_and(|c| only(c, keys::SESSION_CATALOG))
            && catalog.is_some_and(|c| only(c, keys::ENABLED) && c[keys::ENABLED] == Value::Bool(false))
    }

    fn unknown_ids(&mut self, settings: &Settings<'_>) {
        let stale = self.stale();
        let as_stale = Missing { warn_only: stale, install_hint: true, message: None };
        for key in self.raw_entries().into_iter().flat_map(Map::keys) {
            if self.known(key) || (stale && (self.disable_marker(key) || self.session_catalog_opt_out(key))) {
                continue;
            }
            let at = path(&[keys::PLUGINS, keys::ENTRIES, key]);
            self.missing(at.clone(), at, key, as_stale);
        }
        for (list, install_hint) in [(keys::ALLOW, true), (keys::DENY, false)] {
            let items = self.plugins.get(list).and_then(Value::as_array).into_iter().flatten().enumerate();
            for (index, id) in items.filter_map(|(i, item)| Some((i, item.as_str()?))) {
                if js_trim(id).is_empty() || self.known(id) {
                    continue;
                }
                let release_path = path(&[keys::PLUGINS, list]);
                let at = child(&release_path, PathSeg::Index(index));
                if list == keys::ALLOW && stale {
                    if let Some(owner) = self.rules.command_owner(id) {
                        let owner = &owner.id;
                        let message = format!(
                            "\"{id}\" is not a plugin — it is a command provided by the \"{owner}\" plugin. Use \"{owner}\" in plugins.allow instead."
                        );
                        self.warn(release_path, at, message);
                        continue;
                    }
                    if self.disable_marker(id) {
                        continue;
                    }
                }
                self.missing(release_path, at, id, Missing { install_hint, ..as_stale });
            }
        }
        // 2026.9 looks at an explicit slot only; 2026.2's default slot is always known.
        let written = self.plugins.get(keys::SLOTS).and_then(|s| s.get(keys::MEMORY));
        if let Slot::Plugin(slot) = &settings.memory
            && !self.known(slot)
            && (written.is_some() || !stale)
        {
            let at = path(&[keys::PLUGINS, keys::SLOTS, keys::MEMORY]);
            let pinned = self.rules.memory_slot_plugin_warnings.get(slot);
            let message = if stale { pinned.cloned().or_else(|| self.rules.install_warning(slot)) } else { None };
            let warn_only = stale && pinned.is_some();
            self.missing(at.clone(), at, slot, Missing { warn_only, install_hint: true, message: message.as_deref() });
        }
    }

    /// `pushMissingPluginIssue`.
    fn missing(&mut self, release_path: Vec<PathSeg>, at: Vec<PathSeg>, id: &str, how: Missing<'_>) {
        if self.rules.is_retired(id) {
            return self.warn(release_path, at, self.rules.removed_warning(id));
        }
        if self.routed_suppressed(id, &release_path) {
            return;
        }
        if how.warn_only && how.install_hint {
            let hint = how.message.map(str::to_string).or_else(|| self.rules.install_warning(id));
            if let Some(hint) = hint {
                // One install hint per plugin; a slot's own text is always given.
                if how.message.is_none() && !self.hinted.insert(self.rules.normalize_id(id)) {
                    return;
                }
                return self.warn(release_path, at, hint);
            }
        }
        if how.warn_only {
            let message = format!("plugin not found: {id} (stale config entry ignored; remove it from plugins config)");
            self.warn(release_path, at, message);
        } else {
            self.findings.issues.push(Finding::new(release_path, at, format!("plugin not found: {id}")));
        }
    }

    /// A missing entry for a plugin only an agent's model route needs, when no route needs it
    /// (2026.9's Codex rule): quiet unless its entry says `enabled: true`. The route is judged
    /// from the configured model references and the default provider of agents without a model
    /// (custom endpoints and runtime policies are not modelled).
    fn routed_suppressed(&self, id: &str, release_path: &[PathSeg]) -> bool {
        let normalized = self.rules.normalize_id(id);
        let Some(routed) = self.rules.routed_plugin_suppression.get(&normalized) else {
            return false;
        };
        if release_path != path(&[keys::PLUGINS, keys::ENTRIES, &normalized]).as_slice() {
            return false;
        }
        let entries = self.raw_entries().into_iter().flatten();
        let switch =
            entries.filter(|(key, _)| js_trim(key).to_lowercase() == normalized).map(|(_, e)| &e[keys::ENABLED]);
        match switch.into_iter().next() {
            Some(Value::Bool(enabled)) => !enabled,
            _ => !self.route_needs(routed),
        }
    }

    fn route_needs(&self, routed: &RoutedPlugin) -> bool {
        let provider_of = |model: &str| js_trim(model).split_once('/').map(|(p, _)| js_trim(p).to_lowercase());
        let refs = configured_model_refs(self.config, self.version);
        if refs.iter().any(|r| provider_of(r).as_deref() == Some(routed.provider.as_str())) {
            return true;
        }
        let primary = |setting: Option<ModelSetting<'_>>| {
            setting.and_then(|s| s.primary()).is_some_and(|p| !js_trim(p).is_empty())
        };
        let defaults = primary(AgentDefaults::of(self.config).model());
        let agents = roster(self.config, self.version);
        let own =
            |agent: &crate::config::view::agents::AgentEntry<'_>| primary(agent.member("model").map(ModelSetting));
        let unset = if agents.is_empty() { !defaults } else { agents.iter().any(|a| !own(a) && !defaults) };
        unset && routed.default_provider == routed.provider
    }

    /// Steps 2 and 3, plugin by plugin in registry order.
    fn plugin_configs(&mut self, settings: &Settings<'_>) {
        let compat_quiet = self.plugins.get(keys::ALLOW).and_then(Value::as_array).is_some_and(|a| !a.is_empty());
        let mut seen = HashSet::new();
        for plugin in &self.rules.plugins {
            if !seen.insert(plugin.id.as_str()) {
                continue;
            }
            let entry = settings.entries.get(&plugin.id);
            let config = entry.and_then(|e| e.config);
            let has_config = config.is_some_and(js_truthy);
            let state = match self.rules.validation.activation {
                Activation::EnableState => enable_state(plugin, settings, self.config),
                Activation::ActivationDecision => activation_decision(plugin, settings, self.config),
            }
            .and_then(|()| memory_decision(plugin, &settings.memory));
            // A plugin that is off and has no config has nothing to say (no paths are built).
            if state.is_err() && !has_config {
                continue;
            }
            let entry_path = path(&[keys::PLUGINS, keys::ENTRIES, &plugin.id]);
            let written = |key: &str| path(&[keys::PLUGINS, keys::ENTRIES, key]);
            let entry_at = entry.map_or_else(|| entry_path.clone(), |e| written(e.key));
            let empty = Value::Object(Map::new());
            let value = config.filter(|c| !c.is_null()).unwrap_or(&empty);
            let config_key = entry.and_then(|e| e.config_key);
            let config_at =
                config_key.map_or_else(|| entry_at.clone(), |key| child(&written(key), PathSeg::key(keys::CONFIG)));
            self.schema_issues(plugin, value, &entry_path, &config_at);
            // 2026.9 keeps quiet about a session-catalog preference and, under an allowlist, about
            // the config of bundled web search providers.
            let quiet = self.session_catalog_opt_out(&plugin.id)
                || (compat_quiet && plugin.is_bundled() && plugin.web_search_providers);
            if let Err(reason) = state
                && has_config
                && !quiet
            {
                self.warn(entry_path, entry_at, format!("plugin disabled ({reason}) but config is present"));
            }
        }
    }

    fn schema_issues(&mut self, plugin: &PluginRecord, value: &Value, entry_path: &[PathSeg], config_at: &[PathSeg]) {
        if plugin.config_schema().is_none() {
            if plugin.format != "bundle" {
                let message = format!("plugin schema missing for {}", plugin.id);
                self.findings.issues.push(Finding::new(entry_path.to_vec(), config_at.to_vec(), message));
            }
            return;
        }
        let config_path = child(entry_path, PathSeg::key(keys::CONFIG));
        let place = ConfigPlace { path: &config_path, at: config_at };
        self.findings.issues.extend(plugin_schema::check(self.version, plugin, value, &place));
    }
}

/// `resolveEffectiveEnableState` (2026.2).
fn enable_state(plugin: &PluginRecord, settings: &Settings<'_>, config: &Value) -> Result<(), String> {
    let id = plugin.id.as_str();
    let has = |list: &[String]| list.iter().any(|x| x == id);
    if !settings.enabled {
        return Err("plugins disabled".into());
    }
    if has(&settings.deny) {
        return Err("blocked by denylist".into());
    }
    if !settings.allow.is_empty() && !has(&settings.allow) {
        return Err("not in allowlist".into());
    }
    if settings.memory.selects(id) {
        return Ok(());
    }
    match settings.entries.get(id).and_then(|e| e.enabled) {
        Some(true) => return Ok(()),
        Some(false) => return Err("disabled in config".into()),
        None => {}
    }
    if !plugin.is_bundled() || plugin.enabled_by_default_here() || channel_switch(plugin, config) == Some(true) {
        return Ok(());
    }
    Err("bundled (disabled by default)".into())
}

/// What the `enabled` switches of the plugin's channels say: on when one is on, off when all
/// are off (2026.2 reads only `true`).
fn channel_switch(plugin: &PluginRecord, config: &Value) -> Option<bool> {
    let channels = config.get(keys::CHANNELS).filter(|c| js_truthy(c))?;
    let switches: Vec<Option<&Value>> = plugin
        .enablement_channels
        .iter()
        .map(|id| channels.get(id).filter(|c| c.is_object()).and_then(|c| c.get(keys::ENABLED)))
        .collect();
    if switches.iter().any(|s| *s == Some(&Value::Bool(true))) {
        return Some(true);
    }
    let all_off = !switches.is_empty() && switches.iter().all(|s| *s == Some(&Value::Bool(false)));
    all_off.then_some(false)
}

/// `resolveEffectivePluginActivationState` (2026.9) for a plugin of the registry.
fn activation_decision(plugin: &PluginRecord, settings: &Settings<'_>, config: &Value) -> Result<(), String> {
    let id = plugin.id.as_str();
    let policy_id = id.to_lowercase();
    let has = |list: &[String]| list.contains(&policy_id);
    let entry_switch = settings.entries.get(&policy_id).and_then(|e| e.enabled);
    let channel = if plugin.is_bundled() { channel_switch(plugin, config) } else { None };
    let in_slot = settings.memory.selects(id) || settings.context_engine.as_ref().is_some_and(|slot| slot.selects(id));
    if !settings.enabled {
        return Err("plugins disabled".into());
    }
    if has(&settings.deny) {
        return Err("blocked by denylist".into());
    }
    if entry_switch == Some(false) {
        return Err("disabled in config".into());
    }
    if channel == Some(false) {
        return Err("channel disabled in config".into());
    }
    // A slot, or a channel switched on (unless the entry itself enables it), passes the allowlist.
    if in_slot || (entry_switch != Some(true) && channel == Some(true)) {
        return Ok(());
    }
    if !settings.allow.is_empty() && !has(&settings.allow) {
        return Err("not in allowlist".into());
    }
    let explicit = entry_switch == Some(true) || (!plugin.is_bundled() && has(&settings.allow));
    if explicit || !plugin.is_bundled() || plugin.enabled_by_default_here() {
        return Ok(());
    }
    Err("bundled (disabled by default)".into())
}

/// `resolveMemorySlotDecision` for an enabled plugin: a memory plugin runs only in its slot.
fn memory_decision(plugin: &PluginRecord, slot: &Slot) -> Result<(), String> {
    // A plugin of several kinds keeps running for its other kinds.
    if !plugin.has_kind("memory") || plugin.kind.len() > 1 {
        return Ok(());
    }
    match slot {
        Slot::Off => Err("memory slot disabled".into()),
        Slot::Plugin(selected) if *selected == plugin.id => Ok(()),
        Slot::Plugin(selected) => Err(format!("memory slot set to \"{selected}\"")),
    }
}

#[cfg(test)]
mod tests;
