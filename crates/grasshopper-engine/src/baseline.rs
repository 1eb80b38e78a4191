//! Baseline players for tests and matches: a uniformly random mover and a
//! greedy one-ply player that takes a win when it has one and otherwise the
//! move the evaluation likes best.

use super::eval::N_FEATURES;
use super::evaluate::evaluate_with;
use grasshopper_rules::{Move, Outcome, Position};
use rand::Rng;

/// A uniformly random move of `moves` (not empty).
pub(crate) fn random_move(moves: &[Move], rng: &mut impl Rng) -> Move {
    moves[rng.random_range(0..moves.len())]
}

/// The greedy choice among `moves` (not empty): a move that wins at once,
/// else the one after which the opponent's evaluation is lowest (a draw
/// counts 0); ties go to the first in generation order.
pub(crate) fn greedy_move(pos: &Position, moves: &[Move], weights: &[i32; N_FEATURES]) -> Move {
    let us = pos.side_to_move();
    let mut best = (i32::MIN, moves[0]);
    for &m in moves {
        let mut child = *pos;
        child.play_unchecked(m);
        let v = match child.outcome() {
            Outcome::Win(c) if c == us => return m,
            Outcome::Win(_) => -1_000_000,
            Outcome::Draw => 0,
            Outcome::Ongoing => -evaluate_with(&child, weights),
        };
        if v > best.0 {
            best = (v, m);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_takes_a_win_in_one() {
        // White has scored once and has a wall on 20: bearing it off wins.
        let pos: Position = "w...../....../....../.W.... w 9 14 1-0 w1".parse().unwrap();
        let m = greedy_move(&pos, &pos.legal_moves(), &crate::eval::WEIGHTS);
        assert_eq!(m.to_string(), "20/off");
    }

    #[test]
    fn random_moves_are_legal_and_vary() {
        let pos = Position::start(14).unwrap();
        let moves = pos.legal_moves();
        let mut rng = <rand_pcg::Pcg64Mcg as rand::SeedableRng>::seed_from_u64(7);
        let picks: std::collections::HashSet<Move> =
            (0..100).map(|_| random_move(&moves, &mut rng)).collect();
        assert!(picks.iter().all(|m| moves.contains(*m)));
        assert!(picks.len() > 3);
    }
}
