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

/// The longest message a status carries, in characters. Messages quote bad input only as a
/// short prefix (`ledger::rejection::quote`); this is the last guard, so that no message echoes
/// megabytes of a request back (and into the `grpc-message` header).
pub const MAX_MESSAGE_CHARS: usize = 1_000;

pub fn from_rejection(rejection: Rejection) -> Status {
    Status::new(rejection_code(rejection.kind), bounded(rejection.message))
}

pub fn from_store(error: StoreError) -> Status {
    let message = bounded(error.to_string());
    match error {
        StoreError::Closed => Status::unavailable(message),
        StoreError::Io(_) | StoreError::Corrupt(_) => Status::internal(message),
    }
}

/// `message`, cut to [`MAX_MESSAGE_CHARS`] characters (then `…`), its control characters escaped.
fn bounded(message: String) -> String {
    if message.len() <= MAX_MESSAGE_CHARS && !message.chars().any(char::is_control) {
        return message;
    }
    ledger::rejection::quote_at_most(&message, MAX_MESSAGE_CHARS)
}

pub fn from_append(error: AppendError) -> Status {
    match error {
        AppendError::Rejected(rejection) => from_rejection(rejection),
        AppendError::Storage(store) => from_store(store),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_message_is_bounded_and_printable() {
        let status = from_rejection(Rejection::malformed("x".repeat(5_000)));
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert_eq!(status.message().chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(status.message().ends_with('…'));
        let status = from_rejection(Rejection::precondition("a\u{1b}[2J\nb"));
        assert_eq!(status.message(), "a\\u{1b}[2J\\nb");
        assert_eq!(from_rejection(Rejection::precondition("no clock")).message(), "no clock");
    }
}
