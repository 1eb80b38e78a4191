//! The eXtreme Gammon position string, `XGID=<26 chars>:cube:cubepos:turn:dice:score1:score2:rules:length:maxcube`,
//! read and written field by field, and converted to and from a board and
//! [`MatchState`] the way GNU Backgammon 1.07's `set xgid` reads it.
//!
//! XG draws one player at the bottom (upper-case letters, `score1`, turn
//! and cube position `1`) and the other on top (lower case, `score2`, `-1`).
//! GNU Backgammon makes the bottom player its player 1 and the top player
//! its player 0. The 26 characters are the top player's bar, the points
//! 1..=24 numbered from the bottom player's side, and the bottom player's
//! bar; a letter's place in the alphabet is the count.

use crate::board::{Board, Point, Side};
use crate::dice::Dice;
use crate::matchid::{CubeOwner, GameState, MatchState, Player};
use std::fmt;
use std::str::FromStr;

/// The dice field: to roll, a double offered, or the roll.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum XgDice {
    /// `00`: the player on turn has not rolled.
    ToRoll,
    /// `D`: the player on turn has doubled and the opponent must answer.
    Doubled,
    /// Two digits: the roll.
    Rolled(Dice),
}

/// An XGID, field by field.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Xgid {
    /// Per place (0 = top player's bar, 1..=24 points from the bottom
    /// player's side, 25 = bottom player's bar): bottom player's checkers
    /// positive, top player's negative.
    pub position: [i8; 26],
    /// The cube value is `1 << cube_log2`.
    pub cube_log2: u8,
    /// 1 bottom owns the cube, -1 top owns it, 0 centred.
    pub cube_position: i8,
    /// 1 the bottom player is on turn, -1 the top player.
    pub turn: i8,
    pub dice: XgDice,
    /// The bottom player's score.
    pub score_bottom: u16,
    /// The top player's score.
    pub score_top: u16,
    /// In a match 1 for the Crawford game, else 0; in money play bit 0 is
    /// the Jacoby rule and bit 1 beavers.
    pub rules: u8,
    /// Match length, 0 for money.
    pub match_length: u16,
    /// The highest cube allowed, as a power of two (XG's setting; kept as read).
    pub max_cube_log2: u8,
}

/// Why an XGID could not be read or made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XgidError {
    /// The text (or a description of the state).
    pub text: String,
    /// The offending field.
    pub field: &'static str,
    /// What was expected.
    pub expected: String,
}

impl fmt::Display for XgidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad XGID \"{}\": {}: {}",
            self.text, self.field, self.expected
        )
    }
}

impl std::error::Error for XgidError {}

const FIELDS: [&str; 9] = [
    "cube", "cubepos", "turn", "dice", "score1", "score2", "rules", "length", "maxcube",
];

impl FromStr for Xgid {
    type Err = XgidError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |field, expected: &str| XgidError {
            text: s.to_string(),
            field,
            expected: expected.to_string(),
        };
        let body = s
            .strip_prefix("XGID=")
            .ok_or_else(|| err("prefix", "expected the text to start with XGID="))?;
        let parts: Vec<&str> = body.split(':').collect();
        if parts.len() != 10 {
            return Err(err(
                "fields",
                "expected the position and 9 fields separated by ':'",
            ));
        }
        let position = read_position(parts[0]).ok_or_else(|| {
            err(
                "position",
                "expected 26 characters, each '-', A-O (bottom player) or a-o (top player)",
            )
        })?;
        let num = |i: usize, lo: i64, hi: i64| -> Result<i64, XgidError> {
            let field = FIELDS[i - 1];
            let t = parts[i];
            let ok = !t.is_empty()
                && t.bytes()
                    .enumerate()
                    .all(|(k, b)| b.is_ascii_digit() || (k == 0 && b == b'-'));
            t.parse::<i64>()
                .ok()
                .filter(|v| ok && (lo..=hi).contains(v))
                .ok_or_else(|| err(field, &format!("\"{t}\" is not a number from {lo} to {hi}")))
        };
        let dice =
            match parts[4] {
                "00" => XgDice::ToRoll,
                "D" => XgDice::Doubled,
                t => XgDice::Rolled(t.parse::<Dice>().ok().filter(|_| t.len() == 2).ok_or_else(
                    || err("dice", &format!("\"{t}\" is not 00, D or two digits 1-6")),
                )?),
            };
        let x = Xgid {
            position,
            cube_log2: num(1, 0, 15)? as u8,
            cube_position: num(2, -1, 1)? as i8,
            turn: num(3, -1, 1)? as i8,
            dice,
            score_bottom: num(5, 0, 32767)? as u16,
            score_top: num(6, 0, 32767)? as u16,
            rules: num(7, 0, 3)? as u8,
            match_length: num(8, 0, 32767)? as u16,
            max_cube_log2: num(9, 0, 15)? as u8,
        };
        if x.turn == 0 {
            return Err(err(
                "turn",
                "\"0\" is not 1 (bottom player) or -1 (top player)",
            ));
        }
        if x.match_length > 0 && x.rules > 1 {
            return Err(err("rules", "in a match, expected 0 or 1 (Crawford game)"));
        }
        Ok(x)
    }
}

fn read_position(text: &str) -> Option<[i8; 26]> {
    let bytes = text.as_bytes();
    if bytes.len() != 26 {
        return None;
    }
    let mut out = [0i8; 26];
    for (o, &c) in out.iter_mut().zip(bytes) {
        *o = match c {
            b'-' => 0,
            b'A'..=b'O' => (c - b'A' + 1) as i8,
            b'a'..=b'o' => -((c - b'a' + 1) as i8),
            _ => return None,
        };
    }
    Some(out)
}

impl fmt::Display for Xgid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("XGID=")?;
        for &n in &self.position {
            let c = match n {
                0 => '-',
                n if n > 0 => (b'A' + n as u8 - 1) as char,
                n => (b'a' + (-n) as u8 - 1) as char,
            };
            write!(f, "{c}")?;
        }
        let dice = match self.dice {
            XgDice::ToRoll => "00".to_string(),
            XgDice::Doubled => "D".to_string(),
            XgDice::Rolled(d) => d.to_string(),
        };
        write!(
            f,
            ":{}:{}:{}:{}:{}:{}:{}:{}:{}",
            self.cube_log2,
            self.cube_position,
            self.turn,
            dice,
            self.score_bottom,
            self.score_top,
            self.rules,
            self.match_length,
            self.max_cube_log2
        )
    }
}

impl Xgid {
    /// The player on turn, in GNU Backgammon's numbering.
    fn mover(&self) -> Player {
        if self.turn == 1 {
            Player::One
        } else {
            Player::Zero
        }
    }

    /// The board (seen from the player on roll) and the match state.
    pub fn to_state(&self) -> Result<(Board, MatchState), XgidError> {
        let mut bottom = [0u8; 25];
        let mut top = [0u8; 25];
        for (i, &n) in self.position.iter().enumerate() {
            match (i, n) {
                (_, 0) => {}
                (0, n) if n < 0 => top[24] = (-n) as u8,
                (25, n) if n > 0 => bottom[24] = n as u8,
                (1..=24, n) if n > 0 => bottom[i - 1] = n as u8,
                (1..=24, n) => top[24 - i] = (-n) as u8,
                _ => return Err(self.error("position", "a bar holds checkers of the other player")),
            }
        }
        let mover = self.mover();
        let (mine, theirs) = match mover {
            Player::One => (&bottom, &top),
            Player::Zero => (&top, &bottom),
        };
        let board =
            Board::from_counts(mine, theirs).map_err(|e| self.error("position", &e.to_string()))?;
        let money = self.match_length == 0;
        let doubled = self.dice == XgDice::Doubled;
        let state = MatchState {
            cube_log2: self.cube_log2,
            cube_owner: match self.cube_position {
                1 => CubeOwner::Owned(Player::One),
                -1 => CubeOwner::Owned(Player::Zero),
                _ => CubeOwner::Centred,
            },
            on_roll: mover,
            crawford: !money && self.rules == 1,
            game_state: GameState::Playing,
            turn: if doubled { mover.other() } else { mover },
            doubled,
            resigned: None,
            dice: match self.dice {
                XgDice::Rolled(d) => Some(d),
                _ => None,
            },
            match_length: self.match_length,
            score: [self.score_top, self.score_bottom],
            jacoby: money && self.rules & 1 == 1,
        };
        Ok((board, state))
    }

    /// The XGID of a game in play: `board` is seen from `state.on_roll`.
    /// XG's maximum cube is written as 10 (1024).
    pub fn from_state(board: &Board, state: &MatchState) -> Result<Xgid, XgidError> {
        let err = |field, expected: &str| XgidError {
            text: format!("{board}:{state}"),
            field,
            expected: expected.to_string(),
        };
        if state.game_state != GameState::Playing || state.resigned.is_some() {
            return Err(err(
                "state",
                "an XGID describes only a game in play with no resignation",
            ));
        }
        // An XGID's turn is the player on roll, or the doubled player while
        // a double waits (with no dice): any other state would read back as
        // a different one.
        let turn = if state.doubled {
            state.on_roll.other()
        } else {
            state.on_roll
        };
        if state.turn != turn || (state.doubled && state.dice.is_some()) {
            return Err(err(
                "turn",
                "an XGID has the player on roll on turn, or the doubled player before the roll",
            ));
        }
        let (bottom, top) = match state.on_roll {
            Player::One => (Side::OnRoll, Side::Opponent),
            Player::Zero => (Side::Opponent, Side::OnRoll),
        };
        let mut position = [0i8; 26];
        position[0] = -(board.bar(top) as i8);
        position[25] = board.bar(bottom) as i8;
        for p in Point::points() {
            let i = p.index() as usize;
            let mirror = p.mirror().expect("a point");
            position[i] = board.count(bottom, p) as i8 - board.count(top, mirror) as i8;
        }
        let sign = |p: Player| if p == Player::One { 1 } else { -1 };
        Ok(Xgid {
            position,
            cube_log2: state.cube_log2,
            cube_position: match state.cube_owner {
                CubeOwner::Centred => 0,
                CubeOwner::Owned(p) => sign(p),
            },
            turn: sign(state.on_roll),
            dice: match (state.doubled, state.dice) {
                (true, _) => XgDice::Doubled,
                (false, Some(d)) => XgDice::Rolled(d),
                (false, None) => XgDice::ToRoll,
            },
            score_bottom: state.score[1],
            score_top: state.score[0],
            rules: if state.is_money() {
                state.jacoby as u8
            } else {
                state.crawford as u8
            },
            match_length: state.match_length,
            max_cube_log2: 10,
        })
    }

    fn error(&self, field: &'static str, expected: &str) -> XgidError {
        XgidError {
            text: self.to_string(),
            field,
            expected: expected.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7:10";

    #[test]
    fn the_documented_example_is_the_start_with_cube_and_score() {
        let x: Xgid = EXAMPLE.parse().unwrap();
        assert_eq!(x.to_string(), EXAMPLE);
        let (board, state) = x.to_state().unwrap();
        assert_eq!(board, Board::START);
        assert_eq!(state.cube_value(), 2);
        assert_eq!(state.cube_owner, CubeOwner::Owned(Player::Zero));
        assert_eq!(state.on_roll, Player::One);
        assert_eq!(state.score, [2, 4]);
        assert_eq!(state.match_length, 7);
        assert_eq!(state.dice, Dice::new(5, 2));
        // What GNU Backgammon 1.07 shows after `set xgid` with this text.
        assert_eq!(state.to_string(), "QYnqACAAIAAE");
        assert_eq!(Xgid::from_state(&board, &state).unwrap(), x);
    }

    #[test]
    fn states_an_xgid_cannot_hold_are_refused() {
        // Found by the gnubg_id fuzz target: player 0 on turn while player 1
        // is on roll, with no double, was written as an XGID that reads back
        // with player 1 on turn.
        let (board, mut state) = EXAMPLE.parse::<Xgid>().unwrap().to_state().unwrap();
        state.turn = state.on_roll.other();
        let e = Xgid::from_state(&board, &state).unwrap_err();
        assert_eq!(e.field, "turn");
        state.turn = state.on_roll.other();
        state.doubled = true; // and the dice 52 rolled
        assert_eq!(Xgid::from_state(&board, &state).unwrap_err().field, "turn");
        state.dice = None;
        let x = Xgid::from_state(&board, &state).unwrap();
        assert_eq!(x.to_state().unwrap(), (board, state));
    }

    #[test]
    fn the_top_player_on_roll_sees_the_board_from_the_top() {
        let mut x: Xgid = EXAMPLE.parse().unwrap();
        x.position[1] = -1; // one top checker on the bottom player's 1
        x.position[2] = -1; // and one on their 2
        x.turn = -1;
        let (board, state) = x.to_state().unwrap();
        assert_eq!(state.on_roll, Player::Zero);
        // The top player's 24 and 23 points.
        assert_eq!(board.count(Side::OnRoll, Point::new(24).unwrap()), 1);
        assert_eq!(board.count(Side::OnRoll, Point::new(23).unwrap()), 1);
        assert_eq!(Xgid::from_state(&board, &state).unwrap(), x);
    }

    #[test]
    fn bad_fields_are_named() {
        for (text, part) in [
            (
                "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7",
                "fields",
            ),
            ("-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7:10", "XGID="),
            (
                "XGID=-b----E-C---eE---c-e----Z-:1:-1:1:52:4:2:0:7:10",
                "position",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:1:-1:1:72:4:2:0:7:10",
                "\"72\"",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:1:-1:0:52:4:2:0:7:10",
                "turn",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:x:-1:1:52:4:2:0:7:10",
                "cube",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:2:7:10",
                "rules",
            ),
        ] {
            let e = text.parse::<Xgid>().unwrap_err().to_string();
            assert!(e.contains(part), "{text}: {e}");
        }
    }
}
