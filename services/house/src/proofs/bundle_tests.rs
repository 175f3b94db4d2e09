//! The proof file's checks: tampering named, events left out at either end, the old format.

use super::*;
use ledger::envelope::{Draft, GENESIS};
use ledger::{Event, StreamId};
use ledger_proof::{inclusion_proof, MemoryTree, SigningKey};

/// A stand-alone game's chain of `n` jury calls at positions 1 to `n`.
fn records(n: u64) -> Vec<Recorded> {
    let mut prev = GENESIS;
    (1..=n)
        .map(|seq| {
            let draft = Draft {
                stream: StreamId::game("g").unwrap(),
                seq,
                position: seq,
                event_id: format!("e{seq}"),
                recorded_at_ms: 0,
                actor: "t".into(),
            };
            let record = Recorded::seal(draft, prev, Event::JuryCalled { reason: format!("call {seq}") });
            prev = record.envelope.hash;
            record
        })
        .collect()
}

fn bundle(records: &[Recorded], key: &SigningKey) -> Bundle {
    bundle_of(records, &records[1..3], key)
}

/// A proof file of `shown` (in that order), against a checkpoint of all of `records`.
fn bundle_of(records: &[Recorded], shown: &[Recorded], key: &SigningKey) -> Bundle {
    let mut tree = MemoryTree::new();
    records.iter().for_each(|r| tree.append(leaf_hash(&r.envelope.hash)));
    let size = records.len() as u64;
    let note = Checkpoint::new(key.name(), size, tree.frontier().root()).sign(key).unwrap();
    let mut bundle = Bundle::new(note.to_string());
    for record in shown {
        bundle.push(record, &inclusion_proof(&tree, record.envelope.position - 1, size).unwrap());
    }
    bundle
}

#[test]
fn a_file_cannot_leave_out_swap_or_repeat_an_event() {
    let key = SigningKey::from_seed("ledger.test/open", &[5; 32]).unwrap();
    let all = records(7);
    let whole = bundle_of(&all, &all, &key).verify(&key.verifier()).unwrap();
    assert_eq!(
        whole.spans.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["events 1–7 of game/g, from its first event"]
    );
    let range = bundle_of(&all, &all[3..6], &key).verify(&key.verifier()).unwrap();
    assert_eq!(range.spans[0].to_string(), "events 4–6 of game/g");
    let one = bundle_of(&all, &all[6..], &key).verify(&key.verifier()).unwrap();
    assert_eq!(one.spans[0].to_string(), "event 7 of game/g");
    let refused = |shown: Vec<Recorded>| bundle_of(&all, &shown, &key).verify(&key.verifier()).unwrap_err();
    let dropped = refused([&all[..2], &all[3..]].concat());
    assert_eq!(dropped, "game/g event 3 missing between events 2 and 4: the file leaves out what it should show");
    let gap = refused([&all[..2], &all[5..]].concat());
    assert!(gap.starts_with("game/g events 3–5 missing"), "{gap}");
    let swapped = refused(vec![all[0].clone(), all[2].clone(), all[1].clone()]);
    // A swap reads as the gap the earlier event leaves where it should be.
    assert_eq!(swapped, "game/g event 2 missing between events 1 and 3: the file leaves out what it should show");
    let swapped_late = refused(vec![all[0].clone(), all[1].clone(), all[3].clone(), all[2].clone()]);
    assert!(swapped_late.contains("missing"), "{swapped_late}");
    let repeated = refused(vec![all[0].clone(), all[1].clone(), all[1].clone(), all[2].clone()]);
    assert_eq!(repeated, "game/g event 2 appears twice in the file");
    let backwards = refused(vec![all[4].clone(), all[2].clone()]);
    assert!(backwards.contains("out of order"), "{backwards}");
}

#[test]
fn a_bundle_verifies_and_each_tampering_is_named() {
    let key = SigningKey::from_seed("ledger.test/open", &[5; 32]).unwrap();
    let good = bundle(&records(7), &key);
    let json = serde_json::to_string(&good).unwrap();
    let read: Bundle = serde_json::from_str(&json).unwrap();
    assert_eq!(read.verify(&key.verifier()).unwrap().records.len(), 2);

    let mut edited = good.clone();
    edited.events[0].record["event"]["reason"] = "another call".into();
    assert!(edited.verify(&key.verifier()).unwrap_err().contains("was altered"));

    let mut moved = good.clone();
    moved.events[1].record["position"] = 2.into();
    assert!(moved.verify(&key.verifier()).unwrap_err().contains("is not in the log"));

    let other = SigningKey::from_seed("ledger.test/open", &[6; 32]).unwrap();
    assert!(good.verify(&other.verifier()).unwrap_err().contains("not the ledger's signed checkpoint"));
}

/// A proof file of `shown` against a checkpoint of all of `records` that commits to the heads of
/// game/g (its last record) and of two other streams; with game/g's head proved when `head`.
fn whole_bundle_of(records: &[Recorded], shown: &[Recorded], key: &SigningKey, head: bool) -> Bundle {
    use ledger_proof::{Heads, StreamHead};
    let mut tree = MemoryTree::new();
    records.iter().for_each(|r| tree.append(leaf_hash(&r.envelope.hash)));
    let size = records.len() as u64;
    let last = &records.last().unwrap().envelope;
    let heads = Heads::new([
        StreamHead { stream: "tournament/t".into(), seq: 3, hash: [9; 32] },
        StreamHead { stream: "game/g".into(), seq: last.seq, hash: last.hash },
        StreamHead { stream: "game/a".into(), seq: 12, hash: [8; 32] },
    ]);
    let mut checkpoint = Checkpoint::new(key.name(), size, tree.frontier().root());
    checkpoint.extensions.push(heads.root().line());
    let mut bundle = Bundle::new(checkpoint.sign(key).unwrap().to_string());
    for record in shown {
        bundle.push(record, &inclusion_proof(&tree, record.envelope.position - 1, size).unwrap());
    }
    if head {
        bundle.push_head(&heads.prove("game/g").unwrap());
    }
    bundle
}

/// Issue 43: a 130-event game's file shows the game whole only untouched; its first, its last
/// or an inner event removed, two swapped or one repeated, it is refused as whole (and without
/// `--whole` the span says of how many).
#[test]
fn a_whole_file_is_refused_with_an_event_cut_at_either_end_or_inside() {
    let key = SigningKey::from_seed("ledger.test/open", &[5; 32]).unwrap();
    let verifier = key.verifier();
    let all = records(130);
    let verified = |shown: Vec<Recorded>| whole_bundle_of(&all, &shown, &key, true).verify(&verifier);
    let whole = verified(all.clone()).unwrap();
    whole.whole().unwrap();
    assert_eq!(
        whole.spans[0].to_string(),
        "events 1–130 of game/g, from its first event: all 130 it had as of the checkpoint"
    );

    let first_cut = verified(all[1..].to_vec()).unwrap();
    assert_eq!(first_cut.spans[0].to_string(), "events 2–130 of game/g, of the 130 it had as of the checkpoint");
    assert_eq!(first_cut.whole().unwrap_err(), "the file starts at event 2 of game/g: event 1 is missing");
    let last_cut = verified(all[..129].to_vec()).unwrap();
    assert_eq!(
        last_cut.spans[0].to_string(),
        "events 1–129 of game/g, from its first event, of the 130 it had as of the checkpoint"
    );
    assert_eq!(
        last_cut.whole().unwrap_err(),
        "the file ends at event 129 of game/g, but game/g had 130 events as of its checkpoint: event 130 is missing"
    );
    let tail_cut = verified(all[..100].to_vec()).unwrap();
    assert!(tail_cut.whole().unwrap_err().ends_with("events 101–130 are missing"));
    let inner = verified([&all[..64], &all[65..]].concat()).unwrap_err();
    assert_eq!(inner, "game/g event 65 missing between events 64 and 66: the file leaves out what it should show");
    let mut swapped = all.clone();
    swapped.swap(40, 41);
    assert!(verified(swapped).unwrap_err().contains("event 41 missing"));
    let mut repeated = all.clone();
    repeated.insert(90, all[89].clone());
    assert_eq!(verified(repeated).unwrap_err(), "game/g event 90 appears twice in the file");

    // The head left out of the file: the events verify, but not as the whole game.
    let headless = whole_bundle_of(&all, &all, &key, false).verify(&verifier).unwrap();
    assert_eq!(headless.spans[0].head, None);
    assert!(headless.whole().unwrap_err().contains("does not prove game/g's head"));
    // A head that is not the one committed to: a seq changed, or another stream's place.
    let mut forged = whole_bundle_of(&all, &all, &key, true);
    forged.heads[0].seq = 131;
    assert!(forged.verify(&verifier).unwrap_err().contains("is not the one the checkpoint commits to"));
    let mut moved = whole_bundle_of(&all, &all, &key, true);
    moved.heads[0].index = 0;
    assert!(moved.verify(&verifier).unwrap_err().contains("is not the one the checkpoint commits to"));
    // The file's events past an earlier head (the head of another checkpoint): refused.
    let mut later = whole_bundle_of(&all[..129], &all[..129], &key, true);
    let extra = whole_bundle_of(&all, &all, &key, false).events[129].clone();
    later.events.push(extra);
    assert!(later.verify(&verifier).is_err());
}

/// Where the committed v1 sample lives (written with `UPDATE_SAMPLES=1`).
const SAMPLE_V1: &str = "src/proofs/samples/proof-v1.json";

/// A proof file of the format before heads (v1, issue 26), against a checkpoint without the
/// heads line: committed as written then, it verifies as before; `--whole` says why it cannot.
#[test]
fn an_old_proof_file_still_verifies_as_before() {
    let key = SigningKey::from_seed("ledger.test/open", &[5; 32]).unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SAMPLE_V1);
    if std::env::var_os("UPDATE_SAMPLES").is_some() {
        let mut old = bundle(&records(7), &key);
        old.format = FORMAT_V1.into();
        std::fs::write(&path, old.to_file().unwrap()).unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("\"heads\""), "the sample is of the format before heads");
    let old: Bundle = serde_json::from_str(&text).unwrap();
    assert_eq!(old.format, FORMAT_V1);
    let verified = old.verify(&key.verifier()).unwrap();
    assert_eq!(verified.spans.iter().map(ToString::to_string).collect::<Vec<_>>(), ["events 2–3 of game/g"]);
    assert_eq!(verified.heads, None);
    assert!(verified.whole().unwrap_err().contains("commits to no stream's head"));
    // A v1 file may not smuggle in heads.
    let mut mixed = old.clone();
    mixed.heads.push(ProvedHead {
        stream: "game/g".into(),
        seq: 7,
        hash: hex::encode([0; 32]),
        index: 0,
        count: 1,
        proof: vec![],
    });
    assert!(mixed.verify(&key.verifier()).is_err());
}
