//! `test --bless`: write what the sessions do now as the expectation, either into an existing
//! suite (each case keeps the kinds of checks it had) or as a new suite with one case per
//! enumerated session of a config (scaffolding).

use std::path::PathBuf;

use serde_json::Value;

use super::run::SuiteRun;
use super::{Case, CaseContext, Expect, Suite};
use crate::OpenClawVersion;
use crate::contexts;
use crate::pack::VersionPack;

/// `suite` with every expectation replaced by the behaviour `run` observed. A tool listed as
/// present that is now absent moves to `absent` (and the other way round), so every tool the
/// suite named stays named. Lint expectations are kept as written.
pub fn update(version: OpenClawVersion, suite: &Suite, run: &SuiteRun) -> Suite {
    let pack = VersionPack::get(version);
    let mut blessed = suite.clone();
    for (case, result) in blessed.cases.iter_mut().zip(&run.cases) {
        let observed = &result.observed;
        let expect = &mut case.expect;
        let mut named: Vec<String> = expect.present.iter().chain(&expect.absent).map(|t| pack.normalize(t)).collect();
        let mut removed_by = std::collections::BTreeMap::new();
        for tool in expect.removed_by.keys().map(|t| pack.normalize(t)) {
            match observed.removed_by.get(&tool) {
                Some(step) => {
                    removed_by.insert(tool, step.clone());
                }
                None => named.push(tool),
            }
        }
        named.sort();
        named.dedup();
        let (present, absent): (Vec<String>, Vec<String>) = named.into_iter().partition(|t| observed.tools.contains(t));
        expect.present = present;
        expect.absent = absent;
        expect.removed_by = removed_by;
        if expect.exactly.is_some() {
            expect.exactly = Some(observed.tools.clone());
        }
        for (expectation, (_, verdict)) in expect.exec.iter_mut().zip(&observed.exec) {
            expectation.decision = *verdict;
        }
    }
    blessed
}

/// A new suite: one case per enumerated session of `config`, expecting its exact tool set.
/// `config_files` are written as given (relative to the suite file).
pub fn scaffold(version: OpenClawVersion, config_files: Vec<PathBuf>, config: &Value) -> Suite {
    let evaluated = contexts::evaluate(version, config, contexts::enumerate(version, config, &[]));
    let cases = evaluated
        .iter()
        .filter_map(|cell| {
            let resolution = cell.result.as_ref().ok()?;
            Some(Case {
                name: cell.context.cell(),
                config: Vec::new(),
                context: CaseContext::from_session(&cell.context.ctx),
                expect: Expect { exactly: Some(resolution.tools.clone()), ..Expect::default() },
            })
        })
        .collect();
    Suite { schema: None, openclaw_version: Some(version.short().to_string()), config: config_files, cases }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::run;

    #[test]
    fn a_scaffold_passes_and_covers_every_context() {
        let dir = tempfile::tempdir().unwrap();
        let config = r#"{ agents: { ownership: "explicit", entries: { a: {}, b: { tools: { deny: ["exec"] } } } },
            tools: { byProvider: { openai: { deny: ["read"] } } },
            channels: { telegram: { groups: { "-100": { toolsBySender: { "id:U1": { deny: ["write"] } } } } } } }"#;
        std::fs::write(dir.path().join("c.json5"), config).unwrap();
        let opts = crate::loading::process_options(OpenClawVersion::V2026_9);
        let loaded = crate::loading::load_files(&[dir.path().join("c.json5")], &opts).unwrap();
        let suite = scaffold(OpenClawVersion::V2026_9, vec!["c.json5".into()], &loaded.config);
        let outcome =
            run::run(&suite, dir.path(), &crate::loading::process_options(OpenClawVersion::V2026_2), &[]).unwrap();
        assert_eq!(outcome.openclaw_version, "2026.9.6", "the suite names its release");
        assert_eq!(outcome.failed(), 0);
        for agent in &outcome.coverage[0].agents {
            assert!(agent.uncovered.is_empty(), "{agent:?}");
        }
    }

    #[test]
    fn update_keeps_the_kinds_of_checks() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("c.json5"), r#"{ tools: { deny: ["exec"] } }"#).unwrap();
        let yaml = "config: [c.json5]\ncases:\n  - name: one\n    expect:\n      present: [exec, read]\n      \
                    removed-by: {write: tools.allow}\n      exec: [{command: ls, decision: allow}]\n";
        let suite: Suite = serde_yaml_ng::from_str(yaml).unwrap();
        let outcome =
            run::run(&suite, dir.path(), &crate::loading::process_options(OpenClawVersion::V2026_9), &[]).unwrap();
        assert_eq!(outcome.failed(), 1);
        let blessed = update(OpenClawVersion::V2026_9, &suite, &outcome);
        let expect = &blessed.cases[0].expect;
        assert_eq!(expect.present, ["read", "write"]);
        assert_eq!(expect.absent, ["exec"]);
        assert!(expect.removed_by.is_empty() && expect.exactly.is_none());
        assert_eq!(expect.exec[0].decision, crate::probe::ExecVerdict::Unavailable);
        assert_eq!(
            run::run(&blessed, dir.path(), &crate::loading::process_options(OpenClawVersion::V2026_9), &[])
                .unwrap()
                .failed(),
            0
        );
    }
}
