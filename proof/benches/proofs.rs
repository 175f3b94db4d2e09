//! The tree's costs alone, for issue 26's figures: an append to the writer's frontier (leaf hash
//! of a 32-byte chain hash, then the merges), the same keeping every closed subtree as a store
//! would, and an inclusion and a consistency proof made and verified at the log's size.
//! `cargo bench -p ledger-proof --bench proofs` (`PROOF_LEAVES=N`, default 1,000,000).

use ledger_proof::*;
use std::time::Instant;

fn main() {
    let n: u64 = std::env::var("PROOF_LEAVES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    // Stand-ins for the records' chain hashes, made before the clock starts.
    let chain: Vec<Hash> = (0..n).map(|i| leaf_hash(&i.to_be_bytes())).collect();
    let chain_hash = |i: u64| chain[usize::try_from(i).expect("in memory")];

    let started = Instant::now();
    let mut frontier = Frontier::new();
    for i in 0..n {
        frontier.append(leaf_hash(&chain_hash(i)));
    }
    let frontier_took = started.elapsed();

    let started = Instant::now();
    let mut tree = MemoryTree::new();
    for i in 0..n {
        tree.append(leaf_hash(&chain_hash(i)));
    }
    let tree_took = started.elapsed();
    assert_eq!(tree.frontier().root(), frontier.root());

    let root = frontier.root();
    let rounds = 10_000u64;
    let (mut made, mut checked, mut hashes) = (0u128, 0u128, 0usize);
    for r in 0..rounds {
        let index = r.wrapping_mul(0x9E37_79B9_7F4A_7C15) % n;
        let started = Instant::now();
        let proof = inclusion_proof(&tree, index, n).expect("in the tree");
        made += started.elapsed().as_nanos();
        let started = Instant::now();
        verify_inclusion(index, n, &leaf_hash(&chain_hash(index)), &proof, &root).expect("verifies");
        checked += started.elapsed().as_nanos();
        hashes = hashes.max(proof.len());
    }
    let old = n / 3 + 1;
    let started = Instant::now();
    let proof = consistency_proof(&tree, old, n).expect("in the tree");
    let old_root = tree_root(&tree, old).expect("in the tree");
    verify_consistency(old, n, &old_root, &root, &proof).expect("verifies");
    let consistency_took = started.elapsed();

    println!(
        "{n} leaves: frontier append {} ns a leaf, keeping closed subtrees {} ns a leaf; inclusion proof made in {} ns, \
         verified in {} ns (at most {hashes} hashes, {rounds} proofs); consistency {old} → {n}: {} hashes, made and \
         verified in {consistency_took:?}",
        frontier_took.as_nanos() / u128::from(n),
        tree_took.as_nanos() / u128::from(n),
        made / u128::from(rounds),
        checked / u128::from(rounds),
        proof.len(),
    );
}
