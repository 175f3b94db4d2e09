//! The embedded default backend: records in a file of the ledger's own, indexes in sled.
//!
//! A group commit appends one frame to the records file ([`frames`]) and syncs that one file
//! with `fdatasync`: one sequential write and one disk round trip per group. sled holds only
//! the indexes ([`layout`]). A durable group's entries gather in memory ([`unindexed`]),
//! where readers find them at once, and go to the tree as one batch about once a second;
//! sled writes them to disk in its own time (its flusher, and a flush at close). After a
//! crash, the frames the tree does not index yet are indexed again from the file, and a frame
//! that was being written is cut off ([`recover`]).
//!
//! Why not sled for the records too (the second layout): sled's `flush()` writes with
//! `sync_file_range`, which flushes neither the drive's cache nor the file's metadata, so the
//! writer had to `fdatasync` sled's file after it — two disk round trips per group — and each
//! flush sealed one of sled's 8 MiB write buffers, which held most of the daemon's memory.
//! docs/DECISIONS.md has the measurements.
//!
//! The type and its opening are here, with the traits' methods; a group's write and sync and the
//! index's flush are in `write.rs`, the readers' cursors over the records file in `read.rs`.

mod damage;
pub mod frames;
mod index;
pub mod layout;
mod migrate;
mod pending;
mod read;
mod recover;
mod repair;
mod unindexed;
mod verify;
mod write;

pub use frames::FILE as RECORDS_FILE;
pub use repair::{Copy, RepairReport, Repaired};
pub use verify::StreamVerdict;

use crate::error::{Damage, StoreError};
use crate::storage::{id_hash, Commit, Reader, Storage, StoredHead, StoredPage, StreamInfo, Written};
use index::FrameKeys;
use ledger::envelope::decode_record;
use ledger::{Recorded, StreamId, StreamKind};
use pending::Pending;
use read::Cursor;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use unindexed::Unindexed;

/// sled's segment size. Index values stay far below the blob threshold (segment / 4), so
/// everything sled writes lives in its one log file.
const SEGMENT_SIZE: usize = 8 * 1024 * 1024;

/// sled's page cache. Its default (1 GiB) would let the daemon's memory grow with the log; the
/// writer needs only recent index pages and stream heads, and records are read through the OS
/// page cache.
const CACHE_BYTES: u64 = 32 * 1024 * 1024;

/// How often sled writes the indexes it holds to its own file. Nothing acknowledged depends on
/// it (the records file is synced first); it bounds what recovery indexes again after a crash.
const INDEX_FLUSH_MS: u64 = 1000;

/// Opens sled on `dir`. A log closed a moment ago in this process may still hold the
/// directory's lock while its last handle drops on one of sled's I/O threads, so a held lock is
/// tried again for up to two seconds (another process holding it fails after that).
fn open_sled(dir: &Path) -> Result<sled::Db, StoreError> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        let opened = sled::Config::new()
            .path(dir)
            .segment_size(SEGMENT_SIZE)
            .cache_capacity(CACHE_BYTES)
            .flush_every_ms(Some(INDEX_FLUSH_MS))
            .open();
        match opened {
            // sled reports a held lock only in its message.
            Err(sled::Error::Io(e))
                if e.to_string().contains("could not acquire lock") && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            other => {
                let db = other?;
                sync_sled_conf(dir)?;
                return Ok(db);
            }
        }
    }
}

/// [`open_sled`], with a panic inside sled (some of its damaged files make it panic rather
/// than fail) reported as damage.
fn open_sled_caught(dir: &Path) -> Result<sled::Db, StoreError> {
    std::panic::catch_unwind(|| open_sled(dir)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("sled panicked");
        Err(StoreError::Corrupt(format!("sled could not open its files: {why}")))
    })
}

/// Whether `dir` holds a records file with records in it (sled then holds only indexes).
fn has_records(dir: &Path) -> bool {
    std::fs::metadata(dir.join(frames::FILE)).is_ok_and(|m| m.len() > 0)
}

/// sled's own files in a data directory.
fn sled_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if matches!(name, "conf" | "db" | "blobs") || name.starts_with("snap.") {
            files.push(path);
        }
    }
    Ok(files)
}

/// Moves sled's files aside (into `index-damaged-<n>`, nothing is deleted) so that the log
/// opens on a fresh index, which recovery then builds from the records file: sled holds only
/// what the records file says again.
///
/// # Errors
/// The files cannot be moved.
pub fn rebuild_index(dir: &Path, why: &str) -> Result<PathBuf, StoreError> {
    let aside =
        (0u32..).map(|n| dir.join(format!("index-damaged-{n}"))).find(|aside| !aside.exists()).expect("a free name");
    std::fs::create_dir(&aside)?;
    for file in sled_files(dir)? {
        std::fs::rename(&file, aside.join(file.file_name().expect("a file name")))?;
    }
    File::open(&aside)?.sync_all()?;
    File::open(dir)?.sync_all()?;
    tracing::warn!(
        %why,
        moved_to = %aside.display(),
        "the index could not be used: it is rebuilt from the records file (nothing acknowledged is lost)"
    );
    Ok(aside)
}

/// sled writes its `conf` file (its settings and a checksum, in two writes) at every open and
/// never syncs it; a power cut that keeps one write of the two (`ledger-crash --power-cut`
/// found it) leaves a file sled refuses to open. Synced here, and its directory entry too, it
/// is on the disk from the first start on, and the later rewrites put the same bytes again.
fn sync_sled_conf(dir: &Path) -> Result<(), StoreError> {
    File::open(dir.join("conf"))?.sync_all()?;
    File::open(dir)?.sync_all()?;
    Ok(())
}

/// How a log is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// To serve: a records file shorter than its index is refused.
    Serve,
    /// To verify a copy: everything that can be read is, and verification reports the rest.
    Inspect,
}

/// The end of the records file, as the writer knows it.
#[derive(Debug, Default)]
struct Tail {
    end: u64,
    keys: FrameKeys,
}

/// The sled log; clones share the same database and records file.
#[derive(Clone)]
pub struct SledStorage {
    db: sled::Db,
    tree: sled::Tree,
    /// sled's log file, opened once for `fdatasync` at checkpoints.
    log_file: Arc<File>,
    records: Arc<File>,
    tail: Arc<Mutex<Tail>>,
    pending: Arc<Pending>,
    unindexed: Arc<Unindexed>,
    /// The newest global position known durable, and where the durable records end. The
    /// unindexed entries show a group once it is durable, a moment before these move: every read stops here, so
    /// nothing is seen before it is acknowledged-durable (and nothing a failed sync left behind
    /// is ever seen).
    durable: Arc<AtomicU64>,
    durable_end: Arc<AtomicU64>,
    /// Records found damaged, by readers and by the scrub at open.
    damage: Arc<damage::DamageLog>,
    path: PathBuf,
}

impl SledStorage {
    /// Opens (or creates) the log in `dir`, moving a log of an earlier layout to this one and
    /// indexing what a crash left unindexed.
    ///
    /// # Errors
    /// The directory cannot be created, sled cannot open it, or the records file is shorter
    /// than its index says.
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        Self::open_as(dir, Mode::Serve)
    }

    fn open_as(dir: &Path, mode: Mode) -> Result<Self, StoreError> {
        create_dir_durably(dir)?;
        let db = match open_sled_caught(dir) {
            Err(StoreError::Corrupt(why)) if mode == Mode::Serve && has_records(dir) => {
                rebuild_index(dir, &why)?;
                open_sled(dir)?
            }
            other => other?,
        };
        let tree = db.open_tree(layout::TREE)?;
        let log_file = Arc::new(File::open(dir.join("db"))?);
        let records = Arc::new(frames::open(dir)?);
        // New files must be findable after a crash: sync the directory once.
        File::open(dir)?.sync_all()?;
        let storage = SledStorage {
            db,
            tree,
            log_file,
            records,
            tail: Arc::default(),
            pending: Arc::default(),
            unindexed: Arc::default(),
            durable: Arc::default(),
            durable_end: Arc::default(),
            damage: Arc::default(),
            path: dir.to_owned(),
        };
        migrate::from_v1(&storage)?;
        migrate::from_v2(&storage)?;
        recover::unindexed(&storage, mode)?;
        migrate::id_keys(&storage)?;
        storage.durable.store(storage.next_position()? - 1, Ordering::Release);
        let end = storage.tail().end;
        storage.durable_end.store(end, Ordering::Release);
        if mode == Mode::Serve {
            storage.start_scrub(end)?;
        }
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
        Self::open_as(dir, Mode::Inspect).map_err(|e| match e {
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

    /// Checks every record of the file up to `end` on a thread of its own, so that damage
    /// nobody has read yet is reported at once (health, metrics, the log) without delaying
    /// the start.
    fn start_scrub(&self, end: u64) -> Result<(), StoreError> {
        let (records, damage) = (Arc::clone(&self.records), Arc::clone(&self.damage));
        let last_position = self.durable.load(Ordering::Acquire);
        std::thread::Builder::new()
            .name("ledger-scrub".into())
            .spawn(move || damage.scrub(&records, end, last_position))?;
        Ok(())
    }

    /// Every damaged record of the durable records file, found by reading it all now.
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn damaged_records(&self) -> Result<Vec<Damage>, StoreError> {
        damage::scan(&self.records, self.durable_end.load(Ordering::Acquire), self.durable.load(Ordering::Acquire))
    }

    fn tail(&self) -> std::sync::MutexGuard<'_, Tail> {
        // Only the writer changes it, in one assignment after a successful write.
        self.tail.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Every tournament stream: the writer reads them to learn which games they scheduled.
    ///
    /// # Errors
    /// The tree cannot be read.
    pub fn tournament_streams(&self) -> Result<Vec<StreamId>, StoreError> {
        Ok(self.streams()?.into_iter().map(|s| s.stream).filter(|s| s.kind() == StreamKind::Tournament).collect())
    }
}

impl Storage for SledStorage {
    fn load_head(&self, stream: &StreamId) -> Result<Option<StoredHead>, StoreError> {
        if let Some(head) = self.pending.head(stream)? {
            return Ok(Some(head));
        }
        if let Some(head) = self.unindexed.lock().index.head_of(stream).map(layout::stored_head) {
            return head.map(Some);
        }
        self.tree.get(layout::head(stream))?.map(|value| layout::stored_head(&value)).transpose()
    }

    fn load_events(&self, stream: &StreamId) -> Result<Vec<Recorded>, StoreError> {
        // The written groups first: one the sync thread moves meanwhile is then in the tree too.
        let written = self.pending.records_of(stream);
        let mut records = self.stream_decoded(stream, 1, usize::MAX, u64::MAX)?;
        let indexed = records.last().map_or(0, |r| r.envelope.seq);
        records.extend(written.into_iter().filter(|r| r.envelope.seq > indexed));
        Ok(records)
    }

    fn find_event_id(&self, event_id: &str) -> Result<Option<Recorded>, StoreError> {
        if let Some(record) = self.pending.by_id(event_id) {
            return Ok(Some(record));
        }
        let hash = id_hash(event_id);
        // Newest first: a retry is almost always of something recent.
        let mut candidates = self.unindexed.lock().index.ids(hash);
        for item in self.tree.scan_prefix(layout::id_bucket_prefix(layout::id_bucket(hash))).rev() {
            let (_, entries) = item?;
            let mut found: Vec<u64> =
                layout::id_entries_of(&entries)?.filter(|&(h, _)| h == hash).map(|(_, position)| position).collect();
            found.reverse();
            candidates.extend(found);
        }
        // Read after the index, as in `stream_records`.
        let mut cursor = Cursor::for_lookups(self, self.durable_end.load(Ordering::Acquire));
        for position in candidates {
            let bytes = self.fetch(position, &mut cursor)?.ok_or_else(|| {
                StoreError::Corrupt(format!("the id index points at position {position}, which is missing"))
            })?;
            let record = decode_record(bytes).map_err(StoreError::Corrupt)?;
            if record.envelope.event_id == event_id {
                return Ok(Some(record));
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
        let gathered = self.unindexed.lock().next_position;
        let indexed = match self.tree.get(layout::NEXT_POSITION)? {
            Some(bytes) => layout::decode_u64(&bytes)?,
            None => 1,
        };
        Ok(gathered.max(indexed))
    }

    fn write(&self, commit: &Commit) -> Result<Written, StoreError> {
        write::write(self, commit)
    }

    fn sync(&self, position: u64) -> Result<(), StoreError> {
        write::sync(self, position)
    }

    fn tidy(&self) -> Result<(), StoreError> {
        if self.unindexed.lock().due() {
            self.flush_unindexed()?;
        }
        Ok(())
    }

    fn checkpoint(&self) -> Result<(), StoreError> {
        self.checkpoint_index()
    }
}

impl Reader for SledStorage {
    fn read_stream(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
        self.stream_decoded(stream, from_seq, limit, self.durable.load(Ordering::Acquire))
    }

    fn read_all(&self, from_position: u64, limit: usize) -> Result<Vec<Recorded>, StoreError> {
        let mut records = Vec::new();
        self.all_records(from_position, limit, |bytes, _| {
            records.push(decode_record(bytes).map_err(StoreError::Corrupt)?);
            Ok(())
        })?;
        Ok(records)
    }

    fn read_stream_stored(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<StoredPage, StoreError> {
        let mut page = StoredPage::default();
        self.stream_records(stream, from_seq, limit, self.durable.load(Ordering::Acquire), |bytes, seq| {
            page.push(bytes, seq);
            Ok(())
        })?;
        Ok(page)
    }

    fn read_all_stored(&self, from_position: u64, limit: usize) -> Result<StoredPage, StoreError> {
        let mut page = StoredPage::default();
        self.all_records(from_position, limit, |bytes, position| {
            page.push(bytes, position);
            Ok(())
        })?;
        Ok(page)
    }

    fn last_position(&self) -> Result<u64, StoreError> {
        Ok(self.durable.load(Ordering::Acquire))
    }

    fn damaged(&self) -> u64 {
        self.damage.count()
    }

    fn streams(&self) -> Result<Vec<StreamInfo>, StoreError> {
        // The gathered heads first (see `unindexed`); a flush meanwhile may have put the same
        // or newer ones in the tree, so the newer version of each stream wins.
        let mut heads = std::collections::BTreeMap::new();
        for (stream, value) in self.unindexed.lock().index.heads() {
            let (version, head_hash, _) = layout::decode_head(value)?;
            heads.insert(stream.clone(), StreamInfo { stream: stream.clone(), version, head_hash });
        }
        for item in self.tree.scan_prefix(layout::HEAD_PREFIX) {
            let (key, value) = item?;
            let stream = layout::stream_of_head_key(&key)?;
            let (version, head_hash, _) = layout::decode_head(&value)?;
            if heads.get(&stream).is_none_or(|gathered: &StreamInfo| gathered.version < version) {
                heads.insert(stream.clone(), StreamInfo { stream, version, head_hash });
            }
        }
        heads.into_values().filter_map(|info| self.durable_head(info).transpose()).collect()
    }
}

/// Creates `dir` and its missing ancestors so that they survive a power cut: a new directory's
/// name lives in its parent, which is synced for each directory created. Without it a data
/// directory ledgerd made itself could vanish in a cut, with every acknowledged event in it.
fn create_dir_durably(dir: &Path) -> std::io::Result<()> {
    let mut missing = Vec::new();
    let mut at = dir;
    while !at.exists() {
        missing.push(at.to_path_buf());
        match at.parent() {
            Some(parent) => at = parent,
            None => break,
        }
    }
    std::fs::create_dir_all(dir)?;
    for created in missing.iter().rev() {
        let parent = match created.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        File::open(parent)?.sync_all()?;
    }
    Ok(())
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
        let head = storage.load_head(&stream).unwrap().unwrap();
        assert_eq!((head.version, head.hash), (2, second.record.envelope.hash));
        assert_eq!(storage.read_stream(&stream, 1, 10).unwrap(), vec![(*first.record).clone()]);
        assert_eq!(storage.read_all(1, 10).unwrap(), vec![(*first.record).clone()]);
        assert_eq!(storage.read_all_stored(1, 10).unwrap().count, 1);
        assert_eq!(storage.read_stream_stored(&stream, 1, 10).unwrap().last, Some(1));
        assert_eq!(storage.last_position().unwrap(), 1);
        let listed = storage.streams().unwrap();
        assert_eq!((listed[0].version, listed[0].head_hash), (1, first.record.envelope.hash));
        // Once durable, everyone sees it.
        storage.sync(2).unwrap();
        assert_eq!(storage.read_all(1, 10).unwrap().len(), 2);
        assert_eq!(storage.read_stream(&stream, 2, 10).unwrap(), vec![(*second.record).clone()]);
        assert_eq!(storage.streams().unwrap()[0].version, 2);
    }

    /// What every reader sees of the first `n` records of one stream, through each lookup.
    fn seen(storage: &SledStorage, stream: &StreamId, n: u64) -> Vec<String> {
        stored_reads_match(storage, stream);
        let mut seen = vec![format!("{:?}", storage.read_stream(stream, 1, 100).unwrap())];
        seen.push(format!("{:?}", storage.read_stream(stream, 2, 1).unwrap()));
        seen.push(format!("{:?}", storage.read_all(1, 100).unwrap()));
        seen.push(format!("{:?}", storage.streams().unwrap()));
        seen.push(format!("{:?}", storage.load_head(stream).unwrap().map(|h| (h.version, h.hash))));
        seen.push(format!("{:?}", storage.load_events(stream).unwrap()));
        seen.push(format!("{:?}", storage.next_position().unwrap()));
        for seq in 1..=n {
            seen.push(format!("{:?}", storage.find_event_id(&format!("e{seq}")).unwrap()));
        }
        seen
    }

    /// The stored-encoding reads copy exactly the records the decoding reads return, with the
    /// same count and last seq or position, for every start and limit.
    fn stored_reads_match(storage: &SledStorage, stream: &StreamId) {
        for from in 0..=5 {
            for limit in [0, 1, 2, 100] {
                let records = storage.read_stream(stream, from, limit).unwrap();
                let stored = storage.read_stream_stored(stream, from, limit).unwrap();
                assert_eq!(
                    stored,
                    StoredPage::encode(&records, |r| r.envelope.seq),
                    "stream from {from} limit {limit}"
                );
                let records = storage.read_all(from, limit).unwrap();
                let stored = storage.read_all_stored(from, limit).unwrap();
                assert_eq!(
                    stored,
                    StoredPage::encode(&records, |r| r.envelope.position),
                    "all from {from} limit {limit}"
                );
                let decoded: Vec<Recorded> =
                    ledger::envelope::decode_run(&stored.run).collect::<Result<_, _>>().unwrap();
                assert_eq!(decoded, records);
            }
        }
    }

    #[test]
    fn readers_see_the_same_before_during_and_after_a_flush() {
        let dir = tempfile::tempdir().unwrap();
        let storage = SledStorage::open(dir.path()).unwrap();
        let mut prev = GENESIS;
        let mut expected = Vec::new();
        for seq in 1..=3 {
            let sealed = record(seq, seq, prev);
            prev = sealed.record.envelope.hash;
            expected.push((*sealed.record).clone());
            storage.write(&commit(&sealed)).unwrap();
            storage.sync(seq).unwrap();
        }
        let stream = expected[0].envelope.stream.clone();
        // Acknowledged, not yet in the tree: every reader finds it gathered.
        assert!(storage.tree.get(layout::head(&stream)).unwrap().is_none());
        let before = seen(&storage, &stream, 3);
        assert_eq!(storage.read_stream(&stream, 1, 100).unwrap(), expected);
        assert_eq!(storage.streams().unwrap()[0].version, 3);
        // Mid-flush: the tree holds the batch and it is still gathered. Nothing shows twice.
        let mut batch = sled::Batch::default();
        for (key, value) in storage.unindexed.lock().entries() {
            batch.insert(key, value);
        }
        storage.tree.apply_batch(batch).unwrap();
        assert_eq!(seen(&storage, &stream, 3), before);
        // Flushed: the same again, now from the tree alone.
        storage.unindexed.clear();
        assert_eq!(seen(&storage, &stream, 3), before);
        // A stream partly in the tree, partly gathered, reads as one.
        let fourth = record(4, 4, prev);
        expected.push((*fourth.record).clone());
        storage.write(&commit(&fourth)).unwrap();
        storage.sync(4).unwrap();
        assert_eq!(storage.read_stream(&stream, 1, 100).unwrap(), expected);
        assert_eq!(storage.read_stream(&stream, 3, 1).unwrap(), expected[2..3]);
        assert_eq!(storage.read_stream(&stream, 4, 10).unwrap(), expected[3..]);
        assert_eq!(storage.read_all(2, 100).unwrap(), expected[1..]);
        assert_eq!(storage.find_event_id("e4").unwrap().unwrap(), expected[3]);
        assert_eq!(storage.next_position().unwrap(), 5);
        assert_eq!(storage.streams().unwrap()[0].version, 4);
        stored_reads_match(&storage, &stream);
    }
}
