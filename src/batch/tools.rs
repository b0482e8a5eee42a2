//! Batch mode: one JSON case per line in the oracle's field names, one JSON answer per line.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::recent::Recent;
use crate::OpenClawVersion;
use crate::base::parallel::lock;
use crate::config::LoadOptions;
use crate::config::loading::{LoadedCase, load_case_config};
use crate::policy::{self, HeldConfig, SessionContext};

/// Resolves one case on its own, with no earlier cases to share a config with.
pub fn run_tools_case(case: &Value, opts: &LoadOptions, base_dir: &Path) -> Value {
    ToolsBatch::new(opts.clone(), base_dir.to_path_buf()).answer(case)
}

/// A `tools` batch: its load options, the folder its cases' paths are relative to, and the
/// configs it loaded lately. Cases may be answered on several threads at once.
pub struct ToolsBatch {
    opts: LoadOptions,
    base_dir: PathBuf,
    configs: RecentConfigs,
}

impl ToolsBatch {
    /// `opts` are the load options (environment) shared by the batch; a case may name its own
    /// release.
    pub fn new(opts: LoadOptions, base_dir: PathBuf) -> Self {
        ToolsBatch { opts, base_dir, configs: RecentConfigs::default() }
    }

    /// Resolves one case. Never fails: problems become `{"ok": false, "error": …}` lines so one
    /// bad case does not stop a batch of thousands.
    pub fn answer(&self, case: &Value) -> Value {
        self.answer_with(case, None)
    }

    /// [`ToolsBatch::answer`] for a case given as the text of its line, as `tools --batch` reads
    /// it: the inline config stays text until the batch needs it, so a case that repeats a config
    /// loaded earlier never parses it. `Err` says why a line is no JSON at all.
    pub fn answer_line(&self, number: usize, line: &str) -> Result<Value, String> {
        let parsed = serde_json::from_str::<HashMap<String, &RawValue>>(line).ok().and_then(|mut members| {
            let written = members.remove("config");
            let case = members.into_iter().map(|(key, raw)| Some((key, serde_json::from_str(raw.get()).ok()?)));
            Some((case.collect::<Option<Map<String, Value>>>()?, written))
        });
        match parsed {
            Some((case, written)) => Ok(self.answer_with(&Value::Object(case), written)),
            // Not an object, or a member the parser refuses: answered (or refused, in the
            // parser's own words) as a parsed case is.
            None => serde_json::from_str::<Value>(line)
                .map(|case| self.answer(&case))
                .map_err(|e| format!("line {number}: {e}")),
        }
    }

    /// `written`: the case's inline config as written, when `case` leaves it out.
    fn answer_with(&self, case: &Value, written: Option<&RawValue>) -> Value {
        match self.tools_case(case, written) {
            Ok(answer) => answer,
            Err(error) => json!({"id": CaseHeader::of(case).id, "ok": false, "error": error}),
        }
    }

    fn tools_case(&self, case: &Value, written: Option<&RawValue>) -> Result<Value, Value> {
        let CaseHeader { id, openclaw_version } = CaseHeader::of(case);
        let version = match openclaw_version.as_ref().and_then(Value::as_str) {
            Some(v) => v.parse::<OpenClawVersion>().map_err(|e| json!({"kind": "case", "message": e}))?,
            None => self.opts.version,
        };
        let ctx = SessionContext::deserialize(case).map_err(|e| json!({"kind": "case", "message": e.to_string()}))?;
        let loaded = self.config_of(case, written, version)?;
        if !loaded.issues.is_empty() {
            return Ok(json!({"id": id, "ok": false, "config": loaded.report}));
        }
        let resolution = policy::resolve_in(version, loaded.held.config(), &loaded.held.roster(), &ctx)
            .map_err(|e| json!({"kind": "session", "message": e.to_string()}))?;
        let removed: BTreeMap<&String, &str> = resolution.removed.iter().map(|(tool, r)| (tool, &*r.step)).collect();
        let mut answer = json!({
            "id": id,
            "ok": true,
            "tools": resolution.tools,
            "removed": removed,
            "warnings": resolution.warnings,
            "notes": loaded.notes,
            "candidates": resolution.candidates,
            "context": {"agentId": resolution.agent_id, "sessionKey": resolution.session_key},
            "config": loaded.report,
        });
        if let Some(run) = &resolution.automation {
            answer["automation"] = json!(run);
        }
        Ok(answer)
    }

    /// The case's config loaded and validated, or the one loaded for an earlier case that named
    /// the same config (the same inline text or value, or the same file) under the same release.
    /// A config is loaded by one thread at a time: a case that needs a config another thread is
    /// loading waits for it.
    fn config_of(
        &self,
        case: &Value,
        written: Option<&RawValue>,
        version: OpenClawVersion,
    ) -> Result<Arc<HeldCase>, Value> {
        let key = match written {
            Some(raw) => ConfigKey::written(raw.get(), version),
            None => ConfigKey::of(case, version),
        };
        let Some(key) = key else { return self.load(case, written, version) };
        let slot = {
            let mut configs = lock(&self.configs);
            configs.get(&key).unwrap_or_else(|| {
                let slot = ConfigSlot::default();
                configs.insert(key, slot.clone());
                slot
            })
        };
        let mut held = lock(&slot);
        if let Some(held) = held.as_ref() {
            return Ok(held.clone());
        }
        // A config that fails to load is not kept: each case naming it says why.
        let loaded = self.load(case, written, version)?;
        *held = Some(loaded.clone());
        Ok(loaded)
    }

    /// Loads and validates the case's config.
    fn load(&self, case: &Value, written: Option<&RawValue>, version: OpenClawVersion) -> Result<Arc<HeldCase>, Value> {
        let opts = LoadOptions { version, ..self.opts.clone() };
        let with_config = match written {
            Some(raw) => {
                let config =
                    serde_json::from_str(raw.get()).map_err(|e| json!({"kind": "case", "message": e.to_string()}))?;
                let mut case = case.clone();
                case["config"] = config;
                Some(case)
            }
            None => None,
        };
        let case = with_config.as_ref().unwrap_or(case);
        let LoadedCase { config, issues, report, notes } = load_case_config(case, &opts, &self.base_dir)?;
        Ok(Arc::new(HeldCase { held: HeldConfig::new(config, version), issues, report, notes }))
    }
}

/// A case's config as loaded, kept for the cases after it that name the same config.
struct HeldCase {
    held: HeldConfig,
    issues: Vec<Value>,
    report: Value,
    notes: Vec<String>,
}

/// What names a case's config within one batch: the release, and the inline config's JSON text
/// (as written in the line, or as the parsed value prints) or the config file's path. Configs
/// larger than [`ConfigKey::MAX_TEXT`] are not kept.
#[derive(PartialEq, Eq)]
struct ConfigKey {
    version: OpenClawVersion,
    named_file: bool,
    text: String,
}

impl ConfigKey {
    const MAX_TEXT: usize = 64 * 1024;

    fn of(case: &Value, version: OpenClawVersion) -> Option<Self> {
        let (named_file, text) = match (case.get("config"), case.get("configPath")) {
            (Some(Value::String(text)), _) => (false, text.clone()),
            (Some(value), _) => (false, serde_json::to_string(value).ok()?),
            (None, Some(Value::String(path))) => (true, path.clone()),
            (None, _) => (false, String::new()),
        };
        (text.len() <= Self::MAX_TEXT).then_some(ConfigKey { version, named_file, text })
    }

    /// The key of an inline config given as its JSON text.
    fn written(text: &str, version: OpenClawVersion) -> Option<Self> {
        (text.len() <= Self::MAX_TEXT).then(|| ConfigKey { version, named_file: false, text: text.to_string() })
    }
}

/// The configs of the last few cases: a batch that asks many questions of one config (every
/// agent, channel and sender of a tenant) loads it once.
type RecentConfigs = Mutex<Recent<ConfigKey, ConfigSlot>>;

/// A config named by a recent case: loaded, or being loaded under the lock.
type ConfigSlot = Arc<Mutex<Option<Arc<HeldCase>>>>;

/// The fields of a case that are not session facts: its id, echoed in the answer, and the
/// release it asks about.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CaseHeader {
    #[serde(default)]
    id: Value,
    openclaw_version: Option<Value>,
}

impl CaseHeader {
    /// Read loosely: a case that is no object, or whose release is no string, has none.
    fn of(case: &Value) -> Self {
        case.is_object().then(|| CaseHeader::deserialize(case).ok()).flatten().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conformance_cases() -> Vec<Value> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
        let text = std::fs::read_to_string(dir.join("tools-2026.9.cases.jsonl")).unwrap();
        text.lines().take(400).map(|line| serde_json::from_str(line).unwrap()).collect()
    }

    #[test]
    fn cases_that_repeat_a_config_are_answered_as_if_each_came_alone() {
        let opts = crate::config::loading::process_options(OpenClawVersion::V2026_9);
        let cases = conformance_cases();
        // Every case twice, the second time after other configs came between.
        let repeated: Vec<&Value> = cases.iter().chain(cases.iter().rev()).collect();
        let batch = ToolsBatch::new(opts.clone(), PathBuf::from("/"));
        let mut shared = 0;
        for case in repeated {
            let key = ConfigKey::of(case, OpenClawVersion::V2026_9);
            shared += usize::from(key.is_some_and(|key| lock(&batch.configs).contains(&key)));
            let alone = run_tools_case(case, &opts, Path::new("/"));
            assert_eq!(batch.answer(case), alone, "case {}", case["id"]);
        }
        assert!(shared > 100, "only {shared} cases shared a config");
        assert!(lock(&batch.configs).len() <= Recent::<ConfigKey, ConfigSlot>::KEPT);
    }

    #[test]
    fn cases_answered_on_several_threads_at_once_are_answered_as_if_each_came_alone() {
        let opts = crate::config::loading::process_options(OpenClawVersion::V2026_9);
        let cases = conformance_cases();
        let alone: Vec<Value> = cases.iter().map(|case| run_tools_case(case, &opts, Path::new("/"))).collect();
        let batch = ToolsBatch::new(opts.clone(), PathBuf::from("/"));
        // Each thread answers every case, in its own order, all sharing the batch's configs.
        std::thread::scope(|scope| {
            for thread in 0..3 {
                let (batch, cases, alone) = (&batch, &cases, &alone);
                scope.spawn(move || {
                    for at in (0..cases.len()).map(|i| (i * (thread + 1)) % cases.len()) {
                        assert_eq!(batch.answer(&cases[at]), alone[at], "case {}", cases[at]["id"]);
                    }
                });
            }
        });
    }

    #[test]
    fn a_case_read_from_its_line_is_answered_as_the_parsed_case() {
        let opts = crate::config::loading::process_options(OpenClawVersion::V2026_9);
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
        let text = std::fs::read_to_string(dir.join("tools-2026.9.cases.jsonl")).unwrap();
        let lines: Vec<&str> = text.lines().take(300).collect();
        let batch = ToolsBatch::new(opts.clone(), PathBuf::from("/"));
        for (number, line) in lines.iter().chain(lines.iter().rev()).enumerate() {
            let case: Value = serde_json::from_str(line).unwrap();
            let alone = run_tools_case(&case, &opts, Path::new("/"));
            assert_eq!(batch.answer_line(number, line), Ok(alone), "line {number}");
        }
        // Lines that are no object, or no JSON, read as before.
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for line in ["[1]", "5", "{\"id\": 1, \"config\": {\"tools\": 1}}", "{bad", deep.as_str()] {
            let expected = serde_json::from_str::<Value>(line)
                .map(|case| run_tools_case(&case, &opts, Path::new("/")))
                .map_err(|e| format!("line 7: {e}"));
            assert_eq!(batch.answer_line(7, line), expected, "{line}");
        }
        // A config the parser refuses (a lone surrogate) is an unusable case, never a config.
        let lone = r#"{"id": "lone", "config": {"tools": {"deny": ["\ud800"]}}}"#;
        assert_eq!(batch.answer_line(8, lone).unwrap()["ok"], json!(false));
    }

    #[test]
    fn a_config_too_large_to_keep_is_loaded_for_each_case() {
        let deny: Vec<String> = (0..10_000).map(|i| format!("tool_{i}")).collect();
        let case = json!({"id": "big", "config": {"tools": {"deny": deny}}});
        assert!(ConfigKey::of(&case, OpenClawVersion::V2026_9).is_none());
        let batch = ToolsBatch::new(crate::config::loading::process_options(OpenClawVersion::V2026_9), "/".into());
        assert_eq!(batch.answer(&case)["ok"], json!(true));
        assert_eq!(lock(&batch.configs).len(), 0);
    }
}
