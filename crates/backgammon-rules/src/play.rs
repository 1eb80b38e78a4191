//! Checked play: a move, typed or built, is accepted only if it is one of the
//! legal moves, and refused with the reason in a player's words.
//!
//! Acceptance is decided by the move generator (the move must lead to one of
//! its positions). The reason for a refusal comes from replaying the move die
//! by die: the first rule the replay breaks, or, when every die is legal, the
//! rule about how many dice (or which die) must be played.

use crate::board::{slot, Board, Point, Side};
use crate::dice::Dice;
use crate::movegen::{start, State, BAR_BIT, OUTSIDE};
use crate::moves::{Move, MoveList, Step};
use crate::notation::{ParseMoveError, TypedMove};
use std::fmt;

/// Why a move is not legal, in a player's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// No checker of the mover stands where the move starts.
    NoChecker(Point),
    /// A checker is on the bar and the move starts elsewhere.
    MustEnterFirst,
    /// The move lands on (or passes through) a point the opponent holds.
    Blocked(Point),
    /// Bearing off from this point while checkers are outside the home board.
    NotAllHome(Point),
    /// Bearing off with a die larger than the point while a checker is higher.
    HigherChecker { from: Point, die: u8, higher: Point },
    /// No die left, alone or added up, takes a checker from one point to the other.
    NoDice { from: Point, to: Point },
    /// The move plays more dice than were rolled.
    TooManyDice,
    /// A hit is marked where no single opposing checker stands.
    NoBlot(Point),
    /// One die played where both can be.
    NotBothDice,
    /// Fewer of a double's four dice played than can be.
    TooFewDice { played: usize, possible: usize },
    /// Only one die can be played, and the smaller was played while the larger can be.
    LargerDie,
    /// A pass while a move can be played.
    PassWithMoves,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NoChecker(p) => write!(f, "no checker on {p}"),
            Reason::MustEnterFirst => f.write_str("a checker on the bar must enter first"),
            Reason::Blocked(p) => {
                write!(f, "point {p} is held by two or more opposing checkers")
            }
            Reason::NotAllHome(p) => write!(f, "{p}/off: not all checkers are home"),
            Reason::HigherChecker { from, die, higher } => write!(
                f,
                "{from}/off: a {die} bears off from {from} only when no checker is higher, \
                 and one is on {higher}"
            ),
            Reason::NoDice { from, to } => {
                write!(
                    f,
                    "{from}/{to}: no die left, alone or added up, moves {from} to {to}"
                )
            }
            Reason::TooManyDice => f.write_str("the move needs more dice than were rolled"),
            Reason::NoBlot(p) => write!(f, "there is no opposing blot on {p} to hit"),
            Reason::NotBothDice => f.write_str("this plays one die where both can be played"),
            Reason::TooFewDice { played, possible } => write!(
                f,
                "this plays {played} of the four dice where {possible} can be played"
            ),
            Reason::LargerDie => f.write_str("the larger die must be played"),
            Reason::PassWithMoves => f.write_str("a move can be played, so the turn cannot pass"),
        }
    }
}

/// A refused move: its text and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move as given.
    pub text: String,
    /// Why it is not legal.
    pub reason: Reason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move \"{}\": {}", self.text, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// Why a typed move was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move.
    Syntax(ParseMoveError),
    /// It is a move, but not a legal one.
    Illegal(IllegalMove),
    /// More than one legal move fits the text.
    Ambiguous { text: String, options: Vec<String> },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
            MoveError::Ambiguous { text, options } => write!(
                f,
                "ambiguous move \"{text}\": it could be {}; name the intermediate point",
                options.join(" or ")
            ),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<ParseMoveError> for MoveError {
    fn from(e: ParseMoveError) -> Self {
        MoveError::Syntax(e)
    }
}

impl From<IllegalMove> for MoveError {
    fn from(e: IllegalMove) -> Self {
        MoveError::Illegal(e)
    }
}

/// Replays legs (from, to) die by die, trying each die that fits, and keeps
/// the first complete replay or else the failure that got furthest.
struct Replay<'a> {
    blocked: u32,
    legs: &'a [(u8, u8)],
    /// Each leg is exactly one die (a built [`Move`]), not a sum (typed text).
    single: bool,
    found: Option<(State, Vec<Step>)>,
    failure: Option<(usize, Reason)>,
}

impl Replay<'_> {
    fn fail(&mut self, depth: usize, reason: Reason) {
        if self.failure.as_ref().is_none_or(|(d, _)| depth > *d) {
            self.failure = Some((depth, reason));
        }
    }

    fn run(&mut self, s: State, leg: usize, cur: u8, dice: &mut [u8; 4], steps: &mut Vec<Step>) {
        if self.found.is_some() {
            return;
        }
        let Some(&(from, to)) = self.legs.get(leg) else {
            self.found = Some((s, steps.clone()));
            return;
        };
        let depth = steps.len();
        let at = Point::from_index_unchecked(cur);
        if cur == from && slot(s.me, cur as u32) == 0 {
            return self.fail(depth, Reason::NoChecker(at));
        }
        if s.occ & BAR_BIT != 0 && cur != 25 {
            return self.fail(depth, Reason::MustEnterFirst);
        }
        if dice.iter().all(|&d| d == 0) {
            return self.fail(depth, Reason::TooManyDice);
        }
        let mut tried = 0u8;
        let mut fitted = false;
        for i in 0..4 {
            let d = dice[i];
            if d == 0 || tried & (1 << d) != 0 {
                continue;
            }
            tried |= 1 << d;
            let land = cur as i32 - d as i32;
            let fits = if to == 0 {
                land <= 0 || !self.single
            } else {
                land == to as i32 || (!self.single && land > to as i32)
            };
            if !fits {
                continue;
            }
            fitted = true;
            if let Some(reason) = self.refusal(&s, cur, d, land) {
                self.fail(depth + 1, reason);
                continue;
            }
            let next = crate::movegen::step(&s, cur as u32, d as u32);
            let land = land.max(0) as u8;
            dice[i] = 0;
            steps.push(Step::raw(cur as u32, land as u32));
            if land == to {
                let start = self.legs.get(leg + 1).map_or(0, |l| l.0);
                self.run(next, leg + 1, start, dice, steps);
            } else {
                self.run(next, leg, land, dice, steps);
            }
            steps.pop();
            dice[i] = d;
        }
        if !fitted {
            let (f, t) = (
                Point::from_index_unchecked(from),
                Point::from_index_unchecked(to),
            );
            self.fail(depth, Reason::NoDice { from: f, to: t });
        }
    }

    /// The rule playing die `d` from `cur` (landing on `land`) breaks, if any.
    fn refusal(&self, s: &State, cur: u8, d: u8, land: i32) -> Option<Reason> {
        let from = Point::from_index_unchecked(cur);
        if land >= 1 {
            return (self.blocked & (1 << land) != 0)
                .then(|| Reason::Blocked(Point::from_index_unchecked(land as u8)));
        }
        if s.occ & OUTSIDE != 0 {
            return Some(Reason::NotAllHome(from));
        }
        let top = (s.occ | 1).ilog2() as u8;
        (land < 0 && top > cur).then(|| Reason::HigherChecker {
            from,
            die: d,
            higher: Point::from_index_unchecked(top),
        })
    }
}

impl Board {
    /// The steps of legs (from, to) replayed die by die with `dice`: the
    /// board reached and the steps, or the furthest rule broken.
    fn replay(
        &self,
        dice: Dice,
        legs: &[(u8, u8)],
        single: bool,
    ) -> Result<(Board, Vec<Step>), Reason> {
        let (s, blocked) = start(self);
        let (a, b) = dice.values();
        let mut left = if dice.is_double() {
            [a; 4]
        } else {
            [a, b, 0, 0]
        };
        let mut r = Replay {
            blocked,
            legs,
            single,
            found: None,
            failure: None,
        };
        let first = legs.first().map_or(0, |l| l.0);
        r.run(s, 0, first, &mut left, &mut Vec::new());
        match (r.found, r.failure) {
            (Some((s, steps)), _) => Ok((
                Board {
                    sides: [s.me, s.opp],
                },
                steps,
            )),
            (None, Some((_, reason))) => Err(reason),
            (None, None) => Err(Reason::TooManyDice),
        }
    }

    /// Why a sequence of dice that plays legally step by step is still not
    /// a legal move: too few dice, or the smaller die alone.
    fn shortfall(legal: &MoveList, dice: Dice, steps: &[Step]) -> Reason {
        let possible = legal.moves()[0].len();
        if steps.len() < possible {
            if dice.is_double() {
                Reason::TooFewDice {
                    played: steps.len(),
                    possible,
                }
            } else {
                Reason::NotBothDice
            }
        } else {
            Reason::LargerDie
        }
    }

    /// The board after the player on roll plays `m` with `dice`, if `m` is
    /// legal: its steps, in their order, each use one die by the rules, and
    /// together they play as many dice as possible (the larger die when only
    /// one can be played). Else why not.
    pub fn apply(&self, dice: Dice, m: &Move) -> Result<Board, IllegalMove> {
        let mut legal = MoveList::new();
        self.legal_moves_into(dice, &mut legal);
        let refuse = |reason| IllegalMove {
            text: self.move_steps_text(m, false),
            reason,
        };
        if m.is_pass() {
            return match legal.moves()[0].is_pass() {
                true => Ok(*self),
                false => Err(refuse(Reason::PassWithMoves)),
            };
        }
        let legs: Vec<(u8, u8)> = m
            .steps()
            .iter()
            .map(|s| (s.from().index(), s.to().index()))
            .collect();
        let (board, steps) = self.replay(dice, &legs, true).map_err(refuse)?;
        match legal.find(&board) {
            Some(_) => Ok(board),
            None => Err(refuse(Board::shortfall(&legal, dice, &steps))),
        }
    }

    /// The one legal move a typed move means with `dice`, or why there is none.
    ///
    /// The typed steps fix where the mover's checkers end up; among the legal
    /// moves ending so, the one that hits exactly where the text shows a
    /// checker landing (or marks `*`) is taken, else the only one that hits
    /// at least there. Two or more left is ambiguous.
    pub fn resolve_move(&self, dice: Dice, typed: &TypedMove) -> Result<Move, MoveError> {
        let text = typed.to_string();
        let refuse = |reason| {
            MoveError::Illegal(IllegalMove {
                text: text.clone(),
                reason,
            })
        };
        let mut legal = MoveList::new();
        self.legal_moves_into(dice, &mut legal);
        if typed.is_pass() {
            return match legal.moves()[0].is_pass() {
                true => Ok(Move::PASS),
                false => Err(refuse(Reason::PassWithMoves)),
            };
        }
        let blots = self.blot_mask();
        let mut required = 0u32;
        for p in typed.marked_hits() {
            if blots & (1 << p.index()) == 0 {
                return Err(refuse(Reason::NoBlot(p)));
            }
            required |= 1 << p.index();
        }
        let mut legs: Vec<(u8, u8)> = typed
            .legs()
            .iter()
            .map(|(f, t)| (f.index(), t.index()))
            .collect();
        for &(_, to) in &legs {
            required |= blots & (1 << to) & !1;
        }
        let mine = self.typed_result(&legs).map_err(refuse)?;
        let ends: Vec<(Move, u32)> = legal
            .iter()
            .filter(|(_, b)| b.sides[0] == mine)
            .map(|(m, b)| (m, blots & !b.blot_survivors()))
            .collect();
        let exact: Vec<Move> = ends
            .iter()
            .filter(|e| e.1 == required)
            .map(|e| e.0)
            .collect();
        let covering: Vec<Move> = ends
            .iter()
            .filter(|e| e.1 & required == required)
            .map(|e| e.0)
            .collect();
        match (&exact[..], &covering[..]) {
            ([m], _) | ([], [m]) => Ok(*m),
            ([], []) => {
                // Replay in playing order (highest start first) to say why.
                legs.sort_by(|a, b| b.cmp(a));
                let reason = match self.replay(dice, &legs, false) {
                    Err(reason) => reason,
                    Ok((_, steps)) => Board::shortfall(&legal, dice, &steps),
                };
                Err(refuse(reason))
            }
            (_, several) => Err(MoveError::Ambiguous {
                text: text.clone(),
                options: several.iter().map(|m| self.move_text(m)).collect(),
            }),
        }
    }

    /// Reads a typed move and resolves it: the move and the board it leads to.
    pub fn play_text(&self, dice: Dice, text: &str) -> Result<(Move, Board), MoveError> {
        let typed: TypedMove = text.parse()?;
        let m = self.resolve_move(dice, &typed)?;
        Ok((m, self.apply_unchecked(m)))
    }

    /// Mask of the mover's points 1..=24 with exactly one opposing checker.
    fn blot_mask(&self) -> u32 {
        start(self).0.blots
    }

    /// Mask of the mover's points with an opposing checker (blots that survived).
    fn blot_survivors(&self) -> u32 {
        (1..=24u32)
            .filter(|&p| self.count(Side::Opponent, Point::from_index_unchecked(25 - p as u8)) > 0)
            .fold(0, |m, p| m | 1 << p)
    }

    /// The mover's side word after the typed legs, or the first point a leg
    /// starts from with no checker to move.
    fn typed_result(&self, legs: &[(u8, u8)]) -> Result<u128, Reason> {
        let mut counts = [0i32; 26];
        for (i, c) in counts.iter_mut().enumerate() {
            *c = slot(self.sides[0], i as u32) as i32;
        }
        let mut order = legs.to_vec();
        order.sort_by(|a, b| b.cmp(a));
        for (from, to) in order {
            if counts[from as usize] == 0 {
                return Err(Reason::NoChecker(Point::from_index_unchecked(from)));
            }
            counts[from as usize] -= 1;
            counts[to as usize] += 1;
        }
        Ok(counts
            .iter()
            .enumerate()
            .fold(0u128, |w, (i, &c)| w + ((c as u128) << (4 * i))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(s: &str) -> Dice {
        s.parse().unwrap()
    }

    fn reason(board: &Board, roll: &str, text: &str) -> String {
        match board.play_text(dice(roll), text) {
            Ok((m, _)) => panic!("{text} accepted as {}", board.move_text(&m)),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn typed_forms_resolve_to_one_move() {
        let b = Board::START;
        for (roll, text, canon) in [
            ("65", "24/13", "24/13"),
            ("65", "24/18/13", "24/13"),
            ("65", "24/18 18/13", "24/13"),
            ("31", "8/5 6/5", "8/5 6/5"),
            ("31", "6/5, 8/5", "8/5 6/5"),
            ("66", "24/18(2) 13/7(2)", "24/18(2) 13/7(2)"),
            ("33", "13/10 10/7 8/5(2)", "13/7 8/5(2)"),
        ] {
            let (m, _) = b.play_text(dice(roll), text).unwrap();
            assert_eq!(b.move_text(&m), canon, "{text}");
        }
    }

    #[test]
    fn refusals_say_why() {
        let b = Board::START;
        assert!(reason(&b, "65", "24/18").contains("one die where both can be played"));
        assert!(reason(&b, "65", "12/6 24/19").contains("no checker on 12"));
        assert!(reason(&b, "65", "13/8 6/off").contains("6/off: not all checkers are home"));
        assert!(reason(&b, "61", "24/18 13/12").contains("point 12 is held"));
        assert!(reason(&b, "65", "24/14").contains("no die left"));
        assert!(reason(&b, "65", "24/18*/13").contains("no opposing blot on 18"));
        assert!(reason(&b, "65", "pass").contains("cannot pass"));
    }
}
