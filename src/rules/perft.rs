//! perft: counting the leaves of the game tree to a fixed depth, the standard
//! check that move generation is exactly right.

use super::moves::Move;
use super::position::Position;

/// Number of leaf nodes `depth` plies below `pos`.
///
/// perft(p, 0) = 1; a finished game has no moves, so it counts 0 at any depth
/// of 1 or more; a forced pass is one move. The last ply is bulk-counted.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut total = 0;
            for &m in pos.legal_moves().iter() {
                let mut child = *pos;
                child.play_unchecked(m);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

/// perft split by root move, in generation order: `(move, count)` pairs.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
