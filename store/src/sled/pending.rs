//! Groups written to the records file but not yet synced, and so not yet indexed.
//!
//! Only durable records are indexed: a group goes to [`super::unindexed`] (and later to the
//! tree) after the `fdatasync` that covers its frame, so whatever sled itself writes to disk,
//! and whenever, never points past the durable end of the records file. Until then the writer
//! (and only the writer) finds the group here: its heads, ids and records.
//!
//! The sync thread adds a group to the unindexed entries *before* removing it from here, and
//! the writer looks here *before* it looks there, so a lookup racing a sync sees the group at
//! least once (a stream's records are merged by seq).

use super::layout;
use crate::error::StoreError;
use crate::storage::StoredHead;
use ledger::{Recorded, StreamId};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

/// One written group.
pub struct Group {
    pub records: Vec<Arc<Recorded>>,
    /// The new heads of its streams, encoded as the tree holds them.
    pub heads: Vec<(StreamId, Vec<u8>)>,
    /// Its frame's first position and offset, when the frame gets a key of its own.
    pub frame_key: Option<(u64, u64)>,
    /// Where its frame ends in the records file, and the position after its last record.
    pub end: u64,
    pub next_position: u64,
}

/// The written groups in write order.
#[derive(Default)]
pub struct Pending(Mutex<VecDeque<Arc<Group>>>);

impl Pending {
    fn groups(&self) -> MutexGuard<'_, VecDeque<Arc<Group>>> {
        // Every critical section only pushes, clones or pops: a panic cannot leave it half done.
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn push(&self, group: Group) {
        self.groups().push_back(Arc::new(group));
    }

    /// How many groups are waiting.
    pub fn len(&self) -> usize {
        self.groups().len()
    }

    /// The first `n` groups (those a sync that started now covers).
    pub fn first(&self, n: usize) -> Vec<Arc<Group>> {
        self.groups().iter().take(n).cloned().collect()
    }

    /// Forgets the first `n` groups, once the tree holds them.
    pub fn drop_first(&self, n: usize) {
        self.groups().drain(..n);
    }

    /// Forgets every group (a log being rewritten from scratch, before anything is written).
    pub fn clear(&self) {
        self.groups().clear();
    }

    fn snapshot(&self) -> Vec<Arc<Group>> {
        self.groups().iter().cloned().collect()
    }

    /// The newest head of `stream` written here.
    ///
    /// # Errors
    /// A head does not decode (it was encoded by this process, so it always does).
    pub fn head(&self, stream: &StreamId) -> Result<Option<StoredHead>, StoreError> {
        let groups = self.snapshot();
        let Some((_, value)) = groups.iter().rev().find_map(|g| g.heads.iter().rev().find(|(s, _)| s == stream)) else {
            return Ok(None);
        };
        layout::stored_head(value).map(Some)
    }

    /// The record stored here under `event_id`.
    pub fn by_id(&self, event_id: &str) -> Option<Recorded> {
        self.snapshot()
            .iter()
            .rev()
            .find_map(|g| g.records.iter().find(|r| r.envelope.event_id == event_id))
            .map(|r| (**r).clone())
    }

    /// The records of `stream` written here, in seq order.
    pub fn records_of(&self, stream: &StreamId) -> Vec<Recorded> {
        self.snapshot()
            .iter()
            .flat_map(|g| {
                g.records.iter().filter(|r| r.envelope.stream == *stream).map(|r| (**r).clone()).collect::<Vec<_>>()
            })
            .collect()
    }
}
