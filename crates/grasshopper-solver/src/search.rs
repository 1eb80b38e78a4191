//! Exact alpha-beta over the game DAG with distance-to-end scores.
//!
//! Scores are from the side to move's point of view and relative to the root:
//! a win `d` plies after the root scores `BIG - d`, a loss `-(BIG - d)`, a
//! draw 0. The winner therefore prefers the shortest win and the loser the
//! longest loss, exactly as mate scores in chess. The transposition table
//! holds node-relative bounds (converted on the way in and out), which is
//! sound here because a position's value does not depend on the path to it:
//! the game has no cycles and no history beyond what the position holds.
//!
//! Every returned value is a fail-soft bound: below the window it is an upper
//! bound, above it a lower bound, inside it exact. That is what makes the
//! stored bounds exact facts rather than heuristics.

use super::tables::Tables;
use super::tt::{Bounds, Table};
use super::value::BIG;
use grasshopper_rules::{Decided, Move, MoveKind, Position};

/// Node-relative score from a root-relative one at `ply`, clamped so that
/// the trivial bounds `±BIG` stay trivial.
#[inline(always)]
fn to_tt(s: i32, ply: i32) -> i32 {
    match s {
        s if s > 0 => (s + ply).min(BIG),
        s if s < 0 => (s - ply).max(-BIG),
        _ => 0,
    }
}

#[inline(always)]
fn from_tt(s: i32, ply: i32) -> i32 {
    match s {
        s if s > 0 => s - ply,
        s if s < 0 => s + ply,
        _ => 0,
    }
}

/// Counters of one solver.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions entered by the search (with repetitions).
    pub visited: u64,
    /// Positions answered by the endgame tables.
    pub table_hits: u64,
}

/// The search state: table, history heuristic, counters.
pub struct Engine {
    pub(crate) tt: Table,
    history: Box<[[u32; Move::INDEX_COUNT]; 2]>,
    pub(crate) counts: Counts,
    pub(crate) tables: Option<Tables>,
}

impl Engine {
    pub(crate) fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: Table::new(hash_mb),
            history: Box::new([[0; Move::INDEX_COUNT]; 2]),
            counts: Counts::default(),
            tables: None,
        }
    }

    /// The exact value of `pos` if it lies in `[alpha, beta]`, else a bound
    /// on the side it fell (fail-soft). `ply` is the distance from the root.
    pub(crate) fn ab(&mut self, pos: &Position, alpha: i32, beta: i32, ply: i32) -> i32 {
        self.count_visit();
        if let Some(s) = self.known(pos, ply) {
            return s;
        }
        let (alpha, beta) = match narrow(pos, alpha, beta, ply) {
            Ok(w) => w,
            Err(s) => return s,
        };
        let key = pos.canonical_key();
        let (alpha, beta, tt_move) = match self.probe_tt(key, alpha, beta, ply) {
            Ok(w) => w,
            Err(s) => return s,
        };
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // Not won and nobody can act: a draw (docs/rules/RULES.md 12).
            return 0;
        }
        let before = self.counts.visited;
        let (best, best_i) = self.search_moves(pos, &moves, tt_move, alpha, beta, ply);
        let work = 64 - (self.counts.visited - before).leading_zeros();
        self.record(key, best, (alpha, beta), ply, best_i, work);
        best
    }

    /// Counts a visited position, with a log line every 2^26 of them.
    #[inline(always)]
    fn count_visit(&mut self) {
        self.counts.visited += 1;
        if self.counts.visited & ((1 << 26) - 1) == 0 {
            log::info!(
                "solver: {} positions visited, {} stored, {} replaced",
                self.counts.visited,
                self.tt.stored(),
                self.tt.replaced()
            );
        }
    }

    /// The score of `pos` when known without searching: decided within two
    /// plies, or in the endgame tables.
    #[inline(always)]
    fn known(&mut self, pos: &Position, ply: i32) -> Option<i32> {
        match pos.decided() {
            Some(Decided::WinsNow) => return Some(BIG - ply - 1),
            Some(lost) => return Some(-(BIG - ply - lost.plies() as i32)),
            None => {}
        }
        let t = self.tables.as_ref()?;
        let p = t.probe(pos)?;
        self.counts.table_hits += 1;
        Some(p.score_at(ply))
    }

    /// The window narrowed by the transposition table's bounds on `key`,
    /// with its move; `Err` with the score when the bounds settle the node.
    #[inline(always)]
    fn probe_tt(
        &self,
        key: u128,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
    ) -> Result<(i32, i32, Option<u8>), i32> {
        let Some(b) = self.tt.probe(key) else {
            return Ok((alpha, beta, None));
        };
        let (lo, hi) = (from_tt(b.lo, ply), from_tt(b.hi, ply));
        if lo >= beta || lo == hi {
            return Err(lo);
        }
        if hi <= alpha {
            return Err(hi);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        Ok((alpha, beta, b.best))
    }

    /// Searches the moves of `pos` (best guess first) in `[alpha, beta]`:
    /// the best score (fail-soft) and the index of its move.
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: &Position,
        moves: &[Move],
        tt_move: Option<u8>,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> (i32, u8) {
        let me = pos.side_to_move();
        let order = self.order(pos, moves, tt_move);
        let mut best = -BIG - 1;
        let mut best_i = 0u8;
        for (n, &i) in order[..moves.len()].iter().enumerate() {
            let m = moves[i as usize];
            let mut child = *pos;
            child.play_unchecked(m);
            let s = if n == 0 {
                -self.ab(&child, -beta, -alpha, ply + 1)
            } else {
                // Principal variation search: prove the move is no better
                // with a null window, re-search only if it is.
                let s = -self.ab(&child, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta {
                    -self.ab(&child, -beta, -s, ply + 1)
                } else {
                    s
                }
            };
            if s > best {
                best = s;
                best_i = i;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        let h = &mut self.history[me.index()][m.index()];
                        *h = h.saturating_add(1);
                        break;
                    }
                }
            }
        }
        (best, best_i)
    }

    /// Stores what the search of `key` in `window` proved: `best` is exact
    /// inside the window, a lower bound above it, an upper bound below.
    #[inline(always)]
    fn record(
        &mut self,
        key: u128,
        best: i32,
        window: (i32, i32),
        ply: i32,
        best_i: u8,
        work: u32,
    ) {
        let (alpha0, beta) = window;
        let (lo, hi) = if best >= beta {
            (best, BIG)
        } else if best <= alpha0 {
            (-BIG, best)
        } else {
            (best, best)
        };
        self.tt.store(
            key,
            Bounds {
                lo: to_tt(lo, ply),
                hi: to_tt(hi, ply),
                best: Some(best_i),
            },
            work,
        );
    }

    /// Indices into `moves`, best guess first: the table's move, bear-offs,
    /// wall builds, then by history.
    #[inline(always)]
    fn order(&self, pos: &Position, moves: &[Move], tt_move: Option<u8>) -> [u8; 96] {
        let me = pos.side_to_move();
        let own_lone = pos.lone_mask(me);
        let mut keys = [0u32; 96];
        let mut idx = [0u8; 96];
        for (i, &m) in moves.iter().enumerate() {
            idx[i] = i as u8;
            keys[i] = match m.kind() {
                _ if Some(i as u8) == tt_move => u32::MAX,
                MoveKind::BearOff(_) => u32::MAX - 2,
                MoveKind::Step(_, to) if own_lone & to.bit() != 0 => u32::MAX - 3,
                _ => self.history[me.index()][m.index()].min(u32::MAX - 4),
            };
        }
        let n = moves.len();
        // Insertion sort: lists are short.
        for a in 1..n {
            let mut b = a;
            while b > 0 && keys[b - 1] < keys[b] {
                keys.swap(b - 1, b);
                idx.swap(b - 1, b);
                b -= 1;
            }
        }
        idx
    }
}

/// The window narrowed by what the position guarantees (no loss before the
/// opponent's next move, no win sooner than three plies, at best a draw
/// for a player who cannot win any more); `Err` with the score when the
/// window closes.
#[inline(always)]
fn narrow(pos: &Position, mut alpha: i32, mut beta: i32, ply: i32) -> Result<(i32, i32), i32> {
    let me = pos.side_to_move();
    // Nobody loses before the opponent's next move, and without an
    // immediate win the soonest win is three plies away.
    let floor = -(BIG - ply - 2);
    let ceil = BIG - ply - 3;
    if alpha < floor {
        alpha = floor;
        if alpha >= beta {
            return Err(alpha);
        }
    }
    if beta > ceil {
        beta = ceil;
        if alpha >= beta {
            return Err(beta);
        }
    }
    // A player who cannot score as often as a win needs can at best
    // draw: scoring twice in succession takes two more walls, or one
    // after scoring last (docs/rules/RULES.md 11), and walls take two checkers.
    if !pos.can_still_win(me.opposite()) && alpha < 0 {
        alpha = 0;
        if alpha >= beta {
            return Err(alpha);
        }
    }
    if !pos.can_still_win(me) && beta > 0 {
        beta = 0;
        if alpha >= beta {
            return Err(beta);
        }
    }
    Ok((alpha, beta))
}
