//! What the sequencer has done, for the daemon's metrics: plain atomic counters that the store
//! updates and anyone may read, so the store needs no metrics library.

use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::watch;

/// Counters since the log was opened.
#[derive(Debug, Default)]
pub struct LogStats {
    appends_acknowledged: AtomicU64,
    appends_refused: AtomicU64,
    appends_raced: AtomicU64,
    events_committed: AtomicU64,
    groups_committed: AtomicU64,
    commit_failures: AtomicU64,
    commit_nanos: AtomicU64,
    records_read: AtomicU64,
    /// Turns true, once, when a failed write or sync stops the log.
    stopped: watch::Sender<bool>,
}

/// A copy of the counters at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StatsSnapshot {
    /// Appends answered `Ok` (retries of stored appends included).
    pub appends_acknowledged: u64,
    /// Appends refused by a rule.
    pub appends_refused: u64,
    /// Appends decided again because another ledgerd appended to their stream first (a log
    /// shared by several writers; always 0 on sled).
    pub appends_raced: u64,
    pub events_committed: u64,
    /// Durable syncs: each covers one or more groups of appends.
    pub groups_committed: u64,
    pub commit_failures: u64,
    /// Time spent making writes durable (flush and sync).
    pub commit_nanos: u64,
    /// Records handed to readers through the [`crate::Log`] handle (reads of a stream or of the
    /// whole log, records found by their event ids): what a request cost, counted rather than
    /// timed, so a test can tell a read that grows with a stream from one that does not.
    pub records_read: u64,
    /// A write or sync failed: the log refuses every append until ledgerd restarts.
    pub stopped: bool,
}

impl LogStats {
    pub(crate) fn acknowledged(&self, n_appends: usize) {
        self.appends_acknowledged.fetch_add(n_appends as u64, Ordering::Relaxed);
    }

    pub(crate) fn refused(&self) {
        self.appends_refused.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn raced(&self, n_appends: usize) {
        self.appends_raced.fetch_add(n_appends as u64, Ordering::Relaxed);
    }

    pub(crate) fn committed(&self, n_events: usize) {
        self.events_committed.fetch_add(n_events as u64, Ordering::Relaxed);
    }

    /// One sync made one or more groups durable.
    pub(crate) fn synced(&self, nanos: u64) {
        self.groups_committed.fetch_add(1, Ordering::Relaxed);
        self.commit_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    pub(crate) fn read(&self, n_records: usize) {
        self.records_read.fetch_add(n_records as u64, Ordering::Relaxed);
    }

    pub(crate) fn commit_failed(&self) {
        self.commit_failures.fetch_add(1, Ordering::Relaxed);
        self.stopped.send_replace(true);
    }

    /// Has a failed write or sync stopped the log?
    pub fn is_stopped(&self) -> bool {
        *self.stopped.borrow()
    }

    /// Follows whether the log has stopped, so the daemon can report it and exit.
    pub fn watch_stopped(&self) -> watch::Receiver<bool> {
        self.stopped.subscribe()
    }

    pub fn snapshot(&self) -> StatsSnapshot {
        let read = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        StatsSnapshot {
            appends_acknowledged: read(&self.appends_acknowledged),
            appends_refused: read(&self.appends_refused),
            appends_raced: read(&self.appends_raced),
            events_committed: read(&self.events_committed),
            groups_committed: read(&self.groups_committed),
            commit_failures: read(&self.commit_failures),
            commit_nanos: read(&self.commit_nanos),
            records_read: read(&self.records_read),
            stopped: self.is_stopped(),
        }
    }
}
