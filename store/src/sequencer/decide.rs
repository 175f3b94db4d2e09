//! Deciding one append against its stream: its shape and ids checked, a retry recognised, the
//! stream taken from the cache (or loaded), each event checked for clearance, the expected
//! version and the rules (the stream's own and those across streams; a run of voids, one
//! ruling's, together), then sealed into the stream's hash chain with the events the rules
//! derive from it.

use super::cache::Cached;
use super::group::Group;
use super::idempotency::{auto_id, check_ids};
use super::{Records, Sequencer};
use crate::append::{AppendRequest, Appended, MAX_BATCH, MAX_EVENT_BYTES};
use crate::cross_check::StreamLookup;
use crate::error::{AppendError, StoreError};
use crate::schedule::Schedule;
use crate::storage::{id_hash, Sealed, Storage};
use ledger::envelope::{encode_record, Draft};
use ledger::rules::needs_history;
use ledger::{Event, Hash, Recorded, Rejection, StreamId, StreamKind};
use std::sync::Arc;

impl<S: Storage> Sequencer<S> {
    /// Decides one append into the group: its answer, and the range of the group's records it
    /// stands for.
    pub(super) fn prepare(
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
            return Err(Rejection::malformed(format!("an append holds at most {MAX_BATCH} events, got {n_events}"))
                .said("refusal-append-too-many", [("count", n_events.into()), ("max", MAX_BATCH.into())])
                .into());
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
            let lookup = Lookup { storage: &*self.storage, schedule: &self.schedule, pending: [pending, &records] };
            let history = if needs_history(&proposed.event) {
                lookup.events(&request.stream)?.into_iter().map(|(_, event)| event).collect()
            } else {
                Vec::new()
            };
            // A run of voids is decided together, at its first (one ruling's voids: the stream
            // after all of them must replay, not after each); the later ones were decided then.
            let in_run = idx > 0 && voids(&request.events[idx - 1..idx]) == 1 && voids(&request.events[idx..]) > 0;
            if !in_run {
                match voids(&request.events[idx..]) {
                    run @ 2.. => {
                        let run: Vec<Event> = request.events[idx..idx + run].iter().map(|p| p.event.clone()).collect();
                        fold.decide_voids(&run, &history).map_err(context)?;
                    }
                    _ => fold.decide(&proposed.event, &history).map_err(context)?,
                }
            }
            self.cross_check.check(&request.stream, fold, &proposed.event, request.clearance, &lookup).map_err(
                |e| match e {
                    AppendError::Rejected(r) => AppendError::Rejected(context(r)),
                    other => other,
                },
            )?;
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
                ))
                .said("refusal-append-too-many", [("count", records.len().into()), ("max", MAX_BATCH.into())]))
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
            ))
            .said(
                "refusal-event-too-large",
                [
                    ("type", ledger::Arg::name("table-event-name", record.event.type_name())),
                    ("bytes", bytes.len().into()),
                    ("max", MAX_EVENT_BYTES.into()),
                ],
            ));
        }
        Ok(Sealed { record: Arc::new(record), bytes })
    }
}

/// How many of `events`, from the first, are voids ([`ledger::rules::void_run`]).
fn voids(events: &[crate::append::ProposedEvent]) -> usize {
    events.iter().take_while(|p| matches!(p.event, Event::EventVoided { .. })).count()
}

/// Other streams as the writer sees them: everything written, plus the records of the group
/// being decided (earlier appends of the group, and earlier events of this append).
struct Lookup<'a, S: Storage> {
    storage: &'a S,
    schedule: &'a Schedule,
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

    fn scheduled_by(&self, game: &str) -> Result<Vec<StreamId>, StoreError> {
        let mut tournaments = self.schedule.tournaments_of(game);
        let pending = self.pending.iter().flat_map(|records| records.iter()).map(|s| &s.record);
        for record in pending.filter(|r| r.envelope.stream.kind() == StreamKind::Tournament) {
            let names = Schedule::names(&record.event);
            if names.iter().any(|(g, _)| *g == game) && !tournaments.contains(&record.envelope.stream) {
                tournaments.push(record.envelope.stream.clone());
            }
        }
        Ok(tournaments)
    }
}
