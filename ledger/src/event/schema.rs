//! The event vocabulary by type rather than by value, for the code that treats every event of a
//! type alike without holding one: the tablets' mirrored rules (which events carry the table's
//! clock, which the ledger derives, which may name a corrected turn, which fields are numbers)
//! and the checks that hold them to the ledger.
//!
//! Nothing here is a second list to keep: each type's facts are read off one filled example
//! through the same exhaustive [`Event::at_ms`], [`Event::is_derived`], [`Event::corrected_turn`]
//! and canonical JSON that the rules use, and a test holds the examples to serde's own list of
//! variants, so a new event is described here the moment it has an example, and cannot be
//! forgotten.

use super::{to_canonical_json, Event, Family, Seats};
use crate::andes::{AndesEvent, EndReason, PieceKind, Side, Square};
use crate::names::{ClockSide, Nation, Outcome, Role, Ruleset, Stage, StopReason};
use std::collections::BTreeMap;

/// What every event of one type has in common.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventType {
    /// The canonical `type` name. Two Andes types share a name with a game's (`game_started`,
    /// `game_ended`); `family` tells them apart.
    pub name: &'static str,
    pub family: Family,
    /// It carries the table device's clock reading, `at_ms` ([`Event::at_ms`]; optional in
    /// `turn_started`).
    pub timed: bool,
    /// The ledger derives it from the event before and appends it itself ([`Event::is_derived`]).
    pub derived: bool,
    /// It may name the turn it happened in, a jury's correction ([`Event::corrected_turn`]).
    pub corrects_turn: bool,
    /// Its fields whose canonical JSON is a number, in declaration order.
    pub numbers: Vec<String>,
    /// One event of the type with every optional field given.
    pub example: Event,
}

/// Every event type, in declaration order (the Andes events where [`Event::Andes`] stands).
pub fn event_types() -> Vec<EventType> {
    examples()
        .into_iter()
        .map(|example| {
            let json = to_canonical_json(&example);
            let numbers = json
                .as_object()
                .map(|fields| fields.iter().filter(|(_, v)| v.is_number()).map(|(k, _)| k.clone()).collect())
                .unwrap_or_default();
            EventType {
                name: example.type_name(),
                family: example.family(),
                timed: example.at_ms().is_some(),
                derived: example.is_derived(),
                corrects_turn: example.corrected_turn().is_some(),
                numbers,
                example,
            }
        })
        .collect()
}

/// One event of every type, each optional field given (so that `at_ms` and the numbers show).
fn examples() -> Vec<Event> {
    let seats =
        Seats { frederick: "a".into(), elisabeth: "b".into(), maria_theresa: "c".into(), pompadour: "d".into() };
    let square = Square::new(3, 3).expect("d3 is on the board");
    let mut events = vec![
        Event::TournamentCreated { name: "t".into(), ruleset: Ruleset::Cafe2023, clock_ms_per_side: Some(1) },
        Event::PlayerRegistered { player: "a".into(), name: "A".into(), pseudonym: Some("a".into()) },
        Event::QualifyingDrawn { seed: 1, games: Vec::new() },
        Event::GameScheduled { game: "g".into(), stage: Stage::Qualifying, round: 1, table: 1, seats },
        Event::FinalRoleChosen { player: "a".into(), role: Role::Frederick },
        Event::LotDrawn { purpose: "p".into(), seed: 1, order: Vec::new() },
        Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: Some("t".into()) },
        Event::TurnStarted { turn: 1, at_ms: Some(0) },
        Event::TcDealt { nation: Nation::Prussia, count: 1 },
        Event::ClockStarted { side: ClockSide::Prussia, at_ms: 0 },
        Event::ClockPressed { at_ms: 0 },
        Event::ClockStopped { reason: StopReason::Combat, at_ms: 0 },
        Event::ActionStageStarted { nation: Nation::Prussia, at_ms: 0 },
        Event::ActionStageEnded { nation: Nation::Prussia, at_ms: 0 },
        Event::RetreatStarted { length: 1, at_ms: 0 },
        Event::RetreatEnded { at_ms: 0 },
        Event::FateCardDrawn { card: "c".into() },
        Event::NationDroppedOut { nation: Nation::Russia, objectives_held: 1, objectives_total: 2, turn: Some(1) },
        Event::ImperialArmySwitched { to: Role::Elisabeth, objectives_held: 1, objectives_total: 2, turn: Some(1) },
        Event::OffensiveLaunched { set_aside_tc: 1, turn: Some(1) },
        Event::AustriaClaimedObjectives { count: 1 },
        Event::SetAsideTcPickedUp {},
        Event::OffensiveCalledOff { bohemian_held_by_prussia: 1, turn: Some(1) },
        Event::GameEnded {
            outcome: Outcome::AlliedVictory,
            winners: Vec::new(),
            objectives: BTreeMap::new(),
            bohemian_held_by_prussia: Some(1),
        },
        Event::FateHorizonRecorded { turn: 1 },
        Event::JuryCalled { reason: "r".into() },
        Event::JuryRuling { text: "r".into() },
        Event::EventVoided { seq: 1, reason: "r".into() },
    ];
    events.extend(
        [
            AndesEvent::MatchCreated { first_sol: "a".into(), first_luna: "b".into(), clock_ms: 1 },
            AndesEvent::GameStarted { game: 1, at_ms: 0 },
            AndesEvent::MovePlayed { notation: "0d3".into(), at_ms: 0 },
            AndesEvent::PieceAttacked { square, owner: Side::Luna, kind: PieceKind::Persona },
            AndesEvent::PieceCaptured { square, owner: Side::Luna, kind: PieceKind::Persona },
            AndesEvent::GameEnded { reason: EndReason::NoLegalMove, side: Side::Luna },
            AndesEvent::FlagFell { side: Side::Sol, at_ms: 0 },
            AndesEvent::Resigned { side: Side::Sol, at_ms: 0 },
        ]
        .map(Event::Andes),
    );
    events.extend([
        Event::StandInRegistered { player: "s".into(), name: "S".into() },
        Event::PlayerWithdrew { player: "a".into(), from_round: 1, stand_in: Some("s".into()) },
        Event::PlayerUnregistered { player: "a".into() },
    ]);
    events
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The variant names serde's derive knows, read from its refusal of an unknown one
    /// ("unknown variant `?`, expected one of `a`, `b`, …").
    fn serde_variants(refusal: &str) -> Vec<String> {
        let (_, list) = refusal.split_once("expected one of").expect(refusal);
        list.split('`').skip(1).step_by(2).map(str::to_owned).collect()
    }

    #[test]
    fn there_is_an_example_of_every_variant_serde_knows() {
        let events = serde_json::from_value::<Event>(json!("?")).unwrap_err().to_string();
        let andes = serde_json::from_value::<AndesEvent>(json!({"type": "?"})).unwrap_err().to_string();
        let mut expected = Vec::new();
        for name in serde_variants(&events) {
            if name == "andes" {
                expected.extend(serde_variants(&andes));
            } else {
                expected.push(name);
            }
        }
        let described: Vec<&str> = event_types().iter().map(|t| t.name).collect();
        assert_eq!(described, expected);
    }

    #[test]
    fn the_examples_are_what_they_describe() {
        for t in event_types() {
            let back = super::super::from_canonical_json(&to_canonical_json(&t.example)).unwrap();
            assert_eq!(back, t.example, "{} reads back as itself", t.name);
        }
        let names = |keep: fn(&EventType) -> bool| -> Vec<&'static str> {
            event_types().iter().filter(|t| keep(t)).map(|t| t.name).collect()
        };
        assert_eq!(
            names(|t| t.timed && t.family == Family::Game),
            [
                "game_started",
                "turn_started",
                "clock_started",
                "clock_pressed",
                "clock_stopped",
                "action_stage_started",
                "action_stage_ended",
                "retreat_started",
                "retreat_ended"
            ]
        );
        assert_eq!(names(|t| t.derived), ["piece_attacked", "piece_captured", "game_ended"]);
        assert_eq!(
            names(|t| t.corrects_turn),
            ["nation_dropped_out", "imperial_army_switched", "offensive_launched", "offensive_called_off"]
        );
        let offensive = event_types().into_iter().find(|t| t.name == "offensive_called_off").unwrap();
        assert_eq!(offensive.numbers, ["bohemian_held_by_prussia", "turn"]);
    }
}
