//! Legal move generation, move counting, playing moves and the game's outcome.
//!
//! Everything here is bit arithmetic on the four 24-bit masks of a
//! [`Position`]. The counting function never lists moves: it multiplies
//! per-quadrant popcounts, which is what makes bulk-counted perft fast.

use super::mask::{ABC, ALL, QA, QB, QC, QD};
use super::moves::{Move, MoveList};
use super::position::Position;
use super::types::{Color, Point, Quadrant};
use std::fmt;

/// How a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The colour scored twice in succession (docs/rules/RULES.md 11).
    Win(Color),
    /// Neither player has a legal action (docs/rules/RULES.md 12).
    Draw,
}

/// Mask of the bits strictly above bit `i` (i < 24).
#[inline(always)]
pub(crate) const fn above(i: u32) -> u32 {
    ALL & !((2u32 << i) - 1)
}

/// Mask of the six points of the quadrant after the one holding bit `i`.
#[inline(always)]
pub(crate) const fn next_quadrant(i: u32) -> u32 {
    0x3F << (6 * (i / 6 + 1))
}

/// The points of the next quadrant a lone checker on bit `p` can reach when
/// they are free: those before the first wall (of either colour) after `p`.
#[inline(always)]
pub(crate) const fn lone_reach(p: u32, walls: u32) -> u32 {
    let ahead = walls & above(p);
    let before_wall = if ahead == 0 {
        ALL
    } else {
        (ahead & ahead.wrapping_neg()) - 1
    };
    next_quadrant(p) & before_wall
}

/// Per quadrant: the bits at and above the quadrant's lowest set bit of `m`.
#[inline(always)]
pub(crate) const fn smear_up(m: u32) -> u32 {
    // Masks of the in-quadrant positions a shift may reach without leaving it.
    const K1: u32 = 0x3E * 0x041041; // positions 1..5 of each quadrant
    const K2: u32 = 0x3C * 0x041041; // positions 2..5
    const K4: u32 = 0x30 * 0x041041; // positions 4..5
    let m = m | ((m << 1) & K1);
    let m = m | ((m << 2) & K2);
    m | ((m << 4) & K4)
}

/// Per quadrant: the bits at and below the quadrant's highest set bit of `m`.
#[inline(always)]
pub(crate) const fn smear_down(m: u32) -> u32 {
    const K1: u32 = 0x1F * 0x041041; // positions 0..4 of each quadrant
    const K2: u32 = 0x0F * 0x041041; // positions 0..3
    const K4: u32 = 0x03 * 0x041041; // positions 0..1
    let m = m | ((m >> 1) & K1);
    let m = m | ((m >> 2) & K2);
    m | ((m >> 4) & K4)
}

impl Position {
    /// The number of legal actions of `c`, not counting a pass, whoever is to move.
    ///
    /// No loop over checkers: a lone checker behind the last wall of its
    /// quadrant reaches exactly the empty points of the next quadrant that lie
    /// before that quadrant's first wall, and one in front of a wall of its own
    /// quadrant reaches nothing there, so each quadrant contributes a product
    /// of two popcounts. Walls never stand in A (entering builds none).
    #[inline(always)]
    pub fn count_actions(&self, c: Color) -> u32 {
        let s = c.index();
        let own_lone = self.lone[s];
        let own_wall = self.wall[s];
        let walls = self.wall[0] | self.wall[1];
        let empty = !(self.lone[0] | self.lone[1] | walls) & ALL;
        let from_first_wall = smear_up(walls);
        let to_last_wall = smear_down(walls);
        let open = empty & !from_first_wall;
        let free = own_lone & !to_last_wall;
        let pc = |m: u32| m.count_ones();

        let enter = if self.to_enter[s] > 0 {
            pc(empty & QA)
        } else {
            0
        };
        let lone_steps = pc(free & QA) * pc(open & QB)
            + pc(free & QB) * pc(open & QC)
            + pc(free & QC) * pc(open & QD);
        let top_steps = pc(own_wall & QB) * pc(empty & QC) + pc(own_wall & QC) * pc(empty & QD);
        // Building a wall on p+6: a wall top always may; a lone checker only
        // when no wall stands between, i.e. it is free and p+6 is open.
        let partners = (own_lone >> 6) & ABC;
        let builds = pc(own_wall & partners) + pc(free & partners & !(from_first_wall >> 6));
        enter + lone_steps + top_steps + builds + pc(own_wall & QD)
    }

    /// The number of legal moves of the side to move, counting a forced pass as
    /// one move and a finished game as none. Equals `legal_moves().len()`.
    #[inline(always)]
    pub fn count_legal_moves(&self) -> u32 {
        if self.is_won() {
            return 0;
        }
        let n = self.count_actions(self.side);
        if n > 0 {
            n
        } else {
            (self.count_actions(self.side.opposite()) > 0) as u32
        }
    }

    /// Appends the legal actions of the side to move (no pass) to `list`.
    #[inline(always)]
    fn push_actions(&self, list: &mut MoveList) {
        let s = self.side.index();
        let own_lone = self.lone[s];
        let own_wall = self.wall[s];
        let walls = self.wall[0] | self.wall[1];
        let empty = !(self.lone[0] | self.lone[1] | walls) & ALL;

        if self.to_enter[s] > 0 {
            let mut to = empty & QA;
            while to != 0 {
                list.push(Move::enter(Point::from_index_unchecked(
                    to.trailing_zeros() as u8,
                )));
                to &= to - 1;
            }
        }
        let mut from = own_lone & ABC;
        while from != 0 {
            let p = from.trailing_zeros();
            from &= from - 1;
            let targets = (empty | (own_lone & (1 << (p + 6)))) & lone_reach(p, walls);
            push_steps(list, p, targets);
        }
        let mut from = own_wall & ABC;
        while from != 0 {
            let p = from.trailing_zeros();
            from &= from - 1;
            let targets = (empty | (own_lone & (1 << (p + 6)))) & next_quadrant(p);
            push_steps(list, p, targets);
        }
        let mut off = own_wall & QD;
        while off != 0 {
            list.push(Move::bear_off(Point::from_index_unchecked(
                off.trailing_zeros() as u8,
            )));
            off &= off - 1;
        }
    }

    /// All legal moves of the side to move: `[pass]` when the side has no
    /// action but the opponent has, empty when the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.is_won() {
            return list;
        }
        self.push_actions(&mut list);
        if list.is_empty() && self.count_actions(self.side.opposite()) > 0 {
            list.push(Move::PASS);
        }
        list
    }

    /// How the game stands (docs/rules/RULES.md 11-12).
    pub fn outcome(&self) -> Outcome {
        if let Some(run) = self.run().filter(|r| r.count == 2) {
            return Outcome::Win(run.color);
        }
        if self.count_actions(Color::White) == 0 && self.count_actions(Color::Black) == 0 {
            return Outcome::Draw;
        }
        Outcome::Ongoing
    }

    /// True when the game has ended (a win or a draw).
    pub fn is_game_over(&self) -> bool {
        self.outcome() != Outcome::Ongoing
    }

    /// Plays `m`, which must be legal in this position; the fast path for
    /// search. An illegal move leaves the position in an unspecified (but
    /// memory-safe) state.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move) {
        let s = self.side.index();
        let (from, to) = (m.raw_from(), m.raw_to());
        if m.is_pass() {
            // Nothing moves.
        } else if from == 24 {
            self.lone[s] |= 1 << to;
            self.to_enter[s] -= 1;
        } else if to == 25 {
            self.wall[s] &= !(1 << from);
            self.score[s] += 1;
            // run codes: white 1, 2; black 3, 4.
            let first = 1 + 2 * s as u8;
            self.run = if self.run == first { first + 1 } else { first };
        } else {
            let (f, t) = (1u32 << from, 1u32 << to);
            if self.wall[s] & f != 0 {
                self.wall[s] ^= f;
                self.lone[s] |= f;
            } else {
                self.lone[s] ^= f;
            }
            if self.lone[s] & t != 0 {
                self.lone[s] ^= t;
                self.wall[s] |= t;
            } else {
                self.lone[s] |= t;
            }
        }
        self.side = self.side.opposite();
    }

    /// The position after `m`, or why `m` is illegal here.
    pub fn play(&self, m: Move) -> Result<Position, IllegalMove> {
        self.check(m)?;
        let mut next = *self;
        next.play_unchecked(m);
        Ok(next)
    }

    /// Why `m` is illegal in this position, if it is.
    pub fn check(&self, m: Move) -> Result<(), IllegalMove> {
        use super::moves::MoveKind;
        let side = self.side;
        let s = side.index();
        let reason = |r: Reason| {
            Err(IllegalMove {
                mv: m,
                side,
                reason: r,
            })
        };
        match self.outcome() {
            Outcome::Ongoing => {}
            outcome => return reason(Reason::GameOver(outcome)),
        }
        let walls = self.wall[0] | self.wall[1];
        match m.kind() {
            MoveKind::Pass => {
                if self.count_actions(side) > 0 {
                    return reason(Reason::PassWithActions);
                }
            }
            MoveKind::Enter(to) => {
                if self.to_enter[s] == 0 {
                    return reason(Reason::NothingToEnter);
                }
                if to.quadrant() != Quadrant::A {
                    return reason(Reason::EnterOutsideA(to));
                }
                if self.occupied() & to.bit() != 0 {
                    return reason(Reason::Occupied(to));
                }
            }
            MoveKind::BearOff(from) => {
                if self.wall[s] & from.bit() == 0 {
                    return reason(Reason::NoWall(from));
                }
                if from.quadrant() != Quadrant::D {
                    return reason(Reason::BearOffOutsideD(from));
                }
            }
            MoveKind::Step(from, to) => {
                let is_wall = self.wall[s] & from.bit() != 0;
                if self.lone[s] & from.bit() == 0 && !is_wall {
                    return reason(Reason::NoChecker(from));
                }
                if from.quadrant() == Quadrant::D {
                    return reason(Reason::StuckInD(from));
                }
                if Some(to.quadrant()) != from.quadrant().next() {
                    return reason(Reason::NotNextQuadrant(from, to));
                }
                let builds = self.lone[s] & to.bit() != 0;
                if builds && to.index() != from.index() + 6 {
                    return reason(Reason::BuildNotSix(from, to));
                }
                if !builds && self.occupied() & to.bit() != 0 {
                    return reason(Reason::Occupied(to));
                }
                if !is_wall {
                    let between = walls & above(from.index() as u32) & ((1 << to.index()) - 1);
                    if between != 0 {
                        let w = Point::from_index_unchecked(between.trailing_zeros() as u8);
                        let owner = if self.wall[0] & w.bit() != 0 {
                            Color::White
                        } else {
                            Color::Black
                        };
                        return reason(Reason::Blocked(w, owner));
                    }
                }
            }
        }
        Ok(())
    }
}

#[inline(always)]
fn push_steps(list: &mut MoveList, from: u32, mut targets: u32) {
    let from = Point::from_index_unchecked(from as u8);
    while targets != 0 {
        let to = Point::from_index_unchecked(targets.trailing_zeros() as u8);
        targets &= targets - 1;
        list.push(Move::step_unchecked(from, to));
    }
}

/// Why a move is illegal, in a player's words.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The game has ended; no move is legal.
    GameOver(Outcome),
    /// A pass while the side has a legal action.
    PassWithActions,
    /// An entry with no checker left off the board.
    NothingToEnter,
    /// An entry outside quadrant A.
    EnterOutsideA(Point),
    /// The destination holds a checker (and the move does not build a wall).
    Occupied(Point),
    /// A step from a point without a checker of the mover.
    NoChecker(Point),
    /// A step from quadrant D.
    StuckInD(Point),
    /// A step that does not land in the next quadrant.
    NotNextQuadrant(Point, Point),
    /// A step onto an own lone checker other than exactly six points ahead.
    BuildNotSix(Point, Point),
    /// A lone checker's way is blocked by a wall.
    Blocked(Point, Color),
    /// Bearing off from a point without a wall of the mover.
    NoWall(Point),
    /// Bearing off a wall outside quadrant D.
    BearOffOutsideD(Point),
}

/// An illegal move, with the reason it is illegal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move that was refused.
    pub mv: Move,
    /// Who tried to play it.
    pub side: Color,
    /// Why it was refused.
    pub reason: Reason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.side;
        let m = self.mv;
        match self.reason {
            Reason::GameOver(Outcome::Win(c)) => write!(f, "game is over: {c} has won"),
            Reason::GameOver(_) => write!(f, "game is over: drawn, neither player can move"),
            Reason::PassWithActions => write!(f, "{side} has a legal action and may not pass"),
            Reason::NothingToEnter => write!(f, "{side} has no checker left to enter"),
            Reason::EnterOutsideA(p) => {
                write!(f, "{m}: checkers enter only on points 1-6, not on {p}")
            }
            Reason::Occupied(p) => write!(f, "point {p} is occupied"),
            Reason::NoChecker(p) => write!(f, "there is no {side} checker on {p}"),
            Reason::StuckInD(p) => write!(
                f,
                "the checker on {p} is in quadrant D (19-24), where nothing moves forward"
            ),
            Reason::NotNextQuadrant(..) => {
                write!(f, "{m} does not land in the next quadrant")
            }
            Reason::BuildNotSix(from, to) => write!(
                f,
                "{m}: a wall can be built only exactly 6 points ahead ({}), not on {to}",
                from.number() + 6
            ),
            Reason::Blocked(w, c) => write!(f, "the {c} wall on {w} blocks the way"),
            Reason::NoWall(p) => write!(f, "there is no {side} wall on {p} to bear off"),
            Reason::BearOffOutsideD(p) => write!(
                f,
                "the wall on {p} is not in quadrant D (19-24); only walls there can be borne off"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}
