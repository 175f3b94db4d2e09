//! The two traits a log backend implements: [`Storage`] for the writer, [`Reader`] for
//! everyone's reads, and what one commit hands the backend.

use crate::error::StoreError;
use crate::schedule::Schedule;
use ledger::{Hash, Recorded, StreamId};
use std::sync::Arc;
use tokio::sync::broadcast;

/// The 64-bit hash by which event ids are indexed (XXH3): stored by backends, so it never
/// changes. Two ids may share a hash; an index lookup compares the stored id itself.
pub fn id_hash(event_id: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(event_id.as_bytes())
}

/// A stream and where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamInfo {
    pub stream: StreamId,
    pub version: u64,
    pub head_hash: Hash,
}

/// What the log keeps about a stream's end: enough to append to it without reading its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredHead {
    pub version: u64,
    pub hash: Hash,
    /// The stream's folded rules state after `version` (see [`crate::snapshot`]); `None` when
    /// the backend holds none, e.g. for a log migrated from an older layout.
    pub snapshot: Option<Vec<u8>>,
}

/// A record ready to store: encoded once, when it was sealed.
#[derive(Debug, Clone)]
pub struct Sealed {
    pub record: Arc<Recorded>,
    /// [`ledger::envelope::encode_record`] of `record`.
    pub bytes: Vec<u8>,
}

/// A stream's new head after a commit, with the snapshot of its folded state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadUpdate {
    pub stream: StreamId,
    pub head: StoredHead,
}

/// One group commit: records in position order, then every touched stream's new head.
#[derive(Debug, Clone, Default)]
pub struct Commit {
    pub records: Vec<Sealed>,
    pub heads: Vec<HeadUpdate>,
}

impl Commit {
    /// The global position of the last record, if any.
    pub fn last_position(&self) -> Option<u64> {
        self.records.last().map(|s| s.record.envelope.position)
    }
}

/// What a write did beyond storing the group, for backends shared with other writers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// The global position of each record of the commit, in order, when the backend assigns
    /// positions itself (a log shared by several writers); `None`: the writer's positions stand.
    /// Records of a conflicted stream have none (0).
    pub positions: Option<Vec<u64>>,
    /// Streams another writer appended to after this writer loaded them: none of the group's
    /// records of these streams were stored, and their appends must be decided again.
    pub conflicts: Vec<StreamId>,
}

/// The write side, used by the writer (the sequencer thread writes, the sync thread syncs).
///
/// Writes and syncs are split so that the writer decides the next group while the previous one
/// syncs: [`Storage::write`] makes a group visible to the writer's own lookups (not to readers),
/// [`Storage::sync`] makes everything written so far durable and visible to readers.
pub trait Storage: Send + Sync + 'static {
    /// A stream's stored head and snapshot, `None` for a stream with no events. Sees every
    /// written group, synced or not.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn load_head(&self, stream: &StreamId) -> Result<Option<StoredHead>, StoreError>;

    /// Every record of a stream, in seq order, synced or not: for the rare decisions that need
    /// a stream's history (a jury's void, the final's rank order) and for rebuilding a stream
    /// that has no usable snapshot.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn load_events(&self, stream: &StreamId) -> Result<Vec<Recorded>, StoreError>;

    /// The record stored under an event id, if any (synced or not).
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn find_event_id(&self, event_id: &str) -> Result<Option<Recorded>, StoreError>;

    /// Calls `each` with the [`id_hash`] of every stored event id, to fill the writer's
    /// in-memory id filter.
    ///
    /// # Errors
    /// The backend failed.
    fn for_each_id_hash(&self, each: &mut dyn FnMut(u64)) -> Result<(), StoreError>;

    /// The global position the next record gets.
    ///
    /// # Errors
    /// The backend failed.
    fn next_position(&self) -> Result<u64, StoreError>;

    /// Writes a group atomically (all or nothing after a crash), not yet durable.
    ///
    /// # Errors
    /// The backend failed; nothing of the group may be acknowledged and the writer stops.
    fn write(&self, commit: &Commit) -> Result<Written, StoreError>;

    /// Makes every group written before this call durable, and visible to readers up to
    /// `position`. When this returns `Ok`, those records survive a power cut.
    ///
    /// # Errors
    /// The backend failed; nothing unsynced may be acknowledged and the writer stops.
    fn sync(&self, position: u64) -> Result<(), StoreError>;

    /// Called by the sync thread after it answered the appends of a sync: a backend does
    /// deferred work here, off the acknowledgement's path (the sled backend writes the index
    /// entries gathered since its last flush to its tree, about once a second).
    ///
    /// # Errors
    /// The backend failed; the log stops, as after a failed sync.
    fn tidy(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Called once the last group is synced, before the writer stops: a backend that keeps
    /// something besides what `sync` made durable (an index it can rebuild) writes it out here.
    ///
    /// # Errors
    /// The backend failed.
    fn checkpoint(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// At most this many events of one stream per group (`None`: no limit), for backends that
    /// store a stream's part of a group as one bounded atomic unit.
    fn max_stream_events_per_group(&self) -> Option<usize> {
        None
    }

    /// Whether the writer's own id filter (filled by [`Storage::for_each_id_hash`] and by its
    /// own appends) sees every stored id. A log shared with other writers says no, and the
    /// writer asks [`Storage::find_event_id`] for every id.
    fn id_filter_is_complete(&self) -> bool {
        true
    }

    /// Streams other writers appended to since the last call, with their newest seq: the
    /// writer drops what it cached of them. Empty for a backend with one writer.
    fn changed_elsewhere(&self) -> Vec<(StreamId, u64)> {
        Vec::new()
    }

    /// Offers the channel of committed events. A backend that follows its log itself (every
    /// writer's events, in log order) takes it and returns `true`; the sync thread then
    /// publishes nothing. Otherwise the sync thread publishes what this writer committed.
    fn feed_subscribers(&self, committed: &broadcast::Sender<Arc<Recorded>>) -> bool {
        let _ = committed;
        false
    }

    /// The schedule the readers use ([`Schedule`]), which the sequencer fills. A backend shared
    /// with other writers returns one it also feeds their tournament events into, from the
    /// moment it started following its log; with one writer, the sequencer's own is complete.
    fn schedule(&self) -> Arc<Schedule> {
        Arc::new(Schedule::default())
    }
}

/// Records of one read in the stored encoding, one run ([`ledger::envelope::push_stored`]):
/// for readers that pass records on without looking inside them (`ReadPages` to a client that
/// decodes the stored encoding itself).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredPage {
    pub run: Vec<u8>,
    /// How many records `run` holds.
    pub count: usize,
    /// The seq (a stream's read) or global position (the whole log's) of the last record.
    pub last: Option<u64>,
}

impl StoredPage {
    /// Appends one stored record, the `last`-th of its read.
    pub fn push(&mut self, record: &[u8], last: u64) {
        ledger::envelope::push_stored(&mut self.run, record);
        self.count += 1;
        self.last = Some(last);
    }

    /// The page of decoded `records`, each encoded again (for backends that hold no run to copy).
    pub fn encode(records: &[Recorded], last: impl Fn(&Recorded) -> u64) -> StoredPage {
        let mut page = StoredPage::default();
        for record in records {
            page.push(&ledger::envelope::encode_record(record), last(record));
        }
        page
    }
}

/// The read side: cheap to share between request handlers. Readers see only durable records.
pub trait Reader: Send + Sync + 'static {
    /// Up to `limit` records of a stream from `from_seq` on.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn read_stream(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<Vec<Recorded>, StoreError>;

    /// Up to `limit` records of the whole log from global position `from_position` on.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn read_all(&self, from_position: u64, limit: usize) -> Result<Vec<Recorded>, StoreError>;

    /// [`Reader::read_stream`] in the stored encoding. A backend that holds records so copies
    /// them, without decoding; the default encodes what `read_stream` decoded.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn read_stream_stored(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<StoredPage, StoreError> {
        Ok(StoredPage::encode(&self.read_stream(stream, from_seq, limit)?, |r| r.envelope.seq))
    }

    /// [`Reader::read_all`] in the stored encoding (see [`Reader::read_stream_stored`]).
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn read_all_stored(&self, from_position: u64, limit: usize) -> Result<StoredPage, StoreError> {
        Ok(StoredPage::encode(&self.read_all(from_position, limit)?, |r| r.envelope.position))
    }

    /// The global position of the newest durable event (0 for an empty log).
    ///
    /// # Errors
    /// The backend failed.
    fn last_position(&self) -> Result<u64, StoreError>;

    /// How many stored records are known to be damaged (they fail their checksums): readers
    /// get every other event, and a precise error for these.
    fn damaged(&self) -> u64 {
        0
    }

    /// Every stream with its version and chain head, in name order.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn streams(&self) -> Result<Vec<StreamInfo>, StoreError>;
}
