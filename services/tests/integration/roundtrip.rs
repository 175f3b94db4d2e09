//! Random valid event sequences survive JSON ↔ postcard ↔ gRPC unchanged.

use ledger::event::{from_canonical_json, to_canonical_json};
use ledger::testing::{arb_game, simple_tournament};
use ledger::{Event, Ruleset};
use ledger_proto::convert::{FromProto, ToProto};
use ledger_proto::v1 as pb;
use proptest::prelude::*;
use prost::Message;

fn round_trip(event: &Event) {
    let json = to_canonical_json(event);
    let text = serde_json::to_string(&json).unwrap();
    let from_json = from_canonical_json(&serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(&from_json, event, "JSON: {text}");
    let from_postcard = Event::from_postcard(&event.to_postcard()).unwrap();
    assert_eq!(&from_postcard, event, "postcard");
    let wire = event.to_proto().encode_to_vec();
    let from_grpc = Event::from_proto(pb::Event::decode(wire.as_slice()).unwrap()).unwrap();
    assert_eq!(&from_grpc, event, "gRPC");
    // And all the way around: JSON → postcard → gRPC → JSON gives the same text.
    let around = Event::from_proto(from_postcard.to_proto()).unwrap();
    assert_eq!(serde_json::to_string(&to_canonical_json(&around)).unwrap(), text);
}

proptest! {
    #[test]
    fn valid_games_round_trip((_, events) in arb_game()) {
        for event in &events {
            round_trip(event);
        }
    }

    #[test]
    fn valid_tournaments_round_trip(ruleset in prop::sample::select(Ruleset::ALL.to_vec()), n_players in 0usize..40) {
        for event in &simple_tournament(ruleset, n_players) {
            round_trip(event);
        }
    }
}

/// The events added after the Andes ones (issue 24) survive every encoding too.
#[test]
fn later_tournament_events_round_trip() {
    round_trip(&Event::StandInRegistered { player: "designer".into(), name: "Richard Sivél".into() });
    round_trip(&Event::PlayerWithdrew { player: "p07".into(), from_round: 3, stand_in: Some("designer".into()) });
    round_trip(&Event::PlayerWithdrew { player: "p02".into(), from_round: 5, stand_in: None });
}
