//! The index entries of records: what the tree must hold for readers to find them (see
//! [`super::layout`]). Built for each group as it is written, applied once the group is durable,
//! and rebuilt the same way from the records file for groups a crash left unindexed.

use super::layout;
use crate::storage::id_hash;
use ledger::StreamId;
use std::collections::BTreeMap;

/// Index entries as tree keys and values.
pub type Entries = Vec<(Vec<u8>, Vec<u8>)>;

/// Collects the entries of consecutive records, then the heads, and ends with where the
/// indexed records end.
#[derive(Default)]
pub struct IndexBuilder {
    runs: BTreeMap<StreamId, (u64, Vec<u64>)>,
    ids: BTreeMap<u8, Vec<u8>>,
    first_position: Option<u64>,
    entries: Entries,
}

impl IndexBuilder {
    /// A record of `stream` at `seq` and global `position`, stored under `event_id`.
    pub fn record(&mut self, stream: &StreamId, seq: u64, position: u64, event_id: &str) {
        self.first_position.get_or_insert(position);
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
        self.entries.push((layout::frame(first_position), offset.to_be_bytes().to_vec()));
    }

    /// A stream's new head.
    pub fn head(&mut self, stream: &StreamId, value: Vec<u8>) {
        self.entries.push((layout::head(stream), value));
    }

    /// The entries, with the next position and the end of the indexed records file.
    pub fn finish(mut self, next_position: u64, indexed_end: u64) -> Entries {
        if let Some(first_position) = self.first_position {
            for (bucket, entries) in self.ids {
                self.entries.push((layout::id_entries(bucket, first_position), entries));
            }
        }
        for (stream, (first_seq, positions)) in self.runs {
            self.entries.push((layout::run(&stream, first_seq), layout::encode_run(&positions)));
        }
        self.entries.push((layout::NEXT_POSITION.to_vec(), next_position.to_be_bytes().to_vec()));
        self.entries.push((layout::INDEXED_END.to_vec(), indexed_end.to_be_bytes().to_vec()));
        self.entries
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
