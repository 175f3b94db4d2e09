//! Why the ledger refused an event: expected, shown to users, and mapped to one gRPC status.

use std::fmt;

/// Which kind of rule an event broke; each kind maps to exactly one gRPC status code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejectionKind {
    /// The event is malformed whatever the game state (`INVALID_ARGUMENT`).
    Malformed,
    /// The event breaks a rule given the current state of the stream (`FAILED_PRECONDITION`).
    Precondition,
    /// The caller expected another stream version (`ABORTED`): re-read and retry.
    StaleVersion,
    /// An event id was already used for a different event (`ALREADY_EXISTS`).
    DuplicateId,
    /// The actor may not append this event (`PERMISSION_DENIED`).
    NotAllowed,
}

/// A refused event: the kind of rule and a sentence an organiser understands,
/// e.g. `russia already dropped out in turn 11`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub kind: RejectionKind,
    pub message: String,
}

impl Rejection {
    pub fn malformed(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::Malformed, message: message.into() }
    }

    pub fn precondition(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::Precondition, message: message.into() }
    }

    pub fn stale_version(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::StaleVersion, message: message.into() }
    }

    pub fn duplicate_id(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::DuplicateId, message: message.into() }
    }

    pub fn not_allowed(message: impl Into<String>) -> Self {
        Rejection { kind: RejectionKind::NotAllowed, message: message.into() }
    }

    /// The same rejection with context in front, e.g. the index of the event in a batch.
    pub fn context(self, prefix: impl fmt::Display) -> Self {
        Rejection { kind: self.kind, message: format!("{prefix}: {}", self.message) }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rejection {}
