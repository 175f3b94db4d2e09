//! The one place that decides gRPC status codes.

use ledger::{Rejection, RejectionKind};
use ledger_store::{AppendError, StoreError};
use tonic::{Code, Status};

/// The status code of a refused event.
pub fn rejection_code(kind: RejectionKind) -> Code {
    match kind {
        RejectionKind::Malformed => Code::InvalidArgument,
        RejectionKind::Precondition => Code::FailedPrecondition,
        RejectionKind::StaleVersion => Code::Aborted,
        RejectionKind::DuplicateId => Code::AlreadyExists,
        RejectionKind::NotAllowed => Code::PermissionDenied,
    }
}

pub fn from_rejection(rejection: Rejection) -> Status {
    Status::new(rejection_code(rejection.kind), rejection.message)
}

pub fn from_store(error: StoreError) -> Status {
    match error {
        StoreError::Closed => Status::unavailable(error.to_string()),
        StoreError::Io(_) | StoreError::Corrupt(_) => Status::internal(error.to_string()),
    }
}

pub fn from_append(error: AppendError) -> Status {
    match error {
        AppendError::Rejected(rejection) => from_rejection(rejection),
        AppendError::Storage(store) => from_store(store),
    }
}
