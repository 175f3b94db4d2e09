//! One game as the jury's pages need it: its records (with their envelopes, for the chain and
//! the audit) and the tournaments around it (for its ruleset, clock length and seats); and a
//! game's table time now, which the board shows. The table page asks the projections facade
//! instead (`Projections::table`, on the table page).

use crate::PageError;
use ledger::{Recorded, Ruleset, StreamId, StreamKind};
use ledger_house::error::Error;
use ledger_house::projections::table::Stored;
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
        Ok(Game { id, records, streams, ruleset, ms_per_side })
    }
}

/// A game's table time now, in its own `at_ms` terms, from its `records`
/// (`projections::table::table_now_ms`, as the table's view has it).
pub(crate) fn table_now_ms(records: &[Recorded], last_at_ms: Option<u64>, wall_now_ms: u64) -> u64 {
    let stored: Vec<Stored<'_>> = records.iter().map(Stored::from).collect();
    projections::table::table_now_ms(&stored, last_at_ms, wall_now_ms)
}
