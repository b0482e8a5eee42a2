use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::config::test_support::options;

const V9: OpenClawVersion = OpenClawVersion::V2026_9;

struct Fixed {
    outcome: Outcome,
    /// The texts after the fixes, by file name.
    texts: Vec<(String, String)>,
}

fn fix_in(dir: &Path, files: &[&str], version: OpenClawVersion, unsafe_fixes: bool) -> Fixed {
    let paths: Vec<PathBuf> = files.iter().map(|f| dir.join(f)).collect();
    let opts = LoadOptions { cwd: dir.to_path_buf(), ..options(version, &[("HOME", "/home/op")]) };
    let selection = Selection::default();
    let outcome = run(Request {
        files: &paths,
        options: &opts,
        unsafe_fixes,
        lint: Some(&selection),
        suppressions: &Suppressions::default(),
        given: Vec::new(),
        buffers: Default::default(),
    })
    .unwrap();
    let texts = outcome
        .files
        .iter()
        .map(|f| (f.path.file_name().unwrap().to_string_lossy().into_owned(), f.after.clone()))
        .collect();
    Fixed { outcome, texts }
}

/// Writes the files, fixes, writes the result back, and checks a second run changes nothing.
fn fix_texts(files: &[(&str, &str)], version: OpenClawVersion, unsafe_fixes: bool) -> Fixed {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let fixed = fix_in(dir.path(), &[files[0].0], version, unsafe_fixes);
    for (name, text) in &fixed.texts {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let again = fix_in(dir.path(), &[files[0].0], version, unsafe_fixes);
    assert!(again.outcome.files.is_empty(), "a second run changed {:?}", again.texts);
    fixed
}

fn text_of<'a>(fixed: &'a Fixed, name: &str) -> &'a str {
    let not_applied: Vec<&str> = fixed.outcome.not_applied.iter().map(|n| n.reason.as_str()).collect();
    &fixed.texts.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("{name} unchanged: {not_applied:?}")).1
}

#[test]
fn a_legacy_roster_is_written_as_entries_and_the_config_in_force_stays() {
    let text = "// team\n{\n  agents: {\n    list: [\n      // first\n      { id: 'main', tools: { deny: ['exec'] } },\n      { id: 'work', workspace: '/srv/work' }, // second\n    ],\n  },\n}\n";
    let fixed = fix_texts(&[("openclaw.json5", text)], V9, false);
    let after = text_of(&fixed, "openclaw.json5");
    assert!(after.contains("entries: {") && after.contains("main: {") && after.contains("work: {"), "{after}");
    for comment in ["// team", "// first", "// second"] {
        assert!(after.contains(comment), "{comment} lost:\n{after}");
    }
    assert_eq!(fixed.outcome.before.config(), fixed.outcome.after.config());
    assert!(fixed.outcome.after.loaded().migrated_forms().is_empty());
    // The workspace the release pins on the first agent of a converted list is written down.
    assert!(after.contains("workspace: '/home/op/.openclaw/workspace'"), "{after}");
}

#[test]
fn a_default_marker_in_a_team_is_written_as_the_roles_it_gave() {
    let text = "{\n  channels: { telegram: { enabled: true } },\n  agents: {\n    entries: {\n      boss: { default: true },\n      helper: {},\n    },\n  },\n}\n";
    let fixed = fix_texts(&[("c.json5", text)], V9, false);
    let after = text_of(&fixed, "c.json5");
    assert!(!after.contains("default:"), "{after}");
    assert!(after.contains("ownership: 'explicit'") || after.contains("ownership: \"explicit\""), "{after}");
    let before = fixed.outcome.before.config();
    let mut now = fixed.outcome.after.config().clone();
    now["agents"].as_object_mut().unwrap().shift_remove("ownership");
    assert_eq!(&now, before);
}

#[test]
fn the_marker_of_a_single_agent_is_removed() {
    let text = "{\n  agents: {\n    entries: {\n      main: {\n        // the only one\n        default: true,\n        tools: { deny: ['gateway'] },\n      },\n    },\n  },\n}\n";
    let fixed = fix_texts(&[("c.json5", text)], V9, false);
    let after = text_of(&fixed, "c.json5");
    assert_eq!(
        after,
        "{\n  agents: {\n    entries: {\n      main: {\n        // the only one\n        tools: { deny: ['gateway'] },\n      },\n    },\n  },\n}\n"
    );
    assert!(fixed.outcome.after.loaded().migrated_forms().is_empty());
}

#[test]
fn fixes_that_change_access_wait_for_the_flag_and_report_what_changed() {
    let text = "{\n  tools: {\n    deny: [\"exce\"], // no shell\n  },\n}\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.json5"), text).unwrap();
    let held = fix_in(dir.path(), &["c.json5"], V9, false);
    assert!(held.outcome.files.is_empty());
    assert!(
        held.outcome.not_applied.iter().any(|n| n.reason.contains("--unsafe-fixes")),
        "{:?}",
        held.outcome.not_applied
    );

    let fixed = fix_in(dir.path(), &["c.json5"], V9, true);
    assert_eq!(text_of(&fixed, "c.json5"), "{\n  tools: {\n    deny: [\"exec\"], // no shell\n  },\n}\n");
    let report = access_changes(&fixed.outcome, V9, dir.path()).unwrap();
    assert!(report.summary.tools_lost > 0 && report.summary.tools_gained == 0, "{:?}", report.summary);
}

#[test]
fn refused_configs_are_repaired_where_the_release_says_how() {
    let text = "{\n  tools: { profile: 'coding', alsoAlow: ['browser'] },\n  agents: { entries: { main: { tools: { allow: ['read'], alsoAllow: ['exec', 'read'] } } } },\n}\n";
    let fixed = fix_texts(&[("c.json5", text)], V9, true);
    let after = text_of(&fixed, "c.json5");
    assert!(after.contains("alsoAllow: ['browser']"), "{after}");
    assert!(fixed.outcome.after.issues().is_empty(), "{:?}", fixed.outcome.after.issues());
    assert_eq!(fixed.outcome.after.config()["agents"]["entries"]["main"]["tools"], json!({"allow": ["read", "exec"]}));
}

#[test]
fn a_value_is_fixed_in_the_included_file_that_writes_it() {
    let main = "{\n  // shared policy\n  tools: { $include: './tools.json5' },\n}\n";
    let tools = "{\n  deny: ['raed'], // typo\n}\n";
    let fixed = fix_texts(&[("openclaw.json5", main), ("tools.json5", tools)], V9, true);
    assert_eq!(fixed.texts.len(), 1, "{:?}", fixed.texts);
    assert_eq!(text_of(&fixed, "tools.json5"), "{\n  deny: ['read'], // typo\n}\n");
}

#[test]
fn explain_edits_are_applied_as_given() {
    let text = "{\n  tools: { profile: 'messaging' },\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.json5");
    std::fs::write(&path, text).unwrap();
    let opts = LoadOptions { cwd: dir.path().to_path_buf(), ..options(V9, &[]) };
    let files = crate::config::loading::load_files(std::slice::from_ref(&path), &opts).unwrap();
    let ctx = crate::policy::SessionContext::default();
    let resolution = crate::policy::resolve(V9, files.config(), &ctx).unwrap();
    let explained = crate::policy::explain::explain(V9, files.config(), &ctx, &resolution, "exec");
    let candidate = explain_candidate("exec", &explained.fixes).unwrap();
    let outcome = run(Request {
        files: std::slice::from_ref(&path),
        options: &opts,
        unsafe_fixes: true,
        lint: None,
        suppressions: &Suppressions::default(),
        given: vec![candidate],
        buffers: Default::default(),
    })
    .unwrap();
    assert_eq!(outcome.applied.len(), 1, "{:?}", outcome.not_applied);
    let tools = crate::policy::resolve(V9, outcome.after.config(), &ctx).unwrap().tools;
    assert!(tools.contains(&"exec".to_string()), "{tools:?}");
}

/// Comments of a JSON5 text: `//` lines and `/* */` blocks (the generated texts have no `//` or
/// `/*` inside strings).
fn comments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("//").into_iter().chain(rest.find("/*")).min() {
        let tail = &rest[start..];
        let end = if tail.starts_with("//") {
            tail.find('\n').unwrap_or(tail.len())
        } else {
            tail.find("*/").map_or(tail.len(), |e| e + 2)
        };
        out.push(tail[..end].to_string());
        rest = &tail[end..];
    }
    out
}

fn config_text() -> impl Strategy<Value = String> {
    let name = prop::sample::select(vec![
        "exec",
        "exce",
        "read",
        "raed",
        "web_fetch",
        "web_fetc",
        "group:fs",
        "browser",
        "image",
    ]);
    let names = prop::collection::vec(name, 0..4);
    let quote = prop::sample::select(vec!["'", "\""]);
    let agent = (names.clone(), any::<bool>(), prop::option::of(1000u32..9000));
    (prop::collection::vec(agent, 1..4), names, any::<bool>(), quote, any::<bool>(), any::<bool>()).prop_map(
        |(agents, global_deny, legacy, q, typo_key, trailing)| {
            let comma = if trailing { "," } else { "" };
            let list = |items: &[&str]| items.iter().map(|n| format!("{q}{n}{q}")).collect::<Vec<_>>().join(", ");
            let mut members = Vec::new();
            for (index, (allow, marker, budget)) in agents.iter().enumerate() {
                let id = format!("a{index}");
                let mut fields = vec![format!("/* tools of {id} */ tools: {{ deny: [{}]{comma} }}", list(allow))];
                if *marker && index == 0 {
                    fields.push("default: true /* the boss */".to_string());
                }
                if let Some(tokens) = budget {
                    fields.push(format!("contextTokens: {tokens} /* budget of {id} */"));
                }
                let body = fields.join(", ");
                members.push(if legacy {
                    format!("      // agent {id}\n      {{ id: {q}{id}{q}, {body} }}")
                } else {
                    format!("      // agent {id}\n      {id}: {{ {body} }}")
                });
            }
            let (open, close, key) = if legacy { ("[", "]", "list") } else { ("{", "}", "entries") };
            let policy_key = if typo_key { "denny" } else { "deny" };
            format!(
                "// generated\n{{\n  // global policy\n  tools: {{\n    {policy_key}: [{}]{comma} // global\n  }},\n  agents: {{\n    {key}: {open}\n{}{comma}\n    {close}{comma}\n  }}{comma}\n}}\n",
                list(&global_deny),
                members.join(",\n"),
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// For any config, fixing keeps every comment, gives text that parses, adds nothing the
    /// release refuses, leaves no form the release migrates, and a second run is a no-op
    /// (checked by `fix_texts`).
    #[test]
    fn fixing_keeps_comments_parses_validates_and_settles(text in config_text(), unsafe_fixes in any::<bool>()) {
        let fixed = fix_texts(&[("c.json5", &text)], V9, unsafe_fixes);
        let after = fixed.texts.first().map_or(text.as_str(), |(_, t)| t.as_str());
        prop_assert!(crate::config::json5::parse("c".into(), after.to_string()).document.is_ok(), "{}", after);
        for comment in comments(&text) {
            prop_assert!(after.contains(&comment), "{} lost:\n{}", comment, after);
        }
        let before: HashSet<String> = fixed.outcome.before.issues().iter().map(|i| i.to_string()).collect();
        for issue in fixed.outcome.after.issues() {
            prop_assert!(before.contains(&issue.to_string()), "new issue {}", issue);
        }
        if !unsafe_fixes {
            prop_assert!(same_in_force(&fixed.outcome.before, &fixed.outcome.after));
        }
        // Every form the release migrates at load is written down.
        prop_assert!(fixed.outcome.after.loaded().migrated_forms().is_empty(), "{:?}", fixed.outcome.not_applied);
    }
}
