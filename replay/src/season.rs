//! Where a tournament stands in its season (issue 32): registering, drawn, in a qualifying
//! round, at its final, or ended — from what its stream recorded ([`TournamentFacts`]) and
//! whether its games started and ended (the game streams' rules state, which the caller reads).
//!
//! The games are asked for lazily, through a callback, and only those the answer needs: an
//! ended tournament costs its final's game, a tournament in its qualifying rounds the games of
//! the rounds from the last one down to the newest started one, and the rest of its games only
//! while the last round is being played. docs/DECISIONS.md ("Where a tournament stands").

use crate::standings::{ScheduledGame, TournamentFacts};
use ledger::Stage;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Phase {
    /// Created; no game is scheduled (the qualifying draw is not recorded).
    Registering,
    /// Games are scheduled and none of them has started.
    Drawn,
    /// `round` is the highest qualifying round with a started game, and some qualifying game
    /// has not ended; no final is scheduled.
    Round { round: u32 },
    /// A final is scheduled and has not ended, or every qualifying game has ended and no final
    /// is scheduled yet.
    Final,
    /// Every final game scheduled has ended.
    Ended,
}

impl Phase {
    /// The state's name as JSON and the catalogues' messages say it (`round` without its number).
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Registering => "registering",
            Phase::Drawn => "drawn",
            Phase::Round { .. } => "round",
            Phase::Final => "final",
            Phase::Ended => "ended",
        }
    }
}

impl fmt::Display for Phase {
    /// `registering`, `drawn`, `round 2`, `final`, `ended`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Phase::Round { round } => write!(f, "round {round}"),
            other => f.write_str(other.as_str()),
        }
    }
}

/// What a game's stream says of its play, as the ledger's rules fold it (voids applied).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GameProgress {
    /// `game_started` stands.
    pub started: bool,
    /// `game_ended` stands.
    pub ended: bool,
}

/// Where the tournament of `facts` stands; `progress(game id)` says how far a scheduled game
/// is, and is called at most once per game, only for the games the answer depends on.
///
/// # Errors
/// The first error `progress` returns.
pub fn phase<E>(facts: &TournamentFacts, progress: impl FnMut(&str) -> Result<GameProgress, E>) -> Result<Phase, E> {
    let mut known = Known { progress, seen: BTreeMap::new() };
    let of_stage = |stage: Stage| facts.games.iter().filter(move |g| g.slot.stage == stage);
    let finals: Vec<&ScheduledGame> = of_stage(Stage::Final).collect();
    if !finals.is_empty() {
        for game in finals {
            if !known.get(&game.game)?.ended {
                return Ok(Phase::Final);
            }
        }
        return Ok(Phase::Ended);
    }
    let mut rounds: Vec<u32> = of_stage(Stage::Qualifying).map(|g| g.slot.round).collect();
    rounds.sort_unstable_by(|a, b| b.cmp(a));
    rounds.dedup();
    let Some(&last) = rounds.first() else {
        return Ok(Phase::Registering);
    };
    for round in rounds {
        let mut started = false;
        for game in of_stage(Stage::Qualifying).filter(|g| g.slot.round == round) {
            if known.get(&game.game)?.started {
                started = true;
                break;
            }
        }
        if !started {
            continue;
        }
        if round == last {
            // The last round is on: the final awaits once every qualifying game has ended.
            let mut all_ended = true;
            for game in of_stage(Stage::Qualifying) {
                if !known.get(&game.game)?.ended {
                    all_ended = false;
                    break;
                }
            }
            if all_ended {
                return Ok(Phase::Final);
            }
        }
        return Ok(Phase::Round { round });
    }
    Ok(Phase::Drawn)
}

/// The games' progress asked once each.
struct Known<F> {
    progress: F,
    seen: BTreeMap<String, GameProgress>,
}

impl<F, E> Known<F>
where
    F: FnMut(&str) -> Result<GameProgress, E>,
{
    fn get(&mut self, game: &str) -> Result<GameProgress, E> {
        if let Some(known) = self.seen.get(game) {
            return Ok(*known);
        }
        let progress = (self.progress)(game)?;
        self.seen.insert(game.to_owned(), progress);
        Ok(progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::ScheduledGame;
    use ledger::event::Seats;
    use ledger::rules::ScheduledGame as Slot;
    use std::cell::RefCell;
    use std::convert::Infallible;

    fn game(id: &str, stage: Stage, round: u32) -> ScheduledGame {
        let seats =
            Seats { frederick: "a".into(), elisabeth: "b".into(), maria_theresa: "c".into(), pompadour: "d".into() };
        ScheduledGame { game: id.into(), slot: Slot { stage, round, table: 1, seats } }
    }

    /// Two qualifying rounds of two games each.
    fn drawn() -> TournamentFacts {
        let games = vec![
            game("q1-t1", Stage::Qualifying, 1),
            game("q1-t2", Stage::Qualifying, 1),
            game("q2-t1", Stage::Qualifying, 2),
            game("q2-t2", Stage::Qualifying, 2),
        ];
        TournamentFacts { name: "Cup".into(), games, ..TournamentFacts::default() }
    }

    const NOT: GameProgress = GameProgress { started: false, ended: false };
    const ON: GameProgress = GameProgress { started: true, ended: false };
    const DONE: GameProgress = GameProgress { started: true, ended: true };

    /// The phase with these games' progress (any other game not started), and the games asked.
    fn check(facts: &TournamentFacts, games: &[(&str, GameProgress)]) -> (Phase, Vec<String>) {
        let asked = RefCell::new(Vec::new());
        let phase = phase(facts, |id| {
            asked.borrow_mut().push(id.to_owned());
            Ok::<_, Infallible>(games.iter().find(|(g, _)| *g == id).map_or(NOT, |(_, p)| *p))
        });
        (phase.unwrap(), asked.into_inner())
    }

    #[test]
    fn every_state_is_reached() {
        let registering = TournamentFacts { name: "Cup".into(), ..TournamentFacts::default() };
        assert_eq!(check(&registering, &[]), (Phase::Registering, vec![]));
        assert_eq!(check(&drawn(), &[]).0, Phase::Drawn);
        assert_eq!(check(&drawn(), &[("q1-t2", ON)]).0, Phase::Round { round: 1 });
        assert_eq!(check(&drawn(), &[("q1-t1", DONE), ("q1-t2", DONE)]).0, Phase::Round { round: 1 });
        let second = [("q1-t1", DONE), ("q1-t2", DONE), ("q2-t1", DONE), ("q2-t2", ON)];
        assert_eq!(check(&drawn(), &second).0, Phase::Round { round: 2 });
        let all = [("q1-t1", DONE), ("q1-t2", DONE), ("q2-t1", DONE), ("q2-t2", DONE)];
        assert_eq!(check(&drawn(), &all).0, Phase::Final);
        let mut with_final = drawn();
        with_final.games.push(game("final", Stage::Final, 3));
        assert_eq!(check(&with_final, &all), (Phase::Final, vec!["final".to_owned()]));
        assert_eq!(check(&with_final, &[("final", ON)]).0, Phase::Final);
        assert_eq!(check(&with_final, &[("final", DONE)]), (Phase::Ended, vec!["final".to_owned()]));
    }

    #[test]
    fn a_round_played_out_of_order_still_counts_and_a_late_game_holds_the_final_back() {
        // A game of round 1 still on while round 2 is played: round 2, not the final.
        let late = [("q1-t1", ON), ("q1-t2", DONE), ("q2-t1", DONE), ("q2-t2", DONE)];
        assert_eq!(check(&drawn(), &late).0, Phase::Round { round: 2 });
        // Only round 2 started (hand-scheduled games need not be played in order).
        assert_eq!(check(&drawn(), &[("q2-t1", ON)]).0, Phase::Round { round: 2 });
    }

    #[test]
    fn only_the_games_the_answer_needs_are_asked_once_each() {
        // Round 2 not started: its two games, then round 1's first (started) — nothing more.
        let (phase, asked) = check(&drawn(), &[("q1-t1", ON)]);
        assert_eq!(phase, Phase::Round { round: 1 });
        assert_eq!(asked, ["q2-t1", "q2-t2", "q1-t1"]);
        // The last round on: every qualifying game asked, none twice.
        let (_, asked) = check(&drawn(), &[("q1-t1", DONE), ("q1-t2", DONE), ("q2-t1", DONE), ("q2-t2", DONE)]);
        assert_eq!(asked, ["q2-t1", "q1-t1", "q1-t2", "q2-t2"]);
    }

    #[test]
    fn the_state_reads_as_json_and_text() {
        let json = |p: Phase| serde_json::to_string(&p).unwrap();
        assert_eq!(json(Phase::Round { round: 3 }), r#"{"state":"round","round":3}"#);
        assert_eq!(json(Phase::Drawn), r#"{"state":"drawn"}"#);
        assert_eq!(Phase::Round { round: 3 }.to_string(), "round 3");
        assert_eq!(Phase::Ended.to_string(), "ended");
    }

    #[test]
    fn an_error_reading_a_game_is_the_answer() {
        let failed = phase(&drawn(), |_| Err::<GameProgress, _>("unreadable"));
        assert_eq!(failed, Err("unreadable"));
    }
}
