//! Envelopes, appends and stream summaries, domain ↔ protobuf.

use super::{FromProto, ToProto};
use crate::v1 as pb;
use ledger::{Event, Recorded, Rejection};
use ledger_store::{AppendRequest, Appended, ProposedEvent, StreamInfo};

impl ToProto for Recorded {
    type Proto = pb::RecordedEvent;
    fn to_proto(&self) -> pb::RecordedEvent {
        record_into_proto(self.clone())
    }
}

/// A record to its wire form, moving its strings rather than copying them (reads send many).
pub fn record_into_proto(record: Recorded) -> pb::RecordedEvent {
    let Recorded { envelope: e, event } = record;
    pb::RecordedEvent {
        envelope: Some(pb::Envelope {
            stream: e.stream.to_string(),
            seq: e.seq,
            position: e.position,
            event_id: e.event_id,
            recorded_at_ms: e.recorded_at_ms,
            actor: e.actor,
            prev_hash: e.prev_hash.to_vec(),
            hash: e.hash.to_vec(),
        }),
        event: Some(event.to_proto()),
    }
}

impl FromProto<pb::RecordedEvent> for Recorded {
    fn from_proto(proto: pb::RecordedEvent) -> Result<Self, Rejection> {
        let e = proto.envelope.ok_or_else(|| Rejection::malformed("the envelope is missing"))?;
        let hash = |bytes: Vec<u8>, what: &str| -> Result<ledger::Hash, Rejection> {
            bytes.try_into().map_err(|_| Rejection::malformed(format!("{what} must be 32 bytes")))
        };
        Ok(Recorded {
            envelope: ledger::Envelope {
                stream: ledger::StreamId::parse(&e.stream)?,
                seq: e.seq,
                position: e.position,
                event_id: e.event_id,
                recorded_at_ms: e.recorded_at_ms,
                actor: e.actor,
                prev_hash: hash(e.prev_hash, "prev_hash")?,
                hash: hash(e.hash, "hash")?,
            },
            event: Event::from_proto(proto.event.ok_or_else(|| Rejection::malformed("the event is missing"))?)?,
        })
    }
}

/// A wire append as the domain's, for `actor` with `clearance` (who the transport says called),
/// refusing malformed input.
///
/// # Errors
/// A malformed stream name or event, naming which event of the batch.
pub fn append_from_proto(
    proto: pb::AppendRequest,
    actor: String,
    clearance: ledger::access::Clearance,
) -> Result<AppendRequest, Rejection> {
    let stream = ledger::StreamId::parse(&proto.stream)?;
    let of = proto.events.len();
    let events = proto
        .events
        .into_iter()
        .enumerate()
        .map(|(idx, e)| proposed_from_proto(e, idx + 1, of))
        .collect::<Result<_, _>>()?;
    Ok(AppendRequest { stream, events, expected_version: proto.expected_version, actor, clearance })
}

/// A proposed event off the wire; `index` (1-based) names it in errors of a batch of `of`.
///
/// # Errors
/// The event id is too long or holds control characters, or the event is missing or malformed.
pub fn proposed_from_proto(proto: pb::ProposedEvent, index: usize, of: usize) -> Result<ProposedEvent, Rejection> {
    let context = |r: Rejection| {
        if of > 1 {
            r.in_event(index, of)
        } else {
            r
        }
    };
    ledger::envelope::check_event_id(&proto.event_id).map_err(context)?;
    let event = proto.event.ok_or_else(|| context(Rejection::malformed("the event is missing")))?;
    Ok(ProposedEvent { event_id: proto.event_id, event: Event::from_proto(event).map_err(context)? })
}

pub fn appended_to_proto(a: &Appended) -> pb::AppendResponse {
    pb::AppendResponse {
        stream: a.stream.to_string(),
        first_seq: a.first_seq,
        last_seq: a.last_seq,
        first_position: a.first_position,
        last_position: a.last_position,
        head_hash: a.head_hash.to_vec(),
        duplicate: a.duplicate,
    }
}

pub fn stream_info_to_proto(s: &StreamInfo) -> pb::StreamSummary {
    pb::StreamSummary { stream: s.stream.to_string(), version: s.version, head_hash: s.head_hash.to_vec() }
}
