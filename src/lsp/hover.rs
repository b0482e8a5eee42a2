//! What the language server says about the value under the cursor (a tool name: what it is,
//! which agents get it in their main DM and which step removes it where; an agent id: its tools)
//! and what it offers to complete (tool names, groups, profiles of the release).

use std::path::Path;

use crate::OpenClawVersion;
use crate::config::loading::LoadedFiles;
use crate::config::path::{KeyPath, PathSeg};
use crate::config::tree::{Node, NodeKind};
use crate::config::view::keys;
use crate::fleet::contexts::{self, MAIN};
use crate::policy::rules::Source;

/// What is under the cursor.
#[derive(Debug, PartialEq)]
pub enum Subject {
    Tool(String),
    Agent(String),
}

/// The string value or key at `offset` of a file's tree, with its key path in the file.
fn item_at(root: &Node, offset: usize) -> Option<(String, Vec<PathSeg>, bool)> {
    let contains = |span: miette::SourceSpan| span.offset() <= offset && offset <= span.offset() + span.len();
    let mut node = root;
    loop {
        let origin = node.origin.as_deref()?;
        if origin.key_span.is_some_and(contains) {
            let path = origin.key_path();
            let key = path.last()?.as_key()?.to_string();
            return Some((key, path, true));
        }
        let child = match &node.kind {
            NodeKind::Object(fields) => fields.values().find(|child| {
                child.origin.as_deref().is_some_and(|o| contains(o.span) || o.key_span.is_some_and(contains))
            }),
            NodeKind::Array(items) => {
                items.iter().find(|child| child.origin.as_deref().is_some_and(|o| contains(o.span)))
            }
            NodeKind::String(text) => return Some((text.clone(), origin.key_path(), false)),
            _ => None,
        };
        node = child?;
    }
}

/// The tool or agent named at `offset` of a file's tree.
pub fn subject_at(root: &Node, offset: usize, version: OpenClawVersion, agents: &[String]) -> Option<Subject> {
    let (text, path, is_key) = item_at(root, offset)?;
    let parent_key = |back: usize| path.len().checked_sub(back).and_then(|i| path[i].as_key());
    let roster_key = is_key && matches!(parent_key(2), Some(keys::ENTRIES)) && parent_key(3) == Some(keys::AGENTS);
    let names_agent = !is_key && matches!(parent_key(1), Some(keys::AGENT_ID | keys::ID));
    let id = crate::config::view::ids::normalize_agent_id(&text);
    if (roster_key || names_agent) && agents.contains(&id) {
        return Some(Subject::Agent(id));
    }
    let pack = version.policy();
    let name = pack.normalize(&text);
    let is_tool = pack.is_catalog_tool(&name) || pack.groups().iter().any(|(group, _)| *group == name);
    (!is_key && is_tool).then_some(Subject::Tool(name))
}

/// Markdown about a tool (or group) for the config in force.
pub fn tool_hover(files: &LoadedFiles, tool: &str) -> String {
    let version = files.loaded().version();
    let pack = version.policy();
    let mut out = String::new();
    if let Some((_, members)) = pack.groups().iter().find(|(group, _)| group == tool) {
        out.push_str(&format!("**`{tool}`**: a tool group of OpenClaw {version}: {}\n", code_list(members)));
        return out;
    }
    let section = pack.tools.iter().find(|t| t.id == tool).map(|t| t.section.as_str()).unwrap_or("plugin");
    let groups: Vec<String> =
        pack.groups().iter().filter(|(_, members)| members.iter().any(|m| m == tool)).map(|(g, _)| g.clone()).collect();
    out.push_str(&format!("**`{tool}`**: a tool of OpenClaw {version} (section `{section}`)"));
    if !groups.is_empty() {
        out.push_str(&format!(", in {}", code_list(&groups)));
    }
    out.push_str("\n\nIn each agent's main DM:\n");
    let config = files.config();
    let sessions = contexts::Sessions::new(version, config);
    let mains: Vec<_> = sessions
        .agents()
        .iter()
        .flat_map(|agent| sessions.agent_contexts(agent, &[]))
        .filter(|context| context.id == MAIN)
        .collect();
    let evaluated = contexts::evaluate(version, config, mains);
    let who = crate::fleet::who_can::who_can(&evaluated, tool, config, None).ok();
    let has: Vec<String> = who.iter().flat_map(|w| &w.matches).map(|m| m.agent_id.clone()).collect();
    if !has.is_empty() {
        out.push_str(&format!("- has it: {}\n", code_list(&has)));
    }
    for cell in &evaluated {
        let Ok(resolution) = &cell.result else { continue };
        if has.contains(&cell.context.agent_id) {
            continue;
        }
        let why = match (resolution.removed.get(tool), resolution.not_constructed.get(tool)) {
            (Some(removal), _) => {
                let entry = removal.pattern.as_ref().map(|p| format!(" (entry `{p}`)")).unwrap_or_default();
                let place = removal.source.as_deref().and_then(Source::config_path).and_then(|p| place_of(files, p));
                format!(
                    "removed by `{}`{entry}{}",
                    removal.audit_label,
                    place.map(|p| format!(" at {p}")).unwrap_or_default()
                )
            }
            (None, Some(reason)) => format!("not built: {reason}"),
            (None, None) => "not a tool of this session".to_string(),
        };
        out.push_str(&format!("- `{}`: {why}\n", cell.context.agent_id));
    }
    out
}

/// Markdown about an agent: its tools in its main DM.
pub fn agent_hover(files: &LoadedFiles, agent: &str) -> String {
    let version = files.loaded().version();
    let ctx = crate::policy::SessionContext { agent_id: Some(agent.to_string()), ..Default::default() };
    match crate::policy::resolve(version, files.config(), &ctx) {
        Ok(resolution) => format!(
            "**agent `{agent}`**: {} tool{} in its main DM (`{}`):\n\n{}",
            resolution.tools.len(),
            if resolution.tools.len() == 1 { "" } else { "s" },
            resolution.session_key,
            code_list(&resolution.tools)
        ),
        Err(e) => format!("**agent `{agent}`**: its main DM cannot be resolved: {e}"),
    }
}

fn code_list(items: &[String]) -> String {
    items.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
}

/// `file:line:col` of a key, the file relative to the working directory.
fn place_of(files: &LoadedFiles, path: &KeyPath) -> Option<String> {
    let location = files.locate(path)?;
    Some(format!("{}:{}:{}", crate::report::display_path(Path::new(&location.file)), location.line, location.column))
}

/// What to complete in a string being typed: `Some(true)` profile names (after `profile:`),
/// `Some(false)` tool names and groups (a list element), `None` elsewhere.
pub fn completion_kind(line_before_cursor: &str) -> Option<bool> {
    let mut quote = None;
    let mut opened_at = 0;
    let mut chars = line_before_cursor.char_indices();
    while let Some((at, c)) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => (quote, opened_at) = (Some(c), at),
            (None, '/') if line_before_cursor[at..].starts_with("//") => return None,
            _ => {}
        }
    }
    quote?;
    let before = line_before_cursor[..opened_at].trim_end();
    if let Some(key) = before.strip_suffix(':') {
        // Tool names are list elements; the one string value with a vocabulary is the profile.
        return key.trim_end().trim_end_matches(['"', '\'']).ends_with(keys::PROFILE).then_some(true);
    }
    // A list element, on the line of its list or on a line of its own.
    (before.is_empty() || before.ends_with(['[', ','])).then_some(false)
}

/// The names to offer: profiles, or tools and groups.
pub fn completions(version: OpenClawVersion, profiles: bool) -> Vec<(String, &'static str)> {
    let pack = version.policy();
    if profiles {
        return pack.profiles.iter().map(|p| (p.id.clone(), "profile")).collect();
    }
    let tools = pack.tools.iter().map(|t| (t.id.clone(), "tool"));
    tools.chain(pack.groups().iter().map(|(group, _)| (group.clone(), "group"))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_knows_where_the_cursor_is() {
        assert_eq!(completion_kind("    deny: ['ex"), Some(false));
        assert_eq!(completion_kind("    deny: [\"exec\", \"w"), Some(false));
        assert_eq!(completion_kind("    profile: 'co"), Some(true));
        assert_eq!(completion_kind("    \"profile\": \"co"), Some(true));
        assert_eq!(completion_kind("    deny: ['exec'"), None);
        assert_eq!(completion_kind("    // 'a"), None);
        assert_eq!(completion_kind("      'ex"), Some(false));
        assert_eq!(completion_kind("    name: 'ex"), None);
    }

    #[test]
    fn the_subject_is_the_tool_or_agent_under_the_cursor() {
        let text = "{agents: {entries: {ops: {tools: {deny: ['exec', 'notatool']}}}}, bindings: [{agentId: 'ops'}]}";
        let root = crate::config::json5::parse("c".into(), text.to_string()).document.unwrap().root;
        let agents = vec!["ops".to_string()];
        let at = |needle: &str| text.find(needle).unwrap() + 1;
        let v = OpenClawVersion::V2026_9;
        assert_eq!(subject_at(&root, at("exec"), v, &agents), Some(Subject::Tool("exec".into())));
        assert_eq!(subject_at(&root, at("notatool"), v, &agents), None);
        assert_eq!(subject_at(&root, at("ops:"), v, &agents), Some(Subject::Agent("ops".into())));
        assert_eq!(subject_at(&root, text.rfind("ops").unwrap(), v, &agents), Some(Subject::Agent("ops".into())));
        assert_eq!(subject_at(&root, at("tools"), v, &agents), None);
    }
}
