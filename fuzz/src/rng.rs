//! SplitMix64: small, fast, and the same sequence on every machine, so a case is reproduced from its
//! seed and number alone.

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True `per_mille` times in a thousand.
    pub fn chance(&mut self, per_mille: u32) -> bool {
        self.below(1000) < per_mille as usize
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// Mostly small, sometimes large: uniform in the magnitude (1, 10, 100, …) below `max`.
    pub fn size(&mut self, max: u64) -> u64 {
        let digits = (max.max(1) as f64).log10().ceil().max(1.0) as usize;
        let magnitude = 10u64.saturating_pow(self.below(digits + 1) as u32);
        (self.next_u64() % magnitude.min(max).max(1)).min(max)
    }
}
