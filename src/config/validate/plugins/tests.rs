use serde_json::json;

use super::*;

/// `(path, message)` pairs, as the release prints them.
type Said = Vec<(String, String)>;

fn findings(config: Value, version: OpenClawVersion) -> (Said, Said) {
    let found = check(&config, version, &[]);
    let pairs = |list: &[Finding]| {
        list.iter().map(|f| (crate::config::path::dotted(&f.path), f.message.clone())).collect::<Vec<_>>()
    };
    (pairs(&found.issues), pairs(&found.warnings))
}

fn pair(path: &str, message: &str) -> (String, String) {
    (path.to_string(), message.to_string())
}

#[test]
fn without_a_plugins_key_nothing_is_checked() {
    for version in [OpenClawVersion::V2026_2, OpenClawVersion::V2026_9] {
        assert_eq!(findings(json!({}), version), (vec![], vec![]));
        assert_eq!(findings(json!({"plugins": {}}), version), (vec![], vec![]));
    }
}

#[test]
fn unknown_ids_refuse_2026_2_and_warn_2026_9() {
    let config = json!({"plugins": {"entries": {"github-copilot": {}}, "allow": [" ", "nope"], "deny": ["gone"]}});
    let (issues, warnings) = findings(config.clone(), OpenClawVersion::V2026_2);
    assert_eq!(
        issues,
        [
            pair("plugins.entries.github-copilot", "plugin not found: github-copilot"),
            pair("plugins.allow", "plugin not found: nope"),
            pair("plugins.deny", "plugin not found: gone"),
        ]
    );
    assert!(warnings.is_empty());
    let (issues, warnings) = findings(config, OpenClawVersion::V2026_9);
    let stale = "(stale config entry ignored; remove it from plugins config)";
    assert!(issues.is_empty());
    assert_eq!(
        warnings,
        [
            pair("plugins.allow", &format!("plugin not found: nope {stale}")),
            pair("plugins.deny", &format!("plugin not found: gone {stale}"))
        ]
    );
}

#[test]
fn removed_plugins_are_warnings_with_the_release_text() {
    let config = json!({"plugins": {"entries": {"google-antigravity-auth": {}, "skill-workshop": {}}}});
    let (issues, warnings) = findings(config.clone(), OpenClawVersion::V2026_2);
    assert_eq!(issues, [pair("plugins.entries.skill-workshop", "plugin not found: skill-workshop")]);
    assert_eq!(warnings.len(), 1);
    let (issues, warnings) = findings(config, OpenClawVersion::V2026_9);
    assert!(issues.is_empty());
    assert!(warnings[1].1.starts_with("plugin removed: skill-workshop (stale plugin config ignored; Skill Workshop"));
}

#[test]
fn install_hints_are_given_once_per_plugin_and_command_aliases_are_named() {
    let config = json!({"plugins": {"entries": {"discord": {}}, "allow": ["discord", "Dreaming"]}});
    let (_, warnings) = findings(config, OpenClawVersion::V2026_9);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].1.starts_with("plugin not installed: discord — "));
    assert!(
        warnings[1].1.starts_with("\"Dreaming\" is not a plugin — it is a command provided by the \"memory-core\"")
    );
}

#[test]
fn an_unknown_memory_slot_is_an_issue_except_for_an_installable_memory_plugin() {
    let (issues, _) = findings(json!({"plugins": {"slots": {"memory": "Memory-Core"}}}), OpenClawVersion::V2026_9);
    assert_eq!(issues, [pair("plugins.slots.memory", "plugin not found: Memory-Core")]);
    let (issues, warnings) =
        findings(json!({"plugins": {"slots": {"memory": "memory-lancedb"}}}), OpenClawVersion::V2026_9);
    assert!(issues.is_empty() && warnings[0].1.contains("gateway will run without persistent memory"));
}

#[test]
fn enabled_plugins_have_their_config_checked_and_disabled_ones_warn() {
    // 2026.2: the memory slot selects memory-lancedb, whose schema requires `embedding`.
    let (issues, _) = findings(json!({"plugins": {"slots": {"memory": "memory-lancedb"}}}), OpenClawVersion::V2026_2);
    assert_eq!(
        issues,
        [pair(
            "plugins.entries.memory-lancedb.config",
            "invalid config: <root>: must have required property 'embedding'"
        )]
    );
    let (issues, warnings) =
        findings(json!({"plugins": {"entries": {"voice-call": {"config": {"x": 1}}}}}), OpenClawVersion::V2026_2);
    assert_eq!(
        issues,
        [pair("plugins.entries.voice-call.config", "invalid config: <root>: must NOT have additional properties")]
    );
    assert_eq!(
        warnings,
        [pair("plugins.entries.voice-call", "plugin disabled (bundled (disabled by default)) but config is present")]
    );
    let config =
        json!({"plugins": {"entries": {"llm-task": {"enabled": true, "config": {"maxTokens": 0, "bogus": 1}}}}});
    let (mut issues, _) = findings(config, OpenClawVersion::V2026_9);
    issues.sort();
    assert_eq!(
        issues,
        [
            pair("plugins.entries.llm-task.config", "invalid config: must not have additional properties: \"bogus\""),
            pair("plugins.entries.llm-task.config.maxTokens", "invalid config: must be >= 1"),
        ]
    );
}

#[test]
fn activation_follows_each_release() {
    let disabled = |config: Value, version| findings(config, version).1.into_iter().map(|(_, m)| m).collect::<Vec<_>>();
    // 2026.9: a channel switched on passes the allowlist; switched off disables the plugin.
    let on = json!({"channels": {"telegram": {"enabled": true}}, "plugins": {"allow": ["browser"], "entries": {"telegram": {"config": {}}}}});
    assert!(disabled(on, OpenClawVersion::V2026_9).is_empty());
    let off =
        json!({"channels": {"telegram": {"enabled": false}}, "plugins": {"entries": {"telegram": {"config": {}}}}});
    assert_eq!(
        disabled(off, OpenClawVersion::V2026_9),
        ["plugin disabled (channel disabled in config) but config is present"]
    );
    // Web search providers are quiet under an allowlist (2026.9); others are not.
    let quiet =
        json!({"plugins": {"allow": ["browser"], "entries": {"xai": {"config": {}}, "canvas": {"config": {}}}}});
    assert_eq!(disabled(quiet, OpenClawVersion::V2026_9), ["plugin disabled (not in allowlist) but config is present"]);
    // 2026.2: the allowlist comes before the memory slot.
    let slot = json!({"plugins": {"allow": ["discord"], "entries": {"memory-core": {"config": {}}}}});
    assert_eq!(disabled(slot, OpenClawVersion::V2026_2), ["plugin disabled (not in allowlist) but config is present"]);
    let none =
        json!({"plugins": {"slots": {"memory": "none"}, "entries": {"memory-core": {"enabled": true, "config": {}}}}});
    assert_eq!(
        disabled(none, OpenClawVersion::V2026_2),
        ["plugin disabled (memory slot disabled) but config is present"]
    );
}

#[test]
fn a_missing_codex_entry_is_quiet_unless_a_model_route_needs_it() {
    let warned = |config: Value| !findings(config, OpenClawVersion::V2026_9).1.is_empty();
    assert!(warned(json!({"plugins": {"entries": {"codex": {"config": {}}}}})));
    assert!(!warned(
        json!({"agents": {"defaults": {"model": "anthropic/claude"}}, "plugins": {"entries": {"codex": {"config": {}}}}})
    ));
    assert!(warned(
        json!({"agents": {"defaults": {"model": "anthropic/claude"}}, "plugins": {"entries": {"codex": {"enabled": true}}}})
    ));
    assert!(!warned(json!({"plugins": {"entries": {"codex": {"enabled": false, "config": {}}}}})));
    assert!(!warned(json!({"plugins": {"entries": {"codex": {"config": {"sessionCatalog": {"enabled": false}}}}}})));
}

#[test]
fn findings_point_at_what_is_written() {
    let config =
        json!({"plugins": {"allow": ["browser", "nope"], "entries": {"Memory-Core": {"config": {"bogus": 1}}}}});
    let found = check(&config, OpenClawVersion::V2026_9, &[]);
    assert_eq!(crate::config::path::dotted(&found.warnings[0].at), "plugins.entries.Memory-Core");
    assert_eq!(crate::config::path::dotted(&found.warnings[1].at), "plugins.allow.1");
    let issue = &found.issues[0];
    assert_eq!(crate::config::path::dotted(&issue.path), "plugins.entries.memory-core.config");
    assert_eq!(crate::config::path::dotted(&issue.at), "plugins.entries.Memory-Core.config.bogus");
}
