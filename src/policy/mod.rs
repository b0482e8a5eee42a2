//! The tool-policy resolver: one function that every command uses, so `tools`, `explain`,
//! `lint` and `diff` can never disagree.

mod auto_enable;
pub mod automation;
mod channel_tools;
mod construction;
pub mod context;
mod core_tools;
pub mod declared;
pub mod explain;
mod image_pairing;
pub mod inventory;
pub mod manifest;
pub mod matcher;
pub mod mcp;
mod memo;
pub mod rules;
pub mod sandbox;
pub mod scopes;
pub mod session;
mod shared;
pub mod spawn;
pub mod steps;
mod unknown;
pub use mcp::safe_mcp_name;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

pub use automation::RunKind;
pub use context::{PluginTool, SandboxChoice, SessionContext};
use inventory::PreFilter;
use matcher::{CompiledPolicy, PluginGroups, Verdict};
use rules::{Entry, Source};
use session::{Assumption, SandboxState, Session, SessionError, SubagentRole};
pub use session::{HeldConfig, Roster};
use steps::{Step, StepKind};

use crate::OpenClawVersion;
use crate::release::pack::VersionPack;

/// Why a tool is not in the final list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Removal {
    /// OpenClaw's step label (`tools.allow`, `sandbox tools.allow`, …) or a pre-pipeline filter.
    /// Labels and sources are shared by every removal of a step: a resolution holds dozens of
    /// removals, and `lint` thousands of resolutions.
    pub step: Arc<str>,
    /// `deny` (a deny entry matched), `allow` (the allowlist missed it) or `filter`.
    pub rule: RemovalRule,
    /// OpenClaw's audit-log label (`.allow` rewritten to `.deny` for deny removals).
    pub audit_label: Arc<str>,
    /// The entry as written that matched (deny) or the allowlist's scope (allow).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// The group, plugin or family the matching entry expanded from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// Where the deciding entry or list was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Arc<Source>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RemovalRule {
    Deny,
    Allow,
    Filter,
}

/// The outcome of one step: its policy as applied and what it removed.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    #[serde(flatten)]
    pub step: Step,
    /// 2026.2 drops allowlists without core entries; the step then applies only its deny.
    pub allowlist_ignored: bool,
    pub removed: Vec<String>,
    /// The verdict for every candidate tool, removed earlier or not (for `explain`).
    #[serde(skip)]
    pub verdicts: Verdicts,
}

/// What one step decided about the session's candidate tools. The names are shared by every
/// step of a resolution, so a step holds only its verdicts, in candidate order. Most candidates
/// of a step get the same few verdicts (no allowlist, not in it, the one deny entry), and `lint`
/// holds thousands of resolutions, so each distinct verdict is kept once and every candidate
/// points at its own.
#[derive(Debug, Clone, Default)]
pub struct Verdicts {
    names: Arc<[String]>,
    distinct: Vec<Verdict>,
    /// For each candidate, in order: 0 when the step did not judge it, else 1 + the place of its
    /// verdict in `distinct`.
    picks: Vec<u32>,
}

impl Verdicts {
    fn new(names: &Arc<[String]>) -> Self {
        Verdicts { names: names.clone(), distinct: Vec::new(), picks: Vec::with_capacity(names.len()) }
    }

    /// Records the next candidate's verdict.
    fn push(&mut self, verdict: Option<Verdict>) {
        let pick = verdict.map_or(0, |verdict| self.place_of(verdict) + 1);
        self.picks.push(pick);
    }

    /// Replaces the verdict of the candidate at `index` (judged out of order).
    fn set(&mut self, index: usize, verdict: Verdict) {
        self.picks[index] = self.place_of(verdict) + 1;
    }

    /// Where `verdict` is in `distinct`, added when new. Repeats come in runs, so a short look
    /// back finds them; a verdict that recurs after long is kept again (the lookup stays linear).
    fn place_of(&mut self, verdict: Verdict) -> u32 {
        const LOOK_BACK: usize = 8;
        let recent = self.distinct.len().saturating_sub(LOOK_BACK);
        let place = match self.distinct[recent..].iter().rposition(|v| *v == verdict) {
            Some(offset) => recent + offset,
            None => {
                self.distinct.push(verdict);
                self.distinct.len() - 1
            }
        };
        u32::try_from(place).expect("fewer verdicts than candidates")
    }

    /// The verdict about the candidate at `index`, if the step judged it.
    fn at(&self, index: usize) -> Option<&Verdict> {
        let pick = *self.picks.get(index)?;
        pick.checked_sub(1).map(|place| &self.distinct[place as usize])
    }

    /// The verdict about `name`, if the step judged it.
    pub fn get(&self, name: &str) -> Option<&Verdict> {
        self.at(self.names.iter().position(|n| n == name)?)
    }

    /// Every judged tool with its verdict, in name order.
    pub fn sorted(&self) -> Vec<(&str, &Verdict)> {
        let judged = self.names.iter().enumerate().filter_map(|(index, name)| Some((name.as_str(), self.at(index)?)));
        let mut judged: Vec<(&str, &Verdict)> = judged.collect();
        judged.sort_unstable_by_key(|(name, _)| *name);
        judged
    }
}

/// Everything the resolver decided about one session.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Resolution {
    pub version: OpenClawVersion,
    pub agent_id: String,
    pub session_key: String,
    pub sandbox: SandboxState,
    pub subagent_role: SubagentRole,
    pub spawn_depth: u32,
    /// For a spawned child: its requester and what the release stored for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spawn: Option<context::SpawnEnvelope>,
    /// For an automation run (cron job, heartbeat): what the release derived for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub automation: Option<automation::AutomationRun>,
    /// Tools constructed for this run: the input of the pipeline (the names every step's verdicts
    /// are given for, shared with them).
    pub candidates: Arc<[String]>,
    /// Catalog tools not constructed here, with the reason (shared by the config's sessions
    /// that give the same one).
    pub not_constructed: BTreeMap<String, Arc<str>>,
    pub steps: Vec<StepRecord>,
    /// Final tool names, sorted.
    pub tools: Vec<String>,
    pub removed: BTreeMap<String, Removal>,
    pub warnings: Vec<String>,
    pub assumptions: Vec<Assumption>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox_policy: Option<Arc<sandbox::SandboxPolicy>>,
}

impl Resolution {
    /// Why `tool` is not in the final list: `tool-policy` with the removing step and entry, or
    /// `not-constructed`. `None` when the tool is present.
    pub fn absence(&self, tool: &str) -> Option<(&'static str, String)> {
        if self.tools.iter().any(|t| t == tool) {
            return None;
        }
        Some(match (self.removed.get(tool), self.not_constructed.get(tool)) {
            (Some(removal), _) => {
                let entry = removal.pattern.as_ref().map(|p| format!(" (entry `{p}`)")).unwrap_or_default();
                ("tool-policy", format!("`{tool}` is removed by {}{entry}", removal.audit_label))
            }
            (None, Some(why)) => ("not-constructed", format!("`{tool}` is not built for this session: {why}")),
            (None, None) => ("not-constructed", format!("`{tool}` is not a tool of this session")),
        })
    }
}

/// Resolves the tool list of one session. `config` is the loaded, validated config in force.
pub fn resolve(version: OpenClawVersion, config: &Value, ctx: &SessionContext) -> Result<Resolution, SessionError> {
    resolve_in(version, config, &Roster::new(config, version), ctx)
}

/// The tools a run's own attempt (`turn`) builds for this session beyond what the effective-tools
/// listing (the session resolved without `turn`) has: those the bundled plugins' manifests put in
/// its profile. Empty for a `turn` session and for releases whose tool builder reads no plugin
/// metadata.
pub fn turn_gains(version: OpenClawVersion, config: &Value, ctx: &SessionContext, listing: &Resolution) -> Vec<String> {
    if ctx.turn || !version.policy().plugin_loading.manifest_profiles {
        return Vec::new();
    }
    let turn = SessionContext { turn: true, ..ctx.clone() };
    let Ok(attempt) = resolve(version, config, &turn) else { return Vec::new() };
    attempt.tools.into_iter().filter(|tool| !listing.tools.contains(tool)).collect()
}

/// The memo key of a spawn's requester: its session context as serialized.
#[derive(PartialEq, Eq, Hash)]
struct RequesterKey(String);

/// What a spawn's requester session gives its child, resolved once per roster and requester: a
/// requester's main session is asked by the spawn enumeration and again by every child it
/// spawns. A context that does not serialize whole is resolved each time.
pub fn requester_in(
    version: OpenClawVersion,
    config: &Value,
    roster: &Roster<'_>,
    ctx: &SessionContext,
) -> Result<Arc<spawn::Requester>, SessionError> {
    let resolve =
        || resolve_in(version, config, roster, ctx).map(|session| Arc::new(spawn::Requester::of(version, &session)));
    match RequesterKey::of(ctx) {
        Some(key) => roster.memo().get_or(key, resolve),
        None => resolve(),
    }
}

/// Keeps what `session`, already resolved for `ctx`, gives a child it spawns, so that a spawn
/// from `ctx` in this roster does not resolve it again.
pub fn remember_requester(version: OpenClawVersion, roster: &Roster<'_>, ctx: &SessionContext, session: &Resolution) {
    if let Some(key) = RequesterKey::of(ctx) {
        let _ = roster.memo().get_or(key, || Ok::<_, SessionError>(Arc::new(spawn::Requester::of(version, session))));
    }
}

impl RequesterKey {
    /// The key of a requester context; `None` for one that does not serialize whole.
    fn of(ctx: &SessionContext) -> Option<Self> {
        ctx.serializes_whole().then(|| serde_json::to_string(ctx).ok()).flatten().map(RequesterKey)
    }
}

/// [`resolve`] with the roster of `config` indexed once, for callers that resolve many sessions.
pub fn resolve_in(
    version: OpenClawVersion,
    config: &Value,
    roster: &Roster<'_>,
    ctx: &SessionContext,
) -> Result<Resolution, SessionError> {
    if ctx.run != RunKind::Chat && ctx.automation.is_none() {
        let run = automation::run_context(version, config, ctx)?;
        return resolve_in(version, config, roster, &run);
    }
    if let Some(requester) = &ctx.requester {
        let requester = requester_in(version, config, roster, requester)?;
        let child = spawn::child_context(version, config, ctx, &requester);
        return resolve_in(version, config, roster, &child);
    }
    let pack = version.policy();
    let session = Session::resolve_in(config, roster, ctx, version)?;
    let built = steps::build(version, config, &session, ctx);
    let inventory = inventory::construct(pack, version, config, &session, ctx, &built.steps, built.sandbox.as_deref());

    let mut removed: BTreeMap<String, Removal> = BTreeMap::new();
    // The filters run in order: a tool is removed by the first that drops it.
    for (tool, filter) in &inventory.pre_filtered {
        removed.entry(tool.clone()).or_insert_with(|| pre_filter_removal(filter));
    }
    let candidates: Arc<[String]> = inventory.tools.iter().map(|t| t.name.clone()).collect();
    let mut plugins = PluginGroups::default();
    for tool in inventory.tools.iter().filter(|t| t.plugin.is_some()) {
        plugins.add(tool.plugin.as_deref().unwrap_or_default(), &tool.name);
    }

    // Every candidate's normalized name, normalized once for all steps; the candidates still in
    // the pipeline by their index.
    let names = candidates.clone();
    let normalized: Vec<String> = candidates.iter().map(|name| pack.normalize(name)).collect();
    let mut alive: Vec<usize> = (0..candidates.len()).filter(|&i| !removed.contains_key(&candidates[i])).collect();
    let mcp_servers = mcp::McpServers::shared(&session.memo, config);
    let pipeline_input = unknown::InputNames::new(&inventory, &removed, mcp_servers.namespaces());
    let mut warnings = Vec::new();
    let mut records = Vec::new();
    for step in built.steps {
        let mut allowlist_ignored = false;
        if step.kind.analyzes_unknown_entries() {
            let analysis = unknown::analyze(pack, &step, &pipeline_input);
            allowlist_ignored = analysis.strip_allowlist;
            warnings.extend(analysis.warning);
        }
        // The step's own policy, unless its allowlist is ignored (a list can be long: not copied).
        let effective = if allowlist_ignored {
            Arc::new(rules::Policy { allow: None, deny: step.policy.deny.clone() })
        } else {
            step.policy.clone()
        };
        let compiled = CompiledPolicy::shared(&session.memo, pack, &effective, &plugins);
        let mut verdicts = Verdicts::new(&names);
        for name in normalized.iter() {
            verdicts.push(Some(compiled.evaluate(name)));
        }
        let mut step_removed = Vec::new();
        let attribution = Attribution::of(&step, &effective);
        alive.retain(|&index| {
            let verdict = verdicts.at(index).expect("every candidate judged");
            if verdict.keeps() {
                return true;
            }
            removed.insert(names[index].clone(), attribution.removal(&effective, verdict));
            step_removed.push(names[index].clone());
            false
        });
        step_removed.sort();
        records.push(StepRecord { step, allowlist_ignored, removed: step_removed, verdicts });
    }

    // The cron drop runs inside the tool builder; the per-run cap comes later, in the run attempt.
    if session::is_cron_session(&session.session_key) {
        let dropped = &pack.post_policy.cron_sessions_drop;
        alive.retain(|&index| {
            if !dropped.contains(&names[index]) {
                return true;
            }
            removed.insert(names[index].clone(), post_policy_removal("scheduled (cron) sessions never get this tool"));
            false
        });
    }
    if let Some(runtime) = ctx.tools_allow.as_ref().filter(|_| pack.runtime_tools_allow.cap_after_pipeline) {
        let candidates = Candidates { names: &names, normalized: &normalized };
        apply_runtime_allowlist(pack, runtime, &plugins, &candidates, &mut alive, &mut removed, &mut records);
    }

    let mut tools: Vec<String> = alive.into_iter().map(|index| names[index].clone()).collect();
    tools.sort();
    let mut assumptions = session.assumptions.clone();
    assumptions.extend(inventory.assumptions.clone());
    Ok(Resolution {
        version,
        agent_id: session.agent_id.clone(),
        session_key: session.session_key.clone(),
        sandbox: session.sandbox.clone(),
        subagent_role: session.role,
        spawn_depth: session.depth,
        spawn: ctx.spawn.clone(),
        automation: ctx.automation.clone(),
        candidates,
        not_constructed: shared_reasons(&session.memo, inventory.not_constructed),
        steps: records,
        tools,
        removed,
        warnings: dedupe(warnings),
        assumptions,
        sandbox_policy: built.sandbox,
    })
}

/// A not-built reason, as the key of the config's table of them.
#[derive(PartialEq, Eq, Hash)]
struct NotBuiltReason(String);

/// The reasons of `not_built`, each held once per config: most sessions of a fleet give the same
/// few dozen.
fn shared_reasons(memo: &memo::Memo, not_built: BTreeMap<String, String>) -> BTreeMap<String, Arc<str>> {
    memo.with(|table: &mut ahash::AHashMap<NotBuiltReason, Arc<str>>| {
        let mut share =
            |reason: String| table.entry(NotBuiltReason(reason)).or_insert_with_key(|r| r.0.as_str().into()).clone();
        not_built.into_iter().map(|(tool, reason)| (tool, share(reason))).collect()
    })
}

fn dedupe(items: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    items.into_iter().filter(|w| seen.insert(w.clone())).collect()
}

/// The label of the per-run `toolsAllow` cap. OpenClaw applies it in the run attempt, outside
/// the pipeline, so it has no pipeline label of its own.
pub const RUNTIME_CAP_LABEL: &str = "runtime toolsAllow (per-run cap)";

/// The label of pipeline step 12, the run's toolsAllow inside the pipeline (inheritance mode).
pub const RUNTIME_STEP_LABEL: &str = "runtime tools.allow";

/// The 2026.9 step that applies what a sub-agent's requester handed down at spawn time.
pub const INHERITED_STEP_LABEL: &str = "inherited tools";

/// A resolution's candidate tools: their names and their normalized names, in candidate order.
struct Candidates<'a> {
    names: &'a Arc<[String]>,
    normalized: &'a [String],
}

/// The per-run `toolsAllow` cap, applied after the pipeline as OpenClaw's runner does.
fn apply_runtime_allowlist(
    pack: &VersionPack,
    runtime: &[String],
    plugins: &PluginGroups,
    candidates: &Candidates<'_>,
    alive: &mut Vec<usize>,
    removed: &mut BTreeMap<String, Removal>,
    records: &mut Vec<StepRecord>,
) {
    let entries: Vec<Entry> = runtime
        .iter()
        .map(|p| Entry { pattern: p.clone(), source: Source::Context { what: "runtime toolsAllow".into() } })
        .collect();
    let step = Step {
        kind: StepKind::Runtime,
        label: RUNTIME_CAP_LABEL.into(),
        policy: Arc::new(rules::Policy { allow: Some(entries), deny: None }),
        scope: None,
        suppress: Arc::new([]),
    };
    // `toolsAllow: []` means no tools at all, unlike an empty allowlist inside the pipeline.
    let everything_denied = runtime.iter().all(|p| pack.normalize(p).is_empty());
    let compiled = CompiledPolicy::compile(pack, &step.policy, plugins);
    let attribution = Attribution::of(&step, &step.policy);
    let mut verdicts = Verdicts::new(candidates.names);
    candidates.names.iter().for_each(|_| verdicts.push(None));
    let mut step_removed = Vec::new();
    alive.retain(|&index| {
        let verdict =
            if everything_denied { Verdict::NotInAllowlist } else { compiled.evaluate(&candidates.normalized[index]) };
        let keeps = verdict.keeps();
        if !keeps {
            let name = &candidates.names[index];
            removed.insert(name.clone(), attribution.removal(&step.policy, &verdict));
            step_removed.push(name.clone());
        }
        verdicts.set(index, verdict);
        keeps
    });
    step_removed.sort();
    records.push(StepRecord { step, allowlist_ignored: false, removed: step_removed, verdicts });
}

/// OpenClaw's audit relabelling of a deny removal: `.allow` → `.deny`, else the word `allow`,
/// else `.deny` appended.
pub fn audit_label(label: &str, rule: RemovalRule) -> String {
    if rule != RemovalRule::Deny {
        return label.to_string();
    }
    if let Some(stem) = label.strip_suffix(".allow") {
        return format!("{stem}.deny");
    }
    let words: Vec<&str> = label.split(' ').collect();
    if let Some(pos) = words.iter().position(|w| *w == "allow") {
        let mut out = words.clone();
        out[pos] = "deny";
        return out.join(" ");
    }
    format!("{label}.deny")
}

/// How a step's removals are attributed, worked out once per step rather than once per tool.
struct Attribution {
    step: Arc<str>,
    deny_label: Arc<str>,
    allow_label: Arc<str>,
    /// Where an allowlist miss is attributed: the list itself (the first entry written in
    /// config), or the profile's scope.
    allow_scope: Option<Arc<Source>>,
}

impl Attribution {
    fn of(step: &Step, policy: &rules::Policy) -> Self {
        let allow_scope = || {
            if matches!(step.kind, StepKind::Profile | StepKind::ProviderProfile) {
                return step.scope.clone().map(Source::config);
            }
            let entries = policy.allow.as_ref()?;
            let written = entries.iter().find_map(|e| e.source.config_path()).map(|path| {
                let mut list = path.clone();
                list.0.pop();
                Source::config(list)
            });
            written.or_else(|| entries.first().map(|e| e.source.clone()))
        };
        Attribution {
            step: step.label.as_str().into(),
            deny_label: audit_label(&step.label, RemovalRule::Deny).into(),
            allow_label: audit_label(&step.label, RemovalRule::Allow).into(),
            allow_scope: allow_scope().map(Arc::new),
        }
    }

    fn removal(&self, policy: &rules::Policy, verdict: &Verdict) -> Removal {
        let denied_by = match verdict {
            Verdict::Denied { by } => policy.deny.as_ref().and_then(|d| d.get(by.entry)).map(|e| (e, by)),
            _ => None,
        };
        let rule = if matches!(verdict, Verdict::Denied { .. }) { RemovalRule::Deny } else { RemovalRule::Allow };
        Removal {
            step: self.step.clone(),
            rule,
            audit_label: if rule == RemovalRule::Deny { &self.deny_label } else { &self.allow_label }.clone(),
            pattern: denied_by.map(|(e, _)| e.pattern.clone()),
            via: denied_by.and_then(|(_, by)| by.via.as_deref().cloned()),
            source: match denied_by {
                Some((e, _)) => Some(Arc::new(e.source.clone())),
                None => self.allow_scope.clone(),
            },
        }
    }
}

fn post_policy_removal(reason: &str) -> Removal {
    Removal {
        step: "post-policy".into(),
        rule: RemovalRule::Filter,
        audit_label: "post-policy".into(),
        pattern: None,
        via: None,
        source: Some(Arc::new(Source::builtin(reason))),
    }
}

fn pre_filter_removal(filter: &PreFilter) -> Removal {
    Removal {
        step: filter.label.as_str().into(),
        rule: RemovalRule::Filter,
        audit_label: filter.label.as_str().into(),
        pattern: None,
        via: None,
        source: Some(Arc::new(Source::builtin(filter.reason.clone()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A requester asked by several children of one roster is resolved once, and each child is
    /// resolved as it is alone.
    #[test]
    fn a_requester_is_resolved_once_per_roster() {
        let config: Value = serde_json::json!({
            "agents": {"list": [
                {"id": "lead", "default": true, "subagents": {"allowAgents": ["*"]}, "tools": {"deny": ["browser"]}},
                {"id": "writer", "tools": {"profile": "minimal"}},
                {"id": "coder"},
            ]},
        });
        for version in OpenClawVersion::ALL {
            let roster = Roster::new(&config, version);
            let lead = SessionContext {
                agent_id: Some("lead".into()),
                sender_is_owner: Some(true),
                ..SessionContext::default()
            };
            let first = requester_in(version, &config, &roster, &lead).unwrap();
            assert!(Arc::ptr_eq(&first, &requester_in(version, &config, &roster, &lead).unwrap()));
            // Two requesters that differ in one field: neither may answer for the other.
            let outsider = SessionContext { sender_is_owner: Some(false), ..lead.clone() };
            for requester in [&lead, &outsider, &lead] {
                for child in ["lead", "writer", "coder"] {
                    let ctx = spawn::request(requester.clone(), Some(child.into()));
                    let shared = resolve_in(version, &config, &roster, &ctx);
                    let alone = resolve(version, &config, &ctx);
                    assert_eq!(format!("{shared:?}"), format!("{alone:?}"), "{} {child}", version.id());
                }
            }
            // A context the resolver derived (a spawn envelope) is not known by its serialization.
            let child = resolve(version, &config, &spawn::request(lead.clone(), Some("coder".into()))).unwrap();
            let derived = SessionContext { spawn: child.spawn.clone(), ..lead.clone() };
            let once = requester_in(version, &config, &roster, &derived).unwrap();
            assert!(!Arc::ptr_eq(&once, &requester_in(version, &config, &roster, &derived).unwrap()));
        }
    }

    /// Verdicts kept once each still answer for every candidate what the step decided, however
    /// they repeat (in runs, or far apart) and when given out of order.
    #[test]
    fn verdicts_answer_per_candidate_as_given() {
        use crate::policy::matcher::MatchRef;
        let allowed = |entry: usize| Verdict::Allowed { by: MatchRef { entry, via: None } };
        let given: Vec<Option<Verdict>> = (0..40)
            .map(|i| match i % 5 {
                0 => None,
                1 => Some(Verdict::AllowedNoAllowlist),
                2 => Some(allowed(i % 11)),
                3 => Some(Verdict::NotInAllowlist),
                _ => Some(allowed(i)),
            })
            .collect();
        let names: Arc<[String]> = (0..given.len()).map(|i| format!("tool{i:02}")).collect();
        let mut verdicts = Verdicts::new(&names);
        given.iter().for_each(|v| verdicts.push(v.clone()));
        for (name, verdict) in names.iter().zip(&given) {
            assert_eq!(verdicts.get(name), verdict.as_ref(), "{name}");
        }
        let judged_count = given.iter().flatten().count();
        assert!(
            verdicts.distinct.len() < judged_count * 2 / 3,
            "repeats in a run are kept once: {}",
            verdicts.distinct.len()
        );
        let judged: Vec<&str> = verdicts.sorted().into_iter().map(|(name, _)| name).collect();
        assert_eq!(judged.len(), judged_count);
        assert!(judged.is_sorted());

        let mut late = Verdicts::new(&names);
        names.iter().for_each(|_| late.push(None));
        late.set(7, Verdict::NotInAllowlist);
        assert_eq!(late.get("tool07"), Some(&Verdict::NotInAllowlist));
        assert_eq!(late.get("tool06"), None);
        assert_eq!(late.get("no such tool"), None);
    }

    #[test]
    fn sessions_of_one_config_share_what_their_steps_read() {
        let version = OpenClawVersion::V2026_9;
        let config = serde_json::json!({
            "tools": {"profile": "coding", "deny": ["browser"]},
            "agents": {"entries": {"a": {"tools": {"deny": ["exec"]}}, "b": {}}}
        });
        let session = |agent: &str, owner| SessionContext {
            agent_id: Some(agent.into()),
            sender_is_owner: Some(owner),
            ..Default::default()
        };
        let policy = |resolution: &Resolution, kind| {
            resolution.steps.iter().find(|r| r.step.kind == kind).map(|r| r.step.policy.clone()).unwrap()
        };
        let roster = Roster::new(&config, version);
        let a = resolve_in(version, &config, &roster, &session("a", true)).unwrap();
        let b = resolve_in(version, &config, &roster, &session("b", false)).unwrap();
        assert!(Arc::ptr_eq(&policy(&a, StepKind::Global), &policy(&b, StepKind::Global)));
        assert!(Arc::ptr_eq(&policy(&a, StepKind::Profile), &policy(&b, StepKind::Profile)));
        // What differs stays apart: the agents' own blocks, and the answers.
        assert!(a.steps.iter().any(|r| r.step.kind == StepKind::Agent));
        assert!(!b.steps.iter().any(|r| r.step.kind == StepKind::Agent));
        assert!(!a.tools.contains(&"exec".to_string()) && b.tools.contains(&"exec".to_string()));
        // Another config's sessions share nothing with these.
        let other = resolve(version, &config, &session("b", false)).unwrap();
        assert!(!Arc::ptr_eq(&policy(&b, StepKind::Global), &policy(&other, StepKind::Global)));
        assert_eq!(other.tools, b.tools);
    }

    #[test]
    fn audit_labels() {
        assert_eq!(audit_label("tools.allow", RemovalRule::Deny), "tools.deny");
        assert_eq!(audit_label("agents.main.tools.allow", RemovalRule::Deny), "agents.main.tools.deny");
        assert_eq!(audit_label("group tools.allow", RemovalRule::Deny), "group tools.deny");
        assert_eq!(audit_label("tools.toolsBySender", RemovalRule::Deny), "tools.toolsBySender.deny");
        assert_eq!(
            audit_label("gateway sender owner-only tools", RemovalRule::Deny),
            "gateway sender owner-only tools.deny"
        );
        assert_eq!(audit_label("tools.profile (coding)", RemovalRule::Allow), "tools.profile (coding)");
    }
}
