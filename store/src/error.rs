//! Errors of the storage layer. A [`StoreError`] is a fail-stop failure of the disk or the
//! backend, logged once where it is handled; a refused event is an [`AppendError::Rejected`].

use ledger::{Rejection, StreamId};

/// The backend failed; nothing is acknowledged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("storage failed: {0}")]
    Io(String),
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    /// One record no longer matches its checksum; the others are served.
    #[error("stored data is damaged: {0}")]
    Damaged(Damage),
    #[error("the ledger is shutting down")]
    Closed,
}

impl From<::sled::Error> for StoreError {
    fn from(e: ::sled::Error) -> Self {
        match e {
            // Unsupported: sled reads its files as written by another version (a damaged `conf`).
            ::sled::Error::Corruption { .. } | ::sled::Error::Unsupported(_) => StoreError::Corrupt(e.to_string()),
            other => StoreError::Io(other.to_string()),
        }
    }
}

impl From<std::io::Error> for StoreError {
    fn from(e: std::io::Error) -> Self {
        StoreError::Io(e.to_string())
    }
}

/// A record the log holds but cannot serve, because its bytes no longer match their checksum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// Its global position.
    pub position: u64,
    /// Where it lies in the records file (where its frame does, when the record's own place is
    /// lost with the frame's header or table).
    pub offset: u64,
    /// Its stream and seq, when the reader knows them from the index.
    pub event: Option<(StreamId, u64)>,
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.event {
            Some((stream, seq)) => write!(f, "event {stream} #{seq} (position {})", self.position)?,
            None => write!(f, "the event at position {}", self.position)?,
        }
        write!(
            f,
            " no longer matches its checksum (byte {} of the records file); `ledgerctl repair` takes it back \
             from a copy",
            self.offset
        )
    }
}

/// Why an append was not acknowledged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppendError {
    /// A rule refused it; nothing was appended.
    #[error("{0}")]
    Rejected(Rejection),
    /// The backend failed; nothing was acknowledged.
    #[error(transparent)]
    Storage(#[from] StoreError),
}

impl From<Rejection> for AppendError {
    fn from(r: Rejection) -> Self {
        AppendError::Rejected(r)
    }
}
