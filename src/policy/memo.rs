//! What every session of one config shares, worked out once per config instead of once per
//! session: the policy each config block stands for, each profile step and each sandbox
//! policy, and the MCP servers. `matrix`, `lint` and `diff` resolve thousands of sessions of one
//! config, and most of them read the same few blocks.
//!
//! A block is known by its address in the config: the config is borrowed for as long as the
//! memo lives ([`super::Roster`] holds both), so an address names one block and always the same
//! key path.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use super::construction::{ExplicitKey, ExplicitLists};
use super::matcher::{CompiledPolicy, PluginGroups};
use super::mcp::McpServers;
use super::rules::Policy;
use super::sandbox::SandboxPolicy;
use super::session::SubagentRole;

/// A profile step as built for one (profile, alsoAllow, extras) combination.
#[derive(Debug)]
pub struct ProfileStep {
    /// The profile's id (`coding`).
    pub profile: String,
    pub label: String,
    pub policy: Arc<Policy>,
    pub suppress: Arc<[String]>,
}

/// Which profile step: the blocks its profile and its alsoAllow come from (addresses, 0 for
/// none), and the tools the run adds to every profile (`message` when its `toolsAllow` names
/// it, the response tool of a heartbeat).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProfileKey {
    pub provider_step: bool,
    pub profile: usize,
    pub also_allow: usize,
    pub extras: Vec<String>,
}

/// Steps whose policy depends on the config as a whole, not on a block of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FixedStep {
    OwnerOnly,
    Subagent(SubagentRole),
}

/// Policies a memo key names by address, held so that the addresses stay theirs.
type HeldPolicies = Arc<[Arc<Policy>]>;

/// A compiled policy with the policy it compiles (held) and the plugin tools it was compiled with.
type CompiledEntry = (Arc<Policy>, PluginGroups, Arc<CompiledPolicy>);

#[derive(Default)]
pub struct Memo {
    blocks: Table<usize, Option<Arc<Policy>>>,
    profiles: Table<ProfileKey, Option<Arc<ProfileStep>>>,
    sandboxes: Table<usize, Arc<SandboxPolicy>>,
    fixed: Table<FixedStep, Arc<Policy>>,
    /// Compiled step policies by the address of their policy, each entry holding its policy (so
    /// the address cannot be reused while it is known) and the plugin tools it was compiled with.
    compiled: Table<usize, Vec<CompiledEntry>>,
    /// The explicit lists of sessions with the same long step policies, each with those
    /// policies held.
    explicit: Table<ExplicitKey, (HeldPolicies, Arc<ExplicitLists>)>,
    /// Why the config switches each of the release's bundled plugins off, in the release's order.
    plugins_switched_off: OnceLock<Arc<[Option<String>]>>,
    /// The config's MCP servers, their namespaces and tool filters.
    mcp_servers: OnceLock<Arc<McpServers>>,
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo").finish_non_exhaustive()
    }
}

/// The address that names a block of the config (0 for no block).
pub fn address(block: Option<&Value>) -> usize {
    block.map_or(0, |value| std::ptr::from_ref(value) as usize)
}

impl Memo {
    /// The policy of a `tools`-shaped block (global, agent, provider, group or sender).
    pub fn block(&self, block: Option<&Value>, compute: impl FnOnce() -> Option<Policy>) -> Option<Arc<Policy>> {
        self.blocks.get_or(address(block), || compute().map(Arc::new))
    }

    pub fn profile(&self, key: ProfileKey, compute: impl FnOnce() -> Option<ProfileStep>) -> Option<Arc<ProfileStep>> {
        self.profiles.get_or(key, || compute().map(Arc::new))
    }

    pub fn plugins_switched_off(&self, compute: impl FnOnce() -> Vec<Option<String>>) -> Arc<[Option<String>]> {
        self.plugins_switched_off.get_or_init(|| compute().into()).clone()
    }

    pub fn mcp_servers(&self, compute: impl FnOnce() -> McpServers) -> Arc<McpServers> {
        self.mcp_servers.get_or_init(|| Arc::new(compute())).clone()
    }

    /// `policy` compiled for a run with `plugins` (most sessions of a config compile the same
    /// few policies with the same plugin tools).
    pub fn compiled(
        &self,
        policy: &Arc<Policy>,
        plugins: &PluginGroups,
        compile: impl FnOnce() -> CompiledPolicy,
    ) -> Arc<CompiledPolicy> {
        // A policy only this session holds (a spawn's inheritance, a run's toolsAllow, an
        // allowlist stripped for this run) comes back in no other session: not kept.
        if Arc::strong_count(policy) == 1 {
            return Arc::new(compile());
        }
        let key = Arc::as_ptr(policy) as usize;
        let find = |known: &[CompiledEntry]| {
            known.iter().find(|(_, with, _)| with == plugins).map(|(_, _, compiled)| compiled.clone())
        };
        if let Some(found) = self.compiled.with(|table| table.get(&key).and_then(|known| find(known))) {
            return found;
        }
        let compiled = Arc::new(compile());
        self.compiled.with(|table| {
            let known = table.entry(key).or_default();
            find(known).unwrap_or_else(|| {
                known.push((policy.clone(), plugins.clone(), compiled.clone()));
                compiled
            })
        })
    }

    /// The explicit lists of a session (see [`ExplicitKey`]). Kept only when the policies hold
    /// many patterns (a list of thousands of names is compiled into several name sets); short
    /// lists, the usual case, are faster to compile than to keep for every session shape.
    pub fn explicit(
        &self,
        (key, held, patterns): (ExplicitKey, Vec<Arc<Policy>>, usize),
        compute: impl FnOnce() -> ExplicitLists,
    ) -> Arc<ExplicitLists> {
        const SHARED_FROM: usize = 1_000;
        if patterns < SHARED_FROM {
            return Arc::new(compute());
        }
        self.explicit.get_or(key, || (held.into(), Arc::new(compute()))).1
    }

    pub fn fixed(&self, step: FixedStep, compute: impl FnOnce() -> Policy) -> Arc<Policy> {
        self.fixed.get_or(step, || Arc::new(compute()))
    }

    /// The sandbox policy of the agent whose `tools` block is `agent_tools`.
    pub fn sandbox(&self, agent_tools: Option<&Value>, compute: impl FnOnce() -> SandboxPolicy) -> Arc<SandboxPolicy> {
        self.sandboxes.get_or(address(agent_tools), || Arc::new(compute()))
    }
}

/// A map filled on first use; sessions resolved on several threads share it.
#[derive(Debug)]
struct Table<K, V>(Mutex<HashMap<K, V>>);

impl<K, V> Default for Table<K, V> {
    fn default() -> Self {
        Table(Mutex::new(HashMap::new()))
    }
}

impl<K: Eq + Hash, V> Table<K, V> {
    fn with<R>(&self, read: impl FnOnce(&mut HashMap<K, V>) -> R) -> R {
        // A poisoned lock only means another thread panicked while holding it; the map is intact.
        read(&mut self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    fn get_or(&self, key: K, compute: impl FnOnce() -> V) -> V
    where
        V: Clone,
    {
        if let Some(found) = self.with(|table| table.get(&key).cloned()) {
            return found;
        }
        // Computed outside the lock: two threads may both compute it, and the first one stays.
        let value = compute();
        self.with(|table| table.entry(key).or_insert(value).clone())
    }
}
