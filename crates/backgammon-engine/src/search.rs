//! Checker-play search on the evaluation: expectimax over the dice with
//! move filtering, counted in UBGI's root-inclusive plies (1 = every move
//! judged by the evaluation of its position, GNU Backgammon's 0-ply).
//!
//! - Ply 1: each move's resulting position is evaluated.
//! - Ply 2: the moves are ranked at ply 1; the best 8 within 0.16 of the
//!   best equity are judged by the average over the opponent's 21 rolls of
//!   the opponent's best reply at ply 1.
//! - Ply 3: the best 2 of those within 0.04 are judged one level deeper.
//!
//! Inside a lookahead, each roll's reply is chosen at ply 1 and then
//! evaluated deeper (as GNU Backgammon does), so a ply costs about 21
//! times the one below it. A deadline makes the search return the best move
//! of the deepest level it completed.

use crate::eval::{equity, flip, won, Evaluator, Probs};
use backgammon_rules::{Board, Dice, MoveList, Side};
use std::time::Instant;

/// Deepest search (root-inclusive).
pub const MAX_PLY: u8 = 3;

/// The depth players get unless told otherwise: the strongest that
/// answers within a second on a 2-core machine (3-ply: 28 ms a checker
/// play on average, 254 ms at most, over 300 benchmark positions on a
/// loaded machine; docs/results/backgammon-gen1-2026-12-02.md).
pub const DEFAULT_PLY: u8 = 3;

/// Which moves go on to the next level: at most `keep`, and only those
/// within `margin` equity of the best.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Filter {
    pub keep: usize,
    pub margin: f32,
}

/// The filters between levels: after ply 1, after ply 2.
pub const FILTERS: [Filter; 2] = [
    Filter {
        keep: 8,
        margin: 0.16,
    },
    Filter {
        keep: 2,
        margin: 0.04,
    },
];

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// Index of the chosen move in the list generated for the position.
    pub index: usize,
    /// Its chances (mover's side) at the deepest level searched.
    pub probs: Probs,
    /// That level (root-inclusive plies).
    pub ply: u8,
    /// Positions evaluated.
    pub evals: u64,
}

/// The weight of a roll among the 36.
#[inline(always)]
pub fn weight(dice: Dice) -> f32 {
    if dice.is_double() {
        1.0 / 36.0
    } else {
        2.0 / 36.0
    }
}

/// A searcher: the evaluator and its move lists (one per level).
pub struct Searcher<'a> {
    eval: &'a Evaluator,
    lists: Vec<Box<MoveList>>,
    evals: u64,
}

impl<'a> Searcher<'a> {
    pub fn new(eval: &'a Evaluator) -> Searcher<'a> {
        Searcher {
            eval,
            lists: (0..=MAX_PLY).map(|_| Box::default()).collect(),
            evals: 0,
        }
    }

    /// Positions evaluated so far.
    pub fn evals(&self) -> u64 {
        self.evals
    }

    /// The mover's chances after moving to `after` (still seen from the
    /// mover), looking `depth` rolls ahead.
    pub fn after_value(&mut self, after: &Board, depth: u8) -> Probs {
        if after.has_won(Side::OnRoll) {
            return won(after);
        }
        flip(&self.position_value(&after.swapped(), depth))
    }

    /// The chances of the player on roll of `board` before rolling,
    /// looking `depth` rolls ahead (0: the evaluation).
    pub fn position_value(&mut self, board: &Board, depth: u8) -> Probs {
        if depth == 0 {
            self.evals += 1;
            return self.eval.evaluate(board);
        }
        let mut acc = [0.0f32; 5];
        let mut list = std::mem::take(&mut self.lists[depth as usize]);
        for dice in Dice::all() {
            board.legal_moves_into(dice, &mut list);
            self.evals += list.len() as u64;
            let (i, p) = self.eval.best_move(&list);
            let p = if depth > 1 {
                self.after_value(&list.boards()[i], depth - 1)
            } else {
                p
            };
            let w = weight(dice);
            for k in 0..5 {
                acc[k] += w * p[k];
            }
        }
        self.lists[depth as usize] = list;
        acc
    }

    /// The best move of `board` with `dice`, searched to `plies`
    /// (1..=[`MAX_PLY`]), stopping deepening at `deadline`. `moves` receives
    /// the legal moves, which the choice indexes.
    pub fn choose(
        &mut self,
        board: &Board,
        dice: Dice,
        plies: u8,
        deadline: Option<Instant>,
        moves: &mut MoveList,
    ) -> Choice {
        let start = self.evals;
        board.legal_moves_into(dice, moves);
        let mut scored: Vec<(usize, Probs, f32)> = moves
            .boards()
            .iter()
            .enumerate()
            .map(|(i, after)| {
                let p = self.eval.after_move(after);
                (i, p, equity(&p))
            })
            .collect();
        self.evals += moves.len() as u64;
        let mut ply = 1;
        sort(&mut scored);
        while ply < plies.min(MAX_PLY) && scored.len() > 1 {
            let f = FILTERS[(ply - 1) as usize];
            let best = scored[0].2;
            scored.retain(|s| s.2 >= best - f.margin);
            scored.truncate(f.keep);
            if scored.len() == 1 {
                break;
            }
            let mut deeper = Vec::with_capacity(scored.len());
            for &(i, _, _) in &scored {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                let after = moves.boards()[i];
                let p = self.after_value(&after, ply);
                deeper.push((i, p, equity(&p)));
            }
            if deeper.len() < scored.len() {
                break;
            }
            scored = deeper;
            sort(&mut scored);
            ply += 1;
        }
        Choice {
            index: scored[0].0,
            probs: scored[0].1,
            ply,
            evals: self.evals - start,
        }
    }
}

/// Best equity first; equal equities keep generation order.
fn sort(v: &mut [(usize, Probs, f32)]) {
    v.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deeper_plies_agree_with_one_ply_on_forced_and_winning_moves() {
        let eval = Evaluator::shipped();
        let mut s = Searcher::new(&eval);
        let mut moves = Box::<MoveList>::default();
        // A bear-off win: every ply takes the last checkers off.
        let mut me = [0u8; 25];
        me[0] = 2;
        let mut them = [0u8; 25];
        them[5] = 15;
        let b = Board::from_counts(&me, &them).unwrap();
        for plies in 1..=3 {
            let c = s.choose(&b, Dice::new(2, 1).unwrap(), plies, None, &mut moves);
            assert!(moves.boards()[c.index].has_won(Side::OnRoll));
            assert_eq!(c.probs[0], 1.0);
        }
        // From the start, ply 2 searches the rolls whose moves are close
        // (a clear best move ends the search at ply 1) and counts its
        // evaluations: 21 rolls of replies per candidate move.
        let deep: Vec<Choice> = Dice::all()
            .filter_map(|d| {
                let c = s.choose(&Board::START, d, 2, None, &mut moves);
                (c.ply == 2).then_some(c)
            })
            .collect();
        assert!(!deep.is_empty(), "no opening roll has two candidate moves");
        assert!(deep.iter().all(|c| c.evals > 2 * 21), "{deep:?}");
        // An expired deadline stops at ply 1.
        let c = s.choose(
            &Board::START,
            Dice::new(3, 1).unwrap(),
            3,
            Some(Instant::now()),
            &mut moves,
        );
        assert_eq!(c.ply, 1);
    }
}
