//! Plugin tools as installed plugins declare them: each plugin folder's `openclaw.plugin.json`
//! names its tools (`contracts.tools`) and, per tool, whether it is optional and which tool
//! profiles include it (`toolMetadata[tool].optional`, `.profiles`), read as the release
//! normalizes them.

use std::path::Path;

use serde_json::Value;

use super::context::PluginTool;
use crate::base::js::js_trim;

/// The manifest file of a plugin folder.
pub const MANIFEST: &str = "openclaw.plugin.json";

/// The profiles a manifest may put a tool in; other names are dropped.
const TOOL_PROFILES: &[&str] = &["minimal", "coding", "messaging", "full"];

/// The tools of every plugin under `dir`: `dir` itself when it holds a manifest, else each of
/// its sub-folders that does, in name order.
pub fn folder_tools(dir: &Path) -> miette::Result<Vec<PluginTool>> {
    let unreadable = |e: std::io::Error| miette::miette!(code = "cli::plugins", "cannot read {}: {e}", dir.display());
    let mut manifests = Vec::new();
    if dir.join(MANIFEST).is_file() {
        manifests.push(dir.join(MANIFEST));
    } else {
        let mut folders: Vec<_> =
            std::fs::read_dir(dir).map_err(unreadable)?.filter_map(Result::ok).map(|e| e.path()).collect();
        folders.sort();
        manifests.extend(folders.into_iter().map(|f| f.join(MANIFEST)).filter(|m| m.is_file()));
    }
    let mut tools = Vec::new();
    for path in manifests {
        let text = crate::base::userfile::read_text(&path, crate::base::userfile::MAX_INPUT_BYTES)
            .map_err(|e| miette::miette!(code = "cli::plugins", "cannot read {}: {e}", path.display()))?;
        let manifest: Value = crate::base::json::from_str(&text).map_err(|e| {
            let message = crate::config::secrets::parse_error_message(&e.to_string());
            miette::miette!(code = "cli::plugins", "{}: {message}", path.display())
        })?;
        tools.extend(manifest_tools(&manifest));
    }
    Ok(tools)
}

/// The plugin id a manifest file declares (trimmed), if it is readable and has one.
pub fn manifest_id(path: &Path) -> Option<String> {
    let text = crate::base::userfile::read_text(path, crate::base::userfile::MAX_INPUT_BYTES).ok()?;
    let manifest: Value = crate::base::json::from_str(&text).ok()?;
    let id = js_trim(manifest.get("id")?.as_str()?);
    (!id.is_empty()).then(|| id.to_string())
}

/// The tools one manifest declares (none without a string `id`).
pub fn manifest_tools(manifest: &Value) -> Vec<PluginTool> {
    let Some(id) = manifest.get("id").and_then(Value::as_str).map(js_trim).filter(|id| !id.is_empty()) else {
        return Vec::new();
    };
    let trimmed = |list: Option<&Value>| -> Vec<String> {
        let items = list.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str);
        items.map(js_trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
    };
    let metadata = manifest.get("toolMetadata").filter(|m| m.is_object());
    trimmed(manifest.get("contracts").and_then(|c| c.get("tools")))
        .into_iter()
        .map(|name| {
            let meta = metadata.and_then(|m| m.get(&name)).filter(|m| m.is_object());
            let profiles = trimmed(meta.and_then(|m| m.get("profiles")));
            PluginTool {
                plugin: id.to_string(),
                optional: meta.and_then(|m| m.get("optional")) == Some(&Value::Bool(true)),
                profiles: profiles.into_iter().filter(|p| TOOL_PROFILES.contains(&p.as_str())).collect(),
                name,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn manifests_declare_tools_with_their_profiles() {
        let manifest = json!({"id": " acme ", "contracts": {"tools": ["search", " ", 3, "admin"]},
            "toolMetadata": {"search": {"profiles": ["coding", " messaging ", "ops"]}, "admin": {"optional": true}}});
        let tools = manifest_tools(&manifest);
        assert_eq!(tools.len(), 2);
        assert_eq!((tools[0].plugin.as_str(), tools[0].name.as_str()), ("acme", "search"));
        assert_eq!(tools[0].profiles, ["coding", "messaging"]);
        assert!(tools[1].optional && !tools[0].optional && tools[1].profiles.is_empty());
        assert!(manifest_tools(&json!({"contracts": {"tools": ["x"]}})).is_empty());
    }

    #[test]
    fn a_folder_of_plugins_is_read_in_name_order() {
        let dir = std::env::temp_dir().join(format!("clawpolicy-manifests-{}", std::process::id()));
        for (folder, id) in [("b", "beta"), ("a", "alpha")] {
            std::fs::create_dir_all(dir.join(folder)).unwrap();
            let manifest = json!({"id": id, "contracts": {"tools": [format!("{id}_tool")]}});
            std::fs::write(dir.join(folder).join(MANIFEST), manifest.to_string()).unwrap();
        }
        std::fs::create_dir_all(dir.join("c-no-manifest")).unwrap();
        let names: Vec<String> = folder_tools(&dir).unwrap().into_iter().map(|t| t.name).collect();
        assert_eq!(names, ["alpha_tool", "beta_tool"]);
        assert_eq!(folder_tools(&dir.join("a")).unwrap().len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
