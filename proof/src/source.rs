//! Proofs generated from wherever the leaf hashes live, through one trait, so that the store can
//! serve them later with O(log n) reads.
//!
//! How a store serves [`LeafHashes`] cheaply: every hash an RFC 9162 proof holds is the root of a
//! complete subtree, or (at most one per proof) a right-edge subtree that folds from O(log n)
//! complete ones. The writer's [`crate::Frontier::append_with`] reports each complete subtree the
//! moment it closes, at most `log2(n) + 1` per leaf and two on average; a store that writes them
//! beside the group commit under the key `(level, index)` answers [`LeafHashes::subtree`] with one
//! read, and a proof costs O(log n) reads ([`MemoryTree`] is the same layout in memory, and the
//! tests count its reads). A store that keeps only leaves may rely on the default
//! [`LeafHashes::subtree`], which reads `2^level` leaves: correct, but O(n) for a proof.

use crate::frontier::{Frontier, Subtree};
use crate::hash::{empty_root, node_hash, split, Hash};
use std::convert::Infallible;
use thiserror::Error;

/// A log's leaf hashes, read by index; `Error` is the store's read error.
pub trait LeafHashes {
    type Error;

    /// How many leaves the source holds.
    fn size(&self) -> Result<u64, Self::Error>;

    /// The hash of leaf `index` (below [`LeafHashes::size`]).
    fn leaf(&self, index: u64) -> Result<Hash, Self::Error>;

    /// The root of a complete subtree that lies below [`LeafHashes::size`]. The default hashes it
    /// from its `2^level` leaves; a source that keeps the subtrees the frontier reports overrides
    /// it with one read.
    fn subtree(&self, node: Subtree) -> Result<Hash, Self::Error> {
        if node.level == 0 {
            return self.leaf(node.index);
        }
        let level = node.level - 1;
        let left = self.subtree(Subtree { level, index: node.index << 1 })?;
        let right = self.subtree(Subtree { level, index: (node.index << 1) | 1 })?;
        Ok(node_hash(&left, &right))
    }
}

/// Why a proof could not be made.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ProveError<E> {
    #[error("leaf {index} is not in a tree of {size} leaves")]
    IndexOutOfRange { index: u64, size: u64 },
    #[error("a tree of {old} leaves cannot be proved consistent with a smaller tree of {new}")]
    SizesReversed { old: u64, new: u64 },
    #[error("the log holds {available} leaves, fewer than the {size} asked for")]
    BeyondLog { size: u64, available: u64 },
    #[error("reading the log's hashes: {0}")]
    Read(E),
}

/// The root of the first `size` leaves of `source` (RFC 9162's MTH), O(log n) subtree reads.
pub fn tree_root<S: LeafHashes + ?Sized>(source: &S, size: u64) -> Result<Hash, ProveError<S::Error>> {
    within(source, size)?;
    if size == 0 {
        return Ok(empty_root());
    }
    range_root(source, 0, size).map_err(ProveError::Read)
}

/// The inclusion proof of leaf `index` in the tree of the first `size` leaves (RFC 9162, section
/// 2.1.3.1): the sibling hashes from the leaf up to the root, nearest first.
pub fn inclusion_proof<S: LeafHashes + ?Sized>(
    source: &S,
    index: u64,
    size: u64,
) -> Result<Vec<Hash>, ProveError<S::Error>> {
    if index >= size {
        return Err(ProveError::IndexOutOfRange { index, size });
    }
    within(source, size)?;
    let mut proof = Vec::with_capacity(64 - size.leading_zeros() as usize);
    path(source, index, 0, size, &mut proof).map_err(ProveError::Read)?;
    Ok(proof)
}

/// The consistency proof between the trees of the first `old` and the first `new` leaves (RFC
/// 9162, section 2.1.4.1). Empty when `old` is 0 or equals `new`.
pub fn consistency_proof<S: LeafHashes + ?Sized>(
    source: &S,
    old: u64,
    new: u64,
) -> Result<Vec<Hash>, ProveError<S::Error>> {
    if old > new {
        return Err(ProveError::SizesReversed { old, new });
    }
    within(source, new)?;
    let mut proof = Vec::new();
    if old > 0 {
        subproof(source, old, 0, new, true, &mut proof).map_err(ProveError::Read)?;
    }
    Ok(proof)
}

fn within<S: LeafHashes + ?Sized>(source: &S, size: u64) -> Result<(), ProveError<S::Error>> {
    let available = source.size().map_err(ProveError::Read)?;
    if size > available {
        return Err(ProveError::BeyondLog { size, available });
    }
    Ok(())
}

/// MTH of the leaves `[start, start + len)`, `len >= 1`, where `start` is a multiple of the
/// power of two at or above `len` (true of every range RFC 9162's recursion visits): complete
/// subtrees, largest first, folded from the right.
fn range_root<S: LeafHashes + ?Sized>(source: &S, start: u64, len: u64) -> Result<Hash, S::Error> {
    if len.is_power_of_two() {
        let level = u8::try_from(len.trailing_zeros()).expect("at most 63");
        debug_assert_eq!(start % len, 0, "complete subtrees are aligned");
        return source.subtree(Subtree { level, index: start >> level });
    }
    let k = split(len);
    let left = range_root(source, start, k)?;
    let right = range_root(source, start + k, len - k)?;
    Ok(node_hash(&left, &right))
}

/// RFC 9162's PATH(m, D[start : start + n]), appended leaf-side first.
fn path<S: LeafHashes + ?Sized>(source: &S, m: u64, start: u64, n: u64, out: &mut Vec<Hash>) -> Result<(), S::Error> {
    if n == 1 {
        return Ok(());
    }
    let k = split(n);
    if m < k {
        path(source, m, start, k, out)?;
        out.push(range_root(source, start + k, n - k)?);
    } else {
        path(source, m - k, start + k, n - k, out)?;
        out.push(range_root(source, start, k)?);
    }
    Ok(())
}

/// RFC 9162's SUBPROOF(m, D[start : start + n], complete).
fn subproof<S: LeafHashes + ?Sized>(
    source: &S,
    m: u64,
    start: u64,
    n: u64,
    complete: bool,
    out: &mut Vec<Hash>,
) -> Result<(), S::Error> {
    if m == n {
        if !complete {
            out.push(range_root(source, start, n)?);
        }
        return Ok(());
    }
    let k = split(n);
    if m <= k {
        subproof(source, m, start, k, complete, out)?;
        out.push(range_root(source, start + k, n - k)?);
    } else {
        subproof(source, m - k, start + k, n - k, false, out)?;
        out.push(range_root(source, start, k)?);
    }
    Ok(())
}

/// Leaf hashes held in memory: every subtree is hashed from its leaves.
impl LeafHashes for [Hash] {
    type Error = Infallible;

    fn size(&self) -> Result<u64, Infallible> {
        Ok(self.len() as u64)
    }

    fn leaf(&self, index: u64) -> Result<Hash, Infallible> {
        Ok(self[usize::try_from(index).expect("an index below the slice's length")])
    }
}

/// A tree in memory that keeps every complete subtree the frontier reports, level by level: the
/// layout a store follows to serve proofs with O(log n) reads, and a reference for its tests.
#[derive(Clone, Debug, Default)]
pub struct MemoryTree {
    frontier: Frontier,
    levels: Vec<Vec<Hash>>,
}

impl MemoryTree {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends one leaf hash, keeping the subtrees it closes.
    pub fn append(&mut self, leaf: Hash) {
        let levels = &mut self.levels;
        self.frontier.append_with(leaf, |node, hash| {
            let level = usize::from(node.level);
            if levels.len() <= level {
                levels.push(Vec::new());
            }
            debug_assert_eq!(levels[level].len() as u64, node.index, "subtrees close in order");
            levels[level].push(*hash);
        });
    }

    /// The writer's view: size and right edge.
    pub fn frontier(&self) -> &Frontier {
        &self.frontier
    }
}

impl LeafHashes for MemoryTree {
    type Error = Infallible;

    fn size(&self) -> Result<u64, Infallible> {
        Ok(self.frontier.size())
    }

    fn leaf(&self, index: u64) -> Result<Hash, Infallible> {
        self.subtree(Subtree { level: 0, index })
    }

    fn subtree(&self, node: Subtree) -> Result<Hash, Infallible> {
        let index = usize::try_from(node.index).expect("an index of a subtree held in memory");
        Ok(self.levels[usize::from(node.level)][index])
    }
}
