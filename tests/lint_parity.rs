//! Parity with `openclaw security audit`, without Node: every fixture under `fixtures/lint/` is
//! linted and the set of (checkId, severity) of the checks clawpolicy mirrors is compared with
//! what the real audit reported for it (`openclaw-audit-<release>.json`, recorded by
//! `fixtures/lint/record-audits.sh`). Every mismatch fails unless `KNOWN_DIFFERENCES` lists it
//! with a reason.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clawpolicy::OpenClawVersion;
use clawpolicy::config::{LoadOptions, load, validate};
use clawpolicy::exec::approvals::{self, ApprovalsInput};
use clawpolicy::lint::{self, LintContext, Selection, Severity, all_rules};
use serde_json::Value;

/// The environment the audits were recorded with (see record-audits.sh); values are not secrets.
const FIXTURE_ENV: &[(&str, &str)] = &[
    ("HOOKS_TOKEN", "hooks-token-from-env-0123456789"),
    ("OPENCLAW_GATEWAY_TOKEN", "gateway-token-from-env-0123456789"),
];

/// A mismatch that is understood: (fixture, release, checkId, audit severity, why).
/// `missing` = the audit reports it and clawpolicy does not; otherwise clawpolicy reports extra.
struct KnownDifference {
    fixture: &'static str,
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
    all_rules().iter().filter(|r| r.versions.contains(&version)).filter_map(|r| r.openclaw_check).any(|template| {
        let (t, c): (Vec<&str>, Vec<&str>) = (template.split('.').collect(), check_id.split('.').collect());
        t.len() == c.len() && t.iter().zip(&c).all(|(t, c)| t == c || (t.starts_with('<') && t.ends_with('>')))
    })
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lint")
}

fn config_file(dir: &Path, version: OpenClawVersion) -> PathBuf {
    match version {
        OpenClawVersion::V2026_9 => dir.join("openclaw.json5"),
        OpenClawVersion::V2026_2 => dir.join("openclaw-2026.2.json5"),
    }
}

fn recorded(dir: &Path, version: OpenClawVersion) -> BTreeSet<Pair> {
    let path = dir.join(format!("openclaw-audit-{version}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let report: Value = serde_json::from_str(&text).unwrap();
    let findings =
        report["findings"].as_array().unwrap_or_else(|| panic!("{}: the audit refused the config", path.display()));
    findings
        .iter()
        .map(|f| (f["checkId"].as_str().unwrap().to_string(), parse_severity(f["severity"].as_str().unwrap())))
        .filter(|(id, _)| mirrored(version, id))
        .collect()
}

fn options(dir: &Path, version: OpenClawVersion) -> LoadOptions {
    LoadOptions {
        version,
        env: FIXTURE_ENV.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        cwd: dir.to_path_buf(),
    }
}

/// Whether the release refuses the fixture's config (so its audit never runs).
fn refused(dir: &Path, version: OpenClawVersion) -> bool {
    load(&[config_file(dir, version)], &options(dir, version))
        .map_or(true, |loaded| !validate(&loaded, version).is_empty())
}

fn linted(dir: &Path, version: OpenClawVersion) -> BTreeSet<Pair> {
    let loaded = load(&[config_file(dir, version)], &options(dir, version)).unwrap();
    let issues = validate(&loaded, version);
    let store = dir.join("exec-approvals.json");
    let approvals = store.exists().then(|| {
        let document = serde_json::from_str(&std::fs::read_to_string(&store).unwrap()).unwrap();
        approvals::load(&ApprovalsInput::Document(document), version)
    });
    let ctx = LintContext::new(version, &loaded, &issues, approvals.as_ref());
    let selection = Selection { severity_min: Severity::Suggestion, ..Selection::default() };
    let report = lint::lint(&ctx, &selection, &Default::default());
    report.findings.iter().filter_map(|f| Some((f.openclaw_check.clone()?, audit_severity(f.severity)))).collect()
}

#[test]
fn findings_agree_with_the_recorded_audits() {
    let mut failures = Vec::new();
    let mut summary = BTreeMap::new();
    let mut fixtures: Vec<PathBuf> =
        std::fs::read_dir(fixtures_dir()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    fixtures.sort();
    assert!(fixtures.len() >= 8, "expected at least 8 lint fixtures");
    for dir in &fixtures {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        for version in [OpenClawVersion::V2026_9, OpenClawVersion::V2026_2] {
            if !config_file(dir, version).exists() {
                continue;
            }
            if !dir.join(format!("openclaw-audit-{version}.json")).exists() {
                // Only a config the release refuses has no audit to compare with.
                assert!(refused(dir, version), "{name}: record its audit with fixtures/lint/record-audits.sh");
                continue;
            }
            let release = version.to_string();
            let expected = recorded(dir, version);
            let actual = linted(dir, version);
            let known = |pair: &Pair, missing: bool| {
                KNOWN_DIFFERENCES.iter().any(|k| {
                    k.fixture == name
                        && k.release == release
                        && k.check_id == pair.0
                        && k.severity == pair.1
                        && k.missing == missing
                })
            };
            for pair in expected.difference(&actual).filter(|p| !known(p, true)) {
                failures.push(format!(
                    "{name} ({release}): the audit reports {} ({}), clawpolicy does not",
                    pair.0, pair.1
                ));
            }
            for pair in actual.difference(&expected).filter(|p| !known(p, false)) {
                failures.push(format!(
                    "{name} ({release}): clawpolicy reports {} ({}), the audit does not",
                    pair.0, pair.1
                ));
            }
            summary.insert(format!("{name} ({release})"), (expected.intersection(&actual).count(), expected.len()));
        }
    }
    for (fixture, (agreeing, expected)) in &summary {
        eprintln!("{fixture}: {agreeing}/{expected} audit findings matched");
    }
    assert!(failures.is_empty(), "parity failures:\n{}", failures.join("\n"));
}

#[test]
fn known_differences_are_still_different() {
    for k in KNOWN_DIFFERENCES {
        let dir = fixtures_dir().join(k.fixture);
        let version: OpenClawVersion = k.release.parse().unwrap();
        let pair = (k.check_id.to_string(), parse_severity(k.severity));
        let (expected, actual) = (recorded(&dir, version), linted(&dir, version));
        let still = if k.missing {
            expected.contains(&pair) && !actual.contains(&pair)
        } else {
            actual.contains(&pair) && !expected.contains(&pair)
        };
        assert!(
            still,
            "{} ({}) {}: no longer differs ({}); remove it from KNOWN_DIFFERENCES",
            k.fixture, k.release, k.check_id, k.why
        );
    }
}
