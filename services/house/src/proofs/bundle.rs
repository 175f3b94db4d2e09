//! A proof file (`ledgerctl prove` writes it, `ledgerctl verify-proof` reads it): a signed
//! checkpoint, and events each with its inclusion proof in that checkpoint's tree. Everything a
//! player needs to check, offline and trusting only the ledger's public key, that these events
//! are in the log exactly as shown, at their positions.
//!
//! Each event is its `ledgerctl export` line; its leaf is recomputed from its contents (the chain
//! hash, then the RFC 9162 leaf hash), never taken from the file.
//!
//! A file cannot lie by omission either: each stream's events must follow one another — seq
//! after seq, each `prev_hash` the hash of the event before it, the first event of a stream its
//! genesis — so an event dropped, two swapped or one repeated is refused with its seq, and what a
//! file proves is said as spans ("events 1–160 of game/x, from its first event").

use ledger::envelope::GENESIS;
use ledger::{Recorded, StreamId};
use ledger_proof::{leaf_hash, verify_inclusion, Checkpoint, Hash, Opened, VerifierKey};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the file says it is.
pub const FORMAT: &str = "tournament-ledger-proof/v1";

/// The file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bundle {
    pub format: String,
    /// The signed note, as the ledger signed it.
    pub checkpoint: String,
    pub events: Vec<ProvedEvent>,
}

/// One event and its inclusion proof (hex hashes, leaf side first).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProvedEvent {
    pub record: Value,
    pub proof: Vec<String>,
}

/// What a proof file showed.
#[derive(Debug)]
pub struct Verified {
    pub opened: Opened,
    pub records: Vec<Recorded>,
    /// Each stream's unbroken run of events, in the order the file first names the streams.
    pub spans: Vec<Span>,
}

/// An unbroken run of one stream's events: seq after seq, each linked to the one before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub stream: StreamId,
    pub first_seq: u64,
    pub last_seq: u64,
    last_hash: Hash,
}

impl Span {
    /// It starts at the stream's first event (seq 1, linked to the genesis).
    pub fn from_the_start(&self) -> bool {
        self.first_seq == 1
    }
}

impl std::fmt::Display for Span {
    /// `events 1–160 of game/x, from its first event` or `event 40 of game/x`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.first_seq == self.last_seq {
            true => write!(f, "event {} of {}", self.first_seq, self.stream)?,
            false => write!(f, "events {}–{} of {}", self.first_seq, self.last_seq, self.stream)?,
        }
        if self.from_the_start() {
            write!(f, ", from its first event")?;
        }
        Ok(())
    }
}

impl Bundle {
    pub fn new(checkpoint: String) -> Bundle {
        Bundle { format: FORMAT.into(), checkpoint, events: Vec::new() }
    }

    /// Adds an event with its proof.
    pub fn push(&mut self, record: &Recorded, proof: &[Hash]) {
        self.events.push(ProvedEvent { record: record.to_json(), proof: proof.iter().map(hex::encode).collect() });
    }

    /// Checks the checkpoint's signature with `key`, then every event: its contents against its
    /// chain hash, and its inclusion at its position in the checkpoint's tree.
    ///
    /// # Errors
    /// A sentence saying what does not hold, naming the event.
    pub fn verify(&self, key: &VerifierKey) -> Result<Verified, String> {
        if self.format != FORMAT {
            return Err(format!("this is not a proof file of this ledger (format {:?}, not {FORMAT:?})", self.format));
        }
        let opened = Checkpoint::open(&self.checkpoint, key, &[])
            .map_err(|e| format!("the checkpoint is not the ledger's signed checkpoint: {e}"))?;
        let (size, root) = (opened.checkpoint.size, opened.checkpoint.root);
        if self.events.is_empty() {
            return Err("the proof file holds no event, so it proves nothing".into());
        }
        let mut records = Vec::with_capacity(self.events.len());
        for (n, proved) in self.events.iter().enumerate() {
            let record =
                Recorded::from_json(&proved.record).map_err(|e| format!("event {} of the file: {e}", n + 1))?;
            let e = &record.envelope;
            let named = format!("{} event {} (position {})", e.stream, e.seq, e.position);
            if record.recomputed_hash() != e.hash {
                return Err(format!("{named} was altered: its contents do not match its chain hash"));
            }
            let proof = proved
                .proof
                .iter()
                .map(|h| hex::decode(h).ok().and_then(|b| Hash::try_from(b).ok()))
                .collect::<Option<Vec<Hash>>>()
                .ok_or_else(|| format!("{named}: a proof hash is not 32 bytes of hex"))?;
            let index = e.position.checked_sub(1).ok_or_else(|| format!("{named}: positions start at 1"))?;
            verify_inclusion(index, size, &leaf_hash(&e.hash), &proof, &root)
                .map_err(|why| format!("{named} is not in the log of the checkpoint of {size} events: {why}"))?;
            records.push(record);
        }
        let spans = spans(&records)?;
        Ok(Verified { opened, records, spans })
    }
}

/// Each stream's events as one unbroken run, or the first event that breaks it: missing events
/// before it, a repeat, an event out of order, or a `prev_hash` that is not the hash of the
/// event before it (the genesis for a stream's first event).
fn spans(records: &[Recorded]) -> Result<Vec<Span>, String> {
    let mut spans: Vec<Span> = Vec::new();
    for record in records {
        let e = &record.envelope;
        let Some(span) = spans.iter_mut().find(|s| s.stream == e.stream) else {
            if e.seq == 1 && e.prev_hash != GENESIS {
                return Err(format!(
                    "{} event 1 does not start its stream: its prev_hash is not the genesis",
                    e.stream
                ));
            }
            spans.push(Span { stream: e.stream.clone(), first_seq: e.seq, last_seq: e.seq, last_hash: e.hash });
            continue;
        };
        let (stream, seq, before) = (&e.stream, e.seq, span.last_seq);
        if seq == before {
            return Err(format!("{stream} event {seq} appears twice in the file"));
        }
        if seq < before {
            return Err(format!("{stream} event {seq} comes after event {before}: the file's events are out of order"));
        }
        if seq > before + 1 {
            let missing = if seq == before + 2 {
                format!("event {}", before + 1)
            } else {
                format!("events {}–{}", before + 1, seq - 1)
            };
            return Err(format!(
                "{stream} {missing} missing between events {before} and {seq}: the file leaves out what it should show"
            ));
        }
        if e.prev_hash != span.last_hash {
            return Err(format!(
                "{stream} event {seq} does not follow event {before}: its prev_hash is not that event's hash"
            ));
        }
        span.last_seq = seq;
        span.last_hash = e.hash;
    }
    Ok(spans)
}

#[cfg(test)]
mod tests {
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
}
