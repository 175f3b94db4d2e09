//! One append of the crash test as sent ([`Attempt`]: enough to send exactly the same request
//! again after a crash) and what the ledger acknowledged of it ([`Ack`]), checked against the
//! append it answers. The events themselves are [`super::events`]'s.

use super::events::{event_of, TOURNAMENT_PREFIX};
use ledger_house::auth::{ACTOR_HEADER, CLEARANCE_HEADER};
use ledger_proto::convert::ToProto;
use ledger_proto::v1 as pb;

/// One append, as sent: enough to send exactly the same request again after a crash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub stream: String,
    /// The seq the first event gets if the append is stored now.
    pub first_seq: u64,
    pub event_ids: Vec<String>,
    /// Set on shared streams (always `first_seq - 1`), where writers race.
    pub expected_version: Option<u64>,
}

impl Attempt {
    pub fn n_events(&self) -> u64 {
        self.event_ids.len() as u64
    }

    pub fn last_seq(&self) -> u64 {
        self.first_seq + self.n_events() - 1
    }

    pub fn is_shared(&self) -> bool {
        self.expected_version.is_some()
    }

    pub fn request(&self) -> pb::AppendRequest {
        pb::AppendRequest {
            stream: self.stream.clone(),
            events: (self.first_seq..)
                .zip(&self.event_ids)
                .map(|(seq, id)| pb::ProposedEvent {
                    event_id: id.clone(),
                    event: Some(event_of(&self.stream, seq).to_proto()),
                })
                .collect(),
            expected_version: self.expected_version,
        }
    }

    /// The request, sent by `actor` with the clearance its stream needs: a tournament's events
    /// need an organiser, a game's a table.
    pub fn signed(&self, actor: &str) -> tonic::Request<pb::AppendRequest> {
        let clearance = if self.stream.starts_with(TOURNAMENT_PREFIX) { "organiser" } else { "table" };
        with_clearance(self.request(), actor, clearance)
    }

    /// `game/crash-u1-0 seq 17–19`, for messages.
    pub fn describe(&self) -> String {
        if self.n_events() == 1 {
            format!("{} seq {}", self.stream, self.first_seq)
        } else {
            format!("{} seq {}–{}", self.stream, self.first_seq, self.last_seq())
        }
    }
}

/// One event the ledger acknowledged: where it said the event is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ack {
    pub stream: String,
    pub seq: u64,
    pub event_id: String,
    pub position: u64,
}

/// Checks an answer against the append it answers and lists the events it acknowledges.
///
/// # Errors
/// The answer names another stream, other seqs, positions that are not one per event, or says
/// `duplicate` where the caller did not expect it: the ledger's promise would be broken.
pub fn acks_of(attempt: &Attempt, answer: &pb::AppendResponse, duplicate_expected: bool) -> Result<Vec<Ack>, String> {
    let n = attempt.n_events();
    let consistent = answer.stream == attempt.stream
        && answer.first_seq == attempt.first_seq
        && answer.last_seq == attempt.last_seq()
        && answer.last_position.checked_sub(answer.first_position) == Some(n - 1)
        && answer.first_position >= 1;
    if !consistent || (answer.duplicate && !duplicate_expected) {
        return Err(format!(
            "{}: the answer does not match the append: stream {} seq {}–{} positions {}–{} duplicate {}",
            attempt.describe(),
            answer.stream,
            answer.first_seq,
            answer.last_seq,
            answer.first_position,
            answer.last_position,
            answer.duplicate
        ));
    }
    Ok((0..n)
        .zip(&attempt.event_ids)
        .map(|(k, id)| Ack {
            stream: attempt.stream.clone(),
            seq: attempt.first_seq + k,
            event_id: id.clone(),
            position: answer.first_position + k,
        })
        .collect())
}

/// Open mode trusts these headers; every game event here needs table clearance only.
pub fn with_identity<T>(message: T, actor: &str) -> tonic::Request<T> {
    with_clearance(message, actor, "table")
}

/// `message` from `actor` with `clearance` (trusted in open mode).
fn with_clearance<T>(message: T, actor: &str, clearance: &'static str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    if let Ok(actor) = actor.parse() {
        request.metadata_mut().insert(ACTOR_HEADER, actor);
    }
    request.metadata_mut().insert(CLEARANCE_HEADER, tonic::metadata::MetadataValue::from_static(clearance));
    request
}
