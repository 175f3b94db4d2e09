//! The sync thread: it makes written groups durable and only then answers their appends and
//! publishes their events, strictly in the order the writer wrote them.
//!
//! Every group already written when a sync starts is covered by it: when the disk is slower than
//! the writer, groups queue here and share one `fdatasync`. A failed sync stops the log: nothing
//! after the last good sync is acknowledged, and every later append is refused until ledgerd
//! restarts and reloads what is really on disk (a failed fsync may have dropped pages).

use crate::error::{AppendError, StoreError};
use crate::handover::{Answer, ToSync};
use crate::stats::LogStats;
use crate::storage::Storage;
use ledger::Recorded;
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use tokio::sync::broadcast;

pub(crate) struct Syncer<S: Storage> {
    pub storage: Arc<S>,
    /// Where committed events go to subscribers; `None` when the backend feeds them itself.
    pub committed: Option<broadcast::Sender<Arc<Recorded>>>,
    pub stats: Arc<LogStats>,
    /// Set by the first failure; every later answer is this error.
    pub stopped: Option<StoreError>,
}

impl<S: Storage> Syncer<S> {
    /// Serves written groups until the writer is gone.
    pub fn run(mut self, groups: Receiver<ToSync>) {
        while let Ok(first) = groups.recv() {
            let mut batch = vec![first];
            while let Ok(next) = groups.try_recv() {
                batch.push(next);
            }
            self.settle(batch);
            if self.stopped.is_none() {
                let started = std::time::Instant::now();
                if let Err(error) = self.storage.tidy() {
                    tracing::error!(%error, "writing the index failed; the log stops");
                    self.stats.commit_failed();
                    self.stopped = Some(error);
                }
                warn_if_slow(started, "writing the gathered index");
            }
        }
        if let Err(error) = self.storage.checkpoint() {
            tracing::warn!(%error, "the closing checkpoint failed; the next start indexes the tail again");
        }
    }

    /// One sync for every group in `batch`, then their answers in order.
    fn settle(&mut self, batch: Vec<ToSync>) {
        let last = batch
            .iter()
            .filter_map(|s| match s {
                ToSync::Group { records, .. } => records.last().map(|r| r.record.envelope.position),
                _ => None,
            })
            .max();
        if let (Some(position), None) = (last, &self.stopped) {
            let started = std::time::Instant::now();
            match self.storage.sync(position) {
                Ok(()) => {
                    let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
                    self.stats.synced(nanos);
                    warn_if_slow(started, "a sync");
                }
                Err(error) => {
                    tracing::error!(%error, "sync failed; nothing unsynced is acknowledged, the log stops");
                    self.stats.commit_failed();
                    self.stopped = Some(error);
                }
            }
        }
        for handed in batch {
            match handed {
                ToSync::Group { records, answers } => {
                    if self.stopped.is_none() {
                        self.stats.committed(records.len());
                        if let Some(committed) = &self.committed {
                            for sealed in records {
                                let _ = committed.send(sealed.record);
                            }
                        }
                    }
                    self.answer(answers);
                }
                ToSync::Failed { error, answers } => {
                    self.stopped.get_or_insert(error);
                    self.answer(answers);
                }
                ToSync::AfterStop(job) => {
                    let error = self.stopped.clone().unwrap_or(StoreError::Closed);
                    self.answer(vec![Answer { reply: job.reply, answer: Err(error.into()) }]);
                }
            }
        }
    }

    fn answer(&self, answers: Vec<Answer>) {
        for Answer { reply, answer } in answers {
            let answer = match (&self.stopped, answer) {
                (Some(error), Ok(_) | Err(AppendError::Storage(_))) => Err(AppendError::Storage(StoreError::Io(
                    format!("the log stopped after a failed write ({error}); restart ledgerd"),
                ))),
                (_, answer) => answer,
            };
            if answer.is_ok() {
                self.stats.acknowledged(1);
            }
            let _ = reply.send(answer);
        }
    }
}

/// Appends wait behind the sync thread: a step that holds it this long is worth a line in the log.
const SLOW: std::time::Duration = std::time::Duration::from_millis(100);

fn warn_if_slow(started: std::time::Instant, what: &str) {
    let took = started.elapsed();
    if took >= SLOW {
        tracing::warn!(ms = took.as_millis(), "{what} took long; appends waited for it");
    }
}
