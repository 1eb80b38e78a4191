//! Results and their search scores. A result is a [`Value`] for the side to
//! move and, for a win or loss, the plies to the end; the searches score it
//! as chess engines score mates: `BIG - plies` for a win, `-(BIG - plies)`
//! for a loss, 0 for a draw, so the winner prefers the shortest win and the
//! loser the longest loss.

use std::fmt;
use std::str::FromStr;

/// The score of a win in 0 plies; larger than any game is long.
pub const BIG: i32 = 300;

/// The game-theoretic value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win,
    Draw,
    Loss,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        })
    }
}

/// A value string that is not `win`, `draw` or `loss`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseValueError(pub String);

impl fmt::Display for ParseValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad value \"{}\": expected win, draw or loss", self.0)
    }
}

impl std::error::Error for ParseValueError {}

impl FromStr for Value {
    type Err = ParseValueError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "win" => Ok(Value::Win),
            "draw" => Ok(Value::Draw),
            "loss" => Ok(Value::Loss),
            _ => Err(ParseValueError(s.to_string())),
        }
    }
}

/// The exact result of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    /// The value for the side to move.
    pub value: Value,
    /// Plies to the end under optimal play; `None` for a draw.
    pub plies: Option<u32>,
}

impl Solution {
    /// The result a root-relative search score stands for.
    pub(crate) fn from_score(s: i32) -> Solution {
        match s {
            0 => Solution {
                value: Value::Draw,
                plies: None,
            },
            s if s > 0 => Solution {
                value: Value::Win,
                plies: Some((BIG - s) as u32),
            },
            s => Solution {
                value: Value::Loss,
                plies: Some((BIG + s) as u32),
            },
        }
    }

    /// The search score of this result at the root.
    pub(crate) fn score(&self) -> i32 {
        self.score_at(0)
    }

    /// The search score of this result `ply` plies below the root.
    pub(crate) fn score_at(&self, ply: i32) -> i32 {
        let d = self.plies.unwrap_or(0) as i32 + ply;
        match self.value {
            Value::Win => BIG - d,
            Value::Loss => -(BIG - d),
            Value::Draw => 0,
        }
    }

    /// The result in the mover's own moves, as `score mate n` reports it:
    /// `ceil(plies / 2)` for a win, minus that for a loss, `None` for a draw.
    pub fn mate_moves(&self) -> Option<i32> {
        let n = self.plies?.div_ceil(2) as i32;
        match self.value {
            Value::Win => Some(n),
            Value::Loss => Some(-n),
            Value::Draw => None,
        }
    }
}
