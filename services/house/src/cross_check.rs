//! The store's cross-stream hook, running the tournament's rules across streams, which live in
//! the pure crates (`replay::standings::checks`): the final's rank order, and a game scheduled
//! by one tournament only, never one already played.

use ledger::{Event, Folded, StreamId};
use ledger_store::{AppendError, CrossCheck, StoreError, StreamLookup};

/// The tournament's rules across streams.
pub struct TournamentChecks;

impl CrossCheck for TournamentChecks {
    fn check(
        &self,
        stream: &StreamId,
        state: &Folded,
        event: &Event,
        streams: &dyn StreamLookup,
    ) -> Result<(), AppendError> {
        replay::standings::checks::check(stream, state, event, &mut Adapter(streams))?.map_err(AppendError::from)
    }
}

/// The store's view of other streams as the pure rules read it.
struct Adapter<'a>(&'a dyn StreamLookup);

impl replay::standings::checks::Lookup<StoreError> for Adapter<'_> {
    fn events(&mut self, stream: &StreamId) -> Result<Vec<(u64, Event)>, StoreError> {
        self.0.events(stream)
    }

    fn scheduled_by(&mut self, game: &str) -> Result<Vec<StreamId>, StoreError> {
        self.0.scheduled_by(game)
    }
}
