//! The Tournament Ledger's domain: the events a table, an organiser or the jury record, the
//! envelope and hash chain that make the log tamper-evident, and the rules that decide which
//! events the ledger refuses.
//!
//! Architecture Invariant: this crate does no I/O and knows nothing of tokio, sled, tonic or
//! NATS. Time, seeds and identities arrive inside events and envelopes.

pub mod access;
pub mod andes;
pub mod check;
pub mod draw;
pub mod envelope;
pub mod event;
pub mod names;
pub mod rejection;
pub mod rules;
pub mod standard;
pub mod stream;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use envelope::{Envelope, Hash, Recorded};
pub use event::Event;
pub use names::{ClockSide, Nation, Outcome, Role, Ruleset, Stage, StopReason};
pub use rejection::{Arg, Reason, Rejection, RejectionKind};
pub use rules::{Folded, StreamState};
pub use stream::{StreamId, StreamKind};
