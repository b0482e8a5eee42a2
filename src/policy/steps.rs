//! Building the ordered policy steps of a session from the config, with OpenClaw's exact labels.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::context::SessionContext;
use super::matcher::expand_static_groups;
use super::memo::{self, Memo};
use super::rules::{Entry, Policy, ScopeLists, Source, entries, unique_entries};
use super::sandbox::{self, SandboxPolicy};
use super::scopes::{self, Sender};
use super::session::{Session, SubagentRole};
use crate::OpenClawVersion;
use crate::config::path::KeyPath;
use crate::config::view::channels::GroupEntry;
use crate::config::view::tools::{ListKind, ToolsScope};
use crate::release::pack::{OwnerCondition, OwnerOnlyPlacement, SenderChannel, UnknownEntryHandling, VersionPack};

/// The kind of a pipeline step; the order of the variants is the pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum StepKind {
    Profile,
    ProviderProfile,
    Global,
    GlobalProvider,
    Agent,
    AgentProvider,
    Group,
    Sender,
    Sandbox,
    OwnerOnly,
    Subagent,
    Runtime,
    Inherited,
}

impl StepKind {
    /// Steps whose allowlists OpenClaw analyses for unknown entries (and, in 2026.2, strips).
    pub fn analyzes_unknown_entries(self) -> bool {
        self <= StepKind::Sender
    }
}

/// One step of the pipeline as it applies to this session. The policy is shared with every
/// session whose step reads the same config blocks (see [`super::memo`]).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub kind: StepKind,
    pub label: String,
    pub policy: Arc<Policy>,
    /// The config object this step reads (where an edit would go), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<KeyPath>,
    /// Profile steps: the profile's own list, whose unavailable core tools are never warned about.
    #[serde(skip)]
    pub suppress: Arc<[String]>,
}

/// The steps plus the resolved sandbox policy (plugin loading and fix-it keys need it).
pub struct BuiltSteps {
    pub steps: Vec<Step>,
    pub sandbox: Option<Arc<SandboxPolicy>>,
}

fn scope_policy(scope: &Option<ToolsScope<'_>>) -> Option<Policy> {
    ScopeLists::read(scope.as_ref()).to_policy()
}

/// The block a step reads, for [`Memo`] keys.
fn block<'a>(scope: &Option<ToolsScope<'a>>) -> Option<&'a Value> {
    scope.as_ref().map(|s| s.value)
}

/// `profile ∪ alsoAllow`, or nothing when the profile is unset or has no allow list.
fn profile_policy(
    pack: &VersionPack,
    profile: Option<(&str, KeyPath)>,
    also_allow: Option<Vec<Entry>>,
    extras: &[Entry],
) -> Option<(String, Policy, Vec<String>)> {
    let (name, path) = profile?;
    let allow = pack.profile_allow(name)?;
    let source = Source::builtin(format!("profile `{name}` via {path}"));
    let base: Vec<Entry> = allow.iter().map(|t| Entry { pattern: t.clone(), source: source.clone() }).collect();
    // 2026.3 is quiet about the profile's unavailable core tools only while nothing widens it.
    let widened = also_allow.as_ref().is_some_and(|a| !a.is_empty()) || !extras.is_empty();
    let suppress = if widened && pack.unknown_allowlist_entries == UnknownEntryHandling::StripPluginOnlyClassified {
        Vec::new()
    } else {
        allow.to_vec()
    };
    let merged = unique_entries(base.iter().chain(also_allow.iter().flatten()).chain(extras));
    Some((name.to_string(), Policy { allow: Some(merged), deny: None }, suppress))
}

fn profile_of<'a>(tools: &Option<ToolsScope<'a>>) -> Option<(&'a str, KeyPath)> {
    tools.as_ref()?.profile()
}

fn also_allow_of(tools: &Option<ToolsScope<'_>>) -> Option<Vec<Entry>> {
    tools.as_ref()?.list(ListKind::AlsoAllow).map(entries)
}

/// What the agent's or the global `tools` block adds to the `tools.profile` step's alsoAllow by
/// configuring a section (`implicitProfileAlsoAllow`: 2026.3's `tools.exec` adds `exec`, `process`).
fn implicit_also_allow(pack: &VersionPack, scopes: [&Option<ToolsScope<'_>>; 2]) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for (section, tools) in &pack.implicit_profile_also_allow {
        let configured = scopes.iter().find_map(|scope| {
            let block = scope.as_ref()?.member(section).filter(|m| !m.value.is_null())?;
            Some(block.path)
        });
        let Some(path) = configured else { continue };
        for tool in tools {
            if !out.iter().any(|e| &e.pattern == tool) {
                let what = format!("{path} is configured");
                out.push(Entry { pattern: tool.clone(), source: Source::Context { what: what.into() } });
            }
        }
    }
    out
}

/// A profile step as built for one (profile, alsoAllow, extras) combination.
#[derive(Debug)]
struct ProfileStep {
    /// The profile's id (`coding`).
    pub profile: String,
    pub label: String,
    pub policy: Arc<Policy>,
    pub suppress: Arc<[String]>,
}

/// Which profile step, as every session of a config shares it: the blocks its profile and its
/// alsoAllow come from (addresses, 0 for none), and the tools the run adds to every profile
/// (`message` when its `toolsAllow` names it, the response tool of a heartbeat).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct ProfileKey {
    provider_step: bool,
    profile: usize,
    also_allow: usize,
    extras: Vec<String>,
}

/// The policy of a `tools`-shaped block (global, agent, provider, group or sender), by the
/// block's address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct BlockPolicy(usize);

/// The sandbox policy of the agent whose `tools` block has this address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct AgentSandbox(usize);

/// Steps whose policy depends on the config as a whole, not on a block of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum FixedStep {
    OwnerOnly,
    Subagent(SubagentRole),
}

/// A profile step (steps 1–2): `scope`'s profile and alsoAllow, each falling back to
/// `fallback`'s (no merge), labelled `{label} ({profile})`.
fn profile_step<'a>(
    pack: &VersionPack,
    memo: &Memo,
    (provider_step, label): (bool, &str),
    [scope, fallback]: [&Option<ToolsScope<'a>>; 2],
    extras: &[Entry],
) -> Option<Arc<ProfileStep>> {
    let profile_block = if profile_of(scope).is_some() { scope } else { fallback };
    let has_also = |s: &Option<ToolsScope<'a>>| s.as_ref().is_some_and(|s| s.has_list(ListKind::AlsoAllow));
    let also_block = if has_also(scope) { scope } else { fallback };
    let key = ProfileKey {
        provider_step,
        profile: memo::address(block(profile_block)),
        also_allow: memo::address(block(also_block).filter(|_| has_also(also_block))),
        extras: extras.iter().map(|e| e.pattern.clone()).collect(),
    };
    memo.get_or(key, || {
        let (name, policy, suppress) =
            profile_policy(pack, profile_of(profile_block), also_allow_of(also_block), extras)?;
        Some(Arc::new(ProfileStep {
            label: format!("{label} ({name})"),
            profile: name,
            policy: Arc::new(policy),
            suppress: suppress.into(),
        }))
    })
}

/// A profile step plus the plugin tools whose manifest puts them in its profile
/// (`toolMetadata[tool].profiles`): the declared plugins', and in a run's own attempt
/// (`ctx.turn`) the bundled plugins' too (its plugin metadata carries every manifest). They join
/// the allowlist and, as the profile's own entries, are never warned about as unknown. The
/// shared step itself when there are none.
fn with_manifest_tools(
    version: OpenClawVersion,
    memo: &Memo,
    step: &Arc<ProfileStep>,
    ctx: &SessionContext,
) -> Arc<ProfileStep> {
    let profile = step.profile.as_str();
    if !version.policy().plugin_loading.manifest_profiles {
        return step.clone();
    }
    let bundled = version.data().plugins().bundled_profile_members(profile).filter(|_| ctx.turn);
    let declared = ctx.plugin_tools.iter().filter(|t| t.profiles.iter().any(|p| p == profile));
    let members: Vec<(&str, &str)> = bundled.chain(declared.map(|t| (t.plugin.as_str(), t.name.as_str()))).collect();
    if members.is_empty() {
        return step.clone();
    }
    let key = ManifestKey {
        step: Arc::as_ptr(step) as usize,
        members: members.iter().map(|(plugin, tool)| (plugin.to_string(), tool.to_string())).collect(),
    };
    memo.get_or(key, || {
        let manifest: Vec<Entry> = members
            .iter()
            .map(|(plugin, tool)| Entry {
                pattern: tool.to_string(),
                source: Source::builtin(format!("plugin `{plugin}` manifest puts it in profile `{profile}`")),
            })
            .collect();
        let allow = unique_entries(step.policy.allow.iter().flatten().chain(&manifest));
        let suppress = step.suppress.iter().cloned().chain(manifest.into_iter().map(|e| e.pattern)).collect();
        Arc::new(ProfileStep {
            profile: step.profile.clone(),
            label: step.label.clone(),
            policy: Arc::new(Policy { allow: Some(allow), deny: step.policy.deny.clone() }),
            suppress,
        })
    })
}

/// A profile step (by address, held by its own memo entry) and the manifest tools added to it.
#[derive(PartialEq, Eq, Hash)]
struct ManifestKey {
    step: usize,
    members: Vec<(String, String)>,
}

/// Builds the steps that carry a policy for this session, in pipeline order.
pub fn build<'a>(
    version: OpenClawVersion,
    config: &'a Value,
    session: &Session<'a>,
    ctx: &SessionContext,
) -> BuiltSteps {
    let pack = version.policy();
    let memo = &*session.memo;
    let global = ToolsScope::global(config);
    let agent = session.agent_tools.clone();
    let provider = ctx.model_provider.as_deref();
    let model = ctx.model_id.as_deref();
    let by_provider = |scope: &Option<ToolsScope<'a>>| scope.as_ref().and_then(ToolsScope::by_provider);
    let global_provider = scopes::provider_block(pack, by_provider(&global), provider, model);
    let agent_provider = scopes::provider_block(pack, by_provider(&agent), provider, model);

    let mut steps = Vec::new();

    // A run whose toolsAllow names `message` or `*` (directly or through a static group such as
    // `group:messaging`) keeps the message tool past the profiles.
    let runtime_names_message = pack.runtime_tools_allow.profiles_gain_message
        && ctx
            .tools_allow
            .iter()
            .flatten()
            .flat_map(|t| expand_static_groups(pack, t))
            .any(|t| matches!(t.as_str(), "message" | "*"));
    let mut extras: Vec<Entry> = if runtime_names_message {
        vec![Entry {
            pattern: "message".into(),
            source: Source::Context { what: "runtime toolsAllow names message".into() },
        }]
    } else {
        Vec::new()
    };
    // A tool only this kind of run builds (a heartbeat's response tool) passes the profile.
    for tool in ctx.automation.iter().flat_map(|run| &run.extra_built) {
        let what = format!("a {} run builds {tool}", ctx.run);
        extras.push(Entry { pattern: tool.clone(), source: Source::Context { what: what.into() } });
    }

    // Steps 1–2: the agent's profile and alsoAllow replace the global ones (no merge).
    let profiles = [
        (false, "tools.profile", [&agent, &global], StepKind::Profile),
        (true, "tools.byProvider.profile", [&agent_provider, &global_provider], StepKind::ProviderProfile),
    ];
    let implicit = implicit_also_allow(pack, [&agent, &global]);
    for (provider_step, label, [scope, fallback], kind) in profiles {
        let extras = if provider_step { extras.clone() } else { extras.iter().chain(&implicit).cloned().collect() };
        if let Some(step) = profile_step(pack, memo, (provider_step, label), [scope, fallback], &extras) {
            let step = with_manifest_tools(version, memo, &step, ctx);
            let path = profile_of(scope).or_else(|| profile_of(fallback)).map(|(_, path)| path);
            steps.push(Step {
                kind,
                label: step.label.clone(),
                policy: step.policy.clone(),
                scope: path,
                suppress: step.suppress.clone(),
            });
        }
    }

    let no_suppress: Arc<[String]> = Arc::new([]);
    let mut push = |kind, label: String, policy: Option<Arc<Policy>>, scope: Option<KeyPath>| {
        if let Some(policy) = policy {
            steps.push(Step { kind, label, policy, scope, suppress: no_suppress.clone() });
        }
    };
    let scope_step = |scope: &Option<ToolsScope<'a>>| {
        memo.get_or(BlockPolicy(memo::address(block(scope))), || scope_policy(scope).map(Arc::new))
    };

    // Steps 3–6: global, global provider, agent, agent provider allow/deny.
    push(StepKind::Global, "tools.allow".into(), scope_step(&global), global.as_ref().map(|b| b.path.clone()));
    push(
        StepKind::GlobalProvider,
        "tools.byProvider.allow".into(),
        scope_step(&global_provider),
        global_provider.as_ref().map(|b| b.path.clone()),
    );
    let agent_id = &session.agent_id;
    push(
        StepKind::Agent,
        format!("agents.{agent_id}.tools.allow"),
        scope_step(&agent),
        agent.as_ref().map(|b| b.path.clone()),
    );
    push(
        StepKind::AgentProvider,
        format!("agents.{agent_id}.tools.byProvider.allow"),
        scope_step(&agent_provider),
        agent_provider.as_ref().map(|b| b.path.clone()),
    );

    // Steps 7–8: group and sender policy. A spawned 2026.9 child without an external sender runs
    // on its stored envelope instead (a "delegated" run).
    let delegated = ctx.spawn.is_some() && pack.subagents.inherits_requester_policy;
    let group_scope = scopes::group_scope(pack, &session.session_key, ctx);
    let sender_channel = scopes::session_channel(&session.session_key)
        .or_else(|| ctx.message_provider.as_deref().map(crate::config::view::ids::normalize_channel));
    let sender = Sender::from_context(ctx, sender_channel);
    let group_block = group_scope.as_ref().and_then(|scope| {
        let (selected, wildcard) = scopes::group_entries(config, scope, ctx.account_id.as_deref());
        let from_entry = |entry: &Option<GroupEntry<'a>>| -> Option<ToolsScope<'a>> {
            let entry = entry.as_ref()?;
            scopes::sender_block(pack, entry.tools_by_sender(), &sender).or_else(|| entry.tools())
        };
        from_entry(&selected).or_else(|| from_entry(&wildcard))
    });
    let group_path = group_block.as_ref().map(|b| b.path.clone());
    if !delegated {
        push(StepKind::Group, "group tools.allow".into(), scope_step(&group_block), group_path);
    }

    if pack.tools_by_sender.scopes.iter().any(|s| s == "global") && !delegated {
        let rules = &pack.tools_by_sender;
        let provider_sender;
        let sender = match rules.channel_from {
            SenderChannel::SessionKeyFirst => &sender,
            SenderChannel::MessageProvider => {
                let channel = ctx.message_provider.as_deref().map(crate::config::view::ids::normalize_channel);
                provider_sender = Sender::from_context(ctx, channel);
                &provider_sender
            }
        };
        let webchat_owner = ctx.sender_is_owner != Some(false) && sender.channel.as_deref() == Some("webchat");
        if !(rules.webchat_owner_exempt && webchat_owner) {
            let by_sender = |scope: &Option<ToolsScope<'a>>| scope.as_ref().and_then(ToolsScope::tools_by_sender);
            let sender_block = scopes::sender_block(pack, by_sender(&agent), sender)
                .or_else(|| scopes::sender_block(pack, by_sender(&global), sender));
            let scope = sender_block.as_ref().map(|b| b.path.clone());
            push(StepKind::Sender, "tools.toolsBySender".into(), scope_step(&sender_block), scope);
        }
    }

    // Step 9: sandbox.
    let sandbox_agent_tools = session.sandbox_agent_tools.as_ref();
    let sandbox_policy = session.sandbox.sandboxed.then(|| {
        let agent_tools = AgentSandbox(memo::address(sandbox_agent_tools.map(|t| t.value)));
        memo.get_or(agent_tools, || Arc::new(sandbox::resolve(pack, config, sandbox_agent_tools)))
    });
    if let Some(resolved) = &sandbox_policy {
        push(StepKind::Sandbox, "sandbox tools.allow".into(), Some(resolved.policy.clone()), None);
    }

    // Step 10: owner-only tools as a deny step (2026.9); 2026.2 filters before the pipeline.
    if pack.owner_only.placement == OwnerOnlyPlacement::PipelineStep && is_non_owner(pack, ctx) {
        let policy = memo.get_or(FixedStep::OwnerOnly, || {
            let deny = builtin_entries(&pack.owner_only.tools, "owner-only tools (sender is not the owner)");
            Arc::new(Policy { allow: None, deny: Some(deny) })
        });
        push(StepKind::OwnerOnly, "gateway sender owner-only tools".into(), Some(policy), None);
    }

    // Step 11: sub-agents.
    if session.role != SubagentRole::Main {
        let policy =
            memo.get_or(FixedStep::Subagent(session.role), || Arc::new(subagent_policy(pack, config, session.role)));
        push(StepKind::Subagent, "subagent tools.allow".into(), Some(policy), None);
    }

    // Step 12: the run's toolsAllow, when the run asks to inherit it (embedded runs).
    if ctx.inherit_runtime_tools_allow && pack.runtime_tools_allow.pipeline_step_when_inherited {
        let allow = ctx.tools_allow.as_ref().map(|list| {
            list.iter()
                .map(|p| Entry { pattern: p.clone(), source: Source::Context { what: "runtime toolsAllow".into() } })
                .collect()
        });
        let policy = allow.map(|allow| Arc::new(Policy { allow: Some(allow), deny: None }));
        push(StepKind::Runtime, super::RUNTIME_STEP_LABEL.into(), policy, None);
    }

    // Step 13: what the requester's session handed down at spawn time.
    let inherited = ctx.spawn.as_ref().and_then(|s| s.inherited.clone());
    push(StepKind::Inherited, super::INHERITED_STEP_LABEL.into(), inherited.map(Arc::new), None);

    BuiltSteps { steps, sandbox: sandbox_policy }
}

/// Whether the sender counts as not the owner, the condition of the owner-only filter (which
/// a release may apply only outside sessions: `OwnerOnlyRules::filters_sessions`).
pub fn is_non_owner(pack: &VersionPack, ctx: &SessionContext) -> bool {
    match pack.owner_only.applies_when {
        OwnerCondition::SenderIsOwnerFalse => ctx.sender_is_owner == Some(false),
        OwnerCondition::SenderIsOwnerNotTrue => ctx.sender_is_owner != Some(true),
    }
}

fn builtin_entries(names: &[String], what: &str) -> Vec<Entry> {
    let source = Source::builtin(what);
    names.iter().map(|n| Entry { pattern: n.clone(), source: source.clone() }).collect()
}

/// The sub-agent step: built-in denies by role plus `tools.subagents.tools`.
fn subagent_policy(pack: &VersionPack, config: &Value, role: SubagentRole) -> Policy {
    let rules = &pack.subagents;
    let lists = ScopeLists::read(ToolsScope::global(config).and_then(|t| t.subagent_tools()).as_ref());
    let mut defaults = builtin_entries(&rules.always_deny, "sub-agent deny list");
    if role == SubagentRole::Leaf {
        defaults.extend(builtin_entries(&rules.leaf_deny, "leaf sub-agent deny list"));
    }
    if rules.allow_removes_from_default_deny {
        let named: Vec<String> =
            lists.allow.iter().chain(&lists.also_allow).flatten().map(|e| pack.normalize(&e.pattern)).collect();
        defaults.retain(|d| !named.contains(&d.pattern));
    }
    let deny = unique_entries(defaults.iter().chain(lists.deny.iter().flatten()));
    // alsoAllow alone grants nothing here: there is no allowlist to widen.
    let allow = lists.allow.map(|allow| match &lists.also_allow {
        Some(also) => unique_entries(allow.iter().chain(also)),
        None => allow,
    });
    Policy { allow, deny: Some(deny) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn labels(version: OpenClawVersion, config: &Value, ctx: SessionContext) -> Vec<String> {
        let session = Session::resolve(config, &ctx, version).unwrap();
        build(version, config, &session, &ctx).steps.into_iter().map(|s| s.label).collect()
    }

    #[test]
    fn labels_follow_openclaw() {
        let config = json!({
            "tools": {"profile": "coding", "deny": ["browser"], "byProvider": {"openai": {"profile": "minimal", "deny": ["x"]}}},
            "agents": {"entries": {"main": {"tools": {"deny": ["exec"]}}}}
        });
        let ctx = SessionContext {
            model_provider: Some("openai".into()),
            sender_is_owner: Some(false),
            ..Default::default()
        };
        assert_eq!(
            labels(OpenClawVersion::V2026_9, &config, ctx),
            [
                "tools.profile (coding)",
                "tools.byProvider.profile (minimal)",
                "tools.allow",
                "tools.byProvider.allow",
                "agents.main.tools.allow",
                "gateway sender owner-only tools"
            ]
        );
    }

    #[test]
    fn runtime_groups_naming_message_keep_it_past_the_profile() {
        let config = json!({"tools": {"profile": "minimal"}});
        let profile_allows_message = |tools_allow: &[&str]| {
            let ctx = SessionContext {
                tools_allow: Some(tools_allow.iter().map(|t| t.to_string()).collect()),
                ..Default::default()
            };
            let session = Session::resolve(&config, &ctx, OpenClawVersion::V2026_9).unwrap();
            let steps = build(OpenClawVersion::V2026_9, &config, &session, &ctx).steps;
            steps[0].policy.allow.iter().flatten().any(|e| e.pattern == "message")
        };
        assert!(profile_allows_message(&["group:messaging"]));
        assert!(profile_allows_message(&["group:openclaw"]));
        assert!(!profile_allows_message(&["group:fs"]));
    }

    #[test]
    fn subagent_also_allow_alone_is_ignored() {
        let pack = OpenClawVersion::V2026_9.policy();
        let config = json!({"tools": {"subagents": {"tools": {"alsoAllow": ["gateway"]}}}});
        let policy = subagent_policy(pack, &config, SubagentRole::Orchestrator);
        assert!(policy.allow.is_none());
        assert!(policy.deny_patterns().any(|p| p == "gateway"));
        let seed = OpenClawVersion::V2026_2.policy();
        let policy = subagent_policy(
            seed,
            &json!({"tools": {"subagents": {"tools": {"alsoAllow": ["gateway"]}}}}),
            SubagentRole::Leaf,
        );
        assert!(!policy.deny_patterns().any(|p| p == "gateway"));
    }
}

#[cfg(test)]
mod manifest_profile_tests {
    use super::*;
    use crate::policy::PluginTool;
    use serde_json::json;

    #[test]
    fn a_manifest_puts_its_tool_in_the_profiles_it_names() {
        let tool = |profiles: &[&str]| PluginTool {
            plugin: "acme".into(),
            name: "acme_search".into(),
            optional: false,
            profiles: profiles.iter().map(|p| p.to_string()).collect(),
        };
        let tools = |version: OpenClawVersion, profiles: &[&str]| {
            let ctx = SessionContext { plugin_tools: vec![tool(profiles)], ..Default::default() };
            crate::policy::resolve(version, &json!({"tools": {"profile": "minimal"}}), &ctx).unwrap().tools
        };
        let has = |tools: Vec<String>| tools.iter().any(|t| t == "acme_search");
        assert!(has(tools(OpenClawVersion::V2026_9, &["minimal", "coding"])));
        assert!(!has(tools(OpenClawVersion::V2026_9, &["coding"])));
        // 2026.2 manifests carry no profile membership.
        assert!(!has(tools(OpenClawVersion::V2026_2, &["minimal"])));
    }
}

#[cfg(test)]
mod implicit_also_allow_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_configured_exec_section_widens_the_profile_where_the_release_says() {
        let resolve = |version: OpenClawVersion, config: serde_json::Value| {
            let ctx = SessionContext { sender_is_owner: Some(true), ..Default::default() };
            crate::policy::resolve(version, &config, &ctx).unwrap()
        };
        let config = json!({"tools": {"profile": "minimal", "exec": {"security": "allowlist"}}});
        let has_exec = |tools: &[String]| tools.iter().any(|t| t == "exec");
        assert!(has_exec(&resolve(OpenClawVersion::V2026_3, config.clone()).tools));
        assert!(!has_exec(&resolve(OpenClawVersion::V2026_2, config).tools));
        // Widened, the coding profile's unavailable core tools are warned about; alone, not.
        let coding = |extra: serde_json::Value| {
            let mut config = json!({"tools": {"profile": "coding"}});
            config["tools"].as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            resolve(OpenClawVersion::V2026_3, config).warnings
        };
        assert!(coding(json!({})).is_empty());
        let widened = coding(json!({"exec": {}}));
        assert!(
            widened.iter().any(|w| w.contains("These entries are shipped core tools but unavailable")),
            "{widened:?}"
        );
    }
}
