//! Canonical positions and compact exact keys for the solver's tables.
//!
//! Both colours move the same way on the same track, so swapping the colours
//! of every checker, of the counts, of the scoring run and of the side to move
//! gives a position whose value for the side to move is the same. The solver
//! stores only the colour-normalised form (White to move), which halves its
//! tables. Points keep their numbers under the swap, so moves carry over
//! unchanged.

use crate::rules::{Color, Position};

/// The position with colours swapped so that White is to move; the position
/// itself when White already is.
#[inline(always)]
pub fn canonical(pos: &Position) -> Position {
    if pos.side == Color::White {
        *pos
    } else {
        pos.swap_colors()
    }
}

/// Number of bits of a [`compact_key`].
pub const KEY_BITS: u32 = 70;

/// An exact 70-bit key of a White-to-move position (see [`canonical`]).
///
/// The board takes 56 bits (24 base-5 digits: empty, white lone, white wall,
/// black lone, black wall), then 4 bits for each side's checkers to enter,
/// 3 bits for the run and 3 bits for N / 2. The scores are not stored: they
/// follow from N, the checkers to enter and those on the board. The key of a
/// real position is never 0 (N / 2 is at least 1), so 0 marks an empty slot.
#[inline(always)]
pub fn compact_key(pos: &Position) -> u128 {
    debug_assert_eq!(pos.side, Color::White);
    let mut board: u64 = 0;
    let (lw, ww, lb, wb) = (pos.lone[0], pos.wall[0], pos.lone[1], pos.wall[1]);
    let mut i = 24;
    while i > 0 {
        i -= 1;
        let digit =
            ((lw >> i) & 1) + 2 * ((ww >> i) & 1) + 3 * ((lb >> i) & 1) + 4 * ((wb >> i) & 1);
        board = board * 5 + digit as u64;
    }
    (board as u128)
        | (pos.to_enter[0] as u128) << 56
        | (pos.to_enter[1] as u128) << 60
        | (pos.run as u128) << 64
        | ((pos.checkers() / 2) as u128) << 67
}

/// A well-mixed 64-bit hash of a compact key, for choosing a table slot.
#[inline(always)]
pub fn slot_hash(key: u128) -> u64 {
    let mut z = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swapping_colours_twice_is_the_identity_and_keys_are_distinct() {
        let texts = [
            "w.b.../W...B./....../b..... b 9 8 1-1 w1",
            "w.b.../W...B./....../b..... w 9 8 1-1 w1",
            "b.w.../B...W./....../w..... w 8 9 1-1 b1",
            "....../....../....../...... w 2 2 0-0 -",
            "....../....../....../...... w 4 4 0-0 -",
        ];
        let mut keys = std::collections::HashSet::new();
        for t in texts {
            let p: Position = t.parse().unwrap();
            let c = canonical(&p);
            assert_eq!(c.side_to_move(), Color::White);
            // The swapped position is a legal position string too.
            let back: Position = c.to_string().parse().unwrap();
            assert_eq!(back, c);
            keys.insert(compact_key(&c));
            assert!(compact_key(&c) != 0 && compact_key(&c) < 1 << KEY_BITS);
        }
        // The first and third strings are colour swaps of each other.
        assert_eq!(keys.len(), 4);
    }
}
