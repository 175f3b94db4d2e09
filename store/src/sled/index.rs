//! The index entries of records: what the tree must hold for readers to find them (see
//! [`super::layout`]). Built as groups become durable (many groups into one builder, see
//! [`super::unindexed`]), and rebuilt the same way from the records file for groups a crash
//! left unindexed. Until a builder's entries are in the tree, readers look them up here.

use super::layout;
use crate::storage::id_hash;
use ledger::StreamId;
use std::collections::{BTreeMap, HashMap};

/// Index entries as tree keys and values.
pub type Entries = Vec<(Vec<u8>, Vec<u8>)>;

/// Collects the entries of consecutive records (a stream's records among them have consecutive
/// seqs, as they do in the log), the frames that get keys, and the newest head of each stream.
#[derive(Default)]
pub struct IndexBuilder {
    runs: HashMap<StreamId, (u64, Vec<u64>)>,
    ids: BTreeMap<u8, Vec<u8>>,
    frames: Vec<(u64, u64)>,
    heads: HashMap<StreamId, Vec<u8>>,
    first_position: Option<u64>,
    records: usize,
}

impl IndexBuilder {
    /// A record of `stream` at `seq` and global `position`, stored under `event_id`.
    pub fn record(&mut self, stream: &StreamId, seq: u64, position: u64, event_id: &str) {
        self.first_position.get_or_insert(position);
        self.records += 1;
        match self.runs.get_mut(stream) {
            Some((_, positions)) => positions.push(position),
            None => {
                self.runs.insert(stream.clone(), (seq, vec![position]));
            }
        }
        let hash = id_hash(event_id);
        layout::push_id_entry(self.ids.entry(layout::id_bucket(hash)).or_default(), hash, position);
    }

    /// A frame that gets a key of its own (see [`layout::FRAME_PREFIX`]).
    pub fn frame(&mut self, first_position: u64, offset: u64) {
        self.frames.push((first_position, offset));
    }

    /// A stream's new head (a later one replaces an earlier one).
    pub fn head(&mut self, stream: &StreamId, value: Vec<u8>) {
        self.heads.insert(stream.clone(), value);
    }

    /// How many records it indexes.
    pub fn len(&self) -> usize {
        self.records
    }

    /// The positions of `stream`'s seqs from `from_seq` on that it holds, at most `limit`.
    pub fn positions(&self, stream: &StreamId, from_seq: u64, limit: usize) -> Vec<u64> {
        let Some((first_seq, positions)) = self.runs.get(stream) else { return Vec::new() };
        let skip = usize::try_from(from_seq.saturating_sub(*first_seq)).unwrap_or(usize::MAX);
        positions.iter().skip(skip).take(limit).copied().collect()
    }

    /// The first seq of `stream` it holds.
    pub fn first_seq(&self, stream: &StreamId) -> Option<u64> {
        self.runs.get(stream).map(|(first, _)| *first)
    }

    /// The positions of the records whose id hashes to `hash`, newest first.
    pub fn ids(&self, hash: u64) -> Vec<u64> {
        let Some(entries) = self.ids.get(&layout::id_bucket(hash)) else { return Vec::new() };
        let found = layout::id_entries_of(entries).expect("built whole here");
        let mut positions: Vec<u64> = found.filter(|&(h, _)| h == hash).map(|(_, position)| position).collect();
        positions.reverse();
        positions
    }

    /// The offset of the last keyed frame starting at or before `position`.
    pub fn frame_before(&self, position: u64) -> Option<u64> {
        self.frames.iter().rev().find(|(first, _)| *first <= position).map(|(_, offset)| *offset)
    }

    /// A stream's newest head here, encoded.
    pub fn head_of(&self, stream: &StreamId) -> Option<&[u8]> {
        self.heads.get(stream).map(Vec::as_slice)
    }

    /// Every head here, encoded.
    pub fn heads(&self) -> impl Iterator<Item = (&StreamId, &[u8])> {
        self.heads.iter().map(|(stream, value)| (stream, value.as_slice()))
    }

    /// The entries, with the next position and the end of the indexed records file.
    pub fn entries(&self, next_position: u64, indexed_end: u64) -> Entries {
        let mut entries = Entries::with_capacity(self.frames.len() + self.ids.len() + 2 * self.runs.len() + 2);
        for (first_position, offset) in &self.frames {
            entries.push((layout::frame(*first_position), offset.to_be_bytes().to_vec()));
        }
        if let Some(first_position) = self.first_position {
            for (bucket, ids) in &self.ids {
                entries.push((layout::id_entries(*bucket, first_position), ids.clone()));
            }
        }
        for (stream, (first_seq, positions)) in &self.runs {
            entries.push((layout::run(stream, *first_seq), layout::encode_run(positions)));
        }
        for (stream, value) in &self.heads {
            entries.push((layout::head(stream), value.clone()));
        }
        entries.push((layout::NEXT_POSITION.to_vec(), next_position.to_be_bytes().to_vec()));
        entries.push((layout::INDEXED_END.to_vec(), indexed_end.to_be_bytes().to_vec()));
        entries
    }
}

/// Where frame keys go: a frame gets one when it starts [`layout::CHUNK_BYTES`] or more after
/// the last frame that has one.
#[derive(Debug, Clone, Copy, Default)]
pub struct FrameKeys {
    /// The offset of the last frame with a key.
    pub last: Option<u64>,
}

impl FrameKeys {
    /// Whether the frame at `offset` gets a key (and remembers it if so).
    pub fn takes(&mut self, offset: u64) -> bool {
        let takes = self.last.is_none_or(|last| offset >= last + layout::CHUNK_BYTES as u64);
        if takes {
            self.last = Some(offset);
        }
        takes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_see_what_the_entries_will_hold() {
        let (a, b) = (StreamId::game("a").unwrap(), StreamId::game("b").unwrap());
        let mut index = IndexBuilder::default();
        index.frame(10, 4096);
        index.record(&a, 3, 10, "a3");
        index.record(&b, 1, 11, "b1");
        index.record(&a, 4, 12, "a4");
        index.head(&a, vec![1]);
        index.head(&a, vec![2]);
        assert_eq!(index.len(), 3);
        assert_eq!(index.positions(&a, 1, 10), vec![10, 12]);
        assert_eq!(index.positions(&a, 4, 10), vec![12]);
        assert_eq!(index.positions(&a, 3, 1), vec![10]);
        assert_eq!(index.first_seq(&b), Some(1));
        assert_eq!(index.ids(id_hash("a4")), vec![12]);
        assert!(index.ids(id_hash("nope")).is_empty());
        assert_eq!(index.frame_before(11), Some(4096));
        assert_eq!(index.frame_before(9), None);
        assert_eq!(index.head_of(&a), Some(&[2][..]));
        let entries = index.entries(13, 9000);
        assert!(entries.contains(&(layout::run(&a, 3), layout::encode_run(&[10, 12]))));
        assert!(entries.contains(&(layout::head(&a), vec![2])));
        assert_eq!(entries.iter().filter(|(k, _)| k.starts_with(layout::HEAD_PREFIX)).count(), 1);
        assert_eq!(entries.last().unwrap(), &(layout::INDEXED_END.to_vec(), 9000u64.to_be_bytes().to_vec()));
    }
}
