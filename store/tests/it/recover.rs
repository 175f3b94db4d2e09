//! Opening after a stop that left frames unindexed and one half written: the whole frames are
//! indexed again, the half-written one is kept aside and cut off, and the writer goes on where
//! the records end.

use crate::support::{request, sealed};
use ledger::envelope::{encode_record, verify_chain};
use ledger::{Event, Ruleset, StreamId};
use ledger_store::sled::{frames, RECORDS_FILE};
use ledger_store::{AppendError, Log};
use std::os::unix::fs::FileExt;

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
        log.append(request(&game, vec![start, turn(1), turn(2), turn(3)], "opening")).await.unwrap();
        let last = log.read_stream(&game, 4, 1).unwrap().remove(0);
        log.close();
        last
    };
    // What a stop can leave: two whole frames the index never saw (turns 4 and 5), then the
    // start of a third (turn 6).
    let lost = |seq: u64, prev, event| sealed(&game, seq, seq, format!("lost-{seq}-0"), prev, event);
    let fifth = lost(5, last.envelope.hash, turn(4));
    let sixth = lost(6, fifth.envelope.hash, turn(5));
    let seventh = lost(7, sixth.envelope.hash, turn(6));
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
    let retry = log.append(request(&game, vec![turn(4)], "lost-5")).await.unwrap();
    assert_eq!((retry.duplicate, retry.first_seq), (true, 5));
    let stale = log.append(request(&game, vec![turn(5)], "again")).await;
    assert!(matches!(stale, Err(AppendError::Rejected(_))), "turn 5 was already started: {stale:?}");
    let next = log.append(request(&game, vec![turn(6)], "next")).await.unwrap();
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

/// Frames the index does not cover yet, the first of them damaged: when a later frame says the
/// file was durable past it, it was acknowledged, so it is never cut; the log refuses to serve
/// until it is repaired, and after the repair every frame is there. When no later frame says so,
/// it is a torn write, and it is cut off with everything after it.
#[tokio::test]
async fn a_damaged_frame_that_later_frames_vouch_for_is_never_cut_as_a_torn_one() {
    let game = StreamId::game("g").unwrap();
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Wm2015), tournament: None };
    for vouched in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let last = {
            let log = Log::open_sled(dir.path()).unwrap();
            log.append(request(&game, vec![start.clone(), turn(1)], "opening")).await.unwrap();
            let last = log.read_stream(&game, 2, 1).unwrap().remove(0);
            log.close();
            last
        };
        let (mut prev, mut records) = (last.envelope.hash, Vec::new());
        for seq in 3..=5u64 {
            let record = sealed(&game, seq, seq, format!("later-{seq}-0"), prev, turn(u32::try_from(seq).unwrap() - 1));
            prev = record.envelope.hash;
            records.push(record);
        }
        let file = std::fs::OpenOptions::new().read(true).write(true).open(dir.path().join(RECORDS_FILE)).unwrap();
        let start_of_third = file.metadata().unwrap().len();
        let mut end = start_of_third;
        for (i, record) in records.iter().enumerate() {
            // The later frames say the file was durable past the third one's end, or not.
            let durable_before = if vouched && i > 0 { end } else { start_of_third };
            let frame = frames::encode(record.envelope.position, durable_before, [encode_record(record).as_slice()]);
            file.write_all_at(&frame, end).unwrap();
            end += frame.len() as u64;
        }
        // One bit of the third event's record (past its frame's 48-byte header).
        let mut byte = [0u8];
        file.read_exact_at(&mut byte, start_of_third + 60).unwrap();
        file.write_all_at(&[byte[0] ^ 0x10], start_of_third + 60).unwrap();
        drop(file);

        if !vouched {
            let log = Log::open_sled(dir.path()).unwrap();
            assert_eq!(log.read_stream(&game, 1, usize::MAX).unwrap().len(), 2, "the torn frames are cut");
            assert_eq!(std::fs::metadata(dir.path().join(RECORDS_FILE)).unwrap().len(), start_of_third);
            continue;
        }
        let refused = Log::open_sled(dir.path()).err().expect("a damaged acknowledged frame is not served past");
        assert!(refused.to_string().contains("ledgerctl repair"), "{refused}");
        assert_eq!(std::fs::metadata(dir.path().join(RECORDS_FILE)).unwrap().len(), end, "nothing is cut");
        {
            let storage = ledger_store::sled::SledStorage::open_existing(dir.path()).unwrap();
            let copy = records.clone();
            let report = storage.repair(&mut |p| Ok(copy.iter().find(|r| r.envelope.position == p).cloned())).unwrap();
            assert_eq!(report.repaired.iter().map(|r| r.position).collect::<Vec<_>>(), [3]);
            assert!(report.left.is_empty(), "{:?}", report.left);
        }
        let log = Log::open_sled(dir.path()).unwrap();
        let read = log.read_stream(&game, 1, usize::MAX).unwrap();
        assert_eq!(read[2..], records[..], "every acknowledged frame is there after the repair");
        verify_chain(&read).unwrap();
        log.close();
    }
}
