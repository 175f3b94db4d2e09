//! A tablet's queue of events, appended to one stream: the part of the offline table that does
//! not depend on the game. The Friedrich table page (`/table/<game>/events`) and the Andes
//! recording mode (`/andes/<match>/record/events`) both send their IndexedDB queue here, and
//! both follow their stream's version here to know when to fetch their view again.
//!
//! The tablet decided each event on the state the one before it leaves and gave it the stream
//! version it expects. An Andes `move_played` is followed in the stream by the events the
//! ledger derives from it (the sequencer appends them), so the version after it is not its own
//! seq: the stream's own rules ([`StreamState`] and [`Folded::pending_derived`]) say how many
//! versions each queued event takes, exactly as the tablet's mirror predicted.
//!
//! [`Folded::pending_derived`]: ledger::Folded::pending_derived

use crate::auth::same_origin;
use crate::i18n::Lang;
use crate::live::sse::{follow, html_event, Live};
use crate::refusal::JsonError;
use crate::{blocking, PageError, WebState};
use axum::http::HeaderMap;
use axum::Json;
use ledger::{Folded, Recorded, Rejection, StreamId, StreamState};
use ledger_house::error::Error;
use ledger_store::{AppendError, AppendRequest, ProposedEvent};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The most events one request of the tablet's queue carries (the script sends at most this).
pub(crate) const MAX_EVENTS_PER_SEND: usize = 256;

/// The tablet's queue, oldest first: each event made on the tablet with its own id and the
/// stream version it was decided at.
#[derive(Deserialize)]
pub(crate) struct Queue {
    events: Vec<QueuedEvent>,
}

#[derive(Deserialize)]
pub(crate) struct QueuedEvent {
    event_id: String,
    expected_version: u64,
    /// The event's canonical JSON (docs/EVENTS.md).
    event: serde_json::Value,
}

/// What became of one queued event. Events after a refused one are not tried and not listed:
/// they were decided on top of it, and stay queued.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    event_id: String,
    /// `stored`, `duplicate` (it was stored before: an acknowledgement that got lost) or `refused`.
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    seq: Option<u64>,
    /// The rule's kind (`RejectionKind::as_str`), for refusals.
    #[serde(skip_serializing_if = "Option::is_none")]
    refusal: Option<&'static str>,
    /// The ledger's sentence, for refusals (machines and logs read it).
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// The rules' message id and arguments, for refusals that have them: the tablet words them
    /// with its own catalogue, as it words its own refusals.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<serde_json::Map<String, serde_json::Value>>,
    /// The refusal in the language of the request, for a tablet whose catalogues lack its id.
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
}

#[derive(Serialize)]
pub(crate) struct Sent {
    results: Vec<Outcome>,
}

impl Outcome {
    fn stored(event_id: &str, seq: u64, duplicate: bool) -> Outcome {
        let status = if duplicate { "duplicate" } else { "stored" };
        Outcome {
            event_id: event_id.to_owned(),
            status,
            seq: Some(seq),
            refusal: None,
            message: None,
            id: None,
            args: None,
            text: None,
        }
    }

    /// `rejection` of the event `event_id`, its machine message `message` (without the batch's
    /// `event N of M:`), worded in `lang` for the tablet.
    fn refused(event_id: &str, rejection: &Rejection, message: String, lang: Lang) -> Outcome {
        let about_one = Rejection { event: None, ..rejection.clone() };
        Outcome {
            event_id: event_id.to_owned(),
            status: "refused",
            seq: None,
            refusal: Some(rejection.kind.as_str()),
            message: Some(message),
            id: rejection.reason.as_ref().map(|r| r.id),
            args: rejection.reason.as_ref().map(ledger_house::words::plain_args),
            text: Some(ledger_house::words::refusal(lang, &about_one)),
        }
    }
}

/// One queued event in the batch, and how far into the append it lands: the offset of its seq
/// from the append's first seq (the derived events of the ones before it come in between).
#[derive(Clone)]
struct Batched {
    proposed: ProposedEvent,
    offset: u64,
}

/// Appends the tablet's queue to `stream`, in order, as one atomic append (one sync for the
/// lot) after the events the stream already holds under their ids: a resend whose
/// acknowledgement was lost is answered `duplicate`, hours later too. A refusal names the event
/// it is about; the events before it are appended, the ones after it are not tried.
pub(crate) async fn append(
    state: &WebState,
    headers: &HeaderMap,
    viewer: &crate::auth::Viewer,
    stream: StreamId,
    queue: Queue,
) -> Result<Json<Sent>, JsonError> {
    same_origin(headers)?;
    let recorder = state.auth.recorder(&viewer.metadata)?;
    recorder.may_write(&stream, &*state.log)?;
    let (actor, clearance) = (recorder.actor.clone(), recorder.clearance);
    if queue.events.len() > MAX_EVENTS_PER_SEND {
        return Err(PageError::from(Error::Refused(
            Rejection::malformed(format!(
                "at most {MAX_EVENTS_PER_SEND} events are sent at once, got {}",
                queue.events.len()
            ))
            .said("refusal-send-too-many", [("count", queue.events.len().into()), ("max", MAX_EVENTS_PER_SEND.into())]),
        ))
        .into());
    }
    let bytes = queue.events.iter().map(|queued| queued.event.to_string().len()).sum();
    recorder.take(queue.events.len(), bytes)?;
    let (stored, mut head) = read_what_the_queue_needs(state, &stream, &queue).await?;
    let lang = crate::i18n::of_request(headers);
    let mut results = Vec::new();
    let mut batch: Vec<Batched> = Vec::new();
    let mut expected = None;
    let mut span = 0u64;
    for queued in &queue.events {
        let event = match ledger::event::from_canonical_json(&queued.event) {
            Ok(event) => event,
            Err(error) => {
                let said = ledger_house::words::input::of_event(&error.0);
                let rejection = Rejection::malformed(error.to_string()).because(said);
                results.push(Outcome::refused(&queued.event_id, &rejection, error.to_string(), lang));
                break;
            }
        };
        match stored.get(queued.event_id.as_str()) {
            Some(record) if batch.is_empty() && record.event == event => {
                results.push(Outcome::stored(&queued.event_id, record.envelope.seq, true));
                continue;
            }
            _ => {}
        }
        // The queue was decided event after event: each expects the version the one before
        // leaves (its own seq, and those of what the ledger derives from it). One that does
        // not is sent on its own later.
        let wanted = queued.expected_version;
        match expected {
            None => expected = Some(wanted),
            Some(first) if wanted != first + span => break,
            Some(_) => {}
        }
        let offset = span;
        span += head.versions_taken(&event);
        batch.push(Batched { proposed: ProposedEvent { event_id: queued.event_id.clone(), event }, offset });
    }
    // Only what is recorded spends the tablet's allowance (issue 42): the rest is given back.
    let settled = |results: Vec<Outcome>| {
        let recorded: std::collections::HashSet<&str> =
            results.iter().filter(|o| o.status == "stored").map(|o| o.event_id.as_str()).collect();
        let (n_events, bytes) = queue
            .events
            .iter()
            .filter(|queued| !recorded.contains(queued.event_id.as_str()))
            .fold((0, 0), |(n, b), queued| (n + 1, b + queued.event.to_string().len()));
        if n_events > 0 {
            recorder.give_back(n_events, bytes);
        }
        Json(Sent { results })
    };
    let Some(expected) = expected else { return Ok(settled(results)) };
    let request = |events: &[Batched]| AppendRequest {
        stream: stream.clone(),
        events: events.iter().map(|b| b.proposed.clone()).collect(),
        expected_version: Some(expected),
        actor: actor.clone(),
        clearance,
    };
    let acknowledged = |results: &mut Vec<Outcome>, events: &[Batched], first_seq: u64, duplicate: bool| {
        for batched in events {
            results.push(Outcome::stored(&batched.proposed.event_id, first_seq + batched.offset, duplicate));
        }
    };
    match state.log.append(request(&batch)).await {
        Ok(appended) => acknowledged(&mut results, &batch, appended.first_seq, appended.duplicate),
        Err(AppendError::Rejected(rejection)) => {
            // The append is atomic: nothing of it is stored. The events before the refused one
            // were accepted by the rules, so they go in on their own.
            let refused = rejection.event.map_or(0, |n| (n as usize).saturating_sub(1)).min(batch.len() - 1);
            if refused > 0 {
                let before = &batch[..refused];
                let appended = state.log.append(request(before)).await.map_err(|e| PageError::from(Error::from(e)))?;
                acknowledged(&mut results, before, appended.first_seq, appended.duplicate);
            }
            let message = strip_event_prefix(&rejection.message, rejection.event);
            results.push(Outcome::refused(&batch[refused].proposed.event_id, &rejection, message, lang));
        }
        Err(AppendError::Storage(error)) => return Err(PageError::from(error).into()),
    }
    Ok(settled(results))
}

/// What a POST reads of the stream, bounded by the queue rather than by the stream: the
/// records stored under the queue's event ids (found through the log's event-id index) and the
/// stream's head to decide the queue on.
async fn read_what_the_queue_needs(
    state: &WebState,
    stream: &StreamId,
    queue: &Queue,
) -> Result<(HashMap<String, Recorded>, Head), PageError> {
    let log = Arc::clone(&state.log);
    let stream = stream.clone();
    let ids: Vec<String> = queue.events.iter().map(|queued| queued.event_id.clone()).collect();
    let voids = queue.events.iter().any(|queued| {
        ledger::event::from_canonical_json(&queued.event).is_ok_and(|event| ledger::rules::needs_history(&event))
    });
    blocking(move || {
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        let found = log.find_event_ids(&stream, &ids)?;
        let stored = found.into_iter().map(|record| (record.envelope.event_id.clone(), record)).collect();
        let snapshot = if voids { None } else { log.stream_folded(&stream)? };
        let head = match snapshot {
            Some(fold) => Head::Snapshot(fold),
            None => {
                // Stored events are folded as stored: only the versions matter here.
                let mut replayed = StreamState::new(&stream, None);
                for record in log.read_stream(&stream, 1, usize::MAX)? {
                    replayed.evolve(&record.event);
                }
                Head::Replayed(replayed)
            }
        };
        Ok((stored, head))
    })
    .await
}

/// The stream's state the queue's events are decided on, to count the versions each takes:
/// the snapshot stored with the stream's head (one read, whatever the stream's length), or the
/// stream replayed when the snapshot is of another version of the rules or the queue voids an
/// event (a void is decided over the stream's whole history; a table's queue rarely holds one).
enum Head {
    Snapshot(Folded),
    Replayed(StreamState),
}

impl Head {
    /// How many versions `event` moves the stream on: 1, and 1 for each event the ledger
    /// derives from it. An event the rules refuse takes 1 (the append will refuse it and say why).
    fn versions_taken(&mut self, event: &ledger::Event) -> u64 {
        let accepted = match self {
            // A snapshot holds no history: a void never reaches it (see `read_what_the_queue_needs`).
            Head::Snapshot(fold) if !ledger::rules::needs_history(event) => {
                fold.decide(event, &[]).map(|()| fold.evolve(event, &[]))
            }
            Head::Snapshot(_) => return 1,
            Head::Replayed(replayed) => replayed.apply(event),
        };
        if accepted.is_err() {
            return 1;
        }
        let derived = self.folded().pending_derived();
        for next in &derived {
            match self {
                Head::Snapshot(fold) => fold.evolve(next, &[]),
                Head::Replayed(replayed) => replayed.evolve(next),
            }
        }
        1 + derived.len() as u64
    }

    fn folded(&self) -> &Folded {
        match self {
            Head::Snapshot(fold) => fold,
            Head::Replayed(replayed) => replayed.folded(),
        }
    }
}

/// The ledger's sentence without the `event 2 of 5: ` it puts in front inside a batch: the
/// tablet shows it beside the one action it is about.
fn strip_event_prefix(message: &str, event: Option<u32>) -> String {
    match event {
        Some(_) => message
            .split_once(": ")
            .filter(|(head, _)| head.starts_with("event "))
            .map_or(message, |(_, rest)| rest)
            .to_owned(),
        None => message.to_owned(),
    }
}

/// `stream`'s new version whenever it changes, from the log position `from`: the tablet then
/// fetches its view again.
pub(crate) fn follow_version(
    state: &WebState,
    claim: &crate::live::sse::Claim,
    stream: StreamId,
    from: u64,
) -> Result<Live, PageError> {
    let version = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&version);
    follow(
        state,
        claim,
        from,
        move |record| {
            let mine = record.envelope.stream == stream;
            if mine {
                seen.fetch_max(record.envelope.seq, Ordering::Relaxed);
            }
            mine
        },
        move |position| {
            let version = version.load(Ordering::Relaxed);
            async move { Some(html_event("version", position, &version.to_string())) }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::andes::AndesEvent;
    use ledger::Event;

    #[test]
    fn a_refusal_inside_a_batch_reads_as_about_its_one_event() {
        assert_eq!(
            strip_event_prefix("event 2 of 5: no clock is running to press", Some(2)),
            "no clock is running to press"
        );
        assert_eq!(strip_event_prefix("no clock is running to press", None), "no clock is running to press");
    }

    #[test]
    fn a_move_takes_its_own_version_and_one_for_each_derived_event() {
        let id = StreamId::parse("andes/q1").unwrap();
        let events = ledger::andes::testing::seeded_match(3, 200);
        for mut head in [Head::Snapshot(Folded::new(&id, None)), Head::Replayed(StreamState::new(&id, None))] {
            let mut taken = 0;
            for event in events.iter().filter(|e| !e.is_derived()) {
                taken += head.versions_taken(&Event::Andes(event.clone()));
            }
            assert_eq!(taken, events.len() as u64, "the recorded events and what they derive fill the stream");
            assert_eq!(head.folded().version(), taken);
            let refused = Event::Andes(AndesEvent::MovePlayed { notation: "0a0".into(), at_ms: 0 });
            assert_eq!(head.versions_taken(&refused), 1);
        }
    }
}
