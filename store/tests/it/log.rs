//! The sled log end to end: durability across restarts, idempotent retries, optimistic
//! concurrency, atomic batches and gap-free subscriptions.

use crate::support::{self, game_events, hooked_log, Hooks};
use ledger::envelope::verify_chain;
use ledger::testing::{simple_tournament, simulate_game};
use ledger::{Event, RejectionKind, Ruleset, StreamId};
use ledger_store::sled::SledStorage;
use ledger_store::{AppendError, AppendRequest, Commit, Filter, Log, StoreError, Written};
use serde_json::json;
use std::sync::{Arc, Mutex};

/// An append as a jury member makes it (ids as in [`support::request`]), at `expected_version`
/// when given.
fn request(stream: &StreamId, events: Vec<Event>, ids: &str, expected_version: Option<u64>) -> AppendRequest {
    AppendRequest {
        expected_version,
        clearance: ledger::access::Clearance::Jury,
        ..support::request(stream, events, ids)
    }
}

fn rejection(result: Result<ledger_store::Appended, AppendError>) -> ledger::Rejection {
    match result {
        Err(AppendError::Rejected(r)) => r,
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[tokio::test]
async fn appends_read_back_and_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let game = StreamId::game("g1").unwrap();
    {
        let log = Log::open_sled(dir.path()).unwrap();
        let first = log.append(request(&game, game_events(3), "a", Some(0))).await.unwrap();
        assert_eq!((first.first_seq, first.last_seq, first.first_position, first.last_position), (1, 4, 1, 4));
        let more =
            log.append(request(&game, vec![Event::TurnStarted { turn: 4, at_ms: None }], "b", Some(4))).await.unwrap();
        assert_eq!((more.first_seq, more.first_position), (5, 5));
        log.close();
    }
    let log = Log::open_sled(dir.path()).unwrap();
    let records = log.read_stream(&game, 1, usize::MAX).unwrap();
    assert_eq!(records.len(), 5);
    let head = verify_chain(&records).unwrap().unwrap();
    let info = &log.streams().unwrap()[0];
    assert_eq!((info.version, info.head_hash), (5, head));
    // The rules state was rebuilt from storage: turn 4 was the last one.
    let refused =
        rejection(log.append(request(&game, vec![Event::TurnStarted { turn: 4, at_ms: None }], "c", None)).await);
    assert_eq!(refused.message, "turn_started 4 repeats a turn: turn 5 comes next");
    let next = log.append(request(&game, vec![Event::TurnStarted { turn: 5, at_ms: None }], "c", None)).await.unwrap();
    assert_eq!((next.first_seq, next.first_position), (6, 6));
    assert_eq!(log.read_stream(&game, 6, 10).unwrap()[0].envelope.prev_hash, head);
}

#[tokio::test]
async fn a_retry_returns_the_first_result_and_appends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let log = Log::open_sled(dir.path()).unwrap();
    let game = StreamId::game("g1").unwrap();
    let first = log.append(request(&game, game_events(2), "x", None)).await.unwrap();
    let retry = log.append(request(&game, game_events(2), "x", None)).await.unwrap();
    assert!(retry.duplicate && !first.duplicate);
    assert_eq!((retry.first_seq, retry.last_seq, retry.head_hash), (first.first_seq, first.last_seq, first.head_hash));
    assert_eq!(log.read_all(1, 100).unwrap().len(), 3);
    // The same id for another event is refused.
    let reused =
        rejection(log.append(request(&game, vec![Event::TurnStarted { turn: 3, at_ms: None }], "x", None)).await);
    assert_eq!(reused.kind, RejectionKind::DuplicateId);
    assert_eq!(reused.message, "event id x-0 was already used for event 1 of game/g1 (game_started)");
}

#[tokio::test]
async fn two_writers_with_the_same_expected_version_one_wins() {
    let dir = tempfile::tempdir().unwrap();
    let log = Arc::new(Log::open_sled(dir.path()).unwrap());
    let game = StreamId::game("g1").unwrap();
    log.append(request(&game, game_events(1), "", Some(0))).await.unwrap();
    let writer = |id: &'static str| {
        let (log, game) = (Arc::clone(&log), game.clone());
        tokio::spawn(async move {
            log.append(request(&game, vec![Event::TcDealt { nation: ledger::Nation::Prussia, count: 2 }], id, Some(2)))
                .await
        })
    };
    let (a, b) = (writer("a"), writer("b"));
    let results = [a.await.unwrap(), b.await.unwrap()];
    let wins = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(wins, 1, "{results:?}");
    let loser = results.into_iter().find(Result::is_err).unwrap();
    let refused = rejection(loser);
    assert_eq!(refused.kind, RejectionKind::StaleVersion);
    assert_eq!(refused.message, "expected game/g1 at version 2, but it is at version 3: re-read and retry");
}

#[tokio::test]
async fn a_refused_batch_appends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let log = Log::open_sled(dir.path()).unwrap();
    let game = StreamId::game("g1").unwrap();
    let mut events = game_events(2);
    events.push(Event::TurnStarted { turn: 7, at_ms: None });
    let refused = rejection(log.append(request(&game, events, "b", None)).await);
    assert_eq!(refused.message, "event 4 of 4: turn_started 7 skips a turn: turn 3 comes next");
    assert!(log.read_all(1, 10).unwrap().is_empty());
    assert!(log.streams().unwrap().is_empty());
    // Nothing was consumed either: the next append starts at position 1 and the ids are free.
    let ok = log.append(request(&game, game_events(2), "b", None)).await.unwrap();
    assert_eq!(ok.first_position, 1);
}

#[tokio::test]
async fn a_game_scheduled_by_a_tournament_takes_its_ruleset() {
    let dir = tempfile::tempdir().unwrap();
    let game = StreamId::game("q1-t1").unwrap();
    {
        let log = Log::open_sled(dir.path()).unwrap();
        let tournament = StreamId::tournament("open").unwrap();
        assert!(log.tournaments().is_empty() && log.tournaments_of("q1-t1").unwrap().is_empty());
        log.append(request(&tournament, simple_tournament(Ruleset::Cafe2019, 8), "t", None)).await.unwrap();
        log.append(request(&game, vec![Event::GameStarted { at_ms: 0, ruleset: None, tournament: None }], "", None))
            .await
            .unwrap();
        // The readers learn the schedule with the append…
        assert_eq!(
            (log.tournaments(), log.tournaments_of("q1-t1").unwrap()),
            (vec![tournament.clone()], vec![tournament])
        );
    }
    // After a restart the ruleset is learned again from the stored tournament, and so is the
    // schedule the readers use; a game no tournament names has none.
    let log = Log::open_sled(dir.path()).unwrap();
    let tournament = StreamId::tournament("open").unwrap();
    assert_eq!((log.tournaments(), log.tournaments_of("q1-t1").unwrap()), (vec![tournament.clone()], vec![tournament]));
    assert!(log.tournaments_of("friendly").unwrap().is_empty());
    log.append(request(&game, vec![Event::TurnStarted { turn: 1, at_ms: None }], "", None)).await.unwrap();
    let low_card = rejection(
        log.append(request(&game, vec![Event::OffensiveLaunched { set_aside_tc: 7, turn: None }], "", None)).await,
    );
    assert!(low_card.message.starts_with("cafe2019:"), "{}", low_card.message);
}

#[tokio::test]
async fn subscriptions_pass_from_catch_up_to_live_without_gap_or_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let log = Arc::new(Log::open_sled(dir.path()).unwrap());
    let events = simulate_game(Ruleset::Wm2015, &(0..400).map(|i| i * 7919 % 100_000).collect::<Vec<u32>>());
    assert!(events.len() > 60, "the simulated game is long enough");
    let (early, late) = events.split_at(events.len() / 2);
    let game = StreamId::game("g").unwrap();
    for (i, event) in early.iter().enumerate() {
        log.append(request(&game, vec![event.clone()], &format!("e{i}"), None)).await.unwrap();
    }
    let mut stream_sub = log.subscribe(Filter::Stream(game.clone()), 1);
    let mut all_sub = log.subscribe(Filter::All, 1);
    let writer = {
        let (log, game, late) = (Arc::clone(&log), game.clone(), late.to_vec());
        tokio::spawn(async move {
            for (i, event) in late.into_iter().enumerate() {
                log.append(request(&game, vec![event], &format!("l{i}"), None)).await.unwrap();
            }
        })
    };
    for expected in 1..=events.len() as u64 {
        let by_stream = stream_sub.recv().await.unwrap().unwrap();
        let by_all = all_sub.recv().await.unwrap().unwrap();
        assert_eq!(by_stream.envelope.seq, expected);
        assert_eq!(by_all.envelope.position, expected);
        assert_eq!(by_stream.event, events[usize::try_from(expected).unwrap() - 1]);
    }
    writer.await.unwrap();
    assert!(stream_sub.try_recv().is_err(), "nothing more than the stream holds");
}

#[test]
fn storage_format_v1_still_decodes() {
    // A record written by version 1 of the storage format; never regenerate this sample.
    let sample = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/samples/record-v1.hex")).trim();
    let record = ledger::envelope::decode_record(&hex::decode(sample).unwrap()).unwrap();
    assert_eq!(record.envelope.stream.to_string(), "game/sample");
    assert_eq!(
        ledger::event::to_canonical_json(&record.event),
        json!({"type": "nation_dropped_out", "nation": "russia", "objectives_held": 7, "objectives_total": 10, "turn": 11})
    );
    assert_eq!(record.recomputed_hash(), record.envelope.hash);
    // The chain hash of this record, from its canonical JSON: pinned, so the scheme cannot drift.
    assert_eq!(hex::encode(record.envelope.hash), "e55615e7ecefd6ae71aa2e8a31f6a26701542f4678df42d522540f69008f4b2d");
}

/// Where the disk fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    None,
    Write,
    Sync,
}

/// A disk that fails where the test says, to see the writer stop.
struct FailingDisk(Arc<Mutex<Failure>>);

impl FailingDisk {
    fn fails(&self, at: Failure) -> Result<(), StoreError> {
        if *self.0.lock().unwrap() == at {
            return Err(StoreError::Io("fdatasync: Input/output error".into()));
        }
        Ok(())
    }
}

impl Hooks for FailingDisk {
    fn write(&self, _sled: &SledStorage, _commit: &Commit) -> Option<Result<Written, StoreError>> {
        self.fails(Failure::Write).err().map(Err)
    }
    fn sync(&self) -> Result<(), StoreError> {
        self.fails(Failure::Sync)
    }
}

async fn a_failure_stops_the_log_until_a_restart(at: Failure) {
    let dir = tempfile::tempdir().unwrap();
    let game = StreamId::game("g").unwrap();
    let t2 = || request(&game, vec![Event::TurnStarted { turn: 2, at_ms: None }], "t2", None);
    {
        let failing = Arc::new(Mutex::new(Failure::None));
        let log = hooked_log(dir.path(), FailingDisk(Arc::clone(&failing)), Default::default());
        log.append(request(&game, game_events(1), "ok", None)).await.unwrap();
        *failing.lock().unwrap() = at;
        let failed = log.append(t2()).await;
        assert!(matches!(failed, Err(AppendError::Storage(_))), "{failed:?}");
        assert_eq!(log.read_stream(&game, 1, 100).unwrap().len(), 2, "readers never see an unsynced event");
        assert!(log.stats().stopped);
        // The disk works again, but nothing more is taken: its state after the failure is unknown.
        *failing.lock().unwrap() = Failure::None;
        let retried = log.append(t2()).await;
        let Err(AppendError::Storage(error)) = retried else { panic!("{retried:?}") };
        assert!(error.to_string().contains("restart ledgerd"), "{error}");
        log.close();
    }
    let log = Log::open_sled(dir.path()).unwrap();
    let stored = log.read_stream(&game, 1, 100).unwrap().len();
    let again = log.append(t2()).await.unwrap();
    match at {
        // Nothing reached sled.
        Failure::Write => assert_eq!((stored, again.duplicate, again.first_seq), (2, false, 3)),
        // The unsynced write may or may not have reached the disk; either way the retry stores
        // turn 2 exactly once.
        _ => assert_eq!(again.first_seq, 3, "stored before the retry: {stored}"),
    }
    assert_eq!(log.read_stream(&game, 1, 100).unwrap().len(), 3);
}

#[tokio::test]
async fn a_failed_write_stops_the_log_until_a_restart() {
    a_failure_stops_the_log_until_a_restart(Failure::Write).await;
}

#[tokio::test]
async fn a_failed_sync_stops_the_log_until_a_restart() {
    a_failure_stops_the_log_until_a_restart(Failure::Sync).await;
}

/// An Andes match in one append: the writer appends the events the rules derive from each move
/// right after it, a retry (in the same process or after a restart) answers as the first append
/// did, and the reloaded stream goes on from its snapshot.
#[tokio::test]
async fn the_writer_appends_what_andes_moves_derive_and_a_retry_answers_as_the_first_append() {
    let full = ledger::andes::testing::seeded_match(1, 120);
    let sent: Vec<Event> = full.iter().filter(|e| !e.is_derived()).cloned().map(Event::Andes).collect();
    assert!(sent.len() < full.len(), "the match has derived events");
    let (head, rest) = sent.split_at(sent.len() - 1);
    let stream = StreamId::andes("m1").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let first = {
        let log = Log::open_sled(dir.path()).unwrap();
        let first = log.append(request(&stream, head.to_vec(), "m", Some(0))).await.unwrap();
        let again = log.append(request(&stream, head.to_vec(), "m", Some(0))).await.unwrap();
        assert!(again.duplicate);
        assert_eq!(
            (again.first_seq, again.last_seq, again.head_hash),
            (first.first_seq, first.last_seq, first.head_hash)
        );
        log.close();
        first
    };
    let log = Log::open_sled(dir.path()).unwrap();
    let again = log.append(request(&stream, head.to_vec(), "m", None)).await.unwrap();
    assert_eq!((again.last_seq, again.head_hash, again.duplicate), (first.last_seq, first.head_hash, true));
    // A derived event from a client is refused; the stream goes on from its snapshot.
    let derived = full.iter().find(|e| e.is_derived()).cloned().map(Event::Andes).unwrap();
    let refused = rejection(log.append(request(&stream, vec![derived], "", None)).await);
    assert_eq!(refused.kind, RejectionKind::Malformed);
    log.append(request(&stream, rest.to_vec(), "end", None)).await.unwrap();
    let records = log.read_stream(&stream, 1, usize::MAX).unwrap();
    verify_chain(&records).unwrap();
    let stored: Vec<Event> = records.into_iter().map(|r| r.event).collect();
    assert_eq!(stored, full.into_iter().map(Event::Andes).collect::<Vec<_>>());
}
