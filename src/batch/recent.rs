//! What the last few cases of a batch loaded or resolved, for the cases after them: a batch asks
//! many questions of a few configs and sessions, and memory stays flat in the number of cases.

/// The values of the last [`Recent::KEPT`] keys used, most recent first.
pub struct Recent<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for Recent<K, V> {
    fn default() -> Self {
        Recent { entries: Vec::new() }
    }
}

impl<K: PartialEq, V: Clone> Recent<K, V> {
    pub const KEPT: usize = 8;

    /// The value kept for `key`, which becomes the most recent.
    pub fn get(&mut self, key: &K) -> Option<V> {
        let at = self.entries.iter().position(|(kept, _)| kept == key)?;
        let entry = self.entries.remove(at);
        let value = entry.1.clone();
        self.entries.insert(0, entry);
        Some(value)
    }

    /// Keeps `value` for `key` as the most recent, forgetting the least recent beyond
    /// [`Recent::KEPT`].
    pub fn insert(&mut self, key: K, value: V) {
        self.entries.retain(|(kept, _)| *kept != key);
        self.entries.truncate(Self::KEPT - 1);
        self.entries.insert(0, (key, value));
    }

    #[cfg(test)]
    pub fn contains(&self, key: &K) -> bool {
        self.entries.iter().any(|(kept, _)| kept == key)
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::Recent;

    #[test]
    fn keeps_the_most_recently_used_keys() {
        let mut recent = Recent::default();
        for key in 0..Recent::<u32, u32>::KEPT as u32 {
            recent.insert(key, key * 10);
        }
        // Using 0 makes it the most recent: 1 is the one forgotten next.
        assert_eq!(recent.get(&0), Some(0));
        recent.insert(100, 1000);
        assert_eq!(recent.len(), Recent::<u32, u32>::KEPT);
        assert!(recent.contains(&0) && recent.contains(&100) && !recent.contains(&1));
        // A key inserted again is kept once, with its new value.
        recent.insert(100, 1001);
        assert_eq!((recent.len(), recent.get(&100)), (Recent::<u32, u32>::KEPT, Some(1001)));
    }
}
