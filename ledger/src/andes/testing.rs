//! Test support for Andes streams, shared with the other crates (feature `testing`): a player
//! of random legal matches, and a check that the generator of legal moves and the rules agree
//! on every candidate move. Randomness comes from the caller's choices, so proptest can shrink.

use super::board::{Side, Square};
use super::event::AndesEvent;
use super::notation::Move;
use super::piece::PieceKind;
use super::position::Position;
use super::state::AndesState;

/// One step of a random match: which move (an index into the legal moves), the mover's
/// thinking time in ms, and whether to prefer moves that attack or capture.
pub type Choice = (u16, u32, bool);

/// Asserts that [`Position::check`] accepts exactly the moves [`Position::legal_moves`] lists,
/// over every placement and every move of the side to move's pieces.
///
/// # Panics
/// When they disagree, naming the position.
pub fn assert_generator_matches_checker(position: &Position) {
    let mut accepted = Vec::new();
    for square in Square::all() {
        for kind in PieceKind::ALL {
            let place = Move::Place { kind, square };
            if position.check(place).is_ok() {
                accepted.push(place.to_string());
            }
        }
    }
    for (from, _) in position.pieces().filter(|(_, p)| p.side == position.to_move()) {
        for to in Square::all().filter(|&to| to != from) {
            for kind in PieceKind::ALL {
                let shift = Move::Shift { kind, from, to };
                if position.check(shift).is_ok() {
                    accepted.push(shift.to_string());
                }
            }
        }
    }
    let mut legal: Vec<String> = position.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    accepted.sort();
    assert_eq!(legal, accepted, "at {}", position.notation(Side::Sol));
}

/// Plays a random legal match between `sol-1` and `luna-1` through [`AndesState::record`]:
/// games are started as needed, a pause past the mover's flag records `flag_fell`, and moves are
/// written from Sol's or Luna's side by the parity of the choice. Stops when the choices run
/// out or the match is over. Every `check_every`-th step (0: never) also runs
/// [`assert_generator_matches_checker`].
///
/// # Panics
/// When the rules refuse an event they generated: that is the bug this looks for.
pub fn random_match(choices: &[Choice], clock_ms: u64, check_every: usize) -> (Vec<AndesEvent>, AndesState) {
    let mut state = AndesState::new();
    let first = AndesEvent::MatchCreated { first_sol: "sol-1".into(), first_luna: "luna-1".into(), clock_ms };
    let mut stream = state.record(first).expect("a match can always be created");
    let mut at_ms = 0u64;
    for (step, &(choice, pause, aggressive)) in choices.iter().enumerate() {
        if state.is_over() {
            break;
        }
        at_ms += u64::from(pause);
        let next = match state.game.as_ref() {
            None => AndesEvent::GameStarted { game: 1, at_ms },
            Some(g) if g.ended.is_some() => AndesEvent::GameStarted { game: g.number + 1, at_ms },
            Some(g) => {
                let side = g.position.to_move();
                if at_ms >= g.clocks.deadline_ms(side) {
                    AndesEvent::FlagFell { side, at_ms }
                } else {
                    if check_every > 0 && step % check_every == 0 {
                        assert_generator_matches_checker(&g.position);
                    }
                    let legal = g.position.legal_moves();
                    assert!(!legal.is_empty(), "a game in progress always has a move");
                    let striking: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|m| g.position.check(*m).is_ok_and(|p| p.attacked.is_some() || !p.captured.is_empty()))
                        .collect();
                    let pool = if aggressive && !striking.is_empty() { &striking } else { &legal };
                    let chosen = pool[usize::from(choice) % pool.len()];
                    let coordinates = if choice % 2 == 0 { Side::Sol } else { Side::Luna };
                    AndesEvent::MovePlayed { notation: chosen.notation(coordinates), at_ms }
                }
            }
        };
        let text = format!("{next:?}");
        let appended = state.record(next).unwrap_or_else(|r| panic!("the rules refused their own legal {text}: {r}"));
        stream.extend(appended);
    }
    (stream, state)
}

/// A deterministic, aggressive match from a seed (no proptest needed).
pub fn seeded_match(seed: u32, steps: u32) -> Vec<AndesEvent> {
    let choices: Vec<Choice> = (0..steps)
        .map(|i| {
            let mixed = (u64::from(i) * 7919 + u64::from(seed) * 104_729) % 65_521;
            (u16::try_from(mixed).unwrap_or(0), 500 + (i % 5) * 300, i % 3 != 0)
        })
        .collect();
    random_match(&choices, super::clock::COMPETITIVE_CLOCK_MS, 0).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::andes::position::EndReason;
    use crate::andes::state::{derived_events, evolve};
    use crate::andes::{stored, COMPETITIVE_CLOCK_MS};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Random legal games never produce a move `decide` refuses, and always replay to the
        /// same state, through JSON and postcard alike.
        #[test]
        fn random_legal_games_replay_to_the_same_state(
            choices in proptest::collection::vec((any::<u16>(), 0u32..12_000, any::<bool>()), 1..400),
            clock_ms in prop_oneof![Just(COMPETITIVE_CLOCK_MS), 60_000u64..200_000],
        ) {
            let (stream, state) = random_match(&choices, clock_ms, 7);
            let replayed = AndesState::replay(&stream).map_err(|(i, r)| TestCaseError::fail(format!("event {i}: {r}")))?;
            prop_assert_eq!(&replayed, &state);
            let mut again = AndesState::new();
            for event in &stream {
                let json = serde_json::to_string(event).unwrap();
                prop_assert_eq!(&serde_json::from_str::<AndesEvent>(&json).unwrap(), event);
                prop_assert_eq!(&stored::from_postcard(&stored::to_postcard(event)).unwrap(), event);
                if !event.is_derived() {
                    let derived = derived_events(&again, event).unwrap();
                    evolve(&mut again, event);
                    for d in derived {
                        evolve(&mut again, &d);
                    }
                }
            }
            prop_assert_eq!(&again, &state);
            let snapshot = postcard::to_stdvec(&state).unwrap();
            prop_assert_eq!(postcard::from_bytes::<AndesState>(&snapshot).unwrap(), state);
        }
    }

    #[test]
    fn aggressive_games_end_on_the_continent() {
        let mut endings = std::collections::BTreeSet::new();
        for seed in 0..40 {
            for event in seeded_match(seed, 600) {
                if let AndesEvent::GameEnded { reason, .. } = event {
                    endings.insert(reason);
                }
            }
        }
        assert!(endings.contains(&EndReason::ContinentEmptied), "{endings:?}");
    }
}
