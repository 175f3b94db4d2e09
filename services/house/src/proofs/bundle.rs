//! A proof file (`ledgerctl prove` writes it, `ledgerctl verify-proof` reads it): a signed
//! checkpoint, and events each with its inclusion proof in that checkpoint's tree. Everything a
//! player needs to check, offline and trusting only the ledger's public key, that these events
//! are in the log exactly as shown, at their positions.
//!
//! Each event is its `ledgerctl export` line; its leaf is recomputed from its contents (the chain
//! hash, then the RFC 9162 leaf hash), never taken from the file.

use ledger::Recorded;
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
        Ok(Verified { opened, records })
    }
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
        let mut tree = MemoryTree::new();
        records.iter().for_each(|r| tree.append(leaf_hash(&r.envelope.hash)));
        let size = records.len() as u64;
        let note = Checkpoint::new(key.name(), size, tree.frontier().root()).sign(key).unwrap();
        let mut bundle = Bundle::new(note.to_string());
        for record in &records[1..3] {
            bundle.push(record, &inclusion_proof(&tree, record.envelope.position - 1, size).unwrap());
        }
        bundle
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
