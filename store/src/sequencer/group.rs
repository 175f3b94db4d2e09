//! Gathering a group: the appends that share one commit, as many as fit its bounds, and what
//! the group has prepared while its appends are decided.

use super::cache::Cached;
use crate::append::{AppendRequest, MAX_BATCH};
use crate::handover::Job;
use crate::storage::Sealed;
use ledger::StreamId;
use std::collections::{HashMap, VecDeque};
use std::sync::mpsc::{Receiver, TryRecvError};

/// At most this many appends share one commit…
const MAX_GROUP: usize = 512;
/// …and at most about this many events (an append is never split): a group's records, its sled
/// batch and its place in the sync queue stay bounded however large the appends are.
const MAX_GROUP_EVENTS: usize = 8192;

/// What one group has prepared but not yet written.
#[derive(Default)]
pub(super) struct Group {
    /// Streams taken out of the cache while the group is decided (moved, not copied), and
    /// whether the group appended to them (a refused append leaves its stream unchanged).
    pub(super) streams: HashMap<StreamId, (Cached, bool)>,
    /// Event id → index in `records`, for retries within the group.
    pub(super) ids: HashMap<String, usize>,
    pub(super) records: Vec<Sealed>,
}

/// Gathers a group behind its `first` append: the appends waiting to be decided again, then
/// those queued in `jobs`, for as long as they fit the group's bounds (and `stream_limit`, the
/// backend's bound on one stream's events in a group). The first that does not fit waits at the
/// front of `waiting` for the next group.
pub(super) fn gather(
    first: Job,
    waiting: &mut VecDeque<Job>,
    jobs: &Receiver<Job>,
    stream_limit: Option<usize>,
) -> Vec<Job> {
    let mut n_events = records_bound(&first.request);
    // Events per stream, counted only for a backend that bounds them (not sled).
    let mut per_stream: HashMap<StreamId, usize> = HashMap::new();
    if stream_limit.is_some() {
        per_stream.insert(first.request.stream.clone(), n_events);
    }
    let mut group = vec![first];
    while group.len() < MAX_GROUP && n_events < MAX_GROUP_EVENTS {
        let job = match waiting.pop_front() {
            Some(job) => job,
            None => match jobs.try_recv() {
                Ok(job) => job,
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
            },
        };
        let len = records_bound(&job.request);
        if n_events + len > MAX_GROUP_EVENTS {
            waiting.push_front(job);
            break;
        }
        if let Some(limit) = stream_limit {
            let in_stream = per_stream.get(&job.request.stream).copied().unwrap_or(0) + len;
            if in_stream > limit {
                waiting.push_front(job);
                break;
            }
            per_stream.insert(job.request.stream.clone(), in_stream);
        }
        n_events += len;
        group.push(job);
    }
    group
}

/// At most how many records an append stores: its events, and where the ledger derives events
/// (Andes moves) as many as it may derive, capped where [`super::Sequencer::seal`] refuses; so
/// groups stay within the backend's bound however many events the rules derive.
fn records_bound(request: &AppendRequest) -> usize {
    let n_events = request.events.len();
    match request.stream.kind().max_derived_per_event() {
        0 => n_events,
        derived => n_events.saturating_mul(1 + derived).min(MAX_BATCH).max(n_events),
    }
}
