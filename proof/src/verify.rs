//! Checking proofs with nothing but hashes: RFC 9162's verification algorithms (sections 2.1.3.2
//! and 2.1.4.2), run to the end.
//!
//! The pitfall these close (immudb's GHSA-672p-m5jq-mrh8): a consistency proof checked only in
//! part, the new root recomputed but not the old one, or hashes left over. Here every hash of a
//! proof is consumed, a proof with a hash too many or too few fails, and both the old and the new
//! roots must come out of the same hashes.
//!
//! The tree size is part of the claim, not of the proof: the proof of leaf 0 in a 3-leaf tree has
//! the shape of one in a 4-leaf tree too. A size and a root are therefore always taken together
//! from one signed checkpoint, never a root alone (a root is the head of one size only, since leaf
//! and node hashes are domain-separated).

use crate::hash::{empty_root, node_hash, Hash};
use thiserror::Error;

/// Why a proof does not hold.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum VerifyError {
    #[error("leaf {index} is not in a tree of {size} leaves")]
    IndexOutOfRange { index: u64, size: u64 },
    #[error("a tree of {old} leaves cannot be consistent with a smaller tree of {new}")]
    SizesReversed { old: u64, new: u64 },
    #[error("the proof has more hashes than a tree of this size needs")]
    TooLong,
    #[error("the proof has fewer hashes than a tree of this size needs")]
    TooShort,
    #[error("the proof leads to another root than the tree's")]
    RootMismatch,
    #[error("the proof leads to another root than the older tree's")]
    OldRootMismatch,
}

/// The root an inclusion proof leads to from `leaf` (a leaf hash) at `index` in a tree of `size`
/// leaves, or why the proof has the wrong shape.
pub fn root_from_inclusion(index: u64, size: u64, leaf: &Hash, proof: &[Hash]) -> Result<Hash, VerifyError> {
    if index >= size {
        return Err(VerifyError::IndexOutOfRange { index, size });
    }
    let (mut fnode, mut snode) = (index, size - 1);
    let mut root = *leaf;
    for p in proof {
        if snode == 0 {
            return Err(VerifyError::TooLong);
        }
        if fnode & 1 == 1 || fnode == snode {
            root = node_hash(p, &root);
            while fnode & 1 == 0 && fnode != 0 {
                fnode >>= 1;
                snode >>= 1;
            }
        } else {
            root = node_hash(&root, p);
        }
        fnode >>= 1;
        snode >>= 1;
    }
    if snode != 0 {
        return Err(VerifyError::TooShort);
    }
    Ok(root)
}

/// Checks that `leaf` (a leaf hash) is entry `index` of the tree of `size` leaves whose root is
/// `root`.
pub fn verify_inclusion(index: u64, size: u64, leaf: &Hash, proof: &[Hash], root: &Hash) -> Result<(), VerifyError> {
    if root_from_inclusion(index, size, leaf, proof)? != *root {
        return Err(VerifyError::RootMismatch);
    }
    Ok(())
}

/// Checks that the tree of `old_size` leaves with root `old_root` is a prefix of the tree of
/// `new_size` leaves with root `new_root`: nothing the older tree held was changed, dropped or
/// reordered. The empty tree is a prefix of every tree, but its root must be the empty root.
pub fn verify_consistency(
    old_size: u64,
    new_size: u64,
    old_root: &Hash,
    new_root: &Hash,
    proof: &[Hash],
) -> Result<(), VerifyError> {
    if old_size > new_size {
        return Err(VerifyError::SizesReversed { old: old_size, new: new_size });
    }
    if old_size == 0 || old_size == new_size {
        if !proof.is_empty() {
            return Err(VerifyError::TooLong);
        }
        if old_size == 0 && *old_root != empty_root() {
            return Err(VerifyError::OldRootMismatch);
        }
        if old_size == new_size && old_root != new_root {
            return Err(VerifyError::RootMismatch);
        }
        return Ok(());
    }
    // 0 < old_size < new_size. When the old tree is complete its root is a node of the new tree
    // and the proof leaves it out: it starts the walk.
    let (first, rest) = if old_size.is_power_of_two() {
        (old_root, proof)
    } else {
        proof.split_first().ok_or(VerifyError::TooShort)?
    };
    let (mut fnode, mut snode) = (old_size - 1, new_size - 1);
    while fnode & 1 == 1 {
        fnode >>= 1;
        snode >>= 1;
    }
    let (mut old, mut new) = (*first, *first);
    for c in rest {
        if snode == 0 {
            return Err(VerifyError::TooLong);
        }
        if fnode & 1 == 1 || fnode == snode {
            old = node_hash(c, &old);
            new = node_hash(c, &new);
            while fnode & 1 == 0 && fnode != 0 {
                fnode >>= 1;
                snode >>= 1;
            }
        } else {
            new = node_hash(&new, c);
        }
        fnode >>= 1;
        snode >>= 1;
    }
    if snode != 0 {
        return Err(VerifyError::TooShort);
    }
    if old != *old_root {
        return Err(VerifyError::OldRootMismatch);
    }
    if new != *new_root {
        return Err(VerifyError::RootMismatch);
    }
    Ok(())
}
