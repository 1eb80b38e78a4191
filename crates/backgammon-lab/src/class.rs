//! GNU Backgammon's classes of the positions a net evaluates (contact,
//! crashed, race): the one spelling of them that the benchmark, the rollout
//! data and the cube judge share, with gnubg's numbers for them.

use backgammon_engine::eval::{classify, Class};
use backgammon_rules::{Board, Side};
use std::fmt;
use std::str::FromStr;

/// A position's class as GNU Backgammon's `classifypos` has it, for the
/// positions a net evaluates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NetClass {
    Contact,
    Crashed,
    Race,
}

/// A class name that is none of contact, crashed or race.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("class \"{0}\": expected contact, crashed or race")]
pub struct UnknownClass(pub String);

impl NetClass {
    pub const ALL: [NetClass; 3] = [NetClass::Contact, NetClass::Crashed, NetClass::Race];

    /// GNU Backgammon's number of the class (its `classifypos`).
    pub fn gnubg_number(self) -> u32 {
        match self {
            NetClass::Race => 8,
            NetClass::Crashed => 9,
            NetClass::Contact => 10,
        }
    }

    /// The class of gnubg's `classifypos` number (bear-offs, hypergammon
    /// and finished games have none).
    pub fn from_gnubg(n: u32) -> Option<NetClass> {
        NetClass::ALL.into_iter().find(|c| c.gnubg_number() == n)
    }

    /// Our class of a position a net evaluates (None: a bear-off, which
    /// the database answers, or a finished game).
    pub fn of(board: &Board) -> Option<NetClass> {
        if board.has_won(Side::OnRoll) || board.has_won(Side::Opponent) {
            return None;
        }
        match classify(board) {
            Class::Bearoff => None,
            Class::Race => Some(NetClass::Race),
            Class::Crashed => Some(NetClass::Crashed),
            Class::Contact => Some(NetClass::Contact),
        }
    }
}

impl fmt::Display for NetClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NetClass::Contact => "contact",
            NetClass::Crashed => "crashed",
            NetClass::Race => "race",
        })
    }
}

impl FromStr for NetClass {
    type Err = UnknownClass;
    fn from_str(s: &str) -> Result<Self, UnknownClass> {
        NetClass::ALL
            .into_iter()
            .find(|c| c.to_string() == s)
            .ok_or_else(|| UnknownClass(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_gnubg_numbers_round_trip() {
        for c in NetClass::ALL {
            assert_eq!(c.to_string().parse::<NetClass>(), Ok(c));
            assert_eq!(NetClass::from_gnubg(c.gnubg_number()), Some(c));
        }
        assert_eq!(
            "bearoff".parse::<NetClass>(),
            Err(UnknownClass("bearoff".to_string()))
        );
        // gnubg's one-sided bear-off class and a finished game: no net's.
        assert_eq!(NetClass::from_gnubg(7), None);
        assert_eq!(NetClass::from_gnubg(0), None);
    }

    #[test]
    fn crashed_boards_are_told_from_contact() {
        // The starting position: full contact.
        assert_eq!(NetClass::of(&Board::START), Some(NetClass::Contact));
        // The player on roll with 13 checkers off and one anchor back left
        // in the opponent's home board: crashed.
        let mut me = [0u8; 25];
        me[23] = 2;
        let mut them = [0u8; 25];
        them[5] = 5;
        them[7] = 3;
        them[12] = 5;
        them[23] = 2;
        let b = Board::from_counts(&me, &them).unwrap();
        assert_eq!(NetClass::of(&b), Some(NetClass::Crashed));
    }
}
