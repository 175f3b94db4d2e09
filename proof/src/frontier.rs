//! The writer's incremental tree: only the right edge (the "compact range" `[0, n)`), one hash per
//! set bit of `n`, so appending a leaf costs O(log n) hashes at most (two on average) and the state
//! fits in 64 hashes whatever the log's size.
//!
//! Why this shape: the writer keeps it per group commit without reading anything back, and every
//! complete subtree it closes is reported (`append_with`), which is exactly what a store keeps to
//! answer [`crate::LeafHashes::subtree`] with one read (see `source.rs`).

use crate::hash::{empty_root, node_hash, Hash};
use thiserror::Error;

/// The roots of the complete subtrees that cover the leaves `[0, size)`, largest (leftmost) first.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Frontier {
    size: u64,
    edge: Vec<Hash>,
}

/// A complete subtree: the leaves `[index << level, (index + 1) << level)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Subtree {
    pub level: u8,
    pub index: u64,
}

/// A frontier read back from storage that cannot be one.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("a frontier of {size} leaves holds {expected} hashes, not {found}")]
pub struct FrontierShape {
    pub size: u64,
    pub expected: u32,
    pub found: usize,
}

impl Frontier {
    /// The empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// A frontier kept elsewhere (the store's copy at a group commit): `edge` must hold one hash per
    /// set bit of `size`, largest subtree first, as [`Frontier::edge`] gave it.
    pub fn from_parts(size: u64, edge: Vec<Hash>) -> Result<Self, FrontierShape> {
        let expected = size.count_ones();
        if edge.len() != expected as usize {
            return Err(FrontierShape { size, expected, found: edge.len() });
        }
        Ok(Self { size, edge })
    }

    /// The number of leaves appended.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The complete subtrees' roots, largest first (what a store persists with `size`).
    pub fn edge(&self) -> &[Hash] {
        &self.edge
    }

    /// Appends one leaf hash.
    pub fn append(&mut self, leaf: Hash) {
        self.append_with(leaf, |_, _| {});
    }

    /// Appends one leaf hash and reports every complete subtree this closes, the leaf itself
    /// (level 0) first, then each parent it completes. Panics once the tree holds `u64::MAX`
    /// leaves (not reachable by a ledger).
    pub fn append_with(&mut self, leaf: Hash, mut closed: impl FnMut(Subtree, &Hash)) {
        let index = self.size;
        let mut node = Subtree { level: 0, index };
        closed(node, &leaf);
        let mut hash = leaf;
        // Each trailing one bit of the old size is a complete subtree of the same height on the
        // left: merge with it.
        let mut bits = index;
        while bits & 1 == 1 {
            let left = self.edge.pop().expect("one hash per set bit of the size");
            hash = node_hash(&left, &hash);
            node = Subtree { level: node.level + 1, index: node.index >> 1 };
            closed(node, &hash);
            bits >>= 1;
        }
        self.edge.push(hash);
        self.size = index.checked_add(1).expect("a tree of u64::MAX leaves is full");
    }

    /// The tree head (RFC 9162's MTH) of the leaves appended so far: the edge folded from the
    /// right, O(log n) hashes.
    pub fn root(&self) -> Hash {
        let mut hashes = self.edge.iter().rev();
        let Some(last) = hashes.next() else { return empty_root() };
        hashes.fold(*last, |right, left| node_hash(left, &right))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{leaf_hash, root_of};

    #[test]
    fn the_root_is_the_reference_tree_head_at_every_size() {
        let mut frontier = Frontier::new();
        let mut leaves = Vec::new();
        assert_eq!(frontier.root(), root_of(&leaves));
        for i in 0u32..70 {
            let leaf = leaf_hash(&i.to_be_bytes());
            frontier.append(leaf);
            leaves.push(leaf);
            assert_eq!(frontier.root(), root_of(&leaves), "size {}", i + 1);
            assert_eq!(frontier.edge().len(), frontier.size().count_ones() as usize);
        }
    }

    #[test]
    fn appending_reports_each_subtree_it_closes() {
        let mut frontier = Frontier::new();
        let mut closed = Vec::new();
        for i in 0u8..8 {
            frontier.append_with(leaf_hash(&[i]), |node, _| closed.push((node.level, node.index)));
        }
        // Level 0: every leaf; level 1: four pairs; level 2: two quads; level 3: the whole tree.
        assert_eq!(closed.iter().filter(|(level, _)| *level == 0).count(), 8);
        assert_eq!(closed[closed.len() - 4..], [(0, 7), (1, 3), (2, 1), (3, 0)]);
        assert_eq!(closed.len(), 8 + 4 + 2 + 1);
    }

    #[test]
    fn a_stored_frontier_must_have_its_shape() {
        let mut frontier = Frontier::new();
        for i in 0u8..5 {
            frontier.append(leaf_hash(&[i]));
        }
        let again = Frontier::from_parts(frontier.size(), frontier.edge().to_vec()).unwrap();
        assert_eq!(again, frontier);
        assert_eq!(
            Frontier::from_parts(7, frontier.edge().to_vec()),
            Err(FrontierShape { size: 7, expected: 3, found: 2 })
        );
    }
}
