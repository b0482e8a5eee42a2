//! Spreading independent work over the machine's cores, answers kept in order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Locks `mutex`. A poisoned lock only means another thread panicked while holding it; what it
/// guards is whole, since nothing here leaves a value half-changed.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `items.iter().map(f)`, spread over the machine's cores: resolving hundreds of sessions is
/// CPU-bound and every answer is independent. Sessions differ in cost (a sandboxed or spawned
/// one resolves more), so each thread takes the next small block when it is done with its last,
/// rather than a fixed share.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    const MIN_PER_THREAD: usize = 16;
    const BLOCK: usize = 8;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len() / MIN_PER_THREAD);
    if threads < 2 {
        return items.iter().map(f).collect();
    }
    let next_block = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let start = next_block.fetch_add(BLOCK, Ordering::Relaxed);
            if start >= items.len() {
                return done;
            }
            let block = &items[start..(start + BLOCK).min(items.len())];
            done.push((start, block.iter().map(&f).collect::<Vec<R>>()));
        }
    };
    let mut blocks: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        workers.into_iter().flat_map(|w| w.join().expect("a worker thread panicked")).collect()
    });
    blocks.sort_unstable_by_key(|(start, _)| *start);
    blocks.into_iter().flat_map(|(_, answers)| answers).collect()
}

/// `items.iter_mut().for_each(f)`, spread over the machine's cores in equal shares (for work of
/// about the same cost per item).
pub fn par_for_each_mut<T: Send>(items: &mut [T], f: impl Fn(&mut T) + Sync) {
    const MIN_PER_THREAD: usize = 16;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len() / MIN_PER_THREAD);
    if threads < 2 {
        return items.iter_mut().for_each(f);
    }
    let share = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        for part in items.chunks_mut(share) {
            scope.spawn(|| part.iter_mut().for_each(&f));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn par_map_keeps_order() {
        let items: Vec<usize> = (0..1003).collect();
        assert_eq!(par_map(&items, |i| i * 2), items.iter().map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(par_map(&[1, 2], |i| i + 1), [2, 3]);
    }

    #[test]
    fn par_for_each_mut_reaches_every_item_once() {
        let mut items: Vec<usize> = (0..1003).collect();
        par_for_each_mut(&mut items, |i| *i *= 3);
        assert_eq!(items, (0..1003).map(|i| i * 3).collect::<Vec<_>>());
        let mut few = [1, 2];
        par_for_each_mut(&mut few, |i| *i += 1);
        assert_eq!(few, [2, 3]);
    }
}
