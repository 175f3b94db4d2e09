//! After a crash: what the data directory holds (every chain verifies, every acknowledged event
//! is on disk), what the restarted daemon answers (every acknowledged event exactly once, at
//! its seq and position, nothing else, every tournament's games scheduled before they started),
//! and the appends that were in flight, retried by id.

use super::append::{acks_of, with_identity, Attempt};
use super::events::{event_of, is_ours};
use super::model::Model;
use super::tournament::CrossStream;
use ledger::envelope::verify_chain;
use ledger::Recorded;
use ledger_proto::convert::FromProto;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use ledger_store::sled::SledStorage;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use tonic::transport::Channel;
use tonic::Code;

/// At most this many problems are described; the counts cover all of them.
const MAX_PROBLEMS: usize = 20;

/// What became of the appends that were in flight at the kill.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Resolved {
    /// The retry answered `duplicate`: the append was stored before the crash.
    pub committed: u64,
    /// The retry stored it, once: it had not been stored.
    pub appended: u64,
    /// A shared-stream append whose seq another writer's append took (`ABORTED`): not stored.
    pub superseded: u64,
}

impl Resolved {
    pub fn total(&self) -> u64 {
        self.committed + self.appended + self.superseded
    }

    pub fn add(&mut self, other: Resolved) {
        self.committed += other.committed;
        self.appended += other.appended;
        self.superseded += other.superseded;
    }
}

/// Sends every in-flight append again, exactly as it was (same ids, same events), with the
/// version it was meant for: each must come back `duplicate` (stored before the crash) or be
/// stored now at the seq it was meant for, and never twice; on a shared stream it may also
/// have lost its seq to another writer. Appends to one stream are retried in the order they were
/// sent. Every event stored this way joins the model.
///
/// # Errors
/// A retry was refused otherwise, or answered with other seqs: the message says which.
pub async fn resolve(
    client: &mut LedgerClient<Channel>,
    in_flight: &[Attempt],
    model: &mut Model,
) -> Result<Resolved, String> {
    let mut resolved = Resolved::default();
    for attempt in in_flight {
        let mut retry = attempt.clone();
        retry.expected_version = Some(attempt.first_seq - 1);
        match client.append(retry.signed("crash-retry")).await {
            Ok(answer) => {
                let answer = answer.into_inner();
                let acks = acks_of(attempt, &answer, true).map_err(|e| format!("retry after the restart: {e}"))?;
                for ack in &acks {
                    model.record(ack)?;
                }
                if answer.duplicate {
                    resolved.committed += 1;
                } else {
                    resolved.appended += 1;
                }
            }
            // The id check comes before the version check: ABORTED means none of its ids is stored.
            Err(status) if status.code() == Code::Aborted && attempt.is_shared() => resolved.superseded += 1,
            Err(status) => {
                return Err(format!(
                    "retrying {} after the restart: {:?} {}",
                    attempt.describe(),
                    status.code(),
                    status.message()
                ))
            }
        }
    }
    Ok(resolved)
}

/// What the restarted daemon answered, against the model.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ReadCheck {
    pub streams: usize,
    /// Events read back.
    pub events: u64,
    /// Acknowledged events missing, or not at the seq and position the ledger named.
    pub lost: u64,
    /// Event ids read more than once.
    pub duplicates: u64,
    /// Events stored that nobody was told about and no retry claimed.
    pub unexpected: u64,
    /// Streams whose hash chain, as read back, does not verify.
    pub broken_chains: u64,
    /// Tournament games started that their tournament had not scheduled earlier in the log.
    pub cross_stream: u64,
    /// Tournament games started, whose schedule was checked.
    pub tournament_games: usize,
    pub problems: Vec<String>,
}

impl ReadCheck {
    fn problem(&mut self, text: String) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(text);
        }
    }

    pub fn passed(&self) -> bool {
        self.lost == 0
            && self.duplicates == 0
            && self.unexpected == 0
            && self.broken_chains == 0
            && self.cross_stream == 0
            && self.problems.is_empty()
    }
}

/// Reads every stream in full and compares it with the model: seqs 1, 2, 3 … with no gap,
/// each acknowledged event at its seq with its id and position, each event the one its seq must
/// hold, no id twice, no event nobody acknowledged, and each chain verifies; and across streams,
/// every tournament game started was scheduled by its tournament at an earlier position.
///
/// # Errors
/// A read failed (the daemon is down, or refused).
pub async fn read_back(client: &mut LedgerClient<Channel>, model: &Model) -> Result<ReadCheck, tonic::Status> {
    let mut check = ReadCheck::default();
    let listed = client.list_streams(pb::ListStreamsRequest { prefix: String::new() }).await?.into_inner();
    let mut seen_ids = HashSet::new();
    let mut across = CrossStream::default();
    for summary in &listed.streams {
        if !is_ours(&summary.stream) || model.len(&summary.stream) == 0 {
            check.unexpected += summary.version;
            check.problem(format!("{}: {} events, none acknowledged", summary.stream, summary.version));
        }
    }
    for stream in model.streams() {
        check.streams += 1;
        let records = read_stream(client, stream).await?;
        let listed_version = listed.streams.iter().find(|s| s.stream == stream).map_or(0, |s| s.version);
        if listed_version != records.len() as u64 {
            check.problem(format!("{stream}: listed at version {listed_version}, {} events read", records.len()));
        }
        compare_stream(&mut check, model, stream, &records, &mut seen_ids);
        across.note(stream, &records);
    }
    check.tournament_games = across.games_started();
    for problem in across.problems() {
        check.cross_stream += 1;
        check.problem(problem);
    }
    if listed.last_position != model.total() || !model.positions_are_contiguous() {
        check.problem(format!(
            "the log's last position is {}, with {} events acknowledged (positions contiguous: {})",
            listed.last_position,
            model.total(),
            model.positions_are_contiguous()
        ));
    }
    Ok(check)
}

fn compare_stream(
    check: &mut ReadCheck,
    model: &Model,
    stream: &str,
    records: &[Recorded],
    seen_ids: &mut HashSet<String>,
) {
    for (seq, record) in (1u64..).zip(records) {
        let e = &record.envelope;
        check.events += 1;
        if !seen_ids.insert(e.event_id.clone()) {
            check.duplicates += 1;
            check.problem(format!("{stream} seq {}: event id {} read a second time", e.seq, e.event_id));
        }
        if e.seq != seq {
            check.problem(format!("{stream}: seq {} read where {seq} was due", e.seq));
        }
        if record.event != event_of(stream, seq) {
            check.problem(format!("{stream} seq {seq}: holds {} ({})", record.event.type_name(), e.event_id));
        }
        match model.get(stream, seq) {
            Some(known) if known.event_id == e.event_id && known.position == e.position => {}
            Some(known) => {
                check.lost += 1;
                check.problem(format!(
                    "{stream} seq {seq}: {} at position {} was acknowledged, {} at position {} is stored",
                    known.event_id, known.position, e.event_id, e.position
                ));
            }
            None => {
                check.unexpected += 1;
                check.problem(format!("{stream} seq {seq}: {} is stored, nobody was told", e.event_id));
            }
        }
    }
    for seq in records.len() as u64 + 1..=model.len(stream) {
        if let Some(known) = model.get(stream, seq) {
            check.lost += 1;
            check.problem(format!("{stream} seq {seq}: {} was acknowledged and is not stored", known.event_id));
        }
    }
    if let Err(b) = verify_chain(records) {
        check.broken_chains += 1;
        check.problem(format!("{stream}: the chain breaks at seq {}: {}", b.seq, b.reason));
    }
}

/// Every event of `stream`, from seq 1, as the daemon serves them.
///
/// # Errors
/// The read failed, or the daemon sent an event that does not decode.
pub async fn read_stream(client: &mut LedgerClient<Channel>, stream: &str) -> Result<Vec<Recorded>, tonic::Status> {
    let request = pb::ReadRequest { stream: stream.to_owned(), from_seq: 1, limit: None, ..Default::default() };
    let mut events = client.read(with_identity(request, "crash-check")).await?.into_inner();
    let mut records = Vec::new();
    while let Some(event) = events.message().await? {
        let record = Recorded::from_proto(event)
            .map_err(|r| tonic::Status::internal(format!("{stream}: the daemon sent {r}")))?;
        records.push(record);
    }
    Ok(records)
}

/// What the data directory held right after the kill, before any restart.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DiskCheck {
    pub streams: usize,
    /// Events whose chain verified.
    pub events: u64,
    /// Streams whose chain, head or index is broken.
    pub broken: u64,
    /// Acknowledged events not on disk.
    pub lost: u64,
    pub problems: Vec<String>,
}

impl DiskCheck {
    pub fn passed(&self) -> bool {
        self.broken == 0 && self.lost == 0 && self.problems.is_empty()
    }
}

/// Verifies a copy of the killed daemon's data directory with the store's own verification
/// (what `ledgerctl verify --data-dir` runs: every record at its position, every chain, every
/// head, every index run), so that the evidence is checked as the crash left it and the daemon
/// restarts on untouched files. Every acknowledged event must be among the verified ones.
///
/// # Errors
/// The copy could not be made, or sled could not open or read it.
pub fn verify_on_disk(data_dir: &Path, scratch: &Path, model: &Model) -> Result<DiskCheck, String> {
    if scratch.exists() {
        std::fs::remove_dir_all(scratch).map_err(|e| format!("removing {}: {e}", scratch.display()))?;
    }
    copy_tree(data_dir, scratch).map_err(|e| format!("copying {}: {e}", data_dir.display()))?;
    let verdicts = {
        let storage = SledStorage::open_existing(scratch).map_err(|e| e.to_string())?;
        storage.verify().map_err(|e| e.to_string())?
    };
    std::fs::remove_dir_all(scratch).map_err(|e| format!("removing {}: {e}", scratch.display()))?;
    let mut check = DiskCheck { streams: verdicts.len(), ..DiskCheck::default() };
    let mut verified_of = HashMap::new();
    for v in &verdicts {
        verified_of.insert(v.stream.to_string(), v.verified);
        check.events += v.verified;
        if let Some(b) = &v.broken {
            check.broken += 1;
            if check.problems.len() < MAX_PROBLEMS {
                check.problems.push(format!("{}: broken at seq {}: {}", v.stream, b.seq, b.reason));
            }
        }
    }
    for stream in model.streams() {
        let verified = verified_of.get(stream).copied().unwrap_or(0);
        let acknowledged = model.len(stream);
        if verified < acknowledged {
            check.lost += acknowledged - verified;
            if check.problems.len() < MAX_PROBLEMS {
                check.problems.push(format!("{stream}: {acknowledged} events acknowledged, {verified} on disk"));
            }
        }
    }
    Ok(check)
}

/// Copies a directory tree (sled makes only directories and regular files).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crash::append::Ack;
    use crate::crash::events::{event_at, own_event_id, own_stream};
    use ledger::envelope::{Draft, GENESIS};
    use ledger::StreamId;

    const STREAM: &str = "game/crash-u0-0";

    /// A chain of records with these ids, seqs 1, 2, 3 … at these positions.
    fn chain(ids_and_positions: &[(&str, u64)]) -> Vec<Recorded> {
        let mut prev = GENESIS;
        (1u64..)
            .zip(ids_and_positions)
            .map(|(seq, &(id, position))| {
                let draft = Draft {
                    stream: StreamId::parse(STREAM).unwrap(),
                    seq,
                    position,
                    event_id: id.into(),
                    recorded_at_ms: 0,
                    actor: "t".into(),
                };
                let record = Recorded::seal(draft, prev, event_at(seq));
                prev = record.envelope.hash;
                record
            })
            .collect()
    }

    fn model_of(ids: &[&str]) -> Model {
        let mut model = Model::default();
        for (seq, id) in (1u64..).zip(ids) {
            model.record(&Ack { stream: STREAM.into(), seq, event_id: (*id).into(), position: seq }).unwrap();
        }
        model
    }

    fn compare(model: &Model, records: &[Recorded]) -> ReadCheck {
        let mut check = ReadCheck::default();
        compare_stream(&mut check, model, STREAM, records, &mut HashSet::new());
        check
    }

    #[test]
    fn the_read_back_counts_every_broken_promise() {
        assert_eq!(own_stream("u0", 0), STREAM);
        let ids: Vec<String> = (1..=3).map(|seq| own_event_id(STREAM, seq)).collect();
        let [a, b, c] = [ids[0].as_str(), ids[1].as_str(), ids[2].as_str()];
        let model = model_of(&[a, b, c]);
        assert!(compare(&model, &chain(&[(a, 1), (b, 2), (c, 3)])).passed());

        let lost = compare(&model, &chain(&[(a, 1), (b, 2)]));
        assert_eq!((lost.lost, lost.unexpected, lost.duplicates), (1, 0, 0), "{:?}", lost.problems);

        let extra = compare(&model, &chain(&[(a, 1), (b, 2), (c, 3), ("x", 4)]));
        assert_eq!((extra.lost, extra.unexpected), (0, 1), "{:?}", extra.problems);

        let doubled = compare(&model, &chain(&[(a, 1), (a, 2), (b, 3)]));
        assert_eq!((doubled.duplicates, doubled.lost), (1, 2), "{:?}", doubled.problems);

        let moved = compare(&model, &chain(&[(a, 1), (b, 3), (c, 2)]));
        assert_eq!(moved.lost, 2, "positions swapped: {:?}", moved.problems);

        let mut tampered = chain(&[(a, 1), (b, 2), (c, 3)]);
        tampered[1].envelope.recorded_at_ms = 1;
        assert_eq!(compare(&model, &tampered).broken_chains, 1);
    }
}
