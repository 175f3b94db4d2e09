//! Target `proto_conversion`: the protobuf messages ledgerd and ledgerctl receive, decoded from
//! any bytes and converted to domain types by `ledger_proto::convert` (the only place
//! protobuf types meet the domain). The first byte picks the message: an `AppendRequest` (what
//! ledgerd receives), a `RecordedEvent` (what ledgerctl reads back) or a bare `Event`.
//!
//! Decoding and converting answer `Ok` or a rejection and never panic. Whatever is accepted
//! round-trips domain → protobuf → bytes → protobuf → domain to the same value, is the same
//! event in the other two encodings (canonical JSON for files, postcard for storage), and goes
//! through the rules of its stream without a panic (they may refuse it).

use ledger::access::{permits, Clearance};
use ledger::envelope::{decode_record, encode_record};
use ledger::event::{from_canonical_json, to_canonical_json};
use ledger::rules::StreamState;
use ledger::{Event, Recorded, Ruleset};
use ledger_proto::convert::{append_from_proto, record_into_proto, FromProto, ToProto};
use ledger_proto::v1 as pb;
use ledger_store::AppendRequest;
use prost::Message;

/// Which message the rest of the input holds, by the first byte modulo 3.
pub const APPEND_REQUEST: u8 = 0;
pub const RECORDED_EVENT: u8 = 1;
pub const EVENT: u8 = 2;

/// Decodes `data[1..]` as the message `data[0]` picks, and converts it.
pub fn proto_conversion(data: &[u8]) {
    let Some((&selector, message)) = data.split_first() else { return };
    match selector % 3 {
        APPEND_REQUEST => append_request(message),
        RECORDED_EVENT => recorded_event(message),
        _ => event(message),
    }
}

fn append_to_proto(append: &AppendRequest) -> pb::AppendRequest {
    pb::AppendRequest {
        stream: append.stream.to_string(),
        events: append
            .events
            .iter()
            .map(|p| pb::ProposedEvent { event_id: p.event_id.clone(), event: Some(p.event.to_proto()) })
            .collect(),
        expected_version: append.expected_version,
    }
}

fn append_request(bytes: &[u8]) {
    let Ok(proto) = pb::AppendRequest::decode(bytes) else { return };
    let Ok(append) = append_from_proto(proto, "fuzz".into(), Clearance::Jury) else { return };
    let wire = append_to_proto(&append).encode_to_vec();
    let decoded = pb::AppendRequest::decode(wire.as_slice()).expect("a re-encoded request decodes");
    let again = append_from_proto(decoded, "fuzz".into(), Clearance::Jury)
        .unwrap_or_else(|r| panic!("an accepted request is refused: {r:?}"));
    assert_eq!(again, append, "request → protobuf → bytes → request");

    let mut state = StreamState::new(&append.stream, Some(Ruleset::Cafe2023));
    for proposed in &append.events {
        same_in_every_encoding(&proposed.event);
        if permits(Clearance::Jury, "fuzz", &proposed.event).is_ok() {
            let _verdict = state.apply(&proposed.event);
        }
    }
}

fn recorded_event(bytes: &[u8]) {
    let Ok(proto) = pb::RecordedEvent::decode(bytes) else { return };
    let Ok(record) = Recorded::from_proto(proto) else { return };
    let wire = record_into_proto(record.clone()).encode_to_vec();
    let decoded = pb::RecordedEvent::decode(wire.as_slice()).expect("a re-encoded record decodes");
    let again = Recorded::from_proto(decoded).unwrap_or_else(|r| panic!("an accepted record is refused: {r:?}"));
    assert_eq!(again, record, "record → protobuf → bytes → record");
    same_in_every_encoding(&record.event);
    let stored = decode_record(&encode_record(&record)).expect("an accepted record stores");
    assert_eq!(stored, record, "record → storage → record");
}

fn event(bytes: &[u8]) {
    let Ok(proto) = pb::Event::decode(bytes) else { return };
    let Ok(event) = Event::from_proto(proto) else { return };
    let wire = event.to_proto().encode_to_vec();
    let decoded = pb::Event::decode(wire.as_slice()).expect("a re-encoded event decodes");
    let again = Event::from_proto(decoded).unwrap_or_else(|r| panic!("an accepted event is refused: {r:?}"));
    assert_eq!(again, event, "event → protobuf → bytes → event");
    same_in_every_encoding(&event);
}

/// An event accepted off the wire is the same event as a JSON line and as stored bytes.
fn same_in_every_encoding(event: &Event) {
    let json = to_canonical_json(event);
    let from_json = from_canonical_json(&json)
        .unwrap_or_else(|e| panic!("the canonical JSON of an accepted event is refused: {e}\n{json}"));
    assert_eq!(&from_json, event, "event → canonical JSON → event");
    let stored = Event::from_postcard(&event.to_postcard()).expect("an accepted event stores");
    assert_eq!(&stored, event, "event → postcard → event");
}
