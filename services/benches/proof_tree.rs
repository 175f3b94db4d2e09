//! The proof tree as ledgerd keeps it on disk (`ledger_daemon::proofs::tree`), for issue 26's
//! figures: appending N leaves in the keeper's batches (what following the log costs besides
//! reading it), syncing, reopening (a restart), the full check of the files a restart runs, and
//! inclusion and consistency proofs made from the files and verified, with their sizes.
//! `cargo bench -p ledger-services --bench proof_tree` (`PROOF_LEAVES=N`, default 1,000,000;
//! `PROOF_DIR` for where the files go, default the temp dir). One line per measurement.

use ledger_daemon::proofs::tree::DiskTree;
use ledger_proof::{consistency_proof, inclusion_proof, leaf_hash, verify_consistency, verify_inclusion, Hash};
use std::time::{Duration, Instant};

fn main() {
    let n: u64 = std::env::var("PROOF_LEAVES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let base = std::env::var("PROOF_DIR").map_or_else(|_| std::env::temp_dir(), std::path::PathBuf::from);
    let dir = tempfile::tempdir_in(base).expect("a temporary directory");
    // Stand-ins for the records' chain hashes.
    let chain = |i: u64| leaf_hash(&i.to_be_bytes());

    let started = Instant::now();
    let mut tree = DiskTree::open(dir.path()).expect("opens");
    let mut batch = Vec::with_capacity(4096);
    for i in 0..n {
        batch.push(leaf_hash(&chain(i)));
        if batch.len() == 4096 {
            tree.append(&batch).expect("appends");
            batch.clear();
        }
    }
    tree.append(&batch).expect("appends");
    let appended = started.elapsed();
    let started = Instant::now();
    tree.sync().expect("syncs");
    let synced = started.elapsed();
    let root = tree.frontier().root();
    drop(tree);
    line("append (leaf hash + closed subtrees, batches of 4,096)", n, appended);
    println!("sync of the files after them: {:.1} ms", ms(synced));

    let started = Instant::now();
    let tree = DiskTree::open(dir.path()).expect("reopens");
    println!("reopen (a restart: repair and right edge): {:.1} ms", ms(started.elapsed()));
    assert_eq!(tree.frontier().root(), root);
    let started = Instant::now();
    assert_eq!(tree.damaged().expect("reads"), None);
    line("full check of the files at start (every level from the one below)", n, started.elapsed());
    let bytes: u64 = std::fs::read_dir(dir.path())
        .expect("lists")
        .map(|e| e.expect("an entry").metadata().expect("stat").len())
        .sum();
    #[allow(clippy::cast_precision_loss)] // a figure
    let per = bytes as f64 / n as f64;
    println!("files: {bytes} bytes, {per:.1} bytes a record");

    let rounds = 10_000u64;
    let (mut made, mut checked, mut longest) = (Duration::ZERO, Duration::ZERO, 0);
    for r in 0..rounds {
        let index = r.wrapping_mul(0x9E37_79B9_7F4A_7C15) % n;
        let started = Instant::now();
        let proof = inclusion_proof(&tree, index, n).expect("in the tree");
        made += started.elapsed();
        longest = longest.max(proof.len());
        let started = Instant::now();
        verify_inclusion(index, n, &leaf_hash(&chain(index)), &proof, &root).expect("verifies");
        checked += started.elapsed();
    }
    println!(
        "inclusion proof at {n} leaves: at most {longest} hashes ({} bytes); made from the files in {:.1} µs, verified in {:.1} µs (mean of {rounds})",
        longest * 32,
        us(made) / f64::from(u32::try_from(rounds).expect("small")),
        us(checked) / f64::from(u32::try_from(rounds).expect("small"))
    );
    let (mut made, mut longest) = (Duration::ZERO, 0);
    let old_roots: Vec<(u64, Hash)> =
        (1..=100u64).map(|k| (k * (n / 101), ledger_proof::tree_root(&tree, k * (n / 101)).expect("root"))).collect();
    for (old, old_root) in &old_roots {
        let started = Instant::now();
        let proof = consistency_proof(&tree, *old, n).expect("consistent");
        made += started.elapsed();
        longest = longest.max(proof.len());
        verify_consistency(*old, n, old_root, &root, &proof).expect("verifies");
    }
    println!(
        "consistency proof to {n} leaves: at most {longest} hashes; made from the files in {:.1} µs (mean of 100)",
        us(made) / 100.0
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn line(what: &str, n: u64, took: Duration) {
    #[allow(clippy::cast_precision_loss)] // a rate
    let rate = n as f64 / took.as_secs_f64();
    println!("{what}: {n} leaves in {:.2} s, {rate:.0} a second", took.as_secs_f64());
}
