//! Plugins installed under the state directory (`<state>/extensions/<folder>`), as `openclaw
//! security audit` checks them: installed plugins without a `plugins.allow` list, plugin tools
//! that a permissive tool policy lets through, and `plugins.allow` entries that name no plugin.
//! Only when the config linted is the install's own (`install.rs`).
//!
//! The audit counts the folders, not the plugins in them (a folder without a manifest counts);
//! the folders it skips and the chat channels whose native skill commands make a missing allowlist
//! critical are release data (`lint.json` → `installedPlugins`). Plugin ids in the index besides
//! the bundled ones are read from each folder's manifest (`policy::manifest`).

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use super::audit::{ToolContext, audit_rule, critical_if};
use super::install::install_state_dir;
use crate::base::js::js_trim;
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::config::view::plugins::PluginsSection;
use crate::lint::{Emitter, LintContext, Rule};
use crate::release::lint::NativeSkillChannel;

pub const RULES: &[Rule] = &[
    audit_rule!(Install, "CP915", "extensions-without-allowlist", Security, "plugins.extensions_no_allowlist",
        extensions_without_allowlist,
        summary: "Plugins are installed under `<state>/extensions` but `plugins.allow` is not set; critical when a \
                  configured chat channel exposes native skill commands. Only when linting the install's own config.",
        why: "Without an allowlist any discovered plugin id may load, and plugins run with the gateway's rights.",
        example: "// <state>/extensions/demo/ installed, and no plugins.allow\nplugins: { entries: { demo: {} } }",
        fix: "Set `plugins.allow` to the plugin ids you trust.",
    ),
    audit_rule!(Install, "CP916", "plugin-tools-permissive-policy", Security, "plugins.tools_reachable_permissive_policy",
        plugin_tools_permissive,
        summary: "An enabled installed plugin's tools are reachable: a tool policy context (the defaults or an agent) \
                  lets any tool through, or names `group:plugins` or the plugin without a restrictive profile. Only \
                  when linting the install's own config.",
        why: "Plugin tools run third-party code; agents that handle untrusted input should not reach them by default.",
        example: "// <state>/extensions/demo/ installed\ntools: { profile: \"full\" }",
        fix: "Use a restrictive profile (`minimal`, `coding`) or an explicit allowlist without plugin tools.",
    ),
    audit_rule!(Install, "CP917", "plugin-allow-phantom", Security, "plugins.allow_phantom_entries",
        phantom_allow_entries,
        summary: "A `plugins.allow` entry names no installed or bundled plugin (while plugins are installed under \
                  `<state>/extensions`). Only when linting the install's own config.",
        why: "A later plugin that takes the allowlisted id is trusted without review.",
        example: "// <state>/extensions/demo/ installed\nplugins: { allow: [\"demo\", \"ghost\"] }",
        fix: "Remove the entry, or install the plugin it is meant for.",
    ),
];

/// The plugin folders under `<state>/extensions` the audit counts (`listInstalledPluginDirs`):
/// directories (not links to them), by name, without the ones the release skips.
fn plugin_folders(ctx: &LintContext<'_>, state_dir: &Path) -> Vec<String> {
    let extensions = state_dir.join("extensions");
    if !extensions.is_dir() {
        return Vec::new();
    }
    let skipped = &ctx.version.lint().installed_plugins;
    let Ok(entries) = std::fs::read_dir(&extensions) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.is_empty() && !skipped.skips(name))
        .collect();
    names.sort();
    names
}

/// The install's plugin folders, when the config linted is the install's own and it has any.
fn installed(ctx: &LintContext<'_>) -> Option<(std::path::PathBuf, Vec<String>)> {
    let state_dir = install_state_dir(ctx)?;
    let folders = plugin_folders(ctx, &state_dir);
    (!folders.is_empty()).then_some((state_dir, folders))
}

fn lowered(id: &str) -> String {
    js_trim(id).to_lowercase()
}

fn extensions_without_allowlist(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some((state_dir, folders)) = installed(ctx) else { return };
    let allow = KeyPath::keys(&[keys::PLUGINS, "allow"]);
    if allow.lookup(ctx.config()).and_then(Value::as_array).is_some_and(|a| !a.is_empty()) {
        return;
    }
    let exposed =
        ctx.version.lint().installed_plugins.native_skill_channels.iter().find(|c| skill_commands_exposed(ctx, c));
    let mut message = format!(
        "{} plugin folder(s) under {} ({}) and no plugins.allow: any discovered plugin id may load",
        folders.len(),
        state_dir.join("extensions").display(),
        folders.join(", ")
    );
    if let Some(channel) = exposed {
        message.push_str(&format!("; {} exposes native skill commands", channel.channel));
    }
    out.report(&allow, message)
        .severity(critical_if(exposed.is_some()))
        .help("set plugins.allow to the plugin ids you trust");
}

/// Whether `channel` is configured with a token and its native skill commands are on (its own
/// `commands.nativeSkills`, else the global one, else the channel's default).
fn skill_commands_exposed(ctx: &LintContext<'_>, channel: &NativeSkillChannel) -> bool {
    let section = ctx.get(&[keys::CHANNELS, &channel.channel]);
    let switched_off = |object: Option<&Value>| {
        channel.off_when_disabled && object.and_then(|o| o.get("enabled")) == Some(&Value::Bool(false))
    };
    if switched_off(section) {
        return false;
    }
    let has_token = |object: Option<&Value>| {
        !switched_off(object)
            && channel.token_keys.iter().any(|key| {
                object.and_then(|o| o.get(key)).and_then(Value::as_str).is_some_and(|t| !js_trim(t).is_empty())
            })
    };
    let accounts = section.and_then(|s| s.get("accounts")).and_then(Value::as_object);
    let env = ctx.loaded.effective_env();
    let env_counts = section.is_some() || !channel.env_needs_section;
    let configured = has_token(section)
        || accounts.is_some_and(|a| a.values().any(|account| has_token(Some(account))))
        || (env_counts && channel.env_vars.iter().any(|var| env.get(var).is_some_and(|v| !js_trim(v).is_empty())));
    if !configured {
        return false;
    }
    let own = section.and_then(|s| s.get("commands")).and_then(|c| c.get("nativeSkills"));
    let global = ctx.get(&["commands", "nativeSkills"]);
    match own.or(global) {
        Some(Value::Bool(on)) => *on,
        _ => channel.native_skills_by_default,
    }
}

/// The installed plugins the config lets load (`resolveEnabledExtensionPluginIds`).
fn enabled_plugins(ctx: &LintContext<'_>, folders: &[String]) -> Vec<String> {
    let section = PluginsSection::of(ctx.config());
    if section.enabled().is_some_and(|e| e.value == &Value::Bool(false)) {
        return Vec::new();
    }
    let rules = ctx.version.plugins();
    let normalized = |ids: Vec<String>| -> BTreeSet<String> {
        ids.iter().map(|id| rules.normalize_id(id).to_lowercase()).filter(|id| !id.is_empty()).collect()
    };
    let (allow, deny) = (normalized(section.allow()), normalized(section.deny()));
    // The last entry of a normalized id is the one the release keeps.
    let switched_off = |id: &str| {
        section
            .entries_for(id, |key| rules.normalize_id(key).to_lowercase())
            .last()
            .is_some_and(|e| e.enabled() == Some(false))
    };
    folders
        .iter()
        .map(|folder| lowered(folder))
        .filter(|id| !id.is_empty() && !deny.contains(id) && (allow.is_empty() || allow.contains(id)))
        .filter(|id| !switched_off(id))
        .collect()
}

/// `allow` and `alsoAllow` of a tool policy object, trimmed and lower-cased.
fn allow_entries(tools: Option<&Value>) -> Vec<String> {
    ["allow", "alsoAllow"]
        .iter()
        .filter_map(|key| tools?.get(*key)?.as_array())
        .flatten()
        .filter_map(Value::as_str)
        .map(lowered)
        .filter(|e| !e.is_empty())
        .collect()
}

/// Whether a tool policy object, or one of its `byProvider` policies, names `group:plugins` or an
/// enabled plugin.
fn names_plugins(tools: Option<&Value>, plugins: &[String]) -> bool {
    let names = |entries: Vec<String>| entries.iter().any(|e| e == "group:plugins" || plugins.contains(e));
    names(allow_entries(tools))
        || tools
            .and_then(|t| t.get("byProvider"))
            .and_then(Value::as_object)
            .is_some_and(|providers| providers.values().any(|policy| names(allow_entries(Some(policy)))))
}

/// The allow list of the context's profile, when it resolves to a policy of its own
/// (`resolveToolProfilePolicy`: a restrictive profile).
fn profile_policy<'p>(ctx: &LintContext<'p>, context: &ToolContext) -> Option<&'p [String]> {
    let profile = context
        .agent_tools
        .as_ref()
        .and_then(|t| t.get("profile"))
        .or_else(|| ctx.get(&[keys::TOOLS, "profile"]))
        .and_then(Value::as_str)?;
    ctx.pack.profile_allow(profile)
}

/// A tool name no tool has: a policy that lets it through lets every plugin tool through.
const PROBE: &str = "__openclaw_plugin_probe__";

fn plugin_tools_permissive(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some((_, folders)) = installed(ctx) else { return };
    let plugins = enabled_plugins(ctx, &folders);
    if plugins.is_empty() {
        return;
    }
    let global = ctx.get(&[keys::TOOLS]);
    for context in ctx.tool_contexts() {
        let profile = profile_policy(ctx, context);
        // The audit checks the profile's own list apart from `alsoAllow`, which the runtime (and
        // the resolver's profile step) adds to it.
        let broad = context.allows(PROBE) && profile.is_none_or(|allow| allow.iter().any(|a| a == "*"));
        let named = profile.is_none()
            && (names_plugins(global, &plugins) || names_plugins(context.agent_tools.as_ref(), &plugins));
        if !broad && !named {
            continue;
        }
        let why = if broad { "lets every tool through" } else { "names plugin tools without a restrictive profile" };
        out.report(
            &context.path,
            format!("the tool policy of {} {why}: the tools of {} are reachable", context.label, plugins.join(", ")),
        )
        .help("use a restrictive profile (minimal, coding) or an allowlist without plugin tools");
    }
}

/// The plugin ids of the release's index: the bundled plugins and those installed with a manifest.
fn indexed_plugins(ctx: &LintContext<'_>, state_dir: &Path, folders: &[String]) -> BTreeSet<String> {
    let mut ids: BTreeSet<String> = ctx.version.plugins().plugins.iter().map(|p| p.id.to_lowercase()).collect();
    for folder in folders {
        let manifest = state_dir.join("extensions").join(folder).join(crate::policy::manifest::MANIFEST);
        if let Some(id) = crate::policy::manifest::manifest_id(&manifest) {
            ids.insert(id.to_lowercase());
        }
    }
    ids
}

fn phantom_allow_entries(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let Some((state_dir, folders)) = installed(ctx) else { return };
    let allow = KeyPath::keys(&[keys::PLUGINS, "allow"]);
    let Some(entries) = allow.lookup(ctx.config()).and_then(Value::as_array).filter(|a| !a.is_empty()) else {
        return;
    };
    let installed: BTreeSet<String> = folders.iter().map(|f| f.to_lowercase()).collect();
    let indexed = indexed_plugins(ctx, &state_dir, &folders);
    let rules = ctx.version.plugins();
    for (i, entry) in entries.iter().enumerate() {
        let Some(entry) = entry.as_str().filter(|e| *e != "group:plugins") else { continue };
        let lower = entry.to_lowercase();
        if installed.contains(&lower) || indexed.contains(&lower) {
            continue;
        }
        let canonical = rules.normalize_id(entry).to_lowercase();
        if !canonical.is_empty() && indexed.contains(&canonical) {
            continue;
        }
        out.report(&allow.index(i), format!("plugins.allow names `{entry}`, which is no installed or bundled plugin"))
            .help("remove the entry, or install the plugin it is meant for");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plugin_tool_lists_are_read_from_allow_also_allow_and_by_provider() {
        let plugins = vec!["demo".to_string()];
        assert!(names_plugins(Some(&json!({"alsoAllow": [" Demo "]})), &plugins));
        assert!(names_plugins(Some(&json!({"byProvider": {"openai": {"allow": ["group:plugins"]}}})), &plugins));
        assert!(!names_plugins(Some(&json!({"allow": ["exec"], "deny": ["demo"]})), &plugins));
        assert!(!names_plugins(None, &plugins));
    }
}
