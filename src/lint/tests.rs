use std::collections::BTreeSet;

use super::*;
use crate::config::test_support::options;

/// Lints JSON5 text written to a temp file, so findings carry real file locations.
fn lint_text(version: OpenClawVersion, text: &str) -> LintReport {
    lint_with_approvals(version, text, None)
}

/// Lints JSON5 text with an exec approvals document.
fn lint_with_approvals(version: OpenClawVersion, text: &str, approvals: Option<serde_json::Value>) -> LintReport {
    lint_in_env(version, text, approvals, &[])
}

/// Lints JSON5 text with an exec approvals document, in an environment.
fn lint_in_env(
    version: OpenClawVersion,
    text: &str,
    approvals: Option<serde_json::Value>,
    env: &[(String, String)],
) -> LintReport {
    lint_with_jobs(version, text, approvals, env, &[])
}

/// [`lint_in_env`] with stored cron jobs.
fn lint_with_jobs(
    version: OpenClawVersion,
    text: &str,
    approvals: Option<serde_json::Value>,
    env: &[(String, String)],
    jobs: &[crate::policy::automation::jobs::CronJob],
) -> LintReport {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openclaw.json5");
    std::fs::write(&path, text).unwrap();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let loaded = crate::config::load(&[path], &options(version, &env)).unwrap();
    let validation = crate::config::validate::check(&loaded, version);
    let approvals =
        approvals.map(|doc| crate::exec::approvals::load(&crate::exec::ApprovalsInput::Document(doc), version));
    let ctx = LintContext::new(version, &loaded, &validation.issues, approvals.as_ref())
        .with_validation_warnings(&validation.warnings)
        .with_jobs(jobs);
    lint(&ctx, &Selection { severity_min: Severity::Suggestion, ..Selection::default() }, &Default::default())
}

/// Codes of the config and policy-list rules. Most small configs also trip the exec and exposure
/// rules (2026.9 runs exec unprompted when nothing is set); those have their own tests.
fn codes(report: &LintReport) -> Vec<&'static str> {
    let audit =
        [Category::Exec, Category::Sandbox, Category::Exposure, Category::Gateway, Category::Models, Category::Install];
    report.findings.iter().filter(|f| !audit.contains(&find_rule(f.code).unwrap().category)).map(|f| f.code).collect()
}

/// Codes of every finding.
fn all_codes(report: &LintReport) -> Vec<&'static str> {
    report.findings.iter().map(|f| f.code).collect()
}

fn finding<'r>(report: &'r LintReport, code: &str) -> &'r Finding {
    report.findings.iter().find(|f| f.code == code).unwrap_or_else(|| panic!("no {code} in {:#?}", report.findings))
}

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let mut codes = BTreeSet::new();
    let mut names = BTreeSet::new();
    for rule in all_rules() {
        assert!(codes.insert(rule.code), "duplicate code {}", rule.code);
        assert!(names.insert(rule.name), "duplicate name {}", rule.name);
        assert!(
            rule.code.len() == 5 && rule.code.starts_with("CP") && rule.code[2..].chars().all(|c| c.is_ascii_digit()),
            "{}",
            rule.code
        );
        assert!(rule.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'), "{}", rule.name);
        assert!(!rule.versions().is_empty() && !rule.why.is_empty() && !rule.fix.is_empty(), "{}", rule.code);
        assert!(!registry::RETIRED.iter().any(|(code, _)| *code == rule.code), "{} is retired", rule.code);
    }
}

#[test]
fn every_audit_check_a_release_lists_is_mirrored_by_a_rule() {
    let mirrored: BTreeSet<&str> = all_rules().iter().filter_map(|r| r.openclaw_check).collect();
    for version in OpenClawVersion::ALL {
        for check in &version.lint().audit_checks {
            assert!(mirrored.contains(check.as_str()), "{version}: lint.json lists {check}, which no rule mirrors");
        }
    }
    for rule in all_rules().iter().filter(|r| r.openclaw_check.is_some()) {
        assert!(matches!(rule.applies, registry::Applies::WhereAuditRuns), "{} mirrors an audit check", rule.code);
    }
}

#[test]
fn rules_are_found_by_code_or_name() {
    assert_eq!(find_rule("cp201").unwrap().name, "unknown-tool");
    assert_eq!(find_rule("unknown-tool").unwrap().code, "CP201");
    assert!(find_rule("CP999").is_none());
}

#[test]
fn committed_rule_reference_is_current() {
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md")).unwrap();
    assert!(
        committed == docs::rules_markdown(),
        "docs/rules.md is stale: run `cargo run -- rule --markdown > docs/rules.md`"
    );
}

#[test]
fn a_clean_config_has_no_findings() {
    let text = "{ tools: { profile: \"coding\", deny: [\"browser\"], exec: { mode: \"ask\" } }, gateway: { auth: { \
                token: \"0123456789abcdef0123456789abcdef\" }, trustedProxies: [\"127.0.0.1\"] } }";
    let report = lint_text(OpenClawVersion::V2026_9, text);
    assert!(report.findings.is_empty(), "{:#?}", report.findings);
}

#[test]
fn gateway_auth_findings_point_at_the_deciding_key_or_the_closest_section() {
    let text = "{\n  gateway: {\n    bind: \"lan\",\n  },\n}\n";
    let report = lint_text(OpenClawVersion::V2026_9, text);
    let bind = finding(&report, "CP711").location.as_ref().unwrap();
    assert_eq!((bind.path.as_str(), bind.line, bind.column), ("gateway.bind", 3, 5));
    // An absent key: the finding names it and points at the closest written section.
    let rate = finding(&report, "CP735");
    assert_eq!(rate.path.as_deref(), Some("gateway.auth.rateLimit"));
    assert_eq!(rate.location.as_ref().map(|l| l.line), Some(2));
}

#[test]
fn a_gateway_token_from_the_environment_counts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openclaw.json5");
    std::fs::write(&path, "{ gateway: { trustedProxies: [\"127.0.0.1\"] } }").unwrap();
    let lint_with = |env: &[(&str, &str)]| {
        let loaded = crate::config::load(std::slice::from_ref(&path), &options(OpenClawVersion::V2026_9, env)).unwrap();
        let ctx = LintContext::new(OpenClawVersion::V2026_9, &loaded, &[], None);
        lint(&ctx, &Selection { severity_min: Severity::Suggestion, ..Selection::default() }, &Default::default())
    };
    assert!(all_codes(&lint_with(&[])).contains(&"CP712"));
    let short = lint_with(&[("OPENCLAW_GATEWAY_TOKEN", "abc123")]);
    assert!(!all_codes(&short).contains(&"CP712"));
    assert!(finding(&short, "CP726").message.contains("6 characters"));
    assert!(
        all_codes(&lint_with(&[("OPENCLAW_GATEWAY_TOKEN", "0123456789abcdef0123456789abcdef")]))
            .iter()
            .all(|c| !c.starts_with("CP7"))
    );
}

#[test]
fn unknown_keys_point_at_the_key_with_a_suggestion() {
    let report = lint_text(OpenClawVersion::V2026_9, "{\n  tools: {\n    alsoAlow: [\"browser\"],\n  },\n}\n");
    let unknown = finding(&report, "CP101");
    let location = unknown.location.as_ref().unwrap();
    assert_eq!((location.line, location.column), (3, 5));
    assert!(unknown.help.as_deref().unwrap().contains("alsoAllow"), "{unknown:?}");
}

#[test]
fn typos_in_tool_names_get_a_did_you_mean() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { deny: [\"exce\", \"group:fs\", \"web_*\"] } }");
    assert_eq!(codes(&report), ["CP201"]);
    assert_eq!(finding(&report, "CP201").help.as_deref(), Some("did you mean `exec`?"));
    assert_eq!(finding(&report, "CP201").path.as_deref(), Some("tools.deny[0]"));
}

#[test]
fn renamed_tools_are_reported_per_release() {
    let text = "{ tools: { deny: [\"image\"] } }";
    assert_eq!(codes(&lint_text(OpenClawVersion::V2026_9, text)), ["CP202"]);
    assert!(codes(&lint_text(OpenClawVersion::V2026_2, text)).is_empty());
}

#[test]
fn globs_that_match_nothing_are_dead() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { deny: [\"shell_*\", \"sessions_*\"] } }");
    assert_eq!(codes(&report), ["CP203"]);
}

#[test]
fn deny_shadowing_an_allow_in_one_scope() {
    let report =
        lint_text(OpenClawVersion::V2026_9, "{ tools: { allow: [\"exec\", \"read\"], deny: [\"group:runtime\"] } }");
    assert_eq!(codes(&report), ["CP303"]);
    assert!(finding(&report, "CP303").message.contains("`exec`"));
}

#[test]
fn a_sandbox_allow_of_a_globally_denied_tool_is_dead() {
    let text = r#"{
      tools: { deny: ["exec"], sandbox: { tools: { allow: ["exec", "read"] } } },
      agents: { defaults: { sandbox: { mode: "all" } } },
    }"#;
    let report = lint_text(OpenClawVersion::V2026_9, text);
    let dead = finding(&report, "CP304");
    assert_eq!(dead.path.as_deref(), Some("tools.sandbox.tools.allow[0]"));
    assert!(dead.message.contains("tools.deny"), "{}", dead.message);
}

#[test]
fn sub_agent_also_allow_without_allow_is_ignored_in_2026_9() {
    let text = "{ tools: { subagents: { tools: { alsoAllow: [\"browser\"] } } } }";
    assert_eq!(codes(&lint_text(OpenClawVersion::V2026_9, text)), ["CP301"]);
    assert!(codes(&lint_text(OpenClawVersion::V2026_2, text)).is_empty());
}

#[test]
fn sandbox_also_allow_is_ignored_by_2026_2() {
    let text = "{ tools: { sandbox: { tools: { alsoAllow: [\"browser\"] } } } }";
    assert_eq!(codes(&lint_text(OpenClawVersion::V2026_2, text)), ["CP302"]);
    assert!(codes(&lint_text(OpenClawVersion::V2026_9, text)).is_empty());
}

#[test]
fn an_agent_left_without_tools() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { allow: [\"reed\"] } }");
    assert_eq!(codes(&report), ["CP305", "CP201"]);
}

#[test]
fn duplicate_keys_point_at_both_occurrences() {
    let report = lint_text(
        OpenClawVersion::V2026_9,
        "{\n  tools: { deny: [\"exec\"] },\n  tools: { profile: \"coding\" },\n}\n",
    );
    let duplicate = finding(&report, "CP107");
    assert!(duplicate.help.as_deref().unwrap().contains(":2:"), "{duplicate:?}");
}

#[test]
fn retired_keys_say_what_replaced_them() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { exec: { timeoutSec: 30 } } }");
    assert_eq!(codes(&report), ["CP108"]);
    assert_eq!(finding(&report, "CP108").severity, Severity::Error);
    assert!(finding(&report, "CP108").help.as_deref().unwrap().contains("timeoutSeconds"));
}

#[test]
fn forms_migrated_at_load_are_reported_where_written_and_other_rules_still_run() {
    let text = "{\n  agents: {\n    list: [\n      { id: \"main\", default: true },\n      { id: \"work\", tools: { deny: [\"exce\"] } },\n    ],\n  },\n}\n";
    let report = lint_text(OpenClawVersion::V2026_9, text);
    assert!(report.skipped.is_empty(), "{:?}", report.skipped);
    let migrated: Vec<&Finding> = report.findings.iter().filter(|f| f.code == "CP109").collect();
    let places: Vec<(Option<&str>, usize)> =
        migrated.iter().map(|f| (f.path.as_deref(), f.location.as_ref().unwrap().line)).collect();
    assert_eq!(places, [(Some("agents.list"), 3), (Some("agents.list[0].default"), 4)]);
    assert!(migrated.iter().all(|f| f.kind == Some(ProblemKind::Migrated)));
    assert!(migrated[0].help.as_deref().unwrap().contains("entries: { main: { … }, work: { … } }"));
    assert!(migrated[1].help.as_deref().unwrap().contains("agents.defaults.systemAgent.agentId: \"main\""));
    // The typo in the migrated roster is found by the tool-name rule, at the entry as written.
    let typo = finding(&report, "CP201");
    assert_eq!(typo.path.as_deref(), Some("agents.entries.work.tools.deny[0]"));
    assert_eq!(typo.location.as_ref().map(|l| (l.line, l.column)), Some((5, 37)));
    assert!(codes(&lint_text(OpenClawVersion::V2026_2, text)).iter().all(|c| *c != "CP109"));
}

#[test]
fn retired_keys_get_the_release_message_not_a_did_you_mean() {
    let report = lint_text(
        OpenClawVersion::V2026_9,
        "{ meta: { lastTouchedAt: \"2026-01-01T00:00:00Z\" }, tools: { alsAllow: [] } }",
    );
    assert_eq!(codes(&report), ["CP108", "CP101"]);
    let retired = finding(&report, "CP108");
    assert_eq!(retired.path.as_deref(), Some("meta.lastTouchedAt"));
    assert_eq!(
        retired.message,
        "`meta.lastTouchedAt`: Approved tier-eval configuration surfaces were consolidated. Run \"openclaw doctor --fix\"."
    );
    assert_eq!((retired.severity, retired.kind), (Severity::Error, Some(ProblemKind::Doctor)));
    assert!(!retired.help.as_deref().unwrap().contains("lastTouchedVersion`?"));
    assert_eq!(finding(&report, "CP101").kind, Some(ProblemKind::Fatal));
    // 2026.2 accepts it.
    assert!(codes(&lint_text(OpenClawVersion::V2026_2, "{ meta: { lastTouchedAt: \"x\" } }")).is_empty());
}

#[test]
fn semantic_rules_wait_for_a_valid_config() {
    let report = lint_text(OpenClawVersion::V2026_9, "{ tools: { profile: \"default\", allow: [\"reed\"] } }");
    assert!(codes(&report).contains(&"CP103"));
    assert!(!codes(&report).contains(&"CP305"));
    assert!(report.skipped.iter().any(|s| s.code == "CP305"));
}

#[test]
fn selection_filters_by_code_name_and_severity() {
    let rule = find_rule("CP201").unwrap();
    let only = Selection { only: vec!["unknown-tool".into()], ..Selection::default() };
    assert!(only.selects(rule));
    let skip = Selection { skip: vec!["cp201".into()], ..Selection::default() };
    assert!(!skip.selects(rule));
    assert_eq!(Selection { only: vec!["CP999".into()], ..Selection::default() }.unknown_rule_names(), ["CP999"]);
}

#[test]
fn exec_left_unset_runs_unprompted_on_the_host() {
    let text = "{ tools: { exec: { host: \"gateway\" } } }";
    let unset = lint_text(OpenClawVersion::V2026_9, text);
    assert!(all_codes(&unset).contains(&"CP410"), "{:#?}", unset.findings);
    assert_eq!(finding(&unset, "CP410").path.as_deref(), Some("tools.exec"));
    assert!(!all_codes(&lint_text(OpenClawVersion::V2026_2, text)).contains(&"CP410"));
    let set = lint_text(OpenClawVersion::V2026_9, "{ tools: { exec: { host: \"gateway\", mode: \"ask\" } } }");
    assert!(!all_codes(&set).contains(&"CP410"));
    let sandboxed = "{ agents: { defaults: { sandbox: { mode: \"all\" } } } }";
    assert!(!all_codes(&lint_text(OpenClawVersion::V2026_9, sandboxed)).contains(&"CP410"));
}

#[test]
fn full_exec_is_critical_when_a_channel_is_open() {
    let closed = lint_text(OpenClawVersion::V2026_9, "{ tools: { exec: { mode: \"full\" } } }");
    assert_eq!(finding(&closed, "CP401").severity, Severity::Security);
    assert_eq!(finding(&closed, "CP401").path.as_deref(), Some("tools.exec.mode"));
    let open = lint_text(
        OpenClawVersion::V2026_9,
        "{ tools: { exec: { mode: \"full\" } }, channels: { telegram: { groups: { \"-1\": { groupPolicy: \"open\" } } } } }",
    );
    assert_eq!(finding(&open, "CP401").severity, Severity::Error);
    let exposure = finding(&open, "CP601");
    assert_eq!(
        (exposure.severity, exposure.path.as_deref()),
        (Severity::Error, Some("channels.telegram.groups[\"-1\"].groupPolicy"))
    );
}

#[test]
fn elevated_wildcards_carry_the_concrete_check_id() {
    let report = lint_text(OpenClawVersion::V2026_2, "{ tools: { elevated: { allowFrom: { telegram: [\"*\"] } } } }");
    let wildcard = finding(&report, "CP408");
    assert_eq!(wildcard.openclaw_check.as_deref(), Some("tools.elevated.allowFrom.telegram.wildcard"));
    assert_eq!(wildcard.severity, Severity::Error);
    let disabled = "{ tools: { elevated: { enabled: false, allowFrom: { telegram: [\"*\"] } } } }";
    assert!(!all_codes(&lint_text(OpenClawVersion::V2026_2, disabled)).contains(&"CP408"));
}

#[test]
fn dangerous_binds_point_at_the_bind() {
    let text = r#"{ agents: { defaults: { sandbox: { mode: "all", docker: { binds: ["/srv/app:/app", "/var/run/docker.sock:/s"] } } } } }"#;
    let report = lint_text(OpenClawVersion::V2026_9, text);
    let bind = finding(&report, "CP503");
    assert_eq!(bind.path.as_deref(), Some("agents.defaults.sandbox.docker.binds[1]"));
    assert!(bind.message.contains("`/var/run`"), "{}", bind.message);
}

#[test]
fn approvals_store_rules() {
    let store = serde_json::json!({
        "version": 1,
        "defaults": { "autoAllowSkills": true },
        "agents": { "main": { "security": "deny", "allowlist": [{ "pattern": "/usr/bin/python3" }, "git"] } }
    });
    let text = "{ tools: { exec: { security: \"allowlist\" } } }";
    let v9 = lint_with_approvals(OpenClawVersion::V2026_9, text, Some(store.clone()));
    for code in ["CP411", "CP412", "CP414"] {
        assert!(all_codes(&v9).contains(&code), "{code}: {:#?}", v9.findings);
    }
    assert!(finding(&v9, "CP414").message.contains("agents.main.security"), "{}", finding(&v9, "CP414").message);
    let strict = "{ tools: { exec: { security: \"allowlist\", strictInlineEval: true } } }";
    assert!(!all_codes(&lint_with_approvals(OpenClawVersion::V2026_9, strict, Some(store.clone()))).contains(&"CP412"));
    let v2 = lint_with_approvals(OpenClawVersion::V2026_2, text, Some(store));
    let never = finding(&v2, "CP413");
    assert!(never.message.contains("`git`") && never.message.contains("bare name"), "{}", never.message);
    assert!(!all_codes(&lint_text(OpenClawVersion::V2026_9, text)).contains(&"CP414"), "no store, no finding");
}

#[test]
fn node_deny_patterns_get_exact_ids() {
    let text =
        r#"{ gateway: { nodes: { commands: { allow: ["camera.snap"], deny: ["camera.*", "canvas.presnt"] } } } }"#;
    let report = lint_text(OpenClawVersion::V2026_9, text);
    assert_eq!(report.findings.iter().filter(|f| f.code == "CP704").count(), 2);
    assert!(finding(&report, "CP704").help.as_deref().unwrap().contains("camera."), "{:?}", finding(&report, "CP704"));
    assert_eq!(finding(&report, "CP703").severity, Severity::Security, "loopback gateway: warn");
}

#[test]
fn findings_never_echo_secrets() {
    let text = r#"{
      gateway: { bind: "lan", auth: { mode: "token", token: "s3cret-gateway-token-value-0123456789" }, tools: { allow: ["gateway"] } },
      hooks: { enabled: true, token: "s3cret-hooks-token", allowRequestSessionKey: true },
    }"#;
    let report = lint_text(OpenClawVersion::V2026_9, text);
    assert!(all_codes(&report).contains(&"CP701") && all_codes(&report).contains(&"CP706"));
    let rendered = serde_json::to_string(&report).unwrap();
    assert!(!rendered.contains("s3cret"), "{rendered}");
}

#[test]
fn plugin_only_allowlists_mean_opposite_things_per_release() {
    let current = lint_text(OpenClawVersion::V2026_9, "{ tools: { allow: [\"memory-core\"] } }");
    assert!(finding(&current, "CP204").message.contains("every core tool is removed"));
    let seed = lint_text(OpenClawVersion::V2026_2, "{ tools: { allow: [\"memory-core\"] } }");
    assert!(finding(&seed, "CP204").message.contains("restricts nothing"));
}

#[test]
fn an_inherited_exec_security_points_where_it_is_written() {
    let text = "{\n  agents: { entries: { main: {} } },\n  tools: { exec: { security: \"full\" } },\n}";
    let report = lint_text(OpenClawVersion::V2026_9, text);
    let full = finding(&report, "CP401");
    assert!(full.message.contains("for main"), "{}", full.message);
    let location = full.location.as_ref().unwrap();
    assert_eq!((location.line, location.path.as_str()), (3, "tools.exec.security"), "{location:?}");
}

/// Every rule's documented example (docs/rules.md, `clawpolicy rule CODE`) triggers that rule on
/// every release it applies to: the reference can never show an example that lints clean. An
/// example is the body of a config object (or a whole object), with the conventions of
/// [`Rule::example`]: `// OpenClaw <line>[, <line>…]:` starts the form those releases need, `// env: NAME=VALUE`
/// sets a variable, `// exec approvals store: {…}` gives the approvals document and
/// `// cron jobs store: […]` the stored jobs. Examples of the
/// install's files (their modes, a registry file) describe no config; the recorded audits of
/// `tests/lint_parity.rs` lay those installs out.
#[test]
fn each_rules_documented_example_triggers_it() {
    let describes_install = |rule: &Rule| rule.category == Category::Install || rule.example.starts_with("// <state>");
    let mut silent = Vec::new();
    for rule in all_rules().iter().filter(|r| !describes_install(r)) {
        for version in rule.versions() {
            let example = RuleExample::parse(rule.example, version);
            let outcome = std::panic::catch_unwind(|| {
                lint_with_jobs(version, &example.config(), example.approvals.clone(), &example.env, &example.jobs)
            });
            let Ok(report) = outcome else {
                silent.push(format!("{} {} on {version}: does not load: {}", rule.code, rule.name, rule.example));
                continue;
            };
            if !report.findings.iter().any(|f| f.code == rule.code) {
                silent.push(format!("{} {} on {version}: {}", rule.code, rule.name, rule.example));
            }
        }
    }
    assert!(silent.is_empty(), "documented examples that do not trigger their rule:\n{}", silent.join("\n"));
}

/// A rule's documented example, read for one release.
struct RuleExample {
    body: String,
    env: Vec<(String, String)>,
    approvals: Option<serde_json::Value>,
    jobs: Vec<crate::policy::automation::jobs::CronJob>,
}

impl RuleExample {
    fn parse(example: &str, version: OpenClawVersion) -> Self {
        let mut parsed = RuleExample { body: String::new(), env: Vec::new(), approvals: None, jobs: Vec::new() };
        let mut for_this_release = true;
        for line in example.lines() {
            if let Some(line_header) = line.strip_prefix("// OpenClaw ").and_then(|rest| rest.strip_suffix(':')) {
                for_this_release = line_header.split(", ").any(|line| line == version.line());
            } else if !for_this_release {
            } else if let Some(assignment) = line.strip_prefix("// env: ") {
                let (name, value) = assignment.split_once('=').expect("// env: NAME=VALUE");
                parsed.env.push((name.to_string(), value.to_string()));
            } else if let Some(document) = line.strip_prefix("// exec approvals store: ") {
                parsed.approvals = Some(serde_json::from_str(document).expect("an approvals document"));
            } else if let Some(jobs) = line.strip_prefix("// cron jobs store: ") {
                parsed.jobs = serde_json::from_str(jobs).expect("a list of jobs");
            } else {
                parsed.body.push_str(line);
                parsed.body.push('\n');
            }
        }
        parsed
    }

    fn config(&self) -> String {
        if self.body.trim_start().starts_with('{') { self.body.clone() } else { format!("{{ {} }}", self.body) }
    }
}

#[test]
fn a_plugin_setting_the_release_ignores_is_reported_at_its_key() {
    let text = "{\n  plugins: {\n    entries: { \"zzz-plugin\": { enabled: true } },\n  },\n}";
    let report = lint_text(OpenClawVersion::V2026_9, text);
    let ignored = finding(&report, "CP110");
    assert!(ignored.message.starts_with("plugin not found: zzz-plugin"), "{}", ignored.message);
    let location = ignored.location.as_ref().unwrap();
    assert_eq!((location.line, location.path.as_str()), (3, "plugins.entries.zzz-plugin"), "{location:?}");
    assert_eq!(ignored.kind, Some(ProblemKind::Migrated));
    // 2026.2 refuses the same config: the finding is the validation issue's, not a warning.
    assert!(codes(&lint_text(OpenClawVersion::V2026_2, text)).iter().all(|c| *c != "CP110"));
}

#[test]
fn findings_past_the_cap_are_counted_not_kept() {
    let names: Vec<String> = (0..130).map(|i| format!("\"nosuchtool{i}\"")).collect();
    let text = format!("{{ tools: {{ deny: [{}] }} }}", names.join(", "));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openclaw.json5");
    std::fs::write(&path, text).unwrap();
    let version = OpenClawVersion::V2026_9;
    let loaded = crate::config::load(&[path], &options(version, &[])).unwrap();
    let ctx = LintContext::new(version, &loaded, &[], None);
    let only = Selection { only: vec!["CP201".into()], ..Selection::default() };
    let capped = Selection { finding_cap: Some(FINDINGS_PER_RULE_AND_FILE), ..only.clone() };
    // One suppressed finding is kept past the cap (as suppressed) and counts in no cap.
    let suppress = suppress::Suppressions {
        file: None,
        entries: vec![suppress::Suppression {
            rule: "CP201".into(),
            path: Some("tools.deny[129]".into()),
            agent: None,
            reason: "known".into(),
        }],
    };

    let every = lint(&ctx, &only, &Default::default());
    assert_eq!(every.findings.len(), 130);
    assert!(every.omitted.is_empty());

    let report = lint(&ctx, &capped, &suppress);
    assert_eq!(report.findings.len(), FINDINGS_PER_RULE_AND_FILE);
    assert_eq!(report.suppressed.len(), 1);
    let [omitted] = report.omitted.as_slice() else { panic!("{:?}", report.omitted) };
    assert_eq!((omitted.code, omitted.count, omitted.severity), ("CP201", 29, Severity::Warning));
    assert!(omitted.note.starts_with("29 more warning findings of CP201 in "), "{}", omitted.note);
    assert!(omitted.note.ends_with("--all-findings shows every one"), "{}", omitted.note);
    assert_eq!(report.count(Severity::Warning), 129, "the summary counts what is not shown");
    assert!(suppress.unused(&report.suppressed).is_empty());
}

#[test]
fn a_jobs_cap_is_checked_against_its_run_and_unattended_exec_against_the_fallback() {
    let job = |cap: serde_json::Value| {
        crate::policy::automation::jobs::CronJob(serde_json::json!({
            "id": "nightly", "sessionTarget": "isolated", "payload": {"kind": "agentTurn", "toolsAllow": cap}
        }))
    };
    let v9 = OpenClawVersion::V2026_9;
    let text = "{\n  tools: { deny: [\"exec\"] },\n}";
    let report = lint_with_jobs(v9, text, None, &[], &[job(serde_json::json!(["exec", "read"]))]);
    let stripped = finding(&report, "CP308");
    assert!(stripped.message.contains("names `exec` in its toolsAllow"), "{}", stripped.message);
    assert_eq!(stripped.location.as_ref().map(|l| l.line), Some(2), "{stripped:?}");
    let report = lint_with_jobs(v9, text, None, &[], &[job(serde_json::json!(["exec"]))]);
    assert!(finding(&report, "CP308").message.contains("has no tools"));
    let clean = lint_with_jobs(v9, text, None, &[], &[job(serde_json::json!(["read"]))]);
    assert!(!all_codes(&clean).contains(&"CP308"));

    let asks = "{ agents: { defaults: { heartbeat: { every: \"1h\" } } }, tools: { exec: { host: \"gateway\", ask: \"always\" } } }";
    assert!(all_codes(&lint_text(v9, asks)).contains(&"CP418"));
    let full = serde_json::json!({"version": 1, "defaults": {"askFallback": "full"}});
    assert!(!all_codes(&lint_with_approvals(v9, asks, Some(full))).contains(&"CP418"));
    let unconfigured = "{ tools: { exec: { host: \"gateway\", ask: \"always\" } } }";
    assert!(!all_codes(&lint_text(v9, unconfigured)).contains(&"CP418"), "the default heartbeat is left out");
}

#[test]
fn mcp_rules_judge_an_also_allow_only_where_it_applies() {
    let servers = r#"mcp: { servers: { github: { command: "gh-mcp" } } }"#;
    // A sandbox list with no sandboxed session, a global list the main sessions keep.
    let quiet = format!(
        r#"{{ tools: {{ deny: ["github__search"], sandbox: {{ tools: {{ alsoAllow: ["github__search"] }} }} }}, {servers} }}"#
    );
    assert!(!all_codes(&lint_text(OpenClawVersion::V2026_9, &quiet)).contains(&"CP310"));
    let removed_for_subagents = format!(
        r#"{{ tools: {{ alsoAllow: ["github__search"], subagents: {{ tools: {{ deny: ["github__*"] }} }} }}, {servers} }}"#
    );
    let report = lint_text(OpenClawVersion::V2026_9, &removed_for_subagents);
    assert!(!all_codes(&report).contains(&"CP310"), "main sessions keep it");
    // A namespaced filter pattern, whatever its case.
    let filter = r#"{ mcp: { servers: { github: { command: "x", toolFilter: { exclude: ["GitHub__delete"] } } } } }"#;
    let report = lint_text(OpenClawVersion::V2026_9, filter);
    assert!(finding(&report, "CP205").message.contains("(`delete`)"));
}

/// Lints `text` as an install's own config (`OPENCLAW_CONFIG_PATH`), with its state directory
/// laid out by `lay_out`.
fn lint_install(version: OpenClawVersion, text: &str, lay_out: impl FnOnce(&std::path::Path)) -> LintReport {
    let dir = tempfile::tempdir().unwrap();
    let (state, config) = (dir.path().join("state"), dir.path().join("openclaw.json5"));
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(&config, text).unwrap();
    lay_out(&state);
    let (state, config_text) = (state.display().to_string(), config.display().to_string());
    let env = [("OPENCLAW_STATE_DIR", state.as_str()), ("OPENCLAW_CONFIG_PATH", config_text.as_str())];
    let loaded = crate::config::load(&[config], &options(version, &env)).unwrap();
    let validation = crate::config::validate::check(&loaded, version);
    let ctx = LintContext::new(version, &loaded, &validation.issues, None);
    lint(&ctx, &Selection { severity_min: Severity::Suggestion, ..Selection::default() }, &Default::default())
}

/// Writes rows of the state database's machine state, as 2026.9 keeps them.
fn write_machine_state(state: &std::path::Path, rows: &[(&str, serde_json::Value)]) {
    std::fs::create_dir_all(state.join("state")).unwrap();
    let db = rusqlite::Connection::open(state.join("state/openclaw.sqlite")).unwrap();
    db.execute_batch(
        "CREATE TABLE config_machine_state (state_key TEXT PRIMARY KEY, value_json TEXT, updated_at_ms INTEGER)",
    )
    .unwrap();
    for (key, value) in rows {
        db.execute("INSERT INTO config_machine_state VALUES (?1, ?2, 0)", [*key, &value.to_string()]).unwrap();
    }
}

fn write_package(dir: &std::path::Path, version: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("package.json"), format!(r#"{{"name": "x", "version": "{version}"}}"#)).unwrap();
}

#[test]
fn install_records_of_2026_9_are_read_from_the_state_database() {
    let report = lint_install(
        OpenClawVersion::V2026_9,
        "{ plugins: { allow: [\"demo\", \"ghost\", \"memory-core\"] } }",
        |state| {
            let index = serde_json::json!({"revision": 1, "index": {"installRecords": {
            "demo": {"source": "npm", "spec": " @acme/demo ", "version": "1.0.0"},
            "local": {"source": "path", "spec": "./x"}}}});
            let hooks =
                serde_json::json!({"notify": {"source": "npm", "spec": "notify@1.0.0", "integrity": "sha512-x"}});
            write_machine_state(state, &[("plugins.installedIndex", index), ("hooks.internal.installs", hooks)]);
            write_package(&state.join("extensions/demo"), "1.1.0");
            std::fs::create_dir_all(state.join("extensions/old.bak")).unwrap();
        },
    );
    let unpinned = finding(&report, "CP909");
    assert!(unpinned.message.contains("`demo` is installed from `@acme/demo`"), "{}", unpinned.message);
    let location = unpinned.location.as_ref().unwrap();
    assert!(location.file.ends_with("state/openclaw.sqlite"), "{location:?}");
    assert_eq!(location.path, "plugins.installedIndex.index.installRecords.demo.spec");
    assert!(finding(&report, "CP913").message.contains("recorded as version 1.0.0, but"));
    let codes = all_codes(&report);
    assert!(
        codes.contains(&"CP910") && !codes.contains(&"CP911") && !codes.contains(&"CP912") && !codes.contains(&"CP914")
    );
    // `memory-core` is bundled, `old.bak` is a folder 2026.9 skips: only `ghost` is a phantom.
    let phantoms: Vec<&Finding> = report.findings.iter().filter(|f| f.code == "CP917").collect();
    assert_eq!(phantoms.len(), 1, "{phantoms:?}");
    assert_eq!(phantoms[0].location.as_ref().unwrap().path, "plugins.allow[1]");
    assert!(!codes.contains(&"CP915"), "plugins.allow is set");
    assert!(codes.contains(&"CP916"), "no profile lets plugin tools through");
}

#[test]
fn an_unreadable_state_database_is_reported_without_a_check_id() {
    let report = lint_install(OpenClawVersion::V2026_9, "{}", |state| {
        std::fs::create_dir_all(state.join("state")).unwrap();
        std::fs::write(state.join("state/openclaw.sqlite"), "not a database, but long enough to have a header")
            .unwrap();
    });
    let unreadable: Vec<&Finding> = report.findings.iter().filter(|f| f.code == "CP909" || f.code == "CP911").collect();
    assert_eq!(unreadable.len(), 2, "{unreadable:?}");
    assert!(unreadable.iter().all(|f| f.openclaw_check.is_none() && f.severity == Severity::Error));
    assert!(unreadable[0].message.contains("stops with an error"), "{}", unreadable[0].message);
}

#[test]
fn install_records_of_2026_2_are_config_values_and_drift_needs_the_install() {
    let text =
        "{\n  plugins: { installs: { demo: { source: \"npm\", spec: \"demo@1.0.0\", version: \"1.0.0\" } } },\n}";
    let report =
        lint_install(OpenClawVersion::V2026_2, text, |state| write_package(&state.join("extensions/demo"), "2.0.0"));
    let drift = finding(&report, "CP913");
    let location = drift.location.as_ref().unwrap();
    assert_eq!((location.line, location.path.as_str()), (2, "plugins.installs.demo.version"), "{location:?}");
    let codes = all_codes(&report);
    assert!(codes.contains(&"CP910") && !codes.contains(&"CP909"));
    assert_eq!(finding(&report, "CP915").severity, Severity::Security);
    // Not the install's config: the records still count, the installed packages do not.
    let elsewhere = all_codes(&lint_text(OpenClawVersion::V2026_2, text));
    assert!(elsewhere.contains(&"CP910") && !elsewhere.contains(&"CP913") && !elsewhere.contains(&"CP915"));
}

#[test]
fn a_configured_channel_with_native_skill_commands_makes_a_missing_allowlist_critical() {
    let text = r#"{ channels: { telegram: { botToken: "123:abc" } } }"#;
    let report = lint_install(OpenClawVersion::V2026_9, text, |state| {
        std::fs::create_dir_all(state.join("extensions/demo")).unwrap()
    });
    assert_eq!(finding(&report, "CP915").severity, Severity::Error);
    let off = r#"{ channels: { telegram: { botToken: "123:abc", commands: { nativeSkills: false } } } }"#;
    let report = lint_install(OpenClawVersion::V2026_9, off, |state| {
        std::fs::create_dir_all(state.join("extensions/demo")).unwrap()
    });
    assert_eq!(finding(&report, "CP915").severity, Severity::Security);
}

#[test]
fn safe_bins_without_a_profile_are_reported_where_the_effective_list_is_written() {
    let v = OpenClawVersion::V2026_9;
    // `git` has no profile, `cut` has the release's own, `tool` the config's; `python3` is CP405's.
    let report = lint_text(
        v,
        r#"{ tools: { exec: { safeBins: ["git", "cut", "tool", "python3"], safeBinProfiles: { tool: {} } } } }"#,
    );
    let unprofiled: Vec<(&str, Option<&str>)> = (report.findings.iter())
        .filter(|f| f.code == "CP419")
        .map(|f| (f.path.as_deref().unwrap_or_default(), f.agent.as_deref()))
        .collect();
    assert_eq!(unprofiled, [("tools.exec.safeBins[0]", None)]);
    // An agent's own list replaces the global one: only its entries count, reported for it.
    let report = lint_text(
        v,
        r#"{ tools: { exec: { safeBins: ["git"] } },
             agents: { entries: { ops: { tools: { exec: { safeBins: ["make"] } } } } } }"#,
    );
    let paths: Vec<(&str, Option<&str>)> = (report.findings.iter())
        .filter(|f| f.code == "CP419")
        .map(|f| (f.path.as_deref().unwrap_or_default(), f.agent.as_deref()))
        .collect();
    assert_eq!(paths, [("agents.entries.ops.tools.exec.safeBins[0]", Some("ops"))]);
}
