//! What the tablet recording an Andes match needs to run it offline (the recorder of article
//! 9.1), as one typed value: the laws' state it decides the next taps from (`AndesState`, the
//! same fold the sequencer keeps, voids honoured), the table time now, the last events, and the
//! ids of every event the stream holds (so a tablet that lost an acknowledgement knows its tap
//! is stored). The clocks are in the state: each side's time left when its turn began and when
//! the current turn began; the tablet counts down from there on its own monotonic clock.
//!
//! Pure: domain types in, a domain value out; the facade (`crate::facade`,
//! `Projections::andes_table`) reads the stream for it, the web edge turns it into JSON.

use super::table::{recent_events, RecentEvent, Stored};
use ledger::andes::{AndesEvent, AndesState, Side};
use ledger::rules::Rules;
use ledger::{Event, StreamId, StreamState};
use serde::Serialize;
use serde_json::Number;

/// One Andes match as its recording tablet sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AndesTableView {
    /// The match's id, without `andes/`.
    pub r#match: String,
    /// The seq of the stream's last event; 0 before the first.
    pub version: u64,
    /// The log's global position the view was read at: the live feed follows from after it.
    pub position: u64,
    /// The laws' state after the last event: what the tablet decides from.
    pub rules: AndesState,
    /// The table time now, in the match's `at_ms` terms, by the server's clock.
    pub table_now_ms: u64,
    /// The last events, newest first.
    pub recent: Vec<RecentEvent>,
    /// Every event id the stream holds, in seq order.
    pub event_ids: Vec<String>,
    /// Who won each ended game and, once both have, the match: what the tablet names when a
    /// game or the match ends (`replay::andes`, the match sheet's reckoning). `None` before the
    /// match is created.
    pub result: Option<MatchResult>,
}

/// The match's result as the tablet names it: the winners of the ended games and of the match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchResult {
    /// Each ended game, in order.
    pub games: Vec<GameWinner>,
    /// `in_progress` or `complete` (both games ended).
    pub status: &'static str,
    /// The match's winner once complete; `None` while it runs or when drawn.
    pub winner: Option<String>,
    /// `points`, `pieces_on_board` or `drawn` once complete.
    pub decided_by: Option<&'static str>,
    /// Each player's points plus bonuses so far, Sol of game 1 first: exact halves.
    pub players: Vec<PlayerTotal>,
}

/// The winner of one ended game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameWinner {
    pub game: u8,
    pub side: Side,
    pub player: String,
    /// `flag_fell`, `resigned`, `points`, `pieces_on_board` or `luna` (9.2).
    pub decided_by: &'static str,
}

/// One player's points plus bonuses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerTotal {
    pub player: String,
    /// A whole or half number (the bonus halves, 9.4), exact in JSON.
    pub total: Number,
}

/// The recording tablet's view of the match `id`, whose events are `stored`, read at the log
/// position `position` when the server's clock read `wall_now_ms`.
pub fn andes_table_view(id: &StreamId, stored: &[Stored<'_>], position: u64, wall_now_ms: u64) -> AndesTableView {
    let mut fold = StreamState::new(id, None);
    for event in stored {
        // Stored events were accepted when they were appended: they are folded as stored.
        fold.evolve(event.event);
    }
    let live: Vec<AndesEvent> = stored
        .iter()
        .filter(|s| !fold.is_voided(s.seq))
        .filter_map(|s| match s.event {
            Event::Andes(andes) => Some(andes.clone()),
            _ => None,
        })
        .collect();
    let rules = match fold.rules() {
        Rules::Andes(state) => state.clone(),
        Rules::Tournament(_) | Rules::Game(_) => AndesState::new(),
    };
    AndesTableView {
        r#match: id.id().to_owned(),
        version: stored.last().map_or(0, |s| s.seq),
        position,
        table_now_ms: table_now_ms(stored, rules.last_at_ms, wall_now_ms),
        rules,
        recent: recent_events(stored),
        event_ids: stored.iter().map(|s| s.event_id.to_owned()).collect(),
        result: match_result(&live),
    }
}

/// The winners so far, from the match sheet; `None` when there is no match (or its events do
/// not replay, which a stored stream never does).
fn match_result(events: &[AndesEvent]) -> Option<MatchResult> {
    let sheet = replay::andes::andes_match_json(events).ok()?;
    let games = sheet
        .games
        .iter()
        .filter_map(|game| {
            let side = game.winner?;
            let player = if side == Side::Sol { game.sol.clone() } else { game.luna.clone() };
            Some(GameWinner { game: game.game, side, player, decided_by: game.decided_by.unwrap_or("points") })
        })
        .collect();
    let players =
        sheet.players.iter().map(|p| PlayerTotal { player: p.player.clone(), total: p.total.clone() }).collect();
    Some(MatchResult { games, status: sheet.status, winner: sheet.winner, decided_by: sheet.decided_by, players })
}

/// The table time now: the last table time recorded plus the server time since it was
/// recorded (none where the source does not say when; 0 before any). A match's table clock
/// starts at 0 when the tablet starts game 1.
fn table_now_ms(stored: &[Stored<'_>], last_at_ms: Option<u64>, wall_now_ms: u64) -> u64 {
    let last = stored.iter().rev().find_map(|s| s.event.at_ms().map(|at| (at, s.recorded_at_ms)));
    let carried = last.map_or(0, |(at, recorded)| {
        at.saturating_add(recorded.map_or(0, |recorded| wall_now_ms.saturating_sub(recorded)))
    });
    carried.max(last_at_ms.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::andes::AndesEvent;
    use ledger::{Envelope, Event, Recorded};

    fn recorded(seq: u64, event: AndesEvent, recorded_at_ms: u64) -> Recorded {
        let envelope = Envelope {
            stream: StreamId::parse("andes/v1").unwrap(),
            seq,
            position: seq,
            event_id: format!("e{seq}"),
            recorded_at_ms,
            actor: "table-1".into(),
            prev_hash: Default::default(),
            hash: Default::default(),
        };
        Recorded { envelope, event: Event::Andes(event) }
    }

    #[test]
    fn the_view_holds_the_laws_state_and_carries_the_table_time_on() {
        let id = StreamId::parse("andes/v1").unwrap();
        let records = [
            recorded(
                1,
                AndesEvent::MatchCreated { first_sol: "ana".into(), first_luna: "bea".into(), clock_ms: 720_000 },
                1_000,
            ),
            recorded(2, AndesEvent::GameStarted { game: 1, at_ms: 0 }, 2_000),
            recorded(3, AndesEvent::MovePlayed { notation: "0d3".into(), at_ms: 4_000 }, 6_000),
        ];
        let stored: Vec<Stored<'_>> = records.iter().map(Stored::from).collect();
        let view = andes_table_view(&id, &stored, 17, 9_500);
        assert_eq!((view.r#match.as_str(), view.version, view.position), ("v1", 3, 17));
        assert_eq!(view.table_now_ms, 7_500, "4 000 ms at the move, recorded 3 500 ms ago");
        let game = view.rules.game.as_ref().unwrap();
        assert_eq!(game.position.notation(ledger::andes::Side::Sol), "7/7/7/3a3/7/7/7");
        assert_eq!(view.event_ids, ["e1", "e2", "e3"]);
        assert_eq!(view.recent[0].text, "move_played notation=0d3 at_ms=4000");
        let empty = andes_table_view(&id, &[], 0, 9_500);
        assert_eq!((empty.version, empty.table_now_ms, empty.rules.setup.is_none()), (0, 0, true));
        assert_eq!(empty.result, None, "no match, no result");
        let running = view.result.unwrap();
        assert_eq!((running.games.len(), running.status, running.winner), (0, "in_progress", None));
    }

    /// A game's winner is named once it ends, and the match's once both have: a voided
    /// resignation names nobody.
    #[test]
    fn the_view_names_the_winners_of_the_games_and_the_match() {
        let id = StreamId::parse("andes/v1").unwrap();
        let mut records = vec![
            recorded(
                1,
                AndesEvent::MatchCreated { first_sol: "ana".into(), first_luna: "bea".into(), clock_ms: 720_000 },
                1_000,
            ),
            recorded(2, AndesEvent::GameStarted { game: 1, at_ms: 0 }, 2_000),
            recorded(3, AndesEvent::MovePlayed { notation: "0d3".into(), at_ms: 4_000 }, 6_000),
            recorded(4, AndesEvent::Resigned { side: Side::Luna, at_ms: 5_000 }, 7_000),
        ];
        let stored: Vec<Stored<'_>> = records.iter().map(Stored::from).collect();
        let result = andes_table_view(&id, &stored, 4, 9_000).result.unwrap();
        let won = GameWinner { game: 1, side: Side::Sol, player: "ana".into(), decided_by: "resigned" };
        assert_eq!(result.games, [won]);
        assert_eq!((result.status, result.winner), ("in_progress", None), "one game of two");
        // Game 2, sides swapped: bea (Sol) places a persona, ana (Luna) resigns.
        records.push(recorded(5, AndesEvent::GameStarted { game: 2, at_ms: 6_000 }, 8_000));
        records.push(recorded(6, AndesEvent::MovePlayed { notation: "0d3".into(), at_ms: 7_000 }, 9_000));
        records.push(recorded(7, AndesEvent::Resigned { side: Side::Luna, at_ms: 8_000 }, 10_000));
        let stored: Vec<Stored<'_>> = records.iter().map(Stored::from).collect();
        let result = andes_table_view(&id, &stored, 7, 11_000).result.unwrap();
        assert_eq!(result.games.iter().map(|g| g.player.as_str()).collect::<Vec<_>>(), ["ana", "bea"]);
        assert_eq!(result.status, "complete");
        // Each won a game with a persona on the board and 6 in reserve (9 points, 13.5 with the
        // bonus) and lost one with 7 in reserve (7): level sums and level pieces, a drawn match.
        assert_eq!((result.winner, result.decided_by), (None, Some("drawn")));
        assert_eq!(result.players.iter().map(|p| p.total.to_string()).collect::<Vec<_>>(), ["20.5", "20.5"]);
        // The jury voids game 2's resignation: game 2 runs again, the match has no result.
        let mut void = recorded(8, AndesEvent::GameStarted { game: 2, at_ms: 0 }, 12_000);
        void.event = Event::EventVoided { seq: 7, reason: "resigned by mistake".into() };
        records.push(void);
        let stored: Vec<Stored<'_>> = records.iter().map(Stored::from).collect();
        let result = andes_table_view(&id, &stored, 8, 13_000).result.unwrap();
        assert_eq!((result.games.len(), result.status), (1, "in_progress"));
    }
}
