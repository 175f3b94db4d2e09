//! The writer's in-memory answer to "was this event id ever stored?", so that the common case,
//! a new id, costs no read of the log.
//!
//! A scalable Bloom filter: it never says "no" for a stored id, and says "maybe" for a new one
//! about once in a thousand, when the writer looks the id up in the log to be sure. It holds
//! about 1.8 bytes per stored id (18 MB for ten million), filled from the hashes of the log's
//! id index on start.

use growable_bloom_filter::GrowableBloom;

/// False "maybe"s per lookup the filter aims for.
const FALSE_POSITIVE_RATE: f64 = 0.001;

pub(crate) struct IdFilter {
    bloom: GrowableBloom,
}

impl IdFilter {
    pub fn with_capacity(expected: usize) -> Self {
        IdFilter { bloom: GrowableBloom::new(FALSE_POSITIVE_RATE, expected.max(100_000)) }
    }

    /// Adds an id by its [`crate::storage::id_hash`].
    pub fn insert(&mut self, hash: u64) {
        self.bloom.insert(hash);
    }

    /// `false`: the id was never stored. `true`: it may have been; look it up.
    pub fn may_contain(&self, hash: u64) -> bool {
        self.bloom.contains(hash)
    }
}
