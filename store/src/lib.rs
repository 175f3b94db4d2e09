//! Durable event logs for the Tournament Ledger.
//!
//! One [`Log`] handle serves every backend: a single sequencer thread validates appends with
//! the `ledger` rules, seals them into the hash chain and writes them in groups through a
//! [`Storage`] backend; a sync thread makes each group durable, and only then is an append
//! acknowledged. The sequencer decides the next group while the previous one syncs.
//! Reads go straight to the backend's [`Reader`]. sled is the embedded default; JetStream (feature `jetstream`) is the log shared by several
//! ledgerd.

mod append;
mod cross_check;
mod error;
mod handle;
mod handover;
mod ids;
#[cfg(feature = "jetstream")]
pub mod jetstream;
mod schedule;
mod sequencer;
pub mod sled;
pub mod snapshot;
mod stats;
mod storage;
pub mod subject;
mod subscription;
mod syncer;

pub use append::{AppendRequest, Appended, ProposedEvent, MAX_BATCH, MAX_EVENT_BYTES};
pub use cross_check::{CrossCheck, NoCrossCheck, StreamLookup};
pub use error::{AppendError, Damage, StoreError};
pub use handle::{Log, Pending, MAX_CURSOR};
pub use schedule::Schedule;
pub use sequencer::WriterConfig;
pub use stats::{LogStats, StatsSnapshot};
pub use storage::{id_hash, Commit, HeadUpdate, Reader, Sealed, Storage, StoredHead, StoredPage, StreamInfo, Written};
pub use subscription::Filter;
