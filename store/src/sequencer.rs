//! The single writer: it takes append jobs in groups, validates each with the `ledger` rules,
//! seals the accepted events into their streams' hash chains and writes the whole group in one
//! batch, then hands it to the sync thread ([`crate::syncer`]), which makes it durable and only
//! then acknowledges and publishes. While one group syncs, the next is being decided.
//!
//! One thread owns the decisions, so the rules see a consistent state and two writers with the
//! same `expected_version` are ordered: the first wins, the second gets `ABORTED`.
//!
//! Events the rules derive (an Andes move's attack, captures and end of game) are sealed by the
//! writer right after the event they follow, in the same append: the rules say which
//! ([`Folded::pending_derived`]), the writer appends them under ids of its own.
//!
//! Per stream the writer holds only what deciding the next event needs ([`ledger::Folded`] and
//! the chain head), in a bounded cache; a stream not in it is loaded from the snapshot stored
//! with its head. Nothing on the append path grows with a stream's length or the log's size.

use crate::append::{AppendRequest, Appended, MAX_BATCH, MAX_EVENT_BYTES};
use crate::cross_check::{CrossCheck, StreamLookup};
use crate::error::{AppendError, StoreError};
use crate::ids::IdFilter;
use crate::schedule::Schedule;
use crate::snapshot;
use crate::stats::LogStats;
use crate::storage::{id_hash, Commit, HeadUpdate, Sealed, Storage, StoredHead, Written};
use crate::syncer::{Answer, Synced};
use ledger::envelope::{encode_record, Draft, GENESIS};
use ledger::rules::{needs_history, Rules};
use ledger::{Event, Folded, Hash, Recorded, Rejection, Ruleset, StreamId, StreamKind};
use lru::LruCache;
use std::collections::{HashMap, VecDeque};
use std::num::NonZeroUsize;
use std::ops::Range;
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError};
use std::sync::Arc;
use tokio::sync::oneshot;

/// Ids the ledger gives events sent without one; clients may not use the prefix, so a
/// client's id never collides with one the ledger gave.
const AUTO_ID_PREFIX: &str = "auto:";

/// At most this many appends share one commit…
const MAX_GROUP: usize = 512;
/// …and at most about this many events (an append is never split): a group's records, its sled
/// batch and its place in the sync queue stay bounded however large the appends are.
const MAX_GROUP_EVENTS: usize = 8192;

/// How often an append is decided again after other writers won the race for its stream
/// (a log shared by several ledgerd) before its client is told to re-read and retry.
const MAX_ATTEMPTS: u8 = 8;

/// One append waiting for its answer.
pub(crate) struct Job {
    pub request: AppendRequest,
    pub reply: oneshot::Sender<Result<Appended, AppendError>>,
    /// How many times another writer appended to the stream first.
    pub attempts: u8,
}

/// Which of a group's records an answer stands for, if any.
type Records = Option<Range<usize>>;

/// A record found by its event id, with its index among the group's records if it is one of them.
type Found = (Arc<Recorded>, Option<usize>);

/// A decided append before its group is written: its answer, and which of the group's
/// records it stands for (to correct their positions when the backend assigns them).
struct Decided {
    job: Job,
    answer: Result<Appended, AppendError>,
    records: Records,
}

/// What the writer holds for a stream: its folded state and chain head.
#[derive(Clone)]
struct Cached {
    fold: Folded,
    head: Hash,
}

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
    to_sync: SyncSender<Synced>,
}

/// What one group has prepared but not yet written.
#[derive(Default)]
struct Group {
    /// Streams taken out of the cache while the group is decided (moved, not copied), and
    /// whether the group appended to them (a refused append leaves its stream unchanged).
    streams: HashMap<StreamId, (Cached, bool)>,
    /// Event id → index in `records`, for retries within the group.
    ids: HashMap<String, usize>,
    records: Vec<Sealed>,
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
        to_sync: SyncSender<Synced>,
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

    /// Learns which games the stored tournaments scheduled, so that their streams know their
    /// ruleset.
    ///
    /// # Errors
    /// The backend could not be read.
    pub fn index_tournaments(&mut self, tournaments: &[StreamId]) -> Result<(), StoreError> {
        for stream in tournaments {
            let cached = self.load(stream)?;
            self.learn_schedule(stream, &cached.fold);
            self.cache.put(stream.clone(), cached);
        }
        Ok(())
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
            if self.stats.is_stopped() {
                // A sync failed: from now on the sync thread refuses everything.
                for job in group.into_iter().chain(waiting.drain(..)).chain(jobs.iter()) {
                    if self.to_sync.send(Synced::AfterStop(job)).is_err() {
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

    /// Decides and writes one group, then hands it to the sync thread. Returns the appends to
    /// decide again because another writer appended to their streams first.
    fn process(&mut self, jobs: Vec<Job>) -> Vec<Job> {
        for (stream, seq) in self.storage.changed_elsewhere() {
            self.forget_if_behind(&stream, seq);
        }
        let mut group = Group::default();
        let mut decided = Vec::with_capacity(jobs.len());
        let now = (self.now_ms)();
        for job in jobs {
            let (answer, records) = self.prepare(&job.request, &mut group, now);
            decided.push(Decided { job, answer, records });
        }
        let heads = self.heads_of(&group);
        let mut commit = Commit { records: group.records, heads };
        let written = if commit.records.is_empty() { Ok(Written::default()) } else { self.storage.write(&commit) };
        // The streams go back to the cache whether or not the write succeeded: after a failed
        // write the log stops and nothing here is used again.
        let touched_tournaments: Vec<(StreamId, Folded)> = group
            .streams
            .iter()
            .filter(|(stream, (_, appended))| *appended && stream.kind() == StreamKind::Tournament)
            .map(|(stream, (cached, _))| (stream.clone(), cached.fold.clone()))
            .collect();
        for (stream, (cached, _)) in group.streams {
            self.cache.put(stream, cached);
        }
        let written = match written {
            Ok(written) => written,
            Err(error) => {
                tracing::error!(%error, n_events = commit.records.len(), "write failed; nothing acknowledged, the log stops");
                self.stats.commit_failed();
                let answers = decided.into_iter().map(|d| Answer { reply: d.job.reply, answer: d.answer }).collect();
                let _ = self.to_sync.send(Synced::Failed { error, answers });
                return Vec::new();
            }
        };
        for stream in &written.conflicts {
            tracing::debug!(%stream, "another writer appended first: reloading the stream and deciding again");
            self.cache.pop(stream);
        }
        if let Some(positions) = &written.positions {
            assign_positions(&mut commit.records, &mut decided, positions);
        }
        let mut again = Vec::new();
        let mut answers = Vec::with_capacity(decided.len());
        for Decided { mut job, answer, .. } in decided {
            let stream = &job.request.stream;
            if written.conflicts.contains(stream) && !matches!(answer, Err(AppendError::Storage(_))) {
                job.attempts += 1;
                if job.attempts < MAX_ATTEMPTS {
                    again.push(job);
                    continue;
                }
                let raced = Rejection::stale_version(format!(
                    "other writers kept appending to {stream} at the same time: re-read and retry"
                ));
                answers.push(Answer { reply: job.reply, answer: Err(raced.into()) });
                continue;
            }
            if matches!(answer, Err(AppendError::Rejected(_))) {
                self.stats.refused();
            }
            answers.push(Answer { reply: job.reply, answer });
        }
        self.stats.raced(again.len());
        if !written.conflicts.is_empty() {
            commit.records.retain(|sealed| !written.conflicts.contains(&sealed.record.envelope.stream));
        }
        for (stream, fold) in &touched_tournaments {
            if !written.conflicts.contains(stream) {
                self.learn_schedule(stream, fold);
            }
        }
        let _ = self.to_sync.send(Synced::Group { records: commit.records, answers });
        again
    }

    /// Drops a cached stream that another writer has appended to; a tournament is reloaded at
    /// once, to learn the games it scheduled.
    fn forget_if_behind(&mut self, stream: &StreamId, seq: u64) {
        if self.cache.peek(stream).is_some_and(|cached| cached.fold.version() >= seq) {
            return;
        }
        self.cache.pop(stream);
        if stream.kind() == StreamKind::Tournament {
            match self.load(stream) {
                Ok(cached) => {
                    self.learn_schedule(stream, &cached.fold);
                    self.cache.put(stream.clone(), cached);
                }
                Err(error) => tracing::warn!(%stream, %error, "could not reload a tournament another writer changed"),
            }
        }
    }

    /// The new head and snapshot of every stream the group appended to.
    fn heads_of(&self, group: &Group) -> Vec<HeadUpdate> {
        let mut heads: Vec<HeadUpdate> = group
            .streams
            .iter()
            .filter(|(_, (_, appended))| *appended)
            .map(|(stream, (cached, _))| HeadUpdate {
                stream: stream.clone(),
                head: StoredHead {
                    version: cached.fold.version(),
                    hash: cached.head,
                    snapshot: Some(snapshot::encode(&cached.fold)),
                },
            })
            .collect();
        heads.sort_by(|a, b| a.stream.cmp(&b.stream));
        heads
    }

    /// Decides one append into the group: its answer, and the range of the group's records it
    /// stands for.
    fn prepare(
        &mut self,
        request: &AppendRequest,
        group: &mut Group,
        now: u64,
    ) -> (Result<Appended, AppendError>, Records) {
        match self.decide(request, group, now) {
            Ok((appended, records)) => (Ok(appended), records),
            Err(error) => (Err(error), None),
        }
    }

    fn decide(
        &mut self,
        request: &AppendRequest,
        group: &mut Group,
        now: u64,
    ) -> Result<(Appended, Records), AppendError> {
        let n_events = request.events.len();
        if n_events == 0 {
            return Err(Rejection::malformed("an append needs at least one event").into());
        }
        if n_events > MAX_BATCH {
            return Err(
                Rejection::malformed(format!("an append holds at most {MAX_BATCH} events, got {n_events}")).into()
            );
        }
        check_ids(request)?;
        if let Some(retry) = self.find_retry(request, group)? {
            return Ok(retry);
        }
        let stream = &request.stream;
        let (mut entry, appended) = match group.streams.remove(stream) {
            Some(taken) => taken,
            None => match self.cache.pop(stream) {
                Some(entry) => (entry, false),
                None => (self.load(stream)?, false),
            },
        };
        let result = self.seal(request, &mut entry, &group.records, now);
        group.streams.insert(stream.clone(), (entry, appended || result.is_ok()));
        let records = result?;
        let first = &records.first().expect("an append stores at least one record").record.envelope;
        let last = &records.last().expect("an append stores at least one record").record.envelope;
        let appended = Appended {
            stream: stream.clone(),
            first_seq: first.seq,
            last_seq: last.seq,
            first_position: first.position,
            last_position: last.position,
            head_hash: last.hash,
            duplicate: false,
        };
        self.next_position += records.len() as u64;
        let first_record = group.records.len();
        for sealed in records {
            let id = &sealed.record.envelope.event_id;
            self.ids.insert(id_hash(id));
            group.ids.insert(id.clone(), group.records.len());
            group.records.push(sealed);
        }
        Ok((appended, Some(first_record..group.records.len())))
    }

    /// Validates every event of the request against the stream and seals them, each followed by
    /// the events the rules derive from it; the stream's state changes only when all of them are
    /// accepted.
    fn seal(
        &self,
        request: &AppendRequest,
        entry: &mut Cached,
        pending: &[Sealed],
        now: u64,
    ) -> Result<Vec<Sealed>, AppendError> {
        let version = entry.fold.version();
        if let Some(expected) = request.expected_version {
            if expected != version {
                return Err(Rejection::stale_version(format!(
                    "expected {} at version {expected}, but it is at version {version}: re-read and retry",
                    request.stream
                ))
                .into());
            }
        }
        let n_events = request.events.len();
        let single = n_events == 1;
        // A single event from which nothing can be derived evolves the stream itself: it was
        // decided and nothing fails after.
        let in_place = single && request.stream.kind().max_derived_per_event() == 0;
        let mut working = if in_place { None } else { Some(entry.fold.clone()) };
        let mut head = entry.head;
        let mut records: Vec<Sealed> = Vec::with_capacity(n_events);
        for (idx, proposed) in request.events.iter().enumerate() {
            let fold = working.as_mut().unwrap_or(&mut entry.fold);
            let context = |r: Rejection| {
                if single {
                    r
                } else {
                    r.in_event(idx + 1, n_events)
                }
            };
            ledger::access::permits(request.clearance, &request.actor, &proposed.event).map_err(context)?;
            let lookup = Lookup { storage: &*self.storage, pending: [pending, &records] };
            let history = if needs_history(&proposed.event) {
                lookup.events(&request.stream)?.into_iter().map(|(_, event)| event).collect()
            } else {
                Vec::new()
            };
            fold.decide(&proposed.event, &history).map_err(context)?;
            self.cross_check.check(&request.stream, fold, &proposed.event, &lookup).map_err(|e| match e {
                AppendError::Rejected(r) => AppendError::Rejected(context(r)),
                other => other,
            })?;
            let seq = version + 1 + records.len() as u64;
            let event_id =
                if proposed.event_id.is_empty() { auto_id(&request.stream, seq) } else { proposed.event_id.clone() };
            let sealed = self.seal_one(request, head, seq, records.len(), event_id, proposed.event.clone(), now);
            let sealed = sealed.map_err(context)?;
            head = sealed.record.envelope.hash;
            records.push(sealed);
            fold.evolve(&proposed.event, &history);
            // What the rules derive from it (an Andes move's consequences), appended right after.
            for derived in fold.pending_derived() {
                fold.decide(&derived, &[]).map_err(context)?;
                let seq = version + 1 + records.len() as u64;
                let id = auto_id(&request.stream, seq);
                let sealed = self.seal_one(request, head, seq, records.len(), id, derived.clone(), now);
                let sealed = sealed.map_err(context)?;
                head = sealed.record.envelope.hash;
                records.push(sealed);
                fold.evolve(&derived, &[]);
            }
            if records.len() > MAX_BATCH {
                return Err(context(Rejection::malformed(format!(
                    "with the events the ledger derives, this append would store {} events; an append stores at most {MAX_BATCH}: send fewer at once",
                    records.len()
                )))
                .into());
            }
        }
        if let Some(fold) = working {
            entry.fold = fold;
        }
        entry.head = head;
        Ok(records)
    }

    /// Seals one event as the `offset`-th record of an append, refusing one too large to store.
    #[allow(clippy::too_many_arguments)]
    fn seal_one(
        &self,
        request: &AppendRequest,
        prev_hash: Hash,
        seq: u64,
        offset: usize,
        event_id: String,
        event: Event,
        now: u64,
    ) -> Result<Sealed, Rejection> {
        let draft = Draft {
            stream: request.stream.clone(),
            seq,
            position: self.next_position + offset as u64,
            event_id,
            recorded_at_ms: now,
            actor: request.actor.clone(),
        };
        let record = Recorded::seal(draft, prev_hash, event);
        let bytes = encode_record(&record);
        if bytes.len() > MAX_EVENT_BYTES {
            return Err(Rejection::malformed(format!(
                "{} is {} bytes stored; the ledger stores at most {MAX_EVENT_BYTES}",
                record.event.type_name(),
                bytes.len()
            )));
        }
        Ok(Sealed { record: Arc::new(record), bytes })
    }

    /// A retry of an append that was already stored returns the first result (the events the
    /// ledger derived after its events included). An id reused for another event is refused.
    fn find_retry(&self, request: &AppendRequest, group: &Group) -> Result<Option<(Appended, Records)>, AppendError> {
        let mut found: Vec<Arc<Recorded>> = Vec::new();
        let mut in_group: Vec<usize> = Vec::new();
        let mut n_sent = 0;
        for proposed in request.events.iter().filter(|p| !p.event_id.is_empty()) {
            let Some((record, idx)) = self.find_id(&proposed.event_id, group)? else { continue };
            if record.envelope.stream != request.stream || record.event != proposed.event {
                return Err(Rejection::duplicate_id(format!(
                    "event id {} was already used for event {} of {} ({})",
                    proposed.event_id,
                    record.envelope.seq,
                    record.envelope.stream,
                    record.event.type_name()
                ))
                .into());
            }
            n_sent += 1;
            let derived = self.derived_after(&record, group)?;
            found.push(record);
            in_group.extend(idx);
            for (record, idx) in derived {
                found.push(record);
                in_group.extend(idx);
            }
        }
        let Some(first) = found.first() else { return Ok(None) };
        let consecutive = found.windows(2).all(|w| w[1].envelope.seq == w[0].envelope.seq + 1);
        if n_sent != request.events.len() || !consecutive {
            return Err(Rejection::duplicate_id(format!(
                "event id {} was already stored, but not with the rest of this append",
                first.envelope.event_id
            ))
            .into());
        }
        let last = found.last().expect("not empty");
        // Records of this group get their final positions with the group's.
        let records = match (in_group.first(), in_group.last()) {
            (Some(&first), Some(&last)) if in_group.len() == found.len() => Some(first..last + 1),
            _ => None,
        };
        let appended = Appended {
            stream: request.stream.clone(),
            first_seq: first.envelope.seq,
            last_seq: last.envelope.seq,
            first_position: first.envelope.position,
            last_position: last.envelope.position,
            head_hash: last.envelope.hash,
            duplicate: true,
        };
        Ok(Some((appended, records)))
    }

    /// The record stored (or about to be, in this group) under an event id, with its index in
    /// the group if it is there.
    fn find_id(&self, event_id: &str, group: &Group) -> Result<Option<Found>, StoreError> {
        if let Some(&idx) = group.ids.get(event_id) {
            return Ok(Some((Arc::clone(&group.records[idx].record), Some(idx))));
        }
        if !self.ids_complete || self.ids.may_contain(id_hash(event_id)) {
            return Ok(self.storage.find_event_id(event_id)?.map(|record| (Arc::new(record), None)));
        }
        Ok(None)
    }

    /// The events the writer derived right after `record` (under its own ids, so a retry finds
    /// them without reading the stream), in order.
    fn derived_after(&self, record: &Recorded, group: &Group) -> Result<Vec<Found>, StoreError> {
        let stream = &record.envelope.stream;
        let mut derived = Vec::new();
        if stream.kind().max_derived_per_event() == 0 {
            return Ok(derived);
        }
        let mut seq = record.envelope.seq;
        loop {
            seq += 1;
            match self.find_id(&auto_id(stream, seq), group)? {
                Some((next, idx)) if next.envelope.stream == *stream && next.event.is_derived() => {
                    derived.push((next, idx));
                }
                Some(_) | None => return Ok(derived),
            }
        }
    }

    /// A stream's state from its stored head and snapshot; replayed from its events only when
    /// the snapshot is missing or of another version.
    fn load(&self, stream: &StreamId) -> Result<Cached, StoreError> {
        let scheduled = match stream.kind() {
            StreamKind::Game => self.scheduled.get(stream.id()).copied(),
            StreamKind::Tournament | StreamKind::Andes => None,
        };
        let Some(stored) = self.storage.load_head(stream)? else {
            return Ok(Cached { fold: Folded::new(stream, scheduled), head: GENESIS });
        };
        if let Some(fold) = stored.snapshot.as_deref().and_then(snapshot::decode) {
            if fold.version() == stored.version {
                return Ok(Cached { fold, head: stored.hash });
            }
        }
        tracing::info!(%stream, version = stored.version, "no usable snapshot: replaying the stream once");
        // Stored events were decided when they were appended: evolve only (total, even if a
        // later version of the rules would refuse one of them).
        let mut fold = Folded::new(stream, scheduled);
        let mut history = Vec::new();
        let mut head = GENESIS;
        for record in self.storage.load_events(stream)? {
            fold.evolve(&record.event, &history);
            head = record.envelope.hash;
            history.push(record.event);
        }
        Ok(Cached { fold, head })
    }

    /// Records the ruleset of every game a tournament scheduled, and publishes the schedule for
    /// the readers; a game stream cached before it was scheduled, and still empty, is dropped so
    /// that it reloads with the ruleset.
    fn learn_schedule(&mut self, stream: &StreamId, tournament: &Folded) {
        let Rules::Tournament(t) = tournament.rules() else { return };
        self.schedule.learn(stream, t.games.keys());
        let Some(ruleset) = t.ruleset else { return };
        for game in t.games.keys() {
            if self.scheduled.insert(game.clone(), ruleset).is_none() {
                if let Ok(stream) = StreamId::game(game) {
                    if self.cache.peek(&stream).is_some_and(|c| c.fold.version() == 0) {
                        self.cache.pop(&stream);
                    }
                }
            }
        }
    }
}

/// Other streams as the writer sees them: everything written, plus the records of the group
/// being decided (earlier appends of the group, and earlier events of this append).
struct Lookup<'a, S: Storage> {
    storage: &'a S,
    pending: [&'a [Sealed]; 2],
}

impl<S: Storage> StreamLookup for Lookup<'_, S> {
    fn events(&self, stream: &StreamId) -> Result<Vec<(u64, Event)>, StoreError> {
        let stored = self.storage.load_events(stream)?.into_iter().map(|r| (r.envelope.seq, r.event));
        let pending = self
            .pending
            .iter()
            .flat_map(|records| records.iter())
            .filter(|s| s.record.envelope.stream == *stream)
            .map(|s| (s.record.envelope.seq, s.record.event.clone()));
        Ok(stored.chain(pending).collect())
    }
}

/// The id the ledger gives an event sent without one, and every event it derives.
fn auto_id(stream: &StreamId, seq: u64) -> String {
    format!("{AUTO_ID_PREFIX}{stream}#{seq}")
}

/// At most how many records an append stores: its events, and where the ledger derives events
/// (Andes moves) as many as it may derive, capped where [`Sequencer::seal`] refuses; so groups
/// stay within the backend's bound however many events the rules derive.
fn records_bound(request: &AppendRequest) -> usize {
    let n_events = request.events.len();
    match request.stream.kind().max_derived_per_event() {
        0 => n_events,
        derived => n_events.saturating_mul(1 + derived).min(MAX_BATCH).max(n_events),
    }
}

fn check_ids(request: &AppendRequest) -> Result<(), Rejection> {
    let mut seen = std::collections::HashSet::new();
    for proposed in &request.events {
        let id = &proposed.event_id;
        ledger::envelope::check_event_id(id)?;
        if id.starts_with(AUTO_ID_PREFIX) {
            return Err(Rejection::malformed(format!(
                "event id `{}`: ids starting with `{AUTO_ID_PREFIX}` are the ledger's own",
                ledger::rejection::quote(id)
            )));
        }
        if !id.is_empty() && !seen.insert(id) {
            return Err(Rejection::malformed(format!(
                "event id {} appears twice in one append",
                ledger::rejection::quote(id)
            )));
        }
    }
    Ok(())
}

/// Gives the group's records and answers the positions the backend assigned.
fn assign_positions(records: &mut [Sealed], decided: &mut [Decided], positions: &[u64]) {
    for (sealed, &position) in records.iter_mut().zip(positions) {
        Arc::make_mut(&mut sealed.record).envelope.position = position;
    }
    for d in decided {
        if let (Ok(appended), Some(range)) = (&mut d.answer, &d.records) {
            if let (Some(&first), Some(&last)) = (positions.get(range.start), positions.get(range.end - 1)) {
                appended.first_position = first;
                appended.last_position = last;
            }
        }
    }
}
