//! The draw's lots: a seeded stream of random numbers that is the same on every machine.
//!
//! The generator is ChaCha8 (`chacha20::ChaCha8Rng`), seeded with `SeedableRng::seed_from_u64`
//! (PCG32 expansion of the seed; rand_core documents that changing it is a value-breaking
//! change). Only `next_u64` is used: bounded numbers and shuffles are done here, by rejection and
//! Fisher–Yates, so no library's sampling algorithm can change a draw behind our back.

use chacha20::rand_core::{Rng, SeedableRng};
use chacha20::ChaCha8Rng;

/// A seeded source of lots.
pub(super) struct Lots(ChaCha8Rng);

impl Lots {
    pub(super) fn new(seed: u64) -> Self {
        Lots(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A number in `0..n`, each equally likely (no modulo bias). `n` must be at least 1.
    pub(super) fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n).expect("usize fits in u64");
        assert!(n > 0, "a lot needs at least one choice");
        // 2^64 mod n: the values past the last whole multiple of n are drawn again.
        let rejected = (u64::MAX % n + 1) % n;
        loop {
            let x = self.0.next_u64();
            if x <= u64::MAX - rejected {
                return usize::try_from(x % n).expect("below n, which came from a usize");
            }
        }
    }

    /// Shuffles in place (Fisher–Yates, from the back).
    pub(super) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}
