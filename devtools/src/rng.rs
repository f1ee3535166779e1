//! A small seeded random number generator for the tools (deterministic across platforms).

use minnow::tablegen::SplitMix;

/// SplitMix64 (the board's [`SplitMix`], which also makes the Zobrist keys),
/// seeded per stream: good enough for choosing moves and shuffling data.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix);

impl Rng {
    /// A generator for `seed`, mixed with `stream` so that game `i` of seed `s` gets its
    /// own sequence whichever thread plays it.
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut r = Rng(SplitMix(seed ^ stream.wrapping_mul(0xD134_2543_DE82_EF95)));
        r.next_u64();
        r
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
