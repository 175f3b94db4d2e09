//! What an append asks for and what it gets back.

use ledger::{Event, Hash, StreamId};

/// At most this many events in one atomic append.
pub const MAX_BATCH: usize = 1000;

/// A stored event (envelope included) is at most this large. It keeps every record well below
/// sled's blob threshold, so that syncing the log file makes it durable.
pub const MAX_EVENT_BYTES: usize = 64 * 1024;

/// One event to append, with the id the client chose for idempotent retries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposedEvent {
    /// Empty: the ledger names it `auto:<stream>#<seq>` (then a retry is not recognised).
    pub event_id: String,
    pub event: Event,
}

/// An atomic append of one or more events to one stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppendRequest {
    pub stream: StreamId,
    pub events: Vec<ProposedEvent>,
    /// The version (last seq, 0 for a new stream) the caller last saw; `None` to skip the check.
    pub expected_version: Option<u64>,
    /// Who appends, as the transport authenticated them.
    pub actor: String,
    /// What they may record.
    pub clearance: ledger::access::Clearance,
}

/// Where an acknowledged append landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    pub stream: StreamId,
    pub first_seq: u64,
    pub last_seq: u64,
    pub first_position: u64,
    pub last_position: u64,
    /// The chain hash of the last event of this append.
    pub head_hash: Hash,
    /// True when every event id was already stored: nothing new was appended.
    pub duplicate: bool,
}
