//! Writing the log: a group written as one frame appended to the records file (not yet
//! durable: it waits in [`super::pending`], where only the writer sees it), a sync that makes
//! every written frame durable with one `fdatasync` and hands the groups' index entries to
//! [`super::unindexed`], where readers find them at once, and those gathered entries written to
//! the tree as one batch (about once a second, and at a checkpoint with sled's own file synced).

use super::pending::Group;
use super::{frames, layout, SledStorage};
use crate::error::StoreError;
use crate::storage::{Commit, Written};
use std::os::unix::fs::FileExt;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// [`crate::Storage::write`]: appends the group's frame to the records file after the last one
/// written; it waits in `pending` until a sync makes it durable.
pub(super) fn write(storage: &SledStorage, commit: &Commit) -> Result<Written, StoreError> {
    let (Some(first), Some(last)) = (commit.records.first(), commit.last_position()) else {
        return Ok(Written::default());
    };
    let first = first.record.envelope.position;
    let mut tail = storage.tail();
    // What is durable now: a frame damaged before this point was acknowledged, not torn.
    let durable_before = storage.durable_end.load(Ordering::Acquire);
    let frame = frames::encode(first, durable_before, commit.records.iter().map(|s| s.bytes.as_slice()));
    let offset = tail.end;
    storage.records.write_all_at(&frame, offset)?;
    let end = offset + frame.len() as u64;
    let frame_key = tail.keys.takes(offset).then_some((first, offset));
    let heads = commit
        .heads
        .iter()
        .map(|u| (u.stream.clone(), layout::encode_head(u.head.version, &u.head.hash, u.head.snapshot.as_deref())))
        .collect();
    tail.end = end;
    storage.pending.push(Group {
        records: commit.records.iter().map(|s| Arc::clone(&s.record)).collect(),
        heads,
        frame_key,
        end,
        next_position: last + 1,
    });
    Ok(Written::default())
}

/// [`crate::Storage::sync`]: makes every frame written so far durable with one `fdatasync`,
/// then readable up to `position`, the groups' index entries gathered for the tree.
pub(super) fn sync(storage: &SledStorage, position: u64) -> Result<(), StoreError> {
    // Every group written before the `fdatasync` starts is covered by it.
    let covered = storage.pending.len();
    storage.records.sync_data()?;
    let groups = storage.pending.first(covered);
    if let Some(newest) = groups.last() {
        // Readable first: the index must never lead anyone past the readable end.
        storage.durable_end.fetch_max(newest.end, Ordering::AcqRel);
        storage.unindexed.add(newest.next_position, newest.end, |index| {
            for group in &groups {
                if let Some((first_position, offset)) = group.frame_key {
                    index.frame(first_position, offset);
                }
                for record in &group.records {
                    let e = &record.envelope;
                    index.record(&e.stream, e.seq, e.position, &e.event_id);
                }
                for (stream, head) in &group.heads {
                    index.head(stream, head.clone());
                }
            }
        });
        storage.pending.drop_first(covered);
    }
    storage.durable.fetch_max(position, Ordering::AcqRel);
    Ok(())
}

impl SledStorage {
    /// Writes the gathered entries to the tree as one batch, then forgets them.
    pub(super) fn flush_unindexed(&self) -> Result<(), StoreError> {
        let entries = {
            let gathered = self.unindexed.lock();
            if gathered.index.len() == 0 {
                return Ok(());
            }
            gathered.entries()
        };
        let mut batch = sled::Batch::default();
        for (key, value) in entries {
            batch.insert(key, value);
        }
        self.tree.apply_batch(batch)?;
        self.unindexed.clear();
        Ok(())
    }

    /// Writes the gathered entries and what sled holds to its file and syncs it, so that
    /// recovery has less to index.
    pub(super) fn checkpoint_index(&self) -> Result<(), StoreError> {
        self.flush_unindexed()?;
        self.db.flush()?;
        self.log_file.sync_data()?;
        Ok(())
    }
}
