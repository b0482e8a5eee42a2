//! Which tools are constructed for a run (the pipeline's input), and the filters OpenClaw applies
//! to that list before the pipeline.

use std::collections::BTreeMap;

use serde_json::Value;

use super::context::SessionContext;
use super::session::{Assumption, Session};
use super::steps::Step;
use crate::keypath::KeyPath;
use crate::pack::{OwnerOnlyPlacement, VersionPack};

/// A tool constructed for the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InventoryTool {
    pub name: String,
    /// The owning plugin; `None` for core tools.
    pub plugin: Option<String>,
}

/// A filter that removed a constructed tool before the pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreFilter {
    pub label: String,
    pub reason: String,
}

#[derive(Debug, Clone, Default)]
pub struct Inventory {
    pub tools: Vec<InventoryTool>,
    pub not_constructed: BTreeMap<String, String>,
    pub pre_filtered: Vec<(String, PreFilter)>,
    /// Plugin ids known to exist even without tools present (for unknown-entry analysis).
    pub declared_plugins: Vec<String>,
    pub assumptions: Vec<Assumption>,
}

/// Builds the inventory of a session.
pub fn construct(
    pack: &VersionPack,
    config: &Value,
    session: &Session<'_>,
    ctx: &SessionContext,
    _steps: &[Step],
) -> Inventory {
    let mut inventory = Inventory::default();
    for tool in &pack.tools {
        match not_built_reason(pack, config, session, ctx, &tool.id) {
            Some(reason) => {
                inventory.not_constructed.insert(tool.id.clone(), reason);
            }
            None => inventory.tools.push(InventoryTool {
                name: tool.id.clone(),
                plugin: None,
            }),
        }
    }
    for plugin_tool in &ctx.plugin_tools {
        inventory.tools.push(InventoryTool {
            name: plugin_tool.name.clone(),
            plugin: Some(plugin_tool.plugin.clone()),
        });
        inventory
            .declared_plugins
            .push(plugin_tool.plugin.trim().to_lowercase());
    }
    apply_pre_filters(pack, ctx, &mut inventory);
    inventory
}

/// Why a catalog tool is not constructed in this run, if it is not.
fn not_built_reason(
    pack: &VersionPack,
    config: &Value,
    session: &Session<'_>,
    ctx: &SessionContext,
    tool: &str,
) -> Option<String> {
    let read_only_sandbox = session.sandbox.sandboxed && session.sandbox.workspace_access == "ro";
    match tool {
        "write" | "edit" if read_only_sandbox => {
            Some("the sandbox workspace is read-only (workspaceAccess: ro)".into())
        }
        "apply_patch" => apply_patch_reason(pack, config, session, ctx),
        "terminal" | "portal" if session.sandbox.sandboxed => {
            Some("sandboxed sessions never get this tool".into())
        }
        _ => None,
    }
}

/// apply_patch construction rules (`tools.exec.applyPatch`), per release.
fn apply_patch_reason(
    pack: &VersionPack,
    config: &Value,
    session: &Session<'_>,
    ctx: &SessionContext,
) -> Option<String> {
    let rules = &pack.apply_patch;
    let agent_block = session
        .agent
        .as_ref()
        .map(|a| a.path.key("tools").key("exec").key("applyPatch"));
    let block = agent_block
        .filter(|p| p.lookup(config).is_some())
        .unwrap_or_else(|| KeyPath::keys(&["tools", "exec", "applyPatch"]));
    let settings = block.lookup(config);
    let enabled = settings
        .and_then(|s| s.get("enabled"))
        .and_then(Value::as_bool)
        .unwrap_or(rules.enabled_by_default);
    if !enabled {
        return Some(format!("{} is not enabled", block.key("enabled")));
    }
    if session.sandbox.sandboxed && session.sandbox.workspace_access == "ro" {
        return Some("the sandbox workspace is read-only (workspaceAccess: ro)".into());
    }
    let provider = ctx
        .model_provider
        .as_deref()
        .map(|p| p.trim().to_lowercase())
        .unwrap_or_default();
    if let Some(providers) = &rules.providers {
        if !providers.contains(&provider) {
            return Some(format!(
                "apply_patch is built only for providers {}",
                providers.join(", ")
            ));
        }
    }
    let allow_models: Vec<String> = settings
        .and_then(|s| s.get("allowModels"))
        .and_then(Value::as_array)
        .map(|models| {
            models
                .iter()
                .filter_map(Value::as_str)
                .map(|m| m.trim().to_lowercase())
                .collect()
        })
        .unwrap_or_default();
    if allow_models.is_empty() {
        return None;
    }
    let model = ctx
        .model_id
        .as_deref()
        .map(|m| m.trim().to_lowercase())
        .unwrap_or_default();
    let qualified = if model.contains('/') {
        model.clone()
    } else {
        format!("{provider}/{model}")
    };
    let listed = !model.is_empty() && allow_models.iter().any(|m| *m == model || *m == qualified);
    (!listed).then(|| format!("the model is not in {}", block.key("allowModels")))
}

/// Filters applied to the constructed list before the pipeline: the message-provider filter,
/// the 2026.2 owner-only filter and the local-model lean filter.
fn apply_pre_filters(pack: &VersionPack, ctx: &SessionContext, inventory: &mut Inventory) {
    let provider = ctx
        .message_provider
        .as_deref()
        .map(|p| p.trim().to_lowercase());
    if let Some(filter) = provider
        .as_deref()
        .and_then(|p| pack.message_provider_filter.get(p))
    {
        let provider = provider.as_deref().unwrap_or_default();
        let label = format!("pre-policy: message provider ({provider})");
        for tool in &inventory.tools {
            let keep = filter
                .keep_only
                .as_ref()
                .is_none_or(|keep| keep.contains(&tool.name));
            if !keep || filter.remove.contains(&tool.name) {
                let reason = format!("the {provider} message provider does not offer this tool");
                inventory.pre_filtered.push((
                    tool.name.clone(),
                    PreFilter {
                        label: label.clone(),
                        reason,
                    },
                ));
            }
        }
    }
    if pack.owner_only.placement == OwnerOnlyPlacement::BeforePipeline
        && super::steps::is_non_owner(pack, ctx)
    {
        for tool in inventory
            .tools
            .iter()
            .filter(|t| pack.owner_only.tools.contains(&t.name))
        {
            let filter = PreFilter {
                label: "pre-policy: owner-only (senderIsOwner !== true)".into(),
                reason: "owner-only tool and the sender is not known to be the owner".into(),
            };
            inventory.pre_filtered.push((tool.name.clone(), filter));
        }
    }
}
