//! What tool construction checks a tool against, shared by the core-tool builder
//! ([`super::core_tools`]) and the plugin loading of the inventory ([`super::inventory`]): the
//! explicit lists of every policy (`collectExplicitAllowlist`) and the construction-time checks.

use std::sync::{Arc, OnceLock};

use super::context::SessionContext;
use super::matcher::{CompiledPolicy, PluginGroups, expand_static_groups};
use super::memo::Memo;
use super::rules::{Entry, Policy, Source};
use super::sandbox::SandboxPolicy;
use super::shared::NameSet;
use super::steps::{Step, StepKind, is_non_owner};
use crate::release::pack::VersionPack;

/// A tool constructed for the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InventoryTool {
    pub name: String,
    /// The owning plugin; `None` for core tools.
    pub plugin: Option<String>,
}

/// The policies that decide which plugin tools load (`collectExplicitAllowlist`).
pub struct ExplicitLists {
    /// Allow entries of every policy; `None` marks an alsoAllow-only policy ("include defaults").
    pub allow: Vec<Option<String>>,
    /// Allow entries of the non-profile policies (local-model-lean overrides).
    pub override_allow: Vec<String>,
    /// Deny entries of every policy, plus owner-only denies for non-owners.
    pub deny: Vec<String>,
    /// Plugin selection's view, normalized and compiled once: the named allow patterns, whether
    /// an empty or alsoAllow-only allowlist includes default plugin tools, and the deny patterns.
    pub plugin_allow: NameSet,
    pub includes_defaults: bool,
    pub plugin_deny: NameSet,
    /// The deny lists construction checks (the global `tools.deny` and every policy's denies),
    /// compiled when first needed; see `core_tools`.
    pub construction_deny: OnceLock<NameSet>,
}

/// The explicit lists of a session, shared with the sessions whose steps have the same policies.
/// Kept only when the policies hold many patterns (a list of thousands of names is compiled into
/// several name sets); short lists, the usual case, are faster to compile than to keep for every
/// session shape.
pub fn shared_explicit_lists(
    memo: &Memo,
    pack: &VersionPack,
    steps: &[Step],
    sandbox: Option<&SandboxPolicy>,
    ctx: &SessionContext,
) -> Arc<ExplicitLists> {
    const SHARED_FROM: usize = 1_000;
    let compute = || Arc::new(explicit_lists(pack, steps, sandbox, ctx));
    let (key, held, patterns) = ExplicitKey::of(pack, steps, sandbox, ctx);
    if patterns < SHARED_FROM {
        return compute();
    }
    let held: HeldPolicies = held.into();
    memo.get_or(key, || (held, compute())).1
}

/// Policies a memo key names by address, held so that the addresses stay theirs.
type HeldPolicies = Arc<[Arc<Policy>]>;

/// What [`explicit_lists`] reads of a session: its steps' policies (by address), the run's
/// toolsAllow and whether the sender is not the owner.
#[derive(PartialEq, Eq, Hash)]
struct ExplicitKey {
    policies: Vec<(StepKind, usize)>,
    tools_allow: Option<Vec<String>>,
    non_owner: bool,
}

impl ExplicitKey {
    /// The key of a session's explicit lists, with the policies it names by address (to be held
    /// while the key is known) and how many patterns they hold in all.
    fn of(
        pack: &VersionPack,
        steps: &[Step],
        sandbox: Option<&SandboxPolicy>,
        ctx: &SessionContext,
    ) -> (Self, Vec<Arc<Policy>>, usize) {
        let held: Vec<(StepKind, &Arc<Policy>)> = explicit_steps(steps)
            .map(|s| (s.kind, &s.policy))
            .chain(sandbox.map(|s| (StepKind::Sandbox, &s.policy)))
            .collect();
        let patterns =
            held.iter().map(|(_, p)| p.allow.as_ref().map_or(0, Vec::len) + p.deny.as_ref().map_or(0, Vec::len)).sum();
        let key = ExplicitKey {
            policies: held.iter().map(|(kind, policy)| (*kind, Arc::as_ptr(policy) as usize)).collect(),
            tools_allow: ctx.tools_allow.clone(),
            non_owner: is_non_owner(pack, ctx),
        };
        (key, held.into_iter().map(|(_, policy)| policy.clone()).collect(), patterns)
    }
}

/// The steps whose policies count for plugin loading (the sandbox's comes from its resolver,
/// owner-only denies are added by sender).
fn explicit_steps(steps: &[Step]) -> impl Iterator<Item = &Step> {
    steps.iter().filter(|s| !matches!(s.kind, StepKind::Sandbox | StepKind::OwnerOnly))
}

pub fn explicit_lists(
    pack: &VersionPack,
    steps: &[Step],
    sandbox: Option<&SandboxPolicy>,
    ctx: &SessionContext,
) -> ExplicitLists {
    let mut lists = ExplicitLists {
        allow: Vec::new(),
        override_allow: Vec::new(),
        deny: Vec::new(),
        plugin_allow: NameSet::default(),
        includes_defaults: false,
        plugin_deny: NameSet::default(),
        construction_deny: OnceLock::new(),
    };
    let runtime = ctx.tools_allow.as_ref().map(|allow| Policy {
        allow: Some(allow.iter().map(|p| Entry { pattern: p.clone(), source: Source::builtin("runtime") }).collect()),
        deny: None,
    });
    let sandbox_policy = sandbox.map(|s| (StepKind::Sandbox, &*s.policy));
    let policies = explicit_steps(steps)
        .map(|s| (s.kind, &*s.policy))
        .chain(sandbox_policy)
        .chain(runtime.as_ref().map(|p| (StepKind::Runtime, p)));
    for (kind, policy) in policies {
        // Profile steps count with their profile list only; their alsoAllow shows in its own scope.
        let profile = matches!(kind, StepKind::Profile | StepKind::ProviderProfile);
        // The sandbox resolver hands over its lists with static groups already expanded, so a
        // sandbox `group:memory` names `memory_search` to plugin selection (other layers stay raw).
        let as_listed = |pattern: &str, listed: &mut dyn FnMut(String)| {
            if kind == StepKind::Sandbox {
                expand_static_groups(pack, pattern).into_iter().for_each(listed);
            } else if !pattern.trim().is_empty() {
                listed(pattern.trim().to_string());
            }
        };
        let mut implicit = false;
        for entry in policy.allow.iter().flatten() {
            if profile && !matches!(&entry.source, Source::Builtin { .. }) {
                continue;
            }
            if entry.is_implicit_star() {
                implicit = true;
                continue;
            }
            as_listed(&entry.pattern, &mut |pattern| {
                if !profile {
                    lists.override_allow.push(pattern.clone());
                }
                lists.allow.push(Some(pattern));
            });
        }
        if implicit {
            lists.allow.push(None);
        }
        for pattern in policy.deny_patterns() {
            as_listed(pattern, &mut |pattern| lists.deny.push(pattern));
        }
    }
    if pack.owner_only.filters_sessions() && is_non_owner(pack, ctx) {
        lists.deny.extend(pack.owner_only.tools.iter().cloned());
    }
    lists.plugin_allow = NameSet::plain(lists.allow.iter().flatten().map(|p| pack.normalized(p)));
    lists.includes_defaults = lists.allow.is_empty() || lists.allow.iter().any(Option::is_none);
    lists.plugin_deny = NameSet::plain(lists.deny.iter().map(|p| pack.normalized(p)));
    lists
}

/// The construction-time check (`allowed_by`) on lists read by [`NameSet::construction`]: static
/// groups and globs, but none of the pipeline's extras (no shipped renames, no plugin groups, no
/// apply_patch piggyback).
pub fn allowed(pack: &VersionPack, tool: &str, allow: Option<&NameSet>, deny: &NameSet) -> bool {
    let name = pack.normalized(tool);
    if deny.matches(&name) {
        return false;
    }
    match allow {
        Some(allow) if !allow.is_blank() => allow.matches(&name),
        _ => true,
    }
}

/// Whether every given step's policy (with the pipeline's renames) keeps `tool`.
pub fn passes_steps<'a>(pack: &VersionPack, mut steps: impl Iterator<Item = &'a Step>, tool: &str) -> bool {
    steps.all(|step| CompiledPolicy::compile(pack, &step.policy, &PluginGroups::default()).evaluate(tool).keeps())
}
