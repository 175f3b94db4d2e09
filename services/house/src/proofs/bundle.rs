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
//!
//! Nor at its ends (v2, issue 43): the file carries each stream's head proved in the heads map
//! its checkpoint commits to (`ledger_proof::heads`), so a span is said with how many events the
//! stream had as of the checkpoint ("events 1–129 of game/x, of its 130"), and [`Verified::whole`]
//! holds only for a file with every event of its streams, from the first to the head. A v1 file
//! (no heads) verifies as before, its spans without a count.

use ledger::envelope::GENESIS;
use ledger::{Recorded, StreamId};
use ledger_proof::{
    leaf_hash, verify_inclusion, Checkpoint, Hash, HeadProof, HeadsRoot, Opened, StreamHead, VerifierKey,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the file says it is: files written now.
pub const FORMAT: &str = "tournament-ledger-proof/v2";

/// The format before the heads (issue 26): still read.
pub const FORMAT_V1: &str = "tournament-ledger-proof/v1";

/// The file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bundle {
    pub format: String,
    /// The signed note, as the ledger signed it.
    pub checkpoint: String,
    pub events: Vec<ProvedEvent>,
    /// The heads of the file's streams as of the checkpoint, each with its proof (v2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heads: Vec<ProvedHead>,
}

/// One stream's head — its last seq and chain hash as of the checkpoint — and the proof of its
/// leaf (`index` of `count`) in the checkpoint's heads map (hex hashes, leaf side first).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ProvedHead {
    pub stream: String,
    pub seq: u64,
    pub hash: String,
    pub index: u64,
    pub count: u64,
    pub proof: Vec<String>,
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
    /// The heads map the checkpoint commits to; `None` for a checkpoint signed before heads were.
    pub heads: Option<HeadsRoot>,
}

impl Verified {
    /// Whether the file holds every event of each of its streams, from seq 1 to the head its
    /// checkpoint commits to.
    ///
    /// # Errors
    /// A sentence saying what is missing: the checkpoint commits to no heads, a stream's head is
    /// not proved, the file starts after a stream's first event or ends before its head.
    pub fn whole(&self) -> Result<(), String> {
        if self.heads.is_none() {
            return Err("its checkpoint commits to no stream's head (it was signed before checkpoints did), so no \
                        file can show a stream whole against it: prove against a later checkpoint"
                .into());
        }
        for span in &self.spans {
            let stream = &span.stream;
            let Some(head) = span.head else {
                return Err(format!(
                    "the file does not prove {stream}'s head, so it cannot show that it holds all of {stream}'s events"
                ));
            };
            if span.first_seq != 1 {
                let missing = match span.first_seq {
                    2 => "event 1 is".to_owned(),
                    first => format!("events 1–{} are", first - 1),
                };
                return Err(format!("the file starts at event {} of {stream}: {missing} missing", span.first_seq));
            }
            if span.last_seq < head {
                return Err(format!(
                    "the file ends at event {} of {stream}, but {stream} had {head} events as of its checkpoint: \
                     {} missing",
                    span.last_seq,
                    match head - span.last_seq {
                        1 => format!("event {head} is"),
                        _ => format!("events {}–{head} are", span.last_seq + 1),
                    }
                ));
            }
        }
        Ok(())
    }
}

/// An unbroken run of one stream's events: seq after seq, each linked to the one before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub stream: StreamId,
    pub first_seq: u64,
    pub last_seq: u64,
    last_hash: Hash,
    /// How many events the stream had as of the checkpoint (its head, proved); `None` when the
    /// file does not prove it (a v1 file, or its head left out).
    pub head: Option<u64>,
}

impl Span {
    /// It starts at the stream's first event (seq 1, linked to the genesis).
    pub fn from_the_start(&self) -> bool {
        self.first_seq == 1
    }

    /// It holds every event of its stream as of the checkpoint.
    pub fn is_whole(&self) -> bool {
        self.from_the_start() && self.head == Some(self.last_seq)
    }
}

impl std::fmt::Display for Span {
    /// `events 1–160 of game/x, from its first event` or `event 40 of game/x`, then, with the
    /// head proved, `: all 160 it had as of the checkpoint` or `, of the 160 it had as of the
    /// checkpoint`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.first_seq == self.last_seq {
            true => write!(f, "event {} of {}", self.first_seq, self.stream)?,
            false => write!(f, "events {}–{} of {}", self.first_seq, self.last_seq, self.stream)?,
        }
        if self.from_the_start() {
            write!(f, ", from its first event")?;
        }
        match self.head {
            Some(head) if self.is_whole() => write!(f, ": all {head} it had as of the checkpoint"),
            Some(head) => write!(f, ", of the {head} it had as of the checkpoint"),
            None => Ok(()),
        }
    }
}

impl Bundle {
    pub fn new(checkpoint: String) -> Bundle {
        Bundle { format: FORMAT.into(), checkpoint, events: Vec::new(), heads: Vec::new() }
    }

    /// Adds an event with its proof.
    pub fn push(&mut self, record: &Recorded, proof: &[Hash]) {
        self.events.push(ProvedEvent { record: record.to_json(), proof: proof.iter().map(hex::encode).collect() });
    }

    /// Adds a stream's head with its proof in the checkpoint's heads map.
    pub fn push_head(&mut self, proof: &HeadProof) {
        self.heads.push(ProvedHead {
            stream: proof.head.stream.clone(),
            seq: proof.head.seq,
            hash: hex::encode(proof.head.hash),
            index: proof.index,
            count: proof.count,
            proof: proof.hashes.iter().map(hex::encode).collect(),
        });
    }

    /// The file as `ledgerctl prove` writes it and the jury's page hands it over: pretty JSON
    /// and a newline, the same bytes from both.
    ///
    /// # Errors
    /// The bundle cannot be written as JSON (it always can).
    pub fn to_file(&self) -> Result<String, serde_json::Error> {
        Ok(serde_json::to_string_pretty(self)? + "\n")
    }

    /// Checks the checkpoint's signature with `key`, then every event: its contents against its
    /// chain hash, and its inclusion at its position in the checkpoint's tree.
    ///
    /// # Errors
    /// A sentence saying what does not hold, naming the event.
    pub fn verify(&self, key: &VerifierKey) -> Result<Verified, String> {
        if self.format != FORMAT && self.format != FORMAT_V1 {
            return Err(format!("this is not a proof file of this ledger (format {:?}, not {FORMAT:?})", self.format));
        }
        if self.format == FORMAT_V1 && !self.heads.is_empty() {
            return Err(format!("a {FORMAT_V1} file carries no heads"));
        }
        let opened = Checkpoint::open(&self.checkpoint, key, &[])
            .map_err(|e| format!("the checkpoint is not the ledger's signed checkpoint: {e}"))?;
        let heads = HeadsRoot::of(&opened.checkpoint).map_err(|e| format!("the checkpoint's heads: {e}"))?;
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
        let mut spans = spans(&records)?;
        self.check_heads(heads.as_ref(), &mut spans)?;
        Ok(Verified { opened, records, spans, heads })
    }

    /// Checks each head the file carries in the checkpoint's heads map, and against the file's
    /// events of its stream: the span's last event is the head or comes before it.
    fn check_heads(&self, committed: Option<&HeadsRoot>, spans: &mut [Span]) -> Result<(), String> {
        for proved in &self.heads {
            let Some(committed) = committed else {
                return Err(format!(
                    "the file proves {}'s head, but its checkpoint commits to no heads",
                    proved.stream
                ));
            };
            let named = format!("{}'s head (event {})", proved.stream, proved.seq);
            let hash = hex::decode(&proved.hash)
                .ok()
                .and_then(|b| Hash::try_from(b).ok())
                .ok_or_else(|| format!("{named}: its hash is not 32 bytes of hex"))?;
            let proof = proved
                .proof
                .iter()
                .map(|h| hex::decode(h).ok().and_then(|b| Hash::try_from(b).ok()))
                .collect::<Option<Vec<Hash>>>()
                .ok_or_else(|| format!("{named}: a proof hash is not 32 bytes of hex"))?;
            if proved.count != committed.count {
                return Err(format!(
                    "{named}: the proof is for a heads map of {} streams, the checkpoint's has {}",
                    proved.count, committed.count
                ));
            }
            let head = StreamHead { stream: proved.stream.clone(), seq: proved.seq, hash };
            committed
                .verify(&head, proved.index, &proof)
                .map_err(|why| format!("{named} is not the one the checkpoint commits to: {why}"))?;
            let Some(span) = spans.iter_mut().find(|s| s.stream.to_string() == proved.stream) else {
                return Err(format!("the file proves {}'s head but holds none of its events", proved.stream));
            };
            if span.head.is_some() {
                return Err(format!("the file proves {}'s head twice", proved.stream));
            }
            if span.last_seq > head.seq || (span.last_seq == head.seq && span.last_hash != head.hash) {
                return Err(format!(
                    "{} event {} is not in the stream its checkpoint commits to, whose head is event {}",
                    proved.stream, span.last_seq, head.seq
                ));
            }
            span.head = Some(head.seq);
        }
        Ok(())
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
            spans.push(Span {
                stream: e.stream.clone(),
                first_seq: e.seq,
                last_seq: e.seq,
                last_hash: e.hash,
                head: None,
            });
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
#[path = "bundle_tests.rs"]
mod tests;
