//! Moves a log of an earlier layout to the current one, once, when such a log is opened:
//! - the first layout (`ledger/v1`: a key per record, per position, per id and per head);
//! - the second (records in chunks inside the tree, `c` keys): the chunks move into the records
//!   file as frames;
//! - the first index of event ids (a key per id).
//!
//! Records are copied byte for byte (their hashes do not change). Each move either completes
//! or, interrupted, starts again from the old data, which is removed only in the same atomic
//! batch that completes the move (or, for the first layout, after it).

use super::SledStorage;
use crate::error::StoreError;
use crate::storage::{Commit, HeadUpdate, Sealed, Storage, StoredHead};
use ledger::envelope::decode_record;
use ledger::{Hash, StreamId};
use std::collections::BTreeMap;
use std::sync::Arc;

const OLD_TREE: &str = "ledger/v1";

/// Records copied per batch.
const BATCH: usize = 4096;

pub(super) fn from_v1(storage: &SledStorage) -> Result<(), StoreError> {
    if !storage.db.tree_names().iter().any(|name| name == OLD_TREE.as_bytes()) {
        return Ok(());
    }
    let old = storage.db.open_tree(OLD_TREE)?;
    if !old.is_empty() {
        tracing::info!(path = %storage.path.display(), "moving the log to the current layout");
        // Heads carry no snapshot, so each stream is replayed once, on its first append.
        storage.tree.clear()?;
        storage.records.set_len(0)?;
        storage.pending.clear();
        *storage.tail() = super::Tail::default();
        let mut heads: BTreeMap<StreamId, (u64, Hash)> = BTreeMap::new();
        let mut commit = Commit::default();
        let mut n_records = 0u64;
        for item in old.scan_prefix(b"p") {
            let (_, event_key) = item?;
            let bytes = old
                .get(&event_key)?
                .ok_or_else(|| StoreError::Corrupt("a position of the old layout points at a missing event".into()))?;
            let record = decode_record(&bytes).map_err(StoreError::Corrupt)?;
            let e = &record.envelope;
            heads.insert(e.stream.clone(), (e.seq, e.hash));
            // A full batch is written only once another record follows, so that the heads
            // always go with a commit that has records.
            if commit.records.len() == BATCH {
                storage.write(&std::mem::take(&mut commit))?;
                storage.sync(0)?;
                storage.flush_unindexed()?;
            }
            commit.records.push(Sealed { record: Arc::new(record), bytes: bytes.to_vec() });
            n_records += 1;
        }
        commit.heads = heads
            .into_iter()
            .map(|(stream, (version, hash))| HeadUpdate { stream, head: StoredHead { version, hash, snapshot: None } })
            .collect();
        storage.write(&commit)?;
        storage.sync(0)?;
        storage.checkpoint_index()?;
        tracing::info!(n_records, "log moved to the current layout");
    }
    drop(old);
    storage.db.drop_tree(OLD_TREE)?;
    storage.checkpoint_index()?;
    Ok(())
}

/// Moves the chunks of the second layout into the records file, each as one frame, in one
/// atomic batch that adds the frame keys and removes the chunks. An interrupted move left the
/// chunks in place: the file is emptied and the move starts again.
pub(super) fn from_v2(storage: &SledStorage) -> Result<(), StoreError> {
    use super::{frames, index::FrameKeys, layout};
    use std::os::unix::fs::FileExt;
    if storage.tree.scan_prefix(layout::CHUNK_PREFIX).next().is_none() {
        return Ok(());
    }
    if storage.tree.contains_key(layout::INDEXED_END)? {
        // The move completed (it removes every chunk in the batch that sets `m/indexed_end`):
        // chunks written since can only come from an older ledgerd run on this log.
        return Err(StoreError::Corrupt(format!(
            "{} holds records in both layouts: an older ledgerd wrote to it after it moved to the \
             records file; a log cannot go back to an older ledgerd",
            storage.path.display()
        )));
    }
    tracing::info!(path = %storage.path.display(), "moving the records out of sled into the records file");
    storage.records.set_len(0)?;
    let mut batch = sled::Batch::default();
    let mut keys = FrameKeys::default();
    let mut offset = 0u64;
    let mut n_chunks = 0u64;
    for item in storage.tree.scan_prefix(layout::CHUNK_PREFIX) {
        let (key, chunk) = item?;
        let first = layout::position_of_chunk_key(&key)?;
        let frame = frames::around(first, &chunk)?;
        storage.records.write_all_at(&frame, offset)?;
        if keys.takes(offset) {
            batch.insert(layout::frame(first), &offset.to_be_bytes());
        }
        batch.remove(key);
        offset += frame.len() as u64;
        n_chunks += 1;
    }
    storage.records.sync_all()?;
    batch.insert(layout::INDEXED_END, &offset.to_be_bytes());
    storage.tree.apply_batch(batch)?;
    storage.checkpoint_index()?;
    tracing::info!(n_chunks, bytes = offset, "records moved into the records file");
    Ok(())
}

/// Moves the id index of the first chunked logs (`i<event id>` → position, a key per event) to
/// the bucketed entries of [`super::layout::ID_PREFIX`], in batches, each removing the old keys
/// it moved, so an interrupted move goes on where it stopped.
pub(super) fn id_keys(storage: &SledStorage) -> Result<(), StoreError> {
    use super::layout;
    let mut moved = 0u64;
    loop {
        let mut batch = sled::Batch::default();
        let mut buckets: BTreeMap<u8, Vec<u8>> = BTreeMap::new();
        let mut first_key: Option<u64> = None;
        let mut n = 0;
        for item in storage.tree.scan_prefix(layout::OLD_ID_PREFIX).take(BATCH) {
            let (key, position) = item?;
            let id = std::str::from_utf8(&key[layout::OLD_ID_PREFIX.len()..])
                .map_err(|_| StoreError::Corrupt("an event id of the old index is not UTF-8".into()))?;
            let (hash, position) = (crate::storage::id_hash(id), layout::decode_u64(&position)?);
            layout::push_id_entry(buckets.entry(layout::id_bucket(hash)).or_default(), hash, position);
            first_key = Some(first_key.map_or(position, |p| p.min(position)));
            batch.remove(key);
            n += 1;
        }
        let Some(first_position) = first_key else { break };
        for (bucket, entries) in buckets {
            // Keyed by the batch's lowest position; a lookup scans the whole bucket anyway.
            let key = layout::id_entries(bucket, first_position);
            let mut value = storage.tree.get(&key)?.map(|v| v.to_vec()).unwrap_or_default();
            value.extend_from_slice(&entries);
            batch.insert(key, value);
        }
        storage.tree.apply_batch(batch)?;
        moved += n;
    }
    if moved > 0 {
        storage.checkpoint_index()?;
        tracing::info!(moved, "event ids moved to the bucketed index");
    }
    Ok(())
}
