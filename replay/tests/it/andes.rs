//! The Andes projections on worked games written from the laws: the points of 5.1, the tie
//! rules of 5.2 and 9.2, the match and its 50% bonus (9.3, 9.4), the level of 9.5, the JSON and
//! the text boards, and random legal matches whose projections always add up.

use ledger::andes::testing::{random_match, seeded_match};
use ledger::andes::{AndesEvent, EndReason, Position, Side, Square, COMPETITIVE_CLOCK_MS};
use proptest::prelude::*;
use replay::andes::{
    andes_match, andes_match_json, andes_match_text, level, position_after, score_game, score_match, AndesFold,
    AndesReplayError, Band, DecidedBy, GameEnd, GameRecord, MatchDecidedBy, MAX_POINTS,
};
use replay::Rational;
use serde_json::json;

fn created() -> AndesEvent {
    AndesEvent::MatchCreated { first_sol: "ana".into(), first_luna: "bruno".into(), clock_ms: COMPETITIVE_CLOCK_MS }
}

fn mv(notation: &str, at_ms: u64) -> AndesEvent {
    AndesEvent::MovePlayed { notation: notation.into(), at_ms }
}

/// Records the events through the ledger's rules, derived events included.
fn stream(events: Vec<AndesEvent>) -> Vec<AndesEvent> {
    let mut state = ledger::andes::AndesState::new();
    let mut out = Vec::new();
    for event in events {
        let text = format!("{event:?}");
        out.extend(state.record(event).unwrap_or_else(|r| panic!("{text}: {r}")));
    }
    out
}

/// Game 1, ana (Sol) against bruno (Luna): ana takes the centre, bruno's militar comes to d4
/// beside it and ana's militar closes the flank from d5: captured, and bruno has nothing left
/// on the continent (1.6).
fn game_one() -> Vec<AndesEvent> {
    vec![
        AndesEvent::GameStarted { game: 1, at_ms: 0 },
        mv("0d3", 10_000),
        mv("2d6", 25_000),
        mv("2a3", 31_000),
        mv("2d6d4", 40_000),
        mv("2d6", 52_000),
        mv("0a2", 60_000),
        mv("2d6d5", 75_000),
    ]
}

/// Game 2, bruno (Sol) against ana (Luna), written by ana from her side: bruno keeps the
/// centre empty, ana's militar comes to d4 and bruno's persona attacks it (3.7.2).
fn game_two() -> Vec<AndesEvent> {
    vec![
        AndesEvent::GameStarted { game: 2, at_ms: 100_000 },
        mv("0c3", 104_000),
        mv("2D0", 110_000), // Luna's D0 is Sol's d6
        mv("0a1", 115_000),
        mv("2D0D2", 130_000), // d6 → d4
        mv("0c3d4", 131_500),
    ]
}

fn worked_match() -> Vec<AndesEvent> {
    let mut events = vec![created()];
    events.extend(game_one());
    events.extend(game_two());
    stream(events)
}

#[test]
fn worked_match_scores_by_the_laws() {
    let events = worked_match();
    let score = andes_match(&events).unwrap();
    assert!(score.complete);
    let [one, two] = [&score.games[0], &score.games[1]];
    // Game 1: ana 3 on the board (9) + 5 in reserve (7 − 3 placed + 1 captured) = 14;
    // bruno 1 on the board (3) + 5 in reserve = 8. ana wins on points, bonus 7 → 21.
    assert_eq!([one.points[0].total(), one.points[1].total()], [14, 8]);
    let result = one.result.unwrap();
    assert_eq!((result.winner, result.decided_by), (Side::Sol, DecidedBy::Points));
    assert_eq!(result.bonus, Rational::int(7));
    assert_eq!(result.total, [Rational::int(21), Rational::int(8)]);
    assert_eq!(
        one.explain,
        [
            "ana (sol): 3 on the board × 3 = 9, 0 attacked × 2 = 0, 5 in reserve × 1 = 5: 14 points (5.1)",
            "bruno (luna): 1 on the board × 3 = 3, 0 attacked × 2 = 0, 5 in reserve × 1 = 5: 8 points (5.1)",
            "game 1 ended: bruno (luna) has no piece left on the continent (1.6); the points decide (1.7)",
            "ana (sol) wins on points, 14 to 8 (5.1)",
            "bonus for ana (sol): 50% of 14 = 7 (9.4)",
            "game 1 total for ana (sol): 21",
            "game 1 total for bruno (luna): 8",
        ]
    );
    // Game 2: bruno 2 on the board (6) + 1 attacked (2) + 5 in reserve = 13; ana 6 in reserve.
    // bruno wins, bonus 6.5 → 19.5.
    assert_eq!([two.points[0].total(), two.points[1].total()], [13, 6]);
    let result = two.result.unwrap();
    assert_eq!(result.bonus, Rational::new(13, 2));
    assert_eq!(result.total[0], Rational::new(39, 2));
    // The match: ana 21 + 6 = 27, bruno 8 + 19.5 = 27.5: bruno's bonus decides (9.3, 9.4).
    assert_eq!(score.players[0].total, Rational::int(27));
    assert_eq!(score.players[1].total, Rational::new(55, 2));
    assert_eq!(score.winner.as_deref(), Some("bruno"));
    assert_eq!(score.decided_by, Some(MatchDecidedBy::Points));
    assert_eq!(score.explain[0], "ana: game 1 as sol: 21 + game 2 as luna: 6 = 27 (9.3)");
    assert_eq!(score.explain[1], "bruno: game 1 as luna: 8 + game 2 as sol: 19.5 = 27.5 (9.3)");
    // Levels from the games won, without bonus (9.5): ana won game 1 with 14: 14 × 360 / 42 =
    // 120 (copper); bruno won game 2 with 13: 13 × 360 / 42 = 780/7 → 111.43 (copper). The
    // games they lost (ana's 6, bruno's 8) do not count.
    assert_eq!(score.players[0].scores, [14, 6]);
    assert_eq!((score.players[0].won.as_slice(), score.players[1].won.as_slice()), (&[14][..], &[13][..]));
    let ana = level(&score.players[0].won).unwrap();
    assert_eq!((ana.value, ana.band), (Rational::int(120), Band::Copper));
    let bruno = level(&score.players[1].won).unwrap();
    assert_eq!((bruno.value, bruno.band), (Rational::new(780, 7), Band::Copper));
}

#[test]
fn worked_match_as_json() {
    let json = serde_json::to_value(andes_match_json(&worked_match()).unwrap()).unwrap();
    assert_eq!(json["status"], "complete");
    assert_eq!(json["winner"], "bruno");
    assert_eq!(json["decided_by"], "points");
    let game = &json["games"][0];
    assert_eq!(game["end"], json!({"reason": "continent_emptied", "side": "luna", "at_ms": null}));
    assert_eq!(game["points"]["sol"], json!({"on_board": 3, "attacked": 0, "reserve": 5, "points": 14}));
    assert_eq!(game["total"], json!({"sol": 21.0, "luna": 8.0}));
    assert_eq!(game["bonus"], json!(7.0));
    assert_eq!(
        game["moves"][6],
        json!({
            "ply": 7, "side": "sol", "notation": "2d6d5", "written": "2d6d5", "at_ms": 75000, "used_ms": 15000,
            "clock_ms": {"sol": 677000, "luna": 688000},
            "attacked": null,
            "captured": [{"square": "d4", "owner": "luna", "kind": "militar"}],
            "position": "7/7/7/1c1a3/7/7/3cA2"
        })
    );
    let second = &json["games"][1];
    assert_eq!(second["moves"][1]["notation"], "2d6");
    assert_eq!(second["moves"][1]["written"], "2D0");
    assert_eq!(second["moves"][4]["attacked"], json!({"square": "d4", "owner": "luna", "kind": "militar"}));
    assert_eq!(second["total"], json!({"sol": 19.5, "luna": 6.0}));
    assert_eq!(json["players"][1]["total"], json!(27.5));
    assert_eq!(json["players"][1]["total_exact"], "27.5");
    assert_eq!(json["players"][0]["won"], json!([14]));
    assert_eq!(json["players"][0]["level"]["value"], json!(120.0));
    assert_eq!(json["players"][0]["level"]["value_exact"], "120");
    assert_eq!(json["players"][0]["level"]["band"], "copper");
    assert_eq!(json["players"][1]["level"]["value_exact"], "780/7");
    let explain: Vec<String> = serde_json::from_value(json["explain"].clone()).unwrap();
    assert!(explain.contains(&"bruno wins the match on the sum of the two games (9.3)".to_string()));
    assert!(explain.iter().any(|l| l == "level of ana: 14 / 42 × 360 = 120 → copper (9.5, one game won)"));
    // Same bytes every time.
    let again = serde_json::to_string(&andes_match_json(&worked_match()).unwrap()).unwrap();
    assert_eq!(serde_json::to_string(&json).unwrap(), again);
}

#[test]
fn positions_after_any_move_and_the_text_boards() {
    let events = worked_match();
    assert_eq!(position_after(&events, 1, 0).unwrap(), Some(Position::new()));
    let after_one = position_after(&events, 1, 1).unwrap().unwrap();
    assert_eq!(after_one.notation(Side::Sol), "7/7/7/3a3/7/7/7");
    let after_four = position_after(&events, 1, 4).unwrap().unwrap();
    assert_eq!(after_four.notation(Side::Sol), "7/7/7/2Ca3/7/7/3c3");
    assert_eq!(after_four.notation(Side::Luna), "3c3/7/7/3aC2/7/7/7");
    assert_eq!(position_after(&events, 1, 8).unwrap(), None);
    assert_eq!(position_after(&events, 3, 0).unwrap(), None);
    let text = andes_match_text(&events).unwrap();
    assert!(text.contains("game 1: ana (sol) – bruno (luna)\nsol's view\n"), "{text}");
    assert!(text.contains("  d : c : a : . :  d\n"), "{text}");
    assert!(text.contains("luna's view\n"), "{text}");
    assert!(text.contains("bruno wins the match on the sum of the two games (9.3)\n"), "{text}");
    assert!(text.contains("level of bruno: 13 / 42 × 360 = 780/7 → 111.43 → copper (9.5, one game won)\n"), "{text}");
}

#[test]
fn a_match_in_progress() {
    let mut events = vec![created()];
    events.extend(game_one());
    let events = stream(events);
    let score = andes_match(&events[..5]).unwrap();
    assert!(!score.complete);
    assert_eq!(score.games[0].result, None);
    assert_eq!(score.games[0].explain.last().unwrap(), "game 1 is in progress: no winner yet (1.7)");
    assert_eq!(score.explain.last().unwrap(), "0 of 2 games ended: the match is not decided yet (8.3)");
    let json = serde_json::to_value(andes_match_json(&events).unwrap()).unwrap();
    assert_eq!(json["status"], "in_progress");
    // Game 1 has ended: ana won it and has the level of that one score; bruno won none.
    assert_eq!(json["players"][0]["level"]["value_exact"], "120");
    assert_eq!(json["players"][1]["level"], json!(null));
    assert!(json["explain"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l == "level of bruno: no game won yet, of 1 ended (9.5: the last two games won count)"));
    assert_eq!(andes_match(&[]).unwrap_err(), AndesReplayError::NoMatch);
    let refused = andes_match(&[created(), mv("0d3", 1)]).unwrap_err();
    assert_eq!(
        refused,
        AndesReplayError::Refused {
            index: 1,
            message: "article 8.3: no game has started: game_started comes before move_played".into()
        }
    );
}

/// A game record set by hand: Sol's and Luna's pieces on the board and in reserve.
fn record(
    number: u8,
    sol: &str,
    luna: &str,
    on_board: [u8; 2],
    reserve: [u8; 2],
    end: (EndReason, Side),
) -> GameRecord {
    let squares: Vec<Square> = Square::all().filter(|s| !s.is_continent()).collect();
    let mut pieces = Vec::new();
    for (i, side) in Side::BOTH.into_iter().enumerate() {
        for n in 0..on_board[i] {
            let square = squares[usize::from(n) + 10 * i];
            pieces.push((square, ledger::andes::Piece::new(side, ledger::andes::PieceKind::Persona)));
        }
    }
    GameRecord {
        number,
        sol: sol.into(),
        luna: luna.into(),
        started_at_ms: 0,
        plies: Vec::new(),
        end: Some(GameEnd { reason: end.0, side: end.1, at_ms: None }),
        position: Position::from_parts(&pieces, reserve, Side::Sol, 20),
        clock_ms: [0, 0],
    }
}

#[test]
fn ties_are_broken_by_pieces_on_the_board_then_by_luna() {
    // Level on 12 points (5.1): Sol 2 on the board + 6 in reserve, Luna 3 + 3. Luna has more
    // pieces on the board (5.2).
    let by_pieces = score_game(&record(1, "ana", "bruno", [2, 3], [6, 3], (EndReason::ContinentEmptied, Side::Luna)));
    let result = by_pieces.result.unwrap();
    assert_eq!((result.winner, result.decided_by), (Side::Luna, DecidedBy::PiecesOnBoard));
    assert_eq!(
        by_pieces.explain[3],
        "level on 12 points; bruno (luna) wins with more pieces on the board, 3 to 2 (5.2)"
    );
    // Level on points and pieces: a game may not end level (9.2): Luna wins.
    let level_game = score_game(&record(1, "ana", "bruno", [3, 3], [2, 2], (EndReason::NoLegalMove, Side::Sol)));
    let result = level_game.result.unwrap();
    assert_eq!((result.winner, result.decided_by), (Side::Luna, DecidedBy::Luna));
    assert_eq!(result.total, [Rational::int(11), Rational::new(33, 2)]);
    assert_eq!(level_game.explain[2], "game 1 ended: ana (sol) has no legal move (1.3); the points decide (1.7)");
    assert_eq!(
        level_game.explain[3],
        "level on 11 points and 3 pieces on the board; a game may not end level (9.2): bruno (luna) wins as Luna"
    );
}

#[test]
fn a_flag_fall_or_a_resignation_loses_whatever_the_points() {
    let flag = score_game(&record(1, "ana", "bruno", [5, 1], [2, 0], (EndReason::FlagFell, Side::Sol)));
    let result = flag.result.unwrap();
    assert_eq!((result.winner, result.decided_by), (Side::Luna, DecidedBy::FlagFell));
    assert_eq!(result.total, [Rational::int(17), Rational::new(9, 2)]);
    assert_eq!(flag.explain[2], "ana (sol)'s flag fell: bruno (luna) wins whatever the points (5.1)");
    let resigned = score_game(&record(1, "ana", "bruno", [1, 5], [0, 2], (EndReason::Resigned, Side::Luna)));
    let result = resigned.result.unwrap();
    assert_eq!((result.winner, result.decided_by), (Side::Sol, DecidedBy::Resigned));
    assert_eq!(resigned.explain[2], "bruno (luna) resigned: ana (sol) wins (5.3)");

    // Through a real stream: bruno's flag falls in game 1 while he leads on nothing.
    let events = stream(vec![
        created(),
        AndesEvent::GameStarted { game: 1, at_ms: 0 },
        mv("0d3", 1_000),
        AndesEvent::FlagFell { side: Side::Luna, at_ms: 721_000 },
    ]);
    let json = serde_json::to_value(andes_match_json(&events).unwrap()).unwrap();
    assert_eq!(json["games"][0]["end"], json!({"reason": "flag_fell", "side": "luna", "at_ms": 721000}));
    assert_eq!(json["games"][0]["position"]["clock_ms"], json!({"sol": 719000, "luna": 0}));
    assert_eq!(json["games"][0]["winner"], "sol");
}

#[test]
fn level_match_sums_go_to_pieces_on_the_board_then_a_draw() {
    let setup = ledger::andes::MatchSetup { first_sol: "ana".into(), first_luna: "bruno".into(), clock_ms: 1 };
    // Game 1: ana (Sol) 3 on the board + 1 = 10, bruno 4 on the board = 12; bruno's flag falls:
    // ana 15, bruno 12. Game 2 mirrors it: bruno 15, ana 12. Both 27; both 7 pieces: drawn.
    let one = record(1, "ana", "bruno", [3, 4], [1, 0], (EndReason::FlagFell, Side::Luna));
    let two = record(2, "bruno", "ana", [3, 4], [1, 0], (EndReason::FlagFell, Side::Luna));
    let drawn = score_match(&setup, &[one.clone(), two]);
    assert_eq!(drawn.players[0].total, drawn.players[1].total);
    assert_eq!((drawn.winner.clone(), drawn.decided_by), (None, Some(MatchDecidedBy::Drawn)));
    assert_eq!(
        drawn.explain.last().unwrap(),
        "level on 27 and on 7 pieces on the board: the match is drawn (9.2 forbids a level result only for a single game)"
    );
    // Game 2 with bruno on 2 pieces + 4 in reserve (still 10): ana 7 pieces to bruno's 6.
    let two = record(2, "bruno", "ana", [2, 4], [4, 0], (EndReason::FlagFell, Side::Luna));
    let by_pieces = score_match(&setup, &[one, two]);
    assert_eq!(by_pieces.players[0].total, by_pieces.players[1].total);
    assert_eq!((by_pieces.winner.as_deref(), by_pieces.decided_by), (Some("ana"), Some(MatchDecidedBy::PiecesOnBoard)));
}

#[test]
fn levels_use_the_last_two_scores_won_without_bonus() {
    assert_eq!(MAX_POINTS, 42);
    assert_eq!(level(&[]), None, "no game won, no level");
    assert_eq!(level(&[42]).unwrap().value, Rational::int(360), "one game won: its score alone");
    let gold = level(&[3, 30, 40]).unwrap();
    assert_eq!(gold.scores, [30, 40]);
    assert_eq!((gold.value, gold.band), (Rational::int(300), Band::Gold));
    assert_eq!(level(&[28, 28]).unwrap().band, Band::Silver, "240 is silver");
    assert_eq!(level(&[28, 29]).unwrap().band, Band::Gold, "244.29 is gold");
    assert_eq!(level(&[14, 14]).unwrap().band, Band::Copper, "120 is copper");
}

#[test]
fn seeded_matches_project_consistently() {
    for seed in 0..10 {
        let events = seeded_match(seed, 600);
        check_projection(&events);
    }
}

/// Every ply's position is the ledger's; the 14 pieces are all accounted for; points stay
/// within 0–42; totals add up; the JSON is stable.
fn check_projection(events: &[AndesEvent]) {
    let fold = AndesFold::of(events).unwrap();
    let setup = fold.setup().unwrap();
    let score = score_match(setup, fold.games());
    for (record, game) in fold.games().iter().zip(&score.games) {
        for ply in &record.plies {
            let position = &ply.position;
            let mut accounted = 0u32;
            for side in Side::BOTH {
                accounted += u32::from(position.on_board(side))
                    + u32::from(position.reserve(side))
                    + u32::from(position.attacked_by(side));
            }
            assert_eq!(accounted, 14, "every piece is on the board, in a reserve or attacked");
            assert_eq!(Some(position.clone()), record.position_after(usize::try_from(ply.number).unwrap()));
        }
        for side in Side::BOTH {
            assert!(game.points[side.index()].total() <= MAX_POINTS);
        }
        if let Some(result) = game.result {
            let won = Rational::from(i64::from(game.points[result.winner.index()].total()));
            assert_eq!(result.total[result.winner.index()], won * Rational::new(3, 2));
        }
    }
    let sum: Rational = score.players.iter().map(|p| p.total).sum();
    let by_game: Rational = score.games.iter().map(|g| g.total(Side::Sol) + g.total(Side::Luna)).sum();
    assert_eq!(sum, by_game);
    let json = serde_json::to_string(&andes_match_json(events).unwrap()).unwrap();
    assert_eq!(json, serde_json::to_string(&andes_match_json(events).unwrap()).unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_matches_project_consistently(
        choices in proptest::collection::vec((any::<u16>(), 0u32..15_000, any::<bool>()), 1..300),
    ) {
        let (events, _) = random_match(&choices, 120_000, 0);
        check_projection(&events);
    }
}
