//! The embedded default backend: one sled tree, written only through atomic batches, made
//! durable by an explicit `fdatasync` of sled's log file after every group.
//!
//! Why the extra sync: on Linux, sled 0.34's `flush()` writes with `sync_file_range`, which
//! neither flushes the drive's cache nor the file's metadata; only `fsync`/`fdatasync` makes a
//! write survive a power cut. docs/DECISIONS.md shows the strace.

mod keys;
mod verify;

pub use verify::StreamVerdict;

use crate::error::StoreError;
use crate::storage::{Reader, Storage, StreamInfo};
use keys::Key;
use ledger::envelope::{decode_record, encode_record};
use ledger::{Recorded, StreamId, StreamKind};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// sled's segment size. Records stay below `MAX_EVENT_BYTES` (64 KiB) and a leaf holds at most
/// 17 of them, far below the blob threshold (segment / 4), so everything lives in the one log
/// file that [`SledStorage::commit`] syncs.
const SEGMENT_SIZE: usize = 8 * 1024 * 1024;

/// The sled log; clones share the same database.
#[derive(Clone)]
pub struct SledStorage {
    db: sled::Db,
    tree: sled::Tree,
    /// sled's log file, opened once for `fdatasync`.
    log_file: Arc<File>,
    /// The newest global position known durable. sled shows a batch to readers as soon as it
    /// is applied, before the sync: every read stops here, so nothing is seen before it is
    /// durable (and nothing a failed sync left behind is ever seen).
    durable: Arc<AtomicU64>,
    path: PathBuf,
}

impl SledStorage {
    /// Opens (or creates) the log in `dir`.
    ///
    /// # Errors
    /// The directory cannot be created or sled cannot open it.
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        std::fs::create_dir_all(dir)?;
        let db = sled::Config::new().path(dir).segment_size(SEGMENT_SIZE).open()?;
        let tree = db.open_tree("ledger/v1")?;
        let log_file = Arc::new(File::open(dir.join("db"))?);
        // New files must be findable after a crash: sync the directory once.
        File::open(dir)?.sync_all()?;
        let mut storage =
            SledStorage { db, tree, log_file, durable: Arc::new(AtomicU64::new(0)), path: dir.to_owned() };
        // What sled recovered at open is on disk.
        storage.durable = Arc::new(AtomicU64::new(storage.next_position()? - 1));
        Ok(storage)
    }

    /// Opens a log that must already exist, e.g. a copy the jury verifies.
    ///
    /// # Errors
    /// There is no sled log in `dir`, or sled cannot open it (another process holds it, or its
    /// own checksums fail).
    pub fn open_existing(dir: &Path) -> Result<Self, StoreError> {
        if !dir.join("db").is_file() || !dir.join("conf").is_file() {
            return Err(StoreError::Io(format!("{} holds no ledger (no sled `db` and `conf` files)", dir.display())));
        }
        Self::open(dir).map_err(|e| match e {
            StoreError::Io(text) if text.contains("lock") => StoreError::Io(format!(
                "{text}: is ledgerd running on {}? verify a stopped daemon's data or a copy of it",
                dir.display()
            )),
            other => other,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every tournament stream: the sequencer replays them to learn which games they scheduled.
    ///
    /// # Errors
    /// The tree cannot be read.
    pub fn tournament_streams(&self) -> Result<Vec<StreamId>, StoreError> {
        Ok(self.streams()?.into_iter().map(|s| s.stream).filter(|s| s.kind() == StreamKind::Tournament).collect())
    }

    /// Every stored record in position order, as raw bytes with their key: what `verify` reads.
    ///
    /// # Errors
    /// The tree cannot be read.
    pub fn raw_stream(&self, stream: &StreamId) -> Result<Vec<(u64, Vec<u8>)>, StoreError> {
        self.tree
            .scan_prefix(Key::event_prefix(stream))
            .map(|item| {
                let (key, value) = item?;
                Ok((Key::seq_of_event_key(&key)?, value.to_vec()))
            })
            .collect()
    }

    fn get_record(&self, key: &[u8]) -> Result<Option<Recorded>, StoreError> {
        match self.tree.get(key)? {
            Some(bytes) => decode_record(&bytes).map(Some).map_err(StoreError::Corrupt),
            None => Ok(None),
        }
    }

    fn record_at(&self, position: u64) -> Result<Option<Recorded>, StoreError> {
        match self.tree.get(Key::position(position))? {
            Some(event_key) => self
                .get_record(&event_key)?
                .ok_or_else(|| StoreError::Corrupt(format!("position {position} points at a missing event")))
                .map(Some),
            None => Ok(None),
        }
    }
}

impl SledStorage {
    /// A stream's head as far as it is durable (`None`: nothing of it is yet).
    fn durable_head(&self, info: StreamInfo) -> Result<Option<StreamInfo>, StoreError> {
        let durable = self.durable.load(Ordering::Acquire);
        let newest = self.get_record(&Key::event(&info.stream, info.version))?;
        if newest.is_some_and(|r| r.envelope.position <= durable) {
            return Ok(Some(info));
        }
        Ok(self.read_stream(&info.stream, 1, usize::MAX)?.last().map(|last| StreamInfo {
            stream: info.stream.clone(),
            version: last.envelope.seq,
            head_hash: last.envelope.hash,
        }))
    }
}

impl Storage for SledStorage {
    fn load_stream(&self, stream: &StreamId) -> Result<Vec<Recorded>, StoreError> {
        self.read_stream(stream, 1, usize::MAX)
    }

    fn find_event_id(&self, event_id: &str) -> Result<Option<Recorded>, StoreError> {
        match self.tree.get(Key::event_id(event_id))? {
            Some(position) => self.record_at(keys::decode_u64(&position)?),
            None => Ok(None),
        }
    }

    fn next_position(&self) -> Result<u64, StoreError> {
        match self.tree.get(Key::NEXT_POSITION)? {
            Some(bytes) => keys::decode_u64(&bytes),
            None => Ok(1),
        }
    }

    fn commit(&self, records: &[Recorded]) -> Result<(), StoreError> {
        let mut batch = sled::Batch::default();
        for record in records {
            let e = &record.envelope;
            let event_key = Key::event(&e.stream, e.seq);
            batch.insert(event_key.clone(), encode_record(record));
            batch.insert(Key::position(e.position), event_key);
            batch.insert(Key::event_id(&e.event_id), &e.position.to_be_bytes());
            batch.insert(Key::head(&e.stream), keys::encode_head(e.seq, &e.hash));
        }
        if let Some(last) = records.last() {
            batch.insert(Key::NEXT_POSITION, &(last.envelope.position + 1).to_be_bytes());
        }
        self.tree.apply_batch(batch)?;
        self.db.flush()?;
        self.log_file.sync_data()?;
        if let Some(last) = records.last() {
            self.durable.store(last.envelope.position, Ordering::Release);
        }
        Ok(())
    }
}

impl Reader for SledStorage {
    fn read_stream(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
        let durable = self.durable.load(Ordering::Acquire);
        let mut records = Vec::new();
        for item in self.tree.range(Key::event(stream, from_seq.max(1))..Key::event_prefix_end(stream)).take(limit) {
            let record = decode_record(&item?.1).map_err(StoreError::Corrupt)?;
            if record.envelope.position > durable {
                break;
            }
            records.push(record);
        }
        Ok(records)
    }

    fn read_all(&self, from_position: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
        let mut records = Vec::new();
        let end = Key::position(self.durable.load(Ordering::Acquire).saturating_add(1));
        for item in self.tree.range(Key::position(from_position.max(1))..end).take(limit) {
            let (key, event_key) = item?;
            let record = self
                .get_record(&event_key)?
                .ok_or_else(|| StoreError::Corrupt(format!("position key {key:?} points at a missing event")))?;
            records.push(record);
        }
        Ok(records)
    }

    fn last_position(&self) -> Result<u64, StoreError> {
        Ok(self.durable.load(Ordering::Acquire))
    }

    fn streams(&self) -> Result<Vec<StreamInfo>, StoreError> {
        self.tree
            .scan_prefix(Key::HEAD_PREFIX)
            .map(|item| {
                let (key, value) = item?;
                let stream = Key::stream_of_head_key(&key)?;
                let (version, head_hash) = keys::decode_head(&value)?;
                Ok(StreamInfo { stream, version, head_hash })
            })
            .map(|info: Result<StreamInfo, StoreError>| self.durable_head(info?))
            .filter_map(Result::transpose)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::envelope::{Draft, GENESIS};
    use ledger::Event;

    fn record(seq: u64, position: u64, prev: ledger::Hash) -> Recorded {
        let draft = Draft {
            stream: StreamId::game("g").unwrap(),
            seq,
            position,
            event_id: format!("e{seq}"),
            recorded_at_ms: 0,
            actor: "t".into(),
        };
        Recorded::seal(draft, prev, Event::JuryCalled { reason: format!("call {seq}") })
    }

    #[test]
    fn readers_do_not_see_a_batch_before_it_is_durable() {
        let dir = tempfile::tempdir().unwrap();
        let storage = SledStorage::open(dir.path()).unwrap();
        let first = record(1, 1, GENESIS);
        storage.commit(std::slice::from_ref(&first)).unwrap();
        // A batch applied but not yet synced, as sled holds it between `apply_batch` and the sync.
        let second = record(2, 2, first.envelope.hash);
        let mut batch = sled::Batch::default();
        let stream = second.envelope.stream.clone();
        batch.insert(Key::event(&stream, 2), encode_record(&second));
        batch.insert(Key::position(2), Key::event(&stream, 2));
        batch.insert(Key::head(&stream), keys::encode_head(2, &second.envelope.hash));
        storage.tree.apply_batch(batch).unwrap();
        assert_eq!(storage.read_stream(&stream, 1, 10).unwrap(), vec![first.clone()]);
        assert_eq!(storage.read_all(1, 10).unwrap(), vec![first.clone()]);
        assert_eq!(storage.last_position().unwrap(), 1);
        let listed = storage.streams().unwrap();
        assert_eq!((listed[0].version, listed[0].head_hash), (1, first.envelope.hash));
        // Once durable, everyone sees it.
        storage.durable.store(2, Ordering::Release);
        assert_eq!(storage.read_all(1, 10).unwrap().len(), 2);
        assert_eq!(storage.streams().unwrap()[0].version, 2);
    }
}
