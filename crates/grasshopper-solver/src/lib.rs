//! The exact solver: the game-theoretic value of a position and the distance
//! to the end under optimal play, plus endgame tables for the last phase.
//!
//! # What is computed
//!
//! For the side to move: [`Value::Win`], [`Value::Draw`] or [`Value::Loss`],
//! and for a win or loss the number of plies (passes included) until the game
//! ends when the winner hurries and the loser delays. A draw is reported
//! without a distance: with no winner there is nobody to hurry or delay, and
//! the length of a drawn game is not part of its game-theoretic value (any
//! rule for it, such as "both hurry", would be our invention and would cost a
//! second search over all drawing lines).
//!
//! # Method
//!
//! Alpha-beta (with principal variation search) over the game DAG, scores as
//! chess mate scores (`BIG - plies` for a win), a transposition table with
//! exact 70-bit keys of colour-normalised positions storing lower and upper
//! bounds, mate-distance bounds, and move ordering by table move, bear-offs,
//! wall builds and history. A first pass with the window (-1, 1) settles
//! win/draw/loss cheaply; a second pass with the window on the winning (or
//! losing) side gives the exact distance. The tests check it against a plain
//! memoised minimax. See [`tables`](Tables) for the endgame tables.

mod report;
pub mod retro;
mod search;
mod tables;
mod tt;
mod value;

pub use report::{
    cpu_seconds, peak_rss_kib, write_retro, write_solve, write_tablegen, SolveReport,
};
pub use search::Counts;
pub use tables::{TableError, Tables, MAX_BOUND};
pub use value::{ParseValueError, Solution, Value};

/// A table's answer for one position: the same facts as a solve's.
pub type Probe = Solution;

use grasshopper_rules::{Move, Position};
use search::Engine;
use std::sync::Arc;
use value::BIG;

/// Loaded endgame tables shared between the options and the search threads.
/// Two handles are equal when they hold the same loaded tables.
#[derive(Clone, Debug)]
pub struct SharedTables(pub Arc<Tables>);

impl PartialEq for SharedTables {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for SharedTables {}

/// Loaded retrograde (win/draw/loss) phase tables shared between the options
/// and the search threads. Two handles are equal when they hold the same
/// loaded tables.
#[derive(Clone, Debug)]
pub struct SharedRetro(pub Arc<retro::RetroTables>);

impl PartialEq for SharedRetro {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for SharedRetro {}

impl Tables {
    /// The best of `among` (legal moves of `pos`) by the tables, with the
    /// result it keeps, when `pos` lies in the tables' phase: the quickest
    /// win, else a draw, else the longest loss.
    pub fn best_move(&self, pos: &Position, among: &[Move]) -> Option<(Move, Solution)> {
        self.probe(pos)?;
        let mut best: Option<(Move, i32)> = None;
        for &m in among {
            let mut child = *pos;
            child.play_unchecked(m);
            let s = if child.is_won() {
                BIG - 1
            } else {
                // The phase is closed under play, so the child is in it.
                let c = self.probe(&child)?.score();
                -c + c.signum()
            };
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((m, s));
            }
        }
        best.map(|(m, s)| (m, Solution::from_score(s)))
    }
}

/// An exact solver with its own transposition table (kept between calls, so
/// solving many related positions shares work).
pub struct Solver {
    engine: Engine,
}

impl Solver {
    /// A solver whose table uses about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Solver {
        Solver {
            engine: Engine::new(hash_mb),
        }
    }

    /// Lets the search use endgame tables (exact, so results do not change).
    pub fn set_tables(&mut self, tables: Option<Tables>) {
        self.engine.tables = tables;
    }

    /// The loaded endgame tables, if any.
    pub fn tables(&self) -> Option<&Tables> {
        self.engine.tables.as_ref()
    }

    /// Win, draw or loss for the side to move, without the distance (cheaper).
    pub fn value(&mut self, pos: &Position) -> Value {
        match self.engine.ab(pos, -1, 1, 0) {
            0 => Value::Draw,
            s if s > 0 => Value::Win,
            _ => Value::Loss,
        }
    }

    /// The exact value and distance to the end of `pos`.
    pub fn solve(&mut self, pos: &Position) -> Solution {
        let s = match self.value(pos) {
            Value::Draw => 0,
            Value::Win => self.engine.ab(pos, 0, BIG, 0),
            Value::Loss => self.engine.ab(pos, -BIG, 0, 0),
        };
        Solution::from_score(s)
    }

    /// Every legal move that keeps `solution` (the result of `pos`): the
    /// moves achieving the optimal value and distance.
    pub fn best_moves(&mut self, pos: &Position, solution: &Solution) -> Vec<Move> {
        let v = solution.score();
        pos.legal_moves()
            .iter()
            .copied()
            .filter(|&m| {
                let mut child = *pos;
                child.play_unchecked(m);
                // The child is at most -v (seen from its mover) exactly when
                // the move reaches v: a null-window test around -v.
                -self.engine.ab(&child, -v, -v + 1, 1) >= v
            })
            .collect()
    }

    /// The search counters so far.
    pub fn counts(&self) -> Counts {
        self.engine.counts
    }

    /// Positions held in the transposition table.
    pub fn stored(&self) -> u64 {
        self.engine.tt.stored()
    }

    /// Entries the table gave up to make room (0 means nothing was lost).
    pub fn replaced(&self) -> u64 {
        self.engine.tt.replaced()
    }

    /// Bytes of the transposition table.
    pub fn table_bytes(&self) -> usize {
        self.engine.tt.bytes()
    }

    /// Entries the transposition table can hold.
    pub fn capacity(&self) -> u64 {
        self.engine.tt.capacity()
    }

    /// Forgets all stored results and counters (the endgame tables stay).
    pub fn clear(&mut self) {
        self.engine.tt.clear();
        self.engine.counts = Counts::default();
    }
}
