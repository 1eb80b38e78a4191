//! The tests' seeded generator and random playouts: every failure can be
//! replayed from its seed.

use grasshopper_rules::Position;
use rand::{Rng, SeedableRng};

/// The tests' generator.
pub type TestRng = rand_pcg::Pcg64Mcg;

/// A generator seeded with `seed`.
pub fn rng(seed: u64) -> TestRng {
    TestRng::seed_from_u64(seed)
}

/// The position after `plies` uniformly random moves from `start` (or the
/// end of the game, if it comes first).
pub fn playout(start: &Position, plies: usize, rng: &mut impl Rng) -> Position {
    start.playout(plies, |n| rng.random_range(0..n))
}

/// Every position of a random game from the `checkers` start, the start
/// and the end included.
pub fn random_game(checkers: u8, rng: &mut impl Rng) -> Vec<Position> {
    let mut pos = Position::start(checkers).expect("an even number from 2 to 14");
    let mut seen = vec![pos];
    while !pos.is_game_over() {
        pos = playout(&pos, 1, rng);
        seen.push(pos);
    }
    seen
}
