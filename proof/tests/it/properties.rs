//! Properties of the tree and its proofs for trees of any size: every honest proof verifies, and
//! every altered one (a flipped bit, another index or size, a forked history) fails.

use ledger_proof::*;
use proptest::prelude::*;
use proptest::sample::Index;
use std::cell::Cell;
use std::convert::Infallible;

/// Distinct leaves: the leaf's index and the history's seed, hashed.
fn leaves(n: u64, seed: u8) -> Vec<Hash> {
    (0..n).map(|i| leaf_hash(&[&i.to_be_bytes()[..], &[seed]].concat())).collect()
}

fn tree_of(leaves: &[Hash]) -> MemoryTree {
    let mut tree = MemoryTree::new();
    leaves.iter().for_each(|leaf| tree.append(*leaf));
    tree
}

/// One bit to flip: in which hash of a proof, at which byte, which bit.
#[derive(Clone, Debug)]
struct Flip {
    which: Index,
    byte: usize,
    bit: u8,
}

fn flips() -> impl Strategy<Value = Flip> {
    (any::<Index>(), 0usize..32, 0u8..8).prop_map(|(which, byte, bit)| Flip { which, byte, bit })
}

impl Flip {
    fn hash(&self, hash: &Hash) -> Hash {
        let mut flipped = *hash;
        flipped[self.byte] ^= 1 << self.bit;
        flipped
    }

    fn proof(&self, proof: &[Hash]) -> Vec<Hash> {
        let mut flipped = proof.to_vec();
        let at = self.which.index(flipped.len());
        flipped[at] = self.hash(&flipped[at]);
        flipped
    }
}

fn at(index: u64) -> usize {
    usize::try_from(index).unwrap()
}

/// A number below `n`, drawn by `index`.
fn below(index: Index, n: u64) -> u64 {
    index.index(at(n)) as u64
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_inclusion_proof_verifies_and_no_altered_one_does(
        n in 1u64..1500,
        pick in any::<Index>(),
        other in any::<Index>(),
        flip in flips(),
    ) {
        let leaves = leaves(n, 0);
        let tree = tree_of(&leaves);
        let root = root_of(&leaves);
        prop_assert_eq!(tree.frontier().root(), root);
        let i = below(pick, n);
        let proof = inclusion_proof(&tree, i, n).unwrap();
        prop_assert_eq!(&proof, &inclusion_proof(&leaves[..], i, n).unwrap());
        prop_assert!(proof.len() <= 64 - (n - 1).leading_zeros() as usize);
        prop_assert_eq!(verify_inclusion(i, n, &leaves[at(i)], &proof, &root), Ok(()));

        if !proof.is_empty() {
            let flipped = flip.proof(&proof);
            prop_assert!(verify_inclusion(i, n, &leaves[at(i)], &flipped, &root).is_err());
            prop_assert!(verify_inclusion(i, n, &leaves[at(i)], &proof[1..], &root).is_err());
        }
        prop_assert!(verify_inclusion(i, n, &leaves[at(i)], &[&proof[..], &[root]].concat(), &root).is_err());
        prop_assert!(verify_inclusion(i, n, &leaves[at(i)], &proof, &flip.hash(&root)).is_err());
        prop_assert!(verify_inclusion(i, n, &flip.hash(&leaves[at(i)]), &proof, &root).is_err());

        // Another index of the same tree, or the same index in a tree of another size (with that
        // tree's own root): never.
        let j = below(other, n);
        if j != i {
            prop_assert!(verify_inclusion(j, n, &leaves[at(i)], &proof, &root).is_err());
        }
        let m = i + 1 + below(other, n + 8 - i);
        if m != n {
            let other_root = root_of(&self::leaves(m, 0));
            prop_assert!(verify_inclusion(i, m, &leaves[at(i)], &proof, &other_root).is_err());
        }
    }

    #[test]
    fn every_consistency_proof_verifies_and_no_altered_one_does(
        n in 1u64..1500,
        pick in any::<Index>(),
        other in any::<Index>(),
        flip in flips(),
    ) {
        let leaves = leaves(n, 0);
        let tree = tree_of(&leaves);
        let m = below(pick, n + 1);
        let (old_root, new_root) = (root_of(&leaves[..at(m)]), root_of(&leaves));
        let proof = consistency_proof(&tree, m, n).unwrap();
        prop_assert_eq!(&proof, &consistency_proof(&leaves[..], m, n).unwrap());
        prop_assert_eq!(verify_consistency(m, n, &old_root, &new_root, &proof), Ok(()));

        if !proof.is_empty() {
            let flipped = flip.proof(&proof);
            prop_assert!(verify_consistency(m, n, &old_root, &new_root, &flipped).is_err());
            prop_assert!(verify_consistency(m, n, &old_root, &new_root, &proof[..proof.len() - 1]).is_err());
            prop_assert!(verify_consistency(m, n, &old_root, &new_root, &proof[1..]).is_err());
        }
        prop_assert!(verify_consistency(m, n, &old_root, &new_root, &[&proof[..], &[new_root]].concat()).is_err());
        prop_assert!(verify_consistency(m, n, &flip.hash(&old_root), &new_root, &proof).is_err());
        // The empty tree is a prefix of every tree: from size 0 the new root is not at stake.
        if m > 0 {
            prop_assert!(verify_consistency(m, n, &old_root, &flip.hash(&new_root), &proof).is_err());
        }

        // The same old root claimed for another old size, or the proof offered for another new
        // size (with that tree's own root): never.
        let m2 = below(other, n + 1);
        if m2 != m {
            prop_assert!(verify_consistency(m2, n, &old_root, &new_root, &proof).is_err());
        }
        let n2 = m + 1 + below(other, n + 8 - m);
        if n2 != n && m > 0 {
            let other_root = root_of(&self::leaves(n2, 0));
            prop_assert!(verify_consistency(m, n2, &old_root, &other_root, &proof).is_err());
        }
    }

    /// A history rewritten below the old checkpoint (one leaf changed) is caught: its old root
    /// has no consistency proof into the real tree, and its leaf no inclusion proof.
    #[test]
    fn a_forked_history_is_caught(n in 2u64..1000, pick in any::<Index>(), changed in any::<Index>()) {
        let real = leaves(n, 0);
        let m = 1 + below(pick, n);
        let p = changed.index(at(m));
        let mut forked = real.clone();
        forked[p] = leaf_hash(b"rewritten");
        let forked_old_root = root_of(&forked[..at(m)]);
        let real_root = root_of(&real);
        for proof in [consistency_proof(&real[..], m, n).unwrap(), consistency_proof(&forked[..], m, n).unwrap()] {
            prop_assert!(verify_consistency(m, n, &forked_old_root, &real_root, &proof).is_err());
        }
        let proof = inclusion_proof(&forked[..], p as u64, n).unwrap();
        prop_assert!(verify_inclusion(p as u64, n, &forked[p], &proof, &real_root).is_err());
    }

    #[test]
    fn a_frontier_read_back_continues_the_same_tree(n in 0u64..600, more in 1u64..50) {
        let leaves = leaves(n + more, 0);
        let mut frontier = Frontier::new();
        leaves[..at(n)].iter().for_each(|leaf| frontier.append(*leaf));
        let mut again = Frontier::from_parts(frontier.size(), frontier.edge().to_vec()).unwrap();
        leaves[at(n)..].iter().for_each(|leaf| again.append(*leaf));
        prop_assert_eq!(again.root(), root_of(&leaves));
    }
}

/// A [`MemoryTree`] that counts its reads, as a store would.
struct Counted<'a> {
    tree: &'a MemoryTree,
    reads: Cell<u64>,
}

impl LeafHashes for Counted<'_> {
    type Error = Infallible;

    fn size(&self) -> Result<u64, Infallible> {
        self.tree.size()
    }

    fn leaf(&self, index: u64) -> Result<Hash, Infallible> {
        self.reads.set(self.reads.get() + 1);
        self.tree.leaf(index)
    }

    fn subtree(&self, node: Subtree) -> Result<Hash, Infallible> {
        self.reads.set(self.reads.get() + 1);
        self.tree.subtree(node)
    }
}

/// With the closed subtrees stored, a proof costs O(log n) reads, whatever the leaf.
#[test]
fn proofs_cost_logarithmic_reads_when_subtrees_are_stored() {
    let n = 5000;
    let tree = tree_of(&leaves(n, 0));
    let counted = Counted { tree: &tree, reads: Cell::new(0) };
    let bits = u64::from(64 - n.leading_zeros());
    for i in (0..n).step_by(37) {
        counted.reads.set(0);
        inclusion_proof(&counted, i, n).unwrap();
        assert!(counted.reads.get() <= 2 * bits, "inclusion of {i}: {} reads", counted.reads.get());
        counted.reads.set(0);
        consistency_proof(&counted, i, n).unwrap();
        assert!(counted.reads.get() <= 3 * bits, "consistency from {i}: {} reads", counted.reads.get());
    }
}

/// A source whose subtree hashes are stand-ins (their position, hashed): enough to measure the
/// proofs' shape at sizes too large to hash in a test.
struct Shape(u64);

impl LeafHashes for Shape {
    type Error = Infallible;

    fn size(&self) -> Result<u64, Infallible> {
        Ok(self.0)
    }

    fn leaf(&self, index: u64) -> Result<Hash, Infallible> {
        self.subtree(Subtree { level: 0, index })
    }

    fn subtree(&self, node: Subtree) -> Result<Hash, Infallible> {
        Ok(leaf_hash(&[&[node.level][..], &node.index.to_be_bytes()].concat()))
    }
}

/// The figure: at 10 million events an inclusion proof holds at most 24 hashes, and a
/// consistency proof at most 2 × 24.
#[test]
fn proof_sizes_at_ten_million_events() {
    let n = 10_000_000;
    let source = Shape(n);
    let longest = (0..n).step_by(9_973).chain([0, n / 2, n - 2, n - 1]);
    let inclusion = longest.clone().map(|i| inclusion_proof(&source, i, n).unwrap().len()).max().unwrap();
    let consistency = longest.map(|m| consistency_proof(&source, m, n).unwrap().len()).max().unwrap();
    assert!(inclusion <= 24, "inclusion: {inclusion} hashes");
    assert!(consistency <= 48, "consistency: {consistency} hashes");
}
