//! What passes between the writer's threads: an append ([`Job`]) from the [`crate::Log`] handle
//! to the sequencer, and what the sequencer hands the sync thread ([`ToSync`]), with the
//! [`Answer`] each append gets once its group is durable.
//!
//! Both threads import these types from here, and neither imports the other
//! ([`crate::sequencer`] decides and writes, [`crate::syncer`] syncs and answers).

use crate::append::{AppendRequest, Appended};
use crate::error::{AppendError, StoreError};
use crate::storage::Sealed;
use tokio::sync::oneshot;

/// One append waiting for its answer.
pub(crate) struct Job {
    pub request: AppendRequest,
    pub reply: oneshot::Sender<Result<Appended, AppendError>>,
    /// How many times another writer appended to the stream first.
    pub attempts: u8,
}

/// The answer to one append, sent once its group is durable.
pub(crate) struct Answer {
    pub reply: oneshot::Sender<Result<Appended, AppendError>>,
    pub answer: Result<Appended, AppendError>,
}

/// What the writer hands the sync thread: a group written but not yet synced, a write that
/// failed, or an append that came after the log stopped.
pub(crate) enum ToSync {
    /// A written group (possibly with no records: only refusals and retries, which still wait
    /// for the groups before them, so a retry is never answered before its original is durable).
    Group { records: Vec<Sealed>, answers: Vec<Answer> },
    /// The write of a group failed: nothing of it is acknowledged, and the log stops.
    Failed { error: StoreError, answers: Vec<Answer> },
    /// An append that arrived after the log stopped.
    AfterStop(Job),
}
