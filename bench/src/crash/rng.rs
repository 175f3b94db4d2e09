//! A small seeded random number generator (SplitMix64), so that a run is described by its seed
//! alone and a failure can be rerun with `--seed`. Not cryptographic; it only picks kill delays,
//! batch sizes and streams.

/// SplitMix64 (Steele, Lea, Flood 2014): one `u64` of state, full period, good enough mixing.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// An independent generator for one part of the run (a cycle, a writer), derived from the
    /// seed and the part's numbers, so that adding a writer does not shift every other draw.
    pub fn derive(seed: u64, parts: &[u64]) -> Rng {
        let mut rng = Rng(seed);
        for &part in parts {
            rng = Rng(rng.next_u64() ^ part.wrapping_mul(0xA076_1D64_78BD_642F));
        }
        rng
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `low..=high` (the tiny modulo bias does not matter here).
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        if high <= low {
            return low;
        }
        low + self.next_u64() % (high - low + 1)
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        n <= 1 || self.next_u64().is_multiple_of(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_numbers() {
        let draws = |seed| {
            let mut rng = Rng::derive(seed, &[3, 7]);
            (0..5).map(|_| rng.between(10, 20)).collect::<Vec<_>>()
        };
        assert_eq!(draws(42), draws(42));
        assert_ne!(draws(42), draws(43));
        assert!(draws(42).iter().all(|x| (10..=20).contains(x)));
    }
}
