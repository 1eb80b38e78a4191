//! The FIBS board string, `board:You:Opponent:MatchLength:...`: the state
//! line of the First Internet Backgammon Server that GNU Backgammon also
//! sends to an external player (`set player N external HOST:PORT`), read
//! and written field by field, and converted to a board and [`MatchState`].
//!
//! After `board:` come 52 fields separated by `:`: the two names, the match
//! length (0 or 9999 for money) and the two scores; 26 places (signed
//! counts: the checkers of the colour `colour` positive when it is 1,
//! negative when it is -1); the colour on turn; your dice and the
//! opponent's dice (`0:0` before the roll); the cube value; whether you
//! and the opponent may double; whether a double is pending; your colour
//! and direction, the places of your home and bar; the checkers each side
//! has borne off and has on the bar; FIBS's `CanMove` and `ForcedMove`; and
//! two fields that GNU Backgammon fills with "after the Crawford game"
//! and "not the Crawford game" (FIBS calls them `DidCrawford` and
//! `Redoubles`).

use crate::board::{Board, BoardError, Side, CHECKERS};
use crate::dice::Dice;
use crate::matchid::{CubeOwner, GameState, MatchState, Player};
use std::fmt;
use std::str::FromStr;

/// A FIBS board string, field by field, as read ("you" is the first name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FibsBoard {
    /// Your name and the opponent's (no `:`, no control characters).
    pub names: [String; 2],
    /// Points to win the match: 0 or 9999 (FIBS's unlimited match) for money.
    pub match_length: u16,
    /// Your score and the opponent's.
    pub score: [u16; 2],
    /// Per place 0..=25: the count of checkers, signed by colour.
    pub places: [i8; 26],
    /// The colour on turn: 1 or -1 (0: the game is over).
    pub turn: i8,
    /// Your dice and the opponent's (0 0: not rolled).
    pub dice: [[u8; 2]; 2],
    /// The cube value: 1, 2, 4, ...
    pub cube: u32,
    /// Whether you, and the opponent, may double.
    pub may_double: [bool; 2],
    /// Nonzero while a double waits for an answer (GNU Backgammon writes 1).
    pub was_doubled: i8,
    /// Your colour, 1 or -1: the sign of your checkers in `places`.
    pub colour: i8,
    /// Your direction, -1 (from place 24 to 1) or 1 (from 1 to 24).
    pub direction: i8,
    /// The place you bear off to (0 when the direction is -1, else 25).
    pub home: u8,
    /// The place of your bar (25 when the direction is -1, else 0).
    pub bar: u8,
    /// Checkers borne off: yours and the opponent's.
    pub off: [u8; 2],
    /// FIBS's `OnBar` fields (GNU Backgammon writes 0 0; kept as read).
    pub on_bar: [u8; 2],
    /// FIBS's `CanMove` (kept as read).
    pub can_move: u8,
    /// FIBS's `ForcedMove` (kept as read).
    pub forced_move: u8,
    /// A match after its Crawford game.
    pub post_crawford: bool,
    /// Not the Crawford game (GNU Backgammon writes 1 in money play).
    pub non_crawford: bool,
}

/// The board and match state a FIBS board describes: the board seen from
/// the player on roll, "you" as [`Player::Zero`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FibsPosition {
    pub board: Board,
    pub state: MatchState,
}

/// Why a FIBS board string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FibsError {
    /// The text does not start with `board:`.
    Prefix(String),
    /// Not 52 fields after `board:`.
    FieldCount(usize),
    /// A field that does not read: its name, the token, what was expected.
    Field {
        field: String,
        token: String,
        expected: &'static str,
    },
    /// Fields that contradict each other.
    Inconsistent(&'static str),
    /// The checkers make no backgammon board.
    Board(BoardError),
    /// A side's checkers on the board and borne off are not 15.
    Checkers { side: &'static str, count: u32 },
}

impl fmt::Display for FibsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FibsError::Prefix(t) => write!(f, "bad FIBS board \"{t}\": expected it to start with board:"),
            FibsError::FieldCount(n) => write!(f, "bad FIBS board: {n} fields after board:, expected 52"),
            FibsError::Field { field, token, expected } => {
                write!(f, "bad FIBS board: {field} \"{token}\": expected {expected}")
            }
            FibsError::Inconsistent(why) => write!(f, "bad FIBS board: {why}"),
            FibsError::Board(e) => write!(f, "bad FIBS board: {e}"),
            FibsError::Checkers { side, count } => write!(
                f,
                "bad FIBS board: {side} has {count} checkers on the board and borne off, expected 15"
            ),
        }
    }
}

impl std::error::Error for FibsError {}

/// Fields after `board:`.
const FIELDS: usize = 52;

/// Reads the fields in order, naming each one in its errors.
struct Fields<'a> {
    parts: Vec<&'a str>,
    next: usize,
}

impl<'a> Fields<'a> {
    fn take(&mut self) -> &'a str {
        self.next += 1;
        self.parts[self.next - 1]
    }

    /// The next field as a whole number from `lo` to `hi` (no sign but a
    /// leading `-`, no leading zeros: the canonical form, so that a board
    /// reads back as written).
    fn num(
        &mut self,
        field: &str,
        lo: i64,
        hi: i64,
        expected: &'static str,
    ) -> Result<i64, FibsError> {
        let t = self.take();
        let digits = t.strip_prefix('-').unwrap_or(t);
        let canonical = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && t != "-0";
        t.parse::<i64>()
            .ok()
            .filter(|v| canonical && (lo..=hi).contains(v))
            .ok_or_else(|| FibsError::Field {
                field: field.to_string(),
                token: t.to_string(),
                expected,
            })
    }

    fn flag(&mut self, field: &str) -> Result<bool, FibsError> {
        Ok(self.num(field, 0, 1, "0 or 1")? == 1)
    }

    fn name(&mut self, field: &str) -> Result<String, FibsError> {
        let t = self.take();
        if t.is_empty() || t.chars().any(char::is_control) {
            return Err(FibsError::Field {
                field: field.to_string(),
                token: t.to_string(),
                expected: "a name without control characters",
            });
        }
        Ok(t.to_string())
    }

    fn die_pair(&mut self, whose: &str) -> Result<[u8; 2], FibsError> {
        let a = self.num(&format!("{whose} first die"), 0, 6, "a die 0-6")? as u8;
        let b = self.num(&format!("{whose} second die"), 0, 6, "a die 0-6")? as u8;
        if (a == 0) != (b == 0) {
            return Err(FibsError::Inconsistent(
                "a roll with one die 0 and the other not",
            ));
        }
        Ok([a, b])
    }
}

impl FromStr for FibsBoard {
    type Err = FibsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let body = s
            .strip_prefix("board:")
            .ok_or_else(|| FibsError::Prefix(s.chars().take(40).collect()))?;
        let parts: Vec<&str> = body.split(':').collect();
        if parts.len() != FIELDS {
            return Err(FibsError::FieldCount(parts.len()));
        }
        let mut f = Fields { parts, next: 0 };
        let names = [f.name("your name")?, f.name("the opponent's name")?];
        let match_length = f.num("match length", 0, 9999, "0 to 9999")? as u16;
        let score = [
            f.num("your score", 0, 9999, "0 to 9999")? as u16,
            f.num("the opponent's score", 0, 9999, "0 to 9999")? as u16,
        ];
        let mut places = [0i8; 26];
        for (i, p) in places.iter_mut().enumerate() {
            *p = f.num(&format!("place {i}"), -15, 15, "a count from -15 to 15")? as i8;
        }
        let turn = f.num("turn", -1, 1, "-1, 0 or 1")? as i8;
        let dice = [f.die_pair("your")?, f.die_pair("the opponent's")?];
        let cube = f.num("cube", 1, 1 << 15, "a power of two from 1 to 32768")? as u32;
        if !cube.is_power_of_two() {
            return Err(FibsError::Field {
                field: "cube".to_string(),
                token: cube.to_string(),
                expected: "a power of two from 1 to 32768",
            });
        }
        let may_double = [
            f.flag("you may double")?,
            f.flag("the opponent may double")?,
        ];
        let was_doubled = f.num("was doubled", -1, 1, "-1, 0 or 1")? as i8;
        let colour = f.num("colour", -1, 1, "-1 or 1")? as i8;
        let direction = f.num("direction", -1, 1, "-1 or 1")? as i8;
        let home = f.num("home", 0, 25, "0 or 25")? as u8;
        let bar = f.num("bar", 0, 25, "0 or 25")? as u8;
        let board = FibsBoard {
            names,
            match_length,
            score,
            places,
            turn,
            dice,
            cube,
            may_double,
            was_doubled,
            colour,
            direction,
            home,
            bar,
            off: [
                f.num("your checkers off", 0, 15, "0 to 15")? as u8,
                f.num("the opponent's checkers off", 0, 15, "0 to 15")? as u8,
            ],
            on_bar: [
                f.num("your checkers on the bar", 0, 15, "0 to 15")? as u8,
                f.num("the opponent's checkers on the bar", 0, 15, "0 to 15")? as u8,
            ],
            can_move: f.num("can move", 0, 4, "0 to 4")? as u8,
            forced_move: f.num("forced move", 0, 1, "0 or 1")? as u8,
            post_crawford: f.flag("post-Crawford")?,
            non_crawford: f.flag("not Crawford")?,
        };
        board.check_orientation()?;
        Ok(board)
    }
}

impl fmt::Display for FibsBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [you, opp] = &self.names;
        write!(
            f,
            "board:{you}:{opp}:{}:{}:{}",
            self.match_length, self.score[0], self.score[1]
        )?;
        for p in self.places {
            write!(f, ":{p}")?;
        }
        let [[a, b], [c, d]] = self.dice;
        write!(f, ":{}:{a}:{b}:{c}:{d}:{}", self.turn, self.cube)?;
        let flag = |b: bool| u8::from(b);
        write!(
            f,
            ":{}:{}:{}:{}:{}:{}:{}",
            flag(self.may_double[0]),
            flag(self.may_double[1]),
            self.was_doubled,
            self.colour,
            self.direction,
            self.home,
            self.bar
        )?;
        write!(
            f,
            ":{}:{}:{}:{}:{}:{}:{}:{}",
            self.off[0],
            self.off[1],
            self.on_bar[0],
            self.on_bar[1],
            self.can_move,
            self.forced_move,
            flag(self.post_crawford),
            flag(self.non_crawford)
        )
    }
}

impl FibsBoard {
    /// Colour and direction are ±1, and home and bar where the direction
    /// puts them.
    fn check_orientation(&self) -> Result<(), FibsError> {
        if self.colour == 0 || self.direction == 0 {
            return Err(FibsError::Inconsistent(
                "colour and direction must be 1 or -1",
            ));
        }
        let (home, bar) = if self.direction < 0 { (0, 25) } else { (25, 0) };
        if (self.home, self.bar) != (home, bar) {
            return Err(FibsError::Inconsistent(
                "home and bar must be 0 and 25 for direction -1, 25 and 0 for direction 1",
            ));
        }
        Ok(())
    }

    /// The place of a side's point (1..=24 in that side's own numbering,
    /// 25 its bar); `mine` is the side of colour `colour`.
    fn place(&self, mine: bool, point: usize) -> usize {
        let counted_down = (self.direction < 0) == mine;
        if counted_down {
            point
        } else {
            25 - point
        }
    }

    /// One side's counts in GNU Backgammon's layout (index 0..=23 points
    /// 1..=24 of that side, 24 its bar); a checker of the wrong colour on
    /// a side's bar is refused.
    fn side_counts(&self, mine: bool) -> Result<[u8; 25], FibsError> {
        let sign = if mine { self.colour } else { -self.colour };
        let mut counts = [0u8; 25];
        for (i, c) in counts.iter_mut().enumerate() {
            let n = self.places[self.place(mine, i + 1)] * sign;
            *c = n.max(0) as u8;
        }
        if self.places[self.place(mine, 25)] * sign < 0 {
            return Err(FibsError::Inconsistent(
                "a bar holds checkers of the other side",
            ));
        }
        let on_board: u32 = counts.iter().map(|&c| c as u32).sum();
        let off = self.off[usize::from(!mine)] as u32;
        if on_board + off != CHECKERS as u32 {
            let side = if mine { "you" } else { "the opponent" };
            return Err(FibsError::Checkers {
                side,
                count: on_board + off,
            });
        }
        Ok(counts)
    }

    /// The board and match state described, "you" as [`Player::Zero`].
    /// The player on roll is the colour `turn` names; while a double is
    /// pending that is the doubler, and the other player must answer.
    pub fn position(&self) -> Result<FibsPosition, FibsError> {
        if self.turn == 0 {
            return Err(FibsError::Inconsistent("turn 0: the game is over"));
        }
        let (mine, theirs) = (self.side_counts(true)?, self.side_counts(false)?);
        let on_roll = if self.turn == self.colour {
            Player::Zero
        } else {
            Player::One
        };
        let (a, b) = match on_roll {
            Player::Zero => (&mine, &theirs),
            Player::One => (&theirs, &mine),
        };
        let board = Board::from_counts(a, b).map_err(FibsError::Board)?;
        if board.has_won(Side::OnRoll) || board.has_won(Side::Opponent) {
            return Err(FibsError::Inconsistent(
                "a side has borne off all its checkers: the game is over",
            ));
        }
        let money = self.match_length == 0 || self.match_length == 9999;
        let match_length = if money { 0 } else { self.match_length };
        if !money && self.score.iter().any(|&s| s >= match_length) {
            return Err(FibsError::Inconsistent("a score reaches the match length"));
        }
        let [d0, d1] = self.dice[on_roll.index()];
        let doubled = self.was_doubled != 0;
        if doubled && d0 != 0 {
            return Err(FibsError::Inconsistent(
                "a double is pending after the roll",
            ));
        }
        let state = MatchState {
            cube_log2: self.cube.trailing_zeros() as u8,
            cube_owner: match self.may_double {
                [true, false] => CubeOwner::Owned(Player::Zero),
                [false, true] => CubeOwner::Owned(Player::One),
                _ => CubeOwner::Centred,
            },
            on_roll,
            crawford: !money && !self.non_crawford,
            game_state: GameState::Playing,
            turn: if doubled { on_roll.other() } else { on_roll },
            doubled,
            resigned: None,
            dice: Dice::new(d0, d1),
            match_length,
            score: self.score,
            jacoby: false,
        };
        Ok(FibsPosition { board, state })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What GNU Backgammon 1.07.001 sent its external player (player 1,
    /// "root") at the opening roll 6-1 of a money session, cube in use.
    const OPENING: &str = "board:gnubg:root:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:1:6:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

    #[test]
    fn gnubgs_opening_board_reads_as_the_start_position_with_its_roll() {
        let b: FibsBoard = OPENING.parse().unwrap();
        assert_eq!(b.names, ["gnubg".to_string(), "root".to_string()]);
        assert_eq!((b.turn, b.dice, b.cube), (1, [[6, 1], [6, 1]], 1));
        let p = b.position().unwrap();
        assert_eq!(p.board, Board::START);
        assert_eq!(p.state.on_roll, Player::Zero);
        assert_eq!(p.state.dice, Dice::new(6, 1));
        assert_eq!(p.state.cube_owner, CubeOwner::Centred);
        assert!(p.state.is_money() && !p.state.doubled && !p.state.crawford);
        assert_eq!(b.to_string(), OPENING);
    }

    #[test]
    fn the_opponent_on_turn_sees_the_board_from_its_side() {
        // One of your checkers on your 3-point, one of the opponent's on
        // its bar (place 0), the rest off; the opponent to roll.
        let mut b: FibsBoard = OPENING.parse().unwrap();
        b.places = [0; 26];
        b.places[3] = 1;
        b.places[0] = -1;
        b.off = [14, 14];
        b.turn = -1;
        b.dice = [[0, 0], [0, 0]];
        let p = b.position().unwrap();
        assert_eq!(p.state.on_roll, Player::One);
        assert_eq!(p.state.dice, None);
        assert_eq!(p.board.bar(Side::OnRoll), 1);
        assert_eq!(p.board.count(Side::Opponent, "3".parse().unwrap()), 1);
        assert_eq!(p.board.off(Side::OnRoll), 14);
    }

    #[test]
    fn direction_one_numbers_your_points_from_the_other_end() {
        let mut b: FibsBoard = OPENING.parse().unwrap();
        b.places.reverse();
        (b.direction, b.home, b.bar) = (1, 25, 0);
        assert_eq!(b.position().unwrap().board, Board::START);
        b.colour = -1;
        for p in &mut b.places {
            *p = -*p;
        }
        b.turn = -1;
        assert_eq!(b.position().unwrap().board, Board::START);
    }

    #[test]
    fn a_pending_double_is_answered_by_the_other_player() {
        let text = OPENING.replace(":1:6:1:6:1:1:1:1:0:1:-1:", ":-1:0:0:0:0:2:1:0:1:1:-1:");
        let p = text.parse::<FibsBoard>().unwrap().position().unwrap();
        assert!(p.state.doubled);
        assert_eq!((p.state.on_roll, p.state.turn), (Player::One, Player::Zero));
        assert_eq!(p.state.cube_value(), 2);
        assert_eq!(p.state.cube_owner, CubeOwner::Owned(Player::Zero));
    }

    #[test]
    fn a_match_reads_its_length_score_and_crawford_game() {
        let text = OPENING.replacen(":0:0:0:", ":5:4:2:", 1);
        let text = format!("{}0", &text[..text.len() - 1]);
        let p = text.parse::<FibsBoard>().unwrap().position().unwrap();
        assert_eq!((p.state.match_length, p.state.score), (5, [4, 2]));
        assert!(p.state.crawford);
        let unlimited = OPENING.replacen(":0:0:0:", ":9999:3:1:", 1);
        assert!(unlimited
            .parse::<FibsBoard>()
            .unwrap()
            .position()
            .unwrap()
            .state
            .is_money());
    }

    #[test]
    fn bad_boards_are_refused_with_the_reason() {
        let cases = [
            ("bord:a:b", "expected it to start with board:"),
            ("board:a:b:0", "3 fields after board:, expected 52"),
            (
                &OPENING.replace(":-2:", ":x:"),
                "place 1 \"x\": expected a count from -15 to 15",
            ),
            (&OPENING.replace(":-2:", ":-16:"), "place 1 \"-16\""),
            (&OPENING.replace(":-2:", ":02:"), "place 1 \"02\""),
            (&OPENING.replace(":6:1:6:1:", ":6:0:6:1:"), "one die 0"),
            (
                &OPENING.replace(":6:1:6:1:1:", ":6:1:6:1:3:"),
                "cube \"3\": expected a power of two",
            ),
            (&OPENING.replace(":-1:0:25:", ":-1:25:0:"), "home and bar"),
            (&OPENING.replace("gnubg", ""), "your name \"\""),
        ];
        for (text, want) in cases {
            let e = text.parse::<FibsBoard>().unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
        let position_cases = [
            (
                OPENING.replace(":-2:0:", ":-3:0:"),
                "the opponent has 16 checkers",
            ),
            (OPENING.replace(":0:1:6:1:", ":0:0:6:1:"), "turn 0"),
            (
                OPENING.replace(":0:0:0:0:-2:", ":0:0:0:2:-2:"),
                "a bar holds checkers of the other side",
            ),
            (
                OPENING.replacen(":0:0:0:", ":3:3:0:", 1),
                "a score reaches the match length",
            ),
        ];
        for (text, want) in position_cases {
            let e = text
                .parse::<FibsBoard>()
                .unwrap()
                .position()
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn a_finished_game_is_refused() {
        let mut b: FibsBoard = OPENING.parse().unwrap();
        for p in b.places.iter_mut().filter(|p| **p > 0) {
            *p = 0;
        }
        b.off = [15, 0];
        let e = b.position().unwrap_err().to_string();
        assert!(e.contains("the game is over"), "{e}");
    }

    fn any_board() -> impl Strategy<Value = FibsBoard> {
        let name = "[A-Za-z0-9_]{1,8}";
        let die_pair = prop_oneof![Just([0u8, 0]), (1u8..=6, 1u8..=6).prop_map(|(a, b)| [a, b])];
        (
            (name, name, 0u16..=9999, [0u16..=9999, 0u16..=9999]),
            (
                prop::array::uniform26(-15i8..=15),
                -1i8..=1,
                [die_pair.clone(), die_pair],
            ),
            (0u32..=15, [any::<bool>(), any::<bool>()], -1i8..=1),
            (
                prop_oneof![Just(1i8), Just(-1i8)],
                prop_oneof![Just(1i8), Just(-1i8)],
            ),
            ([0u8..=15, 0u8..=15], [0u8..=15, 0u8..=15], 0u8..=4, 0u8..=1),
            (any::<bool>(), any::<bool>()),
        )
            .prop_map(
                |(head, body, cube, (colour, direction), counts, crawford)| {
                    let (n0, n1, match_length, score) = head;
                    let (places, turn, dice) = body;
                    let (cube_log2, may_double, was_doubled) = cube;
                    let (off, on_bar, can_move, forced_move) = counts;
                    let (home, bar) = if direction < 0 { (0, 25) } else { (25, 0) };
                    FibsBoard {
                        names: [n0, n1],
                        match_length,
                        score,
                        places,
                        turn,
                        dice,
                        cube: 1 << cube_log2,
                        may_double,
                        was_doubled,
                        colour,
                        direction,
                        home,
                        bar,
                        off,
                        on_bar,
                        can_move,
                        forced_move,
                        post_crawford: crawford.0,
                        non_crawford: crawford.1,
                    }
                },
            )
    }

    proptest! {
        #[test]
        fn every_board_reads_back_as_written(b in any_board()) {
            let text = b.to_string();
            prop_assert_eq!(text.parse::<FibsBoard>(), Ok(b.clone()));
            // A board that reads is also converted or refused, never a panic.
            let _ = b.position();
        }

        #[test]
        fn any_text_is_read_or_refused_never_a_panic(
            cut in 0usize..200,
            insert in "[-0-9a-z:]{0,6}",
        ) {
            let at = cut.min(OPENING.len());
            let text = format!("{}{insert}{}", &OPENING[..at], &OPENING[at..]);
            if let Ok(b) = text.parse::<FibsBoard>() {
                prop_assert_eq!(b.to_string(), text);
                let _ = b.position();
            }
        }
    }
}
