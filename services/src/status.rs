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

/// A code's name as gRPC writes it (`FAILED_PRECONDITION`), for messages people read.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

/// The longest message a status carries, in characters. Messages quote bad input only as a
/// short prefix (`ledger::rejection::quote`); this is the last guard, so that no message echoes
/// megabytes of a request back (and into the `grpc-message` header).
pub const MAX_MESSAGE_CHARS: usize = 1_000;

/// The header naming the kind of rule a refusal broke ([`RejectionKind::as_str`]).
pub const REFUSAL_HEADER: &str = "x-ledger-refusal";
/// The header naming which event of the append (1, 2, …) was refused, when one was.
pub const EVENT_HEADER: &str = "x-ledger-event";

/// A refusal as a status: the code and message, and beside them, for clients that should not
/// parse the message, the kind of rule and the refused event in [`REFUSAL_HEADER`] and
/// [`EVENT_HEADER`].
pub fn from_rejection(rejection: Rejection) -> Status {
    let mut status = Status::new(rejection_code(rejection.kind), bounded(rejection.message));
    let metadata = status.metadata_mut();
    metadata.insert(REFUSAL_HEADER, tonic::metadata::MetadataValue::from_static(rejection.kind.as_str()));
    if let Some(event) = rejection.event {
        metadata.insert(EVENT_HEADER, tonic::metadata::MetadataValue::from(event));
    }
    status
}

/// What [`from_rejection`] put beside the message: (the refused event, 0 if none; the kind of
/// rule, empty if the status is no refusal).
pub fn refusal_of(status: &Status) -> (u32, String) {
    let header = |name: &str| status.metadata().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let event = header(EVENT_HEADER).and_then(|e| e.parse().ok()).unwrap_or(0);
    (event, header(REFUSAL_HEADER).unwrap_or_default())
}

pub fn from_store(error: StoreError) -> Status {
    let message = bounded(error.to_string());
    match error {
        StoreError::Closed => Status::unavailable(message),
        StoreError::Io(_) | StoreError::Corrupt(_) => Status::internal(message),
        // One record lost its bytes; every other event is still served.
        StoreError::Damaged(_) => Status::data_loss(message),
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

/// The refusal of a proof request to a ledgerd that signs no checkpoints.
pub fn no_checkpoints() -> Status {
    Status::failed_precondition(
        "this ledgerd signs no checkpoints, so it has no proofs: start it with --signing-key FILE \
         (`ledgerctl new-signing-key` makes one)",
    )
}

/// A cosignature ledgerd does not keep, and why.
pub fn cosignature_refused(why: String) -> Status {
    Status::invalid_argument(bounded(why))
}

/// Why a proof could not be made: a size or index beyond the tree is the caller's
/// (OUT_OF_RANGE: it may exist later), a failed read the server's.
pub fn from_prove(error: ledger_proof::ProveError<std::io::Error>) -> Status {
    use ledger_proof::ProveError;
    let message = bounded(error.to_string());
    match error {
        ProveError::IndexOutOfRange { .. } | ProveError::BeyondLog { .. } => Status::out_of_range(message),
        ProveError::SizesReversed { .. } => Status::invalid_argument(message),
        ProveError::Read(_) => Status::internal(message),
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
