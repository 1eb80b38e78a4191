//! The alpha-beta worker: one search thread's negamax with principal
//! variation search, late move reductions, killer and history move ordering
//! and the shared transposition table. The driver ([`crate::driver`]) runs it
//! depth after depth, in aspiration windows.
//!
//! Scores: a game won at ply `p` from the root is worth `MATE - p` to the
//! winner; a finished draw is worth 0. Every value comes with a `proven`
//! flag, true when it does not depend on any heuristic leaf (it follows from
//! game ends alone). That flag is what lets the search tell a proved draw from
//! an even-looking position, and what lets proved table entries be trusted at
//! any depth.

use crate::eval::N_FEATURES;
use crate::evaluate::evaluate_with;
use crate::time::TimeCheck;
use crate::tt::{Bound, Entry, Tt};
use grasshopper_rules::{Move, MoveKind, Position};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub(crate) const MATE: i32 = 30_000;
/// Values beyond this are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - 1000;
pub(crate) const INF: i32 = 31_000;
pub(crate) const MAX_PLY: usize = 256;
/// A win proved by the retrograde tables, which know no distance: below
/// every mate score, above every evaluation (less the ply, so that a win
/// found sooner is preferred).
pub(crate) const TABLE_WIN: i32 = MATE_BOUND - MAX_PLY as i32 - 1;

/// Converts a value relative to the root into one relative to the node at
/// `ply` (mate distances counted from the node), for storing.
#[inline(always)]
fn value_to_tt(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v + ply as i32
    } else if v < -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

#[inline(always)]
fn value_from_tt(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v - ply as i32
    } else if v < -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// State shared by all threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a Tt,
    /// Endgame tables of the last phase (exact distances), if loaded.
    pub endgame: Option<&'a grasshopper_solver::Tables>,
    /// Retrograde win/draw/loss tables, if loaded.
    pub retro: Option<&'a grasshopper_solver::retro::RetroTables>,
    /// Set by the main thread to end every thread.
    pub stop: AtomicBool,
    /// Nodes of each thread, published every few thousand nodes.
    pub nodes: Vec<AtomicU64>,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with what the last iterations learnt about it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub proven: bool,
    pub pv: Vec<Move>,
    pub seldepth: u32,
}

/// One search thread.
pub(crate) struct Worker<'a> {
    pub id: usize,
    pub shared: &'a Shared<'a>,
    pub time: Option<TimeCheck<'a>>,
    pub node_limit: Option<u64>,
    pub nodes: u64,
    pub stopped: bool,
    pub seldepth: usize,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    pub root_moves: Vec<RootMove>,
    /// Evaluation weights (the fitted ones unless an experiment sets others).
    pub weights: [i32; N_FEATURES],
    /// The horizon's evaluations of this search by exact key (bit
    /// [`EVAL_FILLED`] set), one slot per hash: transpositions reach the
    /// same leaves again, and a net's evaluation costs more than the
    /// lookup. A hit returns the very value the evaluation would, so the
    /// search is the same with or without it.
    evals: Vec<(u128, i32)>,
}

/// Slots of [`Worker::evals`] (a power of two; 1 MiB: a slot is a 16-byte
/// key and its value, padded to 32 bytes by the key's alignment).
const EVAL_SLOTS: usize = 1 << 15;
/// Marks a filled slot of [`Worker::evals`]: above the 114 bits of a key.
const EVAL_FILLED: u128 = 1 << 127;

/// A node being searched: its depth, window, distance from the root and
/// whether it is on the principal variation.
struct Node {
    depth: i32,
    /// The window as the node was entered.
    alpha: i32,
    beta: i32,
    ply: usize,
    pv_node: bool,
}

/// The best of a node's moves searched so far.
struct Best {
    value: i32,
    mv: Option<Move>,
    /// Whether `value` is proven.
    proven: bool,
    /// Whether every move searched has a proven value.
    all_proven: bool,
}

/// A node's moves with their ordering keys, handed out best first as the
/// search asks for them: most nodes that cut off do so at their first or
/// second move, so sorting the whole list (a fifth of the search's own
/// time, most of it mispredicted branches) was mostly wasted.
struct Picker {
    keyed: [(i32, Move); 96],
    len: usize,
    /// Moves handed out so far: `keyed[..next]`, in the order given.
    next: usize,
}

impl Picker {
    /// The next move: the first of the highest key among those left, so
    /// equal keys keep generation order and the moves come in the order a
    /// stable sort gives (the search stays deterministic and the same).
    #[inline(always)]
    fn next(&mut self) -> Option<Move> {
        let rest = &mut self.keyed[self.next..self.len];
        let first = rest.first()?.0;
        let (mut j, mut best) = (0, first);
        for (k, &(key, _)) in rest.iter().enumerate().skip(1) {
            if key > best {
                (j, best) = (k, key);
            }
        }
        // The rest keep their order behind it.
        rest[..=j].rotate_right(1);
        self.next += 1;
        Some(rest[0].1)
    }
}

/// Move ordering scores.
const TT_MOVE: i32 = 1 << 30;
const BEAR_OFF: i32 = 1 << 29;
const KILLER: i32 = 1 << 28;

impl<'a> Worker<'a> {
    pub fn new(id: usize, shared: &'a Shared<'a>, root_moves: Vec<RootMove>) -> Worker<'a> {
        Worker {
            id,
            shared,
            time: None,
            node_limit: None,
            nodes: 0,
            stopped: false,
            seldepth: 0,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * Move::INDEX_COUNT],
            pv: vec![[Move::PASS; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves,
            weights: super::eval::WEIGHTS,
            evals: vec![(0, 0); EVAL_SLOTS],
        }
    }

    #[inline(always)]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(limit) = self.node_limit {
            if self.nodes >= limit {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 1023 == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if let Some(t) = self.time.as_mut() {
                if t.control.is_stopped() || t.hard_passed() {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.nodes & 63 == 0 && self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// `moves` keyed for the search's order: the table's move, bear-offs,
    /// the two killers, then by history.
    // Inlined into `search`, its one caller, as the compiler chose before
    // `search` was split: left to itself it now keeps a call per node.
    #[inline(always)]
    fn order(&self, pos: &Position, moves: &[Move], tt_move: Option<Move>, ply: usize) -> Picker {
        let side = pos.side_to_move().index();
        let mut keyed: [(i32, Move); 96] = [(0, Move::PASS); 96];
        for (i, &m) in moves.iter().enumerate() {
            let s = if Some(m) == tt_move {
                TT_MOVE
            } else if matches!(m.kind(), MoveKind::BearOff(_)) {
                BEAR_OFF
            } else if Some(m) == self.killers[ply][0] {
                KILLER + 1
            } else if Some(m) == self.killers[ply][1] {
                KILLER
            } else {
                self.history[side * Move::INDEX_COUNT + m.index()]
            };
            keyed[i] = (s, m);
        }
        Picker {
            keyed,
            len: moves.len(),
            next: 0,
        }
    }

    /// Exact game-theoretic shortcuts near a score (see
    /// [`Position::forced`]): the mate score when the walls in D settle the
    /// result by an exchange of scores.
    #[inline(always)]
    fn decided(pos: &Position, ply: usize) -> Option<i32> {
        let f = pos.forced()?;
        let mate = MATE - ply as i32 - f.plies as i32;
        Some(if f.wins { mate } else { -mate })
    }

    /// The exact value of `pos` from the loaded tables, when they cover it:
    /// a mate score from the endgame tables, [`TABLE_WIN`] (less the ply),
    /// 0 or its negation from the retrograde ones.
    #[inline(always)]
    fn table_value(&self, pos: &Position, ply: usize) -> Option<i32> {
        if let Some(t) = self.shared.endgame {
            if let Some(s) = t.probe(pos) {
                let d = ply as i32 + s.plies.unwrap_or(0) as i32;
                return Some(match s.value {
                    grasshopper_solver::Value::Win => MATE - d,
                    grasshopper_solver::Value::Loss => -(MATE - d),
                    grasshopper_solver::Value::Draw => 0,
                });
            }
        }
        let v = self.shared.retro?.probe(pos)?;
        Some(v as i32 * (TABLE_WIN - ply as i32))
    }

    /// Negamax alpha-beta. Returns the value and whether it is proven.
    pub fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> (i32, bool) {
        if self.enter(ply, pv_node) {
            return (0, false);
        }
        if depth > 0 {
            self.shared.tt.prefetch(pos);
        }
        if let Some(v) = Self::decided(pos, ply) {
            return (v, true);
        }
        if let Some(v) = self.table_value(pos, ply) {
            return (v, true);
        }
        if depth <= 0 || ply >= MAX_PLY - 2 {
            // At the horizon the moves are counted, not listed (a leaf only
            // needs to know whether anybody can move).
            if pos.count_legal_moves() == 0 {
                return (0, true);
            }
            return (self.static_value(pos), false);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // Not won (checked above), so nobody can move: a draw.
            return (0, true);
        }
        let node = Node {
            depth,
            alpha,
            beta,
            ply,
            pv_node,
        };
        let tt_move = match self.probe(pos, &moves, &node) {
            ControlFlow::Break(cut) => return cut,
            ControlFlow::Continue(tt_move) => tt_move,
        };
        let picker = self.order(pos, &moves, tt_move, ply);
        match self.search_moves(pos, picker, &node) {
            Some(best) => self.store(pos, &node, &best),
            None => (0, false),
        }
    }

    /// Counts a node entered at `ply` and clears its line; whether the
    /// search must stop.
    #[inline(always)]
    fn enter(&mut self, ply: usize, pv_node: bool) -> bool {
        self.nodes += 1;
        if pv_node {
            self.pv_len[ply] = ply;
        }
        if self.check_stop() {
            return true;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        false
    }

    /// The evaluation at the horizon, kept inside the heuristic range.
    #[inline(always)]
    fn static_value(&mut self, pos: &Position) -> i32 {
        let key = pos.key() | EVAL_FILLED;
        let slot = pos.hash64() as usize & (EVAL_SLOTS - 1);
        if self.evals[slot].0 == key {
            return self.evals[slot].1;
        }
        let v = evaluate_with(pos, &self.weights).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        self.evals[slot] = (key, v);
        v
    }

    /// The table's move for `pos` when it is legal here (`Continue`), or the
    /// table's value when that settles the node (`Break`): an entry proved or
    /// searched deep enough, whose bound decides against the window. A PV
    /// node is searched all the same, for its line.
    #[inline(always)]
    fn probe(
        &self,
        pos: &Position,
        moves: &[Move],
        node: &Node,
    ) -> ControlFlow<(i32, bool), Option<Move>> {
        let Some(e) = self.shared.tt.probe(pos) else {
            return ControlFlow::Continue(None);
        };
        let tt_move = e.mv.filter(|m| moves.contains(m));
        if !node.pv_node && (e.proven || e.depth >= node.depth) {
            let v = value_from_tt(e.value, node.ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= node.beta,
                Bound::Upper => v <= node.alpha,
            };
            if cut {
                return ControlFlow::Break((v, e.proven));
            }
        }
        ControlFlow::Continue(tt_move)
    }

    /// Searches the ordered `moves` of a node until one fails high; the
    /// best of them, or `None` when the search was stopped.
    #[inline(always)]
    fn search_moves(&mut self, pos: &Position, mut moves: Picker, node: &Node) -> Option<Best> {
        let ply = node.ply;
        // A forced move (often a pass) costs no depth.
        let new_depth = if moves.len == 1 {
            node.depth
        } else {
            node.depth - 1
        };
        let mut alpha = node.alpha;
        let mut best = Best {
            value: -INF,
            mv: None,
            proven: false,
            all_proven: true,
        };
        while let Some(m) = moves.next() {
            let i = moves.next - 1;
            let mut child = *pos;
            child.play_unchecked(m);
            if node.pv_node {
                // A child searched only with a null window leaves no line.
                self.pv_len[ply + 1] = ply + 1;
            }
            let (v, p) = self.search_child(&child, i, node, new_depth, alpha);
            if self.stopped {
                return None;
            }
            best.all_proven &= p;
            if v > best.value {
                best.value = v;
                best.mv = Some(m);
                best.proven = p;
                if v > alpha {
                    alpha = v;
                    if node.pv_node {
                        self.extend_line(ply, m);
                    }
                    if v >= node.beta {
                        self.reward_cutoff(pos, m, node.depth, ply);
                        break;
                    }
                }
            }
        }
        Some(best)
    }

    /// The value for the mover of the `i`th move, leading to `child`:
    /// principal variation search, the first move with the whole window and
    /// the others with a null one (reduced late in the list), searched again
    /// when they beat `alpha`.
    #[inline(always)]
    fn search_child(
        &mut self,
        child: &Position,
        i: usize,
        node: &Node,
        new_depth: i32,
        alpha: i32,
    ) -> (i32, bool) {
        let (depth, beta, ply, pv_node) = (node.depth, node.beta, node.ply + 1, node.pv_node);
        if i == 0 {
            return self.child_value(child, new_depth, alpha, beta, ply, pv_node);
        }
        let r = if depth >= 3 && i >= 3 {
            let r = 1 + (i >= 8) as i32 + (depth >= 8 && i >= 12) as i32;
            r - pv_node as i32
        } else {
            0
        };
        let r = r.min(new_depth - 1).max(0);
        let mut found = self.child_value(child, new_depth - r, alpha, alpha + 1, ply, false);
        if found.0 > alpha && r > 0 {
            found = self.child_value(child, new_depth, alpha, alpha + 1, ply, false);
        }
        if found.0 > alpha && found.0 < beta && pv_node {
            found = self.child_value(child, new_depth, alpha, beta, ply, true);
        }
        found
    }

    /// The value of `child` for its parent's mover, searched in the
    /// parent's window `(alpha, beta)`.
    #[inline(always)]
    fn child_value(
        &mut self,
        child: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> (i32, bool) {
        let (v, proven) = self.search(child, depth, -beta, -alpha, ply, pv_node);
        (-v, proven)
    }

    /// Makes `m` followed by the child's line the line of the node at `ply`.
    #[inline(always)]
    fn extend_line(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let (lo, hi) = (ply + 1, self.pv_len[ply + 1]);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][lo..hi].copy_from_slice(&tail[0][lo..hi]);
        self.pv_len[ply] = hi.max(lo);
    }

    /// Remembers a quiet move that refuted a node: a killer at its ply, and
    /// history credit for its side (halved all round when it grows large).
    #[inline(always)]
    fn reward_cutoff(&mut self, pos: &Position, m: Move, depth: i32, ply: usize) {
        if matches!(m.kind(), MoveKind::BearOff(_)) {
            return;
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let side = pos.side_to_move().index();
        let h = &mut self.history[side * Move::INDEX_COUNT + m.index()];
        *h += depth * depth;
        if *h > 1 << 20 {
            for x in self.history.iter_mut() {
                *x /= 2;
            }
        }
    }

    /// Stores a searched node in the table; its value and whether that is
    /// proven.
    #[inline(always)]
    fn store(&self, pos: &Position, node: &Node, best: &Best) -> (i32, bool) {
        let bound = if best.value >= node.beta {
            Bound::Lower
        } else if best.value > node.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A cutoff is proved by the refuting move alone; anything else needs
        // every move proved.
        let proven = if bound == Bound::Lower {
            best.proven
        } else {
            best.all_proven
        };
        self.shared.tt.store(
            pos,
            Entry {
                mv: best.mv,
                value: value_to_tt(best.value, node.ply),
                depth: node.depth,
                bound,
                proven,
            },
        );
        (best.value, proven)
    }

    /// Searches the root moves from index `first` on. Fills in their scores,
    /// proofs and lines, and sorts them (stable) best first. Returns the best
    /// value and whether the whole result is proven.
    pub fn root_search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        first: usize,
    ) -> (i32, bool) {
        self.nodes += 1;
        self.pv_len[0] = 0;
        let mut best = -INF;
        let mut all_proven = true;
        let single = self.root_moves.len() == 1;
        let new_depth = if single { depth.max(1) } else { depth - 1 };
        for i in first..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let mut child = *pos;
            child.play_unchecked(m);
            self.pv_len[1] = 1;
            let (v, p) = if i == first {
                self.child_value(&child, new_depth, alpha, beta, 1, true)
            } else {
                // Principal variation search: a null window first.
                let found = self.child_value(&child, new_depth, alpha, alpha + 1, 1, false);
                if found.0 > alpha && found.0 < beta {
                    self.child_value(&child, new_depth, alpha, beta, 1, true)
                } else {
                    found
                }
            };
            if self.stopped {
                break;
            }
            all_proven &= p;
            if i == first || v > alpha {
                self.record_root_move(i, v, p);
            } else {
                // Failed low: only a bound, keep it below every real score.
                let rm = &mut self.root_moves[i];
                rm.score = -INF;
                rm.proven = false;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        // Moves not reached this time sink below the searched ones.
        self.root_moves[first..].sort_by_key(|r| std::cmp::Reverse(r.score));
        (best, all_proven && !self.stopped)
    }

    /// Records root move `i`'s value `v` (proven or not), its selective
    /// depth and its line: the move, then its reply's line.
    fn record_root_move(&mut self, i: usize, v: i32, proven: bool) {
        let rm = &mut self.root_moves[i];
        rm.score = v;
        rm.proven = proven;
        rm.seldepth = self.seldepth as u32;
        rm.pv.clear();
        rm.pv.push(rm.mv);
        rm.pv
            .extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
    }

    /// Resets scores before a new iteration (keeps the order).
    pub fn start_iteration(&mut self) {
        for rm in &mut self.root_moves {
            rm.prev_score = rm.score;
            rm.score = -INF;
        }
    }

    /// Nodes searched by this thread so far.
    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Nodes searched by all threads, as last published.
    pub fn total_nodes(&self) -> u64 {
        self.shared.total_nodes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_hands_out_moves_in_stable_sort_order() {
        let pos = Position::start(14).expect("a start");
        let moves = pos.legal_moves();
        // Keys with many ties, as history scores and zeros give.
        for seed in 0..20usize {
            let mut keyed = [(0, Move::PASS); 96];
            for (i, &m) in moves.iter().enumerate() {
                keyed[i] = (((i * 7 + seed * 5) % 4) as i32, m);
            }
            let mut sorted = keyed[..moves.len()].to_vec();
            sorted.sort_by_key(|e| std::cmp::Reverse(e.0));
            let mut picker = Picker {
                keyed,
                len: moves.len(),
                next: 0,
            };
            let picked: Vec<Move> = std::iter::from_fn(|| picker.next()).collect();
            let expected: Vec<Move> = sorted.iter().map(|&(_, m)| m).collect();
            assert_eq!(picked, expected, "seed {seed}");
        }
    }
}
