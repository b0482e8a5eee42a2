//! Invariants of the resolver over random configs and sessions.

use std::collections::BTreeSet;

use clawpolicy::OpenClawVersion;
use clawpolicy::policy::{self, SessionContext};
use proptest::prelude::*;
use serde_json::{Value, json};

const NAMES: &[&str] = &[
    "read",
    "write",
    "exec",
    "bash",
    "apply_patch",
    "process",
    "browser",
    "message",
    "gateway",
    "cron",
    "automations",
    "sessions_*",
    "*_search",
    "web_*",
    "*",
    "group:fs",
    "group:runtime",
    "group:web",
    "group:sessions",
    "group:openclaw",
    "group:ui",
    "group:plugins",
    "Exec",
    "nodes",
    "canvas",
    "image",
    "view_image",
    "update_plan",
    "unknown_tool",
];

fn names() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(prop::sample::select(NAMES).prop_map(str::to_string), 0..4)
}

fn scope() -> impl Strategy<Value = Value> {
    (prop::option::of(names()), prop::option::of(names()), prop::option::of(names())).prop_map(|(allow, also, deny)| {
        let mut block = serde_json::Map::new();
        if let Some(allow) = allow {
            block.insert("allow".into(), json!(allow));
        } else if let Some(also) = also {
            block.insert("alsoAllow".into(), json!(also));
        }
        if let Some(deny) = deny {
            block.insert("deny".into(), json!(deny));
        }
        Value::Object(block)
    })
}

fn config() -> impl Strategy<Value = Value> {
    let profile = prop::option::of(prop::sample::select(&["minimal", "coding", "messaging", "full"][..]));
    let mode = prop::sample::select(&["off", "non-main", "all"][..]);
    (profile, scope(), scope(), scope(), scope(), mode).prop_map(|(profile, global, provider, agent, sandbox, mode)| {
        let mut tools = global;
        if let Some(profile) = profile {
            tools["profile"] = json!(profile);
        }
        tools["byProvider"] = json!({"openai": provider});
        tools["sandbox"] = json!({"tools": sandbox});
        json!({
            "tools": tools,
            "agents": {"defaults": {"sandbox": {"mode": mode}}, "entries": {"main": {"tools": agent}}},
            "channels": {"telegram": {"groups": {"*": {"tools": {"deny": ["exec"]}}}}}
        })
    })
}

fn context() -> impl Strategy<Value = SessionContext> {
    let key = prop::sample::select(&["agent:main:main", "agent:main:telegram:group:-1", "agent:main:subagent:a"][..]);
    (key, prop::option::of(any::<bool>()), prop::bool::ANY).prop_map(|(key, owner, openai)| SessionContext {
        session_key: Some(key.to_string()),
        sender_is_owner: owner,
        model_provider: openai.then(|| "openai".to_string()),
        ..Default::default()
    })
}

fn version() -> impl Strategy<Value = OpenClawVersion> {
    prop::sample::select(&OpenClawVersion::ALL[..])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The final list is a subset of the candidates, and every other candidate has a removal
    /// whose step really rejected it.
    #[test]
    fn every_missing_tool_is_accounted_for(version in version(), config in config(), ctx in context()) {
        let resolution = policy::resolve(version, &config, &ctx).unwrap();
        let candidates: BTreeSet<_> = resolution.candidates.iter().collect();
        for tool in &resolution.tools {
            prop_assert!(candidates.contains(tool));
        }
        for tool in resolution.candidates.iter().filter(|t| !resolution.tools.contains(t)) {
            let removal = resolution.removed.get(tool);
            prop_assert!(removal.is_some(), "{tool} vanished without a removal");
            let step = resolution.steps.iter().find(|s| *s.step.label == *removal.unwrap().step);
            if let Some(step) = step {
                prop_assert!(!step.verdicts.get(tool).expect("judged").keeps());
                prop_assert!(step.removed.contains(tool));
            }
        }
    }

    /// A later step never adds a tool: each step's survivors are a subset of the previous ones.
    #[test]
    fn steps_only_remove(version in version(), config in config(), ctx in context()) {
        let resolution = policy::resolve(version, &config, &ctx).unwrap();
        let mut removed_so_far: BTreeSet<&String> = BTreeSet::new();
        for step in &resolution.steps {
            for tool in &step.removed {
                prop_assert!(removed_so_far.insert(tool), "{tool} removed twice");
            }
        }
        for tool in &resolution.tools {
            prop_assert!(!removed_so_far.contains(tool));
        }
    }

    /// Deny wins: a tool named exactly in the global deny list is never available.
    #[test]
    fn global_deny_wins(version in version(), mut config in config(), ctx in context(), denied in prop::sample::select(&["exec", "read", "browser"][..])) {
        let deny = config["tools"].as_object_mut().unwrap().entry("deny").or_insert(json!([]));
        deny.as_array_mut().unwrap().push(json!(denied));
        let resolution = policy::resolve(version, &config, &ctx).unwrap();
        prop_assert!(!resolution.tools.iter().any(|t| t == denied));
    }

    /// Adding a deny entry anywhere never makes a tool appear.
    #[test]
    fn more_deny_never_adds(version in version(), config in config(), ctx in context(), extra in prop::sample::select(NAMES)) {
        let before = policy::resolve(version, &config, &ctx).unwrap();
        let mut stricter = config.clone();
        let deny = stricter["agents"]["entries"]["main"]["tools"].as_object_mut().unwrap().entry("deny").or_insert(json!([]));
        deny.as_array_mut().unwrap().push(json!(extra));
        let after = policy::resolve(version, &stricter, &ctx).unwrap();
        for tool in &after.tools {
            prop_assert!(before.tools.contains(tool), "denying {extra} added {tool}");
        }
    }
}
