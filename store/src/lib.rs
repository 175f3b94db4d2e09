//! Durable event logs for the Tournament Ledger.
//!
//! One [`Log`] handle serves every backend: a single sequencer thread validates appends with
//! the `ledger` rules, seals them into the hash chain and commits them in groups through a
//! [`Storage`] backend, acknowledging an append only once the backend says it is durable.
//! Reads go straight to the backend's [`Reader`]. sled is the embedded default; a JetStream
//! backend will implement the same two traits.

mod append;
mod cross_check;
mod error;
mod handle;
mod sequencer;
pub mod sled;
mod stats;
mod storage;
mod subscription;

pub use append::{AppendRequest, Appended, ProposedEvent, MAX_BATCH, MAX_EVENT_BYTES};
pub use cross_check::{CrossCheck, NoCrossCheck, StreamLookup};
pub use error::{AppendError, StoreError};
pub use handle::{Log, Pending};
pub use stats::{LogStats, StatsSnapshot};
pub use storage::{Reader, Storage, StreamInfo};
pub use subscription::Filter;
