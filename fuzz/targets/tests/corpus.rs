//! The brief run of every fuzz target that CI does within `cargo test --workspace`: each target
//! over every input of its committed corpus (`fuzz/corpus/<target>/`: seeds, inputs the fuzzer
//! found interesting, reproducers of crashes it found), then over a few thousand inputs made
//! from the corpus by seeded mutations, the same on every run. No sanitizer and no coverage
//! guidance: that is the long run's job (`cargo fuzz`, fuzz/README.md). A property that breaks
//! panics inside the target; this test then names the input and prints it in hex.

use ledger_fuzz_targets::{Target, TARGETS};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Mutated inputs per target, each a few seconds of a debug build: a rules input plays a
/// whole stream (and its projections), the others decode one message.
const DECODER_INPUTS: usize = 20_000;
const RULES_INPUTS: usize = 600;

/// The longest generated input, as libFuzzer's default `-max_len`.
const MAX_LEN: usize = 4_096;

#[test]
fn stored_record() {
    brief_run("stored_record", DECODER_INPUTS);
}

#[test]
fn json_events() {
    brief_run("json_events", DECODER_INPUTS);
}

#[test]
fn proto_conversion() {
    brief_run("proto_conversion", DECODER_INPUTS);
}

#[test]
fn rules_sequence() {
    brief_run("rules_sequence", RULES_INPUTS);
}

#[test]
fn every_target_has_a_fuzz_binary_and_a_corpus() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (name, _) in TARGETS {
        let binary = fuzz.join("fuzz_targets").join(format!("{name}.rs"));
        let source = std::fs::read_to_string(&binary).unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
        assert!(source.contains(&format!("ledger_fuzz_targets::{name}(")), "{} does not call {name}", binary.display());
        assert!(!corpus(name).is_empty(), "fuzz/corpus/{name} is empty");
    }
}

fn brief_run(name: &str, n_generated: usize) {
    let target = TARGETS.iter().find(|(n, _)| *n == name).map(|&(_, t)| t).expect("a known target");
    let corpus = corpus(name);
    assert!(corpus.len() >= 10, "fuzz/corpus/{name} has {} inputs; the seeds alone are more", corpus.len());
    for (path, input) in &corpus {
        run(target, input, &path.display().to_string());
    }
    let mut rng = SplitMix64(fnv1a(name.as_bytes()));
    let mut total_bytes = 0usize;
    for n in 0..n_generated {
        let input = mutated(&corpus, &mut rng);
        total_bytes += input.len();
        run(target, &input, &format!("generated input {n}"));
    }
    assert!(total_bytes > n_generated, "the generated inputs are not empty");
}

/// Runs one input; a panic inside names the input before it fails the test.
fn run(target: Target, input: &[u8], what: &str) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(|| target(input))) {
        eprintln!("{what} ({} bytes) broke a property; as hex:\n{}", input.len(), hex(input));
        std::panic::resume_unwind(panic);
    }
}

/// Every file of `fuzz/corpus/<name>/`, in name order.
fn corpus(name: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus").join(name);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable corpus entry").path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, bytes)
        })
        .collect()
}

/// A corpus input changed in one to four places the way a fuzzer would (bit flips, random
/// bytes, cut, repeated or spliced ranges), or now and then fresh random bytes.
fn mutated(corpus: &[(PathBuf, Vec<u8>)], rng: &mut SplitMix64) -> Vec<u8> {
    if rng.below(16) == 0 {
        let len = rng.below(512);
        return (0..len).map(|_| rng.byte()).collect();
    }
    let mut input = corpus[rng.below(corpus.len())].1.clone();
    for _ in 0..=rng.below(4) {
        let len = input.len();
        match rng.below(7) {
            0 if len > 0 => {
                let at = rng.below(len);
                input[at] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let at = rng.below(len);
                input[at] = rng.byte();
            }
            2 => {
                let at = rng.below(len + 1);
                let n = 1 + rng.below(8);
                let bytes: Vec<u8> = (0..n).map(|_| rng.byte()).collect();
                input.splice(at..at, bytes);
            }
            3 if len > 0 => {
                let at = rng.below(len);
                let end = (at + 1 + rng.below(16)).min(len);
                input.drain(at..end);
            }
            4 if len > 0 => {
                let at = rng.below(len);
                let end = (at + 1 + rng.below(32)).min(len);
                let copy = input[at..end].to_vec();
                let to = rng.below(len + 1);
                input.splice(to..to, copy);
            }
            5 => {
                let other = &corpus[rng.below(corpus.len())].1;
                let cut = rng.below(input.len() + 1);
                let from = rng.below(other.len() + 1);
                input.truncate(cut);
                input.extend_from_slice(&other[from..]);
            }
            _ => input.truncate(rng.below(len + 1)),
        }
    }
    input.truncate(MAX_LEN);
    input
}

/// A seeded generator, the same numbers on every run and every machine.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(n.max(1)).expect("usize fits u64")).expect("below n")
    }

    fn byte(&mut self) -> u8 {
        self.next().to_le_bytes()[0]
    }
}

/// FNV-1a: each target's generator starts from its own name.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
