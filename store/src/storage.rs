//! The two traits a log backend implements: [`Storage`] for the sequencer's writes, [`Reader`]
//! for everyone's reads.

use crate::error::StoreError;
use ledger::{Hash, Recorded, StreamId};

/// A stream and where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamInfo {
    pub stream: StreamId,
    pub version: u64,
    pub head_hash: Hash,
}

/// The write side, used only by the sequencer thread.
pub trait Storage: Send + 'static {
    /// Every record of a stream, in seq order.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn load_stream(&self, stream: &StreamId) -> Result<Vec<Recorded>, StoreError>;

    /// The record stored under an event id, if any.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn find_event_id(&self, event_id: &str) -> Result<Option<Recorded>, StoreError>;

    /// The global position the next record gets.
    ///
    /// # Errors
    /// The backend failed.
    fn next_position(&self) -> Result<u64, StoreError>;

    /// Stores records atomically and durably: when this returns `Ok`, every record survives a
    /// power cut; when it fails, none of them may be acknowledged.
    ///
    /// # Errors
    /// The backend failed; the caller reloads its view of the log.
    fn commit(&self, records: &[Recorded]) -> Result<(), StoreError>;
}

/// The read side: cheap to share between request handlers.
pub trait Reader: Send + Sync + 'static {
    /// Up to `limit` records of a stream from `from_seq` on.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn read_stream(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<Vec<Recorded>, StoreError>;

    /// Up to `limit` records of the whole log from global position `from_position` on.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn read_all(&self, from_position: u64, limit: usize) -> Result<Vec<Recorded>, StoreError>;

    /// The global position of the newest stored event (0 for an empty log).
    ///
    /// # Errors
    /// The backend failed.
    fn last_position(&self) -> Result<u64, StoreError>;

    /// Every stream with its version and chain head, in name order.
    ///
    /// # Errors
    /// The backend failed or holds damaged data.
    fn streams(&self) -> Result<Vec<StreamInfo>, StoreError>;
}
