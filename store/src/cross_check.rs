//! Rules that need more than the stream appended to: the final's role choices follow the
//! standings, which fold every game of the tournament. The sequencer asks a [`CrossCheck`]
//! after the stream's own rules accepted an event; the daemon plugs in one that computes the
//! standings, so the store stays free of scoring.

use crate::error::{AppendError, StoreError};
use ledger::{Event, StreamId, StreamState};

/// Reads the events of other streams, as committed.
pub trait StreamLookup {
    /// A stream's events as `(seq, event)`; empty if it does not exist.
    ///
    /// # Errors
    /// The backend failed.
    fn events(&self, stream: &StreamId) -> Result<Vec<(u64, Event)>, StoreError>;
}

/// A rule across streams.
pub trait CrossCheck: Send + Sync + 'static {
    /// `state` is the appended stream as it stands before `event` (earlier events of the same
    /// append included).
    ///
    /// # Errors
    /// The rule `event` breaks, or a failure to read the other streams.
    fn check(
        &self,
        stream: &StreamId,
        state: &StreamState,
        event: &Event,
        streams: &dyn StreamLookup,
    ) -> Result<(), AppendError>;
}

/// No rule across streams.
pub struct NoCrossCheck;

impl CrossCheck for NoCrossCheck {
    fn check(&self, _: &StreamId, _: &StreamState, _: &Event, _: &dyn StreamLookup) -> Result<(), AppendError> {
        Ok(())
    }
}

impl<S: crate::storage::Storage> StreamLookup for S {
    fn events(&self, stream: &StreamId) -> Result<Vec<(u64, Event)>, StoreError> {
        Ok(self.load_stream(stream)?.into_iter().map(|r| (r.envelope.seq, r.event)).collect())
    }
}
