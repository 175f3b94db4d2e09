//! Tamper detection on a copy of a real sled log: a flipped byte in a stored event, a deleted
//! event, a reordered pair and a truncated stream all break the chain at a named seq.

use crate::support::{game_events, open_raw, single};
use ledger::{Event, StreamId};
use ledger_store::sled::{frames, layout, SledStorage, StreamVerdict, RECORDS_FILE};
use ledger_store::{AppendRequest, Log, ProposedEvent};
use std::path::Path;

/// A real log with two games of 6 events each, closed, and a copy of its directory.
async fn real_log() -> (tempfile::TempDir, tempfile::TempDir) {
    let original = tempfile::tempdir().unwrap();
    {
        let log = Log::open_sled(original.path()).unwrap();
        for game in ["a", "b"] {
            let mut events = game_events(4);
            events.push(Event::FateCardDrawn { card: format!("MARKER-{game}-CARD") });
            for (i, event) in events.into_iter().enumerate() {
                log.append(single(&StreamId::game(game).unwrap(), event, &format!("{game}{i}"))).await.unwrap();
            }
        }
        log.close();
    }
    let copy = tempfile::tempdir().unwrap();
    for entry in walk(original.path()) {
        let target = copy.path().join(entry.strip_prefix(original.path()).unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(&entry, target).unwrap();
    }
    (original, copy)
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// The frames of a records file: each frame's first position and its records.
type Frames = Vec<(u64, Vec<Vec<u8>>)>;

/// Changes the copy as someone with access to the files could: the records file, its frame
/// checksums recomputed, and sled's index told where the file now ends.
fn tamper(dir: &Path, change: impl FnOnce(&sled::Tree, &mut Frames)) {
    let path = dir.join(RECORDS_FILE);
    let bytes = std::fs::read(&path).unwrap();
    let mut frames_read = Frames::new();
    let mut at = 0;
    while at < bytes.len() {
        let header = frames::Header::parse(&bytes[at..]).unwrap();
        let body_start = at + header.header_len();
        let body = &bytes[body_start..body_start + header.body_len as usize];
        frames_read.push((header.first_position, layout::records_of(body).map(|r| r.unwrap().to_vec()).collect()));
        at += usize::try_from(header.frame_len()).unwrap();
    }
    let db = open_raw(dir);
    let tree = db.open_tree(layout::TREE).unwrap();
    change(&tree, &mut frames_read);
    let mut rewritten = Vec::new();
    for (first, records) in frames_read.iter().filter(|(_, records)| !records.is_empty()) {
        rewritten.extend(frames::encode(*first, 0, records.iter().map(Vec::as_slice)));
    }
    std::fs::write(&path, &rewritten).unwrap();
    for key in tree.scan_prefix(layout::FRAME_PREFIX).keys() {
        tree.remove(key.unwrap()).unwrap();
    }
    tree.insert(layout::frame(frames_read[0].0), &0u64.to_be_bytes()).unwrap();
    tree.insert(layout::INDEXED_END, &(rewritten.len() as u64).to_be_bytes()).unwrap();
    db.flush().unwrap();
}

/// The global position of a stream's event, from its runs.
fn position_of(tree: &sled::Tree, stream: &str, seq: u64) -> u64 {
    let stream = StreamId::parse(stream).unwrap();
    let (key, run) = tree.range(layout::run(&stream, 0)..=layout::run(&stream, seq)).next_back().unwrap().unwrap();
    let first_seq = layout::seq_of_run_key(&key).unwrap();
    layout::decode_run(&run).unwrap()[usize::try_from(seq - first_seq).unwrap()]
}

/// The frame holding a position, and the record's index in it.
fn frame_of(frames: &Frames, position: u64) -> (usize, usize) {
    let frame = frames.iter().rposition(|(first, _)| *first <= position).unwrap();
    (frame, usize::try_from(position - frames[frame].0).unwrap())
}

/// Applies `edit` to the records of the frame holding a stream's event.
fn edit_frame(
    tree: &sled::Tree,
    frames: &mut Frames,
    stream: &str,
    seq: u64,
    edit: impl FnOnce(&mut Vec<Vec<u8>>, usize),
) {
    let (frame, at) = frame_of(frames, position_of(tree, stream, seq));
    edit(&mut frames[frame].1, at);
}

fn verdict(dir: &Path, stream: &str) -> StreamVerdict {
    let verdicts = SledStorage::open_existing(dir).unwrap().verify().unwrap();
    verdicts.into_iter().find(|v| v.stream.to_string() == stream).unwrap()
}

#[tokio::test]
async fn an_intact_log_verifies() {
    let (_original, copy) = real_log().await;
    let verdicts = SledStorage::open_existing(copy.path()).unwrap().verify().unwrap();
    assert_eq!(verdicts.len(), 2);
    for v in verdicts {
        assert_eq!((v.verified, &v.broken), (6, &None), "{}", v.stream);
        assert!(v.head.is_some());
    }
}

#[tokio::test]
async fn a_flipped_byte_in_a_stored_event_is_found() {
    let (_original, copy) = real_log().await;
    tamper(copy.path(), |tree, frames| {
        edit_frame(tree, frames, "game/a", 4, |records, at| {
            let last = records[at].len() - 1;
            records[at][last] ^= 0x01;
        });
    });
    let v = verdict(copy.path(), "game/a");
    let broken = v.broken.unwrap();
    assert_eq!((broken.seq, v.verified), (4, 3), "{}", broken.reason);
    assert_eq!(verdict(copy.path(), "game/b").broken, None, "the other game is untouched");
}

#[tokio::test]
async fn a_deleted_event_is_found() {
    let (_original, copy) = real_log().await;
    tamper(copy.path(), |tree, frames| {
        edit_frame(tree, frames, "game/b", 3, |records, at| {
            records.remove(at);
        });
    });
    let broken = verdict(copy.path(), "game/b").broken.unwrap();
    assert_eq!(broken.seq, 3);
    assert_eq!(broken.reason, "event 3 is missing (the next stored is 4)");
}

#[tokio::test]
async fn a_deleted_last_event_is_found() {
    let (_original, copy) = real_log().await;
    tamper(copy.path(), |tree, frames| {
        edit_frame(tree, frames, "game/b", 6, |records, at| {
            records.remove(at);
        });
    });
    let broken = verdict(copy.path(), "game/b").broken.unwrap();
    assert_eq!(broken.seq, 6);
    assert_eq!(broken.reason, "the stream's head says 6 events, only 5 are stored");
}

#[tokio::test]
async fn a_reordered_pair_is_found() {
    let (_original, copy) = real_log().await;
    tamper(copy.path(), |tree, frames| {
        // Each record of the pair takes the other's place, wherever their frames are.
        let (f2, i2) = frame_of(frames, position_of(tree, "game/a", 2));
        let (f3, i3) = frame_of(frames, position_of(tree, "game/a", 3));
        let record2 = std::mem::take(&mut frames[f2].1[i2]);
        frames[f2].1[i2] = std::mem::replace(&mut frames[f3].1[i3], record2);
    });
    let broken = verdict(copy.path(), "game/a").broken.unwrap();
    assert_eq!(broken.seq, 2);
    assert_eq!(broken.reason, "the stored event says it is game/a #3");
}

#[tokio::test]
async fn a_byte_flipped_in_the_file_itself_does_not_go_unnoticed() {
    let (original, copy) = real_log().await;
    let intact_head = verdict(original.path(), "game/a").head.unwrap();
    // Flip one byte of the marker event in the records file, leaving its frame's checksum.
    let file = copy.path().join(RECORDS_FILE);
    let mut bytes = std::fs::read(&file).unwrap();
    let marker = b"MARKER-a-CARD";
    let places: Vec<usize> =
        bytes.windows(marker.len()).enumerate().filter(|(_, w)| w == marker).map(|(i, _)| i).collect();
    assert!(!places.is_empty(), "the marker is in the file");
    for at in places {
        bytes[at + 7] = b'X';
    }
    std::fs::write(&file, bytes).unwrap();
    // Opening may refuse the file, or verification breaks: in no case does the stream verify
    // with the head printed on the game report.
    match SledStorage::open_existing(copy.path()).and_then(|s| s.verify()) {
        Err(_) => {}
        Ok(verdicts) => {
            let a = verdicts.into_iter().find(|v| v.stream.to_string() == "game/a");
            assert!(a.is_none_or(|v| v.head != Some(intact_head)), "tampering went unnoticed");
        }
    }
}

/// A seeded generator for the bit-rot cases (splitmix64): the same cases on every run.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A log of six games in groups of one to eight events (frames of one to many records, some
/// records of several streams together), closed cleanly.
async fn rot_log(dir: &Path) -> Vec<ledger::Recorded> {
    let log = std::sync::Arc::new(Log::open_sled(dir).unwrap());
    let mut tasks = Vec::new();
    for game in 0..6 {
        let log = std::sync::Arc::clone(&log);
        tasks.push(tokio::spawn(async move {
            let events = game_events(10);
            let mut at = 0;
            for size in (1..=8).cycle() {
                if at >= events.len() {
                    break;
                }
                let batch: Vec<ProposedEvent> = events[at..(at + size).min(events.len())]
                    .iter()
                    .enumerate()
                    .map(|(i, event)| ProposedEvent { event_id: format!("g{game}-{}", at + i), event: event.clone() })
                    .collect();
                at += batch.len();
                let request = AppendRequest {
                    stream: StreamId::game(&format!("g{game}")).unwrap(),
                    events: batch,
                    expected_version: None,
                    actor: "table".into(),
                    clearance: ledger::access::Clearance::Table,
                };
                log.append(request).await.unwrap();
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let all = log.read_all(1, usize::MAX).unwrap();
    log.close();
    all
}

/// Where each record lies in a records file: (frame offset, header end, body end, frame end,
/// each record's position and byte span (its length prefix included)).
type Layout = Vec<(u64, u64, u64, u64, Vec<(u64, u64, u64)>)>;

fn layout_of(bytes: &[u8]) -> Layout {
    let mut frames_found = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        let header = frames::Header::parse(&bytes[at..]).unwrap();
        let body_start = at + header.header_len();
        let body_end = body_start + header.body_len as usize;
        let mut records = Vec::new();
        let mut start = body_start;
        for (position, span) in
            (header.first_position..).zip(layout::spans_of(&bytes[body_start..body_end]).map(Result::unwrap))
        {
            records.push((position, start as u64, (body_start + span.1) as u64));
            start = body_start + span.1;
        }
        let end = at + usize::try_from(header.frame_len()).unwrap();
        frames_found.push((at as u64, body_start as u64, body_end as u64, end as u64, records));
        at = end;
    }
    frames_found
}

/// The positions a change of the bytes `from..to` may cost: a frame's every record when its
/// header is hit, or its body and table both are; else the records whose bytes are hit.
fn may_cost(layout: &Layout, from: u64, to: u64) -> std::collections::BTreeSet<u64> {
    let hits = |a: u64, b: u64| a < to && from < b;
    let mut cost = std::collections::BTreeSet::new();
    for (start, body_start, body_end, end, records) in layout {
        let whole = hits(*start, *body_start) || (hits(*body_start, *body_end) && hits(*body_end, *end));
        for &(position, a, b) in records {
            if whole || hits(a, b) {
                cost.insert(position);
            }
        }
    }
    cost
}

/// Reads every stream of `original` from `storage` as a reader would, event by event past
/// damage: returns the positions reported damaged, and fails if any event served differs from
/// the original.
fn read_past_damage(
    storage: &SledStorage,
    original: &[ledger::Recorded],
) -> Result<std::collections::BTreeSet<u64>, String> {
    use ledger_store::{Reader, StoreError};
    let mut streams: std::collections::BTreeMap<StreamId, Vec<&ledger::Recorded>> = Default::default();
    for record in original {
        streams.entry(record.envelope.stream.clone()).or_default().push(record);
    }
    let mut damaged = std::collections::BTreeSet::new();
    for (stream, records) in streams {
        let mut seq = 1u64;
        while seq <= records.len() as u64 {
            match storage.read_stream(&stream, seq, usize::MAX) {
                Ok(read) => {
                    for (got, want) in read.iter().zip(&records[usize::try_from(seq - 1).unwrap()..]) {
                        if got != *want {
                            return Err(format!("{stream} #{} was served changed", want.envelope.seq));
                        }
                    }
                    if read.len() as u64 != records.len() as u64 - seq + 1 {
                        return Err(format!("{stream} from #{seq}: {} events served", read.len()));
                    }
                    break;
                }
                Err(StoreError::Damaged(damage)) => {
                    // The events before the damaged one are served, unchanged.
                    let at = match &damage.event {
                        Some((named, at)) if *named == stream && *at >= seq => *at,
                        _ => return Err(format!("damage reported as {damage:?} reading {stream} from #{seq}")),
                    };
                    let want = records[usize::try_from(at - 1).unwrap()];
                    if damage.position != want.envelope.position {
                        return Err(format!("damage reported at position {} for {stream} #{at}", damage.position));
                    }
                    let before = storage.read_stream(&stream, seq, usize::try_from(at - seq).unwrap());
                    let expected: Vec<ledger::Recorded> = records
                        [usize::try_from(seq - 1).unwrap()..usize::try_from(at - 1).unwrap()]
                        .iter()
                        .map(|r| (*r).clone())
                        .collect();
                    if before.as_ref().ok() != Some(&expected) {
                        return Err(format!("{stream} #{seq}..#{at}: {before:?}"));
                    }
                    damaged.insert(damage.position);
                    seq = at + 1;
                }
                Err(other) => return Err(format!("{stream} from #{seq}: {other}")),
            }
        }
    }
    Ok(damaged)
}

/// 1,000 seeded cases of bit rot on a cleanly stopped log: a single flipped bit or a zeroed
/// 4 KiB page, in the records file or in sled's files. Each time: the log opens and serves;
/// no event is ever served changed; the damage is found and confined to the records whose bytes
/// (or whose frame's header) were hit; then a repair from a copy (as the JetStream fan-out
/// stream holds it) takes every damaged record back, and the log reads and verifies whole.
#[tokio::test(flavor = "multi_thread")]
async fn a_thousand_cases_of_bit_rot_are_found_confined_and_repaired_from_a_copy() {
    let pristine = tempfile::tempdir().unwrap();
    let original = rot_log(pristine.path()).await;
    let copy: std::collections::BTreeMap<u64, ledger::Recorded> =
        original.iter().map(|r| (r.envelope.position, r.clone())).collect();
    let files: Vec<(std::path::PathBuf, Vec<u8>)> = walk(pristine.path())
        .into_iter()
        .map(|path| (path.strip_prefix(pristine.path()).unwrap().to_owned(), std::fs::read(&path).unwrap()))
        .collect();
    let records_at = files.iter().position(|(name, _)| name == Path::new(RECORDS_FILE)).unwrap();
    let layout = layout_of(&files[records_at].1);
    let cases = std::env::var("LEDGER_BIT_ROT_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(1000u64);
    let tally = std::sync::Mutex::new((0u32, 0usize, 0u32));
    // Both cores: the cases are independent, each with its own seeded generator.
    std::thread::scope(|scope| {
        for worker in 0..2u64 {
            let (files, layout, copy, original, tally) = (&files, &layout, &copy, &original, &tally);
            scope.spawn(move || {
                for case in (worker..cases).step_by(2) {
                    let mut rng = Seeded(0x05EE_DB17_F11B ^ case.wrapping_mul(0x9E37_79B9));
                    let dir = tempfile::tempdir().unwrap();
                    // Two in three cases hit the records file; the rest one of sled's files.
                    let target = if rng.below(3) < 2 {
                        records_at
                    } else {
                        let others: Vec<usize> =
                            (0..files.len()).filter(|&i| i != records_at && !files[i].1.is_empty()).collect();
                        others[usize::try_from(rng.below(others.len() as u64)).unwrap()]
                    };
                    let mut damaged_bytes = None;
                    for (i, (name, bytes)) in files.iter().enumerate() {
                        let path = dir.path().join(name);
                        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                        let mut bytes = bytes.clone();
                        if i == target {
                            let len = bytes.len() as u64;
                            let (from, to) = if rng.below(5) < 4 {
                                let at = rng.below(len);
                                bytes[usize::try_from(at).unwrap()] ^= 1 << rng.below(8);
                                (at, at + 1)
                            } else {
                                let page = rng.below(len.div_ceil(4096)) * 4096;
                                let to = (page + 4096).min(len);
                                bytes[usize::try_from(page).unwrap()..usize::try_from(to).unwrap()].fill(0);
                                (page, to)
                            };
                            damaged_bytes = Some((from, to));
                        }
                        std::fs::write(&path, bytes).unwrap();
                    }
                    let (from, to) = damaged_bytes.unwrap();
                    let context = format!("case {case}: {} bytes {from}..{to}", files[target].0.display());
                    let found = {
                        let storage =
                            SledStorage::open(dir.path()).unwrap_or_else(|e| panic!("{context}: does not open: {e}"));
                        let found = read_past_damage(&storage, original).unwrap_or_else(|e| panic!("{context}: {e}"));
                        let scanned: std::collections::BTreeSet<u64> =
                            storage.damaged_records().unwrap().into_iter().map(|d| d.position).collect();
                        assert_eq!(found, scanned, "{context}: readers and the scan agree");
                        found
                    };
                    if target == records_at {
                        tally.lock().unwrap().0 += 1;
                        let cost = may_cost(layout, from, to);
                        assert!(found.is_subset(&cost), "{context}: {found:?} lies outside what was hit ({cost:?})");
                        if to == from + 1 {
                            // A flipped bit is always found: in a record, exactly it; in a header, its frame.
                            let hit_table_only = cost.is_empty();
                            assert_eq!(found, cost, "{context}: a flipped bit costs exactly what it hit");
                            assert!(hit_table_only || !found.is_empty(), "{context}");
                        }
                    } else {
                        assert!(found.is_empty(), "{context}: sled's files hold no records");
                        tally.lock().unwrap().2 += u32::from(dir.path().join("index-damaged-0").exists());
                    }
                    // Repaired from the copy, the log reads whole again and its chains verify.
                    {
                        let storage = SledStorage::open_existing(dir.path()).unwrap();
                        let report = storage.repair(&mut |position| Ok(copy.get(&position).cloned())).unwrap();
                        assert!(report.left.is_empty(), "{context}: left unrepaired: {:?}", report.left);
                        let repaired: std::collections::BTreeSet<u64> =
                            report.repaired.iter().map(|r| r.position).collect();
                        assert_eq!(repaired, found, "{context}: exactly the damaged records are repaired");
                        tally.lock().unwrap().1 += repaired.len();
                    }
                    let storage = SledStorage::open(dir.path()).unwrap();
                    assert_eq!(
                        read_past_damage(&storage, original).unwrap_or_else(|e| panic!("{context}: {e}")),
                        Default::default()
                    );
                    assert!(storage.verify().unwrap().iter().all(|v| v.broken.is_none()), "{context}: chains verify");
                }
            });
        }
    });
    let (in_records, repaired_total, rebuilt) = tally.into_inner().unwrap();
    eprintln!(
        "bit rot: {cases} cases, {in_records} in the records file, {repaired_total} records repaired; \
         {rebuilt} of the cases in sled's files had its index rebuilt from the records file"
    );
}
