//! Rules that need more than the stream appended to: the final's role choices follow the
//! standings, which fold every game of the tournament. The sequencer asks a [`CrossCheck`]
//! after the stream's own rules accepted an event; the daemon plugs in one that computes the
//! standings, so the store stays free of scoring.

use crate::error::{AppendError, StoreError};
use ledger::access::Clearance;
use ledger::{Event, Folded, StreamId};

/// Reads the events of other streams, as committed.
pub trait StreamLookup {
    /// A stream's events as `(seq, event)`; empty if it does not exist. The writer's lookup
    /// includes what the append being decided (and its group) added before this event.
    ///
    /// # Errors
    /// The backend failed.
    fn events(&self, stream: &StreamId) -> Result<Vec<(u64, Event)>, StoreError>;

    /// The tournament streams whose draw or schedule names `game` (voided ones included: a
    /// superset). The writer's lookup includes the tournaments of the group being decided.
    ///
    /// # Errors
    /// The backend failed.
    fn scheduled_by(&self, game: &str) -> Result<Vec<StreamId>, StoreError>;
}

/// A rule across streams.
pub trait CrossCheck: Send + Sync + 'static {
    /// `state` is the appended stream as it stands before `event` (earlier events of the same
    /// append included); its events, if a rule needs them, come from `streams`. `clearance` is
    /// the sender's: a bound that protects the log from a table's code need not hold the jury.
    ///
    /// # Errors
    /// The rule `event` breaks, or a failure to read the other streams.
    fn check(
        &self,
        stream: &StreamId,
        state: &Folded,
        event: &Event,
        clearance: Clearance,
        streams: &dyn StreamLookup,
    ) -> Result<(), AppendError>;
}

/// No rule across streams.
pub struct NoCrossCheck;

impl CrossCheck for NoCrossCheck {
    fn check(
        &self,
        _: &StreamId,
        _: &Folded,
        _: &Event,
        _: Clearance,
        _: &dyn StreamLookup,
    ) -> Result<(), AppendError> {
        Ok(())
    }
}
