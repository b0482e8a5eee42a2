//! `test --bless`: write what the sessions do now as the expectation, either into an existing
//! suite (each case keeps the kinds of checks it had) or as a new suite with one case per
//! enumerated session of a config (scaffolding). The suite is written atomically (a temporary
//! file in the same folder, renamed over it) and never through a symlink that leaves its folder.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::run::SuiteRun;
use super::{Case, CaseContext, Expect, Suite};
use crate::OpenClawVersion;
use crate::fleet::contexts;

/// `suite` with every expectation replaced by the behaviour `run` observed. A tool listed as
/// present that is now absent moves to `absent` (and the other way round), so every tool the
/// suite named stays named. Lint expectations are kept as written.
pub fn update(version: OpenClawVersion, suite: &Suite, run: &SuiteRun) -> Suite {
    let pack = version.policy();
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
    Suite { schema: None, openclaw_version: Some(version.line().to_string()), config: config_files, cases }
}

/// The blessed suite could not be written.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum WriteError {
    #[error("refusing to write {path}: it is a symlink to {target}, outside the suite's folder {folder}")]
    #[diagnostic(code(test::write), help("replace the symlink with the suite file, or bless the file it points to"))]
    SymlinkLeavesFolder { path: String, target: String, folder: String },
    #[error("cannot write {path}: {message}")]
    #[diagnostic(code(test::write))]
    Io { path: String, message: String },
}

/// Writes `text` to the suite at `path`: through a symlink only when it stays inside the suite's
/// folder (the link is kept), atomically in every case.
pub fn write(path: &Path, text: &str) -> Result<(), WriteError> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let folder = std::fs::canonicalize(folder)
        .map_err(|e| WriteError::Io { path: path.display().to_string(), message: e.to_string() })?;
    crate::guards::write::write_inside(path, text, &folder).map_err(|refusal| match refusal {
        crate::guards::write::WriteRefusal::Outside { target, folder } => WriteError::SymlinkLeavesFolder {
            path: path.display().to_string(),
            target: target.display().to_string(),
            folder: folder.display().to_string(),
        },
        crate::guards::write::WriteRefusal::Io(e) => {
            WriteError::Io { path: path.display().to_string(), message: e.to_string() }
        }
    })
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
        let opts = crate::config::loading::process_options(OpenClawVersion::V2026_9);
        let loaded = crate::config::loading::load_files(&[dir.path().join("c.json5")], &opts).unwrap();
        let suite = scaffold(OpenClawVersion::V2026_9, vec!["c.json5".into()], loaded.config());
        let outcome =
            run::run(&suite, dir.path(), &crate::config::loading::process_options(OpenClawVersion::V2026_2), &[])
                .unwrap();
        assert_eq!(outcome.openclaw_version, "2026.9.6", "the suite names its release");
        assert_eq!(outcome.failed(), 0);
        for agent in &outcome.coverage[0].agents {
            assert!(agent.uncovered.is_empty(), "{agent:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn bless_never_writes_through_a_symlink_out_of_the_suite_folder() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(base.join("suites")).unwrap();
        std::fs::create_dir_all(base.join("elsewhere")).unwrap();
        let dangling = base.join("suites/suite.yaml");
        std::os::unix::fs::symlink("../elsewhere/suite.yaml", &dangling).unwrap();
        let error = write(&dangling, "cases: []\n").unwrap_err();
        assert!(matches!(error, WriteError::SymlinkLeavesFolder { .. }), "{error}");
        let target = base.join("elsewhere/suite.yaml").display().to_string();
        assert!(error.to_string().contains(&format!("a symlink to {target}")), "{error}");
        // Named relative to the working directory, the link is still resolved from its own folder.
        let relative = pathdiff(&dangling);
        assert!(write(&relative, "x").unwrap_err().to_string().contains(&target));
        assert!(!base.join("elsewhere/suite.yaml").exists(), "nothing was written outside");
        std::fs::write(base.join("elsewhere/suite.yaml"), "old").unwrap();
        assert!(write(&dangling, "new").is_err(), "an existing target outside is refused too");
        assert_eq!(std::fs::read_to_string(base.join("elsewhere/suite.yaml")).unwrap(), "old");
        // A link inside the folder is written through and stays a link; plain files are replaced.
        let inner = base.join("suites/alias.yaml");
        std::os::unix::fs::symlink("real.yaml", &inner).unwrap();
        write(&inner, "one").unwrap();
        assert_eq!(std::fs::read_to_string(base.join("suites/real.yaml")).unwrap(), "one");
        let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&inner).unwrap().permissions());
        assert_eq!(mode & 0o777, 0o644, "not the temporary file's private mode");
        assert!(std::fs::symlink_metadata(&inner).unwrap().file_type().is_symlink());
        write(&base.join("suites/real.yaml"), "two").unwrap();
        assert_eq!(std::fs::read_to_string(&inner).unwrap(), "two");
        let leftovers = std::fs::read_dir(base.join("suites")).unwrap().filter_map(Result::ok);
        assert!(leftovers.filter(|e| e.file_name().to_string_lossy().starts_with(".clawpolicy")).count() == 0);
    }

    /// `path` relative to the current directory (tests run from the crate root).
    fn pathdiff(path: &std::path::Path) -> PathBuf {
        let cwd = std::env::current_dir().unwrap();
        let depth = cwd.components().count() - 1;
        let mut relative: PathBuf = std::iter::repeat_n("..", depth).collect();
        relative.push(path.strip_prefix("/").unwrap());
        relative
    }

    #[test]
    fn update_keeps_the_kinds_of_checks() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("c.json5"), r#"{ tools: { deny: ["exec"] } }"#).unwrap();
        let yaml = "config: [c.json5]\ncases:\n  - name: one\n    expect:\n      present: [exec, read]\n      \
                    removed-by: {write: tools.allow}\n      exec: [{command: ls, decision: allow}]\n";
        let suite: Suite = serde_yaml_ng::from_str(yaml).unwrap();
        let outcome =
            run::run(&suite, dir.path(), &crate::config::loading::process_options(OpenClawVersion::V2026_9), &[])
                .unwrap();
        assert_eq!(outcome.failed(), 1);
        let blessed = update(OpenClawVersion::V2026_9, &suite, &outcome);
        let expect = &blessed.cases[0].expect;
        assert_eq!(expect.present, ["read", "write"]);
        assert_eq!(expect.absent, ["exec"]);
        assert!(expect.removed_by.is_empty() && expect.exactly.is_none());
        assert_eq!(expect.exec[0].decision, crate::fleet::probe::ExecVerdict::Unavailable);
        assert_eq!(
            run::run(&blessed, dir.path(), &crate::config::loading::process_options(OpenClawVersion::V2026_9), &[])
                .unwrap()
                .failed(),
            0
        );
    }
}
