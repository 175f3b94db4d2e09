//! The one failure type of the house: why a request was not done. Every handler — gRPC, the
//! web pages, the projections facade — fails with an [`Error`]; each variant says its gRPC code
//! and its HTTP status here, and [`Error::into_status`] is the one place a `tonic::Status` is
//! built from it (the web's page error is built from [`Error::http_status`]).

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
