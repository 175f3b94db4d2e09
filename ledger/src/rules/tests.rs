//! The rule book's refusals and the jury's voids, at the domain level.

use crate::check::{check_stream, parse_lines, Line};
use crate::event::{from_canonical_json, Event};
use crate::names::Ruleset;
use crate::rules::{Rules, StreamState};
use crate::stream::StreamId;
use crate::testing::{refusal_cases, started_game};
use serde_json::json;

fn lines(values: &[serde_json::Value]) -> Vec<Line> {
    let text: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    parse_lines(&text.join("\n")).expect("setup parses")
}

#[test]
fn every_refusal_of_the_rule_book() {
    for case in refusal_cases() {
        let stream = StreamId::parse(case.stream).unwrap();
        let state = check_stream(&stream, Some(case.ruleset), &lines(&case.setup))
            .unwrap_or_else(|e| panic!("{}: setup refused: {e}", case.name));
        let rejection = match from_canonical_json(&case.refused) {
            Ok(event) => state.decide(&event).expect_err(case.name),
            Err(parse) => crate::Rejection::malformed(parse.0),
        };
        assert_eq!(rejection.kind, case.kind, "{}: {}", case.name, rejection.message);
        assert!(rejection.message.contains(case.message), "{}: got `{}`", case.name, rejection.message);
    }
}

#[test]
fn a_void_is_honoured_and_the_corrected_event_follows() {
    let stream = StreamId::game("g").unwrap();
    let mut setup = started_game(Some(Ruleset::Cafe2023), 11);
    setup.push(json!({"type": "nation_dropped_out", "nation": "sweden", "objectives_held": 4, "objectives_total": 5}));
    let mut state = check_stream(&stream, None, &lines(&setup)).unwrap();
    // The table meant Russia: void seq 13 and record the right nation.
    let void = Event::EventVoided { seq: 13, reason: "wrong nation".into() };
    state.apply(&void).unwrap();
    assert!(state.is_voided(13));
    let Rules::Game(game) = state.rules() else { panic!() };
    assert!(game.out.is_empty(), "the voided drop-out no longer counts");
    let russia = from_canonical_json(
        &json!({"type": "nation_dropped_out", "nation": "russia", "objectives_held": 7, "objectives_total": 10}),
    )
    .unwrap();
    state.apply(&russia).unwrap();
    assert_eq!(state.version(), 15);
    let again = state.decide(&void).unwrap_err();
    assert_eq!(again.message, "event 13 (nation_dropped_out) is already voided");
    let void_of_void = state.decide(&Event::EventVoided { seq: 14, reason: "x".into() }).unwrap_err();
    assert!(void_of_void.message.contains("is itself a void"));
    let beyond = state.decide(&Event::EventVoided { seq: 99, reason: "x".into() }).unwrap_err();
    assert_eq!(beyond.message, "there is no event 99 to void: the stream has 15 events");
}

#[test]
fn a_stand_alone_game_must_name_its_ruleset() {
    let stream = StreamId::game("g").unwrap();
    let state = StreamState::new(&stream, None);
    let start = Event::GameStarted { at_ms: 0, ruleset: None, tournament: None };
    assert!(state.decide(&start).unwrap_err().message.contains("name its ruleset"));
    let scheduled = StreamState::new(&stream, Some(Ruleset::Wm2015));
    let other = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2019), tournament: None };
    assert_eq!(
        scheduled.decide(&other).unwrap_err().message,
        "game_started names ruleset cafe2019, but the tournament plays wm2015"
    );
}

#[test]
fn tournament_refusals() {
    let stream = StreamId::tournament("t").unwrap();
    let mut state = StreamState::new(&stream, None);
    let register = Event::PlayerRegistered { player: "p1".into(), name: "Ann".into(), pseudonym: None };
    assert!(state.decide(&register).unwrap_err().message.contains("tournament_created comes before"));
    for event in crate::testing::simple_tournament(Ruleset::Cafe2023, 8) {
        state.apply(&event).unwrap();
    }
    assert_eq!(state.decide(&register).unwrap_err().message, "player p1 is already registered as Player p1");
    let choose = |player: &str, role| Event::FinalRoleChosen { player: player.into(), role };
    state.apply(&choose("p1", crate::Role::Pompadour)).unwrap();
    assert_eq!(
        state.decide(&choose("p2", crate::Role::Pompadour)).unwrap_err().message,
        "pompadour was already chosen by p1"
    );
    assert_eq!(state.decide(&choose("p9", crate::Role::Frederick)).unwrap_err().message, "player p9 is not registered");
}

proptest::proptest! {
    #[test]
    fn simulated_games_replay_cleanly((ruleset, events) in crate::testing::arb_game()) {
        let stream = StreamId::game("g").unwrap();
        let mut state = StreamState::new(&stream, Some(ruleset));
        for event in &events {
            state.apply(event).unwrap();
        }
        proptest::prop_assert_eq!(state.version(), events.len() as u64);
    }
}

#[test]
fn a_qualifying_draw_must_follow_from_its_seed() {
    let stream = StreamId::tournament("t").unwrap();
    let mut state = StreamState::new(&stream, None);
    let mut events = crate::testing::simple_tournament(Ruleset::Wm2015, 16);
    let final_scheduled = events.pop().unwrap();
    let Some(Event::QualifyingDrawn { seed, mut games }) = events.pop() else { panic!("the draw comes last") };
    for event in &events {
        state.apply(event).unwrap();
    }
    // Someone swaps two players of the first game.
    let seats = &mut games[0].seats;
    std::mem::swap(&mut seats.frederick, &mut seats.elisabeth);
    let swapped = Event::QualifyingDrawn { seed, games: games.clone() };
    let refused = state.decide(&swapped).unwrap_err();
    assert!(
        refused.message.starts_with("this is not the draw of seed 7 for the 16 registered players: "),
        "{}",
        refused.message
    );
    let other_seed = Event::QualifyingDrawn { seed: 8, games: games.clone() };
    assert!(state.decide(&other_seed).is_err());
    let seats = &mut games[0].seats;
    std::mem::swap(&mut seats.frederick, &mut seats.elisabeth);
    state.apply(&Event::QualifyingDrawn { seed, games }).unwrap();
    state.apply(&final_scheduled).unwrap();
}

#[test]
fn a_lot_follows_from_its_seed_and_is_drawn_once() {
    let stream = StreamId::tournament("t").unwrap();
    let mut state = StreamState::new(&stream, None);
    for event in crate::testing::simple_tournament(Ruleset::Cafe2023, 8) {
        state.apply(&event).unwrap();
    }
    let tied: Vec<String> = vec!["p3".into(), "p5".into(), "p1".into()];
    let order = crate::draw::lot_order(&tied, 42);
    let mut wrong = order.clone();
    wrong.reverse();
    let lot = |order: Vec<String>| Event::LotDrawn { purpose: "qualifying 3rd".into(), seed: 42, order };
    let refused = state.decide(&lot(wrong)).unwrap_err();
    assert_eq!(
        refused.message,
        format!("this is not the lot of seed 42: for these players it gives {}", order.join(", "))
    );
    state.apply(&lot(order.clone())).unwrap();
    let again = state.decide(&lot(order)).unwrap_err();
    assert_eq!(
        again.message,
        "a lot for `qualifying 3rd` was already drawn; the jury voids it before another is drawn"
    );
    let twice = Event::LotDrawn { purpose: "other".into(), seed: 1, order: vec!["p1".into(), "p1".into()] };
    assert_eq!(state.decide(&twice).unwrap_err().message, "a lot names each player once");
}

#[test]
fn the_jury_comes_after_the_start_and_stays_after_the_end() {
    let stream = StreamId::game("g").unwrap();
    let fresh = StreamState::new(&stream, Some(Ruleset::Cafe2023));
    for early in [Event::JuryCalled { reason: "seats".into() }, Event::JuryRuling { text: "as drawn".into() }] {
        let refused = fresh.decide(&early).unwrap_err();
        assert_eq!(refused.kind, crate::RejectionKind::Precondition, "{}", refused.message);
    }
    let mut setup = started_game(Some(Ruleset::Cafe2023), 2);
    setup.push(json!({"type": "game_ended", "outcome": "prussian_defensive_victory", "winners": ["prussia"],
        "objectives": {"russia": [3, 10], "sweden": [2, 5], "austria": [5, 12], "imperial_army": [1, 5], "france": [4, 10]}}));
    let mut state = check_stream(&stream, None, &lines(&setup)).unwrap();
    // After game_ended: the jury is called, rules, and voids the end itself.
    state.apply(&Event::JuryCalled { reason: "the end came a turn early".into() }).unwrap();
    state.apply(&Event::JuryRuling { text: "the game goes on".into() }).unwrap();
    state.apply(&Event::EventVoided { seq: 4, reason: "ended too early".into() }).unwrap();
    let Rules::Game(game) = state.rules() else { panic!() };
    assert_eq!(game.ended, None);
    state.apply(&Event::JuryCalled { reason: "again".into() }).unwrap();
}

/// An Andes match replays through the same `Folded` as every stream: after each event a client
/// sends, the rules wait for exactly the derived events that follow it in the stream.
#[test]
fn andes_streams_wait_for_exactly_the_derived_events_that_follow() {
    use crate::andes::testing::seeded_match;
    let stream = StreamId::andes("m1").unwrap();
    for seed in 0..6 {
        let events: Vec<Event> = seeded_match(seed, 300).into_iter().map(Event::Andes).collect();
        let mut state = StreamState::new(&stream, None);
        let mut expected: Vec<Event> = Vec::new();
        for event in &events {
            if event.is_derived() {
                assert_eq!(expected.first(), Some(event), "seed {seed}");
                expected.remove(0);
            } else {
                assert!(expected.is_empty(), "seed {seed}: {expected:?} were not derived");
            }
            state.apply(event).unwrap_or_else(|r| panic!("seed {seed}: {r}"));
            if !event.is_derived() {
                expected = state.folded().pending_derived();
            }
        }
        assert!(events.iter().any(Event::is_derived), "seed {seed}: an aggressive match attacks or captures");
    }
}

#[test]
fn friedrich_and_andes_events_stay_in_their_own_streams() {
    let andes = StreamState::new(&StreamId::andes("m1").unwrap(), None);
    let refused = andes.decide(&Event::GameStarted { at_ms: 0, ruleset: None, tournament: None }).unwrap_err();
    assert_eq!(refused.kind, crate::RejectionKind::Malformed);
    assert_eq!(
        refused.message,
        "game_started belongs in a game stream, not an andes stream (an Andes game_started names its `game`, 1 or 2)"
    );
    let game = StreamState::new(&StreamId::game("g1").unwrap(), Some(Ruleset::Cafe2023));
    let mv = Event::Andes(crate::andes::AndesEvent::MovePlayed { notation: "0d3".into(), at_ms: 1 });
    assert_eq!(game.decide(&mv).unwrap_err().message, "move_played belongs in an andes stream, not a game stream");
    let jury = Event::JuryCalled { reason: "a question".into() };
    assert!(andes.decide(&jury).unwrap_err().message.contains("match_created comes before jury_called"));
}

/// The filler of long test games: valid to the stream cap, each event only after the one
/// before (a double refused, a skip too unless it lands on a stage's start, which the rules
/// accept whenever no stage is open), and never a turn past the 23rd.
#[test]
fn the_filler_of_long_games_stays_within_the_rules_and_in_order() {
    use crate::testing::game_event_at;
    let stream = StreamId::game("long").unwrap();
    let mut state = StreamState::new(&stream, None);
    for idx in 0..5_000u64 {
        if idx > 0 {
            assert!(state.decide(&game_event_at(idx - 1)).is_err(), "event {} accepted twice", idx - 1);
            let next = game_event_at(idx + 1);
            if !matches!(next, Event::ActionStageStarted { .. }) {
                assert!(state.decide(&next).is_err(), "event {idx} skipped");
            }
        }
        state.apply(&game_event_at(idx)).unwrap_or_else(|r| panic!("event {idx}: {r}"));
    }
    let Rules::Game(game) = state.rules() else { panic!() };
    assert_eq!(game.turn, crate::rules::MAX_TURNS);
}
