//! Recomputes every stream's hash chain from the bytes sled holds, to prove nothing was altered:
//! a changed byte, a deleted event or a reordered pair all break the chain at a named seq.

use super::keys::{self, Key};
use super::SledStorage;
use crate::error::StoreError;
use ledger::envelope::{decode_record, ChainBreak, GENESIS};
use ledger::{Hash, StreamId};
use std::collections::BTreeMap;

/// What verification found for one stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamVerdict {
    pub stream: StreamId,
    /// Events that verified before the break (all of them when intact).
    pub verified: u64,
    /// The chain head when intact.
    pub head: Option<Hash>,
    pub broken: Option<ChainBreak>,
}

impl SledStorage {
    /// Verifies every stream found in the tree, by its event keys and by its recorded head.
    ///
    /// # Errors
    /// sled itself cannot be read (its own checksums failed, for instance).
    pub fn verify(&self) -> Result<Vec<StreamVerdict>, StoreError> {
        let mut by_stream: BTreeMap<StreamId, Vec<(u64, Vec<u8>)>> = BTreeMap::new();
        for item in self.tree.scan_prefix(Key::EVENT_PREFIX) {
            let (key, value) = item?;
            let (stream, seq) = Key::parse_event_key(&key)?;
            by_stream.entry(stream).or_default().push((seq, value.to_vec()));
        }
        let mut heads = BTreeMap::new();
        for item in self.tree.scan_prefix(Key::HEAD_PREFIX) {
            let (key, value) = item?;
            heads.insert(Key::stream_of_head_key(&key)?, keys::decode_head(&value)?);
        }
        for stream in heads.keys() {
            by_stream.entry(stream.clone()).or_default();
        }
        Ok(by_stream
            .into_iter()
            .map(|(stream, raw)| {
                let head = heads.get(&stream).copied();
                verify_stream(stream, &raw, head)
            })
            .collect())
    }
}

fn verify_stream(stream: StreamId, raw: &[(u64, Vec<u8>)], recorded_head: Option<(u64, Hash)>) -> StreamVerdict {
    let mut prev = GENESIS;
    let mut verified = 0;
    let broken = |seq: u64, reason: String, verified: u64| StreamVerdict {
        stream: stream.clone(),
        verified,
        head: None,
        broken: Some(ChainBreak { seq, reason }),
    };
    for (expected, (key_seq, bytes)) in (1u64..).zip(raw) {
        if *key_seq != expected {
            return broken(expected, format!("event {expected} is missing (the next stored is {key_seq})"), verified);
        }
        let record = match decode_record(bytes) {
            Ok(record) => record,
            Err(e) => return broken(expected, e, verified),
        };
        if record.envelope.stream != stream || record.envelope.seq != expected {
            return broken(
                expected,
                format!("the stored event says it is {} #{}", record.envelope.stream, record.envelope.seq),
                verified,
            );
        }
        if record.envelope.prev_hash != prev {
            return broken(expected, "does not point back to the event before it".into(), verified);
        }
        if record.recomputed_hash() != record.envelope.hash {
            return broken(expected, "its contents do not match its hash".into(), verified);
        }
        prev = record.envelope.hash;
        verified = expected;
    }
    match recorded_head {
        Some((version, hash)) if version == verified && hash == prev => {
            StreamVerdict { stream, verified, head: Some(prev), broken: None }
        }
        Some((version, _)) if version > verified => broken(
            verified + 1,
            format!("the stream's head says {version} events, only {verified} are stored"),
            verified,
        ),
        Some((version, _)) => broken(
            version.min(verified),
            format!("the stream's head (version {version}) does not match its last event"),
            verified,
        ),
        None => broken(1, "the stream has events but no recorded head".into(), verified),
    }
}
