//! Plugin and hook install records, as `openclaw security audit` checks them: npm installs without
//! a pinned version or an integrity hash, and records whose version differs from the installed
//! package's `package.json`.
//!
//! Where the records are is release data (`lint.json` → `installRecords`): 2026.2 keeps them in the
//! config (`plugins.installs`, `hooks.internal.installs`), so those checks run on any config;
//! 2026.9 keeps them in the state database's machine state, so they run only when the config
//! linted is the install's own (`install.rs`). The version drift reads the installed packages,
//! and runs only on the install's own config in both releases.
//!
//! 2026.9 also recovers records of npm packages installed under `<state>/npm` that its index does
//! not list; those are not read here (docs/conformance.md).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::audit::audit_rule;
use super::install::install_state_dir;
use crate::base::js::js_trim;
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::lint::{Emitter, LintContext, Rule, Severity};
use crate::release::lint::InstallRecords;

pub const RULES: &[Rule] = &[
    audit_rule!(Install, "CP909", "plugin-install-unpinned", Security, "plugins.installs_unpinned_npm_specs",
        |ctx, out| check(ctx, out, &PLUGINS, Problem::Unpinned),
        summary: "An npm plugin install record's spec names no exact version (2026.2: `plugins.installs` in the \
                  config; 2026.9: the installed plugin index in the state database).",
        why: "An unpinned spec installs whatever the registry serves next time: a supply-chain risk.",
        example: "// OpenClaw 2026.9, 2026.8:\n// <state>/state/openclaw.sqlite, machine state plugins.installedIndex:\n// { index: { installRecords: { demo: { source: \"npm\", spec: \"@acme/demo\" } } } }\n// OpenClaw 2026.2:\nplugins: { installs: { demo: { source: \"npm\", spec: \"@acme/demo\" } } }",
        fix: "Pin the spec to an exact version (`@acme/demo@1.2.3`): reinstall with `openclaw plugins install \
              @acme/demo@1.2.3`.",
    ),
    audit_rule!(Install, "CP910", "plugin-install-missing-integrity", Security, "plugins.installs_missing_integrity",
        |ctx, out| check(ctx, out, &PLUGINS, Problem::NoIntegrity),
        summary: "An npm plugin install record has no `integrity` hash.",
        why: "Without the hash a changed package cannot be told from the one that was installed.",
        example: "// OpenClaw 2026.9, 2026.8:\n// <state>/state/openclaw.sqlite, machine state plugins.installedIndex:\n// { index: { installRecords: { demo: { source: \"npm\", spec: \"@acme/demo@1.2.3\" } } } }\n// OpenClaw 2026.2:\nplugins: { installs: { demo: { source: \"npm\", spec: \"@acme/demo@1.2.3\" } } }",
        fix: "Reinstall or update the plugin so the record gets its integrity hash.",
    ),
    audit_rule!(Install, "CP911", "hook-install-unpinned", Security, "hooks.installs_unpinned_npm_specs",
        |ctx, out| check(ctx, out, &HOOKS, Problem::Unpinned),
        summary: "An npm hook install record's spec names no exact version (2026.2: `hooks.internal.installs` in \
                  the config; 2026.9: the state database).",
        why: "An unpinned spec installs whatever the registry serves next time: a supply-chain risk.",
        example: "// OpenClaw 2026.9, 2026.8:\n// <state>/state/openclaw.sqlite, machine state hooks.internal.installs:\n// { notify: { source: \"npm\", spec: \"@acme/notify\" } }\n// OpenClaw 2026.2:\nhooks: { internal: { installs: { notify: { source: \"npm\", spec: \"@acme/notify\" } } } }",
        fix: "Pin the spec to an exact version.",
    ),
    audit_rule!(Install, "CP912", "hook-install-missing-integrity", Security, "hooks.installs_missing_integrity",
        |ctx, out| check(ctx, out, &HOOKS, Problem::NoIntegrity),
        summary: "An npm hook install record has no `integrity` hash.",
        why: "Without the hash a changed package cannot be told from the one that was installed.",
        example: "// OpenClaw 2026.9, 2026.8:\n// <state>/state/openclaw.sqlite, machine state hooks.internal.installs:\n// { notify: { source: \"npm\", spec: \"@acme/notify@1.0.0\" } }\n// OpenClaw 2026.2:\nhooks: { internal: { installs: { notify: { source: \"npm\", spec: \"@acme/notify@1.0.0\" } } } }",
        fix: "Reinstall or update the hook so the record gets its integrity hash.",
    ),
    audit_rule!(Install, "CP913", "plugin-install-version-drift", Security, "plugins.installs_version_drift",
        |ctx, out| check(ctx, out, &PLUGINS, Problem::Drift),
        summary: "An npm plugin install record's version (`resolvedVersion`, else `version`) is not the version in \
                  the installed package's `package.json` (`installPath`, else `<state>/extensions/<id>`). Only \
                  when linting the install's own config.",
        why: "The record no longer describes what is installed: pins, integrity and update checks refer to \
              another package.",
        example: "plugins: { installs: { demo: { source: \"npm\", spec: \"demo@1.0.0\", version: \"1.0.0\" } } }\n\
                  // <state>/extensions/demo/package.json says \"version\": \"1.1.0\"",
        fix: "Run `openclaw plugins update --all` (or reinstall the plugin) to refresh the record.",
    ),
    audit_rule!(Install, "CP914", "hook-install-version-drift", Security, "hooks.installs_version_drift",
        |ctx, out| check(ctx, out, &HOOKS, Problem::Drift),
        summary: "An npm hook install record's version is not the version in the installed package's \
                  `package.json` (`installPath`, else `<state>/hooks/<id>`). Only when linting the install's own \
                  config.",
        why: "The record no longer describes what is installed.",
        example: "hooks: { internal: { installs: { notify: { source: \"npm\", version: \"1.0.0\" } } } }\n\
                  // <state>/hooks/notify/package.json says \"version\": \"2.0.0\"",
        fix: "Run `openclaw hooks update --all` (or reinstall the hook) to refresh the record.",
    ),
];

/// Install records by id, each an object.
type RecordList = Vec<(String, Map<String, Value>)>;

/// What differs between plugin and hook install records.
struct Kind {
    /// Where the records are in the config (2026.2).
    config_path: &'static [&'static str],
    /// Their row in the state database's machine state (2026.9).
    state_key: &'static str,
    /// Where the records are in their row, for locations.
    records_in_row: &'static str,
    /// The records of a row, as the release reads them; an error stops the release's audit.
    parse_row: fn(&str) -> Result<RecordList, String>,
    /// The folder under the state directory a package is installed in without an `installPath`.
    folder: &'static str,
    noun: &'static str,
}

const PLUGINS: Kind = Kind {
    config_path: &[keys::PLUGINS, keys::INSTALLS],
    state_key: "plugins.installedIndex",
    records_in_row: "plugins.installedIndex.index.installRecords",
    parse_row: |text| {
        plugin_index_records(text).ok_or_else(|| {
            "its installed plugin index has no valid install records (`openclaw doctor` repairs it)".into()
        })
    },
    folder: "extensions",
    noun: "plugin",
};

const HOOKS: Kind = Kind {
    config_path: &[keys::HOOKS, keys::INTERNAL, keys::INSTALLS],
    state_key: "hooks.internal.installs",
    records_in_row: "hooks.internal.installs",
    parse_row: |text| match crate::base::json::from_str::<Value>(text) {
        Ok(value) => Ok(hook_records(value)),
        Err(e) => Err(format!("its hook install records are not JSON: {e}")),
    },
    folder: "hooks",
    noun: "hook",
};

#[derive(Clone, Copy, PartialEq)]
enum Problem {
    Unpinned,
    NoIntegrity,
    Drift,
}

/// Where a record is: a config value, or a value of the state database.
enum At {
    Config(KeyPath),
    Database { file: PathBuf, path: String },
}

/// The npm install records of one kind, or why the audit cannot read them.
enum Records {
    Npm(Vec<(String, Map<String, Value>, At)>),
    /// The audit stops with this error (an unreadable database, records that do not fit).
    Unreadable {
        file: PathBuf,
        error: String,
    },
}

fn read_records(ctx: &LintContext<'_>, kind: &Kind, state_dir: Option<&Path>) -> Records {
    let npm = |record: &Value| record.get(keys::SOURCE).and_then(Value::as_str) == Some("npm");
    match &ctx.version.lint().install_records {
        InstallRecords::Config => {
            let base = KeyPath::keys(kind.config_path);
            let entries = base.lookup(ctx.config()).and_then(Value::as_object).into_iter().flatten();
            Records::Npm(
                entries
                    .filter(|(_, record)| npm(record))
                    .filter_map(|(id, record)| {
                        Some((id.clone(), record.as_object()?.clone(), At::Config(base.key(id))))
                    })
                    .collect(),
            )
        }
        InstallRecords::StateDatabase { database } => {
            let Some(state_dir) = state_dir else { return Records::Npm(Vec::new()) };
            let file = state_dir.join(database);
            let unreadable = |error: String| Records::Unreadable { file: file.clone(), error };
            let rows = match crate::config::machine_state::read_rows(&file, &[kind.state_key]) {
                Ok(rows) => rows,
                Err(error) => return unreadable(error),
            };
            let Some(text) = rows.get(kind.state_key) else { return Records::Npm(Vec::new()) };
            let entries = match (kind.parse_row)(text) {
                Ok(entries) => entries,
                Err(error) => return unreadable(error),
            };
            let at = |id: &str| At::Database { file: file.clone(), path: format!("{}.{id}", kind.records_in_row) };
            Records::Npm(
                entries
                    .into_iter()
                    .filter(|(_, record)| npm(&Value::Object(record.clone())))
                    .map(|(id, record)| {
                        let at = at(&id);
                        (id, record, at)
                    })
                    .collect(),
            )
        }
    }
}

/// `Object.entries` of the hook records as the release reads them (an array by index, anything
/// else but an object: none); entries that are not objects cannot be npm records.
fn hook_records(value: Value) -> RecordList {
    let entries: Vec<(String, Value)> = match value {
        Value::Object(map) => map.into_iter().collect(),
        Value::Array(items) => items.into_iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
        _ => Vec::new(),
    };
    entries.into_iter().filter_map(|(id, v)| Some((id, v.as_object()?.clone()))).collect()
}

/// The install records of a persisted installed plugin index (`index.installRecords`), each
/// normalized as the release parses it; `None` when the release refuses them (not JSON, no
/// records, or one record that does not fit its schema).
fn plugin_index_records(text: &str) -> Option<RecordList> {
    let value: Value = crate::base::json::from_str(text).ok()?;
    let records = value.get("index")?.get("installRecords")?.as_object()?;
    records.iter().map(|(id, record)| Some((id.clone(), parse_plugin_record(record)?))).collect()
}

/// The string fields of a plugin install record: trimmed, and dropped when empty.
const STRING_FIELDS: &[&str] = &[
    "spec",
    "sourcePath",
    "installPath",
    "version",
    "resolvedName",
    "resolvedVersion",
    "resolvedSpec",
    "integrity",
    "shasum",
    "resolvedAt",
    "installedAt",
    "clawhubUrl",
    "clawhubPackage",
    "clawhubFamily",
    "clawhubChannel",
    "clawhubTrustDisposition",
    "clawhubTrustScanStatus",
    "clawhubTrustModerationState",
    "clawhubTrustCheckedAt",
    "clawhubTrustAcknowledgedAt",
    "artifactKind",
    "artifactFormat",
    "npmIntegrity",
    "npmShasum",
    "npmTarballName",
    "clawpackSha256",
    "clawpackManifestSha256",
    "gitUrl",
    "gitRef",
    "gitCommit",
    "marketplaceName",
    "marketplaceSource",
    "marketplacePlugin",
    "acceptedSurfaceHash",
    "acceptedSurfaceAt",
    "acceptedSurfaceIntegrity",
];

/// Fields whose value is one of a few words.
const ENUM_FIELDS: &[(&str, &[&str])] = &[
    ("source", &["npm", "archive", "path", "clawhub", "git", "marketplace"]),
    ("clawhubFamily", &["code-plugin", "bundle-plugin"]),
    ("clawhubChannel", &["official", "community", "private"]),
    ("clawhubTrustDisposition", &["clean", "review-recommended", "review-required", "blocked"]),
    ("artifactKind", &["legacy-zip", "npm-pack"]),
    ("artifactFormat", &["zip", "tgz"]),
];

/// The lists of a record's `acceptedSurface`, every one required.
const SURFACE_LISTS: &[&str] = &[
    "channels",
    "providers",
    "tools",
    "contracts",
    "hooks",
    "mcpServers",
    "cliCommands",
    "cliBackends",
    "skills",
    "dangerousConfigFlags",
];

/// A plugin install record as the release's schema parses it (`PluginInstallRecordSchema`, other
/// fields kept), with its string fields normalized; `None` when it does not fit.
fn parse_plugin_record(record: &Value) -> Option<Map<String, Value>> {
    let mut record = record.as_object()?.clone();
    let strings = |v: &Value| v.as_array().is_some_and(|items| items.iter().all(Value::is_string));
    let count = |v: &Value| v.as_u64().is_some() || v.as_f64().is_some_and(|f| f >= 0.0 && f.fract() == 0.0);
    let fits = ENUM_FIELDS.iter().all(|(field, words)| match record.get(*field) {
        None => *field != "source",
        Some(v) => v.as_str().is_some_and(|w| words.contains(&w)),
    }) && STRING_FIELDS.iter().all(|field| record.get(*field).is_none_or(Value::is_string))
        && ["clawhubTrustPending", "clawhubTrustStale"].iter().all(|f| record.get(*f).is_none_or(Value::is_boolean))
        && ["clawpackSpecVersion", "clawpackSize"].iter().all(|f| record.get(*f).is_none_or(count))
        && record.get("clawhubTrustReasons").is_none_or(strings)
        && record.get("acceptedSurface").is_none_or(|surface| {
            surface.as_object().is_some_and(|lists| {
                lists.len() == SURFACE_LISTS.len()
                    && SURFACE_LISTS.iter().all(|name| {
                        lists
                            .get(*name)
                            .and_then(Value::as_array)
                            .is_some_and(|items| items.iter().all(|i| i.as_str().is_some_and(|s| !s.is_empty())))
                    })
            })
        });
    if !fits {
        return None;
    }
    for field in STRING_FIELDS {
        let Some(text) = record.get(*field).and_then(Value::as_str) else { continue };
        let trimmed = js_trim(text).to_string();
        if trimmed.is_empty() {
            record.remove(*field);
        } else {
            record.insert((*field).to_string(), Value::String(trimmed));
        }
    }
    if let Some(Value::Array(reasons)) = record.get("clawhubTrustReasons") {
        let kept: Vec<Value> =
            reasons.iter().filter_map(Value::as_str).map(js_trim).filter(|r| !r.is_empty()).map(Value::from).collect();
        if kept.is_empty() {
            record.remove("clawhubTrustReasons");
        } else {
            record.insert("clawhubTrustReasons".into(), Value::Array(kept));
        }
    }
    Some(record)
}

/// `isPinnedRegistrySpec`: `<name>@<exact semver>`.
fn pinned(spec: &str) -> bool {
    let value = spec.trim();
    let Some(at) = value.rfind('@').filter(|&at| at > 0 && at < value.len() - 1) else { return false };
    static SEMVER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let semver = SEMVER.get_or_init(|| {
        regex::Regex::new(r"^v?[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$").expect("compiles")
    });
    semver.is_match(value[at + 1..].trim())
}

/// The `version` of the package installed at `dir` (`<dir>/package.json`), if it has one.
fn installed_version(dir: &Path) -> Option<String> {
    crate::base::userfile::ensure_regular_file(&dir.join("package.json")).ok()?;
    let text =
        crate::base::userfile::read_text(&dir.join("package.json"), crate::base::userfile::MAX_INPUT_BYTES).ok()?;
    let manifest: Value = crate::base::json::from_str(&text).ok()?;
    manifest.get("version")?.as_str().map(str::to_string)
}

/// The version a record says is installed (`resolvedVersion ?? version`), when it says one.
fn recorded_version(record: &Map<String, Value>) -> Option<&Value> {
    let value = match record.get("resolvedVersion") {
        Some(Value::Null) | None => record.get("version")?,
        Some(value) => value,
    };
    let truthy = !matches!(value, Value::Null | Value::Bool(false)) && value != "" && value != 0;
    truthy.then_some(value)
}

fn check(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>, kind: &Kind, problem: Problem) {
    let state_dir = install_state_dir(ctx);
    if problem == Problem::Drift && state_dir.is_none() {
        return;
    }
    let records = match read_records(ctx, kind, state_dir.as_deref()) {
        Records::Npm(records) => records,
        Records::Unreadable { file, error } => {
            // Said once per kind, by its first rule; the audit reports no finding, it fails.
            if problem == Problem::Unpinned {
                let finding = out.report_file(
                    &file,
                    kind.state_key,
                    format!(
                        "`openclaw security audit` stops with an error here: {} cannot be read: {error}",
                        file.display()
                    ),
                );
                finding
                    .severity(Severity::Error)
                    .help("run `openclaw doctor` to inspect and repair the install's state");
                finding.openclaw_check = None;
            }
            return;
        }
    };
    let noun = kind.noun;
    for (id, record, at) in records {
        let string = |key: &str| record.get(key).and_then(Value::as_str);
        let (message, help, field) = match problem {
            Problem::Unpinned => {
                let Some(spec) = string(keys::SPEC).filter(|s| !pinned(s)) else { continue };
                (
                    format!("the {noun} `{id}` is installed from `{spec}`, which names no exact version"),
                    "pin it to an exact version, e.g. @scope/pkg@1.2.3".to_string(),
                    Some(keys::SPEC),
                )
            }
            Problem::NoIntegrity => {
                if string(keys::INTEGRITY).is_some_and(|i| !i.trim().is_empty()) {
                    continue;
                }
                (
                    format!("the {noun} install record `{id}` has no integrity hash"),
                    format!("reinstall or update the {noun} to record its integrity hash"),
                    None,
                )
            }
            Problem::Drift => {
                let Some(recorded) = recorded_version(&record) else { continue };
                let Some(state_dir) = &state_dir else { return };
                let dir = match record.get("installPath") {
                    Some(Value::String(path)) => {
                        std::env::current_dir().map_or(PathBuf::from(path), |cwd| cwd.join(path))
                    }
                    None | Some(Value::Null) => state_dir.join(kind.folder).join(&id),
                    Some(_) => continue,
                };
                let Some(installed) = installed_version(&dir) else { continue };
                if recorded.as_str() == Some(installed.as_str()) {
                    continue;
                }
                let recorded = recorded.as_str().map_or_else(|| recorded.to_string(), str::to_string);
                (
                    format!(
                        "the {noun} `{id}` is recorded as version {recorded}, but {} says {installed}",
                        dir.join("package.json").display()
                    ),
                    format!("run `openclaw {noun}s update --all` (or reinstall `{id}`) to refresh the record"),
                    Some(if record.contains_key("resolvedVersion") { "resolvedVersion" } else { "version" }),
                )
            }
        };
        let finding = match &at {
            At::Config(path) => out.report(&field.map_or_else(|| path.clone(), |f| path.key(f)), message),
            At::Database { file, path } => {
                let path = field.map_or_else(|| path.clone(), |f| format!("{path}.{f}"));
                out.report_file(file, &path, message)
            }
        };
        finding.help(help);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pinned_specs_are_the_audits() {
        assert!(pinned("@acme/demo@1.2.3"));
        assert!(pinned("demo@v1.2.3-beta.1+build"));
        assert!(!pinned("@acme/demo"));
        assert!(!pinned("demo@latest"));
        assert!(!pinned("demo@"));
        assert!(!pinned("@1.2.3"));
    }

    #[test]
    fn plugin_index_records_are_parsed_as_the_release_parses_them() {
        let index = |records: Value| json!({"revision": 1, "index": {"installRecords": records}}).to_string();
        let parsed =
            plugin_index_records(&index(json!({"a": {"source": "npm", "spec": " x@1.0.0 ", "integrity": "  "}})))
                .unwrap();
        assert_eq!(parsed[0].1.get("spec"), Some(&json!("x@1.0.0")));
        assert!(!parsed[0].1.contains_key("integrity"));
        assert!(plugin_index_records(&index(json!({"a": {"source": "tarball"}}))).is_none());
        assert!(plugin_index_records(&index(json!({"a": {"source": "npm", "version": 1}}))).is_none());
        assert!(plugin_index_records(&index(json!({"a": {"spec": "x"}}))).is_none());
        assert!(plugin_index_records(&json!({"revision": 1, "index": {}}).to_string()).is_none());
        assert!(plugin_index_records("not json").is_none());
        assert!(plugin_index_records(&index(json!({}))).unwrap().is_empty());
    }

    #[test]
    fn hook_records_are_the_entries_of_objects_and_arrays() {
        assert_eq!(hook_records(json!({"a": {"source": "npm"}, "b": 3})).len(), 1);
        assert_eq!(hook_records(json!([{"source": "npm"}]))[0].0, "0");
        assert!(hook_records(json!("npm")).is_empty());
    }

    #[test]
    fn the_recorded_version_is_the_resolved_one_else_the_written_one() {
        let record = |v: Value| v.as_object().unwrap().clone();
        assert_eq!(recorded_version(&record(json!({"version": "1", "resolvedVersion": "2"}))), Some(&json!("2")));
        assert_eq!(recorded_version(&record(json!({"version": "1"}))), Some(&json!("1")));
        assert_eq!(recorded_version(&record(json!({"version": ""}))), None);
        assert_eq!(recorded_version(&record(json!({"resolvedVersion": null, "version": "3"}))), Some(&json!("3")));
    }
}
