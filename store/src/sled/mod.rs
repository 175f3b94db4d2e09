//! The embedded default backend: one sled tree, written only through atomic batches, made
//! durable by an explicit `fdatasync` of sled's log file.
//!
//! Why the extra sync: on Linux, sled 0.34's `flush()` writes with `sync_file_range`, which
//! neither flushes the drive's cache nor the file's metadata; only `fsync`/`fdatasync` makes a
//! write survive a power cut. docs/DECISIONS.md shows the strace.
//!
//! The layout is in [`layout`]: records live in chunks in position order, so appending and
//! reading the whole log are sequential; a stream is found through its runs.

pub mod layout;
mod migrate;
mod verify;

pub use verify::StreamVerdict;

use crate::error::StoreError;
use crate::storage::{id_hash, Commit, Reader, Storage, StoredHead, StreamInfo, Written};
use ledger::envelope::decode_record;
use ledger::{Recorded, StreamId, StreamKind};
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// sled's segment size. Chunks stay at or below 64 KiB plus one record, and a leaf holds at most
/// 17 values, far below the blob threshold (segment / 4), so everything lives in the one log
/// file that [`SledStorage::sync`] syncs.
const SEGMENT_SIZE: usize = 8 * 1024 * 1024;

/// sled's page cache. Its default (1 GiB) would let the daemon's memory grow with the log; the
/// writer needs only recent chunks and stream heads, and readers go through the OS page cache.
const CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// The sled log; clones share the same database.
#[derive(Clone)]
pub struct SledStorage {
    db: sled::Db,
    tree: sled::Tree,
    /// sled's log file, opened once for `fdatasync`.
    log_file: Arc<File>,
    /// The newest global position known durable. sled shows a batch as soon as it is applied,
    /// before the sync: every read stops here, so nothing is seen before it is durable (and
    /// nothing a failed sync left behind is ever seen).
    durable: Arc<AtomicU64>,
    path: PathBuf,
}

/// The chunk last read, with where each record starts, so that consecutive positions cost one
/// tree lookup and no scan.
#[derive(Default)]
struct ChunkCursor {
    first: u64,
    chunk: sled::IVec,
    /// (start, end) of each record in `chunk`.
    spans: Vec<(usize, usize)>,
}

impl ChunkCursor {
    fn load(first: u64, chunk: sled::IVec) -> Result<Self, StoreError> {
        let spans = layout::spans_of(&chunk).collect::<Result<_, _>>()?;
        Ok(ChunkCursor { first, chunk, spans })
    }

    fn get(&self, position: u64) -> Option<&[u8]> {
        let index = usize::try_from(position.checked_sub(self.first)?).ok()?;
        self.spans.get(index).map(|&(start, end)| &self.chunk[start..end])
    }
}

impl SledStorage {
    /// Opens (or creates) the log in `dir`, moving a log of the first layout to this one.
    ///
    /// # Errors
    /// The directory cannot be created or sled cannot open it.
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        std::fs::create_dir_all(dir)?;
        // No background flusher: every group is flushed and synced by the writer itself, and the
        // flusher's own periodic `fsync` only competed with those syncs (latency tails).
        let db = sled::Config::new()
            .path(dir)
            .segment_size(SEGMENT_SIZE)
            .cache_capacity(CACHE_BYTES)
            .flush_every_ms(None)
            .open()?;
        let tree = db.open_tree(layout::TREE)?;
        let log_file = Arc::new(File::open(dir.join("db"))?);
        // New files must be findable after a crash: sync the directory once.
        File::open(dir)?.sync_all()?;
        let mut storage =
            SledStorage { db, tree, log_file, durable: Arc::new(AtomicU64::new(0)), path: dir.to_owned() };
        migrate::from_v1(&storage)?;
        migrate::id_keys(&storage)?;
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

    /// Every tournament stream: the writer reads them to learn which games they scheduled.
    ///
    /// # Errors
    /// The tree cannot be read.
    pub fn tournament_streams(&self) -> Result<Vec<StreamId>, StoreError> {
        Ok(self.streams()?.into_iter().map(|s| s.stream).filter(|s| s.kind() == StreamKind::Tournament).collect())
    }

    /// The stored record at a global position, through `cursor`, whatever its durability.
    fn fetch(&self, position: u64, cursor: &mut ChunkCursor) -> Result<Option<Recorded>, StoreError> {
        if cursor.get(position).is_none() {
            let found = self.tree.range(layout::chunk(0)..=layout::chunk(position)).next_back().transpose()?;
            let Some((key, chunk)) = found else { return Ok(None) };
            *cursor = ChunkCursor::load(layout::position_of_chunk_key(&key)?, chunk)?;
        }
        match cursor.get(position) {
            Some(bytes) => decode_record(bytes).map(Some).map_err(StoreError::Corrupt),
            None => Ok(None),
        }
    }

    /// The positions of a stream's events from `from_seq` on, in seq order, whatever their
    /// durability.
    fn positions(&self, stream: &StreamId, from_seq: u64) -> impl Iterator<Item = Result<u64, StoreError>> + '_ {
        let prefix = layout::run_prefix(stream);
        // The run holding `from_seq` starts at or before it.
        let start = match self.tree.range(layout::run(stream, 0)..=layout::run(stream, from_seq)).next_back() {
            Some(Ok((key, _))) => key.to_vec(),
            _ => layout::run(stream, from_seq),
        };
        let mut end = prefix;
        *end.last_mut().expect("not empty") = 1;
        self.tree.range(start..end).flat_map(move |item| {
            let positions = item.map_err(StoreError::from).and_then(|(key, value)| {
                let first_seq = layout::seq_of_run_key(&key)?;
                let positions = layout::decode_run(&value)?;
                let skip = usize::try_from(from_seq.saturating_sub(first_seq)).unwrap_or(usize::MAX);
                Ok(positions.into_iter().skip(skip).collect::<Vec<_>>())
            });
            let items: Vec<Result<u64, StoreError>> = match positions {
                Ok(positions) => positions.into_iter().map(Ok).collect(),
                Err(e) => vec![Err(e)],
            };
            items
        })
    }

    /// Up to `limit` records of a stream from `from_seq`, stopping after position `until`.
    fn stream_records(
        &self,
        stream: &StreamId,
        from_seq: u64,
        limit: usize,
        until: u64,
    ) -> Result<Vec<Recorded>, StoreError> {
        let mut cursor = ChunkCursor::default();
        let mut records = Vec::new();
        for position in self.positions(stream, from_seq.max(1)).take(limit) {
            let position = position?;
            if position > until {
                break;
            }
            let record = self.fetch(position, &mut cursor)?.ok_or_else(|| {
                StoreError::Corrupt(format!("{stream} points at position {position}, which is missing"))
            })?;
            records.push(record);
        }
        Ok(records)
    }

    /// A stream's head as far as it is durable (`None`: nothing of it is yet).
    fn durable_head(&self, info: StreamInfo) -> Result<Option<StreamInfo>, StoreError> {
        let durable = self.durable.load(Ordering::Acquire);
        let newest = self.positions(&info.stream, info.version).next().transpose()?;
        if newest.is_some_and(|p| p <= durable) {
            return Ok(Some(info));
        }
        // Rare: a group is between its write and its sync.
        Ok(self.stream_records(&info.stream, 1, usize::MAX, durable)?.last().map(|last| StreamInfo {
            stream: info.stream.clone(),
            version: last.envelope.seq,
            head_hash: last.envelope.hash,
        }))
    }
}

impl Storage for SledStorage {
    fn load_head(&self, stream: &StreamId) -> Result<Option<StoredHead>, StoreError> {
        let Some(value) = self.tree.get(layout::head(stream))? else { return Ok(None) };
        let (version, hash, snapshot) = layout::decode_head(&value)?;
        Ok(Some(StoredHead { version, hash, snapshot: (!snapshot.is_empty()).then(|| snapshot.to_vec()) }))
    }

    fn load_events(&self, stream: &StreamId) -> Result<Vec<Recorded>, StoreError> {
        self.stream_records(stream, 1, usize::MAX, u64::MAX)
    }

    fn find_event_id(&self, event_id: &str) -> Result<Option<Recorded>, StoreError> {
        let hash = id_hash(event_id);
        let mut cursor = ChunkCursor::default();
        // Newest first: a retry is almost always of something recent.
        for item in self.tree.scan_prefix(layout::id_bucket_prefix(layout::id_bucket(hash))).rev() {
            let (_, entries) = item?;
            let candidates: Vec<u64> =
                layout::id_entries_of(&entries)?.filter(|&(h, _)| h == hash).map(|(_, position)| position).collect();
            for position in candidates.into_iter().rev() {
                let record = self.fetch(position, &mut cursor)?.ok_or_else(|| {
                    StoreError::Corrupt(format!("the id index points at position {position}, which is missing"))
                })?;
                if record.envelope.event_id == event_id {
                    return Ok(Some(record));
                }
            }
        }
        Ok(None)
    }

    fn for_each_id_hash(&self, each: &mut dyn FnMut(u64)) -> Result<(), StoreError> {
        for item in self.tree.scan_prefix(layout::ID_PREFIX) {
            let (_, entries) = item?;
            for (hash, _) in layout::id_entries_of(&entries)? {
                each(hash);
            }
        }
        Ok(())
    }

    fn next_position(&self) -> Result<u64, StoreError> {
        match self.tree.get(layout::NEXT_POSITION)? {
            Some(bytes) => layout::decode_u64(&bytes),
            None => Ok(1),
        }
    }

    fn write(&self, commit: &Commit) -> Result<Written, StoreError> {
        let mut batch = sled::Batch::default();
        let mut chunk: Vec<u8> = Vec::new();
        let mut chunk_first = 0;
        let mut runs: BTreeMap<&StreamId, (u64, Vec<u64>)> = BTreeMap::new();
        let mut ids: BTreeMap<u8, Vec<u8>> = BTreeMap::new();
        for sealed in &commit.records {
            let e = &sealed.record.envelope;
            if !chunk.is_empty() && chunk.len() + sealed.bytes.len() > layout::CHUNK_BYTES {
                batch.insert(layout::chunk(chunk_first), std::mem::take(&mut chunk));
            }
            if chunk.is_empty() {
                chunk_first = e.position;
            }
            layout::push_record(&mut chunk, &sealed.bytes);
            runs.entry(&e.stream).or_insert_with(|| (e.seq, Vec::new())).1.push(e.position);
            let hash = id_hash(&e.event_id);
            layout::push_id_entry(ids.entry(layout::id_bucket(hash)).or_default(), hash, e.position);
        }
        if !chunk.is_empty() {
            batch.insert(layout::chunk(chunk_first), chunk);
        }
        if let Some(first) = commit.records.first() {
            let first_position = first.record.envelope.position;
            for (bucket, entries) in ids {
                batch.insert(layout::id_entries(bucket, first_position), entries);
            }
        }
        for (stream, (first_seq, positions)) in runs {
            batch.insert(layout::run(stream, first_seq), layout::encode_run(&positions));
        }
        for update in &commit.heads {
            let head = &update.head;
            batch.insert(
                layout::head(&update.stream),
                layout::encode_head(head.version, &head.hash, head.snapshot.as_deref()),
            );
        }
        if let Some(last) = commit.last_position() {
            batch.insert(layout::NEXT_POSITION, &(last + 1).to_be_bytes());
        }
        self.tree.apply_batch(batch)?;
        Ok(Written::default())
    }

    fn sync(&self, position: u64) -> Result<(), StoreError> {
        self.db.flush()?;
        self.log_file.sync_data()?;
        self.durable.fetch_max(position, Ordering::AcqRel);
        Ok(())
    }
}

impl Reader for SledStorage {
    fn read_stream(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
        self.stream_records(stream, from_seq, limit, self.durable.load(Ordering::Acquire))
    }

    fn read_all(&self, from_position: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
        let durable = self.durable.load(Ordering::Acquire);
        let from = from_position.max(1);
        let mut records = Vec::new();
        if from > durable || limit == 0 {
            return Ok(records);
        }
        // The chunk holding `from` starts at or before it.
        let start = match self.tree.range(layout::chunk(0)..=layout::chunk(from)).next_back() {
            Some(found) => found?.0.to_vec(),
            None => layout::chunk(from),
        };
        for item in self.tree.range(start..layout::chunk(durable.saturating_add(1))) {
            let (key, chunk) = item?;
            let first = layout::position_of_chunk_key(&key)?;
            for (position, bytes) in (first..).zip(layout::records_of(&chunk)) {
                if position < from {
                    continue;
                }
                if position > durable || records.len() == limit {
                    return Ok(records);
                }
                records.push(decode_record(bytes?).map_err(StoreError::Corrupt)?);
            }
        }
        Ok(records)
    }

    fn last_position(&self) -> Result<u64, StoreError> {
        Ok(self.durable.load(Ordering::Acquire))
    }

    fn streams(&self) -> Result<Vec<StreamInfo>, StoreError> {
        self.tree
            .scan_prefix(layout::HEAD_PREFIX)
            .map(|item| {
                let (key, value) = item?;
                let stream = layout::stream_of_head_key(&key)?;
                let (version, head_hash, _) = layout::decode_head(&value)?;
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
    use crate::storage::{HeadUpdate, Sealed};
    use ledger::envelope::{encode_record, Draft, GENESIS};
    use ledger::Event;

    fn record(seq: u64, position: u64, prev: ledger::Hash) -> Sealed {
        let draft = Draft {
            stream: StreamId::game("g").unwrap(),
            seq,
            position,
            event_id: format!("e{seq}"),
            recorded_at_ms: 0,
            actor: "t".into(),
        };
        let record = Recorded::seal(draft, prev, Event::JuryCalled { reason: format!("call {seq}") });
        let bytes = encode_record(&record);
        Sealed { record: Arc::new(record), bytes }
    }

    fn commit(sealed: &Sealed) -> Commit {
        let e = &sealed.record.envelope;
        Commit {
            records: vec![sealed.clone()],
            heads: vec![HeadUpdate {
                stream: e.stream.clone(),
                head: StoredHead { version: e.seq, hash: e.hash, snapshot: None },
            }],
        }
    }

    #[test]
    fn readers_do_not_see_a_group_before_it_is_synced() {
        let dir = tempfile::tempdir().unwrap();
        let storage = SledStorage::open(dir.path()).unwrap();
        let first = record(1, 1, GENESIS);
        storage.write(&commit(&first)).unwrap();
        storage.sync(1).unwrap();
        // Written, not yet synced: the writer sees it, readers do not.
        let second = record(2, 2, first.record.envelope.hash);
        storage.write(&commit(&second)).unwrap();
        let stream = second.record.envelope.stream.clone();
        assert_eq!(storage.load_events(&stream).unwrap().len(), 2);
        assert_eq!(storage.find_event_id("e2").unwrap().unwrap().envelope.seq, 2);
        assert_eq!(storage.read_stream(&stream, 1, 10).unwrap(), vec![(*first.record).clone()]);
        assert_eq!(storage.read_all(1, 10).unwrap(), vec![(*first.record).clone()]);
        assert_eq!(storage.last_position().unwrap(), 1);
        let listed = storage.streams().unwrap();
        assert_eq!((listed[0].version, listed[0].head_hash), (1, first.record.envelope.hash));
        // Once durable, everyone sees it.
        storage.sync(2).unwrap();
        assert_eq!(storage.read_all(1, 10).unwrap().len(), 2);
        assert_eq!(storage.read_stream(&stream, 2, 10).unwrap(), vec![(*second.record).clone()]);
        assert_eq!(storage.streams().unwrap()[0].version, 2);
    }
}
