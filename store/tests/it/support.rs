//! What the store's tests share: the appends they make, the records earlier layouts or lost
//! writes left, sled opened raw on a log's directory, and a log whose writer reaches sled
//! through a test's hooks (a failing disk, a counting reader, a rival writer).

use ledger::envelope::Draft;
use ledger::{Event, Recorded, Ruleset, StreamId};
use ledger_store::sled::SledStorage;
use ledger_store::{
    AppendRequest, Commit, Log, NoCrossCheck, ProposedEvent, Storage, StoreError, StoredHead, WriterConfig, Written,
};
use std::path::Path;
use std::sync::Arc;

/// An append of `events` to `stream` by table 1 with a table's clearance, at whatever version
/// the stream is: event `i` has the id `{ids}-{i}`, or none when `ids` is empty. A test that
/// needs more says so: `AppendRequest { expected_version: Some(0), ..request(…) }`.
pub fn request(stream: &StreamId, events: Vec<Event>, ids: &str) -> AppendRequest {
    AppendRequest {
        stream: stream.clone(),
        events: events
            .into_iter()
            .enumerate()
            .map(|(i, event)| ProposedEvent {
                event_id: if ids.is_empty() { String::new() } else { format!("{ids}-{i}") },
                event,
            })
            .collect(),
        expected_version: None,
        actor: "table-1".into(),
        clearance: ledger::access::Clearance::Table,
    }
}

/// An append of one event with exactly the id `event_id`, as [`request`] makes it.
pub fn single(stream: &StreamId, event: Event, event_id: &str) -> AppendRequest {
    AppendRequest {
        events: vec![ProposedEvent { event_id: event_id.into(), event }],
        ..request(stream, Vec::new(), "")
    }
}

/// A Café 2023 game started and played to turn `turns` (`ledger::testing::started_game`).
pub fn game_events(turns: u32) -> Vec<Event> {
    ledger::testing::started_game(Some(Ruleset::Cafe2023), turns)
        .iter()
        .map(|v| ledger::event::from_canonical_json(v).unwrap())
        .collect()
}

/// Event `seq` of `stream` at `position`, chained to `prev`, as the writer would have sealed it
/// for table 1: for records a test writes past the writer (an earlier layout, a lost write).
pub fn sealed(
    stream: &StreamId,
    seq: u64,
    position: u64,
    event_id: String,
    prev: ledger::Hash,
    event: Event,
) -> Recorded {
    let draft = Draft {
        stream: stream.clone(),
        seq,
        position,
        event_id,
        recorded_at_ms: 1_700_000_000_000 + position,
        actor: "table-1".into(),
    };
    Recorded::seal(draft, prev, event)
}

/// sled itself on a log's directory. A closed log's last sled handle may still be dropping on
/// one of sled's I/O threads for a moment, holding the directory's lock: wait for it.
pub fn open_raw(dir: &Path) -> sled::Db {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match sled::Config::new().path(dir).segment_size(8 * 1024 * 1024).open() {
            Ok(db) => return db,
            Err(e) if e.to_string().contains("lock") && std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Err(e) => panic!("cannot open {}: {e}", dir.display()),
        }
    }
}

/// What a test does around the writer's calls to sled: watch them, fail them, or answer a
/// write in sled's place. Each does nothing unless the test says otherwise.
pub trait Hooks: Send + Sync + 'static {
    /// Before the writer reads a stream's events.
    fn load_events(&self, _stream: &StreamId) {}

    /// Before a write: `Some` is the answer, and sled is not asked.
    fn write(&self, _sled: &SledStorage, _commit: &Commit) -> Option<Result<Written, StoreError>> {
        None
    }

    /// Before a sync: an error is the answer, and sled is not asked.
    fn sync(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// A log on `dir` whose writer reaches sled through `hooks`; its readers read sled directly.
pub fn hooked_log(dir: &Path, hooks: impl Hooks, config: WriterConfig) -> Log {
    let sled = SledStorage::open(dir).unwrap();
    let storage = Hooked { sled: sled.clone(), hooks };
    Log::start(storage, sled, &[], "sled-hooked", Arc::new(NoCrossCheck), config).unwrap()
}

/// sled under the writer, with a test's [`Hooks`].
struct Hooked<H> {
    sled: SledStorage,
    hooks: H,
}

impl<H: Hooks> Storage for Hooked<H> {
    fn load_head(&self, stream: &StreamId) -> Result<Option<StoredHead>, StoreError> {
        self.sled.load_head(stream)
    }
    fn load_events(&self, stream: &StreamId) -> Result<Vec<Recorded>, StoreError> {
        self.hooks.load_events(stream);
        self.sled.load_events(stream)
    }
    fn find_event_id(&self, event_id: &str) -> Result<Option<Recorded>, StoreError> {
        self.sled.find_event_id(event_id)
    }
    fn for_each_id_hash(&self, each: &mut dyn FnMut(u64)) -> Result<(), StoreError> {
        self.sled.for_each_id_hash(each)
    }
    fn next_position(&self) -> Result<u64, StoreError> {
        self.sled.next_position()
    }
    fn write(&self, commit: &Commit) -> Result<Written, StoreError> {
        self.hooks.write(&self.sled, commit).unwrap_or_else(|| self.sled.write(commit))
    }
    fn sync(&self, position: u64) -> Result<(), StoreError> {
        self.hooks.sync()?;
        self.sled.sync(position)
    }
    fn tidy(&self) -> Result<(), StoreError> {
        self.sled.tidy()
    }
    fn checkpoint(&self) -> Result<(), StoreError> {
        self.sled.checkpoint()
    }
}
