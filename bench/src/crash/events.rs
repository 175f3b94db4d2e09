//! What the crash test appends, and how one append is described so that it can be retried.
//!
//! The writers' streams are stand-alone games whose `seq`-th event is a fixed function of
//! `seq` ([`event_at`]): `game_started`, then `turn_started` 1 to 23 (a game's last turn), then,
//! in turn 23, the seven nations' action stages one after the other, `action_stage_started` and
//! `action_stage_ended` of each, round and round, each event a second of table time after the
//! one before. The rules accept a `turn_started` only for exactly the next turn, and a nation's
//! action stage only once the one before it ended and its end only for the nation acting, so an
//! event that was lost, doubled or reordered, or a stream state restored wrongly after a crash,
//! makes the next append fail instead of passing unnoticed (all but a loss that lands on a
//! stage's start, which the rules accept whenever no stage is open: a whole stage lost, or turn
//! 23 lost before the first; the read-back below still sees those); and reading a stream back,
//! every event can be compared with what its seq must hold.
//!
//! Tournaments ([`super::tournament`]) follow the same rule: a tournament stream's `seq`-th
//! event and each of its games' are fixed functions of the seq too ([`event_of`]).

use super::tournament;
use ledger::rules::MAX_TURNS;
use ledger::{Event, Nation, Ruleset};
use ledger_house::auth::{ACTOR_HEADER, CLEARANCE_HEADER};
use ledger_proto::convert::ToProto;
use ledger_proto::v1 as pb;

/// 2026-09-01, the games' table time at seq 0; each event is a second later than the one before.
pub const STARTED_AT_MS: u64 = 1_788_220_800_000;

/// Every game stream of the crash test starts with this (a tournament's games too).
pub const STREAM_PREFIX: &str = "game/crash-";

/// The event every stand-alone game holds at `seq` (1-based).
pub fn event_at(seq: u64) -> Event {
    if seq <= 1 {
        return Event::GameStarted { at_ms: STARTED_AT_MS, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    }
    if seq <= LAST_TURN_SEQ {
        return turn_at(seq);
    }
    stage_at(seq)
}

/// The seq of the last turn's `turn_started`: the game's start, then turns 1 to 23.
const LAST_TURN_SEQ: u64 = 1 + MAX_TURNS as u64;

/// `turn_started` at `seq` (2 to 24): turn `seq - 1`, a second after the event before it.
pub fn turn_at(seq: u64) -> Event {
    let turn = u32::try_from(seq.saturating_sub(1)).unwrap_or(u32::MAX);
    Event::TurnStarted { turn, at_ms: Some(at_ms(seq)) }
}

/// After the last turn: the nations' action stages in turn, a start and an end each.
fn stage_at(seq: u64) -> Event {
    let k = seq - LAST_TURN_SEQ - 1;
    let nation = Nation::ALL[usize::try_from(k / 2).unwrap_or(0) % Nation::ALL.len()];
    let at_ms = at_ms(seq);
    if k.is_multiple_of(2) {
        Event::ActionStageStarted { nation, at_ms }
    } else {
        Event::ActionStageEnded { nation, at_ms }
    }
}

/// The table time of the event at `seq`: a second after the one before.
fn at_ms(seq: u64) -> u64 {
    STARTED_AT_MS + seq * 1_000
}

/// The event `stream` holds at `seq`: a tournament's or one of its games' (see
/// [`tournament::event_of`]), else a stand-alone game's.
pub fn event_of(stream: &str, seq: u64) -> Event {
    tournament::event_of(stream, seq).unwrap_or_else(|| event_at(seq))
}

/// Whether the crash program writes `stream` (every stream it reads back).
pub fn is_ours(stream: &str) -> bool {
    stream.starts_with(STREAM_PREFIX) || stream.starts_with(tournament::STREAM_PREFIX)
}

/// The name of a writer's own stream.
pub fn own_stream(writer: &str, idx: usize) -> String {
    format!("{STREAM_PREFIX}{writer}-{idx}")
}

/// The name of a stream every unary writer appends to, with expected versions.
pub fn shared_stream(idx: usize) -> String {
    format!("{STREAM_PREFIX}shared-{idx}")
}

/// The id of an event on a writer's own stream: one event per seq, so the seq names it.
pub fn own_event_id(stream: &str, seq: u64) -> String {
    format!("{stream}#{seq}")
}

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
        let clearance = if self.stream.starts_with(tournament::STREAM_PREFIX) { "organiser" } else { "table" };
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

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::StreamId;
    use ledger::StreamState;

    /// Up to `--max-stream-events` (5,000), every event is valid at its seq, a double is refused,
    /// and so is a skip of one or two, except onto a stage's start: the rules accept one whenever
    /// no stage is open (a whole stage lost, or turn 23 lost before the stages, which the
    /// read-back still sees).
    #[test]
    fn the_sequence_is_a_valid_game_and_each_event_fits_only_its_seq() {
        let stream = StreamId::parse(&own_stream("u0", 0)).unwrap();
        let mut state = StreamState::new(&stream, None);
        for seq in 1..=5_000u64 {
            for other in [1, seq.saturating_sub(1), seq + 1, seq + 2] {
                let skip_onto_a_start = other > seq && matches!(event_at(other), Event::ActionStageStarted { .. });
                if other != seq && other >= 1 && !skip_onto_a_start {
                    assert!(state.decide(&event_at(other)).is_err(), "seq {other} accepted at {seq}");
                }
            }
            state.apply(&event_at(seq)).unwrap_or_else(|r| panic!("seq {seq}: {r}"));
        }
        assert!(matches!(event_at(LAST_TURN_SEQ), Event::TurnStarted { turn: MAX_TURNS, .. }));
    }
}
