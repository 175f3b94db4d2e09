//! The one failure type of the house: why a request was not done. Every handler — gRPC, the
//! web pages, the projections facade — fails with an [`Error`]; each variant says its gRPC code
//! and its HTTP status here, and `From<Error> for tonic::Status` is the one place a status is
//! built from a failure (the web's page error is built from [`Error::http_status`]). What a
//! client reads back from a status it received ([`refusal_of`], [`code_name`]) is here too.

use ledger::{Rejection, RejectionKind};
use ledger_store::{AppendError, StoreError};

/// Why a request was not done. The message is the sentence the ledger says (English, as the
/// API and `ledgerctl` print it); pages say it again in the reader's language by its kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A rule of the ledger refused an event or a name: its code follows the rule's kind.
    #[error("{}", .0.message)]
    Refused(Rejection),
    /// The request itself is malformed (a bad filter, a missing field).
    #[error("{0}")]
    InvalidArgument(String),
    /// What was asked for does not exist (yet).
    #[error("{0}")]
    NotFound(String),
    /// Asked beyond what exists now, though it may exist later (a proof past the tree).
    #[error("{0}")]
    OutOfRange(String),
    /// The log does not allow it in its present state (a game that cannot be scored yet).
    #[error("{0}")]
    FailedPrecondition(String),
    /// No credentials, or unknown ones.
    #[error("{0}")]
    Unauthenticated(String),
    /// Known credentials that do not allow this.
    #[error("{0}")]
    PermissionDenied(String),
    /// A limit of the server (request size, connections, live pages).
    #[error("{0}")]
    ResourceExhausted(String),
    /// The server cannot do it now (shutting down, no checkpoint yet); try again later.
    #[error("{0}")]
    Unavailable(String),
    /// Stored bytes were lost: every other event is still served.
    #[error("{0}")]
    DataLoss(String),
    /// The server failed; the message says where. Logged where it is handled.
    #[error("{0}")]
    Internal(String),
}

/// A gRPC status code by its name, so the house names codes without linking a transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    InvalidArgument,
    NotFound,
    AlreadyExists,
    PermissionDenied,
    ResourceExhausted,
    FailedPrecondition,
    Aborted,
    OutOfRange,
    Internal,
    Unavailable,
    DataLoss,
    Unauthenticated,
}

impl Code {
    /// The code of a refused event.
    pub fn of_rejection(kind: RejectionKind) -> Code {
        match kind {
            RejectionKind::Malformed => Code::InvalidArgument,
            RejectionKind::Precondition => Code::FailedPrecondition,
            RejectionKind::StaleVersion => Code::Aborted,
            RejectionKind::DuplicateId => Code::AlreadyExists,
            RejectionKind::NotAllowed => Code::PermissionDenied,
            RejectionKind::Exhausted => Code::ResourceExhausted,
        }
    }

    /// The code's name as gRPC writes it (`FAILED_PRECONDITION`), for messages people read.
    pub fn name(self) -> &'static str {
        match self {
            Code::InvalidArgument => "INVALID_ARGUMENT",
            Code::NotFound => "NOT_FOUND",
            Code::AlreadyExists => "ALREADY_EXISTS",
            Code::PermissionDenied => "PERMISSION_DENIED",
            Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
            Code::FailedPrecondition => "FAILED_PRECONDITION",
            Code::Aborted => "ABORTED",
            Code::OutOfRange => "OUT_OF_RANGE",
            Code::Internal => "INTERNAL",
            Code::Unavailable => "UNAVAILABLE",
            Code::DataLoss => "DATA_LOSS",
            Code::Unauthenticated => "UNAUTHENTICATED",
        }
    }

    /// The HTTP status the web pages answer with for this code.
    pub fn http_status(self) -> u16 {
        match self {
            Code::Unauthenticated => 401,
            Code::PermissionDenied => 403,
            Code::NotFound => 404,
            Code::InvalidArgument | Code::OutOfRange => 400,
            Code::FailedPrecondition | Code::Aborted | Code::AlreadyExists => 409,
            Code::Unavailable | Code::ResourceExhausted => 503,
            Code::Internal | Code::DataLoss => 500,
        }
    }
}

impl Error {
    /// The gRPC code this failure is answered with.
    pub fn code(&self) -> Code {
        match self {
            Error::Refused(rejection) => Code::of_rejection(rejection.kind),
            Error::InvalidArgument(_) => Code::InvalidArgument,
            Error::NotFound(_) => Code::NotFound,
            Error::OutOfRange(_) => Code::OutOfRange,
            Error::FailedPrecondition(_) => Code::FailedPrecondition,
            Error::Unauthenticated(_) => Code::Unauthenticated,
            Error::PermissionDenied(_) => Code::PermissionDenied,
            Error::ResourceExhausted(_) => Code::ResourceExhausted,
            Error::Unavailable(_) => Code::Unavailable,
            Error::DataLoss(_) => Code::DataLoss,
            Error::Internal(_) => Code::Internal,
        }
    }

    /// The HTTP status the web pages answer with.
    pub fn http_status(&self) -> u16 {
        self.code().http_status()
    }

    /// The message, bounded and printable ([`MAX_MESSAGE_CHARS`]).
    pub fn message(&self) -> String {
        bounded(self.to_string())
    }

    /// `CODE: the message`, as `ledgerctl` prints a failure and JSON routes return it.
    pub fn text(&self) -> String {
        format!("{}: {}", self.code().name(), self.message())
    }
}

impl From<Code> for tonic::Code {
    fn from(code: Code) -> Self {
        match code {
            Code::InvalidArgument => tonic::Code::InvalidArgument,
            Code::NotFound => tonic::Code::NotFound,
            Code::AlreadyExists => tonic::Code::AlreadyExists,
            Code::PermissionDenied => tonic::Code::PermissionDenied,
            Code::ResourceExhausted => tonic::Code::ResourceExhausted,
            Code::FailedPrecondition => tonic::Code::FailedPrecondition,
            Code::Aborted => tonic::Code::Aborted,
            Code::OutOfRange => tonic::Code::OutOfRange,
            Code::Internal => tonic::Code::Internal,
            Code::Unavailable => tonic::Code::Unavailable,
            Code::DataLoss => tonic::Code::DataLoss,
            Code::Unauthenticated => tonic::Code::Unauthenticated,
        }
    }
}

impl Code {
    /// The code of a status received from ledgerd; one the house never answers with
    /// (`UNKNOWN`, `CANCELLED`, a transport's) counts as [`Code::Internal`].
    pub fn of_received(code: tonic::Code) -> Code {
        match code {
            tonic::Code::InvalidArgument => Code::InvalidArgument,
            tonic::Code::NotFound => Code::NotFound,
            tonic::Code::AlreadyExists => Code::AlreadyExists,
            tonic::Code::PermissionDenied => Code::PermissionDenied,
            tonic::Code::ResourceExhausted => Code::ResourceExhausted,
            tonic::Code::FailedPrecondition => Code::FailedPrecondition,
            tonic::Code::Aborted => Code::Aborted,
            tonic::Code::OutOfRange => Code::OutOfRange,
            tonic::Code::Unavailable => Code::Unavailable,
            tonic::Code::DataLoss => Code::DataLoss,
            tonic::Code::Unauthenticated => Code::Unauthenticated,
            _ => Code::Internal,
        }
    }
}

/// The header naming the kind of rule a refusal broke ([`RejectionKind::as_str`]).
pub const REFUSAL_HEADER: &str = "x-ledger-refusal";
/// The header naming which event of the append (1, 2, …) was refused, when one was.
pub const EVENT_HEADER: &str = "x-ledger-event";

impl From<Error> for tonic::Status {
    /// The one place a failure becomes a gRPC status: its code and bounded message, and for a
    /// refusal, beside them, for clients that should not parse the message, the kind of rule
    /// and the refused event in [`REFUSAL_HEADER`] and [`EVENT_HEADER`]. A failure of the
    /// server (`INTERNAL`, `DATA_LOSS`) is logged here, where it becomes the answer.
    fn from(error: Error) -> Self {
        if matches!(error, Error::Internal(_) | Error::DataLoss(_)) {
            tracing::error!(code = error.code().name(), %error, "answered with a failure of the server");
        }
        let mut status = tonic::Status::new(error.code().into(), error.message());
        if let Error::Refused(rejection) = &error {
            let metadata = status.metadata_mut();
            metadata.insert(REFUSAL_HEADER, tonic::metadata::MetadataValue::from_static(rejection.kind.as_str()));
            if let Some(event) = rejection.event {
                metadata.insert(EVENT_HEADER, tonic::metadata::MetadataValue::from(event));
            }
        }
        status
    }
}

/// What a refusal's status carries beside its message (see `From<Error> for tonic::Status`),
/// read by a client: (the refused event, 0 if none; the kind of rule, empty if the status is no
/// refusal).
pub fn refusal_of(status: &tonic::Status) -> (u32, String) {
    let header = |name: &str| status.metadata().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let event = header(EVENT_HEADER).and_then(|e| e.parse().ok()).unwrap_or(0);
    (event, header(REFUSAL_HEADER).unwrap_or_default())
}

/// The gRPC code of a refused event.
pub fn rejection_code(kind: RejectionKind) -> tonic::Code {
    Code::of_rejection(kind).into()
}

/// A received code's name as gRPC writes it (`FAILED_PRECONDITION`), for messages people read.
pub fn code_name(code: tonic::Code) -> &'static str {
    match code {
        tonic::Code::Ok => "OK",
        tonic::Code::Cancelled => "CANCELLED",
        tonic::Code::Unknown => "UNKNOWN",
        tonic::Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        tonic::Code::Unimplemented => "UNIMPLEMENTED",
        other => Code::of_received(other).name(),
    }
}

impl From<Rejection> for Error {
    fn from(rejection: Rejection) -> Self {
        Error::Refused(rejection)
    }
}

impl From<StoreError> for Error {
    fn from(error: StoreError) -> Self {
        let message = error.to_string();
        match error {
            StoreError::Closed => Error::Unavailable(message),
            StoreError::Io(_) | StoreError::Corrupt(_) => Error::Internal(message),
            // One record lost its bytes; every other event is still served.
            StoreError::Damaged(_) => Error::DataLoss(message),
        }
    }
}

impl From<AppendError> for Error {
    fn from(error: AppendError) -> Self {
        match error {
            AppendError::Rejected(rejection) => Error::Refused(rejection),
            AppendError::Storage(store) => Error::from(store),
        }
    }
}

impl From<ledger_proof::ProveError<std::io::Error>> for Error {
    /// Why a proof could not be made: a size or index beyond the tree is the caller's
    /// (OUT_OF_RANGE: it may exist later), a failed read the server's.
    fn from(error: ledger_proof::ProveError<std::io::Error>) -> Self {
        use ledger_proof::ProveError;
        let message = error.to_string();
        match error {
            ProveError::IndexOutOfRange { .. } | ProveError::BeyondLog { .. } => Error::OutOfRange(message),
            ProveError::SizesReversed { .. } => Error::InvalidArgument(message),
            ProveError::Read(_) => Error::Internal(message),
        }
    }
}

/// The longest message a failure carries, in characters. Messages quote bad input only as a
/// short prefix (`ledger::rejection::quote`); this is the last guard, so that no message echoes
/// megabytes of a request back (and into the `grpc-message` header).
pub const MAX_MESSAGE_CHARS: usize = 1_000;

/// `message`, cut to [`MAX_MESSAGE_CHARS`] characters (then `…`), its control characters escaped.
pub(crate) fn bounded(message: String) -> String {
    if message.len() <= MAX_MESSAGE_CHARS && !message.chars().any(char::is_control) {
        return message;
    }
    ledger::rejection::quote_at_most(&message, MAX_MESSAGE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_message_is_bounded_and_printable() {
        let status = tonic::Status::from(Error::from(Rejection::malformed("x".repeat(5_000))));
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert_eq!(status.message().chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(status.message().ends_with('…'));
        let status = tonic::Status::from(Error::from(Rejection::precondition("a\u{1b}[2J\nb")));
        assert_eq!(status.message(), "a\\u{1b}[2J\\nb");
        let status = tonic::Status::from(Error::from(Rejection::precondition("no clock")));
        assert_eq!(status.message(), "no clock");
    }

    #[test]
    fn a_refusal_says_its_kind_and_event_beside_the_message() {
        let mut rejection = Rejection::precondition("event 2 of 3: no clock");
        rejection.event = Some(2);
        let status = tonic::Status::from(Error::from(rejection));
        assert_eq!(status.code(), tonic::Code::FailedPrecondition);
        assert_eq!(refusal_of(&status), (2, "precondition".to_owned()));
        let status = tonic::Status::from(Error::NotFound("no game".into()));
        assert_eq!(refusal_of(&status), (0, String::new()));
    }

    #[test]
    fn every_code_names_itself_as_grpc_does() {
        for code in [Code::InvalidArgument, Code::Aborted, Code::DataLoss, Code::Unauthenticated, Code::OutOfRange] {
            assert_eq!(Code::of_received(code.into()), code);
            assert_eq!(code_name(code.into()), code.name());
        }
        assert_eq!(code_name(tonic::Code::Unimplemented), "UNIMPLEMENTED");
    }
}
