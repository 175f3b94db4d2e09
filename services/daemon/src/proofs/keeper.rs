//! The tree keeper: a thread of its own, at a lower priority than the writer's, that takes what
//! the durable log holds past the tree every [`POLL`] ([`POLL_JETSTREAM`] on JetStream), in
//! global position order, as stored records whose envelopes alone are decoded, appends each
//! record's leaf to the tree, and signs a checkpoint at least every `interval` while the log
//! grows and at each round's end (at exactly the round's last event, wherever it falls in what
//! was taken).
//!
//! It follows no live feed: a second subscriber woken at every group the writer commits, holding
//! the decoded records past their commit, cost pipelined appends about 16 % of their throughput
//! on two cores (docs/BENCHMARKS.md, "Proofs"); reading what the log stored, in runs, costs a
//! copy and an envelope's decoding a record, in one step a poll.
//!
//! At start it checks the tree against the log (a tree longer than the log, or whose last leaf
//! is not the log's record, is rebuilt from the log, said once) and, once caught up, against the
//! latest checkpoint signed before: a log that no longer gives that root, even rebuilt, is a log
//! changed behind the ledger's back, and the keeper raises the alarm and signs nothing more.

use super::heads::{heads_from_log, HeadMap};
use super::rounds::{RoundEnded, Rounds};
use super::{leaf_of, Proofs};
use crate::proofs::checkpoints::SignedCheckpoint;
use ledger::envelope::{decode_head, decode_record, stored_event_tag, stored_records, StoredHead};
use ledger::{Event, StreamId, StreamKind};
use ledger_store::{Log, StoreError};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// How often the keeper takes what the log holds past the tree.
pub const POLL: Duration = Duration::from_millis(100);

/// The same on JetStream, where each read of the log is a fetch through a consumer of its own
/// (one a poll while the log grows; an idle log costs one stream info a poll).
pub const POLL_JETSTREAM: Duration = Duration::from_secs(1);

/// Records read from the log in one read, at most (a poll reads until the log has no more).
const PAGE: usize = 8192;

/// The keeper thread's nice value: the writer's threads keep theirs (0) and get the CPU first
/// when it is short; the keeper catches up when it is not.
const NICE: i32 = 10;

#[derive(Debug, thiserror::Error)]
enum KeeperError {
    #[error("the log failed: {0}")]
    Log(#[from] StoreError),
    #[error("the proof tree's files failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("the log skips from position {after} to {next}: a leaf's index must be its position less one")]
    Gap { after: u64, next: u64 },
    #[error("a stored record at position {position} cannot be read: {why}")]
    Damaged { position: u64, why: String },
    #[error("the keeper's thread panicked")]
    Panicked,
}

/// What one step over the log came to.
enum Step {
    Kept,
    /// The tree must be rebuilt from the log, for this reason.
    Rebuild(String),
}

fn now_ms() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

/// Keeps the tree until `stop` turns true (the keeper's thread sees it within a poll and ends;
/// this returns then). A failure of the log or of the tree's files stops the keeper (logged, and
/// the alarm raised: checkpoints stop) without stopping ledgerd.
pub async fn run(proofs: Arc<Proofs>, log: Arc<Log>, interval: Duration, stop: watch::Receiver<bool>) {
    proofs.log.set(Arc::clone(&log));
    let (done, finished) = tokio::sync::oneshot::channel();
    let keeping = Arc::clone(&proofs);
    let thread = std::thread::Builder::new().name("proof-keeper".into()).spawn(move || {
        if let Err(error) = rustix::process::setpriority_process(None, NICE) {
            tracing::warn!(%error, "the proof keeper runs at the writer's priority");
        }
        let _ = done.send(keep(&keeping, &log, interval, &stop));
    });
    let kept = match thread {
        Ok(_) => finished.await.unwrap_or(Err(KeeperError::Panicked)),
        Err(error) => Err(KeeperError::Io(error)),
    };
    if let Err(error) = kept {
        proofs.raise(format!("the tree keeper stopped: {error}"));
    }
}

fn keep(proofs: &Proofs, log: &Log, interval: Duration, stop: &watch::Receiver<bool>) -> Result<(), KeeperError> {
    let stopped = || *stop.borrow();
    let mut rebuild = mismatch(proofs, log)?;
    // The latest checkpoint signed before this start, to check once the tree reaches it.
    let mut check = proofs.latest();
    if let Some(signed) = &check {
        let last = log.last_position()?;
        if last < signed.checkpoint.size {
            proofs.raise(format!(
                "the log holds {last} records, fewer than the {} of the checkpoint signed at {} ms",
                signed.checkpoint.size, signed.signed_at_ms
            ));
        }
    }
    let mut rebuilt = false;
    'start: loop {
        if let Some(why) = rebuild.take() {
            tracing::warn!("rebuilding the proof tree from the log: {why}");
            proofs.tree.write().expect("not poisoned").clear()?;
            rebuilt = true;
        }
        if let Some(why) = check.as_deref().map(|signed| checked(proofs, signed, rebuilt)).transpose()?.flatten() {
            rebuild = Some(why);
            continue;
        }
        if check.as_ref().is_some_and(|c| proofs.tree_size() >= c.checkpoint.size) {
            check = None;
        }
        let (mut rounds, ended) = rounds_so_far(log, proofs.tree_size())?;
        // Every stream's head as of the tree's size: read once from the log at start, then
        // followed record by record.
        let mut heads = heads_from_log(log, proofs.tree_size())?;
        let uncovered = |e: &RoundEnded| proofs.latest().is_none_or(|c| c.checkpoint.size < e.position);
        if let Some(ended) = ended.filter(uncovered) {
            proofs.sign(&reason_of(&ended, " (before this start)"), now_ms(), &heads)?;
        }
        if proofs.latest().is_none() {
            proofs.sign("start", now_ms(), &heads)?;
        }
        let poll = if log.backend() == "jetstream" { POLL_JETSTREAM } else { POLL };
        let mut sign_at = Instant::now() + interval;
        loop {
            if stopped() {
                return Ok(());
            }
            // What the log holds past the tree now, page after page, each page one step.
            let page = if log.last_position()? > proofs.tree_size() {
                log.read_all_stored(proofs.tree_size() + 1, PAGE)?
            } else {
                ledger_store::StoredPage::default()
            };
            if page.count > 0 {
                let stepped = step(proofs, &page.run, &mut rounds, &mut heads, check.as_deref(), rebuilt)?;
                if let Step::Rebuild(why) = stepped {
                    rebuild = Some(why);
                    continue 'start;
                }
                if check.as_ref().is_some_and(|c| proofs.tree_size() >= c.checkpoint.size) {
                    check = None;
                }
            }
            let now = Instant::now();
            if now >= sign_at {
                proofs.sign("interval", now_ms(), &heads)?;
                sign_at = now + interval;
            }
            if page.count < PAGE {
                std::thread::sleep(poll.min(sign_at.saturating_duration_since(now)));
            }
        }
    }
}

fn reason_of(ended: &RoundEnded, suffix: &str) -> String {
    format!("end of round {} of {}{suffix}", ended.round, ended.tournament)
}

/// The stored variant of `game_ended`, the one event of a game stream the rounds look at.
static GAME_ENDED: LazyLock<u32> = LazyLock::new(|| {
    let ended = serde_json::json!({"type": "game_ended", "outcome": "prussian_defensive_victory",
        "winners": ["prussia"], "objectives": {}});
    stored_event_tag(&ledger::event::from_canonical_json(&ended).expect("a game_ended event"))
});

/// Whether the rounds look at a record ([`Rounds::observe`]: a tournament's scheduling, a game's
/// end); every other record is hashed from its envelope alone.
fn rounds_look_at(head: &StoredHead<'_>) -> bool {
    match head.stream {
        StreamKind::Tournament => true,
        StreamKind::Game => head.event_tag == *GAME_ENDED,
        _ => false,
    }
}

/// Appends the leaves of a run of stored records (the next ones of the log, in position order),
/// signing at each round's end, with the tree ending there. The checkpoint signed before this
/// start is checked the moment the tree reaches its size, before anything is signed past it.
fn step(
    proofs: &Proofs,
    run: &[u8],
    rounds: &mut Rounds,
    heads: &mut HeadMap,
    check: Option<&SignedCheckpoint>,
    rebuilt: bool,
) -> Result<Step, KeeperError> {
    let mut leaves = Vec::new();
    let start = proofs.tree_size();
    let flush =
        |leaves: &mut Vec<ledger_proof::Hash>| proofs.tree.write().expect("not poisoned").append(&leaves.split_off(0));
    for (bytes, position) in stored_records(run).zip(start + 1..) {
        let damaged = |why: String| KeeperError::Damaged { position, why };
        let bytes = bytes.map_err(damaged)?;
        let head = decode_head(bytes).map_err(damaged)?;
        if head.position != position {
            return Err(KeeperError::Gap { after: position - 1, next: head.position });
        }
        leaves.push(ledger_proof::leaf_hash(&head.hash));
        heads.advance(&head);
        if let Some(signed) = check.filter(|c| c.checkpoint.size == position) {
            flush(&mut leaves)?;
            if let Some(why) = checked(proofs, signed, rebuilt)? {
                return Ok(Step::Rebuild(why));
            }
        }
        if rounds_look_at(&head) {
            if let Some(ended) = rounds.observe(&decode_record(bytes).map_err(damaged)?) {
                flush(&mut leaves)?;
                proofs.sign(&reason_of(&ended, ""), now_ms(), heads)?;
            }
        }
    }
    flush(&mut leaves)?;
    Ok(Step::Kept)
}

/// Checks the tree against a checkpoint signed before, once the tree reaches its size: `Some`
/// (rebuild, for this reason) the first time they differ; the alarm if they differ again on a
/// tree rebuilt from the log.
fn checked(proofs: &Proofs, signed: &SignedCheckpoint, rebuilt: bool) -> Result<Option<String>, KeeperError> {
    let size = signed.checkpoint.size;
    let root = {
        let tree = proofs.tree.read().expect("not poisoned");
        if tree.len() < size {
            return Ok(None);
        }
        ledger_proof::tree_root(&*tree, size).map_err(|e| std::io::Error::other(e.to_string()))?
    };
    if root == signed.checkpoint.root {
        return Ok(None);
    }
    let why = format!("the tree's root at {size} records is not the one signed at {} ms", signed.signed_at_ms);
    if !rebuilt {
        return Ok(Some(why));
    }
    proofs.raise(format!("the log, read again from its start: {why}; the log was changed"));
    Ok(None)
}

/// Why the tree on disk cannot be the log's, if it cannot: longer than the log, a first or last
/// leaf that is not the log's record there, or a stored subtree that is not its halves' hash.
fn mismatch(proofs: &Proofs, log: &Log) -> Result<Option<String>, KeeperError> {
    let tree = proofs.tree.read().expect("not poisoned");
    let size = tree.len();
    if size == 0 {
        return Ok(None);
    }
    let last = log.last_position()?;
    if size > last {
        return Ok(Some(format!("the tree holds {size} records, the log {last}")));
    }
    for position in [1, size] {
        let record = log.read_all(position, 1)?.into_iter().next().filter(|r| r.envelope.position == position);
        let leaf = ledger_proof::LeafHashes::leaf(&*tree, position - 1)?;
        if record.as_ref().map(leaf_of) != Some(leaf) {
            return Ok(Some(format!("its leaf {} is not the log's record at position {position}", position - 1)));
        }
    }
    Ok(tree
        .damaged()?
        .map(|node| format!("its subtree {} at level {} is not the hash of its two halves", node.index, node.level)))
}

/// The rounds as of position `upto` (the tree's size at start), read from the tournament
/// streams and their games' ends, and the last round that ended by then.
fn rounds_so_far(log: &Log, upto: u64) -> Result<(Rounds, Option<RoundEnded>), StoreError> {
    let mut rounds = Rounds::default();
    if upto == 0 {
        return Ok((rounds, None));
    }
    let mut scheduling = Vec::new();
    for tournament in log.tournaments() {
        scheduling
            .extend(log.read_stream(&tournament, 1, usize::MAX)?.into_iter().filter(|r| r.envelope.position <= upto));
    }
    scheduling.sort_by_key(|r| r.envelope.position);
    scheduling.iter().for_each(|r| drop(rounds.observe(r)));
    let mut ends = Vec::new();
    let games: Vec<String> = rounds.games().map(str::to_owned).collect();
    for game in games {
        let Ok(stream) = StreamId::game(&game) else { continue };
        let ended = log.read_stream(&stream, 1, usize::MAX)?.into_iter();
        ends.extend(ended.filter(|r| r.envelope.position <= upto && matches!(r.event, Event::GameEnded { .. })));
    }
    ends.sort_by_key(|r| r.envelope.position);
    let last = ends.iter().filter_map(|r| rounds.observe(r)).last();
    Ok((rounds, last))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::envelope::{encode_record, push_stored, Envelope};
    use ledger::Recorded;
    use serde_json::json;

    fn record(stream: &str, position: u64, event: serde_json::Value) -> Vec<u8> {
        let envelope = Envelope {
            stream: StreamId::parse(stream).unwrap(),
            seq: position,
            position,
            event_id: format!("e{position}"),
            recorded_at_ms: 0,
            actor: "t".into(),
            prev_hash: [0; 32],
            hash: [u8::try_from(position).unwrap(); 32],
        };
        encode_record(&Recorded { envelope, event: ledger::event::from_canonical_json(&event).unwrap() })
    }

    /// A poll takes what the log holds, past a round's end too: the round's checkpoint still
    /// covers exactly the records up to its last game_ended, and the tree goes on after it.
    #[test]
    fn a_round_ending_inside_a_step_is_signed_at_its_last_game_end() {
        let dir = tempfile::tempdir().unwrap();
        let key = ledger_proof::SigningKey::from_seed("ledger.test/keeper", &[5; 32]).unwrap();
        let proofs = Proofs::open(dir.path(), key).unwrap();
        let seats = json!({"frederick":"p1","elisabeth":"p2","maria_theresa":"p3","pompadour":"p4"});
        let drawn = json!({"type":"qualifying_drawn","seed":1,"games":[
            {"game":"q1-t1","round":1,"table":1,"seats":seats},
            {"game":"q1-t2","round":1,"table":2,"seats":seats}]});
        let started = json!({"type": "game_started", "at_ms": 0, "ruleset": "wm2015"});
        let ended =
            json!({"type":"game_ended","outcome":"prussian_defensive_victory","winners":["prussia"],"objectives":{}});
        let records = [
            record("tournament/open", 1, drawn),
            record("game/q1-t1", 2, started.clone()),
            record("game/q1-t2", 3, started.clone()),
            record("game/q1-t1", 4, ended.clone()),
            record("game/q1-t2", 5, ended),
            record("game/loose", 6, started.clone()),
            record("game/loose", 7, started),
        ];
        let mut run = Vec::new();
        records.iter().for_each(|bytes| push_stored(&mut run, bytes));
        let mut rounds = Rounds::default();
        let mut heads = HeadMap::default();
        assert!(matches!(step(&proofs, &run, &mut rounds, &mut heads, None, false).unwrap(), Step::Kept));
        assert_eq!(proofs.tree_size(), 7);
        let signed = proofs.latest().expect("the round's checkpoint");
        assert_eq!((signed.checkpoint.size, signed.reason.as_str()), (5, "end of round 1 of tournament/open"));
        let leaves: Vec<_> = (1..=5u8).map(|p| ledger_proof::leaf_hash(&[p; 32])).collect();
        assert_eq!(signed.checkpoint.root, ledger_proof::root_of(&leaves));
        // Its heads are the streams' as of position 5, not 7: game/loose had no event yet.
        let head = |stream: &str, seq: u64| ledger_proof::StreamHead {
            stream: stream.into(),
            seq,
            hash: [u8::try_from(seq).unwrap(); 32],
        };
        let expected =
            ledger_proof::Heads::new([head("tournament/open", 1), head("game/q1-t1", 4), head("game/q1-t2", 5)]);
        assert_eq!(ledger_proof::HeadsRoot::of(&signed.checkpoint), Ok(Some(expected.root())));
        assert_eq!(proofs.head_proof("game/q1-t1", 5).unwrap().unwrap().head, head("game/q1-t1", 4));
        assert_eq!(proofs.head_proof("game/loose", 5).unwrap(), None);

        // The next step must start where the tree ends: a record out of place is a gap.
        let mut run = Vec::new();
        push_stored(
            &mut run,
            &record("game/loose", 9, json!({"type": "game_started", "at_ms": 0, "ruleset": "wm2015"})),
        );
        let stepped = step(&proofs, &run, &mut rounds, &mut heads, None, false);
        assert!(matches!(stepped, Err(KeeperError::Gap { after: 7, next: 9 })));
    }
}
