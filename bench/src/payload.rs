//! The events every system stores.
//!
//! The ledger validates what it stores, so the events must be valid wherever they land: every
//! bench stream is a stand-alone game that opens with `game_started` (seq 1) and goes on with
//! `jury_called` events. A table may call the jury any number of times once the game runs,
//! it needs table clearance only, and its rules keep no history — so generating it costs
//! nothing and every append measures storage, not the generator. PostgreSQL and JetStream get
//! the protobuf encoding of the very same `ProposedEvent` (event id + event) as their body, so
//! every system moves the same bytes: ~200 per event.

use ledger::{Event, Ruleset};
use ledger_proto::convert::ToProto;
use ledger_proto::v1 as pb;
use prost::Message;

/// ~190 characters: with the event id and protobuf framing the body is ~200 bytes.
const REASON: &str = "Table 17 asks whether a Prussian army may retreat through a fortress held by \
                      Hanover after the Russian drop-out; the players disagree on the reading of 9.4 in the CAFE'23 rules.";

/// The ledger's stream name for a bench stream id.
pub fn ledger_stream(id: &str) -> String {
    format!("game/{id}")
}

/// The event id of the `seq`-th event of a bench stream: unique in the whole run.
pub fn event_id(stream: &str, seq: u64) -> String {
    format!("{stream}-{seq}")
}

/// The game's start: 2026-09-01, CAFE'23 rules, no tournament.
const STARTED_AT_MS: u64 = 1_788_220_800_000;

/// The `seq`-th event of a bench stream as the ledger's gRPC API takes it.
pub fn proposed(stream: &str, seq: u64) -> pb::ProposedEvent {
    let event = if seq == 1 {
        Event::GameStarted { at_ms: STARTED_AT_MS, ruleset: Some(Ruleset::Cafe2023), tournament: None }
    } else {
        Event::JuryCalled { reason: REASON.to_owned() }
    };
    pb::ProposedEvent { event_id: event_id(stream, seq), event: Some(event.to_proto()) }
}

/// The same event as opaque bytes, for the systems that store bytes.
pub fn body(stream: &str, seq: u64) -> Vec<u8> {
    proposed(stream, seq).encode_to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_about_200_bytes_and_decode_to_the_ledger_event() {
        assert!(body("u1-w0", 1).len() < 100, "seq 1 is the short game_started");
        for (stream, seq) in [("u1-w0", 2), ("replay-s0", 1_000_000), ("p10000000-w63", 17)] {
            let bytes = body(stream, seq);
            assert!((190..=215).contains(&bytes.len()), "{} bytes", bytes.len());
            assert_eq!(pb::ProposedEvent::decode(bytes.as_slice()).unwrap(), proposed(stream, seq));
        }
    }
}
