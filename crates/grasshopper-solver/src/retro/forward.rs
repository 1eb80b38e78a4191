//! A forward (top-down) solve over the same perfect index: depth-first from
//! one position, each position's exact win/draw/loss value memoised in its
//! half-phase's 2-bit table, a win found among the children ends the work at
//! a node (children already known are looked at first). It computes only the
//! positions the value of the root needs, where retrograde analysis computes
//! every position of every phase.

use super::index::locate;
use super::{halves_of, units, Half, Store};
use grasshopper_rules::{Move, Position};
use std::sync::Arc;

/// A forward solver with every half-phase of one game allocated (empty).
pub struct Forward {
    pub store: Store,
    /// Positions whose value this solver computed.
    pub computed: u64,
}

impl Forward {
    /// Allocates the tables of every unit of the game of `n` checkers.
    pub fn new(n: u8) -> Forward {
        let mut store = Store::new();
        for u in units(n) {
            for k in halves_of(u) {
                store.insert(Arc::new(Half::empty(k)));
            }
        }
        Forward { store, computed: 0 }
    }

    /// The value of `pos` for the side to move: +1, 0, -1.
    pub fn value(&mut self, pos: &Position) -> i8 {
        if pos.is_won() {
            return -1;
        }
        if let Some(v) = self.store.value(pos) {
            return v;
        }
        let (key, lone, wall) = locate(pos).expect("not settled, so stored");
        let moves = pos.legal_moves();
        let v = if moves.is_empty() {
            0
        } else if moves[0].is_pass() {
            let mut c = *pos;
            c.play_unchecked(Move::PASS);
            -self.value(&c)
        } else {
            let mut best = -1i8;
            let mut open = [Move::PASS; 96];
            let mut n_open = 0;
            for &m in moves.iter().rev() {
                let mut c = *pos;
                c.play_unchecked(m);
                let cv = if c.is_won() {
                    Some(-1)
                } else {
                    self.store.value(&c)
                };
                match cv {
                    Some(cv) => best = best.max(-cv),
                    None => {
                        open[n_open] = m;
                        n_open += 1;
                    }
                }
                if best == 1 {
                    break;
                }
            }
            if best < 1 {
                for &m in &open[..n_open] {
                    let mut c = *pos;
                    c.play_unchecked(m);
                    best = best.max(-self.value(&c));
                    if best == 1 {
                        break;
                    }
                }
            }
            best
        };
        let h = self.store.get(key).expect("allocated");
        let i = h.layout.index(lone, wall).expect("stored slice");
        h.set(i, v);
        self.computed += 1;
        v
    }
}
