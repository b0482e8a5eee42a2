//! The CI integrations run locally on a throwaway git repository whose last commit loosens the
//! config, as a pull request would: the GitHub Action's steps (scripts/github-action.sh, with
//! GitHub's files GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_PATH in a temporary folder), the
//! GitLab CI snippet of docs/ci.md, and the pre-commit hooks' definitions.

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
    fn step(&self, step: &str, settings: Settings) -> Output {
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
        // Each step has an outputs file of its own.
        let _ = std::fs::remove_file(self.runner("GITHUB_OUTPUT"));
        for file in ["GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_PATH"] {
            cmd.env(file, self.runner(file));
        }
        cmd.env("RUNNER_TEMP", self.runner("")).env("GIT_CONFIG_NOSYSTEM", "1").env("GIT_CONFIG_GLOBAL", "/dev/null");
        cmd.output().unwrap()
    }

    /// Puts a command `name` running the shell `script` in a folder of this test's own, and
    /// returns a PATH that finds it first.
    fn shim(&self, name: &str, script: &str) -> String {
        let bin = self.dir.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join(name), format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(bin.join(name), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
    }

    /// The outputs of the last step (the last value of each).
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

/// Environment variables for a step: name, value.
type Settings<'a> = &'a [(&'a str, &'a str)];

/// One `check` per row, each with its own GITHUB_OUTPUT as on GitHub: the inputs, then the exit
/// code, the outputs lint-exit-code, diff-exit-code and new-access, whether a SARIF file is
/// offered for upload, and a line of the log.
#[test]
fn check_exit_code_and_outputs_follow_the_inputs() {
    let pr = PullRequest::new();
    #[rustfmt::skip]
    let cases: [(Settings, i32, [&str; 3], bool, &str); 5] = [
        (&[("CLAWPOLICY_FAIL_ON", "none")], 0, ["1", "1", "true"], true, "::error file=openclaw.json5,"),
        (&[("CLAWPOLICY_FAIL_ON", "new-access"), ("CLAWPOLICY_DIFF", "false")], 0, ["1", "", "false"], true, "::warning file=openclaw.json5,"),
        // With the gateway's token in the job's environment, the config has no error-level finding.
        (&[("CLAWPOLICY_BASE_REV", ""), ("CLAWPOLICY_SEVERITY_MIN", "error"), ("OPENCLAW_GATEWAY_TOKEN", "0123456789abcdef0123456789abcdef")], 0, ["0", "", "false"], true, "no findings"),
        (&[("CLAWPOLICY_BASE_REV", ""), ("CLAWPOLICY_DIFF", "true")], 2, ["1", "", ""], true, "diff: no base revision"),
        (&[("CLAWPOLICY_CONFIG", "missing.json5"), ("CLAWPOLICY_BASE_REV", "")], 2, ["2", "", "false"], false, "could not answer"),
    ];
    for (settings, code, [lint, diff, new_access], sarif, log) in cases {
        let check = pr.step("check", settings);
        let outputs = pr.outputs();
        let output = |name: &str| outputs.get(name).map_or("", String::as_str);
        let got = (check.status.code(), [output("lint-exit-code"), output("diff-exit-code"), output("new-access")]);
        assert_eq!(got, (Some(code), [lint, diff, new_access]), "{settings:?}: {}", stdout(&check));
        assert_eq!(outputs.contains_key("sarif-file"), sarif, "{settings:?}: {outputs:?}");
        assert!(stdout(&check).contains(log), "{settings:?}: no {log:?} in {}", stdout(&check));
    }
}

#[test]
fn install_asks_npm_for_the_actions_own_version_without_scripts() {
    let pr = PullRequest::new();
    // An `npm` that records its arguments and installs the clawpolicy built here.
    let path = pr.shim(
        "npm",
        &format!(
            "echo \"$@\" > '{}'\nmkdir -p \"$3/node_modules/.bin\"\nln -s '{BINARY}' \"$3/node_modules/.bin/clawpolicy\"",
            pr.runner("npm-args").display()
        ),
    );
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

/// The YAML code block that follows `heading` in docs/ci.md.
fn ci_doc_yaml(heading: &str) -> serde_yaml_ng::Value {
    let doc = std::fs::read_to_string(Path::new(MANIFEST).join("docs/ci.md")).unwrap();
    let section = &doc[doc.find(heading).unwrap_or_else(|| panic!("no {heading} in docs/ci.md"))..];
    let start = section.find("```yaml\n").unwrap() + "```yaml\n".len();
    let block = &section[start..start + section[start..].find("```\n").unwrap()];
    serde_yaml_ng::from_str(block).unwrap()
}

/// Runs a GitLab job of the snippet as the runner does (before_script of the job it extends, then
/// script, in one bash with errexit and pipefail) in the checkout, with `npm` doing nothing and
/// `clawpolicy` the binary built here.
fn run_gitlab_job(pr: &PullRequest, pipeline: &serde_yaml_ng::Value, job: &str, env: &[(&str, &str)]) -> Output {
    let job = &pipeline[job];
    let template = &pipeline[job["extends"].as_str().unwrap()];
    let lines: Vec<&str> = [&template["before_script"], &job["script"]]
        .into_iter()
        .flat_map(|list| list.as_sequence().unwrap())
        .map(|line| line.as_str().unwrap())
        .collect();
    pr.shim("npm", "exit 0");
    let path = pr.shim("clawpolicy", &format!("exec '{BINARY}' \"$@\""));
    let mut cmd = Command::new("bash");
    cmd.args(["-c", &format!("set -eo pipefail\n{}", lines.join("\n"))]).current_dir(pr.checkout());
    for (name, value) in pipeline["variables"].as_mapping().unwrap() {
        cmd.env(name.as_str().unwrap(), value.as_str().unwrap());
    }
    cmd.env("PATH", path);
    cmd.env("GIT_CONFIG_NOSYSTEM", "1").env("GIT_CONFIG_GLOBAL", "/dev/null").envs(env.iter().copied());
    cmd.output().unwrap()
}

#[test]
fn gitlab_lint_job_writes_junit_and_code_quality_reports() {
    let pr = PullRequest::new();
    let pipeline = ci_doc_yaml("## GitLab CI");
    std::fs::rename(
        pr.checkout().join("openclaw.json5"),
        pr.checkout().join(pipeline["variables"]["OPENCLAW_CONFIG"].as_str().unwrap()),
    )
    .unwrap();
    let job = run_gitlab_job(&pr, &pipeline, "clawpolicy-lint", &[]);
    assert_eq!(job.status.code(), Some(1), "findings fail the job: {}", String::from_utf8_lossy(&job.stderr));
    assert!(stdout(&job).contains("CP401 exec-security-full"), "the log shows the findings");

    let reports = &pipeline["clawpolicy-lint"]["artifacts"]["reports"];
    let junit = std::fs::read_to_string(pr.checkout().join(reports["junit"].as_str().unwrap())).unwrap();
    assert!(junit.contains("<testsuite") && junit.contains("CP401"), "{junit}");
    let quality: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(pr.checkout().join(reports["codequality"].as_str().unwrap())).unwrap(),
    )
    .unwrap();
    let all = quality.as_array().unwrap();
    let mut fingerprints: Vec<&str> = all.iter().map(|i| i["fingerprint"].as_str().unwrap()).collect();
    fingerprints.sort_unstable();
    fingerprints.dedup();
    assert_eq!(fingerprints.len(), all.len(), "GitLab keeps one issue per fingerprint: {quality}");
    // The config's exec findings (the gateway and trust-model audit rules report too).
    let issues: Vec<&serde_json::Value> =
        all.iter().filter(|i| i["check_name"].as_str().unwrap().starts_with("CP401")).collect();
    assert_eq!(issues.len(), 3, "{quality}");
    for issue in issues {
        assert_eq!(issue["check_name"], "CP401 exec-security-full");
        assert_eq!(issue["severity"], "major");
        assert_eq!(issue["location"], serde_json::json!({"path": "openclaw.json5", "lines": {"begin": 15}}));
        assert!(issue["description"].as_str().unwrap().starts_with("exec security is `full`"), "{issue}");
    }

    std::fs::write(pr.checkout().join("openclaw.json5"), "{ tools: [").unwrap();
    let broken = run_gitlab_job(&pr, &pipeline, "clawpolicy-lint", &[]);
    assert_eq!(broken.status.code(), Some(1), "an unreadable config stops the job at `test`");
    assert!(String::from_utf8_lossy(&broken.stderr).contains("JSON5 parse failed"), "the log says why");
}

#[test]
fn gitlab_diff_job_fails_a_merge_request_that_grants_access() {
    let pr = PullRequest::new();
    let pipeline = ci_doc_yaml("## GitLab CI");
    let rules = serde_yaml_ng::to_string(&pipeline["clawpolicy-diff"]["rules"]).unwrap();
    assert!(rules.contains(r#"$CI_PIPELINE_SOURCE == "merge_request_event""#), "{rules}");
    let job = run_gitlab_job(&pr, &pipeline, "clawpolicy-diff", &[("CI_MERGE_REQUEST_DIFF_BASE_SHA", &pr.base)]);
    assert_eq!(job.status.code(), Some(1), "{}", String::from_utf8_lossy(&job.stderr));
    assert!(stdout(&job).contains("Became reachable:\n  dev +browser"), "{}", stdout(&job));
}

#[test]
fn pre_commit_hooks_lint_when_a_config_changes() {
    let text = std::fs::read_to_string(Path::new(MANIFEST).join(".pre-commit-hooks.yaml")).unwrap();
    let hooks: Vec<serde_yaml_ng::Value> = serde_yaml_ng::from_str(&text).unwrap();
    let ids: Vec<&str> = hooks.iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["clawpolicy-lint", "clawpolicy-test"]);
    for hook in &hooks {
        assert_eq!(hook["language"], "rust", "built from this repository by cargo install");
        assert_eq!(hook["pass_filenames"], false, "the configs to check are the args, not the changed files");
        let files = regex::Regex::new(hook["files"].as_str().unwrap()).unwrap();
        for changed in
            ["openclaw.json", "deploy/openclaw.prod.json5", "agents/dev.json5", "clawpolicy.suppressions.yaml"]
        {
            assert!(files.is_match(changed), "{:?} skips {changed}", hook["id"]);
        }
        for unrelated in ["package.json", "src/main.rs", "README.md"] {
            assert!(!files.is_match(unrelated), "{:?} runs for {unrelated}", hook["id"]);
        }
    }

    let pr = PullRequest::new();
    let lint = &hooks[0];
    let entry: Vec<&str> = lint["entry"].as_str().unwrap().split(' ').collect();
    assert_eq!(entry[0], "clawpolicy");
    let args: Vec<&str> = lint["args"].as_sequence().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    let run = |dir: &Path| Command::new(BINARY).args(&entry[1..]).args(&args).current_dir(dir).output().unwrap();
    let missing = run(&pr.checkout());
    assert_eq!(missing.status.code(), Some(2), "the default config openclaw.json is not there");
    std::fs::rename(pr.checkout().join("openclaw.json5"), pr.checkout().join("openclaw.json")).unwrap();
    assert_eq!(run(&pr.checkout()).status.code(), Some(1), "the loosened config has findings");
    let test_hook = hooks[1]["entry"].as_str().unwrap().split(' ').collect::<Vec<_>>();
    let help = Command::new(BINARY).args(&test_hook[1..]).arg("--help").output().unwrap();
    assert!(help.status.success());
}
