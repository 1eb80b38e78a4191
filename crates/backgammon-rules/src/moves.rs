//! Moves: up to four single-die checker steps, and the fixed-capacity list
//! move generation fills without allocating.

use crate::board::{Board, Point};
use std::fmt;
use std::mem::MaybeUninit;

/// One checker moved by one die: from a point or the bar to a lower point or
/// off. Two bytes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct Step {
    from: u8,
    to: u8,
}

impl Step {
    /// The step `from` → `to`; `None` unless it goes forward (from higher to
    /// lower), starts on a point or the bar and ends on a point or off.
    pub const fn new(from: Point, to: Point) -> Option<Step> {
        if from.index() > to.index() && !from.is_off() && !to.is_bar() {
            Some(Step {
                from: from.index(),
                to: to.index(),
            })
        } else {
            None
        }
    }

    #[inline(always)]
    pub(crate) const fn raw(from: u32, to: u32) -> Step {
        debug_assert!(from > to && from <= 25);
        Step {
            from: from as u8,
            to: to as u8,
        }
    }

    /// Where the checker starts.
    #[inline(always)]
    pub const fn from(self) -> Point {
        Point::from_index_unchecked(self.from)
    }

    /// Where it ends.
    #[inline(always)]
    pub const fn to(self) -> Point {
        Point::from_index_unchecked(self.to)
    }

    /// Pips travelled (a bear-off counts only the pips to off).
    pub const fn pips(self) -> u8 {
        self.from - self.to
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.from(), self.to())
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A whole turn's move: up to four [`Step`]s in an order they can be played
/// (the empty move is the pass). Eight bytes, `Copy`: unused steps are all
/// zero, which no step is (a step never starts off the board).
///
/// Two moves with the same steps in another order, or through other
/// intermediate points, may reach the same position; move generation keeps
/// one move per resulting position.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
#[repr(C, align(8))]
pub struct Move {
    steps: [Step; 4],
}

impl Move {
    /// No checker moves: the turn passes.
    pub const PASS: Move = Move {
        steps: [Step { from: 0, to: 0 }; 4],
    };

    /// The move made of these steps, played in this order; `None` for more
    /// than four.
    pub fn new(steps: &[Step]) -> Option<Move> {
        if steps.len() > 4 {
            return None;
        }
        let mut m = Move::PASS;
        m.steps[..steps.len()].copy_from_slice(steps);
        Some(m)
    }

    /// The move packed two bytes a step (from, then to), the first step in
    /// the lowest bytes, zero bytes after the last step.
    #[inline(always)]
    pub(crate) fn from_packed(steps: u64) -> Move {
        // SAFETY: `Step` is `repr(C)` of two `u8`s, so `[Step; 4]` has the
        // layout of `[u8; 8]` and every byte pattern is a value of it.
        let steps = unsafe { std::mem::transmute::<[u8; 8], [Step; 4]>(steps.to_le_bytes()) };
        Move { steps }
    }

    /// The steps, in playing order.
    #[inline(always)]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len()]
    }

    /// Number of dice used (0 for the pass).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.steps.iter().take_while(|s| s.from != 0).count()
    }

    /// True for the pass.
    #[inline(always)]
    pub fn is_pass(&self) -> bool {
        self.steps[0].from == 0
    }

    /// True for the pass (the move has no steps).
    pub fn is_empty(&self) -> bool {
        self.is_pass()
    }
}

/// The steps joined by spaces with no hit marks (`pass` for none); the
/// notation that needs the board is [`crate::notation`].
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("pass");
        }
        for (i, s) in self.steps().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// A fixed-capacity list of legal moves, each with the board it leads to
/// (still seen from the mover's side), filled without allocating.
pub struct MoveList {
    len: usize,
    moves: [MaybeUninit<Move>; MoveList::CAPACITY],
    boards: [MaybeUninit<Board>; MoveList::CAPACITY],
}

impl MoveList {
    /// No position has more legal moves. With doubles a move is fixed by the
    /// multiset of the four points its steps start from, so at most four of
    /// the steps' starts are chosen from at most 15 checkers: the count of
    /// such choices peaks at C(18, 4) = 3060 with 15 checkers on 15 points.
    /// Without doubles a move is a checker for each die, far fewer.
    pub const CAPACITY: usize = 3060;

    /// An empty list (nothing is initialised, so this costs nothing).
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [const { MaybeUninit::uninit() }; MoveList::CAPACITY],
            boards: [const { MaybeUninit::uninit() }; MoveList::CAPACITY],
        }
    }

    #[inline(always)]
    pub(crate) fn push_pair(&mut self, m: Move, (me, opp): (u128, u128)) {
        self.push_sides(m, me, opp);
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, m: Move, b: Board) {
        self.push_sides(m, b.sides[0], b.sides[1]);
    }

    /// Appends a move and the board of these two side words. The words are
    /// stored one by one: building the board on the stack and copying it
    /// whole makes a 32-byte load wait for the smaller stores that built
    /// it, which cost a fifth of generation time.
    #[inline(always)]
    pub(crate) fn push_sides(&mut self, m: Move, me: u128, opp: u128) {
        // The capacity argument above means the index never overflows;
        // indexing keeps it memory-safe if it ever did.
        self.moves[self.len] = MaybeUninit::new(m);
        let board = self.boards[self.len].as_mut_ptr();
        // SAFETY: `board` points to a slot of our array; the fields are
        // written through raw pointers without reading the uninitialised slot.
        unsafe {
            std::ptr::addr_of_mut!((*board).sides[0]).write(me);
            std::ptr::addr_of_mut!((*board).sides[1]).write(opp);
        }
        self.len += 1;
    }

    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty (generation never leaves it so: a pass is a move).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves.
    #[inline(always)]
    pub fn moves(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast(), self.len) }
    }

    /// The boards the moves lead to, in the same order, seen from the mover.
    #[inline(always)]
    pub fn boards(&self) -> &[Board] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.boards.as_ptr().cast(), self.len) }
    }

    /// The `i`-th move and its board.
    pub fn get(&self, i: usize) -> Option<(Move, Board)> {
        Some((*self.moves().get(i)?, self.boards()[i]))
    }

    /// Moves and boards together.
    pub fn iter(&self) -> impl Iterator<Item = (Move, Board)> + '_ {
        self.moves()
            .iter()
            .copied()
            .zip(self.boards().iter().copied())
    }

    /// The index of the move that leads to `board`, if any.
    pub fn find(&self, board: &Board) -> Option<usize> {
        self.boards().iter().position(|b| b == board)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut out = MoveList::new();
        for (m, b) in self.iter() {
            out.push(m, b);
        }
        out
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.moves()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(n: u8) -> Point {
        Point::new(n).unwrap()
    }

    #[test]
    fn steps_go_forward_only() {
        assert!(Step::new(pt(24), pt(18)).is_some());
        assert!(Step::new(Point::BAR, pt(22)).is_some());
        assert!(Step::new(pt(6), Point::OFF).is_some());
        assert!(Step::new(pt(6), pt(8)).is_none());
        assert!(Step::new(pt(6), pt(6)).is_none());
        assert!(Step::new(Point::OFF, pt(6)).is_none());
        assert!(Step::new(pt(6), Point::BAR).is_none());
        assert_eq!(Step::new(Point::BAR, pt(22)).unwrap().to_string(), "bar/22");
        assert_eq!(Step::new(pt(3), Point::OFF).unwrap().pips(), 3);
    }

    #[test]
    fn moves_hold_at_most_four_steps() {
        let s = Step::new(pt(8), pt(2)).unwrap();
        assert_eq!(Move::new(&[s; 4]).unwrap().len(), 4);
        assert!(Move::new(&[s; 5]).is_none());
        assert_eq!(format!("{:?}", Move::new(&[s, s]).unwrap()), "8/2 8/2");
        assert_eq!(format!("{:?}", Move::PASS), "pass");
    }

    #[test]
    fn list_keeps_moves_with_their_boards() {
        let mut l = MoveList::new();
        assert!(l.is_empty());
        l.push(Move::PASS, Board::START);
        assert_eq!(l.len(), 1);
        assert_eq!(l.get(0), Some((Move::PASS, Board::START)));
        assert_eq!(l.find(&Board::START), Some(0));
        assert_eq!(l.clone().moves(), l.moves());
    }
}
