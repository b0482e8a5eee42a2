//! Dead and contradictory rules across the policy layers, in the spirit of cargo-deny's
//! unmatched lints: entries that are written but can never take effect.

use crate::lint::registry::Applies;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::walk::{Agent, ListKind, agents, main_session, policy_lists};
use crate::config::path::KeyPath;
use crate::config::view::keys;
use crate::lint::{Category, Emitter, LintContext, Rule, Severity};
use crate::policy::matcher::{PluginGroups, Verdict, expand_entry};
use crate::policy::rules::Source;
use crate::policy::steps::StepKind;
use crate::policy::{Removal, Resolution, spawn};

pub const RULES: &[Rule] = &[
    Rule {
        code: "CP301",
        name: "subagent-also-allow-ignored",
        severity: Severity::Warning,
        category: Category::DeadRules,
        summary: "`tools.subagents.tools.alsoAllow` without `allow`.",
        why: "OpenClaw 2026.9 ignores a sub-agent `alsoAllow` unless an `allow` list is set in the same scope (and \
              both together are a config error), so the tools it names stay denied to sub-agents.",
        example: "tools: { subagents: { tools: { alsoAllow: [\"browser\"] } } }",
        fix: "Write the sub-agent tools as `allow` (the full list sub-agents may use).",
        openclaw_check: None,
        applies: Applies::When(|release| release.lint().subagent_also_allow_needs_allow),
        needs_valid_config: true,
        check: subagent_also_allow,
    },
    Rule {
        code: "CP302",
        name: "sandbox-also-allow-ignored",
        severity: Severity::Warning,
        category: Category::DeadRules,
        summary: "A sandbox `alsoAllow` the release ignores.",
        why: "2026.2 ignores `tools.sandbox.tools.alsoAllow` entirely; 2026.9 ignores it when the same sandbox \
              policy has `allow: []` (which allows everything). The tools it names are not re-allowed in the \
              sandbox.",
        example: "tools: { sandbox: { tools: { allow: [], alsoAllow: [\"browser\"] } } }",
        fix: "On 2026.2, list the tools in the sandbox `allow` instead. On 2026.9, remove the empty `allow`.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: true,
        check: sandbox_also_allow,
    },
    Rule {
        code: "CP303",
        name: "deny-shadows-allow",
        severity: Severity::Warning,
        category: Category::DeadRules,
        summary: "An allow entry whose tools the same scope also denies.",
        why: "Deny always wins over allow, so the allow entry has no effect; the policy says two opposite things.",
        example: "tools: { allow: [\"exec\", \"read\"], deny: [\"group:runtime\"] }",
        fix: "Remove the allow entry, or narrow the deny if the tool should be allowed.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: true,
        check: deny_shadows_allow,
    },
    Rule {
        code: "CP304",
        name: "allow-after-removal",
        severity: Severity::Warning,
        category: Category::DeadRules,
        summary: "A later layer allows a tool an earlier layer already removed (a sandbox allow of a tool denied \
                  globally, …).",
        why: "Each step can only narrow the tool list: a later allow never brings a tool back. The entry suggests \
              the tool is available when it is not.",
        example: "agents: { defaults: { sandbox: { mode: \"all\" } } },\ntools: { deny: [\"exec\"], sandbox: { tools: { allow: [\"exec\", \"read\"] } } }",
        fix: "Allow the tool at the step that removed it (`clawpolicy explain <tool>` shows the smallest edit), or \
              remove the dead entry.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: true,
        check: allow_after_removal,
    },
    Rule {
        code: "CP305",
        name: "agent-without-tools",
        severity: Severity::Warning,
        category: Category::DeadRules,
        summary: "An agent whose main session ends up with no tools at all.",
        why: "Usually an allowlist whose entries all miss (typos, plugin tools that are not loaded) or a deny that \
              is broader than meant. The agent can only chat.",
        example: "tools: { deny: [\"*\"] }",
        fix: "Run `clawpolicy tools --agent <id>` to see which step removed everything, and fix that step.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: true,
        check: agent_without_tools,
    },
    Rule {
        code: "CP306",
        name: "allow-of-unbuilt-tool",
        severity: Severity::Suggestion,
        category: Category::DeadRules,
        summary: "An allow entry for a tool the release never builds for this agent (a provider-gated tool, a \
                  disabled feature).",
        why: "Allowing a tool does not create it: the entry has no effect until the feature that builds the tool is \
              enabled.",
        example: "// OpenClaw 2026.9, 2026.8, 2026.7, 2026.6:\ntools: { alsoAllow: [\"x_search\"] }\n// OpenClaw 2026.5, 2026.4, 2026.3, 2026.2:\ntools: { alsoAllow: [\"apply_patch\"] }",
        fix: "Enable the feature the message names, or remove the entry.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: true,
        check: allow_of_unbuilt_tool,
    },
    Rule {
        code: "CP307",
        name: "spawned-child-without-tools",
        severity: Severity::Warning,
        category: Category::DeadRules,
        summary: "A spawn the config allows leaves the sub-agent with no tools.",
        why: "OpenClaw 2026.9 hands a requester's effective allowlist and its denies down to each sub-agent it \
              spawns (step `inherited tools`), on top of the sub-agent's own policy. When the requester's list \
              and the child's tools do not overlap, or the sub-agent policy removes the rest, the child starts \
              with no callable tools and the spawned run fails.",
        example: "agents: { ownership: \"explicit\", entries: {\n  main: { tools: { allow: [\"read\", \"sessions_spawn\"] }, subagents: { allowAgents: [\"writer\"] } },\n  writer: { tools: { allow: [\"write\"] } },\n} }",
        fix: "Allow one of the child's tools in the requester's policy, or give the child a tool the requester \
              keeps; `clawpolicy explain <tool> --agent <child> --spawned-by <requester>` shows the smallest \
              edit on either side.",
        openclaw_check: None,
        // Where a sub-agent inherits its requester's policy (2026.9's `inherited tools` step).
        applies: Applies::When(|release| release.policy().subagents.inherits_requester_policy),
        needs_valid_config: true,
        check: spawned_child_without_tools,
    },
];

fn non_empty_array(value: Option<&Value>) -> bool {
    value.and_then(Value::as_array).is_some_and(|a| !a.is_empty())
}

fn subagent_also_allow(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let scope = KeyPath::keys(&[keys::TOOLS, keys::SUBAGENTS, keys::TOOLS]);
    let Some(policy) = scope.lookup(ctx.config()) else { return };
    if non_empty_array(policy.get(keys::ALSO_ALLOW)) && policy.get(keys::ALLOW).is_none() {
        out.report(
            &scope.key(keys::ALSO_ALLOW),
            "sub-agent `alsoAllow` without `allow` is ignored: these tools stay denied",
        )
        .help("rename `alsoAllow` to `allow` and list every tool sub-agents may use");
    }
}

/// Sandbox tool policies: the global one and every agent's.
fn sandbox_scopes(ctx: &LintContext<'_>) -> Vec<KeyPath> {
    let mut scopes = vec![KeyPath::keys(&[keys::TOOLS, keys::SANDBOX, keys::TOOLS])];
    scopes.extend(
        agents(ctx)
            .iter()
            .filter_map(|a| a.path.as_ref())
            .map(|p| p.key(keys::TOOLS).key(keys::SANDBOX).key(keys::TOOLS)),
    );
    scopes
}

fn sandbox_also_allow(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for scope in sandbox_scopes(ctx) {
        let Some(policy) = scope.lookup(ctx.config()) else { continue };
        if !non_empty_array(policy.get(keys::ALSO_ALLOW)) {
            continue;
        }
        let empty_allow = policy.get(keys::ALLOW).and_then(Value::as_array).is_some_and(Vec::is_empty);
        let reason = if !ctx.pack.sandbox.also_allow {
            format!("OpenClaw {} ignores sandbox `alsoAllow`", ctx.version)
        } else if empty_allow {
            "`allow: []` allows everything and makes `alsoAllow` ignored".to_string()
        } else {
            continue;
        };
        out.report(&scope.key(keys::ALSO_ALLOW), format!("{reason}: these tools are not re-allowed in the sandbox"))
            .help(if ctx.pack.sandbox.also_allow {
                "remove the empty `allow` list"
            } else {
                "list these tools in the sandbox `allow` instead"
            });
    }
}

fn deny_shadows_allow(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let plugins = PluginGroups::default();
    let lists = policy_lists(ctx.config());
    for allow in lists.iter().filter(|l| l.kind != ListKind::Deny) {
        let Some(deny) = lists.iter().find(|l| l.kind == ListKind::Deny && l.scope == allow.scope) else { continue };
        let denied: Vec<String> = deny
            .entries
            .iter()
            .flat_map(|(_, pattern)| expand_entry(ctx.pack, pattern, &plugins))
            .map(|(name, _)| name)
            .collect();
        let is_denied = |name: &str| denied.iter().any(|d| d == name || crate::base::glob::glob_matches(d, name));
        for (path, pattern) in &allow.entries {
            let names: Vec<String> =
                expand_entry(ctx.pack, pattern, &plugins).into_iter().map(|(name, _)| name).collect();
            if pattern.trim() != "*" && !names.is_empty() && names.iter().all(|n| is_denied(n)) {
                out.report(path, format!("`{pattern}` is allowed and denied in the same scope: deny wins"))
                    .help(format!("remove `{pattern}` from `{}`, or narrow the deny", allow.path()));
            }
        }
    }
}

/// The sessions of each agent worth checking: its main session, and a sandboxed one when the
/// config sets up a sandbox. Resolved once per lint run (see [`LintContext::main_resolution`]).
fn resolutions<'c>(ctx: &'c LintContext<'_>) -> Vec<(String, &'static str, &'c Resolution)> {
    let sandbox_configured = |agent: &Agent| {
        ctx.get(&[keys::AGENTS, keys::DEFAULTS, keys::SANDBOX]).is_some()
            || agent.path.as_ref().is_some_and(|p| p.key(keys::SANDBOX).lookup(ctx.config()).is_some())
    };
    let mut out = Vec::new();
    for agent in agents(ctx) {
        if let Some(resolution) = ctx.main_resolution(&agent.id) {
            out.push((agent.id.clone(), "main session", resolution));
        }
        if sandbox_configured(agent)
            && let Some(resolution) = ctx.sandboxed_resolution(&agent.id)
        {
            out.push((agent.id.clone(), "sandboxed session", resolution));
        }
    }
    out
}

/// A dead allow entry: where it is, what it says, and what removed its tool first.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct DeadAllow {
    path: KeyPath,
    pattern: String,
    step: String,
    tool: String,
    removed_by: String,
    /// ` (path)` of the entry that removed it, when it is in the config.
    removed_at: String,
}

fn allow_after_removal(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    // One finding per dead entry, listing every agent and session where it is dead.
    let mut dead: BTreeMap<DeadAllow, BTreeSet<String>> = BTreeMap::new();
    for (agent, label, resolution) in resolutions(ctx) {
        let step_index = |step: &str| resolution.steps.iter().position(|s| s.step.label == step);
        for (index, record) in resolution.steps.iter().enumerate().skip(1) {
            let Some(allow) = &record.step.policy.allow else { continue };
            for (entry_index, entry) in allow.iter().enumerate() {
                let Some(path) = entry.source.config_path() else { continue };
                let matched: Vec<&str> = record
                    .verdicts
                    .sorted()
                    .into_iter()
                    .filter(|(_, verdict)| matches!(verdict, Verdict::Allowed { by } if by.entry == entry_index))
                    .map(|(tool, _)| tool)
                    .collect();
                let removed_earlier: Vec<(&str, &Removal)> = matched
                    .iter()
                    .filter_map(|tool| resolution.removed.get(*tool).map(|r| (*tool, r)))
                    .filter(|(_, removal)| step_index(&removal.step).is_some_and(|at| at < index))
                    .collect();
                let Some(&(tool, removal)) = removed_earlier.first() else { continue };
                if removed_earlier.len() != matched.len() {
                    continue;
                }
                let by = removal
                    .source
                    .as_deref()
                    .and_then(Source::config_path)
                    .map_or(String::new(), |p| format!(" ({p})"));
                let key = DeadAllow {
                    path: path.clone(),
                    pattern: entry.pattern.clone(),
                    step: record.step.label.clone(),
                    tool: tool.to_string(),
                    removed_by: removal.audit_label.to_string(),
                    removed_at: by,
                };
                dead.entry(key).or_default().insert(format!("{agent} ({label})"));
            }
        }
    }
    for (entry, sessions) in dead {
        let agents: BTreeSet<&str> = sessions.iter().filter_map(|s| s.split(' ').next()).collect();
        let listed = sessions.iter().map(String::as_str).collect::<Vec<_>>().join(", ");
        let finding = out.report(
            &entry.path,
            format!(
                "`{}` in `{}` can never take effect: `{}` is already removed by `{}`{}, for {}",
                entry.pattern, entry.step, entry.tool, entry.removed_by, entry.removed_at, listed
            ),
        );
        let example_agent = agents.first().copied().unwrap_or("main");
        if agents.len() == 1 {
            finding.agent(example_agent);
        }
        finding.help(format!(
            "run `clawpolicy explain {} --agent {example_agent}` for the edit that would keep it",
            entry.tool
        ));
    }
}

fn agent_without_tools(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for agent in agents(ctx) {
        let Some(resolution) = ctx.main_resolution(&agent.id) else { continue };
        if !resolution.tools.is_empty() {
            continue;
        }
        let path = agent.path.clone().map_or_else(|| KeyPath::keys(&[keys::TOOLS]), |p| p.key(keys::TOOLS));
        out.report(&path, format!("agent `{}` has no tools in its main session", agent.id))
            .agent(agent.id.clone())
            .help(format!("run `clawpolicy tools --agent {}` to see which step removed them", agent.id));
    }
}

fn allow_of_unbuilt_tool(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for (agent, label, resolution) in resolutions(ctx).into_iter().filter(|(_, label, _)| *label == "main session") {
        for record in &resolution.steps {
            for entry in record.step.policy.allow.iter().flatten() {
                let Some(path) = entry.source.config_path() else { continue };
                let name = ctx.pack.normalize(&entry.pattern);
                if let Some(reason) = resolution.not_constructed.get(&name) {
                    out.report(path, format!("`{name}` is never built for agent `{agent}` ({label}): {reason}"))
                        .agent(agent.clone())
                        .help("enable the feature that builds the tool, or remove the entry");
                }
            }
        }
    }
}

fn spawned_child_without_tools(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let agents = agents(ctx);
    let can_spawn = |requester: &String| {
        ctx.main_resolution(requester).is_some_and(|main| main.tools.iter().any(|t| t == spawn::SPAWN_TOOL))
    };
    let pairs: Vec<(String, String)> = spawn::allowed_pairs(ctx.version, ctx.config())
        .into_iter()
        .filter(|(requester, _)| can_spawn(requester))
        .collect();
    // Each spawn is its own resolution: resolved side by side, a batch at a time (which bounds
    // what is held at once), and kept only when it has no tools.
    const BATCH: usize = 256;
    for batch in pairs.chunks(BATCH) {
        let toolless = crate::base::parallel::par_map(batch, |(requester, child)| {
            let request = spawn::request(main_session(requester), Some(child.clone()));
            ctx.resolve(&request).and_then(|r| spawn::made(r).ok()).filter(|resolved| resolved.tools.is_empty())
        });
        for ((requester, child), resolved) in batch.iter().zip(toolless) {
            report_toolless_child(ctx, out, agents, (requester, child), resolved);
        }
    }
}

/// The finding for a spawned child left without tools (`resolved`, when it has none): where its
/// last tools were removed, on the requester's side or the child's.
fn report_toolless_child(
    ctx: &LintContext<'_>,
    out: &mut Emitter<'_, '_>,
    agents: &[Agent],
    (requester, child): (&String, &String),
    resolved: Option<Resolution>,
) {
    let (Some(requester_main), Some(resolved)) = (ctx.main_resolution(requester), resolved) else { return };
    // The step that removed the last tools: the requester's list when it is the inherited one.
    let Some(emptied) = resolved.steps.iter().rev().find(|r| !r.removed.is_empty()) else { return };
    let inherited = emptied.step.kind == StepKind::Inherited;
    let child_tools = agents.iter().find(|a| a.id == *child).and_then(|a| a.path.clone()).map(|p| p.key(keys::TOOLS));
    let location = if inherited {
        written_allowlist(requester_main)
    } else {
        emptied.removed.iter().find_map(|t| resolved.removed.get(t)?.source.as_ref()?.config_path().cloned())
    };
    let Some(path) = location.or(child_tools) else { return };
    let lost = emptied.removed.join(", ");
    let message = if inherited {
        format!(
            "agent `{child}` spawned by `{requester}` has no tools: `{requester}` passes down only [{}], and \
             `inherited tools` removes the child's last tools ({lost})",
            requester_main.tools.join(", ")
        )
    } else {
        format!(
            "agent `{child}` spawned by `{requester}` has no tools: `{}` removes the last ({lost})",
            emptied.step.label
        )
    };
    let tool = emptied.removed.first().map_or("<tool>", String::as_str);
    out.report(&path, message).agent(child.clone()).help(format!(
        "run `clawpolicy explain {tool} --agent {child} --spawned-by {requester}` for the smallest edit on \
         either side"
    ));
}

/// Where a session's restricting allowlist is written: the first config-written `allow` list of
/// its steps.
fn written_allowlist(resolution: &Resolution) -> Option<KeyPath> {
    let entries = resolution.steps.iter().flat_map(|r| r.step.policy.allow.iter().flatten());
    entries.filter_map(|e| e.source.config_path()).next().map(|path| {
        let mut list = path.clone();
        list.0.pop();
        list
    })
}
