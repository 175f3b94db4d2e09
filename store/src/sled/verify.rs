//! Recomputes every stream's hash chain from the bytes sled holds, to prove nothing was altered:
//! a changed byte, a deleted event or a reordered pair all break the chain at a named seq.
//!
//! It reads every frame of the records file in order (each record must sit at the position it
//! names; a record that fails its checksum breaks its stream there, and the break names where
//! it lies), then checks each stream's recorded head and the runs readers use to find its
//! events.

use super::frames::{FrameWalk, Slot, Walked};
use super::layout;
use super::SledStorage;
use crate::error::StoreError;
use ledger::envelope::{decode_record, ChainBreak, GENESIS};
use ledger::{Hash, StreamId};
use std::collections::BTreeMap;
use std::sync::atomic::Ordering;

/// What verification found for one stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamVerdict {
    pub stream: StreamId,
    /// Events that verified before the break (all of them when intact).
    pub verified: u64,
    /// The chain head when intact.
    pub head: Option<Hash>,
    pub broken: Option<ChainBreak>,
}

/// One stream's chain as the walk found it so far.
struct Progress {
    prev: Hash,
    verified: u64,
    positions: Vec<u64>,
    broken: Option<ChainBreak>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress { prev: GENESIS, verified: 0, positions: Vec::new(), broken: None }
    }
}

impl Progress {
    fn break_at(&mut self, seq: u64, reason: String) {
        self.broken.get_or_insert(ChainBreak { seq, reason });
    }
}

impl SledStorage {
    /// Verifies every stream found in the tree, by its records, its recorded head and its runs.
    ///
    /// # Errors
    /// sled itself cannot be read (its own checksums failed, for instance), or a record is so
    /// damaged that it names no stream.
    pub fn verify(&self) -> Result<Vec<StreamVerdict>, StoreError> {
        let mut streams: BTreeMap<StreamId, Progress> = BTreeMap::new();
        let mut damaged: BTreeMap<u64, u64> = BTreeMap::new();
        let (end, last) = (self.durable_end.load(Ordering::Acquire), self.durable.load(Ordering::Acquire));
        let mut walk = FrameWalk::new(&self.records, end, last);
        while let Some(step) = walk.step()? {
            let found = match step {
                Walked::Frame(found) => found,
                Walked::Lost { offset, positions, .. } => {
                    damaged.extend(positions.map(|p| (p, offset)));
                    continue;
                }
            };
            let reader = &walk.reader;
            for (slot, state) in (found.header.first_position..).zip(reader.slots(&found)?) {
                let bytes = match state {
                    Slot::Intact(start, end) => reader.record(&found, (start, end)),
                    Slot::Damaged { at } => {
                        damaged.insert(slot, at);
                        continue;
                    }
                };
                let record = decode_record(bytes).map_err(|e| StoreError::Corrupt(format!("position {slot}: {e}")))?;
                let e = &record.envelope;
                let progress = streams.entry(e.stream.clone()).or_default();
                if progress.broken.is_some() {
                    continue;
                }
                let expected = progress.verified + 1;
                if e.position != slot || e.seq < expected {
                    progress.break_at(expected, format!("the stored event says it is {} #{}", e.stream, e.seq));
                } else if e.seq > expected {
                    progress.break_at(expected, format!("event {expected} is missing (the next stored is {})", e.seq));
                } else if e.prev_hash != progress.prev {
                    progress.break_at(expected, "does not point back to the event before it".into());
                } else if record.recomputed_hash() != e.hash {
                    progress.break_at(expected, "its contents do not match its hash".into());
                } else {
                    progress.prev = e.hash;
                    progress.verified = expected;
                    progress.positions.push(slot);
                }
            }
        }
        let mut heads = BTreeMap::new();
        for item in self.tree.scan_prefix(layout::HEAD_PREFIX) {
            let (key, value) = item?;
            let (version, hash, _) = layout::decode_head(&value)?;
            heads.insert(layout::stream_of_head_key(&key)?, (version, hash));
        }
        for stream in heads.keys() {
            streams.entry(stream.clone()).or_default();
        }
        let mut verdicts = Vec::with_capacity(streams.len());
        for (stream, mut progress) in streams {
            if progress.broken.is_none() {
                check_head(&mut progress, heads.get(&stream).copied());
            }
            if progress.broken.is_none() {
                self.check_runs(&stream, &mut progress)?;
            }
            self.name_damage(&stream, &mut progress, &damaged)?;
            let intact = progress.broken.is_none();
            verdicts.push(StreamVerdict {
                stream,
                verified: progress.verified,
                head: intact.then_some(progress.prev),
                broken: progress.broken,
            });
        }
        Ok(verdicts)
    }

    /// A break at an event the index places on a damaged record says so, and where.
    fn name_damage(
        &self,
        stream: &StreamId,
        progress: &mut Progress,
        damaged: &BTreeMap<u64, u64>,
    ) -> Result<(), StoreError> {
        let Some(broken) = progress.broken.as_mut() else { return Ok(()) };
        let Some(position) = self.positions(stream, broken.seq, 1)?.first().copied() else { return Ok(()) };
        if let Some(&offset) = damaged.get(&position) {
            broken.reason = format!(
                "it no longer matches its checksum (position {position}, byte {offset} of the records file); \
                 `ledgerctl repair` takes it back from a copy"
            );
        }
        Ok(())
    }

    /// The runs must lead readers to exactly the events the walk verified.
    fn check_runs(&self, stream: &StreamId, progress: &mut Progress) -> Result<(), StoreError> {
        let mut indexed = Vec::with_capacity(progress.positions.len());
        for item in self.tree.scan_prefix(layout::run_prefix(stream)) {
            let (key, value) = item?;
            let first_seq = layout::seq_of_run_key(&key)?;
            if first_seq != indexed.len() as u64 + 1 {
                progress.break_at(first_seq, format!("the stream's index skips to event {first_seq}"));
                return Ok(());
            }
            indexed.extend(layout::decode_run(&value)?);
        }
        let stored = &progress.positions;
        if let Some(at) = (0..stored.len().max(indexed.len())).find(|&i| stored.get(i) != indexed.get(i)) {
            let seq = at as u64 + 1;
            progress.break_at(seq, format!("the stream's index does not lead to event {seq} where it is stored"));
        }
        Ok(())
    }
}

fn check_head(progress: &mut Progress, recorded: Option<(u64, Hash)>) {
    let verified = progress.verified;
    match recorded {
        Some((version, hash)) if version == verified && hash == progress.prev => {}
        Some((version, _)) if version > verified => {
            progress
                .break_at(verified + 1, format!("the stream's head says {version} events, only {verified} are stored"));
        }
        Some((version, _)) => progress.break_at(
            version.min(verified),
            format!("the stream's head (version {version}) does not match its last event"),
        ),
        None => progress.break_at(1, "the stream has events but no recorded head".into()),
    }
}
