//! The position: a compact, `Copy` board of bit masks, and its position string.

use super::types::{Color, Point, Quadrant};
use std::fmt;
use std::str::FromStr;

/// Largest number of checkers a player may have.
pub const MAX_CHECKERS: u8 = 14;

/// A run of successive scores by one colour (docs/rules/RULES.md 11). A run of 2 wins.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Run {
    /// Who scored last.
    pub color: Color,
    /// How many times in succession (1 or 2).
    pub count: u8,
}

/// A position taken apart: masks indexed by [`Color::index`] (bit i = point
/// i + 1), checkers to enter, scores, the run and the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Parts {
    pub lone: [u32; 2],
    pub wall: [u32; 2],
    pub to_enter: [u8; 2],
    pub score: [u8; 2],
    pub run: Option<Run>,
    pub side: Color,
}

/// What stands on a point.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Square {
    Empty,
    Lone(Color),
    Wall(Color),
}

impl Square {
    /// The letter used in position strings: `.`, `w`, `W`, `b`, `B`.
    pub const fn letter(self) -> char {
        match self {
            Square::Empty => '.',
            Square::Lone(Color::White) => 'w',
            Square::Wall(Color::White) => 'W',
            Square::Lone(Color::Black) => 'b',
            Square::Wall(Color::Black) => 'B',
        }
    }

    fn from_letter(c: char) -> Option<Square> {
        Some(match c {
            '.' => Square::Empty,
            'w' => Square::Lone(Color::White),
            'W' => Square::Wall(Color::White),
            'b' => Square::Lone(Color::Black),
            'B' => Square::Wall(Color::Black),
            _ => return None,
        })
    }
}

/// A Grasshopper position: board, side to move, checkers to enter, score and
/// scoring run. 24 bytes and `Copy`, so search copies rather than unmakes.
///
/// Every `Position` obeys the invariants that [`FromStr`] checks; the only way
/// to build one is from a string, [`Position::start`], or by playing moves.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// Lone checkers per colour, one bit per point.
    pub(crate) lone: [u32; 2],
    /// Walls per colour.
    pub(crate) wall: [u32; 2],
    pub(crate) to_enter: [u8; 2],
    pub(crate) score: [u8; 2],
    /// 0: nobody has scored; otherwise `1 + 2 * colour + (count - 1)`.
    pub(crate) run: u8,
    pub(crate) side: Color,
}

impl Position {
    /// The start position of the game with `checkers` per player (2, 4, ..., 14),
    /// or `None` for any other number.
    pub fn start(checkers: u8) -> Option<Position> {
        if !(2..=MAX_CHECKERS).contains(&checkers) || !checkers.is_multiple_of(2) {
            return None;
        }
        Some(Position {
            lone: [0; 2],
            wall: [0; 2],
            to_enter: [checkers; 2],
            score: [0; 2],
            run: 0,
            side: Color::White,
        })
    }

    /// A position from its parts, or `None` unless they obey the invariants a
    /// position string must (disjoint masks on 24 points, no wall in A, the
    /// same even number of checkers for both, a run that fits the score).
    /// For tools that enumerate positions (endgame tables); everything else
    /// reads position strings or plays moves.
    pub fn from_parts(parts: Parts) -> Option<Position> {
        let Parts {
            lone,
            wall,
            to_enter,
            score,
            run,
            side,
        } = parts;
        let all = lone[0] | lone[1] | wall[0] | wall[1];
        let bits = [lone[0], lone[1], wall[0], wall[1]];
        let disjoint = bits.iter().map(|m| m.count_ones()).sum::<u32>() == all.count_ones();
        if !disjoint || all & !crate::mask::ALL != 0 || (wall[0] | wall[1]) & crate::mask::QA != 0 {
            return None;
        }
        if check_run(run, score, "").is_err() || to_enter.iter().any(|&t| t > MAX_CHECKERS) {
            return None;
        }
        let pos = Position {
            lone,
            wall,
            to_enter,
            score,
            run: Position::encode_run(run),
            side,
        };
        let (w, b) = (pos.total(Color::White), pos.total(Color::Black));
        (w == b && w.is_multiple_of(2) && (2..=MAX_CHECKERS).contains(&w)).then_some(pos)
    }

    /// The parts of this position (see [`Position::from_parts`]).
    pub const fn parts(&self) -> Parts {
        Parts {
            lone: self.lone,
            wall: self.wall,
            to_enter: self.to_enter,
            score: self.score,
            run: self.run(),
            side: self.side,
        }
    }

    /// The side to move.
    #[inline(always)]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// What stands on `p`.
    pub fn square(&self, p: Point) -> Square {
        let b = p.bit();
        for c in Color::ALL {
            if self.lone[c.index()] & b != 0 {
                return Square::Lone(c);
            }
            if self.wall[c.index()] & b != 0 {
                return Square::Wall(c);
            }
        }
        Square::Empty
    }

    /// Checkers of `c` still to enter.
    #[inline(always)]
    pub const fn to_enter(&self, c: Color) -> u8 {
        self.to_enter[c.index()]
    }

    /// Points (walls borne off) scored by `c`.
    #[inline(always)]
    pub const fn score(&self, c: Color) -> u8 {
        self.score[c.index()]
    }

    /// The current scoring run, `None` while nobody has scored.
    pub const fn run(&self) -> Option<Run> {
        match self.run {
            0 => None,
            r => Some(Run {
                color: if (r - 1) / 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                count: (r - 1) % 2 + 1,
            }),
        }
    }

    /// The run's code in the packed form: 0 none, 1/2 white once/twice,
    /// 3/4 black once/twice.
    pub(crate) const fn encode_run(run: Option<Run>) -> u8 {
        match run {
            None => 0,
            Some(Run { color, count }) => 1 + 2 * color as u8 + (count - 1),
        }
    }

    /// Bit mask of the lone checkers of `c` (bit i = point i + 1).
    #[inline(always)]
    pub const fn lone_mask(&self, c: Color) -> u32 {
        self.lone[c.index()]
    }

    /// Bit mask of the walls of `c`.
    #[inline(always)]
    pub const fn wall_mask(&self, c: Color) -> u32 {
        self.wall[c.index()]
    }

    /// Bit mask of all occupied points.
    #[inline(always)]
    pub const fn occupied(&self) -> u32 {
        self.lone[0] | self.lone[1] | self.wall[0] | self.wall[1]
    }

    /// Checkers of `c` on the board.
    pub const fn on_board(&self, c: Color) -> u8 {
        (self.lone[c.index()].count_ones() + 2 * self.wall[c.index()].count_ones()) as u8
    }

    /// The game's N: checkers each player started with.
    pub const fn checkers(&self) -> u8 {
        self.total(Color::White)
    }

    const fn total(&self, c: Color) -> u8 {
        self.to_enter[c.index()] + self.on_board(c) + 2 * self.score[c.index()]
    }

    /// The same position with the colours exchanged: White's checkers, counts,
    /// score and run become Black's and the other way round, and the other
    /// side is to move. Both colours move the same way on the same track, so
    /// the value for the side to move is unchanged and moves carry over.
    pub const fn swap_colors(&self) -> Position {
        Position {
            lone: [self.lone[1], self.lone[0]],
            wall: [self.wall[1], self.wall[0]],
            to_enter: [self.to_enter[1], self.to_enter[0]],
            score: [self.score[1], self.score[0]],
            // Run codes: 0 none, 1/2 white once/twice, 3/4 black once/twice.
            run: match self.run {
                0 => 0,
                r if r <= 2 => r + 2,
                r => r - 2,
            },
            side: self.side.opposite(),
        }
    }

    /// An exact key: two positions have equal keys if and only if they are equal.
    /// 114 bits, laid out so that every field has its own bits.
    #[inline(always)]
    pub const fn key(&self) -> u128 {
        (self.lone[0] as u128)
            | (self.wall[0] as u128) << 24
            | (self.lone[1] as u128) << 48
            | (self.wall[1] as u128) << 72
            | (self.to_enter[0] as u128) << 96
            | (self.to_enter[1] as u128) << 100
            | (self.score[0] as u128) << 104
            | (self.score[1] as u128) << 107
            | (self.run as u128) << 110
            | (self.side as u128) << 113
    }

    /// A well-mixed 64-bit hash of [`Position::key`], for indexing tables.
    #[inline(always)]
    pub const fn hash64(&self) -> u64 {
        let k = self.key();
        let lo = k as u64;
        let hi = (k >> 64) as u64;
        mix64(lo ^ mix64(hi ^ 0x9E37_79B9_7F4A_7C15))
    }
}

/// A 64-bit finaliser (from SplitMix64): every input bit affects every output bit.
#[inline(always)]
const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut board = String::with_capacity(27);
        for p in Point::all() {
            board.push(self.square(p).letter());
            if matches!(p.number(), 6 | 12 | 18) {
                board.push('/');
            }
        }
        let run = match self.run() {
            None => "-".to_string(),
            Some(r) => format!("{}{}", r.color.letter(), r.count),
        };
        write!(
            f,
            "{board} {} {} {} {}-{} {run}",
            self.side.letter(),
            self.to_enter[0],
            self.to_enter[1],
            self.score[0],
            self.score[1]
        )
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{self}\")")
    }
}

/// The six fields of a position string, for naming them in errors.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    Board,
    Side,
    WhiteToEnter,
    BlackToEnter,
    Score,
    Run,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "board",
            FenField::Side => "side to move",
            FenField::WhiteToEnter => "white checkers to enter",
            FenField::BlackToEnter => "black checkers to enter",
            FenField::Score => "score",
            FenField::Run => "scoring run",
        })
    }
}

/// Why a position string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// Not six fields separated by single spaces.
    FieldCount { text: String, found: usize },
    /// A field that cannot be read at all.
    Syntax {
        field: FenField,
        text: String,
        expected: &'static str,
    },
    /// A field that reads, but describes something the rules never produce.
    Impossible {
        field: FenField,
        text: String,
        reason: String,
    },
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::FieldCount { text, found } => write!(
                f,
                "bad position \"{text}\": expected 6 fields separated by single spaces \
                 (board, side, white to enter, black to enter, score, run), found {found}"
            ),
            ParsePositionError::Syntax {
                field,
                text,
                expected,
            } => write!(f, "bad {field} \"{text}\": expected {expected}"),
            ParsePositionError::Impossible {
                field,
                text,
                reason,
            } => write!(f, "impossible {field} \"{text}\": {reason}"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

const BOARD_EXPECTED: &str =
    "24 points of . w W b B, with '/' after points 6, 12 and 18 (27 characters)";

fn parse_board(text: &str) -> Result<([u32; 2], [u32; 2]), ParsePositionError> {
    let syntax = || ParsePositionError::Syntax {
        field: FenField::Board,
        text: text.to_string(),
        expected: BOARD_EXPECTED,
    };
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 27 {
        return Err(syntax());
    }
    let (mut lone, mut wall) = ([0u32; 2], [0u32; 2]);
    let mut point = 0u8;
    for (i, &c) in chars.iter().enumerate() {
        if matches!(i, 6 | 13 | 20) {
            if c != '/' {
                return Err(syntax());
            }
            continue;
        }
        let square = Square::from_letter(c).ok_or_else(|| ParsePositionError::Syntax {
            field: FenField::Board,
            text: text.to_string(),
            expected: "only . w W b B on points, and '/' after points 6, 12 and 18",
        })?;
        match square {
            Square::Empty => {}
            Square::Lone(col) => lone[col.index()] |= 1 << point,
            Square::Wall(col) => wall[col.index()] |= 1 << point,
        }
        point += 1;
    }
    let walls_in_a = (wall[0] | wall[1]) & Quadrant::A.mask();
    if walls_in_a != 0 {
        return Err(ParsePositionError::Impossible {
            field: FenField::Board,
            text: text.to_string(),
            reason: format!(
                "a wall on point {}: entering never builds a wall, so quadrant A (1-6) holds none",
                walls_in_a.trailing_zeros() + 1
            ),
        });
    }
    Ok((lone, wall))
}

fn parse_count(field: FenField, text: &str) -> Result<u8, ParsePositionError> {
    let syntax = || ParsePositionError::Syntax {
        field,
        text: text.to_string(),
        expected: "a number from 0 to 14",
    };
    // No leading zero: "08" would be read as 8 and written back as "8", and a
    // parsed position must format to the string it came from.
    if text.is_empty()
        || text.len() > 2
        || !text.bytes().all(|b| b.is_ascii_digit())
        || (text.len() == 2 && text.starts_with('0'))
    {
        return Err(syntax());
    }
    let n: u8 = text.parse().map_err(|_| syntax())?;
    if n > MAX_CHECKERS {
        return Err(syntax());
    }
    Ok(n)
}

fn parse_score(text: &str) -> Result<[u8; 2], ParsePositionError> {
    let syntax = || ParsePositionError::Syntax {
        field: FenField::Score,
        text: text.to_string(),
        expected: "<white>-<black>, each a number from 0 to 7",
    };
    let (w, b) = text.split_once('-').ok_or_else(syntax)?;
    let one = |s: &str| -> Result<u8, ParsePositionError> {
        if s.len() != 1 || !s.as_bytes()[0].is_ascii_digit() {
            return Err(syntax());
        }
        let n = s.as_bytes()[0] - b'0';
        if n > MAX_CHECKERS / 2 {
            return Err(syntax());
        }
        Ok(n)
    };
    Ok([one(w)?, one(b)?])
}

fn parse_run(text: &str) -> Result<Option<Run>, ParsePositionError> {
    let run = match text {
        "-" => None,
        "w1" => Some((Color::White, 1)),
        "w2" => Some((Color::White, 2)),
        "b1" => Some((Color::Black, 1)),
        "b2" => Some((Color::Black, 2)),
        _ => {
            return Err(ParsePositionError::Syntax {
                field: FenField::Run,
                text: text.to_string(),
                expected: "-, w1, w2, b1 or b2",
            })
        }
    };
    Ok(run.map(|(color, count)| Run { color, count }))
}

/// Checks that the run could follow from the score: scores alternate between
/// the players except for the final winning one (docs/rules/RULES.md 11), so with a run of
/// `c` the scorer `c` has `k` scores and the other has `o`, where a run of 1
/// means `k - o` is 0 or 1 and a run of 2 means `k - o` is 1 or 2.
fn check_run(run: Option<Run>, score: [u8; 2], text: &str) -> Result<(), ParsePositionError> {
    let impossible = |reason: String| ParsePositionError::Impossible {
        field: FenField::Run,
        text: text.to_string(),
        reason,
    };
    match run {
        None if score != [0, 0] => Err(impossible(format!(
            "nobody has scored, but the score is {}-{}",
            score[0], score[1]
        ))),
        None => Ok(()),
        Some(Run { color, count }) => {
            let own = score[color.index()] as i32;
            let other = score[color.opposite().index()] as i32;
            let diff = own - other;
            if own < count as i32 {
                return Err(impossible(format!(
                    "a run of {count} means {color} scored {count} time{} in succession, \
                     but {color}'s score is {own}",
                    if count == 1 { "" } else { "s" }
                )));
            }
            let (lo, hi) = if count == 1 { (0, 1) } else { (1, 2) };
            if diff < lo || diff > hi {
                return Err(impossible(format!(
                    "scores alternate until a win, so a run of {count} for {color} needs \
                     {color}'s score to exceed the other's by {lo} or {hi}, but the score is {}-{}",
                    score[0], score[1]
                )));
            }
            Ok(())
        }
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fields: Vec<&str> = s.split(' ').collect();
        if fields.len() != 6 || fields.iter().any(|f| f.is_empty()) {
            return Err(ParsePositionError::FieldCount {
                text: s.to_string(),
                found: s.split_whitespace().count(),
            });
        }
        let (lone, wall) = parse_board(fields[0])?;
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(ParsePositionError::Syntax {
                    field: FenField::Side,
                    text: other.to_string(),
                    expected: "w or b",
                })
            }
        };
        let to_enter = [
            parse_count(FenField::WhiteToEnter, fields[2])?,
            parse_count(FenField::BlackToEnter, fields[3])?,
        ];
        let score = parse_score(fields[4])?;
        let run = parse_run(fields[5])?;
        check_run(run, score, fields[5])?;
        let pos = Position {
            lone,
            wall,
            to_enter,
            score,
            run: Position::encode_run(run),
            side,
        };
        let totals = [pos.total(Color::White), pos.total(Color::Black)];
        for c in Color::ALL {
            let t = totals[c.index()];
            if t > MAX_CHECKERS {
                let field = match c {
                    Color::White => FenField::WhiteToEnter,
                    Color::Black => FenField::BlackToEnter,
                };
                return Err(ParsePositionError::Impossible {
                    field,
                    text: fields[2 + c.index()].to_string(),
                    reason: format!(
                        "{c} would have {t} checkers ({} to enter, {} on the board, {} borne off), more than 14",
                        pos.to_enter[c.index()],
                        pos.on_board(c),
                        2 * pos.score[c.index()]
                    ),
                });
            }
        }
        if totals[0] != totals[1] || !totals[0].is_multiple_of(2) || totals[0] == 0 {
            return Err(ParsePositionError::Impossible {
                field: FenField::BlackToEnter,
                text: fields[3].to_string(),
                reason: format!(
                    "both players must have the same even number of checkers (2 to 14) counting \
                     those to enter, on the board and borne off; white has {}, black has {}",
                    totals[0], totals[1]
                ),
            });
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_string_is_as_specified() {
        let p = Position::start(14).unwrap();
        assert_eq!(p.to_string(), "....../....../....../...... w 14 14 0-0 -");
        assert_eq!(p.to_string().parse::<Position>(), Ok(p));
        for n in (2..=14).step_by(2) {
            let p = Position::start(n).unwrap();
            assert_eq!(p.checkers(), n);
            assert_eq!(p.to_string().parse::<Position>(), Ok(p));
        }
        for n in [0, 1, 3, 13, 15, 16] {
            assert!(Position::start(n).is_none());
        }
    }

    #[test]
    fn swapping_colours_exchanges_every_field_and_twice_is_identity() {
        let p: Position = "w...../W...B./...b../b..... b 9 10 1-0 w1".parse().unwrap();
        let q = p.swap_colors();
        assert_eq!(q.to_string(), "b...../B...W./...w../w..... w 10 9 0-1 b1");
        assert_eq!(q.swap_colors(), p);
        let won: Position = "....../....../....../...... w 10 12 2-1 w2"
            .parse()
            .unwrap();
        assert_eq!(
            won.swap_colors().to_string(),
            "....../....../....../...... b 12 10 1-2 b2"
        );
    }

    #[test]
    fn keys_distinguish_every_field() {
        let a: Position = "w...../W...../....../b..... b 9 11 1-1 w1".parse().unwrap();
        let variants = [
            "w...../W...../....../b..... w 9 11 1-1 w1",
            "w...../W...../....../b..... b 9 11 1-1 b1",
            "....w./W...../....../b..... b 9 11 1-1 w1",
        ];
        for v in variants {
            let b: Position = v.parse().unwrap();
            assert_ne!(a.key(), b.key(), "{v}");
            assert_ne!(a.hash64(), b.hash64(), "{v}");
        }
    }

    fn err(s: &str) -> String {
        s.parse::<Position>().unwrap_err().to_string()
    }

    #[test]
    fn malformed_strings_name_the_field_and_the_text() {
        let cases = [
            (
                "....../....../....../..... w 14 14 0-0 -",
                "bad board \"....../....../....../.....\"",
            ),
            ("....../....../....../.....x w 14 14 0-0 -", "bad board"),
            ("......|....../....../...... w 14 14 0-0 -", "bad board"),
            (
                "....../....../....../...... x 14 14 0-0 -",
                "bad side to move \"x\"",
            ),
            (
                "....../....../....../...... w 15 14 0-0 -",
                "bad white checkers to enter \"15\"",
            ),
            (
                "....../....../....../...... w 14 1a 0-0 -",
                "bad black checkers to enter \"1a\"",
            ),
            (
                "....../....../....../...... w 14 14 0:0 -",
                "bad score \"0:0\"",
            ),
            (
                "....../....../....../...... w 14 14 0-0 x1",
                "bad scoring run \"x1\"",
            ),
            (
                "....../....../....../...... w 14 14 0-0",
                "expected 6 fields",
            ),
            (
                "....../....../....../......  w 14 14 0-0 -",
                "expected 6 fields",
            ),
            (
                "....../....../....../...... w 14 12 0-0 -",
                "white has 14, black has 12",
            ),
            (
                "....../....../....../...... w 3 3 0-0 -",
                "same even number",
            ),
            ("W...../....../....../...... w 12 14 0-0 -", "quadrant A"),
            (
                "....../....../....../...... w 10 10 1-1 -",
                "nobody has scored",
            ),
            (
                "....../....../....../...... w 12 10 1-2 w2",
                "white scored 2 times in succession, but white's score is 1",
            ),
            (
                "....../....../....../...... w 10 14 2-0 w1",
                "exceed the other's by 0 or 1",
            ),
            (
                "....../....../....../...... w 12 12 1-1 b2",
                "scored 2 times",
            ),
            ("wwwwww/wwwwww/ww..../...... w 2 0 0-0 -", "more than 14"),
        ];
        for (text, want) in cases {
            let e = err(text);
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn possible_runs_are_accepted() {
        for s in [
            "....../....../....../...... w 12 14 1-0 w1",
            "....../....../....../...... w 12 12 1-1 w1",
            "....../....../....../...... w 12 12 1-1 b1",
            "....../....../....../...... w 10 14 2-0 w2",
            "....../....../....../...... w 8 10 3-2 w2",
        ] {
            let p: Position = s.parse().unwrap();
            assert_eq!(p.to_string(), s);
        }
    }
}
