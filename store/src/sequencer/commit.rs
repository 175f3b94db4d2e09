//! Writing a decided group as one commit and handing it to the sync thread: the answers wait
//! there until the group is durable. Appends whose streams another writer appended to first
//! are decided again, up to [`MAX_ATTEMPTS`] times.

use super::group::Group;
use super::{Records, Sequencer};
use crate::append::Appended;
use crate::error::AppendError;
use crate::handover::{Answer, Job, ToSync};
use crate::snapshot;
use crate::storage::{Commit, HeadUpdate, Sealed, Storage, StoredHead, Written};
use ledger::{Folded, Rejection, StreamId, StreamKind};
use std::sync::Arc;

/// How often an append is decided again after other writers won the race for its stream
/// (a log shared by several ledgerd) before its client is told to re-read and retry.
const MAX_ATTEMPTS: u8 = 8;

/// A decided append before its group is written: its answer, and which of the group's
/// records it stands for (to correct their positions when the backend assigns them).
struct Decided {
    job: Job,
    answer: Result<Appended, AppendError>,
    records: Records,
}

impl<S: Storage> Sequencer<S> {
    /// Decides and writes one group, then hands it to the sync thread. Returns the appends to
    /// decide again because another writer appended to their streams first.
    pub(super) fn process(&mut self, jobs: Vec<Job>) -> Vec<Job> {
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
                let _ = self.to_sync.send(ToSync::Failed { error, answers });
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
        let _ = self.to_sync.send(ToSync::Group { records: commit.records, answers });
        again
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
