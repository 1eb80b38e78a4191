//! The small vocabulary of the game: colours, points and quadrants.

use std::fmt;
use std::str::FromStr;

/// One of the two players. White moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other player.
    #[inline(always)]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: the index into per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one-letter code used in position strings (`w` or `b`).
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The colour's name in lower case, for messages ("white", "black").
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error from parsing a [`Color`]: the text was neither `w`/`white` nor `b`/`black`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColorError(pub String);

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad colour \"{}\": expected w or b", self.0)
    }
}

impl std::error::Error for ParseColorError {}

impl FromStr for Color {
    type Err = ParseColorError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "w" | "white" => Ok(Color::White),
            "b" | "black" => Ok(Color::Black),
            _ => Err(ParseColorError(s.to_string())),
        }
    }
}

/// One of the 24 points of the track, numbered 1..24 for people and
/// stored as the index 0..23 (the bit it owns in a [`crate::Position`]'s masks).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// The point with the given number (1..=24), or `None`.
    pub const fn new(number: u8) -> Option<Point> {
        if number >= 1 && number <= 24 {
            Some(Point(number - 1))
        } else {
            None
        }
    }

    /// The point with the given index (0..=23), or `None`.
    pub const fn from_index(index: u8) -> Option<Point> {
        if index < 24 {
            Some(Point(index))
        } else {
            None
        }
    }

    /// The point with the given index, which the caller guarantees is below 24.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u8) -> Point {
        debug_assert!(index < 24);
        Point(index)
    }

    /// The number people use, 1..24.
    #[inline(always)]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The index 0..23.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The single-bit mask of this point.
    #[inline(always)]
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// The quadrant the point lies in.
    #[inline(always)]
    pub const fn quadrant(self) -> Quadrant {
        match self.0 / 6 {
            0 => Quadrant::A,
            1 => Quadrant::B,
            2 => Quadrant::C,
            _ => Quadrant::D,
        }
    }

    /// All 24 points in order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..24).map(Point)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// Error from parsing a [`Point`]: not a number from 1 to 24.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePointError(pub String);

impl fmt::Display for ParsePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad point \"{}\": expected a number from 1 to 24",
            self.0
        )
    }
}

impl std::error::Error for ParsePointError {}

impl FromStr for Point {
    type Err = ParsePointError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // Only the canonical spelling: "+3", " 3" and "03" are not points.
        if s.is_empty()
            || s.len() > 2
            || !s.bytes().all(|b| b.is_ascii_digit())
            || s.starts_with('0')
        {
            return Err(ParsePointError(s.to_string()));
        }
        s.parse::<u8>()
            .ok()
            .and_then(Point::new)
            .ok_or_else(|| ParsePointError(s.to_string()))
    }
}

/// The four quadrants of six points: A = 1-6, B = 7-12, C = 13-18, D = 19-24.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quadrant {
    A = 0,
    B = 1,
    C = 2,
    D = 3,
}

impl Quadrant {
    /// The bit mask of the quadrant's six points.
    #[inline(always)]
    pub const fn mask(self) -> u32 {
        0x3F << (6 * self as u32)
    }

    /// The quadrant checkers move into from this one (`None` for D).
    pub const fn next(self) -> Option<Quadrant> {
        match self {
            Quadrant::A => Some(Quadrant::B),
            Quadrant::B => Some(Quadrant::C),
            Quadrant::C => Some(Quadrant::D),
            Quadrant::D => None,
        }
    }

    /// The lowest and highest point numbers of the quadrant, e.g. (7, 12) for B.
    pub const fn range(self) -> (u8, u8) {
        let lo = 6 * self as u8 + 1;
        (lo, lo + 5)
    }

    /// The quadrant's letter.
    pub const fn letter(self) -> char {
        match self {
            Quadrant::A => 'A',
            Quadrant::B => 'B',
            Quadrant::C => 'C',
            Quadrant::D => 'D',
        }
    }
}

impl fmt::Display for Quadrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lo, hi) = self.range();
        write!(f, "{} ({lo}-{hi})", self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_round_trip_through_text() {
        for p in Point::all() {
            assert_eq!(p.to_string().parse::<Point>(), Ok(p));
        }
        for bad in ["0", "25", "", "+3", "03a", "03", "100", "-1"] {
            assert!(bad.parse::<Point>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn quadrants_hold_six_points_each() {
        assert_eq!(Point::new(6).unwrap().quadrant(), Quadrant::A);
        assert_eq!(Point::new(7).unwrap().quadrant(), Quadrant::B);
        assert_eq!(Point::new(19).unwrap().quadrant(), Quadrant::D);
        let all = Quadrant::A.mask() | Quadrant::B.mask() | Quadrant::C.mask() | Quadrant::D.mask();
        assert_eq!(all, 0xFF_FFFF);
        assert_eq!(Quadrant::C.range(), (13, 18));
    }

    #[test]
    fn colours_round_trip_through_text() {
        for c in Color::ALL {
            assert_eq!(c.letter().to_string().parse::<Color>(), Ok(c));
            assert_eq!(c.to_string().parse::<Color>(), Ok(c));
        }
        assert!("x".parse::<Color>().is_err());
    }
}
