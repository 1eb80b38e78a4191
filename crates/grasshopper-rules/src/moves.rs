//! Actions (`Move`) and their canonical notation: `bar/3`, `3/9`, `20/off`, `pass`.

use super::types::{ParsePointError, Point};
use std::fmt;
use std::str::FromStr;

const BAR: u8 = 24;
const OFF: u8 = 25;
const PASS: u8 = 26;

/// One action of a turn. Two bytes, `Copy`.
///
/// A `Move` is well formed (real points, a step that goes somewhere) but not
/// necessarily legal: `3/15` or `bar/9` can be written and parsed, and
/// [`crate::Position::play`] explains why they are illegal.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: u8,
    to: u8,
}

/// What a [`Move`] does, with its points.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Put a checker from off the board onto a point.
    Enter(Point),
    /// Move a lone checker or the top of a wall.
    Step(Point, Point),
    /// Remove a wall from the board, scoring one point.
    BearOff(Point),
    /// No legal action: the turn goes to the opponent.
    Pass,
}

impl Move {
    /// The forced pass.
    pub const PASS: Move = Move {
        from: PASS,
        to: PASS,
    };

    /// Enter a checker onto `to`.
    #[inline(always)]
    pub const fn enter(to: Point) -> Move {
        Move {
            from: BAR,
            to: to.index() as u8,
        }
    }

    /// Move a checker from `from` to `to`; `None` when the two are the same point.
    pub fn step(from: Point, to: Point) -> Option<Move> {
        (from != to).then(|| Move::step_unchecked(from, to))
    }

    #[inline(always)]
    pub(crate) const fn step_unchecked(from: Point, to: Point) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
        }
    }

    /// Bear off the wall on `from`.
    #[inline(always)]
    pub const fn bear_off(from: Point) -> Move {
        Move {
            from: from.index() as u8,
            to: OFF,
        }
    }

    /// Every well-formed move, legal or not (pass, entries, bear-offs and
    /// steps between any two different points): 601 in all.
    pub fn all() -> impl Iterator<Item = Move> {
        let single = Point::all().flat_map(|a| [Move::enter(a), Move::bear_off(a)]);
        let steps = Point::all().flat_map(|a| Point::all().filter_map(move |b| Move::step(a, b)));
        std::iter::once(Move::PASS).chain(single).chain(steps)
    }

    /// What the move does.
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        match (self.from, self.to) {
            (PASS, _) => MoveKind::Pass,
            (BAR, to) => MoveKind::Enter(Point::from_index_unchecked(to)),
            (from, OFF) => MoveKind::BearOff(Point::from_index_unchecked(from)),
            (from, to) => MoveKind::Step(
                Point::from_index_unchecked(from),
                Point::from_index_unchecked(to),
            ),
        }
    }

    /// True for the pass.
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.from == PASS
    }

    /// A dense number for the move (below [`Move::INDEX_COUNT`]), for
    /// history tables and the like.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.from as usize * 27 + self.to as usize
    }

    /// Upper bound (exclusive) of [`Move::index`].
    pub const INDEX_COUNT: usize = 27 * 27;

    pub(crate) const fn raw_from(self) -> u8 {
        self.from
    }

    pub(crate) const fn raw_to(self) -> u8 {
        self.to
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::Pass => f.write_str("pass"),
            MoveKind::Enter(to) => write!(f, "bar/{to}"),
            MoveKind::Step(from, to) => write!(f, "{from}/{to}"),
            MoveKind::BearOff(from) => write!(f, "{from}/off"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a move string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// Not of the form `bar/N`, `N/M`, `N/off` or `pass`.
    Shape(String),
    /// A point number out of 1..24.
    Point { text: String, point: String },
    /// `N/N`: a step must go somewhere.
    SamePoint(String),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Shape(text) => {
                write!(f, "bad move \"{text}\": expected bar/N, N/M, N/off or pass")
            }
            ParseMoveError::Point { text, point } => write!(
                f,
                "bad move \"{text}\": \"{point}\" is not a point from 1 to 24"
            ),
            ParseMoveError::SamePoint(text) => {
                write!(
                    f,
                    "bad move \"{text}\": a checker must move to another point"
                )
            }
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "pass" {
            return Ok(Move::PASS);
        }
        let (from, to) = s
            .split_once('/')
            .ok_or_else(|| ParseMoveError::Shape(s.to_string()))?;
        let point = |t: &str| {
            t.parse::<Point>()
                .map_err(|ParsePointError(p)| ParseMoveError::Point {
                    text: s.to_string(),
                    point: p,
                })
        };
        match (from, to) {
            ("bar", "off") | ("bar", "bar") | ("off", _) | (_, "bar") => {
                Err(ParseMoveError::Shape(s.to_string()))
            }
            ("bar", to) => Ok(Move::enter(point(to)?)),
            (from, "off") => Ok(Move::bear_off(point(from)?)),
            (from, to) => {
                Move::step(point(from)?, point(to)?).ok_or(ParseMoveError::SamePoint(s.to_string()))
            }
        }
    }
}

/// A fixed-capacity list of moves, filled by move generation without allocating.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MoveList::CAPACITY],
}

impl MoveList {
    /// More than any position can have: at most 13 checkers on the board with
    /// one left to enter, each with at most six destinations, plus six entries.
    pub const CAPACITY: usize = 96;

    /// An empty list.
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [Move::PASS; MoveList::CAPACITY],
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, m: Move) {
        debug_assert!(self.len < Self::CAPACITY);
        // SAFETY-free: indexing is bounds-checked; the capacity argument above
        // means the check never fires.
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering them in search).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no moves (the game is over).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when the list holds `m`.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(n: u8) -> Point {
        Point::new(n).unwrap()
    }

    #[test]
    fn every_well_formed_move_round_trips() {
        assert_eq!(Move::all().count(), 1 + 2 * 24 + 24 * 23);
        for m in Move::all() {
            assert_eq!(m.to_string().parse::<Move>(), Ok(m), "{m}");
        }
    }

    #[test]
    fn notation_reads_as_the_rules_write_it() {
        assert_eq!("bar/3".parse(), Ok(Move::enter(pt(3))));
        assert_eq!(
            "3/9".parse(),
            Move::step(pt(3), pt(9)).ok_or(ParseMoveError::Shape(String::new()))
        );
        assert_eq!("20/off".parse(), Ok(Move::bear_off(pt(20))));
        assert_eq!("pass".parse(), Ok(Move::PASS));
    }

    #[test]
    fn malformed_moves_are_refused_with_the_offending_text() {
        for bad in [
            "", "3", "3-9", "bar/off", "off/3", "3/bar", "bar/bar", "0/6", "3/25", "3/3", "Pass",
            "3/9 ", "/", "3/",
        ] {
            let err = bad.parse::<Move>().unwrap_err();
            assert!(err.to_string().contains(&format!("\"{bad}\"")), "{err}");
        }
    }

    #[test]
    fn move_indices_are_dense_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for m in Move::all() {
            assert!(seen.insert(m.index()), "{m}");
        }
        assert_eq!(seen.len(), 1 + 2 * 24 + 24 * 23);
        assert!(seen.iter().all(|&i| i < Move::INDEX_COUNT));
    }
}
