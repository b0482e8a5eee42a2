//! Parity with `openclaw security audit`, without Node: every recorded audit is compared with
//! clawpolicy's lint of the same config, as the set of (checkId, severity) of the checks clawpolicy
//! mirrors, in both directions. The audits were recorded by `fixtures/lint/record_audits.mjs` (the
//! release's own loader and audit in one process) for
//! * every fixture under `fixtures/lint/` (`openclaw-audit-<release>.json`; the fixture's
//!   `audit-env.json` is its environment, `exec-approvals.json` its approvals store), and
//! * the generated cases `fixtures/lint/generated/cases-<release>.jsonl` (random configs over the
//!   surface the audit reads, `generate_audit_cases.py`), recorded in
//!   `cases-<release>.audit-<release>.jsonl`.
//!
//! Each case is linted as an install in a temporary directory laid out as the recorder lays it out
//! (config file, state directory, `HOME`, with the case's environment), so the checks that read the
//! environment and the install's files see what the audit saw. A config the release refused must be
//! refused by clawpolicy too. Every mismatch fails unless `KNOWN_DIFFERENCES` lists it with a reason.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use clawpolicy::OpenClawVersion;
use clawpolicy::config::{LoadOptions, load, validate};
use clawpolicy::exec::approvals::{self, ApprovalsInput};
use clawpolicy::lint::{self, LintContext, Selection, Severity, all_rules};
use serde_json::Value;

/// A mismatch that is understood: (case, release, checkId, audit severity, why).
/// `missing` = the audit reports it and clawpolicy does not; otherwise clawpolicy reports extra.
struct KnownDifference {
    case: &'static str,
    release: &'static str,
    check_id: &'static str,
    severity: &'static str,
    missing: bool,
    why: &'static str,
}

const KNOWN_DIFFERENCES: &[KnownDifference] = &[];

type Pair = (String, &'static str);

fn audit_severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "critical",
        Severity::Security | Severity::Warning => "warn",
        Severity::Suggestion => "info",
    }
}

fn parse_severity(severity: &str) -> &'static str {
    match severity {
        "critical" => "critical",
        "warn" => "warn",
        "info" => "info",
        other => panic!("unknown audit severity {other}"),
    }
}

/// Whether a concrete checkId is one a rule of `version` mirrors (`<provider>` matches one segment).
fn mirrored(version: OpenClawVersion, check_id: &str) -> bool {
    all_rules().iter().filter(|r| r.applies_to(version)).filter_map(|r| r.openclaw_check).any(|template| {
        let (t, c): (Vec<&str>, Vec<&str>) = (template.split('.').collect(), check_id.split('.').collect());
        t.len() == c.len() && t.iter().zip(&c).all(|(t, c)| t == c || (t.starts_with('<') && t.ends_with('>')))
    })
}

fn lint_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lint")
}

/// The releases whose `openclaw security audit` answers are recorded (not yet 2026.5's).
fn audited_releases() -> Vec<OpenClawVersion> {
    let recorded = |v: OpenClawVersion| lint_dir().join(format!("generated/cases-{v}.audit-{v}.jsonl")).exists();
    OpenClawVersion::ALL.into_iter().filter(|v| recorded(*v)).collect()
}

/// What the real audit said about a case.
enum Recorded {
    /// The release refused the config (its audit never ran).
    Refused,
    Findings(Vec<(String, String)>),
}

/// One config with the environment and store it was audited with.
struct Case {
    name: String,
    version: OpenClawVersion,
    config: String,
    /// Other files beside the config (`$include`s), by name.
    files: Vec<(String, String)>,
    env: Vec<(String, String)>,
    approvals: Option<Value>,
    /// Octal modes of `config`, `stateDir` and the files beside the config (default 600 / 700).
    modes: Vec<(String, String)>,
    /// More paths under the case's root (`state/…`, `home/…`; `/` at the end: a directory), with
    /// their octal modes and, for files, their text (for symbolic links: [`LINK`] and the target).
    tree: Vec<(String, String, String)>,
    /// The state directory's path under the root (default `state`), and whether it or the config
    /// is a symlink to the real one.
    layout: Layout,
    /// Rows of the state database's machine state (2026.9 install records), by key.
    machine_state: Vec<(String, Value)>,
    recorded: Recorded,
}

#[derive(Default)]
struct Layout {
    state_dir: Option<String>,
    state_symlink: bool,
    config_symlink: bool,
}

impl Layout {
    fn read(value: Option<&Value>) -> Layout {
        let Some(layout) = value else { return Layout::default() };
        let flag = |key: &str| layout.get(key).and_then(Value::as_bool).unwrap_or(false);
        Layout {
            state_dir: layout.get("stateDir").and_then(Value::as_str).map(String::from),
            state_symlink: flag("stateSymlink"),
            config_symlink: flag("configSymlink"),
        }
    }
}

fn string_map(value: Option<&Value>) -> Vec<(String, String)> {
    let object = value.and_then(Value::as_object).into_iter().flatten();
    object.map(|(k, v)| (k.clone(), v.as_str().expect("environment values are strings").to_string())).collect()
}

/// `tree` entries: a mode, `{mode, text}`, or `{symlink}` (a link to the text, mode `link`); with
/// `repeat: n`, n entries with `{i}` in the path replaced by 0..n-1.
fn tree(value: Option<&Value>) -> Vec<(String, String, String)> {
    let entries = value.and_then(Value::as_object).into_iter().flatten();
    let repeated = entries.flat_map(|(path, entry)| match entry.get("repeat").and_then(Value::as_u64) {
        Some(n) => (0..n).map(|i| (path.replace("{i}", &i.to_string()), entry)).collect(),
        None => vec![(path.clone(), entry)],
    });
    repeated
        .map(|(path, entry)| match entry {
            Value::String(mode) => (path.clone(), mode.clone(), "{}".to_string()),
            other if other.get("symlink").is_some() => {
                (path.clone(), LINK.to_string(), other["symlink"].as_str().unwrap().into())
            }
            other => (path.clone(), other["mode"].as_str().unwrap().into(), other["text"].as_str().unwrap().into()),
        })
        .collect()
}

/// The mode of a `tree` entry that is a symbolic link (to its text).
const LINK: &str = "link";

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn report_findings(report: &Value) -> Vec<(String, String)> {
    let findings = report["findings"].as_array().expect("a recorded audit has findings");
    findings.iter().map(|f| (f["checkId"].as_str().unwrap().into(), f["severity"].as_str().unwrap().into())).collect()
}

fn config_name(version: OpenClawVersion) -> &'static str {
    if version == OpenClawVersion::V2026_9 { "openclaw.json5" } else { "openclaw-2026.2.json5" }
}

/// The fixtures under `fixtures/lint/` with a config for `version`.
fn fixture_cases(version: OpenClawVersion) -> Vec<Case> {
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(lint_dir()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    let mut cases = Vec::new();
    for dir in dirs {
        let config = dir.join(config_name(version));
        if !config.exists() {
            continue;
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let audit = dir.join(format!("openclaw-audit-{version}.json"));
        let recorded = if audit.exists() {
            Recorded::Findings(report_findings(&serde_json::from_str(&read(&audit)).unwrap()))
        } else {
            Recorded::Refused
        };
        let json = |file: &str| {
            dir.join(file).exists().then(|| serde_json::from_str::<Value>(&read(&dir.join(file))).unwrap())
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().file_name().to_string_lossy().into_owned();
            if file.ends_with(".json5") && file != "openclaw.json5" && file != "openclaw-2026.2.json5" {
                files.push((file.clone(), read(&dir.join(&file))));
            }
        }
        cases.push(Case {
            name,
            version,
            config: read(&config),
            files,
            env: string_map(json("audit-env.json").as_ref()),
            approvals: json("exec-approvals.json"),
            modes: Vec::new(),
            tree: Vec::new(),
            layout: Layout::default(),
            machine_state: Vec::new(),
            recorded,
        });
    }
    cases
}

/// The generated cases of `version` with their recorded audits.
fn generated_cases(version: OpenClawVersion) -> Vec<Case> {
    let dir = lint_dir().join("generated");
    let recorded: HashMap<String, Value> = read(&dir.join(format!("cases-{version}.audit-{version}.jsonl")))
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .map(|line| (line["id"].as_str().unwrap().to_string(), line))
        .collect();
    read(&dir.join(format!("cases-{version}.jsonl")))
        .lines()
        .map(|line| {
            let case: Value = serde_json::from_str(line).unwrap();
            let id = case["id"].as_str().unwrap().to_string();
            let audit = recorded.get(&id).unwrap_or_else(|| panic!("{id} ({version}): no recorded audit; re-record"));
            let recorded = match audit.get("findings").and_then(Value::as_array) {
                Some(findings) => Recorded::Findings(
                    findings.iter().map(|f| (f[0].as_str().unwrap().into(), f[1].as_str().unwrap().into())).collect(),
                ),
                None => Recorded::Refused,
            };
            Case {
                name: id,
                version,
                config: serde_json::to_string_pretty(&case["config"]).unwrap(),
                files: string_map(case.get("files")),
                env: string_map(case.get("env")),
                approvals: case.get("approvals").cloned(),
                modes: string_map(case.get("modes")),
                tree: tree(case.get("tree")),
                layout: Layout::read(case.get("layout")),
                machine_state: case
                    .get("machineState")
                    .and_then(Value::as_object)
                    .map(|rows| rows.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                    .unwrap_or_default(),
                recorded,
            }
        })
        .collect()
}

/// What clawpolicy says of a case: `None` when the release would refuse the config, else the
/// (checkId, severity) pairs of its mirrored findings. The case is laid out as the recorder laid
/// it out: `<root>/openclaw.json5`, `<root>/state` (or the layout's path), `<root>/home`, with the
/// case's symlinks, modes and tree.
fn linted(case: &Case) -> Option<BTreeSet<Pair>> {
    let root = tempfile::tempdir().unwrap();
    let state_name = case.layout.state_dir.as_deref().unwrap_or("state");
    let (home, state, config) =
        (root.path().join("home"), root.path().join(state_name), root.path().join("openclaw.json5"));
    std::fs::create_dir_all(home.join(".openclaw")).unwrap();
    if case.layout.state_symlink {
        let real = root.path().join(format!("{state_name}.real"));
        std::fs::create_dir_all(&real).unwrap();
        symlink(&real, &state);
    } else {
        std::fs::create_dir_all(&state).unwrap();
    }
    if case.layout.config_symlink {
        let real = root.path().join("openclaw.real.json5");
        std::fs::write(&real, &case.config).unwrap();
        symlink(&real, &config);
    } else {
        std::fs::write(&config, &case.config).unwrap();
    }
    for (name, text) in &case.files {
        std::fs::write(root.path().join(name), text).unwrap();
    }
    lay_out_modes(root.path(), case);
    write_machine_state(&state, &case.machine_state);
    let mut env: HashMap<String, String> = [
        ("HOME", home.display().to_string()),
        ("OPENCLAW_STATE_DIR", state.display().to_string()),
        ("OPENCLAW_CONFIG_PATH", config.display().to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    env.extend(case.env.iter().cloned());
    let options = LoadOptions { version: case.version, env: env.into(), cwd: root.path().to_path_buf() };
    let Ok(loaded) = load(&[config], &options) else { return None };
    let issues = validate(&loaded, case.version);
    if !issues.is_empty() {
        return None;
    }
    let approvals =
        case.approvals.clone().map(|document| approvals::load(&ApprovalsInput::Document(document), case.version));
    let ctx = LintContext::new(case.version, &loaded, &issues, approvals.as_ref());
    let selection = Selection { severity_min: Severity::Suggestion, ..Selection::default() };
    let report = lint::lint(&ctx, &selection, &Default::default());
    Some(report.findings.iter().filter_map(|f| Some((f.openclaw_check.clone()?, audit_severity(f.severity)))).collect())
}

/// The state database's machine state as the release writes it (`config_machine_state`).
fn write_machine_state(state_dir: &Path, rows: &[(String, Value)]) {
    if rows.is_empty() {
        return;
    }
    std::fs::create_dir_all(state_dir.join("state")).unwrap();
    let db = rusqlite::Connection::open(state_dir.join("state").join("openclaw.sqlite")).unwrap();
    db.execute_batch(
        "CREATE TABLE config_machine_state (state_key TEXT PRIMARY KEY, value_json TEXT NOT NULL, updated_at_ms INTEGER NOT NULL)",
    )
    .unwrap();
    for (key, value) in rows {
        db.execute("INSERT INTO config_machine_state VALUES (?1, ?2, 0)", [key, &value.to_string()]).unwrap();
    }
}

/// The file modes the recorder gave the case (config 600, state 700, other files 600 unless said).
#[cfg(unix)]
fn lay_out_modes(root: &Path, case: &Case) {
    use std::os::unix::fs::PermissionsExt;
    let mode = |key: &str, default: &str| {
        let text = case.modes.iter().find(|(k, _)| k == key).map_or(default, |(_, m)| m.as_str());
        u32::from_str_radix(text, 8).unwrap()
    };
    let set = |path: &Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    set(&root.join("openclaw.json5"), mode("config", "600"));
    set(&root.join(case.layout.state_dir.as_deref().unwrap_or("state")), mode("stateDir", "700"));
    for (name, _) in &case.files {
        set(&root.join(name), mode(name, "600"));
    }
    for (relative, octal, text) in &case.tree {
        let target = root.join(relative);
        if octal == LINK {
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            symlink(Path::new(text), &target);
            continue;
        }
        if relative.ends_with('/') {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(&target, text).unwrap();
        }
        set(&target, u32::from_str_radix(octal, 8).unwrap());
    }
}

#[cfg(not(unix))]
fn lay_out_modes(_: &Path, _: &Case) {}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

/// Cases with symlinks are recorded on Unix only; elsewhere the link is a copy of nothing.
#[cfg(not(unix))]
fn symlink(_: &Path, _: &Path) {}

/// Agreement on one case: (agreeing pairs, recorded mirrored pairs), or the mismatches.
fn compare(case: &Case) -> Result<(usize, usize), Vec<String>> {
    let release = case.version.to_string();
    let actual = linted(case);
    let expected = match &case.recorded {
        Recorded::Refused => {
            return match actual {
                None => Ok((0, 0)),
                Some(_) => {
                    Err(vec![format!("{} ({release}): the release refuses it, clawpolicy accepts it", case.name)])
                }
            };
        }
        Recorded::Findings(findings) => findings
            .iter()
            .filter(|(id, _)| mirrored(case.version, id))
            .map(|(id, severity)| (id.clone(), parse_severity(severity)))
            .collect::<BTreeSet<Pair>>(),
    };
    let Some(actual) = actual else {
        return Err(vec![format!("{} ({release}): the release accepts it, clawpolicy refuses it", case.name)]);
    };
    let known = |pair: &Pair, missing: bool| {
        KNOWN_DIFFERENCES.iter().any(|k| {
            k.case == case.name
                && k.release == release
                && k.check_id == pair.0
                && k.severity == pair.1
                && k.missing == missing
        })
    };
    let mut failures = Vec::new();
    for pair in expected.difference(&actual).filter(|p| !known(p, true)) {
        failures
            .push(format!("{} ({release}): the audit reports {} ({}), clawpolicy does not", case.name, pair.0, pair.1));
    }
    for pair in actual.difference(&expected).filter(|p| !known(p, false)) {
        failures
            .push(format!("{} ({release}): clawpolicy reports {} ({}), the audit does not", case.name, pair.0, pair.1));
    }
    if failures.is_empty() { Ok((expected.intersection(&actual).count(), expected.len())) } else { Err(failures) }
}

/// Compares every case of a set and prints the set's agreement.
fn check_set(set: &str, cases: &[Case]) {
    let mut failures = Vec::new();
    let mut per_release: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for case in cases {
        let totals = per_release.entry(case.version.to_string()).or_default();
        totals.0 += 1;
        match compare(case) {
            Ok((agreeing, recorded)) => {
                totals.1 += agreeing;
                totals.2 += recorded;
            }
            Err(mut mismatches) => failures.append(&mut mismatches),
        }
    }
    for (release, (configs, agreeing, recorded)) in &per_release {
        eprintln!("{set} ({release}): {configs} configs, {agreeing}/{recorded} mirrored audit findings matched");
    }
    assert!(failures.is_empty(), "{} parity failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn fixtures_agree_with_the_recorded_audits() {
    let cases: Vec<Case> = audited_releases().into_iter().flat_map(fixture_cases).collect();
    assert!(cases.len() >= 20, "expected the lint fixtures of both releases");
    check_set("fixtures", &cases);
}

#[test]
fn generated_configs_agree_with_the_recorded_audits() {
    let mut cases = Vec::new();
    for version in audited_releases() {
        let generated = generated_cases(version);
        assert!(generated.len() >= 200, "expected at least 200 generated configs for {version}");
        cases.extend(generated);
    }
    check_set("generated", &cases);
}

#[test]
fn a_finding_the_audit_did_not_report_fails_the_comparison() {
    let mut case = fixture_cases(OpenClawVersion::V2026_9).into_iter().find(|c| c.name == "hardened").unwrap();
    let Recorded::Findings(findings) = &mut case.recorded else { panic!("hardened is accepted") };
    findings.push(("hooks.path_root".into(), "critical".into()));
    let failures = compare(&case).unwrap_err();
    assert_eq!(failures, ["hardened (2026.9): the audit reports hooks.path_root (critical), clawpolicy does not"]);
}

#[test]
fn known_differences_are_still_different() {
    let all: Vec<Case> = audited_releases()
        .into_iter()
        .flat_map(|version| fixture_cases(version).into_iter().chain(generated_cases(version)))
        .collect();
    for k in KNOWN_DIFFERENCES {
        let case = all.iter().find(|c| c.name == k.case && c.version.to_string() == k.release).unwrap();
        let Recorded::Findings(findings) = &case.recorded else { panic!("{}: refused", k.case) };
        let pair = (k.check_id.to_string(), parse_severity(k.severity));
        let expected = findings.iter().any(|(id, s)| *id == pair.0 && s == pair.1);
        let actual = linted(case).is_some_and(|pairs| pairs.contains(&pair));
        let still = if k.missing { expected && !actual } else { actual && !expected };
        assert!(
            still,
            "{} ({}) {}: no longer differs ({}); remove it from KNOWN_DIFFERENCES",
            k.case, k.release, k.check_id, k.why
        );
    }
}
