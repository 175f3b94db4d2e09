//! The Andes rules read like the laws: tables of legal and illegal moves per piece type and
//! square colour with the article each refusal cites, attacks and captures with the centre
//! empty and occupied, every way a game ends, the match's stream layout, the event JSON, and
//! random legal games that always replay to the same state.

use ledger::andes::notation::{parse_position, position_notation};
use ledger::andes::{
    decide, derived_events, evolve, AndesEvent, AndesState, EndReason, Move, Piece, PieceKind, Position, Side, Square,
    COMPETITIVE_CLOCK_MS,
};
use ledger::{Rejection, RejectionKind};
use serde_json::json;

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

fn piece(letter: char) -> Piece {
    PieceKind::from_letter(letter).unwrap()
}

/// A middle-game position: `to_move`, three pieces in each reserve, Sol's first move played.
fn pos(to_move: Side, pieces: &[(&str, char)]) -> Position {
    let pieces: Vec<(Square, Piece)> = pieces.iter().map(|&(s, l)| (sq(s), piece(l))).collect();
    Position::from_parts(&pieces, [3, 3], to_move, 10)
}

/// Checks each move of a table: `""` means legal, otherwise the article the refusal cites.
/// Also checks that the generator of legal moves agrees.
fn table(position: &Position, rows: &[(&str, &str)]) {
    let legal = position.legal_moves();
    for &(text, article) in rows {
        let mv = Move::parse(text).unwrap();
        let result = position.check(mv);
        if article.is_empty() {
            assert!(result.is_ok(), "{text} should be legal: {}", result.unwrap_err());
            assert!(legal.contains(&mv), "{text} is legal but not generated");
        } else {
            let refusal = result.expect_err(text);
            let message = refusal.to_string();
            assert!(message.starts_with(&format!("article {article}: ")), "{text}: {message}");
            assert_eq!(refusal.kind, RejectionKind::Precondition);
            assert!(!legal.contains(&mv), "{text} is refused but generated");
        }
    }
}

#[test]
fn persona_moves_one_square_any_way() {
    // Sol persona c2, Sol militar holds the centre; Luna pieces beside.
    let p = pos(Side::Sol, &[("c2", 'a'), ("d3", 'c'), ("b1", 'A'), ("c1", 'C')]);
    table(
        &p,
        &[
            ("0c2b2", ""),
            ("0c2d2", ""),
            ("0c2b3", ""),
            ("0c2d1", ""),
            ("0c2c4", "3.3.1"),
            ("0c2a2", "3.3.1"),
            ("0c2d3", "3.1"),
            ("0c2b1", "4.3"),
            ("2c2c3", "3.2"),
            ("0e2e3", "3.3"),
            ("0b1b2", "1.1"),
        ],
    );
    assert_eq!(
        p.check(Move::parse("0c2c4").unwrap()).unwrap_err().to_string(),
        "article 3.3.1: a persona moves one square in any direction; c2 to c4 is not such a move"
    );
    assert_eq!(
        p.check(Move::parse("0c2b1").unwrap()).unwrap_err().to_string(),
        "article 4.3: b1 holds luna's persona, and a piece is attacked only while the centre d3 is empty; it holds sol's militar"
    );
}

#[test]
fn militar_moves_up_to_two_along_rows_and_columns() {
    let p = pos(Side::Sol, &[("c3", 'c'), ("c4", 'A'), ("a3", 'a'), ("g6", 'B')]);
    table(
        &p,
        &[
            ("2c3b3", ""),
            ("2c3c2", ""),
            ("2c3c1", ""),
            ("2c3d3", ""),
            ("2c3e3", ""),
            ("2c3c4", ""),
            ("2c3f3", "3.3.2"),
            ("2c3d4", "3.3.2"),
            ("2c3c5", "3.3.2"),
            ("2c3a3", "3.1"),
            ("0c3b3", "3.2"),
        ],
    );
    assert_eq!(
        p.check(Move::parse("2c3c5").unwrap()).unwrap_err().to_string(),
        "article 3.3.2: pieces move over free squares and do not jump: c4, between c3 and c5, holds luna's persona"
    );
    let attack = p.check(Move::parse("2c3c4").unwrap()).unwrap();
    assert_eq!(attack.attacked, Some((sq("c4"), piece('A'))), "centre empty: an attack (3.7.2)");
}

#[test]
fn estatales_move_up_to_two_along_their_own_diagonals() {
    // Centre empty.
    let left = pos(Side::Sol, &[("c2", 'b'), ("b1", 'a')]);
    table(
        &left,
        &[
            ("1c2d3", ""),
            ("1c2e4", ""),
            ("1c2a0", "3.3.3"),
            ("1c2b1", "3.1"),
            ("1c2e0", "3.3.3"),
            ("1c2b3", "3.3.3"),
            ("1c2f5", "3.3.3"),
            ("3c2d1", "3.2"),
        ],
    );
    // Centre held by Luna: no jumping over it, no attacking it.
    let blocked = pos(Side::Sol, &[("c2", 'b'), ("d3", 'A')]);
    table(&blocked, &[("1c2e4", "3.3.3"), ("1c2d3", "4.3"), ("1c2a0", ""), ("1c2b1", "")]);
    let right = pos(Side::Luna, &[("c4", 'D'), ("a6", 'a'), ("d3", 'c')]);
    table(
        &right,
        &[
            ("3c4b5", ""),
            ("3c4a6", "4.3"),
            ("3c4e2", "3.3.3"),
            ("3c4d3", "4.3"),
            ("3c4e6", "3.3.3"),
            ("3c4b3", "3.3.3"),
        ],
    );
    assert!(right.check(Move::parse("3c4a6").unwrap()).unwrap_err().to_string().contains("it holds sol's militar"));
}

#[test]
fn placements_by_square_colour() {
    let p = pos(Side::Sol, &[("a5", 'a'), ("g1", 'C'), ("d3", 'a')]);
    let mut rows = Vec::new();
    // Dark border squares take every type (3.6): islands, coast and ocean alike.
    for square in ["a0", "a1", "a3", "a6", "d0", "d6", "b6", "f0", "g6", "g3"] {
        for kind in PieceKind::ALL {
            rows.push((format!("{}{square}", kind.digit()), ""));
        }
    }
    // Light border squares take only a persona (3.6).
    for square in ["a2", "a4", "c0", "c6", "e0", "e6", "g2", "g4"] {
        rows.push((format!("0{square}"), ""));
        for kind in [PieceKind::EstatalLeft, PieceKind::Militar, PieceKind::EstatalRight] {
            rows.push((format!("{}{square}", kind.digit()), "3.6"));
        }
    }
    // Inside the border: never (3.5), whatever the colour or territory.
    for square in ["b1", "b2", "c3", "d3", "e4", "f5"] {
        rows.push((format!("0{square}"), "3.5"));
    }
    rows.push(("0a5".into(), "3.1"));
    rows.push(("2g1".into(), "3.5"));
    let rows: Vec<(&str, &str)> = rows.iter().map(|(m, a)| (m.as_str(), *a)).collect();
    table(&p, &rows);
    assert_eq!(
        p.check(Move::parse("2a2").unwrap()).unwrap_err().to_string(),
        "article 3.6: a2 is a light border square: only a persona is placed there, not a militar"
    );
    let empty = Position::from_parts(&[(sq("b2"), piece('a'))], [0, 7], Side::Sol, 4);
    table(&empty, &[("0a1", "2.2"), ("0b2b3", "")]);
}

#[test]
fn sols_first_move_is_a_persona_anywhere_on_the_continent() {
    let start = Position::new();
    let mut rows: Vec<(String, &str)> = Vec::new();
    for square in Square::all() {
        let article = if square.is_continent() { "" } else { "3.4" };
        rows.push((format!("0{square}"), article));
    }
    rows.push(("2d3".into(), "3.4"));
    rows.push(("1a3".into(), "3.4"));
    let rows: Vec<(&str, &str)> = rows.iter().map(|(m, a)| (m.as_str(), *a)).collect();
    table(&start, &rows);
    assert_eq!(start.legal_moves().len(), 25);
    assert_eq!(
        start.check(Move::parse("0a0").unwrap()).unwrap_err().to_string(),
        "article 3.4: sol's first move places a persona on the continent, and a0 is island"
    );
    // Luna's first move, and every later one, is on the border.
    let mut p = Position::new();
    p.play(Move::parse("0d3").unwrap()).unwrap();
    table(&p, &[("0b2", "3.5"), ("0c3", "3.5"), ("2d6", ""), ("0a2", ""), ("2a2", "3.6")]);
}

#[test]
fn captures_need_the_centre_occupied() {
    // Sol persona holds the centre; Luna militar d4 between it and d5.
    let p = pos(Side::Sol, &[("d3", 'a'), ("d4", 'C'), ("d6", 'c')]);
    let played = p.check(Move::parse("2d6d5").unwrap()).unwrap();
    assert_eq!(played.captured, vec![(sq("d4"), piece('C'))]);
    assert_eq!(played.attacked, None);
    let mut after = p.clone();
    after.apply(&played);
    assert_eq!(after.piece_at(sq("d4")), None);
    assert_eq!(after.reserve(Side::Sol), 4, "the captured piece joins the captor's reserve (4.3.1)");
    assert_eq!(after.captured_by(Side::Sol), 1);
    assert_eq!(after.reserve(Side::Luna), 3);

    // The same flank with the centre empty does nothing (4.3: attacks only).
    let empty = pos(Side::Sol, &[("e2", 'a'), ("e3", 'C'), ("e6", 'c')]);
    assert!(empty.check(Move::parse("2e6e4").unwrap()).unwrap().captured.is_empty());

    // A multiple capture (4.3.1): three directions at once, in square order.
    let multi = pos(
        Side::Sol,
        &[("d3", 'a'), ("e3", 'a'), ("g4", 'c'), ("e6", 'c'), ("c4", 'c'), ("f4", 'A'), ("e5", 'B'), ("d4", 'C')],
    );
    let played = multi.check(Move::parse("0e3e4").unwrap()).unwrap();
    assert_eq!(played.captured, vec![(sq("d4"), piece('C')), (sq("e5"), piece('B')), (sq("f4"), piece('A'))]);

    // Only the moved piece captures; a piece moving between two opponents is safe.
    let between = pos(Side::Sol, &[("d3", 'C'), ("c2", 'A'), ("e2", 'A'), ("d1", 'a'), ("a0", 'c')]);
    assert!(between.check(Move::parse("0d1d2").unwrap()).unwrap().captured.is_empty());
    let pre_existing = pos(Side::Luna, &[("d3", 'C'), ("c2", 'a'), ("e2", 'a'), ("d2", 'A'), ("g0", 'C')]);
    assert!(pre_existing.check(Move::parse("2g0g1").unwrap()).unwrap().captured.is_empty());

    // A flank is one piece wide: two opponents in a row are not captured.
    let two = pos(Side::Sol, &[("d3", 'a'), ("b0", 'C'), ("c0", 'C'), ("e0", 'c')]);
    assert!(two.check(Move::parse("0a0").unwrap()).unwrap().captured.is_empty());

    // A placement captures too: a0 and c0 flank b0 while d3 is held.
    let placing = pos(Side::Sol, &[("d3", 'a'), ("b0", 'C'), ("c0", 'c')]);
    assert_eq!(placing.check(Move::parse("2a0").unwrap()).unwrap().captured, vec![(sq("b0"), piece('C'))]);

    // The piece on the centre can itself be captured; the centre is then empty.
    let centre = pos(Side::Sol, &[("d3", 'A'), ("c3", 'c'), ("e1", 'c')]);
    let mut after = centre.clone();
    let played = after.play(Move::parse("2e1e3").unwrap()).unwrap();
    assert_eq!(played.captured, vec![(sq("d3"), piece('A'))]);
    assert!(!after.centre_occupied());
}

#[test]
fn attacks_need_the_centre_empty_once_the_piece_has_landed() {
    let p = pos(Side::Sol, &[("c3", 'a'), ("d4", 'C')]);
    let played = p.check(Move::parse("0c3d4").unwrap()).unwrap();
    assert_eq!(played.attacked, Some((sq("d4"), piece('C'))));
    let mut after = p.clone();
    after.apply(&played);
    assert_eq!(after.piece_at(sq("d4")), Some(piece('a')));
    assert_eq!(after.attacked_by(Side::Sol), 1);
    assert_eq!(after.reserve(Side::Luna), 3, "an attacked piece is gone for good (4.3.2)");
    assert_eq!(after.reserve(Side::Sol), 3);

    // Leaving the centre empties it: that move may attack (4.2, 4.3).
    let from_centre = pos(Side::Sol, &[("d3", 'a'), ("d4", 'C')]);
    assert!(from_centre.check(Move::parse("0d3d4").unwrap()).unwrap().attacked.is_some());
    // Another piece holds the centre: no attack.
    let held = pos(Side::Sol, &[("d3", 'C'), ("c3", 'a'), ("c4", 'C')]);
    table(&held, &[("0c3c4", "4.3"), ("0c3d3", "4.3"), ("0c3b3", "")]);
}

fn created() -> AndesEvent {
    AndesEvent::MatchCreated { first_sol: "ana".into(), first_luna: "bruno".into(), clock_ms: COMPETITIVE_CLOCK_MS }
}

fn mv(notation: &str, at_ms: u64) -> AndesEvent {
    AndesEvent::MovePlayed { notation: notation.into(), at_ms }
}

/// Records events with their derived ones; returns everything appended.
fn play(state: &mut AndesState, events: Vec<AndesEvent>) -> Vec<AndesEvent> {
    let mut all = Vec::new();
    for event in events {
        let text = format!("{event:?}");
        all.extend(state.record(event).unwrap_or_else(|r| panic!("{text}: {r}")));
    }
    all
}

fn started() -> AndesState {
    let mut state = AndesState::new();
    play(&mut state, vec![created(), AndesEvent::GameStarted { game: 1, at_ms: 0 }]);
    state
}

fn refusal(state: &AndesState, event: &AndesEvent) -> String {
    decide(state, event).unwrap_err().to_string()
}

#[test]
fn a_capture_that_empties_the_continent_ends_the_game() {
    let mut state = started();
    let appended = play(
        &mut state,
        vec![
            mv("0d3", 1_000),
            mv("2d6", 2_000),
            mv("2a3", 3_000),
            mv("2d6d4", 4_000),
            mv("2d6", 5_000),
            mv("0a2", 6_000),
        ],
    );
    assert_eq!(appended.len(), 6, "no consequences yet");
    let last = mv("2d6d5", 7_000);
    let derived = derived_events(&state, &last).unwrap();
    assert_eq!(
        derived,
        vec![
            AndesEvent::PieceCaptured { square: sq("d4"), owner: Side::Luna, kind: PieceKind::Militar },
            AndesEvent::GameEnded { reason: EndReason::ContinentEmptied, side: Side::Luna },
        ]
    );
    evolve(&mut state, &last);
    // Until the derived events are recorded, nothing else is.
    assert_eq!(
        refusal(&state, &AndesEvent::GameStarted { game: 2, at_ms: 9_000 }),
        "article 4.3.1: the move 2d6d5 is complete only once its consequences are recorded (4.2): piece_captured d4 (luna's militar) comes next, not game_started"
    );
    assert!(refusal(&state, &derived[1]).starts_with("article 4.3.1:"), "in order");
    for event in &derived {
        decide(&state, event).unwrap();
        evolve(&mut state, event);
    }
    let game = state.game.as_ref().unwrap();
    assert_eq!(game.ended, Some((EndReason::ContinentEmptied, Side::Luna)));
    assert_eq!(game.position.notation(Side::Sol), "7/7/7/1c1a3/7/7/3cA2");
    assert!(refusal(&state, &mv("0a1", 8_000)).starts_with("article 1.7: game 1 is over (continent_emptied, luna)"));
}

#[test]
fn an_attack_that_empties_the_continent_ends_the_game() {
    let mut state = started();
    let appended = play(
        &mut state,
        vec![mv("0c3", 1_000), mv("2d6", 2_000), mv("0a1", 3_000), mv("2d6d4", 4_000), mv("0c3d4", 5_000)],
    );
    assert_eq!(
        &appended[5..],
        [
            AndesEvent::PieceAttacked { square: sq("d4"), owner: Side::Luna, kind: PieceKind::Militar },
            AndesEvent::GameEnded { reason: EndReason::ContinentEmptied, side: Side::Luna },
        ]
    );
}

#[test]
fn a_side_that_never_entered_the_continent_has_not_lost_it() {
    let mut state = started();
    let appended = play(
        &mut state,
        vec![mv("0c3", 1_000), mv("0a2", 2_000), mv("0c3b2", 3_000), mv("0a4", 4_000), mv("0b2a2", 5_000)],
    );
    assert_eq!(
        appended.last(),
        Some(&AndesEvent::PieceAttacked { square: sq("a2"), owner: Side::Luna, kind: PieceKind::Persona })
    );
    assert_eq!(state.game.as_ref().unwrap().ended, None);
    // Luna writes her move from her side: her A2 is Sol's g4.
    play(&mut state, vec![mv("0A2", 6_000)]);
    assert_eq!(state.game.as_ref().unwrap().position.piece_at(sq("g4")), Some(piece('A')));
}

#[test]
fn a_side_with_no_legal_move_ends_the_game() {
    let mut state = started();
    // A hand-set position: Luna's last pieces are boxed in a corner and her reserve is empty.
    let game = state.game.as_mut().unwrap();
    game.position = Position::from_parts(
        &[
            (sq("a0"), piece('A')),
            (sq("a1"), piece('c')),
            (sq("b0"), piece('c')),
            (sq("d3"), piece('a')),
            (sq("c2"), piece('a')),
        ],
        [2, 0],
        Side::Sol,
        20,
    );
    let derived = derived_events(&state, &mv("0c2b1", 1_000)).unwrap();
    assert_eq!(derived, vec![AndesEvent::GameEnded { reason: EndReason::NoLegalMove, side: Side::Luna }]);
    // Without the block, Luna's persona could step to b1.
    assert!(derived_events(&state, &mv("0c2c1", 1_000)).unwrap().is_empty());
}

#[test]
fn clocks_count_down_and_flags_fall() {
    let mut state = started();
    play(&mut state, vec![mv("0d3", 100_000)]);
    // Luna's turn began at 100000 with 720000 left: her flag falls at 820000.
    assert_eq!(
        refusal(&state, &mv("2d6", 820_000)),
        "article 8.3: luna's time ran out at 820000 ms, and the move `2d6` comes at 820000 ms: record flag_fell instead"
    );
    assert_eq!(
        refusal(&state, &AndesEvent::FlagFell { side: Side::Luna, at_ms: 819_999 }),
        "article 6.2: luna's flag has not fallen: 1 ms are left at 819999 ms (it falls at 820000 ms)"
    );
    assert!(refusal(&state, &AndesEvent::FlagFell { side: Side::Sol, at_ms: 900_000 })
        .starts_with("article 6.2: only the clock"));
    assert!(refusal(&state, &mv("2d6", 99_999)).starts_with("article 6.2: at_ms 99999 goes back in time"));
    play(&mut state, vec![mv("2d6", 819_999)]);
    let game = state.game.as_ref().unwrap();
    assert_eq!(game.clocks.remaining_ms(Side::Sol), 620_000);
    assert_eq!(game.clocks.remaining_ms(Side::Luna), 1);
    play(&mut state, vec![AndesEvent::FlagFell { side: Side::Sol, at_ms: 1_439_999 }]);
    assert_eq!(state.game.as_ref().unwrap().ended, Some((EndReason::FlagFell, Side::Sol)));
}

#[test]
fn only_the_side_to_move_resigns_in_time() {
    let mut state = started();
    play(&mut state, vec![mv("0d3", 1_000)]);
    assert_eq!(
        refusal(&state, &AndesEvent::Resigned { side: Side::Sol, at_ms: 2_000 }),
        "article 5.3: a player resigns during his own move: it is luna's move, not sol's"
    );
    assert!(refusal(&state, &AndesEvent::Resigned { side: Side::Luna, at_ms: 721_000 }).starts_with("article 8.3:"));
    play(&mut state, vec![AndesEvent::Resigned { side: Side::Luna, at_ms: 2_000 }]);
    assert_eq!(state.game.as_ref().unwrap().ended, Some((EndReason::Resigned, Side::Luna)));
}

#[test]
fn a_stream_holds_one_match_of_two_games() {
    let mut state = AndesState::new();
    assert_eq!(refusal(&state, &mv("0d3", 0)), "article 8.3: match_created comes first: move_played needs a match");
    play(&mut state, vec![created()]);
    assert!(refusal(&state, &created()).starts_with("article 8.3: the match was already created"));
    assert!(refusal(&state, &mv("0d3", 0)).starts_with("article 8.3: no game has started"));
    assert!(refusal(&state, &AndesEvent::GameStarted { game: 2, at_ms: 0 })
        .starts_with("article 8.3: game 2 cannot start: game 1 comes next"));
    play(&mut state, vec![AndesEvent::GameStarted { game: 1, at_ms: 0 }]);
    assert!(refusal(&state, &AndesEvent::GameStarted { game: 2, at_ms: 0 })
        .starts_with("article 8.3: game 1 is still being played"));
    let derived = AndesEvent::PieceCaptured { square: sq("d4"), owner: Side::Luna, kind: PieceKind::Militar };
    assert_eq!(
        refusal(&state, &derived),
        "article 4.3.1: piece_captured is derived by the ledger from the move that causes it, and no move is waiting for it"
    );
    play(&mut state, vec![mv("0d3", 1_000), AndesEvent::Resigned { side: Side::Luna, at_ms: 2_000 }]);
    play(&mut state, vec![AndesEvent::GameStarted { game: 2, at_ms: 10_000 }]);
    let setup = state.setup.clone().unwrap();
    assert_eq!((setup.player(1, Side::Sol), setup.player(2, Side::Sol)), (&"ana".to_string(), &"bruno".to_string()));
    assert_eq!(setup.side_of(2, "ana"), Some(Side::Luna));
    // Game 2 starts afresh: Sol (now bruno) places anywhere on the continent.
    play(&mut state, vec![mv("0c4", 11_000), AndesEvent::Resigned { side: Side::Luna, at_ms: 12_000 }]);
    assert!(state.is_over());
    assert!(refusal(&state, &AndesEvent::GameStarted { game: 3, at_ms: 20_000 })
        .starts_with("article 8.3: a match has games 1 and 2"));
    assert!(refusal(&state, &mv("0a1", 20_000)).starts_with("article 9.3: the match is over"));
}

#[test]
fn malformed_events_are_refused_whatever_the_state() {
    let state = started();
    let bad = |event: AndesEvent| {
        let r: Rejection = decide(&state, &event).unwrap_err().into();
        assert_eq!(r.kind, RejectionKind::Malformed, "{event:?}");
        r.message
    };
    assert!(bad(mv("4d3", 1)).starts_with("article 6.6.1:"));
    assert!(bad(mv("0d3d", 1)).starts_with("article 6.6:"));
    assert!(bad(AndesEvent::MatchCreated { first_sol: "ana".into(), first_luna: "ana".into(), clock_ms: 1 })
        .starts_with("article 1.1:"));
    assert!(bad(AndesEvent::MatchCreated { first_sol: "".into(), first_luna: "b".into(), clock_ms: 1 })
        .starts_with("article 1.1:"));
    assert!(bad(AndesEvent::MatchCreated { first_sol: "a".into(), first_luna: "b".into(), clock_ms: 0 })
        .starts_with("article 6.2:"));
    assert!(bad(AndesEvent::GameStarted { game: 0, at_ms: 1 }).starts_with("article 8.3:"));
}

#[test]
fn events_have_one_flat_json_shape_and_a_postcard_form() {
    let samples = [
        (created(), json!({"type": "match_created", "first_sol": "ana", "first_luna": "bruno", "clock_ms": 720000})),
        (AndesEvent::GameStarted { game: 1, at_ms: 0 }, json!({"type": "game_started", "game": 1, "at_ms": 0})),
        (mv("2c3c5", 61250), json!({"type": "move_played", "notation": "2c3c5", "at_ms": 61250})),
        (
            AndesEvent::PieceAttacked { square: sq("e2"), owner: Side::Sol, kind: PieceKind::Persona },
            json!({"type": "piece_attacked", "square": "e2", "owner": "sol", "kind": "persona"}),
        ),
        (
            AndesEvent::PieceCaptured { square: sq("c4"), owner: Side::Luna, kind: PieceKind::EstatalLeft },
            json!({"type": "piece_captured", "square": "c4", "owner": "luna", "kind": "estatal_left"}),
        ),
        (
            AndesEvent::GameEnded { reason: EndReason::ContinentEmptied, side: Side::Luna },
            json!({"type": "game_ended", "reason": "continent_emptied", "side": "luna"}),
        ),
        (
            AndesEvent::FlagFell { side: Side::Sol, at_ms: 720100 },
            json!({"type": "flag_fell", "side": "sol", "at_ms": 720100}),
        ),
        (
            AndesEvent::Resigned { side: Side::Luna, at_ms: 300000 },
            json!({"type": "resigned", "side": "luna", "at_ms": 300000}),
        ),
    ];
    for (event, value) in samples {
        assert_eq!(serde_json::to_value(&event).unwrap(), value);
        assert_eq!(serde_json::from_value::<AndesEvent>(value.clone()).unwrap(), event);
        assert_eq!(event.type_name(), value["type"]);
        let bytes = ledger::andes::stored::to_postcard(&event);
        assert_eq!(ledger::andes::stored::from_postcard(&bytes).unwrap(), event);
    }
    let unknown = json!({"type": "move_played", "notation": "0d3", "at_ms": 1, "by": "ana"});
    assert!(serde_json::from_value::<AndesEvent>(unknown).unwrap_err().to_string().contains("unknown field `by`"));
    assert!(serde_json::from_value::<AndesEvent>(json!({"type": "castled"})).is_err());
    assert!(serde_json::from_value::<AndesEvent>(
        json!({"type": "piece_captured", "square": "C4", "owner": "luna", "kind": "militar"})
    )
    .is_err());
}

#[test]
fn all_49_squares_round_trip_between_sol_and_luna() {
    for square in Square::all() {
        let (marca, escala) = square.luna_coordinates();
        assert_eq!(Square::from_luna(marca, escala), Some(square));
        assert_eq!(Square::parse(&square.luna_name()).unwrap(), square);
        assert_eq!(Square::parse(&square.sol_name()).unwrap(), square);
        // Luna (X, s) = Sol (g − (X − A), 6 − s)
        assert_eq!(u32::from(square.row()) + u32::from(marca), 6);
        assert_eq!(u32::from(square.col()) + u32::from(escala), 6);
        let placed = Move::Place { kind: PieceKind::Persona, square };
        assert_eq!(Move::parse(&placed.notation(Side::Luna)).unwrap(), placed);
    }
    let pieces = [(sq("b5"), piece('d')), (sq("f1"), piece('B'))];
    for side in Side::BOTH {
        let text = position_notation(|s| pieces.iter().find(|(q, _)| *q == s).map(|(_, p)| *p), side);
        let mut back = parse_position(&text, side).unwrap();
        back.sort_by_key(|(s, _)| *s);
        assert_eq!(back, pieces);
    }
}

#[test]
fn the_storage_twin_serves_as_a_serde_with_module() {
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Record {
        seq: u64,
        #[serde(with = "ledger::andes::stored")]
        event: AndesEvent,
    }
    let record = Record { seq: 3, event: mv("2c3c5", 61_250) };
    let bytes = postcard::to_stdvec(&record).unwrap();
    assert_eq!(postcard::from_bytes::<Record>(&bytes).unwrap(), record);
    let value = serde_json::to_value(&record).unwrap();
    assert_eq!(value, json!({"seq": 3, "event": {"type": "move_played", "notation": "2c3c5", "at_ms": 61250}}));
    assert_eq!(serde_json::from_value::<Record>(value).unwrap(), record);
    // The internally tagged form alone cannot go through postcard: that is why the twin exists.
    let direct = postcard::to_stdvec(&record.event).unwrap();
    assert!(postcard::from_bytes::<AndesEvent>(&direct).is_err());
}
