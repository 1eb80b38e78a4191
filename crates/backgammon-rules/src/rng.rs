//! Seeded dice: a small generator whose whole state is one word, so
//! training checkpoints can save it and a resumed run rolls the same dice,
//! and tests and benchmarks draw reproducible games. Deterministic, no I/O.

use crate::Dice;

/// SplitMix64 (Steele, Lea and Flood): 64 bits of state, fast, and good
/// enough for dice.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-shift; the bias is below 2^-32).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// A uniform float in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// One die, 1..=6.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// A roll of two dice.
    #[inline]
    pub fn dice(&mut self) -> Dice {
        Dice::new(self.die(), self.die()).expect("dice are 1..=6")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_are_uniform_enough_and_repeat_from_a_seed() {
        let mut r = SplitMix::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.die() as usize - 1] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_400..10_600).contains(&c)),
            "{counts:?}"
        );
        let (mut a, mut b) = (SplitMix::new(3), SplitMix::new(3));
        assert!((0..10).all(|_| a.dice() == b.dice()));
    }
}
