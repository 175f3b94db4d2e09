//! Errors of the storage layer. A [`StoreError`] is a fail-stop failure of the disk or the
//! backend, logged once where it is handled; a refused event is an [`AppendError::Rejected`].

use ledger::Rejection;

/// The backend failed; nothing is acknowledged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("storage failed: {0}")]
    Io(String),
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    #[error("the ledger is shutting down")]
    Closed,
}

impl From<::sled::Error> for StoreError {
    fn from(e: ::sled::Error) -> Self {
        match e {
            ::sled::Error::Corruption { .. } => StoreError::Corrupt(e.to_string()),
            other => StoreError::Io(other.to_string()),
        }
    }
}

impl From<std::io::Error> for StoreError {
    fn from(e: std::io::Error) -> Self {
        StoreError::Io(e.to_string())
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
