//! MCP server tools (releases with `mcp.servers`): `toolFilter` patterns that can never match,
//! servers none of whose tools reaches any session, and `alsoAllow` entries for MCP tools that a
//! step always removes again.
//!
//! The tools come from a saved `openclaw mcp probe --json` (`lint --mcp-probe FILE`); without
//! one, the exact `<server>__<tool>` names the tool policies write stand for the servers' tools.

use super::walk::{ListKind, agents, main_session, policy_lists};
use crate::base::js::js_trim;
use crate::config::path::KeyPath;
use crate::config::validate::did_you_mean;
use crate::config::view::keys as config_keys;
use crate::lint::registry::Applies;
use crate::lint::{Category, Emitter, LintContext, Rule, Severity};
use crate::policy::mcp::{McpServerEntry, McpServers, filter_pattern_matches, mcp_plugin_id};
use crate::policy::{PluginTool, Resolution, SessionContext};
use crate::release::Release;

pub const RULES: &[Rule] = &[
    Rule {
        code: "CP205",
        name: "mcp-tool-filter-never-matches",
        severity: Severity::Warning,
        category: Category::ToolNames,
        summary: "An MCP server's `toolFilter` pattern that matches none of its tools.",
        why: "`toolFilter` is matched against the server's own tool names (`search`), not against the namespaced \
              names `openclaw mcp probe` prints and policies use (`github__search`). An `include` that matches \
              nothing hides every tool of the server, silently; an `exclude` that matches nothing hides nothing. \
              With `--mcp-probe`, patterns are also checked against the tools the probe lists for the server.",
        example: "mcp: { servers: { github: { command: \"gh-mcp\", toolFilter: { include: [\"github__search\"] } } } }",
        fix: "Write the server's own tool name (drop the `<server>__` prefix), or a `*` pattern over those names.",
        openclaw_check: None,
        applies: Applies::When(has_mcp_servers),
        needs_valid_config: true,
        check: filter_never_matches,
    },
    Rule {
        code: "CP309",
        name: "mcp-server-tools-all-removed",
        severity: Severity::Warning,
        category: Category::DeadRules,
        summary: "An MCP server none of whose tools reaches any session.",
        why: "The server is started for every run, but its `toolFilter`, a deny list or an allowlist removes each of \
              its tools in every agent's main and sub-agent session, so no agent can call it. Usually a \
              `toolFilter` written with namespaced names, or a deny meant for one tool.",
        example: "tools: { deny: [\"github__*\"], alsoAllow: [\"github__search\"] },\n\
                  mcp: { servers: { github: { command: \"gh-mcp\" } } }",
        fix: "Allow the tools the agents should use (`clawpolicy explain <server>__<tool>` names the step that \
              removes each), or remove the server.",
        openclaw_check: None,
        applies: Applies::When(has_mcp_servers),
        needs_valid_config: true,
        check: server_tools_all_removed,
    },
    Rule {
        code: "CP310",
        name: "mcp-also-allow-removed-later",
        severity: Severity::Warning,
        category: Category::DeadRules,
        summary: "An `alsoAllow` of MCP tools that a policy step removes in every session.",
        why: "`alsoAllow` adds the MCP tools to one layer, but a later layer (the sandbox's default allowlist, the \
              sub-agent policy, an agent's allowlist) removes them again in every session it applies to: the \
              tools never reach the agent. Sandboxed sessions and spawned sub-agents are where this usually \
              happens.",
        example: "agents: { defaults: { sandbox: { mode: \"all\" } } },\n\
                  tools: { alsoAllow: [\"github__search\"] },\n\
                  mcp: { servers: { github: { command: \"gh-mcp\" } } }",
        fix: "Allow the tools in the step that removes them too (for the sandbox: \
              `tools.sandbox.tools.alsoAllow`), or drop the entry.",
        openclaw_check: None,
        applies: Applies::When(has_mcp_servers),
        needs_valid_config: true,
        check: also_allow_removed_later,
    },
];

fn has_mcp_servers(release: &Release) -> bool {
    release.policy().plugin_loading.mcp_plugin_id.is_some()
}

/// The MCP tools the rules reason about and the sessions they are checked in.
pub struct McpSessions {
    servers: McpServers,
    tools: Vec<PluginTool>,
    /// Each agent's main and sub-agent session: the agent id and the resolution.
    resolutions: Vec<(String, Resolution)>,
}

impl McpSessions {
    fn of(ctx: &LintContext<'_>) -> Self {
        let servers = McpServers::of(ctx.config());
        let tools = declared_tools(ctx, &servers);
        let mut resolutions = Vec::new();
        if !tools.is_empty() {
            for agent in agents(ctx) {
                for depth in [None, Some(1)] {
                    let session =
                        SessionContext { plugin_tools: tools.clone(), spawn_depth: depth, ..main_session(&agent.id) };
                    resolutions.extend(ctx.resolve(&session).map(|r| (agent.id.clone(), r)));
                }
            }
        }
        McpSessions { servers, tools, resolutions }
    }

    /// The declared tools of `server`.
    fn tools_of<'s>(&'s self, server: &'s McpServerEntry) -> impl Iterator<Item = &'s str> + 's {
        self.tools
            .iter()
            .map(|t| t.name.as_str())
            .filter(move |name| self.servers.owner(name).is_some_and(|(owner, _)| owner.name == server.name))
    }
}

fn sessions<'c>(ctx: &'c LintContext<'_>) -> &'c McpSessions {
    ctx.mcp_sessions.get_or_init(|| McpSessions::of(ctx))
}

/// The probe's tools, or else the exact `<namespace>__<tool>` names of enabled servers that
/// the tool policies write.
fn declared_tools(ctx: &LintContext<'_>, servers: &McpServers) -> Vec<PluginTool> {
    let plugin = mcp_plugin_id();
    if let Some(probe) = ctx.mcp_probe {
        return probe.plugin_tools(plugin);
    }
    let namespaces: Vec<(String, &str)> = servers
        .servers
        .iter()
        .filter(|s| s.enabled)
        .map(|s| (format!("{}__", s.namespace).to_lowercase(), s.namespace.as_str()))
        .collect();
    let mut names: Vec<String> = Vec::new();
    for list in policy_lists(ctx.config()) {
        for (_, entry) in &list.entries {
            let entry = js_trim(entry);
            if entry.contains('*') {
                continue;
            }
            let lowered = entry.to_lowercase();
            let Some((prefix, namespace)) = namespaces.iter().find(|(p, _)| lowered.starts_with(p.as_str())) else {
                continue;
            };
            let name = format!("{namespace}__{}", &entry[prefix.len()..]);
            if entry.len() > prefix.len() && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
        .into_iter()
        .map(|name| PluginTool { plugin: plugin.into(), name, optional: false, profiles: Vec::new() })
        .collect()
}

/// The server's own names of the tools the probe lists for it, when the probe reached it.
fn probed_tools(ctx: &LintContext<'_>, servers: &McpServers, server: &McpServerEntry) -> Option<Vec<String>> {
    let probe = ctx.mcp_probe?;
    probe.servers.get(&server.name)?;
    let owned =
        probe.tools.iter().filter_map(|name| servers.owner(name)).filter(|(owner, _)| owner.name == server.name);
    Some(owned.map(|(_, tool)| tool).collect())
}

fn filter_never_matches(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let servers = McpServers::of(ctx.config());
    let namespaces: Vec<String> = servers.servers.iter().map(|s| format!("{}__", s.namespace).to_lowercase()).collect();
    for server in &servers.servers {
        let Some(filter) = &server.filter else { continue };
        let probed = probed_tools(ctx, &servers, server);
        let hidden_none =
            ctx.mcp_probe.and_then(|p| p.servers.get(&server.name)).is_some_and(|s| s.filtered_tools == 0);
        let lists = [(ListKind::Allow, &filter.include), (ListKind::Deny, &filter.exclude)];
        for (kind, patterns) in lists {
            for (path, pattern) in patterns {
                let matches_probed = probed.iter().flatten().any(|tool| filter_pattern_matches(pattern, tool));
                let trimmed = js_trim(pattern);
                let lowered = trimmed.to_lowercase();
                if let Some(namespace) = namespaces.iter().find(|ns| lowered.starts_with(ns.as_str()))
                    && !matches_probed
                {
                    let own = &trimmed[namespace.len()..];
                    out.report(
                        path,
                        format!(
                            "`{pattern}` is a namespaced tool name, but `toolFilter` matches the server's own tool \
                             names (`{own}`), so it never matches"
                        ),
                    )
                    .help(format!("write `{own}`"));
                    continue;
                }
                let Some(probed) = probed.as_ref().filter(|_| !matches_probed) else { continue };
                match kind {
                    ListKind::Allow => {
                        let known: Vec<&str> = probed.iter().map(String::as_str).collect();
                        let hint =
                            did_you_mean(trimmed, &known).map(|t| format!("did you mean `{t}`? ")).unwrap_or_default();
                        out.report(
                            path,
                            format!(
                                "`{pattern}` matches none of the tools the probe lists for MCP server `{}`",
                                server.name
                            ),
                        )
                        .help(format!("{hint}the probe lists: {}", known.join(", ")));
                    }
                    _ if hidden_none => {
                        out.report(
                            path,
                            format!("`{pattern}` hides no tool: the probe found none hidden on `{}`", server.name),
                        )
                        .help("remove the pattern, or correct it to one of the server's own tool names");
                    }
                    _ => {}
                }
            }
        }
    }
}

fn server_tools_all_removed(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let sessions = sessions(ctx);
    for server in sessions.servers.servers.iter().filter(|s| s.enabled) {
        let probed = ctx.mcp_probe.and_then(|p| p.servers.get(&server.name));
        if let Some(probed) = probed.filter(|p| p.tools == 0 && p.filtered_tools > 0) {
            let filter = server.path.key(config_keys::TOOL_FILTER);
            out.report(&filter, format!("the `toolFilter` hides all {} tools of MCP server `{}`", probed.filtered_tools, server.name))
                .help("the filter matches the server's own tool names: `openclaw mcp probe` with the filter removed lists them");
            continue;
        }
        let tools: Vec<&str> = sessions.tools_of(server).collect();
        let Some(first) = tools.first() else { continue };
        if sessions.resolutions.is_empty()
            || !sessions.resolutions.iter().all(|(_, r)| tools.iter().all(|t| absent(r, t)))
        {
            continue;
        }
        let why = sessions.resolutions[0].1.absence(first).map(|(_, why)| why).unwrap_or_default();
        out.report(
            &server.path,
            format!(
                "no agent's main or sub-agent session gets a tool of MCP server `{}` ({} known; {why})",
                server.name,
                tools.len()
            ),
        )
        .help(format!("`clawpolicy explain {first}` shows each step; allow the tools the agents should use"));
    }
}

fn absent(resolution: &Resolution, tool: &str) -> bool {
    !resolution.tools.iter().any(|t| t == tool)
}

fn also_allow_removed_later(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let sessions = sessions(ctx);
    if sessions.resolutions.is_empty() {
        return;
    }
    let roster = agents(ctx);
    for list in policy_lists(ctx.config()).iter().filter(|l| l.kind == ListKind::AlsoAllow) {
        let keys: Vec<&str> = list.scope.segments().iter().filter_map(|s| s.as_key()).collect();
        // Provider, sender and group lists apply to sessions the rule does not resolve.
        if keys
            .iter()
            .any(|k| [config_keys::BY_PROVIDER, config_keys::TOOLS_BY_SENDER, config_keys::CHANNELS].contains(k))
        {
            continue;
        }
        // An agent's own list applies to that agent's sessions only, a sandbox list to sandboxed
        // sessions, a sub-agent list to sub-agents.
        let owner = roster.iter().find(|a| a.path.as_ref().is_some_and(|p| list.scope.0.starts_with(&p.0)));
        let (sandbox_only, subagent_only) =
            (keys.contains(&config_keys::SANDBOX), keys.contains(&config_keys::SUBAGENTS));
        let applies = |agent: &String, r: &Resolution| {
            owner.is_none_or(|a| &a.id == agent)
                && (!sandbox_only || r.sandbox.sandboxed)
                && (!subagent_only || r.subagent_role != crate::policy::session::SubagentRole::Main)
        };
        for (path, pattern) in &list.entries {
            let matched: Vec<&str> =
                sessions.tools.iter().map(|t| t.name.as_str()).filter(|t| entry_names(ctx, pattern, t)).collect();
            if matched.is_empty() {
                continue;
            }
            let mut steps: Vec<&str> = Vec::new();
            let mut applying = sessions.resolutions.iter().filter(|(agent, r)| applies(agent, r)).peekable();
            if applying.peek().is_none() {
                continue;
            }
            let always_removed = applying.all(|(_, r)| {
                matched.iter().all(|tool| match r.removed.get(*tool) {
                    Some(removal) => {
                        if !steps.contains(&&*removal.audit_label) {
                            steps.push(&removal.audit_label);
                        }
                        true
                    }
                    None => false,
                })
            });
            if always_removed && !steps.is_empty() {
                report_removed_later(out, path, pattern, &matched, &steps);
            }
        }
    }
}

fn report_removed_later(out: &mut Emitter<'_, '_>, path: &KeyPath, pattern: &str, matched: &[&str], steps: &[&str]) {
    let steps = steps.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ");
    out.report(
        path,
        format!(
            "`{pattern}` re-allows the MCP tools {}, but {steps} removes them again in every session it applies to",
            matched.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
        ),
    )
    .help("allow them in that step too (for the sandbox: `tools.sandbox.tools.alsoAllow`), or drop the entry");
}

/// Whether the policy entry `pattern` names the MCP tool `tool`: the tool itself (globs
/// allowed), `bundle-mcp` or `group:plugins`.
fn entry_names(ctx: &LintContext<'_>, pattern: &str, tool: &str) -> bool {
    let entry = ctx.pack.normalize(pattern);
    entry == mcp_plugin_id()
        || entry == "group:plugins"
        || (entry != "*" && crate::base::glob::glob_matches(&entry, &ctx.pack.normalize(tool)))
}
