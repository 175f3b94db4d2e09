//! A log shared with other writers (the JetStream backend): when another writer appended to a
//! stream first, the backend reports a conflict and stores nothing of that stream; the writer
//! reloads the stream and decides the raced appends again, on what the other writer stored. A
//! refusal decided on the stale state is decided again too; an append that keeps losing is
//! answered ABORTED.
//!
//! The other writer is simulated here over sled, deterministically: before the writer's write
//! touches the stream, a rival stores its own event on the stream's head.

use ledger::envelope::{encode_record, Draft};
use ledger::{Event, Recorded, RejectionKind, Ruleset, StreamId};
use ledger_store::sled::SledStorage;
use ledger_store::{
    AppendError, AppendRequest, Commit, HeadUpdate, Log, NoCrossCheck, ProposedEvent, Sealed, Storage, StoreError,
    StoredHead, Written,
};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// Sled with a rival writer who wins the next `wins` writes to the stream, each time storing
/// `turn_started` for the turn after the last one it stored.
struct Rival {
    inner: SledStorage,
    wins: Arc<AtomicU32>,
    next_turn: u32,
    turns: AtomicU32,
}

impl Rival {
    fn store_rivals_event(&self, stream: &StreamId) -> Result<(), StoreError> {
        let head = self.inner.load_head(stream)?.expect("the stream was started");
        let draft = Draft {
            stream: stream.clone(),
            seq: head.version + 1,
            position: self.inner.next_position()?,
            event_id: format!("rival-{}", head.version + 1),
            recorded_at_ms: 0,
            actor: "rival".into(),
        };
        let turn = self.next_turn + self.turns.fetch_add(1, Ordering::SeqCst);
        let record = Recorded::seal(draft, head.hash, Event::TurnStarted { turn, at_ms: None });
        let bytes = encode_record(&record);
        let head = StoredHead { version: record.envelope.seq, hash: record.envelope.hash, snapshot: None };
        let commit = Commit {
            records: vec![Sealed { record: Arc::new(record), bytes }],
            heads: vec![HeadUpdate { stream: stream.clone(), head }],
        };
        self.inner.write(&commit)?;
        self.inner.sync(commit.last_position().expect("one record"))
    }
}

impl Storage for Rival {
    fn load_head(&self, stream: &StreamId) -> Result<Option<StoredHead>, StoreError> {
        self.inner.load_head(stream)
    }
    fn load_events(&self, stream: &StreamId) -> Result<Vec<Recorded>, StoreError> {
        self.inner.load_events(stream)
    }
    fn find_event_id(&self, event_id: &str) -> Result<Option<Recorded>, StoreError> {
        self.inner.find_event_id(event_id)
    }
    fn for_each_id_hash(&self, each: &mut dyn FnMut(u64)) -> Result<(), StoreError> {
        self.inner.for_each_id_hash(each)
    }
    fn next_position(&self) -> Result<u64, StoreError> {
        self.inner.next_position()
    }
    fn write(&self, commit: &Commit) -> Result<Written, StoreError> {
        let stream = commit.records[0].record.envelope.stream.clone();
        if self.wins.load(Ordering::SeqCst) > 0 {
            self.wins.fetch_sub(1, Ordering::SeqCst);
            self.store_rivals_event(&stream)?;
            return Ok(Written { positions: None, conflicts: vec![stream] });
        }
        self.inner.write(commit)
    }
    fn sync(&self, position: u64) -> Result<(), StoreError> {
        self.inner.sync(position)
    }
    fn tidy(&self) -> Result<(), StoreError> {
        self.inner.tidy()
    }
    fn checkpoint(&self) -> Result<(), StoreError> {
        self.inner.checkpoint()
    }
}

/// A log whose game `g` is started and at turn 1, and the number of writes the rival will win
/// from now on (none yet); the rival's first turn is 2.
async fn started(dir: &std::path::Path) -> (Log, StreamId, Arc<AtomicU32>) {
    let inner = SledStorage::open(dir).unwrap();
    let wins = Arc::new(AtomicU32::new(0));
    let rival = Rival { inner: inner.clone(), wins: Arc::clone(&wins), next_turn: 2, turns: AtomicU32::new(0) };
    let log =
        Log::start(rival, inner, &[], "rival", Arc::new(NoCrossCheck), ledger_store::WriterConfig::default()).unwrap();
    let stream = StreamId::game("g").unwrap();
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    log.append(append(&stream, start, "start")).await.unwrap();
    log.append(append(&stream, Event::TurnStarted { turn: 1, at_ms: None }, "turn-1")).await.unwrap();
    (log, stream, wins)
}

fn append(stream: &StreamId, event: Event, id: &str) -> AppendRequest {
    AppendRequest {
        stream: stream.clone(),
        events: vec![ProposedEvent { event_id: id.into(), event }],
        expected_version: None,
        actor: "table-7".into(),
        clearance: ledger::access::Clearance::Table,
    }
}

fn turns(log: &Log, stream: &StreamId) -> Vec<(String, Event)> {
    let records = log.read_stream(stream, 1, 100).unwrap();
    ledger::envelope::verify_chain(&records).expect("one unbroken chain");
    records.into_iter().map(|r| (r.envelope.event_id, r.event)).collect()
}

fn tc() -> Event {
    Event::TcDealt { nation: ledger::Nation::Prussia, count: 3 }
}

#[tokio::test]
async fn an_append_that_lost_the_race_is_decided_again_on_the_winners_event() {
    let dir = tempfile::tempdir().unwrap();
    let (log, stream, wins) = started(dir.path()).await;
    wins.store(1, Ordering::SeqCst);
    // Decided at version 2, it lost to the rival's turn 2; decided again at version 3.
    let appended = log.append(append(&stream, tc(), "ours")).await.unwrap();
    assert_eq!((appended.first_seq, appended.first_position), (4, 4));
    let ids: Vec<String> = turns(&log, &stream).into_iter().map(|(id, _)| id).collect();
    assert_eq!(ids, ["start", "turn-1", "rival-3", "ours"]);
    assert_eq!(log.stats().appends_raced, 1);
}

#[tokio::test]
async fn an_append_the_winner_made_pointless_is_refused_by_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let (log, stream, wins) = started(dir.path()).await;
    wins.store(1, Ordering::SeqCst);
    let refused = log.append(append(&stream, Event::TurnStarted { turn: 2, at_ms: None }, "ours")).await.unwrap_err();
    let AppendError::Rejected(rejection) = refused else { panic!("{refused:?}") };
    assert_eq!(rejection.kind, RejectionKind::Precondition, "{rejection}");
    assert_eq!(turns(&log, &stream).len(), 3, "the rival's turn 2 only");
    assert_eq!((log.stats().appends_raced, log.stats().appends_refused), (1, 1));
}

#[tokio::test]
async fn an_append_that_keeps_losing_is_aborted_with_a_reason_and_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (log, stream, wins) = started(dir.path()).await;
    wins.store(100, Ordering::SeqCst);
    let aborted = log.append(append(&stream, tc(), "ours")).await;
    let Err(AppendError::Rejected(rejection)) = aborted else { panic!("{aborted:?}") };
    assert_eq!(rejection.kind, RejectionKind::StaleVersion);
    assert_eq!(rejection.message, "other writers kept appending to game/g at the same time: re-read and retry");
    let stored = turns(&log, &stream);
    assert!(stored.iter().all(|(id, _)| id != "ours"));
    assert_eq!(stored.len(), 2 + 8, "the rival won all eight attempts");
}
