//! The layout of the sled tree (`ledger/v2`). Stream names never contain a NUL byte (their ids
//! are checked), so NUL separates a name from the seq that follows it.
//!
//! - `c<first position u64 BE>` → a **chunk**: records with consecutive global positions, each
//!   as a little-endian u32 length and the stored record (version byte + postcard). A group is
//!   written as few chunks of at most [`CHUNK_BYTES`] (one record may fill a chunk alone): few,
//!   large, sequential values instead of a key per record.
//! - `s<stream>\0<first seq u64 BE>` → a **run** of a stream: the positions of seqs `first`,
//!   `first + 1`, … that one group appended (postcard `Vec<u64>`).
//! - `i<event id>` → position (idempotent retries).
//! - `h<stream>` → version u64 BE ++ chain head (32 bytes) ++ snapshot of the folded state.
//! - `m/next_position` → u64 BE.
//!
//! Why [`CHUNK_BYTES`]: sled rewrites a whole leaf (up to 17 values) when it consolidates it, and
//! a leaf over 2 MiB (a quarter of the segment) would go to a separate blob file that syncing the
//! log file does not cover. 17 chunks of 64 KiB stay far below that.
//!
//! Public (hidden) so that the tamper tests can damage a log the way an attacker would.

use crate::error::StoreError;
use ledger::{Hash, StreamId};

/// A chunk holds records up to about this many bytes.
pub const CHUNK_BYTES: usize = 64 * 1024;

pub const TREE: &str = "ledger/v2";
pub const CHUNK_PREFIX: &[u8] = b"c";
pub const RUN_PREFIX: &[u8] = b"s";
pub const HEAD_PREFIX: &[u8] = b"h";
pub const ID_PREFIX: &[u8] = b"i";
pub const NEXT_POSITION: &[u8] = b"m/next_position";

pub fn chunk(first_position: u64) -> Vec<u8> {
    let mut key = CHUNK_PREFIX.to_vec();
    key.extend_from_slice(&first_position.to_be_bytes());
    key
}

pub fn position_of_chunk_key(key: &[u8]) -> Result<u64, StoreError> {
    decode_u64(key.strip_prefix(CHUNK_PREFIX).ok_or_else(|| damaged("chunk key"))?)
}

pub fn run_prefix(stream: &StreamId) -> Vec<u8> {
    let mut key = RUN_PREFIX.to_vec();
    key.extend_from_slice(stream.to_string().as_bytes());
    key.push(0);
    key
}

pub fn run(stream: &StreamId, first_seq: u64) -> Vec<u8> {
    let mut key = run_prefix(stream);
    key.extend_from_slice(&first_seq.to_be_bytes());
    key
}

/// The first seq a run key names.
pub fn seq_of_run_key(key: &[u8]) -> Result<u64, StoreError> {
    key.len().checked_sub(8).map_or_else(|| Err(damaged("run key")), |at| decode_u64(&key[at..]))
}

pub fn encode_run(positions: &[u64]) -> Vec<u8> {
    postcard::to_stdvec(positions).expect("positions always encode")
}

pub fn decode_run(bytes: &[u8]) -> Result<Vec<u64>, StoreError> {
    postcard::from_bytes(bytes).map_err(|_| damaged("stream run"))
}

pub fn event_id(event_id: &str) -> Vec<u8> {
    let mut key = ID_PREFIX.to_vec();
    key.extend_from_slice(event_id.as_bytes());
    key
}

pub fn head(stream: &StreamId) -> Vec<u8> {
    let mut key = HEAD_PREFIX.to_vec();
    key.extend_from_slice(stream.to_string().as_bytes());
    key
}

pub fn stream_of_head_key(key: &[u8]) -> Result<StreamId, StoreError> {
    let name = std::str::from_utf8(&key[1..]).map_err(|_| damaged("head key"))?;
    StreamId::parse(name).map_err(|r| StoreError::Corrupt(r.message))
}

/// version ++ hash ++ snapshot.
pub fn encode_head(version: u64, hash: &Hash, snapshot: Option<&[u8]>) -> Vec<u8> {
    let mut value = Vec::with_capacity(40 + snapshot.map_or(0, <[u8]>::len));
    value.extend_from_slice(&version.to_be_bytes());
    value.extend_from_slice(hash);
    value.extend_from_slice(snapshot.unwrap_or_default());
    value
}

/// The version, the hash and the snapshot (empty when none was stored).
pub fn decode_head(value: &[u8]) -> Result<(u64, Hash, &[u8]), StoreError> {
    if value.len() < 40 {
        return Err(damaged("stream head"));
    }
    let hash: Hash = value[8..40].try_into().map_err(|_| damaged("stream head"))?;
    Ok((decode_u64(&value[..8])?, hash, &value[40..]))
}

/// Appends one record to a chunk being built.
pub fn push_record(chunk: &mut Vec<u8>, record: &[u8]) {
    let len = u32::try_from(record.len()).expect("records are at most 64 KiB");
    chunk.extend_from_slice(&len.to_le_bytes());
    chunk.extend_from_slice(record);
}

/// The stored records of a chunk, in position order, without decoding them.
pub fn records_of(chunk: &[u8]) -> impl Iterator<Item = Result<&[u8], StoreError>> {
    spans_of(chunk).map(move |span| span.map(|(start, end)| &chunk[start..end]))
}

/// Where each record of a chunk starts and ends.
pub fn spans_of(chunk: &[u8]) -> Spans<'_> {
    Spans { chunk, at: 0 }
}

/// Iterator over a chunk's record spans; a damaged length ends it with an error.
pub struct Spans<'a> {
    chunk: &'a [u8],
    at: usize,
}

impl Iterator for Spans<'_> {
    type Item = Result<(usize, usize), StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.chunk.len() {
            return None;
        }
        let start = self.at + 4;
        let span = self.chunk.get(self.at..start).and_then(|len| {
            let len = usize::try_from(u32::from_le_bytes(len.try_into().ok()?)).ok()?;
            let end = start.checked_add(len)?;
            (end <= self.chunk.len()).then_some((start, end))
        });
        match span {
            Some((start, end)) => {
                self.at = end;
                Some(Ok((start, end)))
            }
            None => {
                self.at = self.chunk.len();
                Some(Err(damaged("chunk")))
            }
        }
    }
}

pub fn decode_u64(bytes: &[u8]) -> Result<u64, StoreError> {
    let array: [u8; 8] = bytes.try_into().map_err(|_| damaged("number"))?;
    Ok(u64::from_be_bytes(array))
}

fn damaged(what: &str) -> StoreError {
    StoreError::Corrupt(format!("malformed {what} in the sled tree"))
}
