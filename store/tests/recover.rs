//! Opening after a stop that left frames unindexed and one half written: the whole frames are
//! indexed again, the half-written one is kept aside and cut off, and the writer goes on where
//! the records end.

use ledger::envelope::{encode_record, verify_chain, Draft};
use ledger::{Event, Recorded, Ruleset, StreamId};
use ledger_store::sled::{frames, RECORDS_FILE};
use ledger_store::{AppendError, AppendRequest, Log, ProposedEvent};
use std::os::unix::fs::FileExt;

fn request(stream: &StreamId, event_id: &str, events: Vec<Event>) -> AppendRequest {
    AppendRequest {
        stream: stream.clone(),
        events: events
            .into_iter()
            .enumerate()
            .map(|(i, event)| ProposedEvent { event_id: format!("{event_id}-{i}"), event })
            .collect(),
        expected_version: None,
        actor: "table-1".into(),
        clearance: ledger::access::Clearance::Table,
    }
}

fn turn(turn: u32) -> Event {
    Event::TurnStarted { turn, at_ms: None }
}

#[tokio::test]
async fn unindexed_frames_are_indexed_again_and_a_torn_one_is_kept_aside() {
    let dir = tempfile::tempdir().unwrap();
    let game = StreamId::game("g").unwrap();
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Wm2015), tournament: None };
    let last = {
        let log = Log::open_sled(dir.path()).unwrap();
        log.append(request(&game, "opening", vec![start, turn(1), turn(2), turn(3)])).await.unwrap();
        let last = log.read_stream(&game, 4, 1).unwrap().remove(0);
        log.close();
        last
    };
    // What a stop can leave: two whole frames the index never saw (turns 4 and 5), then the
    // start of a third (turn 6).
    let sealed = |seq: u64, prev, event| {
        let draft = Draft {
            stream: game.clone(),
            seq,
            position: seq,
            event_id: format!("lost-{seq}-0"),
            recorded_at_ms: 1_700_000_000_000,
            actor: "table-1".into(),
        };
        Recorded::seal(draft, prev, event)
    };
    let fifth = sealed(5, last.envelope.hash, turn(4));
    let sixth = sealed(6, fifth.envelope.hash, turn(5));
    let seventh = sealed(7, sixth.envelope.hash, turn(6));
    let file = std::fs::OpenOptions::new().write(true).open(dir.path().join(RECORDS_FILE)).unwrap();
    let mut end = file.metadata().unwrap().len();
    for record in [&fifth, &sixth] {
        let frame = frames::encode(record.envelope.position, 0, [encode_record(record).as_slice()]);
        file.write_all_at(&frame, end).unwrap();
        end += frame.len() as u64;
    }
    let torn = &frames::encode(7, 0, [encode_record(&seventh).as_slice()])[..60];
    file.write_all_at(torn, end).unwrap();
    drop(file);

    let log = Log::open_sled(dir.path()).unwrap();
    let records = log.read_stream(&game, 1, usize::MAX).unwrap();
    assert_eq!(records.len(), 6, "the two whole frames are read");
    assert_eq!(records[4..], [fifth.clone(), sixth.clone()]);
    let head = verify_chain(&records).unwrap().unwrap();
    let info = &log.streams().unwrap()[0];
    assert_eq!((info.version, info.head_hash), (6, head));
    assert_eq!(log.read_all(5, 10).unwrap(), [fifth, sixth]);
    assert_eq!(std::fs::metadata(dir.path().join(RECORDS_FILE)).unwrap().len(), end, "the torn frame is cut off");
    assert_eq!(std::fs::read(dir.path().join(format!("torn-{end}"))).unwrap(), torn, "and kept aside");

    // Ids of recovered records are known; the rules state is replayed from the records.
    let retry = log.append(request(&game, "lost-5", vec![turn(4)])).await.unwrap();
    assert_eq!((retry.duplicate, retry.first_seq), (true, 5));
    let stale = log.append(request(&game, "again", vec![turn(5)])).await;
    assert!(matches!(stale, Err(AppendError::Rejected(_))), "turn 5 was already started: {stale:?}");
    let next = log.append(request(&game, "next", vec![turn(6)])).await.unwrap();
    assert_eq!((next.first_seq, next.first_position), (7, 7));
    log.close();
    drop(log);

    // And once more, cleanly: nothing is indexed twice or lost.
    let log = Log::open_sled(dir.path()).unwrap();
    let records = log.read_stream(&game, 1, usize::MAX).unwrap();
    assert_eq!(records.len(), 7);
    verify_chain(&records).unwrap();
    assert_eq!(log.read_all(1, usize::MAX).unwrap(), records);
}
