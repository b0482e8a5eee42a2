//! Targets of the config loader: `config_load` (JSON5 reader, `$include`, `${VAR}`, validation,
//! error snippets) and `secrets_mask` (no planted secret in any output).

use std::collections::HashMap;
use std::path::PathBuf;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

use super::{scratch_dir, text};
use crate::OpenClawVersion;
use crate::config::{self, LoadOptions};

const VERSIONS: [OpenClawVersion; 2] = [OpenClawVersion::V2026_9, OpenClawVersion::V2026_2];

/// Include files a `config_load` input can name (`$include: "./1.json5"`), after the config.
const INCLUDE_FILES: [&str; 3] = ["1.json5", "2.json5", "3.json5"];

/// A diagnostic as the terminal shows it, snippet included.
pub(crate) fn render(diagnostic: &dyn Diagnostic) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(usize::MAX);
    let mut out = diagnostic.to_string();
    let _ = handler.render_report(&mut out, diagnostic);
    out
}

/// The input is the config, then up to three include files, separated by NUL bytes. Loads it
/// with each release, validates it and renders every error and issue: none of this may panic.
pub fn config_load(data: &[u8]) {
    let mut parts = data.split(|b| *b == 0);
    let config_text = text(parts.next().unwrap_or_default());
    let dir = scratch_dir();
    let config_path = dir.join("openclaw.json5");
    write(&config_path, &config_text);
    for name in INCLUDE_FILES {
        match parts.next() {
            Some(part) => write(&dir.join(name), &text(part)),
            None => {
                let _ = std::fs::remove_file(dir.join(name));
            }
        }
    }
    for version in VERSIONS {
        let env: HashMap<String, String> = [("HOME", "/nonexistent"), ("A", "1"), ("GATEWAY_TOKEN", "Tk-4f9a8b7c6d5e")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let opts = LoadOptions { version, env: env.into(), cwd: dir.to_path_buf() };
        match config::loading::load_files(std::slice::from_ref(&config_path), &opts) {
            Ok(files) => {
                for issue in files.issues() {
                    render(issue);
                }
                for warning in files.loaded().warnings().iter().chain(files.validation_warnings()) {
                    render(warning);
                }
            }
            Err(error) => {
                render(&error);
            }
        }
    }
}

fn write(path: &std::path::Path, text: &str) {
    std::fs::write(path, text).expect("the scratch folder is writable");
}

/// A member of a config's root that plants `{s}` where a secret belongs (under a secret key,
/// misspelled or not, in an env block, in URL userinfo or a credential query parameter).
pub const PLANTS: &[&str] = &[
    r#"gateway: { auth: { mode: "token", token: "{s}" } }"#,
    r#"gateway: { auth: { mode: "password", password: "{s}" } }"#,
    r#"gateway: { auth: { password: {n} } }"#,
    r#"gateway: { remote: { url: "wss://user:{s}@gw.example:443", token: "{s}" } }"#,
    r#"channels: { telegram: { botToken: "{s}", enabled: true } }"#,
    r#"channels: { telegram: { botTokn: "{s}" } }"#,
    r#"tokne: "{s}""#,
    r#"models: { providers: { p: { baseUrl: "https://user:{s}@llm.example/v1", apiKy: "{s}" } } }"#,
    r#"models: { providers: { q: { baseUrl: "https://u:{s}@llm.example/${NOT_SET_ANYWHERE}" } } }"#,
    r#"tools: { web: { fetch: { url: "https://h.example/x?api_key={s}&token={s}" } } }"#,
    r#"env: { vars: { GH_PAT: "{s}" } }"#,
    r#"env: { MY_PLAIN_NAME: "{s}" }"#,
    r#"skills: { entries: { x: { apiKey: "{s}" } } }"#,
];

/// Members that make findings of their own.
pub const NOISE: &[&str] = &[
    r#"tools: { alsoAlow: ["browser"], profile: "coding" }"#,
    r#"tools: { profile: 5 }"#,
    r#"agents: { defaults: { sandbox: { mode: "lenient" } } }"#,
    r#"tools: { exec: { security: "full" } }"#,
    r#"gateway: { bind: "lan" }"#,
];

/// A config with secrets planted in it, and the secrets.
#[derive(Debug, Clone)]
pub struct PlantedConfig {
    pub text: String,
    pub secrets: Vec<String>,
}

/// The layout of a planted config.
#[derive(Debug, Clone, Copy, Default)]
pub struct Layout {
    pub one_line: bool,
    pub value_on_next_line: bool,
    /// Cut the text at this fraction (of `u16::MAX`) of its length.
    pub cut: Option<u16>,
}

impl PlantedConfig {
    /// `plants` (template, secret word, number) and `noise` members laid out as `layout` says,
    /// with `tail` written after the last member (text of any kind: it cannot reach back into a
    /// member written before it).
    pub fn build(plants: &[(usize, String, u64)], noise: &[usize], layout: Layout, tail: &str) -> Self {
        let mut secrets = Vec::new();
        let mut members: Vec<String> = plants
            .iter()
            .map(|(template, word, number)| {
                let secret = format!("Pl4nt{word}");
                secrets.push(secret.clone());
                secrets.push(number.to_string());
                PLANTS[template % PLANTS.len()].replace("{s}", &secret).replace("{n}", &number.to_string())
            })
            .collect();
        members.extend(noise.iter().map(|i| NOISE[i % NOISE.len()].to_string()));
        let separator = if layout.one_line { ", " } else { ",\n  " };
        let mut text = format!("{{\n  {}", members.join(separator));
        if layout.value_on_next_line {
            text = text.replace(": \"", ":\n      \"");
        }
        text.push_str(separator);
        text.push_str(tail);
        text.push_str("\n}\n");
        if let Some(cut) = layout.cut {
            let mut at = text.len() * usize::from(cut) / usize::from(u16::MAX);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.truncate(at);
        }
        PlantedConfig { text, secrets }
    }
}

/// Reads a planted config out of fuzz input: a layout byte, the plants (template, ten
/// characters of secret, a 13–19 digit number), the noise members, and the rest as the tail.
pub fn planted_config(data: &[u8]) -> PlantedConfig {
    let mut input = Cursor { data, at: 0 };
    let flags = input.byte();
    let cut = (flags & 4 != 0).then(|| u16::from_le_bytes([input.byte(), input.byte()]));
    let layout = Layout { one_line: flags & 1 != 0, value_on_next_line: flags & 2 != 0, cut };
    const WORD_CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let plant_count = 1 + input.byte() % 4;
    let plants: Vec<(usize, String, u64)> = (0..plant_count)
        .map(|_| {
            let template = usize::from(input.byte());
            let word: String =
                (0..10).map(|_| char::from(WORD_CHARS[usize::from(input.byte()) % WORD_CHARS.len()])).collect();
            let number =
                1_000_000_000_000 + u64::from_le_bytes(std::array::from_fn(|_| input.byte())) % 8_999_000_000_000_000;
            (template, word, number)
        })
        .collect();
    let noise: Vec<usize> = (0..input.byte() % 3).map(|_| usize::from(input.byte())).collect();
    PlantedConfig::build(&plants, &noise, layout, &text(input.rest()))
}

/// Bytes read one at a time, zero past the end.
struct Cursor<'a> {
    data: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn byte(&mut self) -> u8 {
        let byte = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    fn rest(&self) -> &[u8] {
        self.data.get(self.at..).unwrap_or_default()
    }
}

/// No secret planted in a config appears in anything `lint` or the loader prints about it, in
/// any format, with either release.
pub fn secrets_mask(data: &[u8]) {
    let case = planted_config(data);
    let path: PathBuf = scratch_dir().join("planted.json5");
    write(&path, &case.text);
    for version in VERSIONS {
        let out = crate::cli::lint_cmd::every_output(&path, version);
        for secret in &case.secrets {
            assert!(!out.contains(secret.as_str()), "{secret} leaked:\n{}\n---\n{out}", case.text);
        }
    }
}
