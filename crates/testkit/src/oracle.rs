//! The exact value of a position by plain memoised minimax over the whole
//! game tree, written from the rules alone: the reference for the solver and
//! for the search's proved results. Nothing clever, nothing shared with them.

use grasshopper_rules::{Outcome, Position};
use std::collections::HashMap;

/// A position's exact value for the side to move, with the plies to the end
/// of the game under optimal play (the winner hurries, the loser delays).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Exact {
    Win(u32),
    Draw,
    Loss(u32),
}

impl Exact {
    /// Orders results for the mover: a shorter win, then a longer win, then
    /// a draw, then a longer loss, then a shorter loss.
    pub fn rank(self) -> i64 {
        match self {
            Exact::Win(d) => 1_000 - d as i64,
            Exact::Draw => 0,
            Exact::Loss(d) => -1_000 + d as i64,
        }
    }

    /// The result one ply earlier, for the player who moved into it.
    pub fn parent(self) -> Exact {
        match self {
            Exact::Win(d) => Exact::Loss(d + 1),
            Exact::Draw => Exact::Draw,
            Exact::Loss(d) => Exact::Win(d + 1),
        }
    }
}

/// Memoised minimax with an optional bound on the positions it may learn.
#[derive(Default)]
pub struct Oracle {
    memo: HashMap<u128, Exact>,
    limit: Option<usize>,
}

impl Oracle {
    /// An oracle that solves any tree (mind the size).
    pub fn new() -> Oracle {
        Oracle::default()
    }

    /// An oracle that gives up (answers `None`) once it knows `limit`
    /// positions: for sampling positions whose trees may be too big.
    pub fn bounded(limit: usize) -> Oracle {
        Oracle {
            memo: HashMap::new(),
            limit: Some(limit),
        }
    }

    /// Positions solved so far.
    pub fn known(&self) -> usize {
        self.memo.len()
    }

    /// The exact value of `pos`, or `None` past the limit.
    pub fn solve(&mut self, pos: &Position) -> Option<Exact> {
        if let Some(&e) = self.memo.get(&pos.key()) {
            return Some(e);
        }
        if self.limit.is_some_and(|l| self.memo.len() >= l) {
            return None;
        }
        let e = match pos.outcome() {
            // The previous mover has just won.
            Outcome::Win(_) => Exact::Loss(0),
            Outcome::Draw => Exact::Draw,
            Outcome::Ongoing => {
                let mut best: Option<Exact> = None;
                for &m in pos.legal_moves().iter() {
                    let child = pos.play(m).expect("legal moves play");
                    let e = self.solve(&child)?.parent();
                    if best.is_none_or(|b| e.rank() > b.rank()) {
                        best = Some(e);
                    }
                }
                best.expect("an ongoing game has a move (a pass at least)")
            }
        };
        self.memo.insert(pos.key(), e);
        Some(e)
    }
}
