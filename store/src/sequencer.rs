//! The single writer: it takes append jobs in groups, validates each with the `ledger` rules,
//! seals the accepted events into their streams' hash chains, commits the whole group with
//! one durable write (group commit), then acknowledges and publishes.
//!
//! One thread owns the write path, so the rules see a consistent state and two writers with
//! the same `expected_version` are ordered: the first wins, the second gets `ABORTED`.

use crate::append::{AppendRequest, Appended, MAX_BATCH, MAX_EVENT_BYTES};
use crate::cross_check::CrossCheck;
use crate::error::{AppendError, StoreError};
use crate::stats::LogStats;
use crate::storage::Storage;
use ledger::envelope::{encode_record, Draft, GENESIS};
use ledger::rules::Rules;
use ledger::{Hash, Recorded, Rejection, Ruleset, StreamId, StreamKind, StreamState};
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::Arc;
use tokio::sync::{broadcast, oneshot};

/// Ids the ledger gives events sent without one; clients may not use the prefix, so a
/// client's id never collides with one the ledger gave.
const AUTO_ID_PREFIX: &str = "auto:";

/// At most this many appends share one commit.
const MAX_GROUP: usize = 512;

/// One append waiting for its answer.
pub(crate) struct Job {
    pub request: AppendRequest,
    pub reply: oneshot::Sender<Result<Appended, AppendError>>,
}

/// A stream's validation state and chain head.
struct Cached {
    state: StreamState,
    head: Hash,
}

pub(crate) struct Sequencer<S: Storage> {
    storage: S,
    cache: HashMap<StreamId, Cached>,
    /// Game id → ruleset of the tournament that scheduled it.
    scheduled: HashMap<String, Ruleset>,
    next_position: u64,
    now_ms: fn() -> u64,
    committed: broadcast::Sender<Arc<Recorded>>,
    cross_check: Arc<dyn CrossCheck>,
    stats: Arc<LogStats>,
    /// Set by a failed commit. The disk's state is then unknown (a failed fsync may have dropped
    /// pages), so the sequencer stops: every later append is refused until ledgerd restarts and
    /// reloads what is really on disk.
    stopped: Option<StoreError>,
}

/// What one group has prepared but not yet committed.
#[derive(Default)]
struct Group {
    streams: HashMap<StreamId, Cached>,
    ids: HashMap<String, Recorded>,
    records: Vec<Recorded>,
}

impl<S: Storage> Sequencer<S> {
    /// # Errors
    /// The backend could not be read.
    pub fn new(
        storage: S,
        now_ms: fn() -> u64,
        committed: broadcast::Sender<Arc<Recorded>>,
        cross_check: Arc<dyn CrossCheck>,
        stats: Arc<LogStats>,
    ) -> Result<Self, StoreError> {
        let next_position = storage.next_position()?;
        Ok(Sequencer {
            storage,
            cache: HashMap::new(),
            scheduled: HashMap::new(),
            next_position,
            now_ms,
            committed,
            cross_check,
            stats,
            stopped: None,
        })
    }

    /// Learns which games the stored tournaments scheduled, so that their streams know their
    /// ruleset.
    ///
    /// # Errors
    /// The backend could not be read.
    pub fn index_tournaments(&mut self, tournaments: &[StreamId]) -> Result<(), StoreError> {
        for stream in tournaments {
            self.cached(stream)?;
            self.learn_schedule(stream);
        }
        Ok(())
    }

    /// Serves jobs until every sender is gone.
    pub fn run(mut self, jobs: Receiver<Job>) {
        while let Ok(first) = jobs.recv() {
            let mut group = vec![first];
            while group.len() < MAX_GROUP {
                match jobs.try_recv() {
                    Ok(job) => group.push(job),
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
                }
            }
            self.process(group);
        }
        tracing::info!("sequencer stopped: no more appends");
    }

    fn process(&mut self, jobs: Vec<Job>) {
        if let Some(error) = &self.stopped {
            let error = StoreError::Io(format!("the log stopped after a failed write ({error}); restart ledgerd"));
            for job in jobs {
                let _ = job.reply.send(Err(error.clone().into()));
            }
            return;
        }
        let mut group = Group::default();
        let mut accepted = Vec::with_capacity(jobs.len());
        let now = (self.now_ms)();
        for job in jobs {
            match self.prepare(&job.request, &mut group, now) {
                Ok(appended) => accepted.push((job.reply, appended)),
                Err(error) => {
                    if matches!(error, AppendError::Rejected(_)) {
                        self.stats.refused();
                    }
                    let _ = job.reply.send(Err(error));
                }
            }
        }
        if group.records.is_empty() {
            // Only refusals and retries: the streams taken out of the cache are unchanged.
            self.cache.extend(group.streams);
        } else {
            let started = std::time::Instant::now();
            let committed = self.storage.commit(&group.records);
            let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            if let Err(error) = committed {
                tracing::error!(%error, n_events = group.records.len(), "commit failed; nothing acknowledged, the log stops");
                self.stats.commit_failed();
                self.stopped = Some(error.clone());
                for (reply, _) in accepted {
                    let _ = reply.send(Err(error.clone().into()));
                }
                return;
            }
            self.stats.committed(group.records.len(), nanos);
            let touched: Vec<StreamId> = group.streams.keys().cloned().collect();
            self.cache.extend(group.streams);
            for stream in touched.iter().filter(|s| s.kind() == StreamKind::Tournament) {
                self.learn_schedule(stream);
            }
            for record in group.records {
                let _ = self.committed.send(Arc::new(record));
            }
        }
        self.stats.acknowledged(accepted.len());
        for (reply, appended) in accepted {
            let _ = reply.send(Ok(appended));
        }
    }

    fn prepare(&mut self, request: &AppendRequest, group: &mut Group, now: u64) -> Result<Appended, AppendError> {
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
        if let Some(appended) = self.find_retry(request, group)? {
            return Ok(appended);
        }
        let stream = &request.stream;
        let mut entry = match group.streams.remove(stream) {
            Some(entry) => entry,
            None => {
                self.cached(stream)?;
                self.cache.remove(stream).expect("just loaded")
            }
        };
        let result = self.seal(request, &mut entry, now);
        group.streams.insert(stream.clone(), entry);
        let records = result?;
        let appended = Appended {
            stream: stream.clone(),
            first_seq: records[0].envelope.seq,
            last_seq: records[n_events - 1].envelope.seq,
            first_position: records[0].envelope.position,
            last_position: records[n_events - 1].envelope.position,
            head_hash: records[n_events - 1].envelope.hash,
            duplicate: false,
        };
        self.next_position += n_events as u64;
        for record in &records {
            group.ids.insert(record.envelope.event_id.clone(), record.clone());
        }
        group.records.extend(records);
        Ok(appended)
    }

    /// Validates every event of the request against the stream and seals them; the stream's
    /// state changes only when all of them are accepted.
    fn seal(&self, request: &AppendRequest, entry: &mut Cached, now: u64) -> Result<Vec<Recorded>, AppendError> {
        let version = entry.state.version();
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
        let mut working = if single { None } else { Some(entry.state.clone()) };
        let mut head = entry.head;
        let mut records = Vec::with_capacity(n_events);
        for (idx, proposed) in request.events.iter().enumerate() {
            let state = working.as_mut().unwrap_or(&mut entry.state);
            let context = |r: Rejection| {
                if single {
                    r
                } else {
                    r.context(format!("event {} of {n_events}", idx + 1))
                }
            };
            ledger::access::permits(request.clearance, &request.actor, &proposed.event).map_err(context)?;
            state.decide(&proposed.event).map_err(context)?;
            self.cross_check.check(&request.stream, state, &proposed.event, &self.storage).map_err(|e| match e {
                AppendError::Rejected(r) => AppendError::Rejected(context(r)),
                other => other,
            })?;
            let seq = version + 1 + idx as u64;
            let event_id = if proposed.event_id.is_empty() {
                format!("{AUTO_ID_PREFIX}{}#{seq}", request.stream)
            } else {
                proposed.event_id.clone()
            };
            let draft = Draft {
                stream: request.stream.clone(),
                seq,
                position: self.next_position + idx as u64,
                event_id,
                recorded_at_ms: now,
                actor: request.actor.clone(),
            };
            let record = Recorded::seal(draft, head, proposed.event.clone());
            let size = encode_record(&record).len();
            if size > MAX_EVENT_BYTES {
                return Err(context(Rejection::malformed(format!(
                    "{} is {size} bytes stored; the ledger stores at most {MAX_EVENT_BYTES}",
                    proposed.event.type_name()
                )))
                .into());
            }
            // A single event evolves the stream itself: it was decided and nothing fails after.
            state.evolve(&proposed.event);
            head = record.envelope.hash;
            records.push(record);
        }
        if let Some(state) = working {
            entry.state = state;
        }
        entry.head = head;
        Ok(records)
    }

    /// A retry of an append that was already stored returns the first result. An id reused for
    /// another event is refused.
    fn find_retry(&self, request: &AppendRequest, group: &Group) -> Result<Option<Appended>, AppendError> {
        let mut found = Vec::new();
        for proposed in request.events.iter().filter(|p| !p.event_id.is_empty()) {
            let stored = match group.ids.get(&proposed.event_id) {
                Some(record) => Some(record.clone()),
                None => self.storage.find_event_id(&proposed.event_id)?,
            };
            if let Some(record) = stored {
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
                found.push(record);
            }
        }
        let Some(first) = found.first() else { return Ok(None) };
        let consecutive = found.windows(2).all(|w| w[1].envelope.seq == w[0].envelope.seq + 1);
        if found.len() != request.events.len() || !consecutive {
            return Err(Rejection::duplicate_id(format!(
                "event id {} was already stored, but not with the rest of this append",
                first.envelope.event_id
            ))
            .into());
        }
        let last = found.last().expect("not empty");
        Ok(Some(Appended {
            stream: request.stream.clone(),
            first_seq: first.envelope.seq,
            last_seq: last.envelope.seq,
            first_position: first.envelope.position,
            last_position: last.envelope.position,
            head_hash: last.envelope.hash,
            duplicate: true,
        }))
    }

    /// Makes sure the stream's state is in the cache, replaying it from storage if needed.
    fn cached(&mut self, stream: &StreamId) -> Result<(), StoreError> {
        if self.cache.contains_key(stream) {
            return Ok(());
        }
        let scheduled = match stream.kind() {
            StreamKind::Game => self.scheduled.get(stream.id()).copied(),
            StreamKind::Tournament => None,
        };
        let mut state = StreamState::new(stream, scheduled);
        let mut head = GENESIS;
        // Stored events were decided when they were appended: evolve only (cheap, and total even
        // if a later version of the rules would refuse one of them).
        for record in self.storage.load_stream(stream)? {
            state.evolve(&record.event);
            head = record.envelope.hash;
        }
        self.cache.insert(stream.clone(), Cached { state, head });
        Ok(())
    }

    /// Records the ruleset of every game a tournament scheduled; a game stream cached before it
    /// was scheduled, and still empty, is dropped so that it reloads with the ruleset.
    fn learn_schedule(&mut self, tournament: &StreamId) {
        let Some(Cached { state, .. }) = self.cache.get(tournament) else {
            return;
        };
        let Rules::Tournament(t) = state.rules() else { return };
        let Some(ruleset) = t.ruleset else { return };
        let games: Vec<String> = t.games.keys().cloned().collect();
        for game in games {
            if self.scheduled.insert(game.clone(), ruleset).is_none() {
                if let Ok(stream) = StreamId::game(&game) {
                    if self.cache.get(&stream).is_some_and(|c| c.state.version() == 0) {
                        self.cache.remove(&stream);
                    }
                }
            }
        }
    }
}

fn check_ids(request: &AppendRequest) -> Result<(), Rejection> {
    let mut seen = std::collections::HashSet::new();
    for proposed in &request.events {
        let id = &proposed.event_id;
        if id.len() > 128 || id.chars().any(char::is_control) {
            return Err(Rejection::malformed(format!("event id `{id}` must be at most 128 printable characters")));
        }
        if id.starts_with(AUTO_ID_PREFIX) {
            return Err(Rejection::malformed(format!(
                "event id `{id}`: ids starting with `{AUTO_ID_PREFIX}` are the ledger's own"
            )));
        }
        if !id.is_empty() && !seen.insert(id) {
            return Err(Rejection::malformed(format!("event id {id} appears twice in one append")));
        }
    }
    Ok(())
}
