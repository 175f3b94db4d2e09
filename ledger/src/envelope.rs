//! The envelope every stored event carries, the per-stream SHA-256 hash chain, and the
//! versioned storage encoding.
//!
//! The hash covers the previous hash, the stream, seq, event id, recorded_at, actor and the
//! canonical JSON of the event. The global position is left out on purpose: it belongs to one
//! log backend, and an export moved to another backend keeps its chain.

use crate::event::{canonical_json_text, from_canonical_json, to_canonical_json, Event};
use crate::stream::StreamId;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// A SHA-256 digest.
pub type Hash = [u8; 32];

/// The hash a stream's first event points back to.
pub const GENESIS: Hash = [0; 32];

/// The longest event id an append may carry, in bytes (UTF-8), not characters.
pub const MAX_EVENT_ID_BYTES: usize = 128;

/// Bounds an event id (at most [`MAX_EVENT_ID_BYTES`], no control characters) before anything
/// else looks at it: the gRPC edge checks it first, the writer again. The message quotes only
/// the id's start.
pub fn check_event_id(id: &str) -> Result<(), crate::rejection::Rejection> {
    if id.len() > MAX_EVENT_ID_BYTES || id.chars().any(char::is_control) {
        return Err(crate::rejection::Rejection::malformed(format!(
            "event id `{}` ({} bytes) must be at most {MAX_EVENT_ID_BYTES} bytes of printable characters",
            crate::rejection::quote(id),
            id.len()
        )));
    }
    Ok(())
}

/// Everything the ledger adds to an event when it stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    pub stream: StreamId,
    /// 1, 2, 3 … within the stream.
    pub seq: u64,
    /// 1, 2, 3 … across the whole log, in commit order.
    pub position: u64,
    pub event_id: String,
    /// Server time in milliseconds since the Unix epoch.
    pub recorded_at_ms: u64,
    pub actor: String,
    pub prev_hash: Hash,
    pub hash: Hash,
}

/// A stored event with its envelope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recorded {
    pub envelope: Envelope,
    pub event: Event,
}

/// The envelope of an event about to be stored, before its hashes are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    pub stream: StreamId,
    pub seq: u64,
    pub position: u64,
    pub event_id: String,
    pub recorded_at_ms: u64,
    pub actor: String,
}

/// What the hash is computed over; the domain string versions the scheme. The event enters as
/// its canonical JSON text, not its storage bytes: an optional field added to an event type
/// later (absent fields are left out of the JSON) changes neither old hashes nor old exports.
#[derive(Serialize)]
struct HashInput<'a> {
    scheme: &'static str,
    prev_hash: &'a Hash,
    stream: String,
    seq: u64,
    event_id: &'a str,
    recorded_at_ms: u64,
    actor: &'a str,
    event: String,
}

/// The chain hash of one event given the hash of the one before it.
pub fn chain_hash(
    prev_hash: &Hash,
    stream: &StreamId,
    seq: u64,
    event_id: &str,
    recorded_at_ms: u64,
    actor: &str,
    event: &Event,
) -> Hash {
    let input = HashInput {
        scheme: "tournament-ledger/chain/v1",
        prev_hash,
        stream: stream.to_string(),
        seq,
        event_id,
        recorded_at_ms,
        actor,
        event: canonical_json_text(event),
    };
    let bytes = postcard::to_stdvec(&input).expect("hash input always encodes");
    Sha256::digest(&bytes).into()
}

impl Recorded {
    /// Builds a record whose hash follows `prev_hash`.
    pub fn seal(draft: Draft, prev_hash: Hash, event: Event) -> Self {
        let Draft { stream, seq, position, event_id, recorded_at_ms, actor } = draft;
        let hash = chain_hash(&prev_hash, &stream, seq, &event_id, recorded_at_ms, &actor, &event);
        Recorded {
            envelope: Envelope { stream, seq, position, event_id, recorded_at_ms, actor, prev_hash, hash },
            event,
        }
    }

    /// The hash this record should have, recomputed from its contents.
    pub fn recomputed_hash(&self) -> Hash {
        let e = &self.envelope;
        chain_hash(&e.prev_hash, &e.stream, e.seq, &e.event_id, e.recorded_at_ms, &e.actor, &self.event)
    }

    /// The JSON Lines form used by `ledgerctl read` and exports: the envelope fields with the
    /// canonical event nested under `event`.
    pub fn to_json(&self) -> Value {
        let e = &self.envelope;
        json!({
            "stream": e.stream.to_string(),
            "seq": e.seq,
            "position": e.position,
            "event_id": e.event_id,
            "recorded_at_ms": e.recorded_at_ms,
            "actor": e.actor,
            "prev_hash": hex::encode(e.prev_hash),
            "hash": hex::encode(e.hash),
            "event": to_canonical_json(&self.event),
        })
    }

    /// Parses the JSON Lines form of [`Recorded::to_json`].
    ///
    /// # Errors
    /// A message naming the missing or malformed field.
    pub fn from_json(value: &Value) -> Result<Self, String> {
        let text = |k: &str| value.get(k).and_then(Value::as_str).ok_or_else(|| format!("missing `{k}`"));
        let number = |k: &str| value.get(k).and_then(Value::as_u64).ok_or_else(|| format!("missing `{k}`"));
        let hash = |k: &str| -> Result<Hash, String> {
            let bytes = hex::decode(text(k)?).map_err(|e| format!("`{k}`: {e}"))?;
            bytes.try_into().map_err(|_| format!("`{k}` must be 32 bytes"))
        };
        let stream = StreamId::parse(text("stream")?).map_err(|r| r.message)?;
        let event = from_canonical_json(value.get("event").ok_or("missing `event`")?).map_err(|e| e.0)?;
        Ok(Recorded {
            envelope: Envelope {
                stream,
                seq: number("seq")?,
                position: number("position")?,
                event_id: text("event_id")?.to_owned(),
                recorded_at_ms: number("recorded_at_ms")?,
                actor: text("actor")?.to_owned(),
                prev_hash: hash("prev_hash")?,
                hash: hash("hash")?,
            },
            event,
        })
    }
}

/// The storage format version written today. Every version ever written stays decodable.
pub const STORAGE_VERSION: u8 = 1;

/// Encodes a record for storage: one version byte, then postcard.
pub fn encode_record(record: &Recorded) -> Vec<u8> {
    let mut bytes = vec![STORAGE_VERSION];
    bytes.extend(postcard::to_stdvec(record).expect("records always encode"));
    bytes
}

/// Decodes a stored record of any known version.
///
/// # Errors
/// A message when the version is unknown or the bytes are damaged.
pub fn decode_record(bytes: &[u8]) -> Result<Recorded, String> {
    match bytes.split_first() {
        Some((1, body)) => postcard::from_bytes(body).map_err(|e| format!("damaged record: {e}")),
        Some((version, _)) => Err(format!("unknown storage version {version}")),
        None => Err("empty record".into()),
    }
}

/// What a reader that needs only the envelope takes of a stored record: its place, its chain
/// hash and which event it holds, read without decoding the event (nothing allocated; the ids
/// are borrowed from the bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredHead<'a> {
    pub stream: crate::stream::StreamKind,
    pub stream_id: &'a str,
    pub seq: u64,
    pub position: u64,
    pub hash: Hash,
    /// The event's variant in the stored encoding (compare with [`stored_event_tag`]).
    pub event_tag: u32,
}

/// The envelope's fields in their stored order, borrowed.
#[derive(Deserialize)]
struct BorrowedEnvelope<'a> {
    #[serde(borrow)]
    stream: (crate::stream::StreamKind, &'a str),
    seq: u64,
    position: u64,
    _event_id: &'a str,
    _recorded_at_ms: u64,
    _actor: &'a str,
    _prev_hash: Hash,
    hash: Hash,
}

/// Reads a stored record's envelope and its event's variant, as [`decode_record`] would read
/// them, without decoding the event.
///
/// # Errors
/// A message when the version is unknown or the bytes are damaged.
pub fn decode_head(bytes: &[u8]) -> Result<StoredHead<'_>, String> {
    let damaged = |e: postcard::Error| format!("damaged record: {e}");
    match bytes.split_first() {
        Some((1, body)) => {
            let (envelope, event) = postcard::take_from_bytes::<BorrowedEnvelope<'_>>(body).map_err(damaged)?;
            let (event_tag, _) = postcard::take_from_bytes::<u32>(event).map_err(damaged)?;
            Ok(StoredHead {
                stream: envelope.stream.0,
                stream_id: envelope.stream.1,
                seq: envelope.seq,
                position: envelope.position,
                hash: envelope.hash,
                event_tag,
            })
        }
        Some((version, _)) => Err(format!("unknown storage version {version}")),
        None => Err("empty record".into()),
    }
}

/// An event's variant in the stored encoding, as [`decode_head`] reads it.
pub fn stored_event_tag(event: &Event) -> u32 {
    let bytes = postcard::to_stdvec(event).expect("events always encode");
    postcard::take_from_bytes::<u32>(&bytes).expect("an encoded event starts with its variant").0
}

/// Appends one stored record (as [`encode_record`] writes it) to a **run**: records one after
/// the other, each a little-endian u32 length and the record. The embedded log's frames hold
/// their records so, and `ReadPages` sends them so to a client that asks for the stored
/// encoding, which then reads them without a server decoding and re-encoding each one.
pub fn push_stored(run: &mut Vec<u8>, record: &[u8]) {
    let len = u32::try_from(record.len()).expect("a stored record is far below 4 GiB");
    run.extend_from_slice(&len.to_le_bytes());
    run.extend_from_slice(record);
}

/// Where each record of a run starts and ends; a damaged length ends it with an error.
pub fn stored_spans(run: &[u8]) -> StoredSpans<'_> {
    StoredSpans { run, at: 0 }
}

/// The stored records of a run, in order, not yet decoded.
pub fn stored_records(run: &[u8]) -> impl Iterator<Item = Result<&[u8], String>> {
    stored_spans(run).map(move |span| span.map(|(start, end)| &run[start..end]))
}

/// The records of a run, decoded.
pub fn decode_run(run: &[u8]) -> impl Iterator<Item = Result<Recorded, String>> + '_ {
    stored_records(run).map(|bytes| decode_record(bytes?))
}

/// Iterator over a run's record spans (see [`stored_spans`]).
pub struct StoredSpans<'a> {
    run: &'a [u8],
    at: usize,
}

impl Iterator for StoredSpans<'_> {
    type Item = Result<(usize, usize), String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.run.len() {
            return None;
        }
        let start = self.at + 4;
        let span = self.run.get(self.at..start).and_then(|len| {
            let len = usize::try_from(u32::from_le_bytes(len.try_into().ok()?)).ok()?;
            let end = start.checked_add(len)?;
            (end <= self.run.len()).then_some((start, end))
        });
        self.at = span.map_or(self.run.len(), |(_, end)| end);
        Some(span.ok_or_else(|| format!("damaged run of records: a length at byte {} runs past its end", start - 4)))
    }
}

/// Where a chain of records breaks, if it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainBreak {
    pub seq: u64,
    pub reason: String,
}

/// Checks that `records` form one stream's chain from seq 1: seqs without gaps, each record's
/// hash recomputed from its contents, and each pointing back to the one before.
///
/// # Errors
/// The first seq where the chain breaks, and why.
pub fn verify_chain<'a>(records: impl IntoIterator<Item = &'a Recorded>) -> Result<Option<Hash>, ChainBreak> {
    let mut prev = GENESIS;
    let mut head = None;
    for (expected_seq, record) in (1u64..).zip(records) {
        let e = &record.envelope;
        if e.seq != expected_seq {
            return Err(ChainBreak {
                seq: expected_seq,
                reason: format!("expected seq {expected_seq}, found seq {}", e.seq),
            });
        }
        if e.prev_hash != prev {
            return Err(ChainBreak { seq: e.seq, reason: "does not point back to the event before it".into() });
        }
        if record.recomputed_hash() != e.hash {
            return Err(ChainBreak { seq: e.seq, reason: "its contents do not match its hash".into() });
        }
        prev = e.hash;
        head = Some(e.hash);
    }
    Ok(head)
}

/// The short form of a chain head a jury writes on the paper game report.
pub fn short_digest(hash: &Hash) -> String {
    hex::encode(&hash[..6])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_is_what_the_full_decode_reads() {
        let ended =
            json!({"type":"game_ended","outcome":"prussian_defensive_victory","winners":["prussia"],"objectives":{}});
        let started = json!({"type": "game_started", "at_ms": 0, "ruleset": "wm2015"});
        let mut tags = Vec::new();
        for (stream, event) in [("game/q1-t1", ended), ("game/q1-t2", started)] {
            let event = from_canonical_json(&event).unwrap();
            let envelope = Envelope {
                stream: StreamId::parse(stream).unwrap(),
                seq: 3,
                position: 300_000,
                event_id: "e-1".into(),
                recorded_at_ms: 1_700_000_000_000,
                actor: "jury".into(),
                prev_hash: [7; 32],
                hash: [9; 32],
            };
            let record = Recorded { envelope, event };
            let bytes = encode_record(&record);
            let head = decode_head(&bytes).unwrap();
            assert_eq!((head.stream, head.stream_id), (record.envelope.stream.kind(), record.envelope.stream.id()));
            assert_eq!((head.seq, head.position, head.hash), (3, 300_000, [9; 32]));
            assert_eq!(head.event_tag, stored_event_tag(&record.event));
            tags.push(head.event_tag);
        }
        assert_ne!(tags[0], tags[1]);
        assert!(decode_head(&[2, 0]).is_err());
    }
}
