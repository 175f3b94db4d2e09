//! Every stream's head as the tree keeper follows the log (issue 43, `ledger_proof::heads`):
//! the keeper updates [`HeadMap`] with each record it appends to the tree, so that a checkpoint
//! it signs commits to the heads as of exactly its size; the heads maps of recent checkpoints
//! stay in memory ([`Recent`]) to prove a stream's head, and an older checkpoint's is read again
//! from the log ([`heads_from_log`]: the envelopes of the records up to its size, in position
//! order, as the keeper reads them).

use ledger::envelope::{decode_head, stored_records, StoredHead};
use ledger_proof::{Hash, Heads, StreamHead};
use ledger_store::{Log, StoreError};
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// How many checkpoints' heads maps stay in memory (the latest ones signed).
const RECENT: usize = 16;

/// Records read from the log in one read when a heads map is read again.
const PAGE: usize = 8192;

/// Each stream's last seq and chain hash, by stream name (`game/q1-t1`).
#[derive(Debug, Default, Clone)]
pub struct HeadMap {
    heads: BTreeMap<String, (u64, Hash)>,
}

impl HeadMap {
    /// The record at `head` is now its stream's last.
    pub fn advance(&mut self, head: &StoredHead<'_>) {
        let name = format!("{}/{}", head.stream.prefix(), head.stream_id);
        self.heads.insert(name, (head.seq, head.hash));
    }

    /// The heads map a checkpoint commits to.
    pub fn heads(&self) -> Heads {
        Heads::new(self.heads.iter().map(|(stream, &(seq, hash))| StreamHead { stream: stream.clone(), seq, hash }))
    }
}

/// The heads as of position `size`, read from the log.
///
/// # Errors
/// The log failed, or a record cannot be read.
pub fn heads_from_log(log: &Log, size: u64) -> Result<HeadMap, StoreError> {
    let mut map = HeadMap::default();
    let mut next = 1;
    while next <= size {
        let page = log.read_all_stored(next, PAGE)?;
        if page.count == 0 {
            break;
        }
        for bytes in stored_records(&page.run) {
            let head = bytes.and_then(decode_head).map_err(StoreError::Corrupt)?;
            if head.position > size {
                return Ok(map);
            }
            map.advance(&head);
            next = head.position + 1;
        }
    }
    Ok(map)
}

/// The heads maps of the latest checkpoints signed, by tree size.
#[derive(Debug, Default)]
pub struct Recent {
    by_size: BTreeMap<u64, Arc<Heads>>,
}

impl Recent {
    pub fn keep(&mut self, size: u64, heads: Arc<Heads>) {
        self.by_size.insert(size, heads);
        while self.by_size.len() > RECENT {
            self.by_size.pop_first();
        }
    }

    pub fn get(&self, size: u64) -> Option<Arc<Heads>> {
        self.by_size.get(&size).cloned()
    }
}

/// The log the keeper follows, set when it starts: what an older heads map is read again from.
#[derive(Default)]
pub struct Followed(OnceLock<Arc<Log>>);

impl Followed {
    pub fn set(&self, log: Arc<Log>) {
        let _ = self.0.set(log);
    }

    pub fn get(&self) -> Option<&Log> {
        self.0.get().map(|log| &**log)
    }
}

impl std::fmt::Debug for Followed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() { "Followed(the log)" } else { "Followed(not yet)" })
    }
}
