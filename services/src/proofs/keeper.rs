//! The tree keeper: a task that follows the durable log in global position order, appends each
//! record's leaf to the tree, and signs a checkpoint at least every `interval` while the log
//! grows and at each round's end (at exactly the round's last event).
//!
//! At start it checks the tree against the log (a tree longer than the log, or whose last leaf
//! is not the log's record, is rebuilt from the log, said once) and, once caught up, against the
//! latest checkpoint signed before: a log that no longer gives that root, even rebuilt, is a log
//! changed behind the ledger's back, and the keeper raises the alarm and signs nothing more.

use super::rounds::{RoundEnded, Rounds};
use super::{leaf_of, Proofs};
use crate::proofs::checkpoints::SignedCheckpoint;
use ledger::{Event, Recorded, StreamId};
use ledger_store::{Filter, Log, StoreError};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// Records taken off the subscription and not yet in the tree, at most (then the subscription
/// waits, and past its live buffer reads from storage again).
const PENDING: usize = 65_536;

#[derive(Debug, thiserror::Error)]
enum KeeperError {
    #[error("the log failed: {0}")]
    Log(#[from] StoreError),
    #[error("the proof tree's files failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("the log skips from position {after} to {next}: a leaf's index must be its position less one")]
    Gap { after: u64, next: u64 },
    #[error("the subscription to the log ended")]
    Ended,
}

/// What one piece of the keeper's blocking work came to.
enum Step {
    Kept(Rounds),
    Signed,
    /// The tree must be rebuilt from the log, for this reason.
    Rebuild(String),
}

fn now_ms() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(work).await.expect("the keeper's blocking work does not panic")
}

/// Keeps the tree until `stop` turns true. A failure of the log or of the tree's files stops
/// the keeper (logged, and the alarm raised: checkpoints stop) without stopping ledgerd.
pub async fn run(proofs: Arc<Proofs>, log: Arc<Log>, interval: Duration, mut stop: watch::Receiver<bool>) {
    let kept = tokio::select! {
        _ = stop.wait_for(|s| *s) => return,
        kept = keep(&proofs, &log, interval) => kept,
    };
    if let Err(error) = kept {
        proofs.raise(format!("the tree keeper stopped: {error}"));
    }
}

async fn keep(proofs: &Arc<Proofs>, log: &Arc<Log>, interval: Duration) -> Result<(), KeeperError> {
    let (p, l) = (Arc::clone(proofs), Arc::clone(log));
    let mut rebuild = blocking(move || mismatch(&p, &l)).await?;
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
    loop {
        if let Some(why) = rebuild.take() {
            tracing::warn!("rebuilding the proof tree from the log: {why}");
            proofs.tree.write().expect("not poisoned").clear()?;
            rebuilt = true;
        }
        if let Some(why) =
            check.as_deref().and_then(|signed| checked(proofs, signed, rebuilt).transpose()).transpose()?
        {
            rebuild = Some(why);
            continue;
        }
        if check.as_ref().is_some_and(|c| proofs.tree_size() >= c.checkpoint.size) {
            check = None;
        }
        let (p, l) = (Arc::clone(proofs), Arc::clone(log));
        let (rounds, ended) = blocking(move || rounds_so_far(&l, p.tree_size())).await?;
        let uncovered = |e: &RoundEnded| proofs.latest().is_none_or(|c| c.checkpoint.size < e.position);
        if let Some(ended) = ended.filter(uncovered) {
            sign(proofs, reason_of(&ended, " (before this start)")).await?;
        }
        if proofs.latest().is_none() {
            sign(proofs, "start".into()).await?;
        }
        let mut events = log.subscribe(Filter::All, proofs.tree_size() + 1);
        let mut ticker = tokio::time::interval(interval);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticker.tick().await;
        // Records are taken off the subscription while the batch before is written (or a
        // checkpoint signed), so that a slow write or sync never lets the live feed overflow,
        // which would send the subscription back to storage to read and decode them again.
        let mut pending: Vec<Arc<Recorded>> = Vec::new();
        let mut working: Option<tokio::task::JoinHandle<Result<Step, KeeperError>>> = None;
        let mut rounds = Some(rounds);
        let mut sign_due = false;
        rebuild = loop {
            if working.is_none() {
                let p = Arc::clone(proofs);
                if sign_due {
                    sign_due = false;
                    working = Some(tokio::task::spawn_blocking(move || {
                        p.sign("interval", now_ms())?;
                        Ok(Step::Signed)
                    }));
                } else if !pending.is_empty() {
                    let (batch, expected) = (std::mem::take(&mut pending), check.clone());
                    let kept = rounds.take().expect("no batch in flight");
                    working =
                        Some(tokio::task::spawn_blocking(move || step(&p, batch, kept, expected.as_deref(), rebuilt)));
                }
            }
            tokio::select! {
                record = events.recv(), if pending.len() < PENDING => {
                    pending.push(record.ok_or(KeeperError::Ended)??);
                    while pending.len() < PENDING {
                        match events.try_recv() {
                            Ok(record) => pending.push(record?),
                            Err(_) => break,
                        }
                    }
                }
                done = async { working.as_mut().expect("guarded by is_some").await }, if working.is_some() => {
                    working = None;
                    match done.expect("the keeper's blocking work does not panic")? {
                        Step::Kept(kept) => rounds = Some(kept),
                        Step::Signed => {}
                        Step::Rebuild(why) => break Some(why),
                    }
                    if check.as_ref().is_some_and(|c| proofs.tree_size() >= c.checkpoint.size) {
                        check = None;
                    }
                }
                _ = ticker.tick() => sign_due = true,
            }
        };
    }
}

async fn sign(proofs: &Arc<Proofs>, reason: String) -> Result<(), KeeperError> {
    let p = Arc::clone(proofs);
    blocking(move || p.sign(&reason, now_ms())).await?;
    Ok(())
}

fn reason_of(ended: &RoundEnded, suffix: &str) -> String {
    format!("end of round {} of {}{suffix}", ended.round, ended.tournament)
}

/// Appends a batch's leaves, signing at each round's end. The checkpoint signed before this
/// start is checked the moment the tree reaches its size, before anything is signed past it.
fn step(
    proofs: &Proofs,
    batch: Vec<Arc<Recorded>>,
    mut rounds: Rounds,
    check: Option<&SignedCheckpoint>,
    rebuilt: bool,
) -> Result<Step, KeeperError> {
    let mut leaves = Vec::with_capacity(batch.len());
    let start = proofs.tree_size();
    let flush =
        |leaves: &mut Vec<ledger_proof::Hash>| proofs.tree.write().expect("not poisoned").append(&leaves.split_off(0));
    for (record, position) in batch.iter().zip(start + 1..) {
        if record.envelope.position != position {
            return Err(KeeperError::Gap { after: position - 1, next: record.envelope.position });
        }
        leaves.push(leaf_of(record));
        if let Some(signed) = check.filter(|c| c.checkpoint.size == position) {
            flush(&mut leaves)?;
            if let Some(why) = checked(proofs, signed, rebuilt)? {
                return Ok(Step::Rebuild(why));
            }
        }
        if let Some(ended) = rounds.observe(record) {
            flush(&mut leaves)?;
            proofs.sign(&reason_of(&ended, ""), now_ms())?;
        }
    }
    flush(&mut leaves)?;
    Ok(Step::Kept(rounds))
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
