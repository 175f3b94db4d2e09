//! Repair from a copy: the records that fail their checksums are taken back from another copy
//! of the log (the JetStream fan-out stream, an export, another ledgerd) and written where they
//! were, with ledgerd stopped.
//!
//! A record from the copy is accepted only when it is exactly the one that was lost: its
//! position is the damaged one, its hash recomputes from its contents, it points back to the
//! event before it in its stream and the event after it points back to it (SHA-256 chain
//! hashes), and, where the frame's table survived, its bytes match the record's length and
//! checksum there. Nothing else is changed: a frame is rewritten in place, at its length, so no
//! offset moves. A frame whose header was lost is rebuilt from the copy's records as frames of
//! the same total length (the number of frames follows from it); index keys pointing inside it
//! are dropped, since its frames may now begin elsewhere.

use super::frames::{self, Format, FrameWalk, Slot, Walked};
use super::{layout, Cursor, SledStorage};
use crate::error::{Damage, StoreError};
use crate::storage::Storage;
use ledger::envelope::{decode_record, encode_record, GENESIS};
use ledger::{Recorded, StreamId};
use std::collections::BTreeMap;
use std::os::unix::fs::FileExt;

/// One record taken back from the copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    pub position: u64,
    pub stream: StreamId,
    pub seq: u64,
    /// Where it was written in the records file.
    pub offset: u64,
}

/// What a repair did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RepairReport {
    pub repaired: Vec<Repaired>,
    /// Damage left as it was, and why (the copy lacks the record, or its record is not the one
    /// that was lost).
    pub left: Vec<(Damage, String)>,
}

/// Where repairs come from: the record at a global position, if the copy has it.
pub type Copy<'a> = dyn FnMut(u64) -> Result<Option<Recorded>, String> + 'a;

/// A frame (or a run of frames whose headers were lost) to rewrite in place.
struct Rewrite {
    offset: u64,
    bytes: Vec<u8>,
    /// Positions whose frame may now start elsewhere (their index keys are dropped).
    unkeyed: Option<(u64, u64)>,
}

impl SledStorage {
    /// Takes every damaged record back from `copy` and writes it where it was (see the module
    /// documentation). Run on a log no ledgerd serves (opened with
    /// [`SledStorage::open_existing`]).
    ///
    /// # Errors
    /// The records file cannot be read or written.
    pub fn repair(&self, copy: &mut Copy<'_>) -> Result<RepairReport, StoreError> {
        let file_len = self.records.metadata()?.len();
        let last_indexed = self.next_position()?.saturating_sub(1);
        let mut walk = FrameWalk::new(&self.records, file_len, last_indexed);
        let mut checker = Checker { storage: self, accepted: BTreeMap::new(), copy, file_len };
        let (mut report, mut rewrites) = (RepairReport::default(), Vec::new());
        while let Some(step) = walk.step()? {
            let found = match step {
                Walked::Frame(found) => found,
                Walked::Lost { offset, end, positions } => {
                    let (first, until) = (positions.start, positions.end);
                    if let Some(records) = checker.take(positions, offset, &mut report) {
                        match frames_of_length(first, offset, &records, end - offset) {
                            Some(bytes) => {
                                rewrites.push(Rewrite { offset, bytes, unkeyed: Some((first, until)) });
                                report.repaired.extend(repaired(&records, offset));
                            }
                            None => report.left.extend((first..until).map(|position| {
                                let damage = Damage { position, offset, event: None };
                                (damage, "the copy's records do not fill the damaged frames exactly".to_owned())
                            })),
                        }
                    }
                    continue;
                }
            };
            let reader = &walk.reader;
            let slots = reader.slots(&found)?;
            let first = found.header.first_position;
            if slots.iter().any(|slot| matches!(slot, Slot::Damaged { .. })) {
                match reader.table(&found) {
                    // The table says where each record lies: only the damaged ones are written.
                    Some(table) => {
                        let mut start = 0usize;
                        for ((position, slot), (end, sum)) in (first..).zip(&slots).zip(table) {
                            if let Slot::Damaged { at } = *slot {
                                if let Some(record) = checker.take_one(position, at, &mut report) {
                                    let bytes = encode_record(&record);
                                    if end.checked_sub(start + 4) == Some(bytes.len())
                                        && frames::record_sum(&bytes) == sum
                                    {
                                        let mut stored = Vec::with_capacity(bytes.len() + 4);
                                        layout::push_record(&mut stored, &bytes);
                                        rewrites.push(Rewrite { offset: at, bytes: stored, unkeyed: None });
                                        report.repaired.extend(repaired(std::slice::from_ref(&record), at));
                                    } else {
                                        checker.accepted.remove(&position);
                                        let damage = Damage { position, offset: at, event: None };
                                        let why = "the copy's record differs from the checksum the frame kept for it";
                                        report.left.push((damage, why.into()));
                                    }
                                }
                            }
                            start = end.max(start);
                        }
                    }
                    // No table: the frame is rebuilt whole, and must match its body's checksum.
                    None => {
                        let next = found.header.next_position();
                        if let Some(records) = checker.take(first..next, found.offset, &mut report) {
                            let stored: Vec<Vec<u8>> = records.iter().map(encode_record).collect();
                            let rebuilt = match found.header.format {
                                Format::V1 => frames::encode_v1(first, stored.iter().map(Vec::as_slice)),
                                Format::V2 => {
                                    frames::encode(first, found.header.durable_before, stored.iter().map(Vec::as_slice))
                                }
                            };
                            let header_len = found.header.header_len();
                            let body = rebuilt.get(header_len..header_len + found.header.body_len as usize);
                            if rebuilt.len() as u64 == found.header.frame_len()
                                && body.is_some_and(|b| found.header.checks(b))
                            {
                                rewrites.push(Rewrite { offset: found.offset, bytes: rebuilt, unkeyed: None });
                                report.repaired.extend(repaired(&records, found.offset));
                            } else {
                                report.left.extend((first..next).map(|position| {
                                    let damage = Damage { position, offset: found.offset, event: None };
                                    (damage, "the copy's records do not match the frame's checksum".to_owned())
                                }));
                            }
                        }
                    }
                }
            }
        }
        self.write_back(&rewrites)?;
        Ok(report)
    }

    /// Writes the rewrites, syncs, and drops index keys that may point inside rebuilt frames.
    fn write_back(&self, rewrites: &[Rewrite]) -> Result<(), StoreError> {
        if rewrites.is_empty() {
            return Ok(());
        }
        for rewrite in rewrites {
            self.records.write_all_at(&rewrite.bytes, rewrite.offset)?;
        }
        self.records.sync_data()?;
        let mut batch = sled::Batch::default();
        for (from, until) in rewrites.iter().filter_map(|r| r.unkeyed) {
            for key in self.tree.range(layout::frame(from)..layout::frame(until)).keys() {
                batch.remove(key?);
            }
        }
        self.tree.apply_batch(batch)?;
        self.checkpoint_index()?;
        Ok(())
    }
}

fn repaired(records: &[Recorded], offset: u64) -> impl Iterator<Item = Repaired> + '_ {
    records.iter().map(move |r| Repaired {
        position: r.envelope.position,
        stream: r.envelope.stream.clone(),
        seq: r.envelope.seq,
        offset,
    })
}

/// `records` (from `first` on) as frames filling exactly `len` bytes: a lost header hides how
/// the records were grouped, but not how many frames there were (each costs its header and
/// the table's entries), and any grouping of that many frames has the same length.
fn frames_of_length(first: u64, durable_before: u64, records: &[Recorded], len: u64) -> Option<Vec<u8>> {
    let stored: Vec<Vec<u8>> = records.iter().map(encode_record).collect();
    let one = frames::encode(first, durable_before, stored.iter().map(Vec::as_slice));
    let extra = len.checked_sub(one.len() as u64)?;
    if !extra.is_multiple_of(frames::HEADER as u64) {
        return None;
    }
    let n_frames = usize::try_from(extra / frames::HEADER as u64).ok()? + 1;
    if n_frames > stored.len() {
        return None;
    }
    // One record in each frame but the last, which takes the rest.
    let mut bytes = Vec::with_capacity(usize::try_from(len).ok()?);
    for (i, record) in stored.iter().take(n_frames - 1).enumerate() {
        bytes.extend(frames::encode(first + i as u64, durable_before, [record.as_slice()]));
    }
    let rest = &stored[n_frames - 1..];
    bytes.extend(frames::encode(first + (n_frames - 1) as u64, durable_before, rest.iter().map(Vec::as_slice)));
    (bytes.len() as u64 == len).then_some(bytes)
}

/// Checks records from the copy against the chain around them.
struct Checker<'s, 'c, 'f> {
    storage: &'s SledStorage,
    /// Records accepted so far, by position: later checks of their neighbours use them.
    accepted: BTreeMap<u64, Recorded>,
    copy: &'c mut Copy<'f>,
    file_len: u64,
}

impl Checker<'_, '_, '_> {
    /// The copy's records for `positions`, all accepted, or `None` (each refusal reported).
    fn take(
        &mut self,
        positions: std::ops::Range<u64>,
        offset: u64,
        report: &mut RepairReport,
    ) -> Option<Vec<Recorded>> {
        let mut records = Vec::new();
        for position in positions {
            records.push(self.take_one(position, offset, report)?);
        }
        Some(records)
    }

    fn take_one(&mut self, position: u64, offset: u64, report: &mut RepairReport) -> Option<Recorded> {
        let refuse = |why: String, report: &mut RepairReport| {
            report.left.push((Damage { position, offset, event: None }, why));
            None
        };
        let record = match (self.copy)(position) {
            Ok(Some(record)) => record,
            Ok(None) => return refuse("the copy does not hold it".into(), report),
            Err(why) => return refuse(format!("the copy could not be read: {why}"), report),
        };
        match self.check(position, &record) {
            Ok(()) => {
                self.accepted.insert(position, record.clone());
                Some(record)
            }
            Err(why) => {
                let e = &record.envelope;
                refuse(format!("the copy's {} #{} is not the event that was lost: {why}", e.stream, e.seq), report)
            }
        }
    }

    fn check(&self, position: u64, record: &Recorded) -> Result<(), String> {
        let e = &record.envelope;
        if e.position != position {
            return Err(format!("it says it is at position {}", e.position));
        }
        if record.recomputed_hash() != e.hash {
            return Err("its contents do not match its hash".into());
        }
        let around = self.storage.positions(&e.stream, e.seq.saturating_sub(1).max(1), 3).map_err(|x| x.to_string())?;
        let first_seq = e.seq.saturating_sub(1).max(1);
        let at = |seq: u64| usize::try_from(seq.checked_sub(first_seq)?).ok().and_then(|i| around.get(i).copied());
        if at(e.seq).is_some_and(|p| p != position) {
            return Err(format!("the index puts {} #{} at position {}", e.stream, e.seq, at(e.seq).unwrap_or(0)));
        }
        let prev_hash = match e.seq {
            1 => Some(GENESIS),
            seq => at(seq - 1).and_then(|p| self.record(p)).map(|r| r.envelope.hash),
        };
        if prev_hash.is_none_or(|h| h != e.prev_hash) {
            return Err("it does not point back to the event before it".into());
        }
        if let Some(next) = at(e.seq + 1).and_then(|p| self.record(p)) {
            if next.envelope.prev_hash != e.hash {
                return Err("the event after it does not point back to it".into());
            }
        }
        Ok(())
    }

    /// A record of the log, as accepted from the copy or read intact from the file.
    fn record(&self, position: u64) -> Option<Recorded> {
        if let Some(record) = self.accepted.get(&position) {
            return Some(record.clone());
        }
        let mut cursor = Cursor::for_lookups(self.storage, self.file_len);
        let bytes = self.storage.fetch(position, &mut cursor).ok()??;
        decode_record(bytes).ok()
    }
}
