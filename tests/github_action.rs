//! The GitHub Action (action.yml) run locally: its steps, scripts/github-action.sh, on a
//! throwaway git repository whose last commit loosens the config, as a pull request would, with
//! GitHub's files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH) in a temporary folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MANIFEST: &str = env!("CARGO_MANIFEST_DIR");
const BINARY: &str = env!("CARGO_BIN_EXE_clawpolicy");

fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(["-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

/// A pull request: `origin` has the base config, then a commit that loosens it; the checkout is a
/// shallow clone of the head (as actions/checkout makes it), so the base commit must be fetched.
struct PullRequest {
    dir: tempfile::TempDir,
    base: String,
}

impl PullRequest {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let origin = dir.path().join("origin");
        std::fs::create_dir(&origin).unwrap();
        git(&origin, &["init", "-q"]);
        let fixture =
            |name: &str| std::fs::read_to_string(Path::new(MANIFEST).join("fixtures/diff").join(name)).unwrap();
        std::fs::write(origin.join("openclaw.json5"), fixture("base.json5")).unwrap();
        git(&origin, &["add", "."]);
        git(&origin, &["commit", "-qm", "base"]);
        let base = git(&origin, &["rev-parse", "HEAD"]);
        std::fs::write(origin.join("openclaw.json5"), fixture("loosen.json5")).unwrap();
        git(&origin, &["commit", "-qam", "loosen"]);
        let url = format!("file://{}", origin.display());
        git(dir.path(), &["clone", "-q", "--depth", "1", &url, "checkout"]);
        std::fs::create_dir(dir.path().join("runner")).unwrap();
        PullRequest { dir, base }
    }

    fn checkout(&self) -> PathBuf {
        self.dir.path().join("checkout")
    }

    fn runner(&self, file: &str) -> PathBuf {
        self.dir.path().join("runner").join(file)
    }

    /// Runs one step of the action with the action's defaults, then `settings` (an empty value
    /// unsets a variable), the way action.yml passes its inputs.
    fn step(&self, step: &str, settings: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new("bash");
        cmd.arg(Path::new(MANIFEST).join("scripts/github-action.sh")).arg(step).current_dir(self.checkout());
        let defaults = [
            ("CLAWPOLICY_BINARY", BINARY),
            ("CLAWPOLICY_CONFIG", "openclaw.json5"),
            ("CLAWPOLICY_SEVERITY_MIN", "warning"),
            ("CLAWPOLICY_FAIL_ON", "findings,new-access"),
            ("CLAWPOLICY_LINT", "true"),
            ("CLAWPOLICY_DIFF", "auto"),
            ("CLAWPOLICY_BASE_REV", self.base.as_str()),
            ("CLAWPOLICY_ANNOTATIONS", "true"),
        ];
        cmd.env_remove("GITHUB_ACTION_REF").env_remove("CLAWPOLICY_VERSION");
        for (name, value) in defaults.iter().chain(settings) {
            cmd.env(name, value);
        }
        for file in ["GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_PATH"] {
            cmd.env(file, self.runner(file));
        }
        cmd.env("RUNNER_TEMP", self.runner("")).env("GIT_CONFIG_NOSYSTEM", "1").env("GIT_CONFIG_GLOBAL", "/dev/null");
        cmd.output().unwrap()
    }

    /// The step outputs written so far (the last value of each).
    fn outputs(&self) -> BTreeMap<String, String> {
        let text = std::fs::read_to_string(self.runner("GITHUB_OUTPUT")).unwrap_or_default();
        text.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_pull_request_that_grants_access_fails_after_writing_sarif_and_annotations() {
    let pr = PullRequest::new();
    let install = pr.step("install", &[]);
    assert!(install.status.success(), "{}", String::from_utf8_lossy(&install.stderr));
    assert_eq!(pr.outputs()["binary"], BINARY);

    let check = pr.step("check", &[]);
    let log = stdout(&check);
    assert_eq!(check.status.code(), Some(1), "{log}");
    let outputs = pr.outputs();
    assert_eq!(outputs["lint-exit-code"], "1", "the loosened config has security findings");
    assert_eq!(outputs["diff-exit-code"], "1");
    assert_eq!(outputs["new-access"], "true");

    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&outputs["sarif-file"]).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    assert!(
        results.iter().all(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "openclaw.json5")
    );

    assert!(log.contains("::warning file=openclaw.json5,"), "lint annotations: {log}");
    assert!(
        log.contains("::error file=openclaw.json5,line=20,col=55,title=dev gains exec in group"),
        "diff annotations: {log}"
    );
    assert!(log.contains("::error title=clawpolicy::this change grants new access"), "{log}");
    let summary = std::fs::read_to_string(pr.runner("GITHUB_STEP_SUMMARY")).unwrap();
    assert!(summary.contains(&format!("### clawpolicy diff against {}", pr.base)), "{summary}");
    assert!(summary.contains("dev +exec in group:telegram:-100"), "{summary}");
}

#[test]
fn fail_on_none_reports_without_failing() {
    let pr = PullRequest::new();
    let check = pr.step("check", &[("CLAWPOLICY_FAIL_ON", "none")]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    assert_eq!(pr.outputs()["new-access"], "true");
    assert!(stdout(&check).contains("::error file=openclaw.json5,"), "annotations still show the new access");
}

#[test]
fn only_new_access_fails_when_fail_on_names_only_it() {
    let pr = PullRequest::new();
    let check = pr.step("check", &[("CLAWPOLICY_FAIL_ON", "new-access"), ("CLAWPOLICY_DIFF", "false")]);
    assert_eq!(check.status.code(), Some(0), "lint findings alone do not fail: {}", stdout(&check));
    let outputs = pr.outputs();
    assert_eq!((outputs["lint-exit-code"].as_str(), outputs["diff-exit-code"].as_str()), ("1", ""));
    assert_eq!(outputs["new-access"], "false");
}

#[test]
fn without_a_base_revision_only_lint_runs() {
    let pr = PullRequest::new();
    let check = pr.step("check", &[("CLAWPOLICY_BASE_REV", ""), ("CLAWPOLICY_SEVERITY_MIN", "error")]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    let outputs = pr.outputs();
    assert_eq!(outputs["lint-exit-code"], "0");
    assert_eq!(outputs["diff-exit-code"], "");
    assert!(!stdout(&check).contains("clawpolicy diff"));

    let forced = pr.step("check", &[("CLAWPOLICY_BASE_REV", ""), ("CLAWPOLICY_DIFF", "true")]);
    assert_eq!(forced.status.code(), Some(2), "diff: true without a base is an error");
    assert!(stdout(&forced).contains("diff: no base revision"));
}

#[test]
fn a_missing_config_exits_2_and_writes_no_sarif() {
    let pr = PullRequest::new();
    let check = pr.step("check", &[("CLAWPOLICY_CONFIG", "missing.json5"), ("CLAWPOLICY_BASE_REV", "")]);
    assert_eq!(check.status.code(), Some(2), "{}", stdout(&check));
    let outputs = pr.outputs();
    assert_eq!(outputs["lint-exit-code"], "2");
    assert!(!outputs.contains_key("sarif-file"), "nothing to upload: {outputs:?}");
}

#[test]
fn install_asks_npm_for_the_actions_own_version_without_scripts() {
    let pr = PullRequest::new();
    // An `npm` that records its arguments and installs the clawpolicy built here.
    let bin = pr.dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let npm = bin.join("npm");
    std::fs::write(
        &npm,
        format!(
            "#!/bin/sh\necho \"$@\" > '{}'\nmkdir -p \"$3/node_modules/.bin\"\nln -s '{BINARY}' \"$3/node_modules/.bin/clawpolicy\"\n",
            pr.runner("npm-args").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&npm, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let install = pr.step("install", &[("CLAWPOLICY_BINARY", ""), ("GITHUB_ACTION_REF", "v1.4.2"), ("PATH", &path)]);
    assert!(install.status.success(), "{}{}", stdout(&install), String::from_utf8_lossy(&install.stderr));
    let args = std::fs::read_to_string(pr.runner("npm-args")).unwrap();
    assert!(args.contains("--ignore-scripts") && args.trim_end().ends_with("clawpolicy@1.4.2"), "{args}");
    let installed = pr.runner("clawpolicy/node_modules/.bin");
    assert_eq!(Path::new(&pr.outputs()["binary"]), installed.join("clawpolicy"));
    assert_eq!(std::fs::read_to_string(pr.runner("GITHUB_PATH")).unwrap().trim(), installed.to_str().unwrap());
}

/// action.yml and the script agree: every input is used and exists, every variable the action
/// sets is one the script reads, and the script it runs is there.
#[test]
fn action_yml_passes_every_input_to_the_script() {
    let action: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&std::fs::read_to_string(Path::new(MANIFEST).join("action.yml")).unwrap()).unwrap();
    let script = std::fs::read_to_string(Path::new(MANIFEST).join("scripts/github-action.sh")).unwrap();
    let inputs: Vec<&str> = action["inputs"].as_mapping().unwrap().keys().map(|k| k.as_str().unwrap()).collect();
    let runs = serde_yaml_ng::to_string(&action["runs"]).unwrap();
    let used = regex::Regex::new(r"inputs\.([a-z-]+)").unwrap();
    let referenced: Vec<&str> = used.captures_iter(&runs).map(|c| c.get(1).unwrap().as_str()).collect();
    for input in &inputs {
        assert!(referenced.contains(input), "input {input} is never used");
    }
    for input in &referenced {
        assert!(inputs.contains(input), "runs uses an undeclared input {input}");
    }
    assert_eq!(action["runs"]["using"], "composite");
    for step in action["runs"]["steps"].as_sequence().unwrap() {
        if let Some(run) = step["run"].as_str() {
            assert!(run.contains("$GITHUB_ACTION_PATH/scripts/github-action.sh"), "{run}");
        }
        for name in step["env"].as_mapping().into_iter().flat_map(|env| env.keys()) {
            let name = name.as_str().unwrap();
            assert!(script.contains(&format!("${{{name}")), "the script never reads {name}");
        }
    }
}
