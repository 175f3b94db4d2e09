//! The single writer: it takes append jobs in groups, validates each with the `ledger` rules,
//! seals the accepted events into their streams' hash chains and writes the whole group in one
//! batch, then hands it to the sync thread ([`crate::syncer`], through [`crate::handover`]),
//! which makes it durable and only then acknowledges and publishes. While one group syncs, the
//! next is being decided.
//!
//! One thread owns the decisions, so the rules see a consistent state and two writers with the
//! same `expected_version` are ordered: the first wins, the second gets `ABORTED`.
//!
//! Events the rules derive (an Andes move's attack, captures and end of game) are sealed by the
//! writer right after the event they follow, in the same append: the rules say which
//! ([`ledger::Folded::pending_derived`]), the writer appends them under ids of its own.
//!
//! Per stream the writer holds only what deciding the next event needs ([`ledger::Folded`] and
//! the chain head), in a bounded cache; a stream not in it is loaded from the snapshot stored
//! with its head. Nothing on the append path grows with a stream's length or the log's size.
//!
//! The thread's loop is here; each step has a module of its own: gathering a group
//! ([`group`]), deciding each append against its stream ([`decide`]), event ids and retries
//! ([`idempotency`]), the bounded stream cache and the schedule learnt from tournaments
//! ([`cache`]), writing the group and handing it on ([`commit`]).

mod cache;
mod commit;
mod decide;
mod group;
mod idempotency;

use crate::cross_check::CrossCheck;
use crate::error::StoreError;
use crate::handover::{Job, ToSync};
use crate::ids::IdFilter;
use crate::schedule::Schedule;
use crate::stats::LogStats;
use crate::storage::Storage;
use cache::Cached;
use ledger::{Ruleset, StreamId};
use lru::LruCache;
use std::collections::{HashMap, VecDeque};
use std::num::NonZeroUsize;
use std::ops::Range;
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::Arc;

/// Which of a group's records an answer stands for, if any.
type Records = Option<Range<usize>>;

/// How the writer is set up.
#[derive(Debug, Clone, Copy)]
pub struct WriterConfig {
    /// Streams whose state the writer keeps in memory; others load from their snapshot.
    pub cached_streams: usize,
}

impl Default for WriterConfig {
    fn default() -> Self {
        WriterConfig { cached_streams: 10_000 }
    }
}

pub(crate) struct Sequencer<S: Storage> {
    storage: Arc<S>,
    cache: LruCache<StreamId, Cached>,
    ids: IdFilter,
    /// Whether `ids` sees every stored id (not so for a log shared with other writers).
    ids_complete: bool,
    /// Game id → ruleset of the tournament that scheduled it.
    scheduled: HashMap<String, Ruleset>,
    /// Which tournaments scheduled each game, published for the readers.
    schedule: Arc<Schedule>,
    next_position: u64,
    now_ms: fn() -> u64,
    cross_check: Arc<dyn CrossCheck>,
    stats: Arc<LogStats>,
    to_sync: SyncSender<ToSync>,
}

impl<S: Storage> Sequencer<S> {
    /// # Errors
    /// The backend could not be read.
    pub fn new(
        storage: Arc<S>,
        config: WriterConfig,
        now_ms: fn() -> u64,
        cross_check: Arc<dyn CrossCheck>,
        stats: Arc<LogStats>,
        schedule: Arc<Schedule>,
        to_sync: SyncSender<ToSync>,
    ) -> Result<Self, StoreError> {
        let next_position = storage.next_position()?;
        let mut ids = IdFilter::with_capacity(usize::try_from(next_position).unwrap_or(usize::MAX));
        storage.for_each_id_hash(&mut |hash| ids.insert(hash))?;
        Ok(Sequencer {
            ids_complete: storage.id_filter_is_complete(),
            storage,
            cache: LruCache::new(NonZeroUsize::new(config.cached_streams.max(16)).expect("at least 16")),
            ids,
            scheduled: HashMap::new(),
            schedule,
            next_position,
            now_ms,
            cross_check,
            stats,
            to_sync,
        })
    }

    /// Serves jobs until every sender is gone or the log stops.
    pub fn run(mut self, jobs: Receiver<Job>) {
        let stream_limit = self.storage.max_stream_events_per_group();
        // Appends to decide before new ones: those another writer raced (in their order), then
        // the one that did not fit the last group.
        let mut waiting: VecDeque<Job> = VecDeque::new();
        loop {
            let first = match waiting.pop_front() {
                Some(job) => job,
                None => match jobs.recv() {
                    Ok(job) => job,
                    Err(_) => break,
                },
            };
            let group = group::gather(first, &mut waiting, &jobs, stream_limit);
            if self.stats.is_stopped() {
                // A sync failed: from now on the sync thread refuses everything.
                for job in group.into_iter().chain(waiting.drain(..)).chain(jobs.iter()) {
                    if self.to_sync.send(ToSync::AfterStop(job)).is_err() {
                        break;
                    }
                }
                break;
            }
            for job in self.process(group).into_iter().rev() {
                waiting.push_front(job);
            }
        }
        tracing::info!("sequencer stopped: no more appends");
    }
}
