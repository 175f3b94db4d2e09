//! Logs of earlier layouts open in the current one with every record, chain, id and head
//! intact: the first (`ledger/v1`: a key per record, position, id and head), the second
//! (records in chunks inside sled) and the first index of event ids.

use crate::support::{open_raw, sealed, single};
use ledger::envelope::{encode_record, verify_chain, GENESIS};
use ledger::{Event, Recorded, Ruleset, StreamId};
use ledger_store::Log;

fn game(turns: u32) -> Vec<Event> {
    let mut events = vec![Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Wm2015), tournament: None }];
    events.extend((1..=turns).map(|turn| Event::TurnStarted { turn, at_ms: None }));
    events
}

/// The moved log reads back `written` in position order, each stream chained to its listed head.
fn assert_intact(log: &Log, written: &[Recorded], streams: &[(&StreamId, usize)]) {
    assert_eq!(log.read_all(1, usize::MAX).unwrap(), written, "every record, byte for byte, in position order");
    for &(stream, n) in streams {
        let records = log.read_stream(stream, 1, usize::MAX).unwrap();
        assert_eq!(records.len(), n);
        let head = verify_chain(&records).unwrap().unwrap();
        let info = log.streams().unwrap().into_iter().find(|s| s.stream == *stream).unwrap();
        assert_eq!((info.version, info.head_hash), (n as u64, head));
    }
}

/// Writes `streams` into a v1 tree the way the first layout did.
fn write_v1(dir: &std::path::Path, streams: &[(StreamId, Vec<Event>)]) -> Vec<Recorded> {
    let db = open_raw(dir);
    let tree = db.open_tree("ledger/v1").unwrap();
    let mut position = 0;
    let mut all = Vec::new();
    for (stream, events) in streams {
        let mut prev = GENESIS;
        for (seq, event) in (1u64..).zip(events) {
            position += 1;
            let record = sealed(stream, seq, position, format!("{stream}-{seq}"), prev, event.clone());
            prev = record.envelope.hash;
            let mut event_key = format!("e{stream}\0").into_bytes();
            event_key.extend_from_slice(&seq.to_be_bytes());
            tree.insert(&event_key, encode_record(&record)).unwrap();
            tree.insert([b"p".as_slice(), &position.to_be_bytes()].concat(), event_key).unwrap();
            tree.insert(format!("i{stream}-{seq}"), &position.to_be_bytes()).unwrap();
            let head = [seq.to_be_bytes().as_slice(), &record.envelope.hash].concat();
            tree.insert(format!("h{stream}"), head).unwrap();
            all.push(record);
        }
    }
    tree.insert("m/next_position", &(position + 1).to_be_bytes()).unwrap();
    db.flush().unwrap();
    all
}

#[tokio::test]
async fn a_first_layout_log_moves_to_chunks_intact() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (StreamId::game("a").unwrap(), StreamId::game("b").unwrap());
    let written = write_v1(dir.path(), &[(a.clone(), game(5)), (b.clone(), game(3))]);

    let log = Log::open_sled(dir.path()).unwrap();
    assert_intact(&log, &written, &[(&a, 6), (&b, 4)]);
    // An id of the old layout is still known; the rules state was replayed from the records.
    let retry = log.append(single(&a, Event::TurnStarted { turn: 5, at_ms: None }, "game/a-6")).await.unwrap();
    assert!(retry.duplicate);
    let next = log.append(single(&a, Event::TurnStarted { turn: 6, at_ms: None }, "new")).await.unwrap();
    assert_eq!((next.first_seq, next.first_position), (7, 11));
    log.close();
    drop(log);
    let db = open_raw(dir.path());
    assert!(!db.tree_names().iter().any(|name| name == b"ledger/v1".as_slice()), "the old tree is gone");
}

/// A chunked log whose event ids were indexed a key per id (`i<id>`, the first chunked layout)
/// opens with its ids moved to the bucketed index: retries are still recognised, reused ids
/// still refused.
#[tokio::test]
async fn a_key_per_id_index_moves_to_buckets() {
    use ledger_store::sled::layout;
    let dir = tempfile::tempdir().unwrap();
    let g = StreamId::game("g").unwrap();
    let request = |event_id: &str, event: Event| single(&g, event, event_id);
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Wm2015), tournament: None };
    {
        let log = Log::open_sled(dir.path()).unwrap();
        log.append(request("start", start.clone())).await.unwrap();
        for turn in 1..=3 {
            log.append(request(&format!("turn-{turn}"), Event::TurnStarted { turn, at_ms: None })).await.unwrap();
        }
        log.close();
    }
    {
        // Rewrite the index the old way: a key per id, no bucketed entries.
        let db = open_raw(dir.path());
        let tree = db.open_tree(layout::TREE).unwrap();
        let ids: Vec<_> = tree.scan_prefix(layout::ID_PREFIX).keys().map(Result::unwrap).collect();
        assert!(!ids.is_empty());
        for key in ids {
            tree.remove(key).unwrap();
        }
        for (position, id) in (1u64..).zip(["start", "turn-1", "turn-2", "turn-3"]) {
            tree.insert([layout::OLD_ID_PREFIX, id.as_bytes()].concat(), &position.to_be_bytes()).unwrap();
        }
        db.flush().unwrap();
    }
    let log = Log::open_sled(dir.path()).unwrap();
    let retry = log.append(request("turn-2", Event::TurnStarted { turn: 2, at_ms: None })).await.unwrap();
    assert!(retry.duplicate);
    assert_eq!(retry.first_seq, 3);
    let reused = log.append(request("turn-1", Event::TurnStarted { turn: 4, at_ms: None })).await;
    assert!(
        matches!(reused, Err(ledger_store::AppendError::Rejected(ref r)) if r.message.contains("already used")),
        "{reused:?}"
    );
    let next = log.append(request("turn-4", Event::TurnStarted { turn: 4, at_ms: None })).await.unwrap();
    assert_eq!((next.first_seq, next.duplicate), (5, false));
}

/// A log of the second layout (records in chunks inside the tree) opens with its records moved
/// into the records file, byte for byte, and every index still leading to them.
#[tokio::test]
async fn a_second_layout_log_moves_its_chunks_into_the_records_file() {
    use ledger_store::sled::layout;
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (StreamId::game("a").unwrap(), StreamId::game("b").unwrap());
    let mut written = Vec::new();
    {
        // The second layout: chunks of records, runs, bucketed ids, heads, the next position.
        let db = open_raw(dir.path());
        let tree = db.open_tree(layout::TREE).unwrap();
        let mut position = 0;
        for (stream, events) in [(&a, game(5)), (&b, game(3))] {
            let mut prev = GENESIS;
            let mut chunk = Vec::new();
            let mut positions = Vec::new();
            for (seq, event) in (1u64..).zip(events) {
                position += 1;
                let record = sealed(stream, seq, position, format!("{stream}-{seq}"), prev, event);
                prev = record.envelope.hash;
                layout::push_record(&mut chunk, &encode_record(&record));
                let hash = ledger_store::id_hash(&record.envelope.event_id);
                let mut entry = Vec::new();
                layout::push_id_entry(&mut entry, hash, position);
                tree.insert(layout::id_entries(layout::id_bucket(hash), position), entry).unwrap();
                positions.push(position);
                written.push(record);
            }
            let first = positions[0];
            tree.insert(layout::chunk(first), chunk).unwrap();
            tree.insert(layout::run(stream, 1), layout::encode_run(&positions)).unwrap();
            tree.insert(layout::head(stream), layout::encode_head(positions.len() as u64, &prev, None)).unwrap();
        }
        tree.insert(layout::NEXT_POSITION, &(position + 1).to_be_bytes()).unwrap();
        db.flush().unwrap();
    }

    let log = Log::open_sled(dir.path()).unwrap();
    assert_intact(&log, &written, &[(&a, 6), (&b, 4)]);
    assert_eq!(log.read_all(8, 2).unwrap(), written[7..9], "a read from the middle of the second chunk");
    let retry = log.append(single(&b, Event::TurnStarted { turn: 3, at_ms: None }, "game/b-4")).await.unwrap();
    assert!(retry.duplicate);
    let next = log.append(single(&b, Event::TurnStarted { turn: 4, at_ms: None }, "new")).await.unwrap();
    assert_eq!((next.first_seq, next.first_position), (5, 11));
    log.close();
    drop(log);
    let db = open_raw(dir.path());
    let tree = db.open_tree(layout::TREE).unwrap();
    assert_eq!(tree.scan_prefix(layout::CHUNK_PREFIX).count(), 0, "the chunks are gone from the tree");
    assert!(std::fs::metadata(dir.path().join(ledger_store::sled::RECORDS_FILE)).unwrap().len() > 0);
}

/// A first-layout log of exactly one move batch (4,096 records) keeps its heads: they travel
/// with the last records, never in a commit of their own.
#[tokio::test]
async fn a_first_layout_log_of_a_whole_batch_keeps_its_heads() {
    let dir = tempfile::tempdir().unwrap();
    let streams: Vec<(StreamId, Vec<Event>)> =
        (0..512).map(|n| (StreamId::game(&format!("g{n}")).unwrap(), game(7))).collect();
    let written = write_v1(dir.path(), &streams);
    assert_eq!(written.len(), 4096);
    let log = Log::open_sled(dir.path()).unwrap();
    let listed = log.streams().unwrap();
    assert_eq!(listed.len(), 512);
    assert!(listed.iter().all(|s| s.version == 8), "every head moved");
    let next = log.append(single(&streams[0].0, Event::TurnStarted { turn: 8, at_ms: None }, "new")).await.unwrap();
    assert_eq!((next.first_seq, next.first_position), (9, 4097));
}

/// A log that an older ledgerd (second layout) wrote chunks to after it had moved to the
/// records file is refused, not emptied.
#[tokio::test]
async fn chunks_written_after_the_move_are_refused() {
    use ledger_store::sled::layout;
    let dir = tempfile::tempdir().unwrap();
    let g = StreamId::game("g").unwrap();
    {
        let log = Log::open_sled(dir.path()).unwrap();
        log.append(single(&g, game(0).remove(0), "start")).await.unwrap();
        log.close();
    }
    {
        let db = open_raw(dir.path());
        let tree = db.open_tree(layout::TREE).unwrap();
        tree.insert(layout::chunk(2), vec![0u8; 8]).unwrap();
        db.flush().unwrap();
    }
    let records = std::fs::metadata(dir.path().join(ledger_store::sled::RECORDS_FILE)).unwrap().len();
    let refused = Log::open_sled(dir.path()).err().expect("refused");
    assert!(refused.to_string().contains("both layouts"), "{refused}");
    assert_eq!(std::fs::metadata(dir.path().join(ledger_store::sled::RECORDS_FILE)).unwrap().len(), records);
}
