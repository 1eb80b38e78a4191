//! Positions: points, sides and the compact board seen from the player on roll.
//!
//! A [`Board`] is two 128-bit words, one per side, each holding 26 four-bit
//! counts: slot 0 is the checkers borne off, slots 1..=24 the side's own points
//! and slot 25 the bar. Fifteen checkers fit in four bits, so moving a checker
//! is one subtraction and one addition, equality and hashing are exact, and
//! swapping sides is exchanging the two words.

use std::fmt;
use std::str::FromStr;

/// Checkers per side.
pub const CHECKERS: u8 = 15;

/// A place a checker can be, in its own side's numbering: a point 1..=24
/// (checkers move towards 1), the bar (25) or off the board (0).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// Borne off: where checkers go from the home board.
    pub const OFF: Point = Point(0);
    /// The bar: where hit checkers wait to enter, beyond point 24.
    pub const BAR: Point = Point(25);

    /// The point with this number (1..=24), or `None`.
    pub const fn new(number: u8) -> Option<Point> {
        if number >= 1 && number <= 24 {
            Some(Point(number))
        } else {
            None
        }
    }

    /// The place with this index: 0 = off, 1..=24 = points, 25 = bar.
    pub const fn from_index(index: u8) -> Option<Point> {
        if index <= 25 {
            Some(Point(index))
        } else {
            None
        }
    }

    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u8) -> Point {
        debug_assert!(index <= 25);
        Point(index)
    }

    /// 0 for off, 1..=24 for points, 25 for the bar; also the pips a checker
    /// here still has to travel to bear off.
    #[inline(always)]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// True for the bar.
    pub const fn is_bar(self) -> bool {
        self.0 == 25
    }

    /// True for off the board.
    pub const fn is_off(self) -> bool {
        self.0 == 0
    }

    /// The same point in the other side's numbering (`p` is their `25 - p`);
    /// `None` for the bar and off, which belong to one side.
    pub const fn mirror(self) -> Option<Point> {
        if self.0 >= 1 && self.0 <= 24 {
            Some(Point(25 - self.0))
        } else {
            None
        }
    }

    /// The 24 points, 1 first.
    pub fn points() -> impl Iterator<Item = Point> {
        (1..=24).map(Point)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("off"),
            25 => f.write_str("bar"),
            n => write!(f, "{n}"),
        }
    }
}

/// Error from parsing a [`Point`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePointError(pub String);

impl fmt::Display for ParsePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad point \"{}\": expected a number from 1 to 24, bar or off",
            self.0
        )
    }
}

impl std::error::Error for ParsePointError {}

impl FromStr for Point {
    type Err = ParsePointError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParsePointError(s.to_string());
        match s {
            "bar" => Ok(Point::BAR),
            "off" => Ok(Point::OFF),
            // Only the canonical spelling: "+3", " 3" and "03" are not points.
            _ if s.is_empty() || s.len() > 2 || s.starts_with('0') => Err(bad()),
            _ if !s.bytes().all(|b| b.is_ascii_digit()) => Err(bad()),
            _ => s.parse::<u8>().ok().and_then(Point::new).ok_or_else(bad),
        }
    }
}

/// The two sides of a [`Board`]: the player on roll and the opponent.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player whose turn it is; the board is seen from their side.
    OnRoll = 0,
    /// The other player.
    Opponent = 1,
}

impl Side {
    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::OnRoll => Side::Opponent,
            Side::Opponent => Side::OnRoll,
        }
    }

    /// 0 for the player on roll, 1 for the opponent.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A nibble with value one in slot `i`.
#[inline(always)]
pub(crate) const fn nib(i: u32) -> u128 {
    1u128 << (4 * i)
}

/// The count in slot `i` of a side word.
#[inline(always)]
pub(crate) const fn slot(word: u128, i: u32) -> u32 {
    (word >> (4 * i)) as u32 & 15
}

/// A backgammon position seen from the player on roll: 15 checkers a side,
/// each on a point, on the bar or borne off. 32 bytes, `Copy`, compared and
/// hashed exactly.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Per side (index [`Side::index`]): 26 four-bit counts, slot 0 off,
    /// 1..=24 the side's own points, 25 the bar. Each side's counts sum to 15.
    pub(crate) sides: [u128; 2],
}

/// Why counts do not make a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// More than 15 checkers on the board for one side.
    TooManyCheckers { side: Side, count: u32 },
    /// Both sides have checkers on the same point (named in the on-roll
    /// player's numbering).
    SharedPoint(Point),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::TooManyCheckers { side, count } => {
                let who = match side {
                    Side::OnRoll => "the player on roll",
                    Side::Opponent => "the opponent",
                };
                write!(f, "{who} has {count} checkers; a side has at most 15")
            }
            BoardError::SharedPoint(p) => {
                write!(f, "point {p} holds checkers of both sides")
            }
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// The starting position: 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6.
    pub const START: Board = {
        let side = 2 * nib(24) + 5 * nib(13) + 3 * nib(8) + 5 * nib(6);
        Board {
            sides: [side, side],
        }
    };

    /// A board from per-side counts in GNU Backgammon's layout: index 0..=23
    /// holds points 1..=24 in that side's numbering, index 24 the bar.
    /// Checkers not on the board are borne off.
    pub fn from_counts(on_roll: &[u8; 25], opponent: &[u8; 25]) -> Result<Board, BoardError> {
        let mut sides = [0u128; 2];
        for (s, counts) in [on_roll, opponent].into_iter().enumerate() {
            let total: u32 = counts.iter().map(|&c| c as u32).sum();
            if total > CHECKERS as u32 {
                let side = if s == 0 { Side::OnRoll } else { Side::Opponent };
                return Err(BoardError::TooManyCheckers { side, count: total });
            }
            sides[s] = (CHECKERS as u32 - total) as u128;
            for (i, &c) in counts.iter().enumerate() {
                sides[s] += c as u128 * nib(i as u32 + 1);
            }
        }
        for p in 1..=24u32 {
            if slot(sides[0], p) > 0 && slot(sides[1], 25 - p) > 0 {
                return Err(BoardError::SharedPoint(Point(p as u8)));
            }
        }
        Ok(Board { sides })
    }

    /// The counts of one side in GNU Backgammon's layout (see [`Board::from_counts`]).
    pub fn counts(&self, side: Side) -> [u8; 25] {
        let w = self.sides[side.index()];
        std::array::from_fn(|i| slot(w, i as u32 + 1) as u8)
    }

    /// Checkers of `side` at `point`, in that side's own numbering.
    #[inline(always)]
    pub fn count(&self, side: Side, point: Point) -> u8 {
        slot(self.sides[side.index()], point.0 as u32) as u8
    }

    /// Checkers `side` has borne off.
    #[inline(always)]
    pub fn off(&self, side: Side) -> u8 {
        self.count(side, Point::OFF)
    }

    /// Checkers `side` has on the bar.
    #[inline(always)]
    pub fn bar(&self, side: Side) -> u8 {
        self.count(side, Point::BAR)
    }

    /// The same position seen from the other side (after the turn passes).
    #[inline(always)]
    pub const fn swapped(&self) -> Board {
        Board {
            sides: [self.sides[1], self.sides[0]],
        }
    }

    /// Pips `side` must move to bear off all its checkers (the bar counts 25).
    pub fn pips(&self, side: Side) -> u32 {
        let w = self.sides[side.index()];
        (1..=25).map(|i| i * slot(w, i)).sum()
    }

    /// True when `side` has borne off all 15 checkers (it has won).
    #[inline(always)]
    pub fn has_won(&self, side: Side) -> bool {
        self.off(side) == CHECKERS
    }

    /// True when all of `side`'s checkers are home or off, so it may bear off.
    pub fn all_home(&self, side: Side) -> bool {
        // Slots 7..=25 are the nibbles above bit 28.
        self.sides[side.index()] >> 28 == 0
    }

    /// The highest occupied point of `side` (the bar counts 25), or `None`
    /// when all its checkers are off.
    pub fn highest(&self, side: Side) -> Option<Point> {
        let w = self.sides[side.index()] >> 4;
        (w != 0).then(|| Point(((127 - w.leading_zeros()) / 4 + 1) as u8))
    }

    /// The 80-bit key GNU Backgammon's Position ID encodes: for the opponent,
    /// then the player on roll, each of its points 1..=24 and then the bar as
    /// that many one-bits and a zero, least significant bit first.
    pub fn key(&self) -> PositionKey {
        let mut bits: u128 = 0;
        let mut at = 0u32;
        for w in [self.sides[1], self.sides[0]] {
            for i in 1..=25 {
                let c = slot(w, i);
                bits |= ((1u128 << c) - 1) << at;
                at += c + 1;
            }
        }
        let bytes = bits.to_le_bytes();
        PositionKey(std::array::from_fn(|i| bytes[i]))
    }

    /// The board a key describes, or why it describes none.
    pub fn from_key(key: &PositionKey) -> Result<Board, KeyError> {
        let mut b = [0u8; 16];
        b[..10].copy_from_slice(&key.0);
        let bits = u128::from_le_bytes(b);
        let mut counts = [[0u8; 25]; 2];
        let mut at = 0u32;
        for side in [1, 0] {
            for count in counts[side].iter_mut() {
                let run = (!(bits >> at)).trailing_zeros();
                if at + run >= 80 {
                    return Err(KeyError::TooLong);
                }
                *count = run.min(255) as u8;
                at += run + 1;
            }
        }
        if bits >> at != 0 {
            return Err(KeyError::TrailingBits);
        }
        Board::from_counts(&counts[0], &counts[1]).map_err(KeyError::Board)
    }

    /// The GNU Backgammon Position ID (14 characters), e.g. `4HPwATDgc/ABMA`
    /// for the start.
    pub fn position_id(&self) -> String {
        crate::base64::encode(&self.key().0, 14)
    }

    /// The board of a GNU Backgammon Position ID.
    pub fn from_position_id(text: &str) -> Result<Board, ParsePositionIdError> {
        let err = |reason| ParsePositionIdError {
            text: text.to_string(),
            reason,
        };
        if let Some((at, c)) = text.chars().enumerate().find(|(_, c)| !c.is_ascii()) {
            return Err(err(PositionIdFault::NonAscii(at + 1, c)));
        }
        if text.len() != 14 {
            return Err(err(PositionIdFault::Length(text.len())));
        }
        let bytes =
            crate::base64::decode::<10>(text).map_err(|e| err(PositionIdFault::Base64(e)))?;
        Board::from_key(&PositionKey(bytes)).map_err(|e| err(PositionIdFault::Key(e)))
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::START
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.position_id())
    }
}

/// The board as its Position ID.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position_id())
    }
}

/// Reads a Position ID.
impl FromStr for Board {
    type Err = ParsePositionIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Board::from_position_id(s)
    }
}

/// The 80-bit position key of GNU Backgammon, as ten bytes, least
/// significant first. Exact: two boards have the same key only if equal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PositionKey(pub [u8; 10]);

/// Why a position key describes no board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyError {
    /// The 50 runs of one-bits do not fit in 80 bits.
    TooLong,
    /// One-bits after the 50th run.
    TrailingBits,
    /// The runs make an impossible board.
    Board(BoardError),
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::TooLong => f.write_str("it describes more than 30 checkers"),
            KeyError::TrailingBits => f.write_str("it has bits set after the last point"),
            KeyError::Board(e) => e.fmt(f),
        }
    }
}

/// What is wrong with a Position ID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionIdFault {
    /// Not 14 characters.
    Length(usize),
    /// The character at this place (counting from 1) is not ASCII, so not
    /// base64.
    NonAscii(usize, char),
    /// A character outside the base64 alphabet, or padding bits set.
    Base64(crate::base64::Base64Error),
    /// The decoded key is not a board.
    Key(KeyError),
}

/// Error from reading a Position ID: the text and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePositionIdError {
    pub text: String,
    pub reason: PositionIdFault,
}

impl fmt::Display for ParsePositionIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad Position ID \"{}\": ", self.text)?;
        match &self.reason {
            PositionIdFault::Length(n) => write!(f, "expected 14 characters, found {n}"),
            PositionIdFault::NonAscii(at, c) => write!(
                f,
                "character {at} ({c:?}) is not ASCII; expected 14 base64 characters"
            ),
            PositionIdFault::Base64(e) => e.fmt(f),
            PositionIdFault::Key(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParsePositionIdError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_round_trip_through_text() {
        for i in 0..=25 {
            let p = Point::from_index(i).unwrap();
            assert_eq!(p.to_string().parse::<Point>(), Ok(p));
        }
        for bad in ["0", "25", "", "+3", "03", "Bar", "-1", "100"] {
            assert!(bad.parse::<Point>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn start_position_id_is_gnubgs() {
        assert_eq!(Board::START.position_id(), "4HPwATDgc/ABMA");
        assert_eq!("4HPwATDgc/ABMA".parse::<Board>(), Ok(Board::START));
        assert_eq!(Board::START.pips(Side::OnRoll), 167);
    }

    #[test]
    fn counts_round_trip_and_swap() {
        let mut me = [0u8; 25];
        let mut opp = [0u8; 25];
        me[5] = 4; // my 6-point
        me[24] = 2; // bar
        opp[0] = 3; // their 1-point = my 24
        let b = Board::from_counts(&me, &opp).unwrap();
        assert_eq!(b.counts(Side::OnRoll), me);
        assert_eq!(b.counts(Side::Opponent), opp);
        assert_eq!(b.off(Side::OnRoll), 9);
        assert_eq!(b.bar(Side::OnRoll), 2);
        assert_eq!(b.swapped().counts(Side::OnRoll), opp);
        assert_eq!(b.swapped().swapped(), b);
        assert_eq!(b.highest(Side::OnRoll), Some(Point::BAR));
        assert_eq!(b.highest(Side::Opponent), Point::new(1));
        let text = b.to_string();
        assert_eq!(text.parse::<Board>(), Ok(b));
    }

    #[test]
    fn impossible_boards_are_refused() {
        let mut me = [0u8; 25];
        me[0] = 16;
        let err = Board::from_counts(&me, &[0; 25]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the player on roll has 16 checkers; a side has at most 15"
        );
        let mut me = [0u8; 25];
        let mut opp = [0u8; 25];
        me[4] = 1; // my 5
        opp[19] = 1; // their 20 = my 5
        let err = Board::from_counts(&me, &opp).unwrap_err();
        assert_eq!(err.to_string(), "point 5 holds checkers of both sides");
    }

    #[test]
    fn bad_position_ids_name_the_fault() {
        let e = "4HPwATDgc/ABM".parse::<Board>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad Position ID \"4HPwATDgc/ABM\": expected 14 characters, found 13"
        );
        let e = "4HPwATDgc/AB!A".parse::<Board>().unwrap_err();
        assert!(e.to_string().contains("'!' is not a base64"), "{e}");
        let e = "/////////////w".parse::<Board>().unwrap_err();
        assert!(e.to_string().contains("more than 30 checkers"), "{e}");
        // 14 characters, 15 bytes: the count is not the complaint.
        let e = "4HPwATDgé/ABMA".parse::<Board>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad Position ID \"4HPwATDgé/ABMA\": character 9 ('é') is not ASCII; \
             expected 14 base64 characters"
        );
    }
}
