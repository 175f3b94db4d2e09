//! Opening after a crash: index again the frames sled had not yet indexed, and cut off a frame
//! that was being written.
//!
//! The tree says how far the records file is indexed (`m/indexed_end`), in the same atomic
//! batch as the entries themselves, and entries are applied only after their frame is synced,
//! so the tree never points past what the file durably holds. Every whole frame after that
//! point, with the next position and a matching checksum, is indexed again: heads are taken
//! from the records, without a snapshot (the writer replays such a stream once, on its next
//! append). The first frame that is not whole ends the log: after a power cut, frames written
//! after it may have reached the disk while it did not, but none of them was acknowledged (an
//! acknowledgement waits for the sync that covers its frame and every frame before it). Unless
//! a later frame says the file was durable past it when it was written: then it is damage to
//! an acknowledged frame, never cut, and the log waits for `ledgerctl repair`. The
//! bytes from there on, if any are not zero, are kept beside the log in `torn-<offset>` before
//! the file is cut, so that nothing is destroyed, even what was never acknowledged. A copy
//! opened for verification is indexed the same way but never cut.

use super::frames::FrameReader;
use super::index::{FrameKeys, IndexBuilder};
use super::{layout, Mode, SledStorage};
use crate::error::StoreError;
use crate::storage::Storage;
use ledger::envelope::decode_record;
use ledger::{Hash, StreamId};
use std::collections::BTreeMap;
use std::os::unix::fs::FileExt;

/// Frames indexed per batch.
const BATCH_FRAMES: usize = 4096;

pub(super) fn unindexed(storage: &SledStorage, mode: Mode) -> Result<(), StoreError> {
    let tree = &storage.tree;
    let indexed_end = tree.get(layout::INDEXED_END)?.map_or(Ok(0), |v| layout::decode_u64(&v))?;
    let mut next_position = storage.next_position()?;
    let file_len = storage.records.metadata()?.len();
    let mut keys = FrameKeys { last: last_keyed_frame(storage)? };
    if file_len < indexed_end {
        let message =
            format!("the records file holds {file_len} bytes but its index covers {indexed_end}: records were removed");
        if mode == Mode::Serve {
            return Err(StoreError::Corrupt(message));
        }
        tracing::error!("{message}");
        storage.tail().end = file_len;
        storage.tail().keys = keys;
        return Ok(());
    }
    if file_len > indexed_end {
        // What follows the indexed part may be only in the page cache (a process that was
        // killed, not a machine that stopped): made durable before anything indexes it.
        storage.records.sync_data()?;
    }
    let mut reader = FrameReader::new(&storage.records, file_len);
    let mut at = indexed_end;
    let mut n_frames = 0usize;
    let mut index = IndexBuilder::default();
    let mut heads: BTreeMap<StreamId, (u64, Hash)> = BTreeMap::new();
    loop {
        let found = match reader.frame_unchecked(at) {
            Ok(Some(found)) if found.header.first_position == next_position => found,
            Ok(None) => break,
            Ok(Some(_)) | Err(StoreError::Corrupt(_)) => {
                stop_unless_torn(&mut reader, at, mode)?;
                break;
            }
            Err(other) => return Err(other),
        };
        if reader.check(&found).is_err() {
            stop_unless_torn(&mut reader, at, mode)?;
            break;
        }
        let mut decoded = Vec::with_capacity(found.header.count as usize);
        for bytes in layout::records_of(reader.body(&found)) {
            decoded.push(decode_record(bytes?).map_err(StoreError::Corrupt)?);
        }
        if decoded.len() != found.header.count as usize {
            break;
        }
        if keys.takes(at) {
            index.frame(found.header.first_position, at);
        }
        for record in &decoded {
            let e = &record.envelope;
            index.record(&e.stream, e.seq, e.position, &e.event_id);
            heads.insert(e.stream.clone(), (e.seq, e.hash));
        }
        next_position = found.header.next_position();
        at = found.next_offset();
        n_frames += 1;
        if n_frames.is_multiple_of(BATCH_FRAMES) {
            apply(storage, std::mem::take(&mut index), std::mem::take(&mut heads), next_position, at)?;
        }
    }
    if n_frames > 0 {
        apply(storage, index, heads, next_position, at)?;
        tracing::info!(n_frames, from = indexed_end, to = at, "indexed the records a stop left unindexed");
    }
    if file_len > at && mode == Mode::Serve {
        cut(storage, at, file_len)?;
    }
    if n_frames > 0 || file_len > at {
        storage.checkpoint_index()?;
    }
    let mut tail = storage.tail();
    tail.end = at;
    tail.keys = keys;
    Ok(())
}

/// A frame that does not check where the index ends is either torn (a stop came while it was
/// being written: cut it off) or damaged after it was acknowledged. A later frame tells which:
/// each says how far the file was durable when it was written. Damage there cannot be indexed
/// (a damaged record's stream is unknown), so the log does not open to serve until it is
/// repaired: new events would otherwise take the positions of acknowledged ones.
fn stop_unless_torn(reader: &mut FrameReader<'_>, at: u64, mode: Mode) -> Result<(), StoreError> {
    let mut later = reader.next_header_after(at)?;
    while let Some(found) = later {
        if found.header.durable_before > at {
            let message = format!(
                "the records file is damaged at byte {at}, after the part its index covers, and the frames \
                 after it were acknowledged (it is not a write a stop tore): `ledgerctl repair` takes the damaged \
                 records back from a copy"
            );
            if mode == Mode::Serve {
                return Err(StoreError::Corrupt(message));
            }
            tracing::error!("{message}");
            return Ok(());
        }
        later = match reader.frame_unchecked(found.next_offset()) {
            Ok(next) => next,
            Err(StoreError::Corrupt(_)) => reader.next_header_after(found.next_offset())?,
            Err(other) => return Err(other),
        };
    }
    Ok(())
}

/// Applies the entries of recovered frames, with heads (without snapshots) for their streams.
fn apply(
    storage: &SledStorage,
    mut index: IndexBuilder,
    heads: BTreeMap<StreamId, (u64, Hash)>,
    next_position: u64,
    end: u64,
) -> Result<(), StoreError> {
    for (stream, (version, hash)) in heads {
        index.head(&stream, layout::encode_head(version, &hash, None));
    }
    let mut batch = sled::Batch::default();
    for (key, value) in index.entries(next_position, end) {
        batch.insert(key, value);
    }
    storage.tree.apply_batch(batch)?;
    Ok(())
}

/// Keeps the bytes after the last whole frame beside the log, then cuts the file there.
fn cut(storage: &SledStorage, at: u64, file_len: u64) -> Result<(), StoreError> {
    let mut torn = vec![0; usize::try_from(file_len - at).map_err(|_| StoreError::Io("torn tail too large".into()))?];
    storage.records.read_exact_at(&mut torn, at)?;
    if torn.iter().any(|&b| b != 0) {
        // A name of its own: the same offset may be cut again after a later stop.
        let (kept, mut file) = (0u32..)
            .map(|n| storage.path.join(if n == 0 { format!("torn-{at}") } else { format!("torn-{at}.{n}") }))
            .find_map(|kept| std::fs::File::create_new(&kept).ok().map(|file| (kept, file)))
            .ok_or_else(|| StoreError::Io("no name left for a torn tail".into()))?;
        std::io::Write::write_all(&mut file, &torn)?;
        file.sync_all()?;
        std::fs::File::open(&storage.path)?.sync_all()?;
        tracing::warn!(bytes = torn.len(), at, kept = %kept.display(), "cut off frames that were being written at a stop");
    }
    storage.records.set_len(at)?;
    storage.records.sync_all()?;
    std::fs::File::open(&storage.path)?.sync_all()?;
    Ok(())
}

/// The offset of the last frame with a key of its own.
fn last_keyed_frame(storage: &SledStorage) -> Result<Option<u64>, StoreError> {
    match storage.tree.scan_prefix(layout::FRAME_PREFIX).next_back() {
        Some(found) => Ok(Some(layout::decode_u64(&found?.1)?)),
        None => Ok(None),
    }
}
