//! `clawpolicy completions` and `clawpolicy man` as a user installs them: the bash script
//! completes in a real bash, and every page renders in groff (with preconv, as man(1) runs it) without a warning.

use std::process::Command as Process;

use assert_cmd::Command;

fn clawpolicy() -> Command {
    Command::cargo_bin("clawpolicy").unwrap()
}

fn stdout(args: &[&str]) -> String {
    let output = clawpolicy().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// What bash offers after `words`, with the script sourced as a user's shell sources it.
fn bash_complete(script: &str, words: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clawpolicy.bash");
    std::fs::write(&path, script).unwrap();
    let words_array = words.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(" ");
    let driver = format!(
        "source '{}'; COMP_WORDS=({words_array}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; \
         _clawpolicy clawpolicy '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        path.display(),
        words.len() - 1,
        words.join(" "),
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let output = Process::new("bash").args(["--norc", "-c", &driver]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn bash_completes_subcommands_options_and_values() {
    let script = stdout(&["completions", "bash"]);
    assert_eq!(bash_complete(&script, &["clawpolicy", "li"]), ["lint"]);
    assert!(bash_complete(&script, &["clawpolicy", "lint", "--sev"]).contains(&"--severity-min".to_string()));
    let formats = bash_complete(&script, &["clawpolicy", "lint", "--format", ""]);
    assert_eq!(formats, ["human", "json", "sarif", "github", "junit"]);
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let output = clawpolicy().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("possible values: bash, elvish, fish, powershell, zsh"));
}

#[test]
fn man_output_dir_writes_a_page_per_command_that_groff_renders_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    clawpolicy().args(["man", "--output-dir"]).arg(&out).assert().success();
    let mut pages: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    pages.sort();
    assert!(
        pages.contains(&"clawpolicy.1".to_string()) && pages.contains(&"clawpolicy-lint.1".to_string()),
        "{pages:?}"
    );
    assert!(pages.contains(&"clawpolicy-who-can.1".to_string()), "{pages:?}");
    assert_eq!(std::fs::read_to_string(out.join("clawpolicy-diff.1")).unwrap(), stdout(&["man", "diff"]));
    if Process::new("groff").arg("--version").output().is_err() {
        eprintln!("groff is not installed: the pages were written but not rendered");
        return;
    }
    for page in &pages {
        let output =
            Process::new("groff").args(["-k", "-man", "-ww", "-z", "-Tutf8"]).arg(out.join(page)).output().unwrap();
        assert!(
            output.status.success() && output.stderr.is_empty(),
            "{page}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn man_of_an_unknown_command_suggests_one() {
    let output = clawpolicy().args(["man", "lnt"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("man::unknown-command") && stderr.contains("did you mean `lint`?"), "{stderr}");
}

#[test]
fn man_page_of_completions_is_stable() {
    let page = stdout(&["man", "completions"]).replace(env!("CARGO_PKG_VERSION"), "[version]");
    insta::assert_snapshot!("man_completions", page);
}
