//! Plugin tools the user declares present: OpenClaw loads plugins and MCP servers at runtime,
//! clawpolicy reads what they would contribute from the command line, installed plugin folders
//! and a saved MCP probe.

use super::context::PluginTool;

/// Plugin tools declared with `--plugins FILE|DIR` (a JSON list, or installed plugin folders
/// and their manifests), `--plugin-tool plugin:tool[?]` and `--mcp-probe FILE` (the MCP server
/// tools of a saved `openclaw mcp probe --json`).
pub fn declared_plugin_tools(
    specs: &[String],
    file: Option<&std::path::Path>,
    mcp_probe: Option<&std::path::Path>,
) -> miette::Result<Vec<PluginTool>> {
    let mut plugin_tools = match file {
        Some(dir) if dir.is_dir() => super::manifest::folder_tools(dir)?,
        Some(path) => {
            let text = crate::base::userfile::read_text(path, crate::base::userfile::MAX_INPUT_BYTES)
                .map_err(|e| miette::miette!(code = "cli::plugins", "cannot read {}: {e}", path.display()))?;
            crate::base::json::from_str::<Vec<PluginTool>>(&text).map_err(|e| {
                let message = crate::config::secrets::parse_error_message(&e.to_string());
                miette::miette!(code = "cli::plugins", "{}: {message}", path.display())
            })?
        }
        None => Vec::new(),
    };
    if let Some(path) = mcp_probe {
        plugin_tools.extend(super::mcp::read_probe(path)?.plugin_tools(super::mcp::mcp_plugin_id()));
    }
    for spec in specs {
        let (plugin, tool) = spec.split_once(':').ok_or_else(|| {
            miette::miette!(code = "cli::plugin-tool", "--plugin-tool wants PLUGIN:TOOL, got `{spec}`")
        })?;
        let (name, optional) = match tool.strip_suffix('?') {
            Some(name) => (name, true),
            None => (tool, false),
        };
        plugin_tools.push(PluginTool { plugin: plugin.into(), name: name.into(), optional, profiles: Vec::new() });
    }
    Ok(plugin_tools)
}
