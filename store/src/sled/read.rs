//! Reading the records file: a [`Cursor`] that reads records by position (keeping the frame
//! read last, so that reading on in log order costs no lookup), a stream's positions from the
//! index (the tree, then the entries still gathering in [`super::unindexed`]), and the walks
//! that hand the readers the stored bytes of a stream's records or of the whole log's, never
//! past the durable end.

use super::frames::{Found, FrameReader, Slot};
use super::{layout, SledStorage};
use crate::error::{Damage, StoreError};
use crate::storage::StreamInfo;
use ledger::envelope::decode_record;
use ledger::{Recorded, StreamId};
use std::sync::atomic::Ordering;

/// Reads records by position, keeping the frame read last, so that consecutive positions cost
/// no lookup.
pub(super) struct Cursor<'a> {
    reader: FrameReader<'a>,
    current: Option<(Found, Vec<Slot>)>,
}

/// A record as the cursor found it: its bytes, or the damage that hides them.
type Fetched<'c> = Result<&'c [u8], Damage>;

impl<'a> Cursor<'a> {
    /// A cursor for reading on in log order (the whole log's records).
    pub(super) fn new(storage: &'a SledStorage, end: u64) -> Self {
        Cursor { reader: FrameReader::new(&storage.records, end), current: None }
    }

    /// A cursor for records here and there (a stream's, an event by its id): its first reads are
    /// small ([`FrameReader::for_lookups`]), so that a lookup costs its frames, not a window.
    pub(super) fn for_lookups(storage: &'a SledStorage, end: u64) -> Self {
        Cursor { reader: FrameReader::for_lookups(&storage.records, end), current: None }
    }

    /// Whether the current frame holds `position`.
    fn holds(&self, position: u64) -> bool {
        self.current
            .as_ref()
            .is_some_and(|(found, _)| (found.header.first_position..found.header.next_position()).contains(&position))
    }

    fn in_current(&self, position: u64) -> Option<Fetched<'_>> {
        let (found, slots) = self.current.as_ref()?;
        let index = usize::try_from(position.checked_sub(found.header.first_position)?).ok()?;
        Some(match *slots.get(index)? {
            Slot::Intact(start, end) => Ok(self.reader.record(found, (start, end))),
            Slot::Damaged { at } => Err(Damage { position, offset: at, event: None }),
        })
    }

    /// The offset of the frame after the current one, when `position` is its first.
    fn next_after_current(&self, position: u64) -> Option<u64> {
        let (found, _) = self.current.as_ref()?;
        (found.header.next_position() == position).then(|| found.next_offset())
    }

    /// Makes the frame holding `position` current, walking from `offset` (a frame at or
    /// before it). `Ok(false)`: no such frame within the readable end. A frame whose header is
    /// damaged is stepped over to the next one that checks; a position inside it is damaged.
    fn load(&mut self, offset: u64, position: u64) -> Result<Result<bool, Damage>, StoreError> {
        let mut at = offset;
        if let Some((found, _)) = &self.current {
            // Walking on from the current frame is shorter when it lies between.
            if found.offset >= offset && found.header.next_position() <= position {
                at = found.next_offset();
            }
        }
        self.current = None;
        loop {
            let found = match self.reader.frame_unchecked(at) {
                Ok(Some(found)) => found,
                Ok(None) => return Ok(Ok(false)),
                // Within the durable end, a frame that does not start where one should is
                // damage: its records are lost, up to the next frame that checks.
                Err(StoreError::Corrupt(_)) => match self.reader.next_header_after(at)? {
                    Some(next) if position >= next.header.first_position => next,
                    _ => return Ok(Err(Damage { position, offset: at, event: None })),
                },
                Err(other) => return Err(other),
            };
            if position < found.header.next_position() {
                if position < found.header.first_position {
                    return Err(StoreError::Corrupt(format!(
                        "the records file is damaged at byte {}: position {position} is not where it should be",
                        found.offset
                    )));
                }
                let slots = self.reader.slots(&found)?;
                self.current = Some((found, slots));
                return Ok(Ok(true));
            }
            at = found.next_offset();
        }
    }
}

impl SledStorage {
    /// The offset of the keyed frame at or before `position` (0 when none is keyed yet).
    fn frame_before(&self, position: u64) -> Result<u64, StoreError> {
        // Offsets grow with positions: the larger of the two is the nearer frame.
        let gathered = self.unindexed.lock().index.frame_before(position).unwrap_or(0);
        let indexed = match self.tree.range(layout::frame(0)..=layout::frame(position)).next_back() {
            Some(found) => layout::decode_u64(&found?.1)?,
            None => 0,
        };
        Ok(gathered.max(indexed))
    }

    /// The stored bytes of the record at a global position, through `cursor`; `Ok(None)` when
    /// it is not within the readable end.
    ///
    /// # Errors
    /// The record is damaged ([`StoreError::Damaged`], noted for health), or the file cannot
    /// be read.
    pub(super) fn fetch<'c>(&self, position: u64, cursor: &'c mut Cursor<'_>) -> Result<Option<&'c [u8]>, StoreError> {
        if !cursor.holds(position) {
            // Reading on in log order needs no lookup: the next frame follows the current one.
            let from = match cursor.next_after_current(position) {
                Some(offset) => offset,
                None => self.frame_before(position)?,
            };
            match cursor.load(from, position)? {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(damage) => return Err(self.damage.noted(damage)),
            }
        }
        match cursor.in_current(position) {
            Some(Ok(bytes)) => Ok(Some(bytes)),
            Some(Err(damage)) => Err(self.damage.noted(damage)),
            None => Ok(None),
        }
    }

    /// The positions of a stream's indexed events from `from_seq` on, in seq order, at most
    /// `limit`: those in the tree, then those still gathering (looked up first, see
    /// [`super::unindexed`]).
    pub(super) fn positions(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Result<Vec<u64>, StoreError> {
        let (gathered_from, gathered) = {
            let gathered = self.unindexed.lock();
            let first = gathered.index.first_seq(stream);
            (first.map(|first| first.max(from_seq)), gathered.index.positions(stream, from_seq, limit))
        };
        let mut positions = Vec::new();
        let prefix = layout::run_prefix(stream);
        // The run holding `from_seq` starts at or before it.
        let start = match self.tree.range(layout::run(stream, 0)..=layout::run(stream, from_seq)).next_back() {
            Some(found) => found?.0.to_vec(),
            None => layout::run(stream, from_seq),
        };
        let mut end = prefix;
        *end.last_mut().expect("not empty") = 1;
        for item in self.tree.range(start..end) {
            if positions.len() >= limit {
                break;
            }
            let (key, value) = item?;
            let first_seq = layout::seq_of_run_key(&key)?;
            let skip = usize::try_from(from_seq.saturating_sub(first_seq)).unwrap_or(usize::MAX);
            let wanted = limit - positions.len();
            positions.extend(layout::decode_run(&value)?.into_iter().skip(skip).take(wanted));
        }
        // What a flush moved to the tree meanwhile is in both: the gathered part continues
        // after the tree's last seq.
        if let Some(gathered_from) = gathered_from {
            let next_seq = from_seq + positions.len() as u64;
            let skip = usize::try_from(next_seq.saturating_sub(gathered_from)).unwrap_or(usize::MAX);
            let wanted = limit - positions.len();
            positions.extend(gathered.into_iter().skip(skip).take(wanted));
        }
        Ok(positions)
    }

    /// Hands `each` the stored bytes and seq of up to `limit` indexed records of a stream from
    /// `from_seq`, stopping after position `until`.
    ///
    /// # Errors
    /// A damaged record ([`StoreError::Damaged`], naming the stream and seq), a record that is
    /// not the one the index promised (the index is damaged), or a failed read.
    pub(super) fn stream_records(
        &self,
        stream: &StreamId,
        from_seq: u64,
        limit: usize,
        until: u64,
        mut each: impl FnMut(&[u8], u64) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let from_seq = from_seq.max(1);
        let mut positions = self.positions(stream, from_seq, limit)?;
        if let Some(beyond) = positions.iter().position(|&p| p > until) {
            positions.truncate(beyond);
        }
        // The readable end is read after the positions: the sync thread moves it before it
        // indexes a group, so every position found is within it.
        let mut cursor = Cursor::for_lookups(self, self.durable_end.load(Ordering::Acquire));
        let prefix = layout::stored_prefix(stream);
        for (seq, position) in (from_seq..).zip(positions) {
            let bytes = match self.fetch(position, &mut cursor) {
                Ok(Some(bytes)) => bytes,
                Ok(None) => {
                    return Err(StoreError::Corrupt(format!(
                        "{stream} points at position {position}, which is missing"
                    )))
                }
                Err(StoreError::Damaged(mut damage)) => {
                    damage.event = Some((stream.clone(), seq));
                    return Err(StoreError::Damaged(damage));
                }
                Err(other) => return Err(other),
            };
            if layout::seq_and_position(bytes, &prefix) != Some((seq, position)) {
                return Err(StoreError::Corrupt(format!(
                    "the index of {stream} is damaged: it says event #{seq} is at position {position}, which holds \
                     another; `ledgerctl repair --reindex` rebuilds it from the records file"
                )));
            }
            each(bytes, seq)?;
        }
        Ok(())
    }

    /// [`SledStorage::stream_records`], decoded.
    pub(super) fn stream_decoded(
        &self,
        stream: &StreamId,
        from_seq: u64,
        limit: usize,
        until: u64,
    ) -> Result<Vec<Recorded>, StoreError> {
        let mut records = Vec::new();
        self.stream_records(stream, from_seq, limit, until, |bytes, _| {
            records.push(decode_record(bytes).map_err(StoreError::Corrupt)?);
            Ok(())
        })?;
        Ok(records)
    }

    /// Hands `each` the stored bytes and position of up to `limit` durable records of the
    /// whole log from `from_position` on, walking the frames in file order.
    ///
    /// # Errors
    /// A damaged record ([`StoreError::Damaged`]) or a failed read.
    pub(super) fn all_records(
        &self,
        from_position: u64,
        limit: usize,
        mut each: impl FnMut(&[u8], u64) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let durable = self.durable.load(Ordering::Acquire);
        let from = from_position.max(1);
        let mut cursor = Cursor::new(self, self.durable_end.load(Ordering::Acquire));
        for position in (from..=durable).take(limit) {
            match self.fetch(position, &mut cursor)? {
                Some(bytes) => each(bytes, position)?,
                None => break,
            }
        }
        Ok(())
    }

    /// A stream's head as far as it is durable (`None`: nothing of it is yet).
    pub(super) fn durable_head(&self, info: StreamInfo) -> Result<Option<StreamInfo>, StoreError> {
        let durable = self.durable.load(Ordering::Acquire);
        let newest = self.positions(&info.stream, info.version, 1)?.first().copied();
        if newest.is_some_and(|p| p <= durable) {
            return Ok(Some(info));
        }
        // Rare: a group is between its indexing and the durable mark moving past it.
        Ok(self.stream_decoded(&info.stream, 1, usize::MAX, durable)?.last().map(|last| StreamInfo {
            stream: info.stream.clone(),
            version: last.envelope.seq,
            head_hash: last.envelope.hash,
        }))
    }
}
