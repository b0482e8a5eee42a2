//! What every session of one config shares, worked out once per config instead of once per
//! session: the policy each config block stands for, each profile step and each sandbox
//! policy, the compiled policies, and the MCP servers. `matrix`, `lint` and `diff` resolve
//! thousands of sessions of one config, and most of them read the same few blocks.
//!
//! The memo is a set of tables, one per key type: each module that shares something names its
//! own key type (a block's address, a profile step's sources), so the memo knows none of them.
//! A block is known by its address in the config: the config is borrowed for as long as the
//! memo lives ([`super::Roster`] holds both), so an address names one block and always the same
//! key path.

use ahash::AHashMap;
use std::any::{Any, TypeId};
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::base::parallel::lock;

/// The address that names a block of the config (0 for no block).
pub fn address(block: Option<&Value>) -> usize {
    block.map_or(0, |value| std::ptr::from_ref(value) as usize)
}

/// Tables by the type of their key and value.
type Tables = AHashMap<TypeId, Arc<dyn Any + Send + Sync>>;

#[derive(Default)]
pub struct Memo {
    tables: Mutex<Tables>,
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo").finish_non_exhaustive()
    }
}

impl Memo {
    /// The value kept for `key`, computed on first use. Computed outside any lock: two threads
    /// may both compute it, and the first one stays.
    pub fn get_or<K, V>(&self, key: K, compute: impl FnOnce() -> V) -> V
    where
        K: Eq + Hash + Send + 'static,
        V: Clone + Send + 'static,
    {
        let table = self.table::<K, V>();
        if let Some(found) = lock(&table).get(&key).cloned() {
            return found;
        }
        let value = compute();
        lock(&table).entry(key).or_insert(value).clone()
    }

    /// Reads and changes the table of `K` → `V` under its lock, for callers that keep more than
    /// one value per key.
    pub fn with<K, V, R>(&self, change: impl FnOnce(&mut AHashMap<K, V>) -> R) -> R
    where
        K: Eq + Hash + Send + 'static,
        V: Send + 'static,
    {
        change(&mut lock(&self.table::<K, V>()))
    }

    fn table<K, V>(&self) -> Arc<Mutex<AHashMap<K, V>>>
    where
        K: Eq + Hash + Send + 'static,
        V: Send + 'static,
    {
        let table = lock(&self.tables)
            .entry(TypeId::of::<(K, V)>())
            .or_insert_with(|| Arc::new(Mutex::new(AHashMap::<K, V>::new())))
            .clone();
        table.downcast().unwrap_or_else(|_| unreachable!("a table is stored under its own key and value types"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(PartialEq, Eq, Hash)]
    struct Doubled(u32);
    #[derive(PartialEq, Eq, Hash)]
    struct Tripled(u32);

    #[test]
    fn each_key_type_has_its_own_table_and_a_value_is_computed_once() {
        let memo = Memo::default();
        let mut computed = 0;
        for _ in 0..3 {
            assert_eq!(
                memo.get_or(Doubled(2), || {
                    computed += 1;
                    4
                }),
                4
            );
        }
        assert_eq!(computed, 1);
        // Same number, another key type: another table.
        assert_eq!(memo.get_or(Tripled(2), || 6), 6);
        assert_eq!(memo.with(|table: &mut AHashMap<Doubled, i32>| table.len()), 1);
    }
}
