//! The layout of the sled tree (`ledger/v2`), which since the third layout holds only the
//! indexes: the records themselves are in the records file ([`super::frames`]). Stream names
//! never contain a NUL byte (their ids are checked), so NUL separates a name from the seq that
//! follows it.
//!
//! - `f<first position u64 BE>` → the offset (u64 BE) of a frame in the records file. Not every
//!   frame has one: a frame gets a key when it starts at least [`CHUNK_BYTES`] after the last
//!   frame that has one, so a reader finds a position by one lookup and a walk over at most
//!   that many bytes of frame headers.
//! - `s<stream>\0<first seq u64 BE>` → a **run** of a stream: the positions of seqs `first`,
//!   `first + 1`, … that one group appended (postcard `Vec<u64>`).
//! - `y<bucket u8><first position u64 BE>` → **id entries**: for the events of one group whose
//!   id hash ([`crate::storage::id_hash`]) falls in the bucket (its top byte), each as hash
//!   u64 BE ++ position u64 BE. A key per bucket per group, each bucket's keys in position order:
//!   a key per event inserted in id order (the first version of this layout) made sled copy and
//!   split tree nodes on every event, which dominated both the writer's time and its memory.
//!   A lookup scans one bucket (1/256 of the ids), newest first.
//! - `h<stream>` → version u64 BE ++ chain head (32 bytes) ++ snapshot of the folded state.
//! - `m/next_position` → u64 BE; `m/indexed_end` → u64 BE: the records file up to this offset
//!   is indexed. Both change in the same atomic batch as the entries they cover.
//! - `c<first position u64 BE>` (the second layout only) → a **chunk**: records with
//!   consecutive positions, each as a little-endian u32 length and the stored record. Opening
//!   such a log moves the chunks into the records file ([`super::migrate`]).
//!
//! Public (hidden) so that the tamper tests can damage a log the way an attacker would.

use crate::error::StoreError;
use ledger::{Hash, StreamId};

/// A frame key is written at most every this many bytes of the records file (and a chunk of
/// the second layout held records up to about this many bytes).
pub const CHUNK_BYTES: usize = 64 * 1024;

pub const TREE: &str = "ledger/v2";
pub const CHUNK_PREFIX: &[u8] = b"c";
pub const RUN_PREFIX: &[u8] = b"s";
pub const HEAD_PREFIX: &[u8] = b"h";
pub const ID_PREFIX: &[u8] = b"y";
/// The first version of the id index: `i<event id>` → position, moved to [`ID_PREFIX`] on open.
pub const OLD_ID_PREFIX: &[u8] = b"i";
pub const NEXT_POSITION: &[u8] = b"m/next_position";
pub const FRAME_PREFIX: &[u8] = b"f";
pub const INDEXED_END: &[u8] = b"m/indexed_end";

pub fn frame(first_position: u64) -> Vec<u8> {
    let mut key = FRAME_PREFIX.to_vec();
    key.extend_from_slice(&first_position.to_be_bytes());
    key
}

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

/// The bucket of an id hash.
pub fn id_bucket(hash: u64) -> u8 {
    hash.to_be_bytes()[0]
}

/// The key of a group's entries in one bucket.
pub fn id_entries(bucket: u8, first_position: u64) -> Vec<u8> {
    let mut key = ID_PREFIX.to_vec();
    key.push(bucket);
    key.extend_from_slice(&first_position.to_be_bytes());
    key
}

/// Every key of one bucket starts with this.
pub fn id_bucket_prefix(bucket: u8) -> Vec<u8> {
    let mut key = ID_PREFIX.to_vec();
    key.push(bucket);
    key
}

pub fn push_id_entry(entries: &mut Vec<u8>, hash: u64, position: u64) {
    entries.extend_from_slice(&hash.to_be_bytes());
    entries.extend_from_slice(&position.to_be_bytes());
}

/// The (hash, position) entries of an id-entries value.
pub fn id_entries_of(value: &[u8]) -> Result<impl Iterator<Item = (u64, u64)> + '_, StoreError> {
    if !value.len().is_multiple_of(16) {
        return Err(damaged("id entries"));
    }
    Ok(value.chunks_exact(16).map(|entry| {
        let (hash, position) = entry.split_at(8);
        (
            u64::from_be_bytes(hash.try_into().expect("8 bytes")),
            u64::from_be_bytes(position.try_into().expect("8 bytes")),
        )
    }))
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

/// Appends one record to a chunk being built (a run of records, [`ledger::envelope::push_stored`]).
pub fn push_record(chunk: &mut Vec<u8>, record: &[u8]) {
    ledger::envelope::push_stored(chunk, record);
}

/// The stored records of a chunk, in position order, without decoding them.
pub fn records_of(chunk: &[u8]) -> impl Iterator<Item = Result<&[u8], StoreError>> {
    ledger::envelope::stored_records(chunk).map(|record| record.map_err(StoreError::Corrupt))
}

/// Where each record of a chunk starts and ends; a damaged length ends it with an error.
pub fn spans_of(chunk: &[u8]) -> impl Iterator<Item = Result<(usize, usize), StoreError>> + '_ {
    ledger::envelope::stored_spans(chunk).map(|span| span.map_err(StoreError::Corrupt))
}

/// The first bytes of every stored record of `stream`: the storage version, then the stream as
/// postcard writes it (the record's envelope starts with it).
pub fn stored_prefix(stream: &StreamId) -> Vec<u8> {
    let mut prefix = vec![ledger::envelope::STORAGE_VERSION];
    prefix.extend(postcard::to_stdvec(stream).expect("stream ids always encode"));
    prefix
}

/// The seq and position a stored record names, if it starts with `prefix` (its stream's, from
/// [`stored_prefix`]): read without decoding the rest, so readers can check that the index led
/// them to the record it promised.
pub fn seq_and_position(record: &[u8], prefix: &[u8]) -> Option<(u64, u64)> {
    let rest = record.strip_prefix(prefix)?;
    let (seq, rest) = varint(rest)?;
    let (position, _) = varint(rest)?;
    Some((seq, position))
}

/// A u64 as postcard writes it (LEB128: seven bits a byte, low first), and the bytes after it.
/// Read here, on every record a reader fetches, without postcard's deserializer around it.
fn varint(bytes: &[u8]) -> Option<(u64, &[u8])> {
    let mut value = 0u64;
    for (i, &byte) in bytes.iter().enumerate().take(10) {
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((value, &bytes[i + 1..]));
        }
    }
    None
}

/// A head value as the writer loads it (no snapshot when none was stored).
pub fn stored_head(value: &[u8]) -> Result<crate::storage::StoredHead, StoreError> {
    let (version, hash, snapshot) = decode_head(value)?;
    Ok(crate::storage::StoredHead { version, hash, snapshot: (!snapshot.is_empty()).then(|| snapshot.to_vec()) })
}

pub fn decode_u64(bytes: &[u8]) -> Result<u64, StoreError> {
    let array: [u8; 8] = bytes.try_into().map_err(|_| damaged("number"))?;
    Ok(u64::from_be_bytes(array))
}

fn damaged(what: &str) -> StoreError {
    StoreError::Corrupt(format!("malformed {what} in the sled tree"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::envelope::{encode_record, Draft, Recorded, GENESIS};

    #[test]
    fn a_stored_record_names_its_stream_seq_and_position_in_its_first_bytes() {
        let stream = StreamId::game("q1-t1").unwrap();
        let draft = Draft {
            stream: stream.clone(),
            seq: 300,
            position: 70_000,
            event_id: "e".into(),
            recorded_at_ms: 1,
            actor: "a".into(),
        };
        let record = Recorded::seal(draft, GENESIS, ledger::Event::JuryCalled { reason: "r".into() });
        let bytes = encode_record(&record);
        assert_eq!(seq_and_position(&bytes, &stored_prefix(&stream)), Some((300, 70_000)));
        for n in [0, 1, 127, 128, 16_383, 16_384, u64::from(u32::MAX), u64::MAX] {
            let encoded = postcard::to_stdvec(&n).unwrap();
            assert_eq!(varint(&encoded), Some((n, &[][..])), "{n} as postcard writes it");
        }
        let other = StreamId::game("q1-t2").unwrap();
        assert_eq!(seq_and_position(&bytes, &stored_prefix(&other)), None, "another stream's record");
        let tournament = StreamId::tournament("q1-t1").unwrap();
        assert_eq!(seq_and_position(&bytes, &stored_prefix(&tournament)), None, "another kind's");
    }
}
