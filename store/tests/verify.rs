//! Tamper detection on a copy of a real sled log: a flipped byte in a stored event, a deleted
//! event, a reordered pair and a truncated stream all break the chain at a named seq.

use ledger::testing::started_game;
use ledger::{Event, Ruleset, StreamId};
use ledger_store::sled::{frames, layout, SledStorage, StreamVerdict, RECORDS_FILE};
use ledger_store::{AppendRequest, Log, ProposedEvent};
use std::path::Path;

/// A real log with two games of 6 events each, closed, and a copy of its directory.
async fn real_log() -> (tempfile::TempDir, tempfile::TempDir) {
    let original = tempfile::tempdir().unwrap();
    {
        let log = Log::open_sled(original.path()).unwrap();
        for game in ["a", "b"] {
            let mut events: Vec<Event> = started_game(Some(Ruleset::Cafe2023), 4)
                .iter()
                .map(|v| ledger::event::from_canonical_json(v).unwrap())
                .collect();
            events.push(Event::FateCardDrawn { card: format!("MARKER-{game}-CARD") });
            for (i, event) in events.into_iter().enumerate() {
                let request = AppendRequest {
                    stream: StreamId::game(game).unwrap(),
                    events: vec![ProposedEvent { event_id: format!("{game}{i}"), event }],
                    expected_version: None,
                    actor: "table".into(),
                    clearance: ledger::access::Clearance::Table,
                };
                log.append(request).await.unwrap();
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
    let db = sled::Config::new().path(dir).segment_size(8 * 1024 * 1024).open().unwrap();
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
