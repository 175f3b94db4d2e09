//! Publishing a group: each ledger stream's part as one atomic batch, expecting the stream's
//! last JetStream sequence to be the one its writer decided on; all parts in flight at once.
//!
//! A part another writer beat to its stream is stored not at all and reported as a conflict.
//! A part whose acknowledgement did not come (a cluster electing a leader, a reconnect) is
//! looked up: stored if the stream's last message is its last event, otherwise published
//! again; the expectation makes the second publish safe.

use super::{subject, JetStreamStorage, MAX_ATOMIC_BATCH, SNAPSHOT_HEADER};
use crate::error::StoreError;
use crate::storage::{Commit, Reader, Sealed, Written};
use async_nats::header::{self, HeaderMap};
use async_nats::jetstream::context::PublishErrorKind;
use async_nats::jetstream::message::PublishMessage;
use ledger::StreamId;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// At most this many atomic batches in flight at once (nats-server limits batches per stream).
const BATCHES_IN_FLIGHT: usize = 32;

/// A group touching at least this many streams goes as one atomic batch: one write (and, under
/// `sync_interval: always`, one fsync) instead of one per stream. Smaller groups go part by
/// part, because an atomic batch is staged before its commit and costs a small group more than
/// it saves (the table load's p50 went from ~3 ms to ~90 ms with every group batched).
const GROUP_BATCH_MIN_PARTS: usize = 8;

/// One stream's part of a group, ready to publish.
#[derive(Clone)]
struct Part {
    stream: StreamId,
    subject: String,
    /// Indexes of the part's records in the commit.
    records: Vec<usize>,
    /// The JetStream sequence of the stream's last message before this part (0: none).
    expected: u64,
    /// `(Nats-Msg-Id, payload)` per record, and the snapshot for the last one.
    messages: Vec<(String, bytes::Bytes)>,
    snapshot: Option<String>,
}

/// What became of a part.
enum Outcome {
    /// Stored; the JetStream sequence of its last message.
    Stored(u64),
    /// Another writer appended to the stream first (or stored one of its event ids).
    Conflict,
}

pub(super) fn write(storage: &JetStreamStorage, commit: &Commit) -> Result<Written, StoreError> {
    let mut parts: Vec<Part> = Vec::new();
    let mut part_of: HashMap<&StreamId, usize> = HashMap::new();
    for (idx, sealed) in commit.records.iter().enumerate() {
        let stream = &sealed.record.envelope.stream;
        let part = *part_of.entry(stream).or_insert_with(|| {
            parts.push(Part {
                stream: stream.clone(),
                subject: subject(stream),
                records: Vec::new(),
                expected: 0,
                messages: Vec::new(),
                snapshot: None,
            });
            parts.len() - 1
        });
        parts[part].records.push(idx);
        parts[part].messages.push(message(sealed));
    }
    for update in &commit.heads {
        if let (Some(&part), Some(snapshot)) = (part_of.get(&update.stream), &update.head.snapshot) {
            parts[part].snapshot = Some(hex::encode(snapshot));
        }
    }
    let mut conflicts = Vec::new();
    let mut ready = Vec::with_capacity(parts.len());
    for mut part in parts {
        let first_seq = commit.records[part.records[0]].record.envelope.seq;
        match storage.sequence_of(&part.stream, first_seq - 1)? {
            Some(expected) => {
                part.expected = expected;
                ready.push(part);
            }
            None => conflicts.push(part.stream),
        }
    }
    let (outcomes, ready) = storage.block(publish_all(storage.clone(), ready));
    let outcomes = outcomes?;
    let mut positions = vec![0; commit.records.len()];
    for (part, outcome) in ready.into_iter().zip(outcomes) {
        match outcome {
            Outcome::Stored(last) => {
                let n = part.records.len() as u64;
                for (k, &idx) in part.records.iter().enumerate() {
                    positions[idx] = last + 1 - n + k as u64;
                }
                let last_seq = commit.records[*part.records.last().expect("a part has records")].record.envelope.seq;
                storage.inner.shared.mark(&part.stream, last_seq, last);
            }
            Outcome::Conflict => conflicts.push(part.stream),
        }
    }
    if !conflicts.is_empty() {
        // The appends will be decided again: let the id index see what the others stored, so a
        // retry stored by another writer is answered as one.
        let last = storage.last_position()?;
        if let Err(error) = storage.wait_followed(last, Duration::from_secs(5)) {
            tracing::warn!(%error, "deciding raced appends again before the id index caught up");
        }
    }
    Ok(Written { positions: Some(positions), conflicts })
}

fn message(sealed: &Sealed) -> (String, bytes::Bytes) {
    (sealed.record.envelope.event_id.clone(), bytes::Bytes::from(sealed.bytes.clone()))
}

impl JetStreamStorage {
    /// The JetStream sequence of a stream's event `seq` if it is the stream's last (0 for an
    /// empty stream at seq 0); `None` if the stream has moved on (another writer).
    fn sequence_of(&self, stream: &StreamId, seq: u64) -> Result<Option<u64>, StoreError> {
        if seq == 0 {
            return Ok(Some(0));
        }
        if let Some((marked_seq, sequence)) = self.inner.shared.marked(stream) {
            if marked_seq == seq {
                return Ok(Some(sequence));
            }
        }
        Ok(self.last_of(stream)?.and_then(|(record, _, sequence)| (record.envelope.seq == seq).then_some(sequence)))
    }
}

/// Publishes every part: a group of many streams as one atomic batch when it fits (one write,
/// one fsync per replica), else, or when that batch lost a race, part by part, at most
/// [`BATCHES_IN_FLIGHT`] batches at a time, so that only the raced parts are refused.
async fn publish_all(storage: JetStreamStorage, parts: Vec<Part>) -> (Result<Vec<Outcome>, StoreError>, Vec<Part>) {
    let total: usize = parts.iter().map(|part| part.messages.len()).sum();
    let mut check_first = false;
    if parts.len() >= GROUP_BATCH_MIN_PARTS && total <= MAX_ATOMIC_BATCH {
        match publish_once(&storage, &parts).await {
            Ok(Outcome::Stored(last)) => {
                let mut next = last + 1 - total as u64;
                let outcomes = parts
                    .iter()
                    .map(|part| {
                        next += part.messages.len() as u64;
                        Outcome::Stored(next - 1)
                    })
                    .collect();
                return (Ok(outcomes), parts);
            }
            // Refused as a whole: nothing of it was stored.
            Ok(Outcome::Conflict) => {}
            // Unanswered: some parts may be stored; each is checked before it is published again.
            Err(error) => {
                tracing::debug!(%error, "a group's batch went unanswered; settling it part by part");
                check_first = true;
            }
        }
    }
    let mut outcomes = Vec::with_capacity(parts.len());
    for wave in parts.chunks(BATCHES_IN_FLIGHT) {
        let mut tasks = tokio::task::JoinSet::new();
        for (k, part) in wave.iter().enumerate() {
            let (storage, part) = (storage.clone(), part.clone());
            tasks.spawn(async move { (k, publish_part(&storage, &part, check_first).await) });
        }
        let mut wave_outcomes: Vec<Option<Outcome>> = (0..wave.len()).map(|_| None).collect();
        while let Some(done) = tasks.join_next().await {
            match done {
                Ok((k, Ok(outcome))) => wave_outcomes[k] = Some(outcome),
                Ok((_, Err(error))) => return (Err(error), parts),
                Err(panic) => return (Err(StoreError::Io(format!("a JetStream publish panicked: {panic}"))), parts),
            }
        }
        outcomes.extend(wave_outcomes.into_iter().map(|o| o.expect("every task answered")));
    }
    (Ok(outcomes), parts)
}

/// Publishes one part until JetStream answers for it: stored, or beaten by another writer.
/// `maybe_stored`: an earlier publish of it went unanswered and may have been stored.
async fn publish_part(storage: &JetStreamStorage, part: &Part, maybe_stored: bool) -> Result<Outcome, StoreError> {
    let started = Instant::now();
    let give_up = storage.inner.config.give_up;
    let mut maybe_stored = maybe_stored;
    let mut warned = false;
    loop {
        if maybe_stored {
            if let Some(outcome) = settle(storage, part, started).await? {
                return Ok(outcome);
            }
        }
        match publish_once(storage, std::slice::from_ref(part)).await {
            // Refused after an unanswered publish: perhaps by that publish itself.
            Ok(Outcome::Conflict) if maybe_stored => {
                return Ok(settle(storage, part, started).await?.unwrap_or(Outcome::Conflict));
            }
            Ok(outcome) => return Ok(outcome),
            Err(error) => {
                if started.elapsed() >= give_up {
                    let subject = &part.subject;
                    return Err(StoreError::Io(format!("JetStream did not store {subject} in {give_up:?}: {error}")));
                }
                if !warned {
                    tracing::warn!(%error, subject = %part.subject, "a JetStream publish went unanswered; checking and publishing again");
                    warned = true;
                }
                maybe_stored = true;
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        }
    }
}

/// Looks until JetStream answers whether the part is stored (`Stored`), was beaten (`Conflict`)
/// or left nothing (`None`).
async fn settle(storage: &JetStreamStorage, part: &Part, started: Instant) -> Result<Option<Outcome>, StoreError> {
    loop {
        match stored(storage, part).await {
            Ok(outcome) => return Ok(outcome),
            Err(error) if started.elapsed() < storage.inner.config.give_up => {
                tracing::debug!(%error, "could not check a publish yet");
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            Err(error) => return Err(error),
        }
    }
}

/// Why one publish did not settle its part.
type Unanswered = String;

/// Publishes `parts` as one atomic batch (one plain publish when it is a single message): the
/// first message of each part expects its stream's last sequence, the last one carries its
/// snapshot. `Stored` gives the JetStream sequence of the batch's last message.
async fn publish_once(storage: &JetStreamStorage, parts: &[Part]) -> Result<Outcome, Unanswered> {
    let n: usize = parts.iter().map(|part| part.messages.len()).sum();
    // A new inbox name is a fresh NUID: unique across writers and machines.
    let batch_id = storage.inner.client.new_inbox();
    let mut ack = None;
    let mut k = 0;
    for part in parts {
        for (idx, (event_id, payload)) in part.messages.iter().enumerate() {
            k += 1;
            let mut headers = HeaderMap::new();
            headers.insert(header::NATS_MESSAGE_ID, event_id.as_str());
            if idx == 0 {
                headers.insert(header::NATS_EXPECTED_LAST_SUBJECT_SEQUENCE, part.expected.to_string().as_str());
            }
            if n > 1 {
                headers.insert(header::NATS_BATCH_ID, batch_id.as_str());
                headers.insert(header::NATS_BATCH_SEQUENCE, k.to_string().as_str());
            }
            if idx + 1 == part.messages.len() {
                if let Some(snapshot) = &part.snapshot {
                    headers.insert(SNAPSHOT_HEADER, snapshot.as_str());
                }
            }
            if k == n {
                if n > 1 {
                    headers.insert(header::NATS_BATCH_COMMIT, header::NATS_BATCH_COMMIT_FINAL);
                }
                let publish = PublishMessage::build().headers(headers).payload(payload.clone());
                let sent = storage.inner.js.send_publish(part.subject.clone(), publish).await;
                ack = Some(sent.map_err(|e| e.to_string())?);
            } else {
                storage
                    .inner
                    .client
                    .publish_with_headers(part.subject.clone(), headers, payload.clone())
                    .await
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    match ack.expect("the last message was published").await {
        Ok(ack) if ack.duplicate => Ok(Outcome::Conflict),
        Ok(ack) => Ok(Outcome::Stored(ack.sequence)),
        Err(e) if e.kind() == PublishErrorKind::WrongLastSequence => Ok(Outcome::Conflict),
        Err(e) if e.to_string().contains("duplicate message id") => Ok(Outcome::Conflict),
        Err(e) => Err(e.to_string()),
    }
}

/// After an unanswered publish, what follows the stream's expected last message on its
/// subject: the part's own first event (`Stored`, with the sequence of its last), another
/// writer's event (`Conflict`), or nothing (`None`). Exact even when others appended after it.
async fn stored(storage: &JetStreamStorage, part: &Part) -> Result<Option<Outcome>, StoreError> {
    let n = part.messages.len();
    let after = super::read::fetch(storage.inner.stream.clone(), part.subject.clone(), part.expected + 1, n).await?;
    let Some(first) = after.first() else { return Ok(None) };
    if first.envelope.event_id != part.messages[0].0 {
        return Ok(Some(Outcome::Conflict));
    }
    // An atomic batch is stored whole: its last event is n messages on.
    match after.last() {
        Some(last) if after.len() == n && last.envelope.event_id == part.messages[n - 1].0 => {
            Ok(Some(Outcome::Stored(last.envelope.position)))
        }
        _ => Err(StoreError::Corrupt(format!(
            "{}: only part of an atomic batch follows sequence {}",
            part.subject, part.expected
        ))),
    }
}
