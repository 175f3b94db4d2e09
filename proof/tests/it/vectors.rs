//! The Merkle tree against published known answers: the RFC 6962 test data of the Go reference
//! implementation, transparency-dev/merkle (formerly part of Trillian and certificate-transparency-go):
//! - leaves, node hashes, roots and compact ranges from `testonly/constants.go`
//!   (https://github.com/transparency-dev/merkle/blob/582a6ad190b6848f1d26f8bf08ddef29955d9db1/testonly/constants.go);
//! - inclusion and consistency proofs and the corruptions a verifier must refuse from
//!   `proof/verify_test.go`
//!   (https://github.com/transparency-dev/merkle/blob/02194e9afb6c1d95b5381350007963aa70fff472/proof/verify_test.go)
//!   and `testonly/reference_test.go`. Their leaf numbers are 1-based; the indexes here are 0-based.

use ledger_proof::*;

const LEAVES: [&str; 8] =
    ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"];

/// Roots of the trees of the first 0..=8 leaves.
const ROOTS: [&str; 9] = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];

/// Node hashes of the complete subtrees of the 8-leaf tree, by level.
const NODES: [&[&str]; 4] = [
    &[
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
        "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658",
        "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
        "46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1",
    ],
    &[
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
    ],
    &[
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
    &["5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"],
];

/// (index, size, proof)
const INCLUSION: [(u64, u64, &[&str]); 7] = [
    (0, 1, &[]),
    (0, 2, &["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7"]),
    (1, 2, &["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"]),
    (2, 3, &["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (
        1,
        5,
        &[
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
    (
        0,
        8,
        &[
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        5,
        8,
        &[
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
];

/// (old size, new size, proof)
const CONSISTENCY: [(u64, u64, &[&str]); 5] = [
    (1, 1, &[]),
    (
        1,
        8,
        &[
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        &[
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (
        2,
        5,
        &[
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
    (
        6,
        7,
        &[
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
];

/// `sha256SomeHash` of verify_test.go: a hash of no tree.
const SOME_HASH: &str = "abacaba000000000000000000000000000000000000000000060061e00123456";

fn h(hex: &str) -> Hash {
    hex::decode(hex).unwrap().try_into().unwrap()
}

fn hashes(hexes: &[&str]) -> Vec<Hash> {
    hexes.iter().map(|x| h(x)).collect()
}

fn at(index: u64) -> usize {
    usize::try_from(index).unwrap()
}

fn leaf_hashes() -> Vec<Hash> {
    LEAVES.iter().map(|leaf| leaf_hash(&hex::decode(leaf).unwrap())).collect()
}

fn memory_tree() -> MemoryTree {
    let mut tree = MemoryTree::new();
    leaf_hashes().into_iter().for_each(|leaf| tree.append(leaf));
    tree
}

#[test]
fn leaf_and_node_hashes_are_the_published_ones() {
    let leaves = leaf_hashes();
    assert_eq!(leaves, hashes(NODES[0]));
    for (level, nodes) in NODES.iter().enumerate().skip(1) {
        for (index, node) in nodes.iter().enumerate() {
            let width = 1 << level;
            assert_eq!(root_of(&leaves[index * width..(index + 1) * width]), h(node), "level {level} node {index}");
        }
    }
}

#[test]
fn every_tree_head_is_the_published_root() {
    let leaves = leaf_hashes();
    let tree = memory_tree();
    let mut frontier = Frontier::new();
    for (size, root) in ROOTS.iter().enumerate() {
        let root = h(root);
        assert_eq!(root_of(&leaves[..size]), root, "reference, size {size}");
        assert_eq!(frontier.root(), root, "frontier, size {size}");
        assert_eq!(tree_root(&tree, size as u64).unwrap(), root, "stored subtrees, size {size}");
        assert_eq!(tree_root(&leaves[..], size as u64).unwrap(), root, "leaves only, size {size}");
        if let Some(leaf) = leaves.get(size) {
            frontier.append(*leaf);
        }
    }
}

/// The compact ranges of `CompactTrees()`: the frontier keeps exactly these hashes.
#[test]
fn the_frontier_keeps_the_published_compact_ranges() {
    let n = |level: usize, index: usize| h(NODES[level][index]);
    let expected: [Vec<Hash>; 9] = [
        vec![],
        vec![n(0, 0)],
        vec![n(1, 0)],
        vec![n(1, 0), n(0, 2)],
        vec![n(2, 0)],
        vec![n(2, 0), n(0, 4)],
        vec![n(2, 0), n(1, 2)],
        vec![n(2, 0), n(1, 2), n(0, 6)],
        vec![n(3, 0)],
    ];
    let mut frontier = Frontier::new();
    for (size, leaf) in leaf_hashes().into_iter().enumerate() {
        assert_eq!(frontier.edge(), expected[size].as_slice());
        frontier.append(leaf);
    }
    assert_eq!(frontier.edge(), expected[8].as_slice());
}

#[test]
fn inclusion_proofs_are_the_published_ones_and_verify() {
    let leaves = leaf_hashes();
    let tree = memory_tree();
    for (index, size, proof) in INCLUSION {
        let proof = hashes(proof);
        assert_eq!(inclusion_proof(&tree, index, size).unwrap(), proof, "{index} in {size}");
        assert_eq!(inclusion_proof(&leaves[..], index, size).unwrap(), proof, "{index} in {size}, leaves only");
        let root = h(ROOTS[at(size)]);
        let leaf = leaves[at(index)];
        verify_inclusion(index, size, &leaf, &proof, &root).unwrap();
        for (what, probe) in corrupt_inclusion(index, size, &leaf, &proof, &root) {
            assert!(probe.is_err(), "{index} in {size}: {what} verified");
        }
    }
}

/// verify_test.go's `corruptInclusionProof`, every probe of which must fail.
fn corrupt_inclusion(
    index: u64,
    size: u64,
    leaf: &Hash,
    proof: &[Hash],
    root: &Hash,
) -> Vec<(String, Result<(), VerifyError>)> {
    let with = |extra: &[Hash], front: bool| -> Vec<Hash> {
        if front {
            extra.iter().chain(proof).copied().collect()
        } else {
            proof.iter().chain(extra).copied().collect()
        }
    };
    let mut probes = vec![
        ("index - 1".to_owned(), verify_inclusion(index.wrapping_sub(1), size, leaf, proof, root)),
        ("index + 1".to_owned(), verify_inclusion(index + 1, size, leaf, proof, root)),
        ("index ^ 2".to_owned(), verify_inclusion(index ^ 2, size, leaf, proof, root)),
        ("size * 2".to_owned(), verify_inclusion(index, size * 2, leaf, proof, root)),
        ("size / 2".to_owned(), verify_inclusion(index, size / 2, leaf, proof, root)),
        ("wrong leaf".to_owned(), verify_inclusion(index, size, &leaf_hash(b"WrongLeaf"), proof, root)),
        ("empty root".to_owned(), verify_inclusion(index, size, leaf, proof, &empty_root())),
        ("random root".to_owned(), verify_inclusion(index, size, leaf, proof, &h(SOME_HASH))),
        ("trailing root".to_owned(), verify_inclusion(index, size, leaf, &with(&[*root], false), root)),
        ("preceding root".to_owned(), verify_inclusion(index, size, leaf, &with(&[*root], true), root)),
    ];
    for i in 0..proof.len() {
        let mut wrong = proof.to_vec();
        wrong[i][0] ^= 8;
        probes.push((format!("proof[{i}] bit 3"), verify_inclusion(index, size, leaf, &wrong, root)));
    }
    if let Some((_, shorter)) = proof.split_last() {
        probes.push(("removed component".to_owned(), verify_inclusion(index, size, leaf, shorter, root)));
    }
    if proof.len() > 1 {
        let inserted: Vec<Hash> = [proof[0], h(SOME_HASH)].iter().chain(&proof[1..]).copied().collect();
        probes.push(("inserted component".to_owned(), verify_inclusion(index, size, leaf, &inserted, root)));
    }
    probes
}

#[test]
fn consistency_proofs_are_the_published_ones_and_verify() {
    let leaves = leaf_hashes();
    let tree = memory_tree();
    for (old, new, proof) in CONSISTENCY {
        let proof = hashes(proof);
        assert_eq!(consistency_proof(&tree, old, new).unwrap(), proof, "{old} to {new}");
        assert_eq!(consistency_proof(&leaves[..], old, new).unwrap(), proof, "{old} to {new}, leaves only");
        let (old_root, new_root) = (h(ROOTS[at(old)]), h(ROOTS[at(new)]));
        verify_consistency(old, new, &old_root, &new_root, &proof).unwrap();
        if proof.is_empty() {
            continue;
        }
        for (what, probe) in corrupt_consistency(old, new, &old_root, &new_root, &proof) {
            assert!(probe.is_err(), "{old} to {new}: {what} verified");
        }
    }
}

/// verify_test.go's `corruptConsistencyProof`, every probe of which must fail.
fn corrupt_consistency(
    old: u64,
    new: u64,
    old_root: &Hash,
    new_root: &Hash,
    proof: &[Hash],
) -> Vec<(String, Result<(), VerifyError>)> {
    let wrong_root = leaf_hash(b"WrongRoot");
    let before = |x: Hash| -> Vec<Hash> { std::iter::once(x).chain(proof.iter().copied()).collect() };
    let after = |x: Hash| -> Vec<Hash> { proof.iter().copied().chain(std::iter::once(x)).collect() };
    let check = |o: u64, n: u64, or: &Hash, nr: &Hash, p: &[Hash]| verify_consistency(o, n, or, nr, p);
    let mut probes = vec![
        ("old - 1".to_owned(), check(old - 1, new, old_root, new_root, proof)),
        ("old + 1".to_owned(), check(old + 1, new, old_root, new_root, proof)),
        ("old ^ 2".to_owned(), check(old ^ 2, new, old_root, new_root, proof)),
        ("new * 2".to_owned(), check(old, new * 2, old_root, new_root, proof)),
        ("new / 2".to_owned(), check(old, new / 2, old_root, new_root, proof)),
        ("wrong old root".to_owned(), check(old, new, &wrong_root, new_root, proof)),
        ("wrong new root".to_owned(), check(old, new, old_root, &wrong_root, proof)),
        ("swapped roots".to_owned(), check(old, new, new_root, old_root, proof)),
        ("empty proof".to_owned(), check(old, new, old_root, new_root, &[])),
        ("trailing old root".to_owned(), check(old, new, old_root, new_root, &after(*old_root))),
        ("trailing new root".to_owned(), check(old, new, old_root, new_root, &after(*new_root))),
        ("preceding old root".to_owned(), check(old, new, old_root, new_root, &before(*old_root))),
        ("preceding new root".to_owned(), check(old, new, old_root, new_root, &before(*new_root))),
        ("preceding proof[0]".to_owned(), check(old, new, old_root, new_root, &before(proof[0]))),
        ("truncated".to_owned(), check(old, new, old_root, new_root, &proof[..proof.len() - 1])),
    ];
    for i in 0..proof.len() {
        let mut wrong = proof.to_vec();
        wrong[i][0] ^= 16;
        probes.push((format!("proof[{i}] bit 4"), check(old, new, old_root, new_root, &wrong)));
    }
    probes
}

/// verify_test.go's `TestVerifyConsistency` edge cases, with one deliberate difference: an old
/// tree of size 0 must carry the empty root (Go accepts any), since a checkpoint of the empty log
/// always does.
#[test]
fn consistency_edge_cases() {
    let (a, b) = (leaf_hash(b"don't care 1"), leaf_hash(b"don't care 2"));
    let empty = empty_root();
    assert!(verify_consistency(0, 0, &a, &b, &[]).is_err());
    assert!(verify_consistency(1, 1, &a, &b, &[]).is_err());
    assert!(verify_consistency(0, 0, &empty, &empty, &[]).is_ok());
    assert!(verify_consistency(0, 1, &empty, &b, &[]).is_ok());
    assert!(verify_consistency(1, 1, &b, &b, &[]).is_ok());
    assert_eq!(verify_consistency(0, 1, &a, &b, &[]), Err(VerifyError::OldRootMismatch));
    assert_eq!(verify_consistency(1, 0, &a, &b, &[]), Err(VerifyError::SizesReversed { old: 1, new: 0 }));
    assert!(verify_consistency(2, 1, &a, &b, &[]).is_err());
    assert_eq!(verify_consistency(1, 2, &a, &b, &[]), Err(VerifyError::TooShort));
    assert!(verify_consistency(0, 0, &empty, &b, &[]).is_err());
    assert!(verify_consistency(1, 1, &empty, &b, &[]).is_err());
    assert_eq!(verify_consistency(0, 0, &empty, &empty, &[empty]), Err(VerifyError::TooLong));
    assert_eq!(verify_consistency(0, 1, &empty, &empty, &[empty]), Err(VerifyError::TooLong));
    assert_eq!(verify_consistency(1, 1, &empty, &empty, &[empty]), Err(VerifyError::TooLong));
}

/// verify_test.go's `TestVerifyInclusion` probes: no leaf is in an empty tree, and an index past
/// the size is refused whatever the hashes.
#[test]
fn inclusion_edge_cases() {
    let some = h(SOME_HASH);
    for (index, size) in [(0, 0), (1, 0), (2, 1)] {
        assert_eq!(
            verify_inclusion(index, size, &some, &[], &empty_root()),
            Err(VerifyError::IndexOutOfRange { index, size })
        );
    }
    let single = leaf_hash(b"data");
    verify_inclusion(0, 1, &single, &[], &single).unwrap();
    assert_eq!(verify_inclusion(0, 1, &single, &[], &some), Err(VerifyError::RootMismatch));
    assert_eq!(verify_inclusion(0, 1, &single, &[single], &single), Err(VerifyError::TooLong));
}

/// Proofs are asked only for leaves and sizes the log holds.
#[test]
fn proofs_outside_the_log_are_refused() {
    let leaves = leaf_hashes();
    assert_eq!(inclusion_proof(&leaves[..], 8, 8), Err(ProveError::IndexOutOfRange { index: 8, size: 8 }));
    assert_eq!(inclusion_proof(&leaves[..], 0, 9), Err(ProveError::BeyondLog { size: 9, available: 8 }));
    assert_eq!(consistency_proof(&leaves[..], 5, 4), Err(ProveError::SizesReversed { old: 5, new: 4 }));
    assert_eq!(consistency_proof(&leaves[..], 4, 9), Err(ProveError::BeyondLog { size: 9, available: 8 }));
    assert_eq!(tree_root(&leaves[..], 9), Err(ProveError::BeyondLog { size: 9, available: 8 }));
    assert_eq!(consistency_proof(&leaves[..], 0, 8), Ok(vec![]));
}
