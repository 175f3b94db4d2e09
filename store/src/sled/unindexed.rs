//! Durable groups whose index entries are not in the tree yet.
//!
//! Applying a group's entries to sled as it is acknowledged cost about as much as everything else the
//! daemon does for an append (measured: taking it off the path doubled pipelined throughput).
//! So the sync thread only adds a durable group's records, frame and heads here, in memory,
//! and writes what gathered to the tree as one batch now and then ([`FLUSH_EVENTS`],
//! [`FLUSH_AFTER`]) — a run per stream, an id entry per bucket and a head per stream, however
//! many groups it spans. Readers look here as well as in the tree, so an acknowledged event is
//! readable at once. A crash loses only this memory: the records are in the file, and opening
//! indexes every frame after `m/indexed_end` again ([`super::recover`]).
//!
//! Readers look here *before* they look in the tree, and a flush clears this only after the
//! tree holds the batch, so a lookup racing a flush sees an entry at least once.

use super::index::{Entries, IndexBuilder};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Write to the tree once this many events gathered…
pub const FLUSH_EVENTS: usize = 16_384;
/// …or once the oldest of them waited this long.
pub const FLUSH_AFTER: Duration = Duration::from_millis(1000);

/// What gathered since the last flush.
#[derive(Default)]
pub struct Gathered {
    pub index: IndexBuilder,
    /// The position after the newest record, and where its frame ends in the records file.
    pub next_position: u64,
    pub end: u64,
    since: Option<Instant>,
}

impl Gathered {
    /// Whether it is time to write it to the tree.
    pub fn due(&self) -> bool {
        self.index.len() >= FLUSH_EVENTS || self.since.is_some_and(|since| since.elapsed() >= FLUSH_AFTER)
    }

    /// Its tree entries, `m/next_position` and `m/indexed_end` last.
    pub fn entries(&self) -> Entries {
        self.index.entries(self.next_position, self.end)
    }
}

/// The entries of durable groups, shared by the sync thread (the only writer) and readers.
#[derive(Default)]
pub struct Unindexed(Mutex<Gathered>);

impl Unindexed {
    /// Every critical section is a few map operations: a panic cannot leave it half done.
    pub fn lock(&self) -> MutexGuard<'_, Gathered> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Adds a durable group, through `add`, ending at `next_position` and file offset `end`.
    pub fn add(&self, next_position: u64, end: u64, add: impl FnOnce(&mut IndexBuilder)) {
        let mut gathered = self.lock();
        add(&mut gathered.index);
        gathered.next_position = gathered.next_position.max(next_position);
        gathered.end = gathered.end.max(end);
        gathered.since.get_or_insert_with(Instant::now);
    }

    /// Forgets what gathered, once the tree holds it (only the sync thread adds, so nothing
    /// was added meanwhile).
    pub fn clear(&self) {
        *self.lock() = Gathered::default();
    }
}
