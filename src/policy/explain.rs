//! `explain <tool>`: the tool's verdict at every step, the step that removed it, the smallest
//! config edit per blocking layer that restores it (checked by re-resolving), and how the answer
//! depends on session facts the user did not give.

use serde::Serialize;
use serde_json::Value;

use crate::OpenClawVersion;
use crate::config::path::{KeyPath, PathSeg};
use crate::config::view::channels::configured_groups;
use crate::config::view::sandbox::{SandboxSetting, defaults_setting_path};
use crate::config::view::tools::{self, ListKind, WebTool};
use crate::policy::matcher::Verdict;
use crate::policy::rules::Source;
use crate::policy::steps::StepKind;
use crate::policy::{self, Removal, Resolution, SessionContext};
use crate::release::pack::VersionPack;

/// A config change: append a value to a list, remove a list element, or set a value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Edit {
    Append { path: KeyPath, value: String },
    Remove { path: KeyPath, value: String },
    Set { path: KeyPath, value: Value },
}

impl Edit {
    /// The key path the edit changes (in the config as loaded).
    pub fn path(&self) -> &KeyPath {
        match self {
            Edit::Append { path, .. } | Edit::Remove { path, .. } | Edit::Set { path, .. } => path,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Edit::Append { path, value } => format!("add \"{value}\" to {path}"),
            Edit::Remove { path, value } => format!("remove \"{value}\" from {}", parent(path)),
            Edit::Set { path, value } => format!("set {path} to {value}"),
        }
    }

    /// Applies the edit to a copy of the config.
    fn apply(&self, config: &mut Value) {
        match self {
            Edit::Append { path, value } => {
                if let Some(list) = ensure(config, path.segments()).and_then(|slot| {
                    if !slot.is_array() {
                        *slot = Value::Array(Vec::new());
                    }
                    slot.as_array_mut()
                }) {
                    list.push(Value::String(value.clone()));
                }
            }
            Edit::Remove { path, .. } => {
                let (last, list_path) = path.segments().split_last().expect("element path");
                if let (PathSeg::Index(i), Some(Value::Array(list))) = (last, lookup_mut(config, list_path))
                    && *i < list.len()
                {
                    list.remove(*i);
                }
            }
            Edit::Set { path, value } => {
                if let Some(slot) = ensure(config, path.segments()) {
                    *slot = value.clone();
                }
            }
        }
    }
}

fn parent(path: &KeyPath) -> KeyPath {
    let mut list = path.clone();
    list.0.pop();
    list
}

fn lookup_mut<'a>(value: &'a mut Value, path: &[PathSeg]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |v, seg| match seg {
        PathSeg::Key(k) => v.as_object_mut()?.get_mut(k),
        PathSeg::Index(i) => v.as_array_mut()?.get_mut(*i),
    })
}

/// Walks to `path`, creating objects for missing keys.
fn ensure<'a>(value: &'a mut Value, path: &[PathSeg]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |v, seg| match seg {
        PathSeg::Key(k) => {
            if !v.is_object() {
                *v = Value::Object(Default::default());
            }
            Some(v.as_object_mut()?.entry(k.clone()).or_insert(Value::Null))
        }
        PathSeg::Index(i) => v.as_array_mut()?.get_mut(*i),
    })
}

/// One step's verdict about the tool.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepVerdict {
    pub step: String,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The entry that decided, as written, and where.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// The config block the step reads (the profile key, the agent's `tools`, the group entry).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<KeyPath>,
}

/// A way to get the tool back at one layer.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fix {
    /// The step this fix addresses.
    pub step: String,
    pub edits: Vec<Edit>,
    /// Whether the edits alone restore the tool (other steps may block it too).
    pub restores: bool,
    /// Other tools the edit would add to this session.
    pub also_grants: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A session fact that changes the answer when it is different from what was assumed.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Dependence {
    pub condition: String,
    pub present: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_by: Option<String>,
    /// Why the tool would not be built at all in that session (no step removes it then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_constructed: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    pub tool: String,
    pub known_tool: bool,
    pub present: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_constructed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_by: Option<Removal>,
    pub steps: Vec<StepVerdict>,
    pub fixes: Vec<Fix>,
    pub depends_on: Vec<Dependence>,
    pub assumptions: Vec<policy::session::Assumption>,
    /// For a spawned sub-agent left with no tools at all: the step that emptied it and the
    /// smallest edit on its own side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emptied_child: Option<EmptiedChild>,
}

/// A spawned sub-agent with no tools: which step removed the last ones, and the smallest edit on
/// the child's side that gives it one of the tools its requester hands down (the edit on the
/// requester's side is the explained tool's fix at `inherited tools`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EmptiedChild {
    pub step: String,
    /// The tools that step removed: the child's last ones.
    pub removed: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_side: Option<ChildSideFix>,
}

/// The smallest edit on a spawned child's own side that gives it `tool`, one its requester
/// hands down.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChildSideFix {
    pub tool: String,
    /// Every fix needed, in order.
    pub fixes: Vec<Fix>,
}

/// The verdict of every step about one (normalized) tool, with the entry that decided.
pub fn step_verdicts(resolution: &Resolution, name: &str) -> Vec<StepVerdict> {
    resolution.steps.iter().filter_map(|record| step_verdict(record, name)).collect()
}

/// One step's verdict about one (normalized) tool; `None` if the tool was not a candidate.
pub fn step_verdict(record: &policy::StepRecord, name: &str) -> Option<StepVerdict> {
    let verdict = record.verdicts.get(name)?.clone();
    let by = match &verdict {
        Verdict::Allowed { by } | Verdict::Denied { by } | Verdict::AllowedViaPiggyback { by, .. } => Some(by),
        _ => None,
    };
    let list = match verdict {
        Verdict::Denied { .. } => record.step.policy.deny.as_ref(),
        _ => record.step.policy.allow.as_ref(),
    };
    let entry = by.and_then(|b| list.and_then(|l| l.get(b.entry)));
    Some(StepVerdict {
        step: record.step.label.clone(),
        verdict,
        entry: entry.map(|e| e.pattern.clone()),
        source: entry.map(|e| e.source.clone()),
        scope: record.step.scope.clone(),
    })
}

/// Explains one tool for a session.
pub fn explain(
    version: OpenClawVersion,
    config: &Value,
    ctx: &SessionContext,
    resolution: &Resolution,
    tool: &str,
) -> Explanation {
    let pack = version.policy();
    let name = pack.normalize(tool);
    let steps = step_verdicts(resolution, &name);
    let present = resolution.tools.contains(&name);
    let fixes = if present { Vec::new() } else { fixes(version, config, ctx, resolution, &name) };
    Explanation {
        known_tool: pack.is_catalog_tool(&name)
            || pack.plugins.iter().any(|p| p.tools.contains(&name))
            || resolution.candidates.contains(&name),
        present,
        not_constructed: resolution.not_constructed.get(&name).map(|why| why.to_string()).or_else(|| {
            (!present && !resolution.removed.contains_key(&name))
                .then(|| policy::inventory::plugin_off_reason(version, config, ctx, &name))
                .flatten()
        }),
        removed_by: resolution.removed.get(&name).cloned(),
        steps,
        fixes,
        depends_on: dependences(version, config, ctx, &name, present),
        assumptions: resolution.assumptions.clone(),
        emptied_child: emptied_child(version, config, ctx, resolution),
        tool: name,
    }
}

/// Why a spawned child has no tools at all, and the smallest child-side edit that gives it one
/// its requester hands down (tried for each such tool; edits on the requester's side excluded).
fn emptied_child(
    version: OpenClawVersion,
    config: &Value,
    ctx: &SessionContext,
    resolution: &Resolution,
) -> Option<EmptiedChild> {
    let spawn = resolution.spawn.as_ref().filter(|_| resolution.tools.is_empty())?;
    let emptied = resolution.steps.iter().rev().find(|r| !r.removed.is_empty())?;
    let handed_down = spawn.inherited.as_ref().and_then(|p| p.allow.as_ref()).into_iter().flatten();
    let child_side = handed_down
        .map(|entry| entry.pattern.clone())
        .filter_map(|tool| {
            let fixes = fixes(version, config, ctx, resolution, &tool);
            let child_only = fixes.iter().all(|f| !f.edits.is_empty() && f.step != policy::INHERITED_STEP_LABEL);
            (child_only && fixes.last().is_some_and(|f| f.restores)).then_some(ChildSideFix { tool, fixes })
        })
        .min_by_key(|side| side.fixes.iter().map(|f| f.edits.len()).sum::<usize>());
    Some(EmptiedChild { step: emptied.step.label.clone(), removed: emptied.removed.clone(), child_side })
}

/// The edits that give the requester's session the tool, so that it hands it down: the
/// requester's own fixes, in order, as one candidate (none when it cannot get the tool).
fn requester_edits(version: OpenClawVersion, config: &Value, requester: &SessionContext, tool: &str) -> Vec<Vec<Edit>> {
    let Ok(resolved) = policy::resolve(version, config, requester) else { return Vec::new() };
    let fixes = fixes(version, config, requester, &resolved, tool);
    let edits: Vec<Edit> = fixes.iter().flat_map(|f| f.edits.iter().cloned()).collect();
    if edits.is_empty() || !fixes.last().is_some_and(|f| f.restores) { Vec::new() } else { vec![edits] }
}

/// Ways to lift one blocking step at that step's own layer, most natural first, and a note when
/// no config edit can (built-in rules).
fn step_edits(
    pack: &VersionPack,
    config: &Value,
    resolution: &Resolution,
    index: usize,
    tool: &str,
) -> (Vec<Vec<Edit>>, Option<String>) {
    let record = &resolution.steps[index];
    let agent = &resolution.agent_id;
    let append = |path: KeyPath| vec![Edit::Append { path, value: tool.to_string() }];
    let list = |scope: &KeyPath, kind: ListKind| scope.key(kind.key());
    match record.verdicts.get(tool) {
        Some(Verdict::Denied { by }) => {
            let entry = record.step.policy.deny.as_ref().and_then(|d| d.get(by.entry));
            match entry.map(|e| (&e.source, &e.pattern)) {
                Some((Source::Config { path }, pattern)) => {
                    (vec![vec![Edit::Remove { path: path.clone(), value: pattern.clone() }]], None)
                }
                _ => (Vec::new(), Some(builtin_deny_note(record.step.kind, resolution))),
            }
        }
        Some(Verdict::NotInAllowlist) => match record.step.kind {
            StepKind::Profile | StepKind::ProviderProfile => {
                // alsoAllow widens the profile, next to the profile in force; a scope that already
                // has an allowlist cannot also have alsoAllow, so there the allowlist takes it.
                let scope = record.step.scope.as_ref().map(parent).unwrap_or_else(tools::global_path);
                (vec![append(list(&scope, ListKind::AlsoAllow)), append(list(&scope, ListKind::Allow))], None)
            }
            StepKind::Sandbox => {
                let scope = tools::sandbox_tools_path();
                let mut candidates = vec![append(list(&scope, ListKind::Allow))];
                if pack.sandbox.also_allow {
                    candidates.insert(0, append(list(&scope, ListKind::AlsoAllow)));
                }
                (candidates, None)
            }
            StepKind::Subagent => (vec![append(list(&tools::subagent_tools_path(), ListKind::Allow))], None),
            StepKind::Runtime => (Vec::new(), Some(runtime_cap_note(resolution))),
            StepKind::Inherited => (Vec::new(), Some(inherited_note(resolution))),
            _ => match &record.step.scope {
                Some(scope) => {
                    let allow = list(scope, ListKind::Allow);
                    // An allowlist written as alsoAllow is widened there.
                    let also = list(scope, ListKind::AlsoAllow);
                    let written_as_also = also.lookup(config).is_some() && allow.lookup(config).is_none();
                    let mut candidates = vec![append(allow)];
                    if written_as_also {
                        candidates.insert(0, append(also));
                    }
                    (candidates, None)
                }
                None => (Vec::new(), Some(format!("agent `{agent}`: no config scope to edit"))),
            },
        },
        _ => (Vec::new(), None),
    }
}

/// Where an inherited removal comes from: the requester's session, which must have the tool
/// (and not deny it) for its children to get it.
/// Where the per-run cap is set: a scheduled job's `payload.toolsAllow`, or the run's caller.
fn runtime_cap_note(resolution: &Resolution) -> String {
    match resolution.automation.as_ref().and_then(|run| run.job_id.as_deref()) {
        Some(job) => format!(
            "the job's payload.toolsAllow must name it (`openclaw automations edit {} --tools …`)",
            crate::base::escape::visible(job)
        ),
        None => "the run's own toolsAllow list must name it".into(),
    }
}

fn inherited_note(resolution: &Resolution) -> String {
    match &resolution.spawn {
        Some(spawn) => format!(
            "handed down by the requester {} at spawn time (its denies, and its effective tools when one of its layers has an allowlist): give that session the tool (`explain --agent {} --session {}`)",
            spawn.requester_key, spawn.requester_agent, spawn.requester_key
        ),
        None => "handed down by the requester at spawn time".into(),
    }
}

fn builtin_deny_note(kind: StepKind, resolution: &Resolution) -> String {
    match kind {
        StepKind::OwnerOnly => {
            "owner-only tool: only the owner's sessions get it (list the sender in commands.ownerAllowFrom)".into()
        }
        StepKind::Subagent => format!(
            "built-in sub-agent deny (depth {} is a {:?}); raise agents.defaults.subagents.maxSpawnDepth if it is the leaf list",
            resolution.spawn_depth, resolution.subagent_role
        ),
        StepKind::Sandbox => format!(
            "denied by the sandbox defaults: add it to tools.sandbox.tools.allow/alsoAllow, or set {} to \"off\"",
            resolution.sandbox.mode_path.as_ref().unwrap_or(&defaults_setting_path(SandboxSetting::Mode))
        ),
        StepKind::Inherited => inherited_note(resolution),
        _ => "a built-in rule of this release".into(),
    }
}

/// Settings that make the release build a tool it did not build for this session.
fn construction_edits(resolution: &Resolution, tool: &str) -> Vec<Vec<Edit>> {
    let set = |path: KeyPath, value: Value| vec![vec![Edit::Set { path, value }]];
    match tool {
        "write" | "edit" | "apply_patch"
            if resolution.sandbox.sandboxed && resolution.sandbox.workspace_access == "ro" =>
        {
            let path = resolution.sandbox.workspace_access_path.clone();
            set(path.unwrap_or_else(|| defaults_setting_path(SandboxSetting::WorkspaceAccess)), "rw".into())
        }
        "apply_patch" => set(tools::apply_patch_switch_path(), true.into()),
        "progress_card" => set(tools::update_plan_path(), true.into()),
        "agents_wait" => set(tools::swarm_switch_path(), true.into()),
        "web_search" => set(tools::web_switch_path(WebTool::Search), true.into()),
        "web_fetch" => set(tools::web_switch_path(WebTool::Fetch), true.into()),
        _ => Vec::new(),
    }
}

/// Every edit needed to bring the tool back, in order: each round lifts the first thing that
/// still keeps the tool out (construction, then the pipeline's steps in order) on the config as
/// the earlier rounds left it, so a step that both denies and misses the tool gets both edits.
/// `restores` on a fix says whether the edits up to it bring the tool back.
fn fixes(
    version: OpenClawVersion,
    config: &Value,
    ctx: &SessionContext,
    resolution: &Resolution,
    tool: &str,
) -> Vec<Fix> {
    const MAX_ROUNDS: usize = 32;
    let pack = version.policy();
    let mut working = config.clone();
    let mut current = resolution.clone();
    let mut unliftable: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for _ in 0..MAX_ROUNDS {
        if current.tools.iter().any(|t| t == tool) {
            break;
        }
        let (step, candidates, note) = match current.not_constructed.get(tool) {
            Some(_) if unliftable.iter().any(|s| s == "construction") => break,
            Some(reason) => {
                let candidates = construction_edits(&current, tool);
                let note = candidates.is_empty().then(|| format!("not built for this session: {reason}"));
                ("construction".to_string(), candidates, note)
            }
            None => {
                let blocking = (0..current.steps.len()).find(|&i| {
                    let record = &current.steps[i];
                    record.verdicts.get(tool).is_some_and(|v| !v.keeps()) && !unliftable.contains(&record.step.label)
                });
                let Some(index) = blocking else { break };
                let (mut candidates, mut note) = step_edits(pack, &working, &current, index, tool);
                // The requester hands down only what its own session keeps: fix it there.
                if let (StepKind::Inherited, Some(requester)) = (current.steps[index].step.kind, &ctx.requester) {
                    candidates = requester_edits(version, &working, requester, tool);
                    if !candidates.is_empty() {
                        note = current.spawn.as_ref().map(|spawn| {
                            format!(
                                "on the requester's side: {} hands down only what it keeps, and gets `{tool}` too",
                                spawn.requester_key
                            )
                        });
                    }
                }
                (current.steps[index].step.label.clone(), candidates, note)
            }
        };
        let trial = Trial { version, config: &working, ctx, before: &current, tool };
        let fix = trial.fix(step, candidates, note);
        if fix.edits.is_empty() {
            unliftable.push(fix.step.clone());
            out.push(fix);
            continue;
        }
        fix.edits.iter().for_each(|edit| edit.apply(&mut working));
        let restores = fix.restores;
        out.push(fix);
        match policy::resolve(version, &working, ctx) {
            Ok(next) if !restores => current = next,
            _ => break,
        }
    }
    out
}

/// Edits tried out on a copy of one session's config.
struct Trial<'a> {
    version: OpenClawVersion,
    config: &'a Value,
    ctx: &'a SessionContext,
    before: &'a Resolution,
    tool: &'a str,
}

impl Trial<'_> {
    /// The first candidate the release accepts that restores the tool, else the first the
    /// release accepts. Candidates the release would refuse are never proposed.
    fn fix(&self, step: String, candidates: Vec<Vec<Edit>>, note: Option<String>) -> Fix {
        let mut accepted: Option<Fix> = None;
        let mut refused = Vec::new();
        for edits in candidates {
            match self.outcome(&edits) {
                Err(issue) => refused.push(issue),
                Ok((restores, also_grants)) => {
                    let fix = Fix { step: step.clone(), edits, restores, also_grants, note: note.clone() };
                    if restores {
                        return fix;
                    }
                    accepted.get_or_insert(fix);
                }
            }
        }
        accepted.unwrap_or_else(|| {
            let refusal = refused
                .first()
                .map(|issue| format!("every edit here would make the release refuse the config ({issue})"));
            Fix { step, edits: Vec::new(), restores: false, also_grants: Vec::new(), note: note.or(refusal) }
        })
    }

    /// Applies the edits, validates the result as the release would and re-resolves: does the
    /// tool come back, and what else appears? `Err` with the release's complaint when it would
    /// refuse the edited config.
    fn outcome(&self, edits: &[Edit]) -> Result<(bool, Vec<String>), String> {
        let mut edited = self.config.clone();
        // Removals are applied from the highest index down so earlier indexes stay valid.
        let mut ordered: Vec<&Edit> = edits.iter().collect();
        ordered.sort_by_key(|e| {
            std::cmp::Reverse(match e {
                Edit::Remove { path, .. } => path.clone(),
                _ => KeyPath::root(),
            })
        });
        for edit in ordered {
            edit.apply(&mut edited);
        }
        if let Some(issue) = crate::config::validate::validate_value(&edited, self.version).first() {
            return Err(format!("{}: {}", issue.dotted_path(), issue.message));
        }
        let Ok(after) = policy::resolve(self.version, &edited, self.ctx) else {
            return Ok((false, Vec::new()));
        };
        let tool = self.tool;
        let grants = after.tools.iter().filter(|t| *t != tool && !self.before.tools.contains(t)).cloned().collect();
        Ok((after.tools.iter().any(|t| t == tool), grants))
    }
}

/// Re-resolves under session facts the user did not fix, to say what the answer depends on.
fn dependences(
    version: OpenClawVersion,
    config: &Value,
    ctx: &SessionContext,
    tool: &str,
    present: bool,
) -> Vec<Dependence> {
    let mut variants: Vec<(String, SessionContext)> = Vec::new();
    if ctx.sender_is_owner.is_none() {
        variants.push((
            "if the sender is not the owner".into(),
            SessionContext { sender_is_owner: Some(false), ..ctx.clone() },
        ));
        variants
            .push(("if the sender is the owner".into(), SessionContext { sender_is_owner: Some(true), ..ctx.clone() }));
    }
    if ctx.session_key.is_none() && ctx.spawn_depth.is_none() {
        let agent = ctx.agent_id.clone().unwrap_or_else(|| "main".into());
        for (channel, group) in channel_groups(config) {
            let key = format!("agent:{agent}:{channel}:group:{group}");
            variants.push((
                format!("if this session is the {channel} group chat `{group}`"),
                SessionContext { session_key: Some(key), message_provider: Some(channel), ..ctx.clone() },
            ));
        }
        variants.push((
            "if this session is a sub-agent (depth 1)".into(),
            SessionContext { spawn_depth: Some(1), ..ctx.clone() },
        ));
        variants.push((
            "if this session is not the main session (e.g. a channel thread)".into(),
            SessionContext { session_key: Some(format!("agent:{agent}:webchat:channel:other")), ..ctx.clone() },
        ));
    }
    variants
        .into_iter()
        .filter_map(|(condition, variant)| {
            let resolution = policy::resolve(version, config, &variant).ok()?;
            let here = resolution.tools.iter().any(|t| t == tool);
            (here != present).then(|| Dependence {
                condition,
                present: here,
                removed_by: resolution.removed.get(tool).map(|r| r.step.to_string()),
                not_constructed: resolution.not_constructed.get(tool).map(|why| why.to_string()),
            })
        })
        .collect()
}

/// `(channel, group id)` pairs configured under `channels.<ch>.groups` (not an account's), the
/// wildcard as `any`; the first eight.
fn channel_groups(config: &Value) -> Vec<(String, String)> {
    let groups = configured_groups(config).into_iter().filter(|g| g.account.is_none());
    groups.map(|g| (g.channel, if g.id == "*" { "any".to_string() } else { g.id })).take(8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(config: Value, ctx: SessionContext, tool: &str) -> Explanation {
        let v = OpenClawVersion::V2026_9;
        let resolution = policy::resolve(v, &config, &ctx).unwrap();
        explain(v, &config, &ctx, &resolution, tool)
    }

    /// A lead whose allowlist leaves out what its spawned writer has (the 2026.6 P1 shape).
    fn lead_and_writer() -> (Value, SessionContext) {
        let config = json!({"agents": {"ownership": "explicit", "entries": {
            "lead": {"tools": {"allow": ["read", "sessions_spawn"]}, "subagents": {"allowAgents": ["writer"]}},
            "writer": {"tools": {"allow": ["write"]}}
        }}});
        let ctx =
            policy::spawn::spawned_by(SessionContext { agent_id: Some("writer".into()), ..Default::default() }, "lead")
                .unwrap();
        (config, ctx)
    }

    fn apply_all(config: &Value, fixes: &[Fix]) -> Value {
        let mut edited = config.clone();
        fixes.iter().flat_map(|f| &f.edits).for_each(|e| e.apply(&mut edited));
        edited
    }

    #[test]
    fn an_inherited_removal_is_fixed_in_the_requesters_policy() {
        let (config, ctx) = lead_and_writer();
        let explanation = run(config.clone(), ctx.clone(), "write");
        assert_eq!(&*explanation.removed_by.as_ref().unwrap().step, policy::INHERITED_STEP_LABEL);
        let fix = &explanation.fixes[0];
        assert_eq!(fix.step, policy::INHERITED_STEP_LABEL);
        assert_eq!(fix.edits[0].describe(), "add \"write\" to agents.entries.lead.tools.allow");
        assert!(fix.restores, "{fix:?}");
        // Checked the way every fix is: the edited config is accepted and the child has the tool.
        let edited = apply_all(&config, &explanation.fixes);
        assert!(crate::config::validate::validate_value(&edited, OpenClawVersion::V2026_9).is_empty());
        let child = policy::resolve(OpenClawVersion::V2026_9, &edited, &ctx).unwrap();
        assert!(child.tools.contains(&"write".to_string()), "{:?}", child.tools);
    }

    #[test]
    fn an_emptied_child_names_the_step_and_the_edit_on_its_own_side() {
        let (config, ctx) = lead_and_writer();
        let explanation = run(config.clone(), ctx.clone(), "write");
        let emptied = explanation.emptied_child.unwrap();
        assert_eq!(emptied.step, policy::INHERITED_STEP_LABEL);
        assert!(emptied.removed.contains(&"write".to_string()), "{:?}", emptied.removed);
        let ChildSideFix { tool, fixes } = emptied.child_side.unwrap();
        assert_eq!(tool, "read");
        assert_eq!(fixes[0].edits[0].describe(), "add \"read\" to agents.entries.writer.tools.allow");
        let child = policy::resolve(OpenClawVersion::V2026_9, &apply_all(&config, &fixes), &ctx).unwrap();
        assert!(child.tools.contains(&"read".to_string()), "{:?}", child.tools);
        // A child that keeps a tool is not reported as emptied.
        let fixed = apply_all(&config, &fixes);
        let resolution = policy::resolve(OpenClawVersion::V2026_9, &fixed, &ctx).unwrap();
        assert!(explain(OpenClawVersion::V2026_9, &fixed, &ctx, &resolution, "write").emptied_child.is_none());
    }

    #[test]
    fn deny_fix_removes_the_entry_and_reports_side_grants() {
        let config = json!({"tools": {"deny": ["group:runtime"]}});
        let owner = SessionContext { sender_is_owner: Some(true), ..Default::default() };
        let explanation = run(config, owner, "exec");
        assert!(!explanation.present);
        let fix = &explanation.fixes[0];
        assert_eq!(fix.step, "tools.allow");
        assert_eq!(fix.edits[0].describe(), "remove \"group:runtime\" from tools.deny");
        assert!(fix.restores);
        assert!(fix.also_grants.contains(&"process".to_string()));
    }

    #[test]
    fn profile_miss_is_fixed_with_also_allow() {
        let config = json!({"tools": {"profile": "minimal"}});
        let explanation = run(config, SessionContext::default(), "exec");
        assert_eq!(explanation.fixes[0].edits[0].describe(), "add \"exec\" to tools.alsoAllow");
        assert!(explanation.fixes[0].restores);
        assert!(explanation.fixes[0].also_grants.is_empty());
    }

    #[test]
    fn reports_dependence_on_owner() {
        let explanation = run(json!({}), SessionContext::default(), "gateway");
        assert!(explanation.present);
        assert!(explanation.depends_on.iter().any(|d| d.condition.contains("not the owner") && !d.present));
    }

    #[test]
    fn proposals_are_edits_the_release_accepts() {
        // alsoAllow next to an allowlist is refused by the release: the allowlist takes the tool.
        let config = json!({"tools": {"profile": "minimal", "allow": ["session_status", "read"]}});
        let owner = SessionContext { sender_is_owner: Some(true), ..Default::default() };
        let explanation = run(config.clone(), owner, "exec");
        let edits: Vec<String> = explanation.fixes.iter().flat_map(|f| f.edits.iter().map(Edit::describe)).collect();
        assert!(!edits.iter().any(|e| e.contains("alsoAllow")), "{edits:?}");
        for fix in &explanation.fixes {
            let mut edited = config.clone();
            fix.edits.iter().for_each(|e| e.apply(&mut edited));
            assert!(crate::config::validate::validate_value(&edited, OpenClawVersion::V2026_9).is_empty(), "{fix:?}");
        }
    }

    #[test]
    fn a_tool_of_a_plugin_that_is_off_says_which_switch_loads_it() {
        let v = OpenClawVersion::V2026_2;
        let config = json!({"channels": {"whatsapp": {"allowFrom": ["+1555"]}}});
        let resolution = policy::resolve(v, &config, &SessionContext::default()).unwrap();
        let explanation = explain(v, &config, &SessionContext::default(), &resolution, "whatsapp_login");
        assert!(explanation.known_tool);
        let reason = explanation.not_constructed.unwrap();
        assert!(reason.contains("channels.whatsapp.enabled"), "{reason}");
    }

    #[test]
    fn a_read_only_sandbox_is_fixed_by_the_setting_that_builds_the_tool() {
        let config = json!({"agents": {"defaults": {"sandbox": {"mode": "all", "workspaceAccess": "ro"}}}});
        let explanation = run(config, SessionContext::default(), "write");
        assert!(explanation.not_constructed.is_some());
        let fix = &explanation.fixes[0];
        assert_eq!(fix.edits[0].describe(), "set agents.defaults.sandbox.workspaceAccess to \"rw\"");
        assert!(fix.restores, "{fix:?}");
    }

    #[test]
    fn a_step_that_both_denies_and_misses_gets_both_edits() {
        let config = json!({"agents": {"entries": {"rev": {"tools": {"allow": ["read"], "deny": ["exec"]}}}}});
        let ctx = SessionContext { agent_id: Some("rev".into()), sender_is_owner: Some(true), ..Default::default() };
        let explanation = run(config, ctx, "exec");
        let edits: Vec<String> = explanation.fixes.iter().flat_map(|f| f.edits.iter().map(Edit::describe)).collect();
        assert_eq!(
            edits,
            ["remove \"exec\" from agents.entries.rev.tools.deny", "add \"exec\" to agents.entries.rev.tools.allow"]
        );
        assert!(!explanation.fixes[0].restores && explanation.fixes[1].restores);
    }
}
