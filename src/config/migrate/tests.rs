//! Expected values and warnings are the real 2026.9.6 loader's (`readConfigFileSnapshot` on the
//! same configs, `sourceConfig` and `warnings`).

use serde_json::{Value, json};

use crate::OpenClawVersion;
use crate::config::test_support::options;
use crate::config::{LoadedConfig, PathSeg, ProblemKind, WarningKind, load, load_inline, validate};

const V9: OpenClawVersion = OpenClawVersion::V2026_9;
const V2: OpenClawVersion = OpenClawVersion::V2026_2;

fn loaded(config: Value, version: OpenClawVersion) -> LoadedConfig {
    load_inline(config, &options(version, &[("OPENCLAW_STATE_DIR", "/state")])).unwrap()
}

fn messages(cfg: &LoadedConfig) -> Vec<&str> {
    cfg.warnings().iter().map(|w| w.message.as_str()).collect()
}

fn issues(cfg: &LoadedConfig) -> Vec<String> {
    validate(cfg, cfg.version()).iter().map(ToString::to_string).collect()
}

#[test]
fn legacy_list_with_one_marker_materializes_ownership() {
    let cfg = loaded(
        json!({"agents": {"list": [{"id": "main"}, {"id": "work", "default": true, "tools": {"deny": ["exec"]}}]},
               "channels": {"telegram": {"enabled": true}, "discord": {"enabled": false}},
               "bindings": [{"agentId": "main", "match": {"channel": "slack", "accountId": "*"}}]}),
        V9,
    );
    assert_eq!(
        cfg.value(),
        &json!({
            "agents": {"entries": {"main": {}, "work": {"tools": {"deny": ["exec"]}}},
                       "defaults": {"heartbeat": {"agentId": "work"}, "systemAgent": {"agentId": "work"},
                                    "authInheritance": {"agentId": "work"}}},
            "channels": {"telegram": {"enabled": true}, "discord": {"enabled": false}},
            "bindings": [{"agentId": "main", "match": {"channel": "slack", "accountId": "*"}},
                         {"agentId": "work", "match": {"channel": "telegram", "accountId": "*"}}],
            "talk": {"agentId": "work"}
        })
    );
    assert_eq!(
        messages(&cfg),
        [
            "Moved agents.list to keyed agents.entries.",
            "Materialized legacy per-surface agent ownership.",
            "Removed retired agents.entries.*.default markers."
        ]
    );
    assert_eq!(cfg.legacy_owner(), Some("work"));
    assert!(issues(&cfg).is_empty(), "{:?}", issues(&cfg));
}

#[test]
fn existing_defaults_keep_their_place_and_values() {
    let cfg = loaded(
        json!({"agents": {"defaults": {"heartbeat": {"every": "30m"}, "systemAgent": {}, "authInheritance": {"agentId": "main"}},
                          "list": [{"id": "main"}, {"id": "work", "default": true}]},
               "talk": {"provider": "x"}, "session": {"store": "/tmp/sessions.json"}}),
        V9,
    );
    assert_eq!(
        cfg.value()["agents"],
        json!({"defaults": {"heartbeat": {"every": "30m"}, "systemAgent": {"agentId": "work"},
                            "authInheritance": {"agentId": "main"}, "sessionStore": {"agentId": "work"}},
               "entries": {"main": {}, "work": {}}})
    );
    assert_eq!(cfg.value()["talk"], json!({"provider": "x", "agentId": "work"}));
}

#[test]
fn lists_the_release_does_not_convert_stay_as_written() {
    for list in [
        json!([{"id": "Main"}, {"id": "work"}]),
        json!([{"id": "main"}, {"id": "main"}]),
        json!([{"id": "main"}, "x"]),
        json!([{"id": " main"}]),
        json!([{"name": "x"}]),
        json!([{"id": "main", "default": "yes"}, {"id": "work"}]),
        json!({"a": 1}),
    ] {
        let cfg = loaded(json!({"agents": {"list": list.clone()}}), V9);
        assert_eq!(cfg.value(), &json!({"agents": {"list": list}}));
        assert!(cfg.warnings().is_empty());
        let found = validate(&cfg, V9);
        let shown: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "agents: Unrecognized key: \"list\"",
                "agents.entries: agents.entries must contain at least one configured agent"
            ]
        );
        assert!(found.iter().all(|i| i.kind == ProblemKind::Doctor), "{found:?}");
    }
}

#[test]
fn implicit_main_and_empty_rosters() {
    assert_eq!(loaded(json!({}), V9).value(), &json!({"agents": {"entries": {"main": {}}}}));
    assert_eq!(
        loaded(json!({"agents": {"defaults": {"workspace": "/w"}}}), V9).value(),
        &json!({"agents": {"defaults": {"workspace": "/w"}, "entries": {"main": {}}}})
    );
    let empty_list = loaded(json!({"agents": {"list": []}}), V9);
    assert_eq!(empty_list.value(), &json!({"agents": {"entries": {"main": {}}}}));
    assert_eq!(messages(&empty_list), ["Moved agents.list to keyed agents.entries."]);
    let explicit = loaded(json!({"agents": {"ownership": "explicit", "list": []}}), V9);
    assert_eq!(explicit.value(), &json!({"agents": {"ownership": "explicit", "entries": {}}}));
    assert_eq!(issues(&explicit), ["agents.entries: agents.entries must contain at least one configured agent"]);
    assert_eq!(loaded(json!({"agents": null}), V9).value(), &json!({"agents": null}));
    // 2026.2 changes nothing.
    let list = json!({"agents": {"list": [{"id": "main", "default": true}, {"id": "work"}]}});
    assert_eq!(loaded(list.clone(), V2).value(), &list);
}

#[test]
fn multi_agent_list_without_marker_pins_the_first_workspace_and_is_refused() {
    let cfg = loaded(json!({"agents": {"list": [{"id": "main"}, {"id": "work"}]}}), V9);
    assert_eq!(cfg.value()["agents"]["entries"]["main"]["workspace"], "/state/workspace");
    assert_eq!(
        messages(&cfg),
        ["Moved agents.list to keyed agents.entries.", "Preserved the first legacy agent's existing workspace."]
    );
    let defaults = loaded(
        json!({"agents": {"defaults": {"workspace": " /srv/ws "}, "list": [{"id": "main"}, {"id": "work"}]}}),
        V9,
    );
    assert_eq!(defaults.value()["agents"]["entries"]["main"]["workspace"], "/srv/ws");
    assert_eq!(
        issues(&cfg),
        [
            "agents.ownership: multi-agent rosters require agents.ownership=\"explicit\" or one legacy default=true marker; add agents.ownership=\"explicit\" or run openclaw doctor"
        ]
    );
}

#[test]
fn single_marker_is_removed_without_materializing() {
    let cfg = loaded(json!({"agents": {"entries": {"main": {"default": true, "tools": {"deny": ["exec"]}}}}}), V9);
    assert_eq!(cfg.value(), &json!({"agents": {"entries": {"main": {"tools": {"deny": ["exec"]}}}}}));
    assert_eq!(messages(&cfg), ["Removed retired agents.entries.*.default markers."]);
    assert_eq!(cfg.legacy_owner(), None);
    let two =
        loaded(json!({"agents": {"list": [{"id": "main", "default": true}, {"id": "work", "default": true}]}}), V9);
    assert_eq!(two.value()["agents"]["entries"], json!({"main": {"default": true}, "work": {"default": true}}));
    assert_eq!(issues(&two), ["agents.entries: agents.entries must contain at most one default=true entry (found 2)"]);
}

#[test]
fn context_budgets_move_into_models_or_are_dropped() {
    let cfg = loaded(
        json!({"agents": {"defaults": {"contextTokens": 1000}, "list": [{"id": "main", "contextTokens": 5}]},
               "models": {"providers": {"openai": {"baseUrl": "https://x", "contextTokens": 5,
                  "models": [{"id": "a", "name": "a"}, {"id": "b", "name": "b", "contextTokens": 9}]}}}}),
        V9,
    );
    assert_eq!(
        cfg.value()["models"]["providers"]["openai"]["models"],
        json!([{"id": "a", "name": "a", "contextTokens": 5}, {"id": "b", "name": "b", "contextTokens": 9}])
    );
    assert_eq!(cfg.value()["agents"], json!({"defaults": {}, "entries": {"main": {}}}));
    assert_eq!(
        messages(&cfg),
        [
            "models.providers.openai.contextTokens → models.providers.openai.models[0].contextTokens.",
            "Removed models.providers.openai.contextTokens after baking it into explicit model entries.",
            "Removed agents.defaults.contextTokens.",
            "Removed agents.list[0].contextTokens.",
            "agents.defaults.contextTokens cannot be represented per model; use models.providers.<provider>.models[].contextTokens instead.",
            "agents.list[0].contextTokens cannot be represented per model; use models.providers.<provider>.models[].contextTokens instead.",
            "Moved agents.list to keyed agents.entries."
        ]
    );
    assert!(cfg.warnings().iter().all(|w| w.kind == WarningKind::Migrated));
}

#[test]
fn retired_keys_that_are_not_migrated_are_doctor_problems() {
    let cfg = loaded(json!({"meta": {"lastTouchedAt": "2026-01-01T00:00:00Z"}}), V9);
    let [issue] = validate(&cfg, V9).try_into().unwrap();
    assert_eq!(issue.to_string(), "meta: Unrecognized key: \"lastTouchedAt\"");
    assert_eq!(issue.kind, ProblemKind::Doctor);
    let help = issue.help.unwrap();
    assert!(help.contains("Approved tier-eval configuration surfaces were consolidated."), "{help}");
    assert!(!help.contains("lastTouchedVersion"), "{help}");
    let typo = loaded(json!({"tools": {"alsoAlow": ["x"]}}), V9);
    assert_eq!(validate(&typo, V9)[0].kind, ProblemKind::Fatal);
}

#[test]
fn legacy_rules_replace_validation_in_2026_2() {
    let cfg = loaded(json!({"tools": {"bash": {"x": 1}}, "foo": 1}), V2);
    let found = validate(&cfg, V2);
    let shown: Vec<String> = found.iter().map(ToString::to_string).collect();
    assert_eq!(shown, ["tools.bash: tools.bash was removed; use tools.exec instead (auto-migrated on load)."]);
    assert_eq!(found[0].kind, ProblemKind::Doctor);
    let model = loaded(json!({"agent": {"model": "x"}}), V2);
    assert_eq!(validate(&model, V2).len(), 2);
    let object_model = loaded(json!({"agent": {"model": {"primary": "x"}}}), V2);
    assert_eq!(validate(&object_model, V2).len(), 1);
}

#[test]
fn moved_values_keep_their_place_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openclaw.json5");
    let text = "{\n  agents: {\n    list: [\n      { id: \"main\", default: true },\n      { id: \"work\", tools: { deny: [\"exec\"] } },\n    ],\n  },\n}\n";
    std::fs::write(&path, text).unwrap();
    let cfg = load(&[path], &options(V9, &[])).unwrap();
    let key = |p: &str| crate::config::path::parse_dotted(p);
    let deny = cfg.origin(&key("agents.entries.work.tools.deny.0")).unwrap();
    assert_eq!((deny.line, deny.column), (5, 37));
    assert_eq!(deny.key_path(), key("agents.list.1.tools.deny.0"));
    let system = cfg.origin(&key("agents.defaults.systemAgent.agentId")).unwrap();
    assert_eq!((system.line, system.column, system.key_path()), (4, 21, key("agents.list.0.default")));
    let form = cfg.migrated_forms().iter().find(|f| f.form == "agents-list").unwrap();
    assert_eq!(form.path, [PathSeg::key("agents"), PathSeg::key("list")]);
    assert_eq!(form.origin.as_ref().unwrap().line, 3);
}
