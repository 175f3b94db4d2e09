//! The key layout of the sled tree. Stream names never contain a NUL byte (their ids are
//! checked), so NUL separates a name from the seq that follows it.
//!
//! - `e<stream>\0<seq u64 BE>` → the stored record
//! - `p<position u64 BE>` → the event key above
//! - `i<event id>` → position (idempotent retries)
//! - `h<stream>` → seq u64 BE ++ chain head (32 bytes)
//! - `m/next_position` → u64 BE

use crate::error::StoreError;
use ledger::{Hash, StreamId};

pub(super) struct Key;

impl Key {
    pub const NEXT_POSITION: &'static [u8] = b"m/next_position";
    pub const HEAD_PREFIX: &'static [u8] = b"h";

    pub fn event_prefix(stream: &StreamId) -> Vec<u8> {
        let mut key = b"e".to_vec();
        key.extend_from_slice(stream.to_string().as_bytes());
        key.push(0);
        key
    }

    pub fn event_prefix_end(stream: &StreamId) -> Vec<u8> {
        let mut key = Self::event_prefix(stream);
        *key.last_mut().expect("not empty") = 1;
        key
    }

    pub fn event(stream: &StreamId, seq: u64) -> Vec<u8> {
        let mut key = Self::event_prefix(stream);
        key.extend_from_slice(&seq.to_be_bytes());
        key
    }

    /// The stream and seq an event key names.
    pub fn parse_event_key(key: &[u8]) -> Result<(StreamId, u64), StoreError> {
        let body = key.strip_prefix(b"e").ok_or_else(|| damaged("event key"))?;
        let at = body.len().checked_sub(9).ok_or_else(|| damaged("event key"))?;
        if body[at] != 0 {
            return Err(damaged("event key"));
        }
        let name = std::str::from_utf8(&body[..at]).map_err(|_| damaged("event key"))?;
        let stream = StreamId::parse(name).map_err(|r| StoreError::Corrupt(r.message))?;
        Ok((stream, decode_u64(&body[at + 1..])?))
    }

    pub const EVENT_PREFIX: &'static [u8] = b"e";

    pub fn seq_of_event_key(key: &[u8]) -> Result<u64, StoreError> {
        key.len().checked_sub(8).map_or_else(|| Err(damaged("event key")), |at| decode_u64(&key[at..]))
    }

    pub fn position(position: u64) -> Vec<u8> {
        let mut key = b"p".to_vec();
        key.extend_from_slice(&position.to_be_bytes());
        key
    }

    pub fn event_id(event_id: &str) -> Vec<u8> {
        let mut key = b"i".to_vec();
        key.extend_from_slice(event_id.as_bytes());
        key
    }

    pub fn head(stream: &StreamId) -> Vec<u8> {
        let mut key = Self::HEAD_PREFIX.to_vec();
        key.extend_from_slice(stream.to_string().as_bytes());
        key
    }

    pub fn stream_of_head_key(key: &[u8]) -> Result<StreamId, StoreError> {
        let name = std::str::from_utf8(&key[1..]).map_err(|_| damaged("head key"))?;
        StreamId::parse(name).map_err(|r| StoreError::Corrupt(r.message))
    }
}

pub(super) fn encode_head(seq: u64, hash: &Hash) -> Vec<u8> {
    let mut value = seq.to_be_bytes().to_vec();
    value.extend_from_slice(hash);
    value
}

pub(super) fn decode_head(value: &[u8]) -> Result<(u64, Hash), StoreError> {
    if value.len() != 40 {
        return Err(damaged("stream head"));
    }
    let hash: Hash = value[8..].try_into().map_err(|_| damaged("stream head"))?;
    Ok((decode_u64(&value[..8])?, hash))
}

pub(super) fn decode_u64(bytes: &[u8]) -> Result<u64, StoreError> {
    let array: [u8; 8] = bytes.try_into().map_err(|_| damaged("number"))?;
    Ok(u64::from_be_bytes(array))
}

fn damaged(what: &str) -> StoreError {
    StoreError::Corrupt(format!("malformed {what} in the sled tree"))
}
