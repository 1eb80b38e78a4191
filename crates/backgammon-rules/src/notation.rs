//! Move notation: GNU Backgammon's canonical form (`24/18(2) 13/7*/1`), the
//! single-die-step form (`24/18 18/14`), and [`TypedMove`], the syntax of
//! every form a player types.

use crate::board::{Board, Point, Side};
use crate::moves::Move;
use std::fmt;
use std::str::FromStr;

/// One checker's path in the canonical form: start, the points where it hit
/// on the way, end; and how many checkers took the same path.
struct Path {
    points: [u8; 5],
    len: usize,
    count: u8,
}

impl Path {
    fn end(&self) -> u8 {
        self.points[self.len - 1]
    }

    fn same_route(&self, other: &Path) -> bool {
        self.points[..self.len] == other.points[..other.len]
    }
}

impl Board {
    /// True when the opponent has a checker on the mover's point `p` (1..=24).
    fn opponent_on(&self, p: u8) -> bool {
        (1..=24).contains(&p) && self.count(Side::Opponent, Point::from_index_unchecked(25 - p)) > 0
    }

    /// `m` as GNU Backgammon writes it: steps ordered from the highest start,
    /// the steps of one checker joined into one path (`24/13`) that names an
    /// intermediate point only where it hit (`13/7*/1`), equal paths counted
    /// (`8/2(2)`), and each hit marked once with `*`. `pass` for no move.
    pub fn move_text(&self, m: &Move) -> String {
        if m.is_pass() {
            return "pass".to_string();
        }
        let mut steps: Vec<(u8, u8)> = m
            .steps()
            .iter()
            .map(|s| (s.from().index(), s.to().index()))
            .collect();
        steps.sort_by(|a, b| b.cmp(a));
        let paths = self.join_paths(&steps);
        let mut out = String::new();
        let mut marked = 0u32;
        for (i, path) in paths.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&Point::from_index_unchecked(path.points[0]).to_string());
            for (k, &p) in path.points[1..path.len].iter().enumerate() {
                out.push('/');
                out.push_str(&Point::from_index_unchecked(p).to_string());
                // A kept intermediate point is always a hit; an end point is
                // marked unless an earlier path already marked it.
                let intermediate = k + 2 < path.len;
                if intermediate || (self.opponent_on(p) && marked & (1 << p) == 0) {
                    out.push('*');
                    marked |= 1 << p;
                }
            }
            if path.count > 1 {
                out.push_str(&format!("({})", path.count));
            }
        }
        out
    }

    /// Joins sorted steps into paths: a step starting where an earlier path
    /// ends continues that path (keeping the point only if a blot was hit
    /// there); then equal paths are counted.
    fn join_paths(&self, steps: &[(u8, u8)]) -> Vec<Path> {
        let mut paths: Vec<Path> = Vec::with_capacity(4);
        let mut used = [false; 4];
        for i in 0..steps.len() {
            if used[i] {
                continue;
            }
            let mut path = Path {
                points: [steps[i].0, steps[i].1, 0, 0, 0],
                len: 2,
                count: 1,
            };
            for j in i + 1..steps.len() {
                if !used[j] && steps[j].0 == path.end() {
                    if self.opponent_on(path.end()) {
                        path.len += 1;
                    }
                    path.points[path.len - 1] = steps[j].1;
                    used[j] = true;
                }
            }
            match paths.iter_mut().find(|p| p.same_route(&path)) {
                Some(p) => p.count += 1,
                None => paths.push(path),
            }
        }
        paths
    }

    /// `m` as one `from/to` per die in playing order (`24/18 18/14`, `8/2 8/2`),
    /// with `*` after a step that hits when `hits` is set; `pass` for no move.
    pub fn move_steps_text(&self, m: &Move, hits: bool) -> String {
        if m.is_pass() {
            return "pass".to_string();
        }
        let mut board = *self;
        let mut out = String::new();
        for (i, s) in m.steps().iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&s.to_string());
            let to = s.to().index();
            if hits && (1..=24).contains(&to) && board.opponent_on(to) {
                out.push('*');
            }
            board = board.apply_unchecked(Move::new(&[*s]).expect("one step"));
        }
        out
    }
}

/// One checker's path as typed: its points (start, any intermediate points,
/// end), which of them were marked hit with `*`, and a repeat count `(n)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedPath {
    /// Start, intermediate points, end: at least two.
    pub points: Vec<Point>,
    /// Parallel to `points`: a `*` followed that point.
    pub hits: Vec<bool>,
    /// How many checkers take this path (1..=4).
    pub count: u8,
}

/// A move as a player types it, before it is matched against a position:
/// `24/18 13/11`, `bar/22*`, `6/off`, `8/2(2)`, `24/14`, `13/7*/1`, `pass`.
/// [`Board::resolve_move`] finds the one legal move it means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedMove {
    /// The paths in the order typed; empty for `pass`.
    pub paths: Vec<TypedPath>,
}

impl TypedMove {
    /// True for `pass`.
    pub fn is_pass(&self) -> bool {
        self.paths.is_empty()
    }

    /// Every (from, to) leg as typed, repeats expanded: a leg runs between
    /// two consecutive typed points.
    pub fn legs(&self) -> Vec<(Point, Point)> {
        let mut legs = Vec::new();
        for path in &self.paths {
            for _ in 0..path.count {
                legs.extend(path.points.windows(2).map(|w| (w[0], w[1])));
            }
        }
        legs
    }

    /// The points marked with `*`.
    pub fn marked_hits(&self) -> Vec<Point> {
        let mut out = Vec::new();
        for path in &self.paths {
            for (p, &h) in path.points.iter().zip(&path.hits) {
                if h && !out.contains(p) {
                    out.push(*p);
                }
            }
        }
        out
    }
}

impl fmt::Display for TypedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("pass");
        }
        for (i, path) in self.paths.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            for (k, (p, &hit)) in path.points.iter().zip(&path.hits).enumerate() {
                if k > 0 {
                    f.write_str("/")?;
                }
                write!(f, "{p}")?;
                if hit {
                    f.write_str("*")?;
                }
            }
            if path.count > 1 {
                write!(f, "({})", path.count)?;
            }
        }
        Ok(())
    }
}

/// Why a move's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The whole text.
    pub text: String,
    /// The offending part.
    pub token: String,
    /// What was expected instead.
    pub expected: &'static str,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.token.is_empty() {
            write!(f, "bad move \"{}\": {}", self.text, self.expected)
        } else {
            write!(
                f,
                "bad move \"{}\": \"{}\" {}",
                self.text, self.token, self.expected
            )
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// Reads one typed point: a number 1..=24, or `bar` (also `b`, `25`) at the
/// start of a path, or `off` (also `o`, `0`) at its end.
fn typed_point(word: &str, first: bool) -> Option<Point> {
    let lower = word.to_ascii_lowercase();
    match lower.as_str() {
        "bar" | "b" | "25" if first => Some(Point::BAR),
        "off" | "o" | "0" if !first => Some(Point::OFF),
        _ if !word.is_empty() && word.len() <= 2 && word.bytes().all(|b| b.is_ascii_digit()) => {
            word.parse().ok().and_then(Point::new)
        }
        _ => None,
    }
}

fn parse_path(text: &str, token: &str) -> Result<TypedPath, ParseMoveError> {
    let err = |part: &str, expected| ParseMoveError {
        text: text.to_string(),
        token: part.to_string(),
        expected,
    };
    let (body, count) = match token.split_once('(') {
        Some((body, rest)) => {
            let n = rest
                .strip_suffix(')')
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| (1..=4).contains(n))
                .ok_or_else(|| err(token, "has a bad repeat count: expected (2), (3) or (4)"))?;
            (body, n)
        }
        None => (token, 1),
    };
    let words: Vec<&str> = body.split('/').collect();
    if words.len() < 2 {
        return Err(err(token, "is not a move: expected from/to, such as 24/18"));
    }
    let mut points = Vec::with_capacity(words.len());
    let mut hits = Vec::with_capacity(words.len());
    for (k, w) in words.iter().enumerate() {
        let (w, hit) = match w.strip_suffix('*') {
            Some(w) if k > 0 => (w, true),
            _ => (*w, false),
        };
        let p = typed_point(w, k == 0).ok_or_else(|| {
            if k == 0 {
                err(w, "is not a starting point: expected 1-24 or bar")
            } else {
                err(w, "is not a point to move to: expected 1-24 or off")
            }
        })?;
        if k > 0
            && points
                .last()
                .is_some_and(|&q: &Point| q.index() <= p.index())
        {
            return Err(err(body, "does not move forward: points must go down"));
        }
        if k + 1 < words.len() && p.is_off() {
            return Err(err(body, "goes on after off"));
        }
        points.push(p);
        hits.push(hit);
    }
    Ok(TypedPath {
        points,
        hits,
        count,
    })
}

impl FromStr for TypedMove {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let tokens: Vec<&str> = s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        match tokens[..] {
            [] => Err(ParseMoveError {
                text: s.to_string(),
                token: String::new(),
                expected: "no move given: expected steps such as 24/18 13/11, or pass",
            }),
            [t] if t.eq_ignore_ascii_case("pass") => Ok(TypedMove { paths: Vec::new() }),
            _ => {
                let paths = tokens
                    .iter()
                    .map(|t| parse_path(s, t))
                    .collect::<Result<Vec<_>, _>>()?;
                let legs: usize = paths.iter().map(|p| p.count as usize).sum();
                if legs > 4 {
                    return Err(ParseMoveError {
                        text: s.to_string(),
                        token: String::new(),
                        expected: "moves more than four checkers: a roll plays at most four",
                    });
                }
                Ok(TypedMove { paths })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;

    fn canon(board: &Board, roll: &str) -> Vec<String> {
        let l = board.legal_moves(roll.parse::<Dice>().unwrap());
        l.moves().iter().map(|m| board.move_text(m)).collect()
    }

    #[test]
    fn canonical_forms_of_opening_moves() {
        let all = canon(&Board::START, "66");
        for m in [
            "24/18(2) 13/7(2)",
            "13/7(4)",
            "24/18(2) 8/2(2)",
            "24/18 13/7 8/2(2)",
        ] {
            assert!(all.contains(&m.to_string()), "{m} not in {all:?}");
        }
        let all = canon(&Board::START, "65");
        assert!(all.contains(&"24/13".to_string()), "{all:?}");
        let all = canon(&Board::START, "21");
        assert!(all.contains(&"13/11 6/5".to_string()), "{all:?}");
    }

    #[test]
    fn single_die_form_lists_each_die() {
        let b = Board::START;
        let l = b.legal_moves("65".parse().unwrap());
        let run = l
            .moves()
            .iter()
            .find(|m| b.move_text(m) == "24/13")
            .unwrap();
        let text = b.move_steps_text(run, true);
        assert!(text == "24/18 18/13" || text == "24/19 19/13", "{text}");
        let l = b.legal_moves("66".parse().unwrap());
        let four = l
            .moves()
            .iter()
            .find(|m| b.move_text(m) == "13/7(4)")
            .unwrap();
        assert_eq!(b.move_steps_text(four, false), "13/7 13/7 13/7 13/7");
    }

    #[test]
    fn typed_moves_round_trip() {
        for t in [
            "24/18 13/11",
            "bar/22*",
            "6/off",
            "8/2(2)",
            "24/14",
            "13/7*/1",
            "pass",
            "24/18*(2) 13/7*(2)",
            "bar/20*/14",
        ] {
            let m: TypedMove = t.parse().unwrap();
            assert_eq!(m.to_string(), t);
        }
        let m: TypedMove = "25/22, 6/0".parse().unwrap();
        assert_eq!(m.to_string(), "bar/22 6/off");
    }

    #[test]
    fn typed_move_errors_quote_the_token() {
        for (text, part) in [
            ("24/x", "\"x\" is not a point"),
            ("24", "\"24\" is not a move"),
            ("6/8", "does not move forward"),
            ("off/6", "\"off\" is not a starting point"),
            ("6/bar", "\"bar\" is not a point to move to"),
            ("8/2(5)", "bad repeat count"),
            ("8/2(3) 6/1(2)", "more than four"),
            ("", "no move given"),
        ] {
            let e = text.parse::<TypedMove>().unwrap_err().to_string();
            assert!(e.contains(part), "{text}: {e}");
            assert!(e.contains(&format!("\"{text}\"")), "{e}");
        }
    }
}
