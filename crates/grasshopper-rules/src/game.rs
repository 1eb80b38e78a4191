//! Game facts that search, solver and tools share: results settled within
//! two plies, the colour-normalised exact key, material left, playouts.

use crate::mask::QD;
use crate::moves::Move;
use crate::position::{Position, Run};
use crate::types::{Color, Point};

/// A result that no play can change, found without a search (docs/rules/RULES.md 9, 11).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decided {
    /// The previous mover has scored twice in succession: the side to move
    /// has lost (0 plies to the end).
    Lost,
    /// The side to move scored last and has a wall in D: bearing it off wins
    /// now (1 ply).
    WinsNow,
    /// The opponent scored last and has a wall in D, and the side to move
    /// cannot score this turn: whatever it does (even a pass), the opponent
    /// bears off and wins (2 plies). No action removes the opponent's wall.
    LosesNext,
}

impl Decided {
    /// Plies until the game ends under this result (the winner hurries).
    pub const fn plies(self) -> u32 {
        match self {
            Decided::Lost => 0,
            Decided::WinsNow => 1,
            Decided::LosesNext => 2,
        }
    }
}

/// A result that the walls standing in D force by an exchange of scores,
/// whatever else stands on the board: [`Decided`]'s cases and the longer
/// exchanges they lead to (see [`Position::forced`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Forced {
    /// Whether the side to move wins (else it loses).
    pub wins: bool,
    /// Plies until the game ends (the winner hurries, the loser delays).
    pub plies: u32,
}

impl From<Decided> for Forced {
    fn from(d: Decided) -> Forced {
        Forced {
            wins: d == Decided::WinsNow,
            plies: d.plies(),
        }
    }
}

/// Number of bits of a [`Position::canonical_key`].
pub const CANONICAL_KEY_BITS: u32 = 70;

impl Position {
    /// True when somebody has scored twice in succession: the game is won.
    #[inline(always)]
    pub const fn is_won(&self) -> bool {
        matches!(self.run(), Some(Run { count: 2, .. }))
    }

    /// The result when it is settled within two plies whatever anybody plays.
    #[inline(always)]
    pub fn decided(&self) -> Option<Decided> {
        let run = self.run()?;
        if run.count == 2 {
            return Some(Decided::Lost);
        }
        let us = self.side_to_move();
        let our_wall_d = self.wall_mask(us) & QD != 0;
        if run.color == us && our_wall_d {
            Some(Decided::WinsNow)
        } else if run.color != us && !our_wall_d && self.wall_mask(us.opposite()) & QD != 0 {
            Some(Decided::LosesNext)
        } else {
            None
        }
    }

    /// The result when the walls standing in D settle it by force: a
    /// superset of [`Position::decided`].
    ///
    /// Walls in D never move and nothing removes them but their own
    /// bear-off, which is always legal. When a player holds the run (scored
    /// last) and has a wall in D, the other must score at once or lose; that
    /// score takes the run and the threat passes back. So, with `ours` and
    /// `theirs` the walls in D of the side to move and of the other:
    /// - the other holds the run and `ours < theirs`: every answer of ours
    ///   is answered until ours run out, and we lose in `2 ours + 2` plies;
    /// - nobody holds the run, or the other does, and `ours >= theirs + 2`:
    ///   we score and they must answer each time, and run out first; we win
    ///   in `2 theirs + 3` plies.
    ///
    /// Nobody has a free move inside the exchange except the winner, so
    /// nothing built meanwhile can change it.
    pub fn forced(&self) -> Option<Forced> {
        if let Some(d) = self.decided() {
            return Some(d.into());
        }
        let us = self.side_to_move();
        let ours = (self.wall_mask(us) & QD).count_ones();
        let theirs = (self.wall_mask(us.opposite()) & QD).count_ones();
        let they_hold = match self.run() {
            // We scored last with no wall in D (else `decided`): not forced.
            Some(r) if r.color == us => return None,
            run => run.is_some(),
        };
        if they_hold && ours < theirs {
            Some(Forced {
                wins: false,
                plies: 2 * ours + 2,
            })
        } else if ours >= theirs + 2 {
            Some(Forced {
                wins: true,
                plies: 2 * theirs + 3,
            })
        } else {
            None
        }
    }

    /// The move that plays a [forced](Position::forced) result out (the
    /// winner hurries, the loser delays): a bear-off whenever the mover has a
    /// wall in D, else any legal move; `None` when nothing is forced or the
    /// game is over.
    pub fn forced_move(&self) -> Option<Move> {
        let f = self.forced()?;
        if f.plies == 0 {
            return None;
        }
        // The lowest wall in D, if any.
        let walls = self.wall_mask(self.side_to_move()) & QD;
        match Point::from_index(walls.trailing_zeros() as u8) {
            Some(lowest) => Some(Move::bear_off(lowest)),
            None => self.legal_moves().first().copied(),
        }
    }

    /// Checkers of `c` not yet borne off: to enter and on the board.
    #[inline(always)]
    pub const fn checkers_left(&self, c: Color) -> u8 {
        self.to_enter(c) + self.on_board(c)
    }

    /// True unless `c` has too few checkers left to win: two more walls (one
    /// more when `c` scored last) of two checkers each.
    #[inline(always)]
    pub fn can_still_win(&self, c: Color) -> bool {
        let need = match self.run() {
            Some(Run { color, count: 1 }) if color == c => 1,
            _ => 2,
        };
        self.checkers_left(c) / 2 >= need
    }

    /// The position with colours swapped so that White is to move; the
    /// position itself when White already is. Both colours move the same way,
    /// so the value for the side to move is the same, and moves carry over.
    #[inline(always)]
    pub const fn canonical(&self) -> Position {
        match self.side_to_move() {
            Color::White => *self,
            Color::Black => self.swap_colors(),
        }
    }

    /// An exact 70-bit key of the [canonical](Position::canonical) form:
    /// equal for a position and its colour swap, distinct otherwise.
    ///
    /// The board takes 56 bits (24 base-5 digits: empty, white lone, white
    /// wall, black lone, black wall), then 4 bits for each side's checkers to
    /// enter, 3 bits for the run and 3 bits for N / 2. The scores are not
    /// stored: they follow from N, the checkers to enter and those on the
    /// board. The key is never 0 (N / 2 is at least 1), so 0 can mark an
    /// empty slot.
    #[inline(always)]
    pub const fn canonical_key(&self) -> u128 {
        let c = self.canonical();
        let (w, b) = (Color::White, Color::Black);
        let (lw, ww, lb, wb) = (
            c.lone_mask(w),
            c.wall_mask(w),
            c.lone_mask(b),
            c.wall_mask(b),
        );
        let mut board: u64 = 0;
        let mut i = 24;
        while i > 0 {
            i -= 1;
            let digit =
                ((lw >> i) & 1) + 2 * ((ww >> i) & 1) + 3 * ((lb >> i) & 1) + 4 * ((wb >> i) & 1);
            board = board * 5 + digit as u64;
        }
        (board as u128)
            | (c.to_enter(w) as u128) << 56
            | (c.to_enter(b) as u128) << 60
            | (Position::encode_run(c.run()) as u128) << 64
            | ((c.checkers() / 2) as u128) << 67
    }

    /// Plays `plies` moves from here, each chosen by `pick(n)` among the `n`
    /// legal moves (an index below `n`), stopping early when the game ends.
    /// With a random `pick` this is a random playout.
    pub fn playout(&self, plies: usize, mut pick: impl FnMut(usize) -> usize) -> Position {
        let mut pos = *self;
        for _ in 0..plies {
            if pos.is_game_over() {
                break;
            }
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[pick(moves.len()) % moves.len()]);
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn decided_positions_are_recognised() {
        assert_eq!(
            pos("....../....../....../...... b 0 4 2-0 w2").decided(),
            Some(Decided::Lost)
        );
        assert_eq!(
            pos("....../....../....../W..... w 0 4 1-0 w1").decided(),
            Some(Decided::WinsNow)
        );
        assert_eq!(
            pos("....../....../....../W..... b 0 4 1-0 w1").decided(),
            Some(Decided::LosesNext)
        );
        // A wall of its own in D keeps the side to move alive.
        assert_eq!(
            pos("....../....../....../W....B b 0 2 1-0 w1").decided(),
            None
        );
        assert_eq!(Position::start(4).unwrap().decided(), None);
        assert_eq!(
            pos("....../....../....../W..... w 0 4 1-0 w1").forced_move(),
            Some("19/off".parse().unwrap())
        );
    }

    #[test]
    fn canonical_keys_are_equal_for_colour_swaps_and_distinct_otherwise() {
        let texts = [
            "w.b.../W...B./....../b..... b 9 8 1-1 w1",
            "w.b.../W...B./....../b..... w 9 8 1-1 w1",
            "b.w.../B...W./....../w..... w 8 9 1-1 b1",
            "....../....../....../...... w 2 2 0-0 -",
            "....../....../....../...... w 4 4 0-0 -",
        ];
        let mut keys = std::collections::HashSet::new();
        for t in texts {
            let p = pos(t);
            let c = p.canonical();
            assert_eq!(c.side_to_move(), Color::White);
            assert_eq!(c.to_string().parse::<Position>().unwrap(), c);
            assert_eq!(p.canonical_key(), c.canonical_key());
            assert!(p.canonical_key() != 0 && p.canonical_key() < 1 << CANONICAL_KEY_BITS);
            keys.insert(p.canonical_key());
        }
        // The first and third strings are colour swaps of each other.
        assert_eq!(keys.len(), 4);
    }

    #[test]
    fn material_left_decides_whether_a_win_is_possible() {
        let p = pos("w...../....../....../...... w 1 2 1-1 b1");
        assert_eq!(p.checkers_left(Color::White), 2);
        assert!(!p.can_still_win(Color::White));
        let q = pos("ww..../....../....../...... b 0 2 1-1 w1");
        assert!(q.can_still_win(Color::White));
    }

    #[test]
    fn positions_come_apart_and_back_and_bad_parts_are_refused() {
        use crate::Parts;
        for t in [
            "w.b.../W...B./....../b..... b 9 8 1-1 w1",
            "....../....../....../W..... w 0 4 1-0 w1",
        ] {
            let p = pos(t);
            assert_eq!(Position::from_parts(p.parts()), Some(p));
        }
        let p = pos("w.b.../W...B./....../b..... b 9 8 1-1 w1");
        let bad = [
            Parts {
                lone: [1, 1],
                ..p.parts()
            },
            Parts {
                wall: [1, p.parts().wall[1]],
                ..p.parts()
            },
            Parts {
                to_enter: [10, 8],
                ..p.parts()
            },
            Parts {
                run: None,
                ..p.parts()
            },
            Parts {
                lone: [p.parts().lone[0] | 1 << 30, p.parts().lone[1]],
                ..p.parts()
            },
        ];
        for parts in bad {
            assert_eq!(Position::from_parts(parts), None, "{parts:?}");
        }
    }

    #[test]
    fn a_playout_stops_at_the_end_of_the_game() {
        let end = Position::start(2).unwrap().playout(1000, |_| 0);
        assert!(end.is_game_over());
    }
}
