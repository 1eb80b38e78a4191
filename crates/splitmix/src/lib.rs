//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014): the workspace's one home for the generator
//! whose whole state is one word.
//!
//! Why this one: a training checkpoint or a rollout checkpoint saves the
//! word and a resumed run draws the same numbers; the rules crates, which
//! depend on nothing outside the workspace, can roll seeded dice; and the
//! solver's checks sample reproducibly. Engines and labs that want `rand`'s
//! distributions use `rand_pcg::Pcg64Mcg` instead (see
//! docs/architecture.md, "Randomness"): changing either stream would change
//! every seeded result recorded so far.
//!
//! ```
//! use splitmix::SplitMix64;
//!
//! let mut a = SplitMix64::new(7);
//! let mut b = SplitMix64(a.0); // the state is one word: save it, restore it
//! assert_eq!(a.next_u64(), b.next_u64());
//! assert!((0..1000).all(|_| a.below(6) < 6));
//! ```

/// SplitMix64: 64 bits of state, fast, statistically good enough for dice,
/// sampling and shuffling (not for cryptography).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
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

    /// Uniform in `0..n` (multiply-shift on the high 32 bits; the bias is
    /// below 2^-32, and there is no division).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// A uniform float in [0, 1), from the top 24 bits.
    #[inline]
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// One die, 1..=6.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs for seed 0, as the algorithm's reference code
    /// (Vigna's splitmix64.c) prints them: a change of constant or shift
    /// would change every seeded result in the workspace.
    #[test]
    fn matches_the_reference_outputs() {
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn dice_are_uniform_enough_and_repeat_from_a_seed() {
        let mut r = SplitMix64::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.die() as usize - 1] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_400..10_600).contains(&c)),
            "{counts:?}"
        );
        let (mut a, mut b) = (SplitMix64::new(3), SplitMix64::new(3));
        assert!((0..10).all(|_| a.die() == b.die()));
    }

    #[test]
    fn unit_is_in_the_half_open_interval() {
        let mut r = SplitMix64::new(11);
        assert!((0..10_000)
            .map(|_| r.unit())
            .all(|u| (0.0..1.0).contains(&u)));
    }
}
