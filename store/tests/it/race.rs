//! A log shared with other writers (the JetStream backend): when another writer appended to a
//! stream first, the backend reports a conflict and stores nothing of that stream; the writer
//! reloads the stream and decides the raced appends again, on what the other writer stored. A
//! refusal decided on the stale state is decided again too; an append that keeps losing is
//! answered ABORTED.
//!
//! The other writer is simulated here over sled, deterministically: before the writer's write
//! touches the stream, a rival stores its own event on the stream's head.

use crate::support::{hooked_log, single, Hooks};
use ledger::envelope::{encode_record, Draft};
use ledger::{Event, Recorded, RejectionKind, Ruleset, StreamId};
use ledger_store::sled::SledStorage;
use ledger_store::{AppendError, Commit, HeadUpdate, Log, Sealed, Storage, StoreError, StoredHead, Written};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// A rival writer who wins the next `wins` writes to the stream, each time storing
/// `turn_started` for the turn after the last one it stored.
struct Rival {
    wins: Arc<AtomicU32>,
    next_turn: u32,
    turns: AtomicU32,
}

impl Rival {
    fn store_rivals_event(&self, sled: &SledStorage, stream: &StreamId) -> Result<(), StoreError> {
        let head = sled.load_head(stream)?.expect("the stream was started");
        let draft = Draft {
            stream: stream.clone(),
            seq: head.version + 1,
            position: sled.next_position()?,
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
        sled.write(&commit)?;
        sled.sync(commit.last_position().expect("one record"))
    }
}

impl Hooks for Rival {
    /// While the rival still wins, it stores its event first, and the write is a conflict.
    fn write(&self, sled: &SledStorage, commit: &Commit) -> Option<Result<Written, StoreError>> {
        if self.wins.load(Ordering::SeqCst) == 0 {
            return None;
        }
        self.wins.fetch_sub(1, Ordering::SeqCst);
        let stream = commit.records[0].record.envelope.stream.clone();
        Some(self.store_rivals_event(sled, &stream).map(|()| Written { positions: None, conflicts: vec![stream] }))
    }
}

/// A log whose game `g` is started and at turn 1, and the number of writes the rival will win
/// from now on (none yet); the rival's first turn is 2.
async fn started(dir: &std::path::Path) -> (Log, StreamId, Arc<AtomicU32>) {
    let wins = Arc::new(AtomicU32::new(0));
    let rival = Rival { wins: Arc::clone(&wins), next_turn: 2, turns: AtomicU32::new(0) };
    let log = hooked_log(dir, rival, ledger_store::WriterConfig::default());
    let stream = StreamId::game("g").unwrap();
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    log.append(single(&stream, start, "start")).await.unwrap();
    log.append(single(&stream, Event::TurnStarted { turn: 1, at_ms: None }, "turn-1")).await.unwrap();
    (log, stream, wins)
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
    let appended = log.append(single(&stream, tc(), "ours")).await.unwrap();
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
    let refused = log.append(single(&stream, Event::TurnStarted { turn: 2, at_ms: None }, "ours")).await.unwrap_err();
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
    let aborted = log.append(single(&stream, tc(), "ours")).await;
    let Err(AppendError::Rejected(rejection)) = aborted else { panic!("{aborted:?}") };
    assert_eq!(rejection.kind, RejectionKind::StaleVersion);
    assert_eq!(rejection.message, "other writers kept appending to game/g at the same time: re-read and retry");
    let stored = turns(&log, &stream);
    assert!(stored.iter().all(|(id, _)| id != "ours"));
    assert_eq!(stored.len(), 2 + 8, "the rival won all eight attempts");
}
