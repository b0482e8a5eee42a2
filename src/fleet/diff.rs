//! `diff`: what a change grants. Every enumerated session (of either side) is resolved under the
//! base and the head side, each a config under a release: two configs under one release (`diff`)
//! or one config under two releases (`upgrade`). The report lists each (agent, context, tool)
//! that became reachable or unreachable with the deciding step on each side, each agent's exec
//! posture changes, and the probe commands whose exec decision flips.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::Value;

use crate::OpenClawVersion;
use crate::config::Location;
use crate::config::view::inbound::Audience;
use crate::exec::{ApprovalsInput, ExecError};
use crate::fleet::contexts::{NamedContext, Sessions};
use crate::fleet::delta::{self, Locate, Side, ToolChange, ToolState};
use crate::fleet::probe::{self, ExecProber, ExecVerdict, PostureSetting};
use crate::policy::session::SessionError;
use crate::policy::{PluginTool, Resolution};
use crate::report::{Finding, Level, Rule};

/// One side of the diff: a loaded config, the release that reads it, and where its keys are written.
pub struct Config<'a> {
    pub value: &'a Value,
    pub version: OpenClawVersion,
    /// `file:line:col` of a key, if it exists.
    pub locate: Locate<'a>,
    /// `file:line:col` of a key or of its nearest written ancestor (where it would go).
    pub locate_nearest: Locate<'a>,
}

/// What to compare besides the two sides.
pub struct Options<'a> {
    pub plugin_tools: &'a [PluginTool],
    /// Stored cron jobs whose runs are enumerated on both sides.
    pub jobs: &'a [crate::policy::automation::jobs::CronJob],
    /// Only these agents; empty means all.
    pub agents: &'a [String],
    pub probes: &'a [String],
    pub approvals: ApprovalsInput,
    pub cwd: std::path::PathBuf,
}

/// Tools that became reachable or unreachable in one session.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccessChange {
    pub agent_id: String,
    pub context: String,
    pub description: String,
    pub changes: Vec<LocatedChange>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocatedChange {
    #[serde(flatten)]
    pub change: ToolChange,
    /// Where on the head side the change is decided (or where the removed rule used to go).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

/// A session that more senders can reach than before, with the tools it holds: new access even
/// when its tool set did not change.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AudienceChange {
    pub agent_id: String,
    pub context: String,
    pub description: String,
    pub base: Audience,
    pub head: Audience,
    /// The inbound routes that reach the session in the head config.
    pub reached_by: Vec<String>,
    /// The session's tools in the head config.
    pub tools: Vec<String>,
    /// Where the widest head-side route is opened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

/// An exec setting of an agent that changed.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PostureChange {
    pub agent_id: String,
    pub setting: String,
    pub base: Option<Value>,
    pub head: Option<Value>,
    pub base_source: Option<String>,
    pub head_source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

/// A probe command whose decision differs in one session.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecFlip {
    pub agent_id: String,
    pub context: String,
    pub command: String,
    pub base: ExecVerdict,
    pub head: ExecVerdict,
    /// The command can do more under the head config (deny → ask, ask → allow, …).
    pub loosened: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub tools_gained: usize,
    /// Sessions holding tools that more senders can reach.
    pub audiences_widened: usize,
    pub tools_lost: usize,
    pub exec_loosened: usize,
    pub exec_tightened: usize,
    pub posture_changes: usize,
    /// A tool became reachable, a session holding tools became reachable by more senders, or an
    /// exec decision loosened.
    pub new_access: bool,
}

/// A context as listed on request (`--show-contexts`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedContext {
    pub agent_id: String,
    pub context: String,
    pub description: String,
    pub in_base: bool,
    pub in_head: bool,
}

/// What differs between the two sides.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Changes {
    pub agents_added: Vec<String>,
    pub agents_removed: Vec<String>,
    pub access: Vec<AccessChange>,
    pub audiences: Vec<AudienceChange>,
    pub posture: Vec<PostureChange>,
    pub exec: Vec<ExecFlip>,
    pub probes: Vec<String>,
    pub contexts: Vec<ListedContext>,
    pub summary: Summary,
}

/// Compares the base and head sides.
pub fn diff(base: &Config<'_>, head: &Config<'_>, options: &Options<'_>) -> Result<Changes, ExecError> {
    let selected = |agents: Vec<String>| -> Vec<String> {
        agents.into_iter().filter(|a| options.agents.is_empty() || options.agents.contains(a)).collect()
    };
    let (base_sessions, head_sessions) = (
        Sessions::new(base.version, base.value).with_jobs(options.jobs),
        Sessions::new(head.version, head.value).with_jobs(options.jobs),
    );
    let base_agents = selected(base_sessions.agents().to_vec());
    let head_agents = selected(head_sessions.agents().to_vec());
    let (base_contexts, head_contexts) = (
        base_sessions.contexts_of(&base_agents, options.plugin_tools),
        head_sessions.contexts_of(&head_agents, options.plugin_tools),
    );
    let mut listed: Vec<ListedContext> = Vec::new();
    let mut union: Vec<NamedContext> = Vec::new();
    // (agent, context) → its place in `listed`.
    let mut seen: HashMap<(&str, &str), usize> = HashMap::new();
    for (context, in_head) in head_contexts.iter().map(|c| (c, true)).chain(base_contexts.iter().map(|c| (c, false))) {
        match seen.entry((context.agent_id.as_str(), context.id.as_str())) {
            Entry::Occupied(at) => listed[*at.get()].in_base = true,
            Entry::Vacant(slot) => {
                slot.insert(listed.len());
                listed.push(ListedContext {
                    agent_id: context.agent_id.clone(),
                    context: context.id.clone(),
                    description: context.description.clone(),
                    in_base: !in_head,
                    in_head,
                });
                union.push(context.clone());
            }
        }
    }

    // Each side's roster, agent set and exec prober, made once for all its sessions.
    let (base_side, head_side) =
        (Prepared::new(base, &base_agents, options), Prepared::new(head, &head_agents, options));
    // Each session is compared on its own (in parallel); only the differences are kept.
    type Compared = (Option<AccessChange>, Option<AudienceChange>, Vec<ExecFlip>);
    let compared = crate::base::parallel::par_map(&union, |context| -> Result<Compared, ExecError> {
        let before = base_side.resolve(context);
        let after = head_side.resolve(context);
        let audience = audience_change(context, &base_sessions, &head_sessions, &before, &after, head);
        let mut changes = delta::tool_changes(
            &Side { resolution: before.as_ref().map_err(Clone::clone), locate: base.locate },
            &Side { resolution: after.as_ref().map_err(Clone::clone), locate: head.locate },
        );
        name_tools_a_release_lacks(&mut changes, base.version, head.version);
        let access = (!changes.is_empty()).then(|| AccessChange {
            agent_id: context.agent_id.clone(),
            context: context.id.clone(),
            description: context.description.clone(),
            changes: changes
                .into_iter()
                .map(|change| LocatedChange { location: head_location(&change, head), change })
                .collect(),
        });
        let (was, now) = (base_side.verdicts(&before, options.probes)?, head_side.verdicts(&after, options.probes)?);
        let flips = (options.probes.iter().zip(was.into_iter().zip(now)))
            .filter(|(_, (was, now))| was != now)
            .map(|(command, (was, now))| ExecFlip {
                agent_id: context.agent_id.clone(),
                context: context.id.clone(),
                command: command.clone(),
                base: was,
                head: now,
                loosened: was.loosens_to(now),
                location: exec_location(&head_side, &context.agent_id),
            })
            .collect();
        Ok((access, audience, flips))
    });
    let mut access = Vec::new();
    let mut audiences = Vec::new();
    let mut flips = Vec::new();
    for result in compared {
        let (changes, audience, context_flips) = result?;
        access.extend(changes);
        audiences.extend(audience);
        flips.extend(context_flips);
    }

    let in_base: HashSet<&String> = base_agents.iter().collect();
    let posture: Vec<PostureChange> = head_agents
        .iter()
        .filter(|a| in_base.contains(a))
        .flat_map(|agent| posture_changes(agent, &base_side.postures.of(agent), &head_side.postures.of(agent), head))
        .collect();

    let gained = access.iter().flat_map(|a| &a.changes).filter(|c| c.change.gained).count();
    let summary = Summary {
        tools_gained: gained,
        audiences_widened: audiences.len(),
        tools_lost: access.iter().map(|a| a.changes.len()).sum::<usize>() - gained,
        exec_loosened: flips.iter().filter(|f| f.loosened).count(),
        exec_tightened: flips.iter().filter(|f| !f.loosened).count(),
        posture_changes: posture.len(),
        new_access: gained > 0 || !audiences.is_empty() || flips.iter().any(|f| f.loosened),
    };
    Ok(Changes {
        agents_added: head_agents.iter().filter(|a| !base_agents.contains(a)).cloned().collect(),
        agents_removed: base_agents.iter().filter(|a| !head_agents.contains(a)).cloned().collect(),
        access,
        audiences,
        posture,
        exec: flips,
        probes: options.probes.to_vec(),
        contexts: listed,
        summary,
    })
}

/// A tool one side's release does not have at all (the other's does) is not built there because
/// the release has no such tool: say so rather than "not a candidate".
fn name_tools_a_release_lacks(changes: &mut [ToolChange], base: OpenClawVersion, head: OpenClawVersion) {
    let has = |version: OpenClawVersion, tool: &str| version.policy().tools.iter().any(|t| t.id == tool);
    for change in changes {
        let (missing, version, other) =
            if change.gained { (&mut change.before, base, head) } else { (&mut change.after, head, base) };
        if matches!(missing, ToolState::NotConstructed { .. })
            && has(other, &change.tool)
            && !has(version, &change.tool)
        {
            *missing = ToolState::NotConstructed { reason: format!("OpenClaw {} has no such tool", version.id()) };
        }
    }
}

/// One side made ready to resolve its sessions and probe exec in them.
struct Prepared<'s, 'a> {
    config: &'s Config<'a>,
    roster: crate::policy::Roster<'a>,
    known: std::collections::HashSet<String>,
    prober: ExecProber,
    postures: probe::Postures<'a>,
}

impl<'s, 'a> Prepared<'s, 'a> {
    fn new(config: &'s Config<'a>, agents: &[String], options: &Options<'_>) -> Self {
        Prepared {
            config,
            roster: crate::policy::Roster::new(config.value, config.version),
            known: agents.iter().cloned().collect(),
            prober: ExecProber::new(config.version, options.approvals.clone(), options.cwd.clone()),
            postures: probe::Postures::new(config.version, config.value, &options.approvals),
        }
    }

    fn resolve(&self, context: &NamedContext) -> Result<Resolution, String> {
        if !self.known.contains(&context.agent_id) {
            return Err(format!("agent {} is not in this config", context.agent_id));
        }
        // A spawn one side does not allow gives no child there: its tools are gained or lost.
        crate::policy::resolve_in(self.config.version, self.config.value, &self.roster, &context.ctx)
            .and_then(crate::policy::spawn::made)
            .map_err(|e: SessionError| e.to_string())
    }

    fn verdicts(&self, session: &Result<Resolution, String>, probes: &[String]) -> Result<Vec<ExecVerdict>, ExecError> {
        match session {
            Ok(resolution) => self.prober.verdicts(self.config.value, resolution, probes),
            Err(_) => Ok(vec![ExecVerdict::Unavailable; probes.len()]),
        }
    }
}

/// The session's audience on each side, when the head side lets in senders the base did not and
/// the session holds tools there.
fn audience_change(
    context: &NamedContext,
    base_sessions: &Sessions<'_>,
    head_sessions: &Sessions<'_>,
    before: &Result<Resolution, String>,
    after: &Result<Resolution, String>,
    head: &Config<'_>,
) -> Option<AudienceChange> {
    let tools = after.as_ref().ok().map(|r| r.tools.clone()).filter(|t| !t.is_empty())?;
    let (was, _) = match before {
        Ok(_) => base_sessions.audience(&context.agent_id, &context.ctx),
        Err(_) => (Audience::unreachable(), Vec::new()),
    };
    let (now, reached_by) = head_sessions.audience(&context.agent_id, &context.ctx);
    if !now.widens(&was) {
        return None;
    }
    let location =
        head_sessions.widest_route(&context.agent_id, &context.ctx).and_then(|path| (head.locate_nearest)(&path));
    Some(AudienceChange {
        agent_id: context.agent_id.clone(),
        context: context.id.clone(),
        description: context.description.clone(),
        base: was,
        head: now,
        reached_by,
        tools,
        location,
    })
}

/// The head-side place that decides a change: the rule written there now, else where the base
/// side's rule used to be (its nearest surviving ancestor), else the head step's config block.
fn head_location(change: &ToolChange, head: &Config<'_>) -> Option<Location> {
    match &change.after {
        ToolState::Removed { location, .. } | ToolState::Present { entry: Some(_), location, .. } => location.clone(),
        after => {
            let was_written = match &change.before {
                ToolState::Removed { source_path: Some(path), .. } => (head.locate_nearest)(path),
                _ => None,
            };
            was_written.or_else(|| after.location().cloned())
        }
    }
}

/// The agent's exec block on the head side, where an exec decision is configured.
fn exec_location(head_side: &Prepared<'_, '_>, agent: &str) -> Option<Location> {
    let head = head_side.config;
    let settings = head_side.postures.of(agent);
    let configured = settings.iter().filter_map(PostureSetting::config_path).find_map(|p| (head.locate)(&p));
    configured.or_else(|| (head.locate_nearest)(&crate::config::view::tools::exec_path()))
}

fn posture_changes(
    agent: &str,
    was: &[PostureSetting],
    now: &[PostureSetting],
    head: &Config<'_>,
) -> Vec<PostureChange> {
    let mut names: Vec<&str> = now.iter().map(|s| s.setting).collect();
    names.extend(was.iter().map(|s| s.setting).filter(|n| !now.iter().any(|s| s.setting == *n)));
    names
        .into_iter()
        .filter_map(|name| {
            let before = was.iter().find(|s| s.setting == name);
            let after = now.iter().find(|s| s.setting == name);
            if before.map(|s| &s.value) == after.map(|s| &s.value) {
                return None;
            }
            let location = after
                .and_then(PostureSetting::config_path)
                .or_else(|| before.and_then(PostureSetting::config_path))
                .and_then(|path| (head.locate_nearest)(&path));
            Some(PostureChange {
                agent_id: agent.to_string(),
                setting: name.to_string(),
                base: before.map(|s| s.value.clone()),
                head: after.map(|s| s.value.clone()),
                base_source: before.map(|s| s.source.clone()),
                head_source: after.map(|s| s.source.clone()),
                location,
            })
        })
        .collect()
}

/// The same tool change in several sessions of one agent, reported once.
#[derive(Debug, Clone)]
pub struct ChangeGroup<'a> {
    pub agent_id: &'a str,
    pub contexts: Vec<&'a str>,
    /// The change as seen in the first of those sessions (all of them read the same).
    pub change: &'a LocatedChange,
}

/// Tool changes grouped per agent where tool, direction, both sides and location read the same.
pub fn change_groups(access: &[AccessChange]) -> Vec<ChangeGroup<'_>> {
    let mut groups: Vec<ChangeGroup<'_>> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for session in access {
        for located in &session.changes {
            let change = &located.change;
            let key = format!(
                "{}\0{}\0{}\0{}\0{}\0{:?}",
                session.agent_id,
                change.tool,
                change.gained,
                change.before.describe(),
                change.after.describe(),
                located.location
            );
            group_into(
                &mut groups,
                &mut index,
                key,
                |item| item.contexts.push(&session.context),
                || ChangeGroup { agent_id: &session.agent_id, contexts: vec![&session.context], change: located },
            );
        }
    }
    groups
}

/// Merges an item into the one `key` already names in `items`, or appends a new one: grouping in
/// first-seen order, linear in the number of items.
fn group_into<K: std::hash::Hash + Eq, T>(
    items: &mut Vec<T>,
    index: &mut HashMap<K, usize>,
    key: K,
    merge: impl FnOnce(&mut T),
    new: impl FnOnce() -> T,
) {
    match index.get(&key) {
        Some(&at) => merge(&mut items[at]),
        None => {
            index.insert(key, items.len());
            items.push(new());
        }
    }
}

/// Change groups that read the same but for their agent and tool: the same direction, in the
/// same sessions (a session spawned by the agent itself counts as the same session for every
/// agent), for the same reasons, decided at the same place. Reported once with every agent and
/// tool.
#[derive(Debug, Clone)]
pub struct SharedChange<'a> {
    pub agent_ids: Vec<&'a str>,
    pub tools: Vec<&'a str>,
    /// The sessions, `spawned-by:<the agent itself>` written as `spawned-by:itself`.
    pub contexts: Vec<String>,
    /// The change as the first agent's first tool reads it.
    pub change: &'a LocatedChange,
}

/// The label of a session of `agent` as every agent would read it (see [`SharedChange`]).
fn shared_context(agent: &str, context: &str) -> String {
    match context.strip_prefix("spawned-by:") {
        Some(requester) if requester == agent => "spawned-by:itself".to_string(),
        _ => context.to_string(),
    }
}

/// [`change_groups`] merged where they read the same, in first-seen order: first the agents of
/// each tool change, then the tools those agents gain or lose alike.
pub fn shared_changes<'a>(groups: &[ChangeGroup<'a>]) -> Vec<SharedChange<'a>> {
    let sides = |change: &LocatedChange, contexts: &[String]| {
        let c = &change.change;
        format!(
            "{}\0{}\0{}\0{}\0{:?}",
            c.gained,
            contexts.join("\0"),
            c.before.describe(),
            c.after.describe(),
            change.location
        )
    };
    let mut by_tool: Vec<SharedChange<'a>> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for group in groups {
        let contexts: Vec<String> = group.contexts.iter().map(|c| shared_context(group.agent_id, c)).collect();
        let key = format!("{}\0{}", group.change.change.tool, sides(group.change, &contexts));
        let tools = vec![group.change.change.tool.as_str()];
        let new = || SharedChange { agent_ids: vec![group.agent_id], tools, contexts, change: group.change };
        group_into(&mut by_tool, &mut index, key, |item| item.agent_ids.push(group.agent_id), new);
    }
    let mut shared: Vec<SharedChange<'a>> = Vec::new();
    index.clear();
    for change in by_tool {
        let key = format!("{}\0{}", change.agent_ids.join("\0"), sides(change.change, &change.contexts));
        // The item itself is either merged or kept: no closure pair can own it, so no `group_into`.
        match index.get(&key) {
            Some(&at) => shared[at].tools.extend(change.tools),
            None => {
                index.insert(key, shared.len());
                shared.push(change);
            }
        }
    }
    shared
}

/// Probe flips of one agent with the same change in the same sessions, reported once.
#[derive(Debug, Clone)]
pub struct FlipGroup<'a> {
    pub agent_id: &'a str,
    pub base: ExecVerdict,
    pub head: ExecVerdict,
    pub loosened: bool,
    pub contexts: Vec<&'a str>,
    pub commands: Vec<&'a str>,
    pub location: Option<&'a Location>,
}

/// Flips grouped: per agent and change, the sessions where a set of commands flips alike. Linear
/// in the number of flips (a fleet's probes flip by the thousand).
pub fn flip_groups(flips: &[ExecFlip]) -> Vec<FlipGroup<'_>> {
    let mut per_command: Vec<(&ExecFlip, Vec<&str>)> = Vec::new();
    let mut command_at: HashMap<(&str, ExecVerdict, ExecVerdict, &str), usize> = HashMap::new();
    for flip in flips {
        let key = (flip.agent_id.as_str(), flip.base, flip.head, flip.command.as_str());
        group_into(
            &mut per_command,
            &mut command_at,
            key,
            |item| item.1.push(&flip.context),
            || (flip, vec![&flip.context]),
        );
    }
    let mut groups: Vec<FlipGroup<'_>> = Vec::new();
    let mut group_at: HashMap<(&str, ExecVerdict, ExecVerdict, Vec<&str>), usize> = HashMap::new();
    for (flip, contexts) in per_command {
        let key = (flip.agent_id.as_str(), flip.base, flip.head, contexts.clone());
        group_into(
            &mut groups,
            &mut group_at,
            key,
            |item| item.commands.push(&flip.command),
            || FlipGroup {
                agent_id: &flip.agent_id,
                base: flip.base,
                head: flip.head,
                loosened: flip.loosened,
                contexts,
                commands: vec![&flip.command],
                location: flip.location.as_ref(),
            },
        );
    }
    groups
}

/// Flip groups that read the same but for their agent: the same change of the same commands in
/// the same sessions (a session spawned by the agent itself counts as the same for every agent),
/// decided at the same place. Reported once with every agent, as [`SharedChange`] is.
#[derive(Debug, Clone)]
pub struct SharedFlip<'a> {
    pub agent_ids: Vec<&'a str>,
    /// The sessions, `spawned-by:<the agent itself>` written as `spawned-by:itself`.
    pub contexts: Vec<String>,
    /// The first agent's group.
    pub group: FlipGroup<'a>,
}

/// [`flip_groups`] merged across agents where they read the same, in first-seen order.
pub fn shared_flips(groups: Vec<FlipGroup<'_>>) -> Vec<SharedFlip<'_>> {
    let mut shared: Vec<SharedFlip<'_>> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for group in groups {
        let contexts: Vec<String> = group.contexts.iter().map(|c| shared_context(group.agent_id, c)).collect();
        let key = format!(
            "{}\0{}\0{}\0{}\0{:?}",
            group.base,
            group.head,
            contexts.join("\0"),
            group.commands.join("\0"),
            group.location
        );
        group_into(
            &mut shared,
            &mut index,
            key,
            |item| item.agent_ids.push(group.agent_id),
            || SharedFlip { agent_ids: vec![group.agent_id], contexts, group },
        );
    }
    shared
}

/// The rules `diff` reports under (SARIF rule ids).
/// The rules diff findings refer to, for SARIF.
pub fn rules() -> Vec<Rule> {
    [
        ("diff/tool-gained", "A tool became reachable in a session"),
        ("diff/tool-lost", "A tool became unreachable in a session"),
        ("diff/audience-widened", "A session holding tools became reachable by more senders"),
        ("diff/exec-loosened", "A probe command's exec decision loosened"),
        ("diff/exec-tightened", "A probe command's exec decision tightened"),
        ("diff/exec-posture", "An agent's exec setting changed"),
        ("diff/agent-added", "An agent was added"),
        ("diff/agent-removed", "An agent was removed"),
    ]
    .iter()
    .map(|(id, summary)| Rule::new(id, summary, Level::Warning))
    .collect()
}

/// The report as generic findings for SARIF and GitHub annotations. New access is an error when
/// it fails the run (`fail_on_new_access`), a warning otherwise.
pub fn findings(report: &Changes, fail_on_new_access: bool, fallback_file: Option<&str>) -> Vec<Finding> {
    let access_level = if fail_on_new_access { Level::Error } else { Level::Warning };
    let at = |location: Option<&Location>| {
        location.cloned().or_else(|| fallback_file.map(|file| Location { file: file.to_string(), line: 1, column: 1 }))
    };
    let mut out = Vec::new();
    for agent in &report.agents_added {
        out.push(Finding {
            rule_id: "diff/agent-added".into(),
            level: Level::Note,
            title: format!("agent {agent} added"),
            message: format!("agent {agent} is new in the head config; its tools are listed as gained"),
            location: at(None),
            suppressed: None,
        });
    }
    for agent in &report.agents_removed {
        out.push(Finding {
            rule_id: "diff/agent-removed".into(),
            level: Level::Note,
            title: format!("agent {agent} removed"),
            message: format!("agent {agent} is not in the head config"),
            location: at(None),
            suppressed: None,
        });
    }
    for group in change_groups(&report.access) {
        let change = &group.change.change;
        let (rule, level, verb) = if change.gained {
            ("diff/tool-gained", access_level, "gains")
        } else {
            ("diff/tool-lost", Level::Note, "loses")
        };
        out.push(Finding {
            rule_id: rule.into(),
            level,
            title: format!("{} {verb} {} in {}", group.agent_id, change.tool, group.contexts.join(", ")),
            message: format!("base: {}; head: {}", change.before.describe(), change.after.describe()),
            location: at(group.change.location.as_ref()),
            suppressed: None,
        });
    }
    for change in &report.audiences {
        out.push(Finding {
            rule_id: "diff/audience-widened".into(),
            level: access_level,
            title: format!(
                "{}/{}: now reachable by {} (was {})",
                change.agent_id,
                change.context,
                change.head.describe(),
                change.base.describe()
            ),
            message: format!("the session holds {} tool(s): {}", change.tools.len(), change.tools.join(", ")),
            location: at(change.location.as_ref()),
            suppressed: None,
        });
    }
    for group in flip_groups(&report.exec) {
        let (rule, level) =
            if group.loosened { ("diff/exec-loosened", access_level) } else { ("diff/exec-tightened", Level::Note) };
        let commands: Vec<String> = group.commands.iter().map(|c| format!("`{c}`")).collect();
        out.push(Finding {
            rule_id: rule.into(),
            level,
            title: format!("{}: exec {} → {} in {}", group.agent_id, group.base, group.head, group.contexts.join(", ")),
            message: format!("{} {}", commands.join(", "), if commands.len() == 1 { "flips" } else { "flip" }),
            location: at(group.location),
            suppressed: None,
        });
    }
    for change in &report.posture {
        let show = |v: &Option<Value>| v.as_ref().map_or("unset".to_string(), Value::to_string);
        out.push(Finding {
            rule_id: "diff/exec-posture".into(),
            level: Level::Note,
            title: format!("{}: exec {} changed", change.agent_id, change.setting),
            message: format!("{} → {}", show(&change.base), show(&change.head)),
            location: at(change.location.as_ref()),
            suppressed: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::path::KeyPath;
    use crate::config::view::inbound::Reach;
    use serde_json::json;

    fn run(base: Value, head: Value, probes: &[String]) -> Changes {
        let locate = |path: &KeyPath| Some(Location { file: format!("head.json5:{path}"), line: 1, column: 1 });
        let none = |_: &KeyPath| None;
        let version = OpenClawVersion::V2026_9;
        let base = Config { value: &base, version, locate: &none, locate_nearest: &none };
        let head = Config { value: &head, version, locate: &locate, locate_nearest: &locate };
        let options = Options {
            plugin_tools: &[],
            jobs: &[],
            agents: &[],
            probes,
            approvals: ApprovalsInput::None,
            cwd: "/".into(),
        };
        diff(&base, &head, &options).unwrap()
    }

    #[test]
    fn identical_configs_differ_in_nothing() {
        let config = json!({"tools": {"deny": ["exec"]}, "channels": {"telegram": {"groups": {"*": {}}}}});
        let report =
            run(config.clone(), config, &probe::BUILTIN_PROBES.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert!(report.access.is_empty() && report.exec.is_empty() && report.posture.is_empty());
        assert!(!report.summary.new_access);
    }

    #[test]
    fn a_lifted_deny_is_new_access_in_every_session() {
        let report = run(json!({"tools": {"deny": ["write"]}}), json!({"tools": {"deny": []}}), &[]);
        assert!(report.summary.new_access);
        assert!(report.access.iter().all(|a| a.changes.iter().all(|c| c.change.tool == "write" && c.change.gained)));
        let main = report.access.iter().find(|a| a.context == "main").unwrap();
        assert_eq!(main.changes[0].location.as_ref().unwrap().file, "head.json5:tools.deny[0]");
    }

    #[test]
    fn agents_and_tools_that_change_alike_are_reported_once() {
        let agents = json!({"a": {"subagents": {"allowAgents": ["b"]}}, "b": {}, "c": {}});
        let base = json!({"agents": {"entries": agents}, "tools": {"deny": ["group:fs"]}});
        let head = json!({"agents": {"entries": agents}, "tools": {"deny": []}});
        let report = run(base, head, &[]);
        let groups = change_groups(&report.access);
        let shared = shared_changes(&groups);
        let lines: Vec<_> = shared.iter().map(|s| (s.agent_ids.clone(), s.tools.clone(), s.contexts.clone())).collect();
        // a and c read alike once `spawned-by:<itself>` is one session; b is also spawned by a.
        let (_, tools, contexts) = lines.iter().find(|(agents, ..)| *agents == ["a", "c"]).expect("a and c merged");
        assert!(contexts.iter().any(|c| c == "spawned-by:itself"), "{lines:?}");
        // The tools one deny entry removed come back for the same reason: one line.
        assert!(tools.contains(&"read") && tools.contains(&"write"), "{lines:?}");
        assert!(
            lines.iter().any(|(agents, _, contexts)| *agents == ["b"] && contexts.iter().any(|c| c == "spawned-by:a"))
        );
        let reported: usize = shared.iter().map(|s| s.agent_ids.len() * s.tools.len()).sum();
        assert_eq!(reported, groups.len(), "every change reported once");
    }

    #[test]
    fn exec_flips_and_posture() {
        let base = json!({"tools": {"exec": {"security": "allowlist", "ask": "on-miss"}}});
        let head = json!({"tools": {"exec": {"security": "full"}}});
        let report = run(base, head, &["rm -rf build".to_string()]);
        let flip = report.exec.iter().find(|f| f.context == "main").unwrap();
        assert_eq!((flip.base, flip.head, flip.loosened), (ExecVerdict::Ask, ExecVerdict::Allow, true));
        assert_eq!(flip.location.as_ref().unwrap().file, "head.json5:tools.exec.security");
        let security = report.posture.iter().find(|p| p.setting == "security").unwrap();
        assert_eq!((security.base.clone(), security.head.clone()), (Some(json!("allowlist")), Some(json!("full"))));
        assert!(report.summary.new_access);
        let findings = findings(&report, true, None);
        assert!(findings.iter().any(|f| f.rule_id == "diff/exec-loosened" && f.level == Level::Error));
    }

    #[test]
    fn agents_whose_probes_flip_alike_share_a_line() {
        let flip = |agent: &str, context: &str, command: &str, head: ExecVerdict| ExecFlip {
            agent_id: agent.into(),
            context: context.into(),
            command: command.into(),
            base: ExecVerdict::Allow,
            head,
            loosened: false,
            location: None,
        };
        let mut flips = Vec::new();
        for agent in ["a", "b", "c"] {
            for command in ["ls", "git status"] {
                flips.push(flip(agent, "main", command, ExecVerdict::Ask));
                flips.push(flip(agent, &format!("spawned-by:{agent}"), command, ExecVerdict::Ask));
            }
        }
        // `c` also flips in a group: its sessions differ, so it keeps its own line.
        flips.push(flip("c", "group:telegram:*", "ls", ExecVerdict::Ask));
        flips.push(flip("c", "group:telegram:*", "git status", ExecVerdict::Ask));
        flips.push(flip("a", "heartbeat", "ls", ExecVerdict::Deny));
        let groups = flip_groups(&flips);
        assert_eq!(groups.len(), 4);
        assert_eq!(groups[0].commands, ["ls", "git status"]);
        let shared = shared_flips(groups);
        let lines: Vec<(Vec<&str>, Vec<String>)> =
            shared.iter().map(|s| (s.agent_ids.clone(), s.contexts.clone())).collect();
        assert_eq!(
            lines,
            [
                (vec!["a", "b"], vec!["main".to_string(), "spawned-by:itself".to_string()]),
                (vec!["c"], vec!["main".to_string(), "spawned-by:itself".to_string(), "group:telegram:*".to_string()]),
                (vec!["a"], vec!["heartbeat".to_string()]),
            ]
        );
    }

    #[test]
    fn added_agents_gain_everything_and_contexts_from_either_side_are_compared() {
        let base = json!({"agents": {"entries": {"a": {}}}});
        let head = json!({
            "agents": {"entries": {"a": {}, "b": {}}},
            "channels": {"telegram": {"groups": {"-1": {"tools": {"deny": ["read"]}}}}}
        });
        let report = run(base, head, &[]);
        assert_eq!(report.agents_added, ["b"]);
        let b_main = report.access.iter().find(|a| a.agent_id == "b" && a.context == "main").unwrap();
        assert!(
            b_main.changes.iter().all(|c| c.change.gained && matches!(c.change.before, ToolState::NoSession { .. }))
        );
        // The new group loses `read` for agent a; a session the base config never named.
        let group = report.access.iter().find(|a| a.agent_id == "a" && a.context == "group:telegram:-1").unwrap();
        assert!(group.changes.iter().any(|c| c.change.tool == "read" && !c.change.gained));
        let listed = report.contexts.iter().find(|c| c.context == "group:telegram:-1" && c.agent_id == "a").unwrap();
        assert!(listed.in_head && !listed.in_base);
    }

    #[test]
    fn opening_dms_and_groups_to_anyone_is_new_access() {
        let base = json!({"channels": {"telegram": {"dmPolicy": "pairing", "groupPolicy": "allowlist"}}});
        let head = json!({"channels": {"telegram": {"dmPolicy": "open", "allowFrom": ["*"], "groupPolicy": "open"}}});
        let report = run(base, head, &[]);
        assert!(report.summary.new_access, "{:?}", report.summary);
        let widened: Vec<&str> = report.audiences.iter().map(|a| a.context.as_str()).collect();
        for context in ["main", "non-owner", "group:telegram:*"] {
            assert!(widened.contains(&context), "{context}: {widened:?}");
        }
        let group = report.audiences.iter().find(|a| a.context == "group:telegram:*").unwrap();
        assert_eq!((group.base.reach, group.head.reach), (Reach::Unreachable, Reach::Anyone));
        assert!(group.tools.contains(&"read".to_string()));
        assert_eq!(group.location.as_ref().unwrap().file, "head.json5:channels.telegram.groupPolicy");
        let findings = findings(&report, true, None);
        assert!(findings.iter().any(|f| f.rule_id == "diff/audience-widened" && f.level == Level::Error));
        // Narrowing is not new access.
        let report =
            run(json!({"channels": {"telegram": {"dmPolicy": "open"}}}), json!({"channels": {"telegram": {}}}), &[]);
        assert!(report.audiences.is_empty() && !report.summary.new_access);
    }
}
