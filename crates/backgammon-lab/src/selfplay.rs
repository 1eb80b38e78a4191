//! Seeded self-play of an evaluator at 1-ply: the positions it meets, for
//! the speed figures, the error-rate sample and the refinement labels.

use crate::train::opening_dice;
use backgammon_engine::eval::{equity, Evaluator};
use backgammon_rules::{Board, MoveList, RollDice, Side, SplitMix};

/// Positions (with the player on roll, before the roll) from `games`
/// seeded self-play games of `eval` at 1-ply, best moves only.
pub fn positions(eval: &Evaluator, games: u32, seed: u64) -> Vec<Board> {
    exploring(eval, games, 0.0, seed)
}

/// Positions from `games` self-play games of `eval` at 1-ply, where each
/// move is the second best with chance `explore`. With `explore` 0 no
/// random number is spent on the choice, so the games are those of
/// [`positions`].
pub fn exploring(eval: &Evaluator, games: u32, explore: f32, seed: u64) -> Vec<Board> {
    let mut rng = SplitMix::new(seed);
    let mut moves = Box::<MoveList>::default();
    let mut out = Vec::new();
    for _ in 0..games {
        let mut board = Board::START;
        let mut dice = opening_dice(&mut rng);
        loop {
            out.push(board);
            board.legal_moves_into(dice, &mut moves);
            let (best, second) = two_best(eval, &moves);
            let pick = match second {
                Some(i) if explore > 0.0 && rng.unit() < explore => i,
                _ => best,
            };
            let after = moves.boards()[pick];
            if after.has_won(Side::OnRoll) {
                break;
            }
            board = after.swapped();
            dice = rng.dice();
        }
    }
    out
}

/// The after-positions of `moves` ranked by `eval` at 1-ply (cubeless
/// equity), best first; equal moves keep the generator's order.
pub fn ranked(eval: &Evaluator, moves: &MoveList) -> Vec<Board> {
    let mut r: Vec<(f32, Board)> = moves
        .boards()
        .iter()
        .map(|a| (equity(&eval.after_move(a)), *a))
        .collect();
    r.sort_by(|a, b| b.0.total_cmp(&a.0));
    r.into_iter().map(|(_, a)| a).collect()
}

/// The indices of the best move and of the second best (if there is one),
/// by 1-ply cubeless equity; the first of equal moves counts as better.
fn two_best(eval: &Evaluator, moves: &MoveList) -> (usize, Option<usize>) {
    let mut best = [(f32::NEG_INFINITY, 0usize); 2];
    for (i, after) in moves.boards().iter().enumerate() {
        let e = equity(&eval.after_move(after));
        if e > best[0].0 {
            best = [(e, i), best[0]];
        } else if e > best[1].0 {
            best[1] = (e, i);
        }
    }
    let second = (best[1].0 > f32::NEG_INFINITY).then_some(best[1].1);
    (best[0].1, second)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_follow_the_seed_and_exploring_changes_them() {
        let eval = Evaluator::shipped();
        let best = positions(&eval, 3, 5);
        assert_eq!(best.iter().filter(|b| **b == Board::START).count(), 3);
        assert_eq!(positions(&eval, 3, 5), best);
        assert_eq!(exploring(&eval, 3, 0.0, 5), best);
        assert_ne!(exploring(&eval, 3, 0.5, 5), best);
    }
}
