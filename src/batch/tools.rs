//! Batch mode: one JSON case per line in the oracle's field names, one JSON answer per line.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::OpenClawVersion;
use crate::config::LoadOptions;
use crate::policy::{self, SessionContext};

/// Resolves one `tools` case. Never fails: problems become `{"ok": false, "error": …}` lines so
/// one bad case does not stop a batch of thousands.
/// `opts` are the load options (environment) shared by the batch; a case may name its own release.
pub fn run_tools_case(case: &Value, opts: &LoadOptions, base_dir: &Path) -> Value {
    match tools_case(case, opts, base_dir) {
        Ok(answer) => answer,
        Err(error) => json!({"id": CaseHeader::of(case).id, "ok": false, "error": error}),
    }
}

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

fn tools_case(case: &Value, opts: &LoadOptions, base_dir: &Path) -> Result<Value, Value> {
    let CaseHeader { id, openclaw_version } = CaseHeader::of(case);
    let version = match openclaw_version.as_ref().and_then(Value::as_str) {
        Some(v) => v.parse::<OpenClawVersion>().map_err(|e| json!({"kind": "case", "message": e}))?,
        None => opts.version,
    };
    let ctx: SessionContext =
        serde_json::from_value(case.clone()).map_err(|e| json!({"kind": "case", "message": e.to_string()}))?;
    let opts = LoadOptions { version, ..opts.clone() };
    let loaded = crate::config::loading::load_case_config(case, &opts, base_dir)?;
    if !loaded.issues.is_empty() {
        return Ok(json!({"id": id, "ok": false, "config": loaded.report}));
    }
    let resolution = policy::resolve(version, &loaded.config, &ctx)
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
