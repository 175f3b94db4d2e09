//! One game as the table and jury pages need it: its records, the tournaments around it (for
//! its ruleset, clock length and seats), the rules' state folded by `ledger::StreamState` (what
//! the sequencer would accept next), and the table time now.

use super::PageError;
use ledger::rules::{GameState, Rules};
use ledger::{Event, Recorded, Ruleset, StreamId, StreamKind, StreamState};
use ledger_house::error::Error;
use ledger_house::projections::{self, Streams};
use ledger_store::Log;

/// A game stream read from the log.
pub(crate) struct Game {
    pub id: StreamId,
    /// The game's own records, in seq order.
    pub records: Vec<Recorded>,
    /// The game and every tournament.
    pub streams: Streams,
    pub ruleset: Option<Ruleset>,
    pub ms_per_side: u64,
    /// The rules' state after the last event, voids honoured.
    pub state: StreamState,
}

/// `<id>` or `game/<id>` as a game stream.
///
/// # Errors
/// Not a valid game stream name (`INVALID_ARGUMENT`).
pub(crate) fn game_id(text: &str) -> Result<StreamId, PageError> {
    let name = if text.contains('/') { text.to_owned() } else { format!("game/{text}") };
    let id = StreamId::parse(&name).map_err(Error::from)?;
    if id.kind() != StreamKind::Game {
        return Err(Error::InvalidArgument(format!("{name} is not a game stream")).into());
    }
    Ok(id)
}

impl Game {
    /// Reads the game and the tournaments that scheduled it (blocking).
    ///
    /// # Errors
    /// The log cannot be read.
    pub fn load(log: &Log, id: StreamId) -> Result<Game, PageError> {
        let mut all: Vec<Recorded> = Vec::new();
        for tournament in log.tournaments_of(id.id())? {
            all.extend(log.read_stream(&tournament, 1, usize::MAX)?);
        }
        let records = log.read_stream(&id, 1, usize::MAX)?;
        all.extend(records.iter().cloned());
        let streams = projections::from_records(&all);
        let (ruleset, ms_per_side) = projections::game_settings(&streams, &id);
        let mut state = StreamState::new(&id, projections::scheduled_ruleset(&streams, id.id()));
        for record in &records {
            // The log accepted every stored event; one that today's rules would refuse (an old
            // record) is applied anyway so that the page still shows the stream.
            if state.apply(&record.event).is_err() {
                state.evolve(&record.event);
            }
        }
        Ok(Game { id, records, streams, ruleset, ms_per_side, state })
    }

    pub fn rules(&self) -> Option<&GameState> {
        match self.state.rules() {
            Rules::Game(game) => Some(game),
            _ => None,
        }
    }
}

/// The table time now, in the game's own `at_ms` terms: the `at_ms` of `game_started` plus the
/// server time elapsed since it was recorded, never before the last table time recorded. A
/// game started from the table page starts at 0, so its table time is the time since the start.
pub(crate) fn table_now_ms(records: &[Recorded], last_at_ms: Option<u64>, wall_now_ms: u64) -> u64 {
    let started = records.iter().find_map(|r| match r.event {
        Event::GameStarted { at_ms, .. } => Some((at_ms, r.envelope.recorded_at_ms)),
        _ => None,
    });
    let derived = started.map_or(0, |(at_ms, recorded)| at_ms.saturating_add(wall_now_ms.saturating_sub(recorded)));
    derived.max(last_at_ms.unwrap_or(0))
}
