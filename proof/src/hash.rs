//! RFC 9162's hashing (section 2.1.1): a leaf is hashed with the prefix 0x00, an interior node
//! with 0x01, so that no leaf can pose as a node (the second-preimage attack the prefixes close).

use sha2::{Digest, Sha256};

/// A SHA-256 value: a leaf hash, a node hash or a tree's root.
pub type Hash = [u8; 32];

/// The root of the empty tree: SHA-256 of nothing (RFC 9162, section 2.1.1).
pub fn empty_root() -> Hash {
    Sha256::digest([]).into()
}

/// `SHA-256(0x00 || leaf)`: the hash of one entry of the log.
pub fn leaf_hash(leaf: &[u8]) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update([0x00]);
    hasher.update(leaf);
    hasher.finalize().into()
}

/// `SHA-256(0x01 || left || right)`: the hash of an interior node.
pub fn node_hash(left: &Hash, right: &Hash) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update([0x01]);
    hasher.update(left);
    hasher.update(right);
    hasher.finalize().into()
}

/// The largest power of two strictly less than `n` (RFC 9162's `k`), for `n >= 2`: where a tree
/// of `n` leaves splits into its left (complete) and right subtrees.
pub(crate) fn split(n: u64) -> u64 {
    debug_assert!(n >= 2, "a tree of fewer than two leaves does not split");
    1 << (63 - (n - 1).leading_zeros())
}

/// The Merkle Tree Hash of a list of leaf hashes, straight from RFC 9162's recursive definition.
/// O(n): the reference the incremental [`crate::Frontier`] and the proofs are checked against.
pub fn root_of(leaves: &[Hash]) -> Hash {
    match leaves.len() {
        0 => empty_root(),
        1 => leaves[0],
        n => {
            let k = usize::try_from(split(n as u64)).expect("k < n, which fits a usize");
            node_hash(&root_of(&leaves[..k]), &root_of(&leaves[k..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_is_the_largest_power_of_two_below() {
        for (n, k) in [(2, 1), (3, 2), (4, 2), (5, 4), (7, 4), (8, 4), (9, 8), (63, 32), (28937, 16384)] {
            assert_eq!(split(n), k, "n = {n}");
        }
        assert_eq!(split(u64::MAX), 1 << 63);
    }

    #[test]
    fn the_empty_root_is_sha256_of_nothing() {
        assert_eq!(hex::encode(empty_root()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
