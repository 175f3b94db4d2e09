//! Groups written to the records file but not yet synced, and so not yet in the tree.
//!
//! The tree indexes only durable records: a group's entries are applied after the `fdatasync`
//! that covers its frame, so whatever sled itself writes to disk, and whenever, never points
//! past the durable end of the records file. Until then the writer (and only the writer) finds
//! the group here: its heads, ids and records.
//!
//! The sync thread applies a group to the tree *before* removing it from here, and the writer
//! looks here *before* it looks in the tree, so a lookup racing a sync sees the group at least
//! once (a stream's records are merged by seq).

use super::index::Entries;
use super::layout;
use crate::error::StoreError;
use crate::storage::StoredHead;
use ledger::{Recorded, StreamId};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

/// One written group.
pub struct Group {
    pub records: Vec<Arc<Recorded>>,
    /// Its index entries (the new heads among them), applied once it is durable.
    pub entries: Entries,
    /// Where its frame ends in the records file.
    pub end: u64,
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

    /// The newest head of `stream` written here, read from the groups' index entries.
    ///
    /// # Errors
    /// An entry does not decode (it was encoded by this process, so it always does).
    pub fn head(&self, stream: &StreamId) -> Result<Option<StoredHead>, StoreError> {
        let key = layout::head(stream);
        let groups = self.snapshot();
        let Some(value) = groups.iter().rev().find_map(|g| g.entries.iter().rev().find(|(k, _)| *k == key)) else {
            return Ok(None);
        };
        layout::stored_head(&value.1).map(Some)
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
