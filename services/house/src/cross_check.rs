//! The store's cross-stream hook, running the tournament's rules across streams, which live in
//! the pure crates (`replay::standings::checks`): the final's rank order, and games started
//! under another ruleset.

use ledger::{Event, Folded, StreamId};
use ledger_store::{AppendError, CrossCheck, StreamLookup};

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
        let mut events_of = |other: &StreamId| streams.events(other);
        replay::standings::checks::check(stream, state, event, &mut events_of)?.map_err(AppendError::from)
    }
}
