//! What every stream of the crash test holds at each seq: what the writers append, and what a
//! stream read back is compared with, event by event. How one append is sent and acknowledged
//! is [`super::append`]'s.
//!
//! The writers' streams are stand-alone games whose `seq`-th event is a fixed function of
//! `seq` ([`event_at`]): `game_started`, then `turn_started` 1 to 23 (a game's last turn), then,
//! in turn 23, the seven nations' action stages one after the other, `action_stage_started` and
//! `action_stage_ended` of each, round and round, each event a second of table time after the
//! one before. The rules accept a `turn_started` only for exactly the next turn, and a nation's
//! action stage only once the one before it ended and its end only for the nation acting, so an
//! event that was lost, doubled or reordered, or a stream state restored wrongly after a crash,
//! makes the next append fail instead of passing unnoticed (all but a loss that lands on a
//! stage's start, which the rules accept whenever no stage is open: a whole stage lost, or turn
//! 23 lost before the first; the read-back below still sees those); and reading a stream back,
//! every event can be compared with what its seq must hold.
//!
//! Tournaments follow the same rule: a tournament stream's `seq`-th event and each of its
//! games' are fixed functions of the seq too ([`tournament_event_at`]); their organiser, who
//! writes them, is the tournament module's. [`event_of`] answers for any stream.

use ledger::event::Seats;
use ledger::rules::MAX_TURNS;
use ledger::{Event, Nation, Ruleset, Stage};

/// 2026-09-01, the games' table time at seq 0; each event is a second later than the one before.
pub const STARTED_AT_MS: u64 = 1_788_220_800_000;

/// Every game stream of the crash test starts with this (a tournament's games too).
pub const GAME_PREFIX: &str = "game/crash-";

/// The event every stand-alone game holds at `seq` (1-based).
pub fn event_at(seq: u64) -> Event {
    if seq <= 1 {
        return Event::GameStarted { at_ms: STARTED_AT_MS, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    }
    if seq <= LAST_TURN_SEQ {
        return turn_at(seq);
    }
    stage_at(seq)
}

/// The seq of the last turn's `turn_started`: the game's start, then turns 1 to 23.
const LAST_TURN_SEQ: u64 = 1 + MAX_TURNS as u64;

/// `turn_started` at `seq` (2 to 24): turn `seq - 1`, a second after the event before it.
pub fn turn_at(seq: u64) -> Event {
    let turn = u32::try_from(seq.saturating_sub(1)).unwrap_or(u32::MAX);
    Event::TurnStarted { turn, at_ms: Some(at_ms(seq)) }
}

/// After the last turn: the nations' action stages in turn, a start and an end each.
fn stage_at(seq: u64) -> Event {
    let k = seq - LAST_TURN_SEQ - 1;
    let nation = Nation::ALL[usize::try_from(k / 2).unwrap_or(0) % Nation::ALL.len()];
    let at_ms = at_ms(seq);
    if k.is_multiple_of(2) {
        Event::ActionStageStarted { nation, at_ms }
    } else {
        Event::ActionStageEnded { nation, at_ms }
    }
}

/// The table time of the event at `seq`: a second after the one before.
fn at_ms(seq: u64) -> u64 {
    STARTED_AT_MS + seq * 1_000
}

/// The event `stream` holds at `seq`: a tournament's or one of its games' (see
/// [`tournament_event_at`]), else a stand-alone game's.
pub fn event_of(stream: &str, seq: u64) -> Event {
    tournament_event_at(stream, seq).unwrap_or_else(|| event_at(seq))
}

/// Whether the crash program writes `stream` (every stream it reads back).
pub fn is_ours(stream: &str) -> bool {
    stream.starts_with(GAME_PREFIX) || stream.starts_with(TOURNAMENT_PREFIX)
}

/// The name of a writer's own stream.
pub fn own_stream(writer: &str, idx: usize) -> String {
    format!("{GAME_PREFIX}{writer}-{idx}")
}

/// The name of a stream every unary writer appends to, with expected versions.
pub fn shared_stream(idx: usize) -> String {
    format!("{GAME_PREFIX}shared-{idx}")
}

/// The id of an event on a writer's own stream: one event per seq, so the seq names it.
pub fn own_event_id(stream: &str, seq: u64) -> String {
    format!("{stream}#{seq}")
}

// Tournaments: a tournament stream and its games, each event a fixed function of the seq.

/// Every tournament stream of the crash program starts with this.
pub const TOURNAMENT_PREFIX: &str = "tournament/crash-";

/// `tournament_created` and four `player_registered`.
pub const SETUP: u64 = 5;

/// Events in one tournament game: `game_started` and turns 1 to 23.
pub const GAME_EVENTS: u64 = 24;

/// The tournament stream of tournament `idx`.
pub fn tournament_stream(idx: usize) -> String {
    format!("{TOURNAMENT_PREFIX}t{idx}")
}

/// The stream of game `n` (from 1) of tournament `idx`.
pub fn game_stream(idx: usize, n: u64) -> String {
    format!("{GAME_PREFIX}t{idx}-g{n}")
}

/// What a stream of a tournament is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Tournament { idx: usize },
    Game { idx: usize, n: u64 },
}

/// Which tournament stream `stream` is, if it is one.
pub fn part_of(stream: &str) -> Option<Part> {
    let number = |text: &str| text.parse::<u64>().ok();
    if let Some(rest) = stream.strip_prefix(TOURNAMENT_PREFIX).and_then(|r| r.strip_prefix('t')) {
        return Some(Part::Tournament { idx: usize::try_from(number(rest)?).ok()? });
    }
    let (idx, n) = stream.strip_prefix(GAME_PREFIX)?.strip_prefix('t')?.split_once("-g")?;
    Some(Part::Game { idx: usize::try_from(number(idx)?).ok()?, n: number(n)? })
}

fn player(k: u64) -> String {
    format!("p{k}")
}

/// The event a tournament's stream or one of its games holds at `seq`; `None` for any other
/// stream.
fn tournament_event_at(stream: &str, seq: u64) -> Option<Event> {
    Some(match part_of(stream)? {
        Part::Tournament { idx } => match seq {
            0 | 1 => Event::TournamentCreated {
                name: format!("Crash cup {idx}"),
                ruleset: Ruleset::Cafe2023,
                clock_ms_per_side: None,
            },
            2..=SETUP => Event::PlayerRegistered {
                player: player(seq - 1),
                name: format!("Player {}", seq - 1),
                pseudonym: None,
            },
            _ => {
                let n = seq - SETUP;
                let game = game_stream(idx, n).trim_start_matches("game/").to_owned();
                let round = u32::try_from(n).unwrap_or(u32::MAX);
                let seats = Seats {
                    frederick: player(1),
                    elisabeth: player(2),
                    maria_theresa: player(3),
                    pompadour: player(4),
                };
                Event::GameScheduled { game, stage: Stage::Qualifying, round, table: 1, seats }
            }
        },
        // No ruleset: the tournament that scheduled the game gives it.
        Part::Game { idx, .. } if seq <= 1 => Event::GameStarted {
            at_ms: STARTED_AT_MS,
            ruleset: None,
            tournament: Some(tournament_stream(idx).trim_start_matches("tournament/").to_owned()),
        },
        Part::Game { .. } => turn_at(seq),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::StreamId;
    use ledger::StreamState;

    /// Up to `--max-stream-events` (5,000), every event is valid at its seq, a double is refused,
    /// and so is a skip of one or two, except onto a stage's start: the rules accept one whenever
    /// no stage is open (a whole stage lost, or turn 23 lost before the stages, which the
    /// read-back still sees).
    #[test]
    fn streams_are_told_apart() {
        assert_eq!(part_of(&tournament_stream(3)), Some(Part::Tournament { idx: 3 }));
        assert_eq!(part_of(&game_stream(1, 17)), Some(Part::Game { idx: 1, n: 17 }));
        for other in ["game/crash-u0-1", "game/crash-shared-0", "game/crash-p1-3", "game/crash-tx-g1"] {
            assert_eq!(part_of(other), None, "{other}");
        }
    }

    #[test]
    fn the_sequence_is_a_valid_game_and_each_event_fits_only_its_seq() {
        let stream = StreamId::parse(&own_stream("u0", 0)).unwrap();
        let mut state = StreamState::new(&stream, None);
        for seq in 1..=5_000u64 {
            for other in [1, seq.saturating_sub(1), seq + 1, seq + 2] {
                let skip_onto_a_start = other > seq && matches!(event_at(other), Event::ActionStageStarted { .. });
                if other != seq && other >= 1 && !skip_onto_a_start {
                    assert!(state.decide(&event_at(other)).is_err(), "seq {other} accepted at {seq}");
                }
            }
            state.apply(&event_at(seq)).unwrap_or_else(|r| panic!("seq {seq}: {r}"));
        }
        assert!(matches!(event_at(LAST_TURN_SEQ), Event::TurnStarted { turn: MAX_TURNS, .. }));
    }
}
