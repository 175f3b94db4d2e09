//! What is left of the old home of gRPC statuses: a thin shim over [`crate::error`] for the
//! callers not yet moved onto [`Error`] (the Projections service, the pages that still call it
//! in-process, `ledgerctl`'s offline files). It builds no status itself; it goes when they go.

use crate::error::Error;
use ledger::Rejection;
use ledger_store::StoreError;
use tonic::Status;

pub use crate::error::{code_name, rejection_code};

/// A refusal as a status: see `From<Error> for tonic::Status`.
pub fn from_rejection(rejection: Rejection) -> Status {
    Error::from(rejection).into()
}

/// A store's failure as a status: see `From<StoreError> for Error`.
pub fn from_store(error: StoreError) -> Status {
    Error::from(error).into()
}
