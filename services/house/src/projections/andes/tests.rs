//! The Andes projections' JSON and text, byte for byte, for two sample matches (one played to
//! its end, one in its second game) against `golden.txt`, which holds what they printed when the
//! projections were still written as `serde_json::json!` values, before they were typed views.
//! `UPDATE_EXPECT=1` rewrites it.

use super::*;
use ledger::andes::testing::seeded_match;
use ledger::andes::AndesState;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/projections/andes/golden.txt");

/// A seeded match that plays both games to their end, and one still in its first game.
fn sample() -> (Streams, StreamId, StreamId) {
    let complete = (0..50)
        .map(|seed| seeded_match(seed, 700))
        .find(|events| AndesState::replay(events).is_ok_and(|state| state.is_over()))
        .expect("an aggressive seeded match ends both games");
    let started = seeded_match(3, 40);
    let (m1, m2) = (StreamId::parse("andes/m1").unwrap(), StreamId::parse("andes/m2").unwrap());
    let stream = |events: Vec<AndesEvent>| (1u64..).zip(events.into_iter().map(Event::Andes)).collect();
    (Streams::from([(m1.clone(), stream(complete)), (m2.clone(), stream(started))]), m1, m2)
}

/// A view's JSON and text.
fn shown<T: Serialize + fmt::Display>(view: Result<T, ProjectionError>) -> Result<(String, String), ProjectionError> {
    view.map(|view| (serde_json::to_string(&view).unwrap(), view.to_string()))
}

/// Every projection of the sample, each under a `== name` line: its JSON, then its text.
fn rendered() -> String {
    let (streams, m1, m2) = sample();
    let game_two = streams[&m1]
        .iter()
        .find(|(_, e)| matches!(e, Event::Andes(AndesEvent::GameStarted { game: 2, .. })))
        .map(|(seq, _)| *seq)
        .unwrap();
    let first_sol = match &streams[&m1][0].1 {
        Event::Andes(AndesEvent::MatchCreated { first_sol, .. }) => first_sol.clone(),
        other => panic!("{other:?}"),
    };
    let mut out = String::new();
    let mut case = |name: &str, result: Result<(String, String), ProjectionError>| {
        out.push_str(&format!("== {name}\n"));
        match result {
            Ok((json, text)) => out.push_str(&format!("{json}\n{text}")),
            Err(error) => out.push_str(&format!("error: {error}\n")),
        }
    };
    let view = |game, side| WhichBoard { game, side };
    case("board m1", shown(board(&streams, &m1, None, view(None, Side::Sol))));
    case("board m1 game 1 luna", shown(board(&streams, &m1, None, view(Some(1), Side::Luna))));
    case("board m1 at game 2 started", shown(board(&streams, &m1, Some(game_two), view(None, Side::Sol))));
    case("board m1 at 1", shown(board(&streams, &m1, Some(1), view(None, Side::Sol))));
    case("board m2 luna", shown(board(&streams, &m2, None, view(None, Side::Luna))));
    case("board m2 game 2", shown(board(&streams, &m2, None, view(Some(2), Side::Sol))));
    case("board m3", shown(board(&streams, &StreamId::parse("andes/m3").unwrap(), None, view(None, Side::Sol))));
    case("score m1", shown(score(&streams, &m1, None)));
    case("score m1 at 1", shown(score(&streams, &m1, Some(1))));
    case("score m2", shown(score(&streams, &m2, None)));
    case("match m2", shown(whole_match(&streams, &m2, None)));
    case("level m1", shown(level(&streams, &m1, None)));
    case("level m2", shown(level(&streams, &m2, None)));
    let position_of = |id: &StreamId, seq: u64| if *id == m1 { 10 * seq } else { seq };
    case("player level", shown(player_level(&streams, &first_sol, position_of)));
    case("player level nobody", shown(player_level(&streams, "nobody", position_of)));
    out
}

#[test]
fn projections_print_what_they_printed_before_they_were_typed() {
    let now = rendered();
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(GOLDEN, &now).unwrap();
    }
    let golden = std::fs::read_to_string(GOLDEN).unwrap();
    for (line, (now, golden)) in (1..).zip(now.lines().zip(golden.lines())) {
        assert_eq!(now, golden, "golden.txt line {line}");
    }
    assert_eq!(now, golden);
}
