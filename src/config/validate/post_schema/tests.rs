use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::OpenClawVersion;
use crate::config::{LoadOptions, load_inline, validate};

const V2026_2: OpenClawVersion = OpenClawVersion::V2026_2;
const V2026_9: OpenClawVersion = OpenClawVersion::V2026_9;

/// `(path, message)` of each issue, in an environment whose home and state directory exist
/// nowhere (so the real-path comparison sees no symlinks).
fn issues_in(config: Value, version: OpenClawVersion, env: &[(&str, &str)]) -> Vec<(String, String)> {
    let env: HashMap<String, String> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let cfg = load_inline(config, &LoadOptions { version, env: env.into(), cwd: PathBuf::from("/work") }).unwrap();
    validate(&cfg, version).into_iter().map(|i| (i.dotted_path(), i.message)).collect()
}

const ENV: &[(&str, &str)] = &[("HOME", "/nonexistent-home"), ("OPENCLAW_STATE_DIR", "/nonexistent-state")];

fn issues(config: Value, version: OpenClawVersion) -> Vec<(String, String)> {
    issues_in(config, version, ENV)
}

fn paths(config: Value, version: OpenClawVersion) -> Vec<String> {
    issues(config, version).into_iter().map(|(path, _)| path).collect()
}

#[test]
fn tailscale_exposure_needs_a_loopback_bind_and_auth_in_2026_9_only() {
    let no_auth = json!({"gateway": {"auth": {"mode": "none"}, "tailscale": {"mode": "serve"}}});
    assert_eq!(
        issues(no_auth.clone(), V2026_9),
        [(
            "gateway.auth.mode".to_string(),
            "gateway.auth.mode=none cannot be used with gateway.tailscale.mode=serve; configure token, password, or trusted-proxy auth before exposing the gateway through Tailscale".to_string()
        )]
    );
    assert!(issues(no_auth, V2026_2).is_empty());
    let funnel = json!({"gateway": {"auth": {"mode": "none"}, "tailscale": {"mode": "funnel"}}});
    assert!(
        issues(funnel, V2026_9)[0].1.starts_with("gateway.tailscale.mode=funnel requires gateway.auth.mode=password")
    );
    // The bind check comes first and is the whole answer.
    let lan = json!({"gateway": {"bind": "lan", "auth": {"mode": "none"}, "tailscale": {"mode": "funnel"}}});
    assert_eq!(
        issues(lan.clone(), V2026_9),
        [(
            "gateway.bind".to_string(),
            "gateway.bind must resolve to loopback when gateway.tailscale.mode=funnel (use gateway.bind=\"loopback\" or gateway.bind=\"custom\" with gateway.customBindHost=\"127.0.0.1\")".to_string()
        )]
    );
    assert!(issues(lan, V2026_2).is_empty());
}

#[test]
fn custom_bind_host_must_be_a_canonical_dotted_loopback_address() {
    let with_host = |host: &str| {
        json!({"gateway": {"bind": "custom", "customBindHost": host, "auth": {"mode": "token", "token": "x"},
               "tailscale": {"mode": "serve"}}})
    };
    for accepted in ["127.0.0.1", " 127.0.0.1 ", "127.5.6.7"] {
        assert!(issues(with_host(accepted), V2026_9).is_empty(), "{accepted}");
    }
    for refused in ["127.1", "localhost", "::1", "127.000.0.1", "127.0.0.256", "10.0.0.1", ""] {
        assert_eq!(paths(with_host(refused), V2026_9), ["gateway.bind"], "{refused:?}");
    }
}

#[test]
fn sandbox_env_names_and_values_for_docker_and_podman_only() {
    let message = |backend: &str, remediation: &str| {
        format!(
            "{backend} sandbox backend requires portable environment names and single-line, non-NUL values because the secure env-file transport is line-delimited. {remediation} SSH/OpenShell backends may keep multiline values. Run openclaw doctor to report the invalid path; manual remediation is required."
        )
    };
    let bad_name = json!({"agents": {"defaults": {"sandbox": {"docker": {"env": {"1BAD": "x"}}}}}});
    assert_eq!(
        issues(bad_name, V2026_9),
        [(
            "agents.defaults.sandbox.docker.env.1BAD".to_string(),
            message("Docker", "Rename key \"1BAD\" to use letters, digits, and underscores without a leading digit.")
        )]
    );
    let multiline = json!({"agents": {"entries": {"main": {"sandbox": {"docker": {"env": {"K": "a\nb"}}}}}}});
    assert_eq!(
        issues(multiline.clone(), V2026_9),
        [(
            "agents.entries.main.sandbox.docker.env.K".to_string(),
            message(
                "Docker",
                "Use a single-line, non-NUL value for key \"K\", or deliver multiline material through a mounted file or custom image."
            )
        )]
    );
    let ssh = json!({"agents": {"defaults": {"sandbox": {"backend": "ssh", "docker": {"env": {"K": "a\nb"}}}}}});
    assert!(issues(ssh, V2026_9).is_empty());
    let podman = json!({"agents": {"defaults": {"sandbox": {"backend": "podman", "docker": {"env": {"K ": "a"}}}}}});
    assert!(issues(podman, V2026_9)[0].1.starts_with("Podman sandbox backend"));
    // A shared scope ignores the agent's own env.
    let shared = json!({"agents": {"defaults": {"sandbox": {"scope": "shared"}},
                                   "entries": {"main": {"sandbox": {"docker": {"env": {"K": "a\nb"}}}}}}});
    assert!(issues(shared, V2026_9).is_empty());
}

#[test]
fn duplicate_agent_dirs_name_every_agent_and_point_at_the_written_dir() {
    let config = json!({"agents": {"ownership": "explicit",
        "entries": {"a": {"agentDir": "/srv/x"}, "b": {"agentDir": "/srv/x/"}, "c": {"agentDir": "~/c"}}}});
    let found = issues(config, V2026_9);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "agents.entries");
    assert_eq!(
        found[0].1,
        "Duplicate agentDir detected (multi-agent config).\nEach agent must have a unique agentDir; sharing it causes auth/session state collisions and token invalidation.\n\nConflicts:\n- /srv/x: \"a\", \"b\"\n\nFix: remove the shared agents.entries.*.agentDir override (or give each agent its own directory).\nAuth profiles live in each agent's SQLite store, so a shared agentDir is not how credentials are shared: give each agent its own directory and either leave its store empty to inherit the main agent's profiles, or log it in with `openclaw models auth login`."
    );
    let list = json!({"agents": {"list": [{"id": "a", "agentDir": "~/x"}, {"id": "b", "agentDir": " ~/x "}]}});
    let found = issues(list, V2026_2);
    assert_eq!(found[0].0, "agents.list");
    assert!(found[0].1.contains("- /nonexistent-home/x: \"a\", \"b\""), "{}", found[0].1);
    assert!(found[0].1.ends_with("copy auth-profiles.json instead of sharing the entire agentDir."));
}

#[test]
fn a_binding_shares_the_state_dir_of_the_agent_it_names() {
    // 2026.9 allows bindings to `main` without a `main` entry; its default directory is the state dir's.
    let config = json!({"agents": {"entries": {"a": {"agentDir": "/nonexistent-state/agents/main/agent"}}},
        "bindings": [{"agentId": "main", "match": {"channel": "telegram"}}]});
    assert_eq!(paths(config, V2026_9), ["agents.entries"]);
    // 2026.2 always compares the default agent (here the first entry) and what bindings name.
    let config = json!({"agents": {"list": [{"id": "a", "agentDir": "/nonexistent-state/agents/b/agent"}]},
        "bindings": [{"agentId": "b", "match": {"channel": "telegram"}}]});
    assert_eq!(paths(config, V2026_2), ["agents.list"]);
    let config = json!({"agents": {"list": [{"id": "a", "agentDir": "/nonexistent-state/agents/main/agent"}]}});
    assert!(paths(config, V2026_2).is_empty());
}

#[test]
fn avatars_stay_in_the_workspace_in_both_releases() {
    let avatar = |value: &str| json!({"agents": {"entries": {"main": {"identity": {"avatar": value}}}}});
    let form = "identity.avatar must be a workspace-relative path, http(s) URL, or data URI.";
    let outside = "identity.avatar must stay within the agent workspace.";
    for (value, expected) in [
        ("~/a.png", Some(form)),
        ("file:///a.png", Some(form)),
        ("/etc/a.png", Some(outside)),
        ("../a.png", Some(outside)),
        ("img/../../a.png", Some(outside)),
        (" img/a.png ", None),
        ("C:\\a.png", None),
        ("HTTPS://x/a.png", None),
        ("data:image/png;base64,AA", None),
        ("/nonexistent-state/workspace/a.png", None),
    ] {
        let found = issues(avatar(value), V2026_9);
        assert_eq!(found.first().map(|(_, m)| m.as_str()), expected, "{value}");
    }
    let in_workspace =
        json!({"agents": {"entries": {"main": {"workspace": "/srv/ws", "identity": {"avatar": "/srv/ws/a.png"}}}}});
    assert!(issues(in_workspace, V2026_9).is_empty());
    // 2026.2 puts an agent other than the default one in `<state>/workspace-<id>`, whatever
    // `agents.defaults.workspace` says; 2026.9 in `<agents.defaults.workspace>/<id>`.
    let list = json!({"agents": {"defaults": {"workspace": "/srv/ws"},
        "list": [{"id": "main"}, {"id": "b", "identity": {"avatar": "/srv/ws/b/a.png"}}]}});
    assert_eq!(paths(list, V2026_2), ["agents.list.1.identity.avatar"]);
    let entries = json!({"agents": {"defaults": {"workspace": "/srv/ws"}, "ownership": "explicit",
        "entries": {"main": {}, "b": {"identity": {"avatar": "/srv/ws/b/a.png"}}}}});
    assert!(issues(entries, V2026_9).is_empty());
}

#[test]
fn model_policy_allow_refs_are_aliases_exact_refs_or_prefix_wildcards() {
    let config = json!({"agents": {"defaults": {
        "models": {"openai/gpt-5.4": {"alias": "GPT"}},
        "modelPolicy": {"allow": ["gpt", "openai/*", "anthropic/claude", "open ai/x", "OpenRouter:Auto", "a/b/*", "*", "a/*/b", "x/"]}}}});
    let found = issues(config, V2026_9);
    let refused: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        refused,
        [
            "agents.defaults.modelPolicy.allow.3",
            "agents.defaults.modelPolicy.allow.6",
            "agents.defaults.modelPolicy.allow.7",
            "agents.defaults.modelPolicy.allow.8"
        ]
    );
    assert_eq!(
        found[0].1,
        "invalid model policy ref: \"open ai/x\". Use a configured alias, an exact \"provider/model\" ref, or a trailing prefix wildcard such as \"provider/*\" or \"provider/namespace/*\"."
    );
    // An agent's own aliases count for its own policy only.
    let config = json!({"agents": {"ownership": "explicit", "entries": {
        "a": {"models": {"openai/gpt-5.4": {"alias": "fast"}}, "modelPolicy": {"allow": ["fast"]}},
        "b": {"modelPolicy": {"allow": ["fast"]}}}}});
    assert_eq!(paths(config, V2026_9), ["agents.entries.b.modelPolicy.allow.0"]);
}

#[test]
fn the_first_check_with_findings_is_the_whole_answer() {
    let config = json!({"gateway": {"bind": "lan", "auth": {"mode": "none"}, "tailscale": {"mode": "serve"}},
        "agents": {"entries": {"main": {"identity": {"avatar": "~/a.png"}}}}});
    assert_eq!(paths(config, V2026_9), ["agents.entries.main.identity.avatar"]);
}

#[test]
fn post_schema_issues_are_located_at_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openclaw.json");
    std::fs::write(&file, "{\n  gateway: {\n    bind: \"lan\",\n    tailscale: { mode: \"serve\" },\n  },\n}\n")
        .unwrap();
    let env: HashMap<String, String> = ENV.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let opts = LoadOptions { version: V2026_9, env: env.into(), cwd: dir.path().to_path_buf() };
    let cfg = crate::config::load(&[file], &opts).unwrap();
    let found = validate(&cfg, V2026_9);
    let origin = found[0].origin.as_ref().unwrap();
    assert_eq!((origin.line, origin.column), (3, 5), "at `bind`");
    assert_eq!(found[0].kind, crate::config::problem::ProblemKind::Fatal);
}
