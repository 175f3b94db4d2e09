//! A cursor over the fuzzer's bytes that turns them into choices. Every read succeeds: once the
//! bytes run out it answers 0, and every generator makes 0 the plausible choice, so a short
//! input still reads as a sensible (short) story and the fuzzer spends its bytes on the
//! decisions that matter.

/// The fuzzer's bytes, read front to back.
pub struct Choices<'a> {
    bytes: &'a [u8],
}

impl<'a> Choices<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Choices { bytes }
    }

    /// No bytes left: the input has been read to its end.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&first, rest)) => {
                self.bytes = rest;
                first
            }
            None => 0,
        }
    }

    /// A number in `0..n` (`n` at most 256); 0 when the bytes ran out.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!((1..=256).contains(&n), "below({n})");
        usize::from(self.byte()) % n
    }

    /// True about once in `n` reads (`n` at most 256), never once the bytes ran out.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == n - 1
    }

    /// One of `items`; the first once the bytes ran out.
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }

    /// An index weighted by `weights` (their sum at most 256); 0 once the bytes ran out.
    pub fn weighted(&mut self, weights: &[u8]) -> usize {
        let total: usize = weights.iter().map(|&w| usize::from(w)).sum();
        let mut roll = self.below(total);
        for (idx, &weight) in weights.iter().enumerate() {
            let weight = usize::from(weight);
            if roll < weight {
                return idx;
            }
            roll -= weight;
        }
        unreachable!("roll below the total weight")
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    pub fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | (u64::from(self.u32()) << 32)
    }

    /// Any `i32`, negative ones included.
    pub fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.u32().to_le_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_zero_once_the_bytes_run_out() {
        let mut c = Choices::new(&[7, 1, 2, 3, 4]);
        assert_eq!(c.below(5), 2);
        assert_eq!(c.u32(), 0x0403_0201);
        assert!(c.is_empty());
        assert_eq!((c.byte(), c.below(3), c.weighted(&[1, 2]), c.u64()), (0, 0, 0, 0));
        assert!(!c.one_in(2));
    }

    #[test]
    fn weights_split_the_byte_range() {
        assert_eq!(Choices::new(&[0]).weighted(&[2, 3]), 0);
        assert_eq!(Choices::new(&[1]).weighted(&[2, 3]), 0);
        assert_eq!(Choices::new(&[2]).weighted(&[2, 3]), 1);
        assert_eq!(Choices::new(&[4]).weighted(&[2, 3]), 1);
        assert_eq!(Choices::new(&[5]).weighted(&[2, 3]), 0);
    }
}
