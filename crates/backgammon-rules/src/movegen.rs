//! Legal move generation (docs/rules/RULES-backgammon.md §3-5), one move per resulting
//! position, without allocating.
//!
//! The work is done on bit masks of the mover's points: which points hold
//! its checkers, which are blocked (two or more opposing checkers) and which
//! hold an opposing blot. The points a die can be played from are then a few
//! mask operations, bar and bear-off rules included (see [`sources`]).
//!
//! Doubles: a move is fixed by the multiset of points its four steps start
//! from, and playing the steps from the highest start down is always legal
//! when any order is (entering comes first, checkers come home before
//! bearing off, and a checker only moves on after it has arrived). So the
//! generator only plays starts in non-increasing order and meets every
//! resulting position exactly once: no duplicate check is needed.
//!
//! Other rolls: both orders of the dice are tried. Two sequences reach the
//! same position only when they play the same two steps in the other
//! order, or when they move one checker through the other intermediate
//! point (or a checker and the one that refills its point), or bear off
//! the same two checkers with the dice swapped. The second order skips a
//! second step already legal as a first step (the first order played that
//! pair), and the other cases are recognised from the masks, so no
//! duplicate is ever generated and none needs looking up.

use crate::board::{nib, slot, Board};
use crate::dice::Dice;
use crate::moves::{Move, MoveList};

/// Bit of the bar in a mask of the mover's points.
pub(crate) const BAR_BIT: u32 = 1 << 25;
/// Points 1..=24.
const POINTS: u32 = 0x01FF_FFFE;
/// Slots 7..=25: a checker there keeps its side from bearing off.
pub(crate) const OUTSIDE: u32 = 0x03FF_FF80;

/// The position being generated from, as words and masks in the mover's numbering.
#[derive(Copy, Clone)]
pub(crate) struct State {
    pub(crate) me: u128,
    pub(crate) opp: u128,
    /// Bit p (1..=25): the mover has a checker on p.
    pub(crate) occ: u32,
    /// Bit p (1..=24): exactly one opposing checker on the mover's p.
    pub(crate) blots: u32,
}

/// One bit per slot of a side word, set when the slot's count is at least
/// one (`nonzero`) or at least two (`many`).
#[inline(always)]
fn slot_masks(w: u128) -> (u32, u32) {
    const ONES: u128 = 0x11_1111_1111_1111_1111_1111_1111;
    let many = (w >> 1 | w >> 2 | w >> 3) & ONES;
    let nonzero = (w & ONES) | many;
    (compress(nonzero), compress(many))
}

/// Gathers bit 4i of `x` into bit i, for the 26 slots.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn compress(x: u128) -> u32 {
    use std::arch::x86_64::_pext_u64;
    // SAFETY: the bmi2 target feature is enabled at compile time.
    unsafe {
        let lo = _pext_u64(x as u64, 0x1111_1111_1111_1111);
        let hi = _pext_u64((x >> 64) as u64, 0x11_1111_1111);
        (lo | hi << 16) as u32
    }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn compress(x: u128) -> u32 {
    (0..26).fold(0, |m, i| m | (((x >> (4 * i)) as u32 & 1) << i))
}

/// The generation state of `board` and the mask of points the mover cannot
/// land on.
#[inline(always)]
pub(crate) fn start(board: &Board) -> (State, u32) {
    let (state, blocked, _) = start_with_singles(board);
    (state, blocked)
}

/// [`start`], and the mask of the mover's points holding exactly one checker.
#[inline(always)]
fn start_with_singles(board: &Board) -> (State, u32, u32) {
    let [me, opp] = board.sides;
    let (occ, mine_many) = slot_masks(me);
    let (theirs, many) = slot_masks(opp);
    // Their slot s is the mover's point 25 - s: reverse the 26-bit mask.
    let mirror = |m: u32| (m.reverse_bits() >> 6) & POINTS;
    let state = State {
        me,
        opp,
        occ: occ & !1,
        blots: mirror(theirs & !many),
    };
    (state, mirror(many), occ & !mine_many & !1)
}

/// The points the mover may play die `d` from: the bar while a checker is
/// there; else any checker whose landing point is not blocked; and, with
/// all checkers home, the checker on point `d` and, if no checker stands on
/// point `d` or higher, the highest checker.
#[inline(always)]
fn sources(occ: u32, blocked: u32, d: u32) -> u32 {
    if occ & BAR_BIT != 0 {
        return BAR_BIT & !(blocked << d);
    }
    let mut m = occ & !(blocked << d) & !((2 << d) - 1);
    if occ & OUTSIDE == 0 {
        m |= occ & (1 << d);
        let top = (occ | 1).ilog2();
        if top < d {
            m |= (1 << top) & occ;
        }
    }
    m
}

/// Per slot: a one in that slot's nibble (32 entries, so that an index
/// masked with 31 needs no bounds check). Loads are cheaper than shifting
/// a 128-bit one by a variable amount, which took a sixth of the time.
static NIB: [u128; 32] = {
    let mut t = [0u128; 32];
    let mut i = 0;
    while i < 26 {
        t[i] = nib(i as u32);
        i += 1;
    }
    t
};

/// Per slot: fifteen in that slot's nibble (the nibble's mask).
static NIB_MASK: [u128; 32] = {
    let mut t = [0u128; 32];
    let mut i = 0;
    while i < 26 {
        t[i] = 15 * nib(i as u32);
        i += 1;
    }
    t
};

/// Per die d and slot p: what playing d from p adds to the mover's word
/// (a checker leaves p for p - d, or off).
static DELTA: [[u128; 32]; 8] = {
    let mut t = [[0u128; 32]; 8];
    let mut d = 1;
    while d <= 6 {
        let mut p = 1;
        while p <= 25 {
            let to = (p as u32).saturating_sub(d as u32);
            t[d][p] = nib(to).wrapping_sub(nib(p as u32));
            p += 1;
        }
        d += 1;
    }
    t
};

/// Per mover's point p: what a hit on p adds to the opponent's word (their
/// checker leaves their point 25 - p for their bar).
static HIT: [u128; 32] = {
    let mut t = [0u128; 32];
    let mut p = 1;
    while p < 25 {
        t[p] = nib(25).wrapping_sub(nib(25 - p as u32));
        p += 1;
    }
    t
};

/// The state after the mover plays die `d` from `from` (hitting a blot).
#[inline(always)]
pub(crate) fn step(s: &State, from: u32, d: u32) -> State {
    let to = from.saturating_sub(d);
    let (from, to) = (from & 31, to & 31);
    let (me, opp) = finish(s, from, d);
    let mut n = *s;
    n.me = me;
    n.opp = opp;
    // One checker there before the step: the point empties.
    if s.me & NIB_MASK[from as usize] == NIB[from as usize] {
        n.occ &= !(1 << from);
    }
    n.occ |= (1 << to) & !1;
    n.blots &= !(1 << to);
    n
}

/// The two side words after the mover plays die `d` from `from`: a
/// [`step`] without the masks, for the last step of a move.
#[inline(always)]
fn finish(s: &State, from: u32, d: u32) -> (u128, u128) {
    let to = from.saturating_sub(d) & 31;
    let me = s.me.wrapping_add(DELTA[d as usize & 7][from as usize & 31]);
    // All ones when the landing point holds a blot, else zero: no branch
    // to mispredict on hits.
    let hit = 0u128.wrapping_sub(((s.blots >> to) & 1) as u128);
    (me, s.opp.wrapping_add(HIT[to as usize] & hit))
}

/// The step of die `d` from `from`, packed as `Move::from_packed` reads it.
#[inline(always)]
fn mk(from: u32, d: u32) -> u64 {
    (from | from.saturating_sub(d) << 8) as u64
}

/// Iterates the set bits of a mask, lowest first.
#[inline(always)]
fn bits(mut m: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros();
            m &= m - 1;
            b
        })
    })
}

/// The state after the first step of a non-double, from the start: the
/// point `from` empties when it held a single checker.
#[inline(always)]
fn first_step(s0: &State, singles: u32, from: u32, d: u32) -> State {
    let (me, opp) = finish(s0, from, d);
    let land = from.saturating_sub(d);
    State {
        me,
        opp,
        occ: (s0.occ & !(singles & (1 << from))) | ((1 << land) & !1),
        blots: s0.blots & !(1 << land),
    }
}

/// The points die `d` can be played from after a first step: while no
/// checker is on the bar and one is still outside the home board, just the
/// occupied points whose landing point is open (`lands`); else [`sources`].
#[inline(always)]
fn second_sources(simple: bool, s1: &State, blocked: u32, lands: u32, d: u32) -> u32 {
    if simple && s1.occ & OUTSIDE != 0 {
        s1.occ & lands
    } else {
        sources(s1.occ, blocked, d)
    }
}

fn non_double(board: &Board, hi: u32, lo: u32, list: &mut MoveList) {
    let (s0, blocked, singles) = start_with_singles(board);
    let first_hi = sources(s0.occ, blocked, hi);
    let first_lo = sources(s0.occ, blocked, lo);
    let two = |a: u64, b: u64| Move::from_packed(a | b << 16);
    let blot = |p: u32| s0.blots & (1 << p) != 0;
    // Without checkers on the bar, a step that leaves a checker outside the
    // home board changes the sources only at its two points.
    let simple = s0.occ & BAR_BIT == 0;
    let lands = |d: u32| !(blocked << d) & !((2u32 << d) - 1);
    let (lands_hi, lands_lo) = (lands(hi), lands(lo));
    // Points from which one checker can play the larger die, then the smaller.
    let mut chains = 0u32;
    for p in bits(first_hi) {
        let s1 = first_step(&s0, singles, p, hi);
        let land = p.saturating_sub(hi);
        for q in bits(second_sources(simple, &s1, blocked, lands_lo, lo)) {
            if q == land {
                chains |= 1 << p;
                // A checker on p - lo playing the larger die, refilled by
                // the smaller from p, ends the same unless this path hits
                // on `land`; that pair is met in this loop too.
                if p > lo && first_hi & (1 << (p - lo)) != 0 && !blot(land) {
                    continue;
                }
            }
            list.push_pair(two(mk(p, hi), mk(q, lo)), finish(&s1, q, lo));
        }
    }
    for q in bits(first_lo) {
        let s1 = first_step(&s0, singles, q, lo);
        let land = q.saturating_sub(lo);
        // A second step legal at the start was played first above. What is
        // left: the checker just moved going on, or a bear-off the first
        // step made legal.
        for p in bits(second_sources(simple, &s1, blocked, lands_hi, hi) & !first_hi) {
            let same_chain =
                p == land && chains & (1 << q) != 0 && !blot(land) && !blot(q.saturating_sub(hi));
            // Both off, the lower one now the highest: above, the larger
            // die bore off q and the smaller p.
            let both_off = land == 0 && p < q;
            if !same_chain && !both_off {
                list.push_pair(two(mk(q, lo), mk(p, hi)), finish(&s1, p, hi));
            }
        }
    }
    if list.is_empty() {
        // Only one die can be played: the larger if it can (§3).
        let (d, from) = if first_hi != 0 {
            (hi, first_hi)
        } else {
            (lo, first_lo)
        };
        for p in bits(from) {
            list.push_pair(Move::from_packed(mk(p, d)), finish(&s0, p, d));
        }
    }
}

/// Adds a double's move of `len` steps if no longer one has been found,
/// dropping shorter ones first when it is the longest yet.
#[inline(always)]
fn record(list: &mut MoveList, best: &mut usize, steps: u64, len: usize, s: &State) {
    if len > *best {
        list.clear();
        *best = len;
    }
    if len == *best {
        list.push_sides(Move::from_packed(steps), s.me, s.opp);
    }
}

fn double(board: &Board, d: u32, list: &mut MoveList) {
    let (s0, blocked) = start(board);
    // Starts at or below point p: later steps never start higher.
    let upto = |p: u32| (2u32 << p) - 1;
    let mut best = 0;
    for p1 in bits(sources(s0.occ, blocked, d)) {
        let s1 = step(&s0, p1, d);
        let a = mk(p1, d);
        let from2 = sources(s1.occ, blocked, d) & upto(p1);
        if from2 == 0 {
            record(list, &mut best, a, 1, &s1);
            continue;
        }
        for p2 in bits(from2) {
            let s2 = step(&s1, p2, d);
            let ab = a | mk(p2, d) << 16;
            let from3 = sources(s2.occ, blocked, d) & upto(p2);
            if from3 == 0 {
                record(list, &mut best, ab, 2, &s2);
                continue;
            }
            for p3 in bits(from3) {
                let s3 = step(&s2, p3, d);
                let abc = ab | mk(p3, d) << 32;
                let from4 = sources(s3.occ, blocked, d) & upto(p3);
                if from4 == 0 {
                    record(list, &mut best, abc, 3, &s3);
                    continue;
                }
                if best < 4 {
                    list.clear();
                    best = 4;
                }
                for p4 in bits(from4) {
                    let m = Move::from_packed(abc | mk(p4, d) << 48);
                    let (me, opp) = finish(&s3, p4, d);
                    list.push_sides(m, me, opp);
                }
            }
        }
    }
}

impl Board {
    /// Every legal move of the player on roll with `dice`, one per resulting
    /// position, each with the board it leads to. When nothing can be played
    /// the list holds the one move [`Move::PASS`].
    ///
    /// The list is returned by value, and Rust copies all of its fixed
    /// capacity (about 120 KiB) when it moves: loops should keep one list and
    /// call [`Board::legal_moves_into`].
    #[inline(always)]
    pub fn legal_moves(&self, dice: Dice) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(dice, &mut list);
        list
    }

    /// [`Board::legal_moves`] into a list the caller keeps (it is cleared first).
    #[inline]
    pub fn legal_moves_into(&self, dice: Dice, list: &mut MoveList) {
        list.clear();
        let (hi, lo) = (dice.high() as u32, dice.low() as u32);
        if hi == lo {
            double(self, hi, list);
        } else {
            non_double(self, hi, lo, list);
        }
        if list.is_empty() {
            list.push(Move::PASS, *self);
        }
    }

    /// The board after the player on roll plays `m`, still seen from their
    /// side; the fast path for search. `m` must be legal here: other moves
    /// give an unspecified (but memory-safe) board.
    #[inline]
    pub fn apply_unchecked(&self, m: Move) -> Board {
        let [mut me, mut opp] = self.sides;
        for s in m.steps() {
            let (from, to) = (s.from().index() as u32, s.to().index() as u32);
            me = me.wrapping_sub(nib(from)).wrapping_add(nib(to));
            if (1..=24).contains(&to) && slot(opp, 25 - to) == 1 {
                opp = opp.wrapping_sub(nib(25 - to)).wrapping_add(nib(25));
            }
        }
        Board { sides: [me, opp] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_mirror_the_opponent() {
        let b = Board::START;
        let (s, blocked) = start(&b);
        // Mine: 6, 8, 13, 24. Theirs seen from me: 19, 17, 12, 1.
        assert_eq!(s.occ, 1 << 6 | 1 << 8 | 1 << 13 | 1 << 24);
        assert_eq!(blocked, 1 << 19 | 1 << 17 | 1 << 12 | 1 << 1);
        assert_eq!(s.blots, 0);
    }

    #[test]
    fn opening_rolls_have_the_known_move_counts() {
        // Counts of distinct resulting positions from the start, as GNU
        // Backgammon's hint lists them.
        let expect = [
            (11, 42),
            (21, 15),
            (22, 75),
            (31, 16),
            (32, 17),
            (33, 73),
            (41, 14),
            (42, 18),
            (43, 17),
            (44, 52),
            (51, 8),
            (52, 8),
            (53, 9),
            (54, 9),
            (55, 4),
            (61, 10),
            (62, 14),
            (63, 14),
            (64, 14),
            (65, 7),
            (66, 11),
        ];
        for (roll, n) in expect {
            let l = Board::START.legal_moves(Dice::new(roll / 10, roll % 10).unwrap());
            assert_eq!(l.len(), n, "{roll}: {l:?}");
        }
    }
}
