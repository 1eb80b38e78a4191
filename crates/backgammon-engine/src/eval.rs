//! The evaluation: cubeless chances of the player on roll from the neural
//! nets (contact and race) or, once both sides are home, the bear-off
//! database; and the 1-ply move choice on top of it.

use crate::bearoff::Bearoff;
use crate::features::{contact_inputs, race_inputs, CONTACT_INPUTS, RACE_INPUTS};
use crate::net::{Net, NetError};
use crate::pubeval::is_race;
use backgammon_rules::{win_kind, Board, Dice, MoveList, Side, WinKind};

/// Chances of one side: win, win a gammon (backgammons included), win a
/// backgammon, lose a gammon (backgammons included), lose a backgammon.
pub type Probs = [f32; 5];

/// The same chances seen from the other side.
#[inline(always)]
pub fn flip(p: &Probs) -> Probs {
    [1.0 - p[0], p[3], p[4], p[1], p[2]]
}

/// Cubeless money equity: points won per game on average.
#[inline(always)]
pub fn equity(p: &Probs) -> f32 {
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}

/// The chances once the player on roll has borne off the last checker.
pub fn won(board: &Board) -> Probs {
    match win_kind(board) {
        WinKind::Single => [1.0, 0.0, 0.0, 0.0, 0.0],
        WinKind::Gammon => [1.0, 1.0, 0.0, 0.0, 0.0],
        WinKind::Backgammon => [1.0, 1.0, 1.0, 0.0, 0.0],
    }
}

/// Which evaluator a position goes to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Checkers can still meet.
    Contact,
    /// No contact, some checker outside its home board.
    Race,
    /// Both sides home: the bear-off database.
    Bearoff,
}

/// The class of a position.
#[inline]
pub fn classify(board: &Board) -> Class {
    if !is_race(board) {
        Class::Contact
    } else if Bearoff::covers(board) {
        Class::Bearoff
    } else {
        Class::Race
    }
}

/// The nets, with the process's bear-off tables (generated at their first
/// use, about a CPU-second: [`Bearoff::get`]).
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub contact: Net,
    pub race: Net,
}

/// The nets shipped in `data/`, compiled into the binary.
static CONTACT_NET: &[u8] = include_bytes!("../data/contact.net");
static RACE_NET: &[u8] = include_bytes!("../data/race.net");

/// Keeps the chances consistent: a gammon is a win, a backgammon a gammon.
#[inline(always)]
fn sane(mut p: Probs) -> Probs {
    p[1] = p[1].min(p[0]);
    p[2] = p[2].min(p[1]);
    p[3] = p[3].min(1.0 - p[0]);
    p[4] = p[4].min(p[3]);
    p
}

impl Evaluator {
    /// An evaluator with these nets.
    pub fn new(contact: Net, race: Net) -> Evaluator {
        assert_eq!(contact.inputs(), CONTACT_INPUTS);
        assert_eq!(race.inputs(), RACE_INPUTS);
        Evaluator { contact, race }
    }

    /// The nets trained here and shipped with the program.
    pub fn shipped() -> Evaluator {
        Evaluator::from_bytes(CONTACT_NET, RACE_NET).expect("the shipped nets read")
    }

    /// Nets from their files' bytes.
    pub fn from_bytes(contact: &[u8], race: &[u8]) -> Result<Evaluator, NetError> {
        Ok(Evaluator::new(
            Net::from_bytes(contact, CONTACT_INPUTS)?,
            Net::from_bytes(race, RACE_INPUTS)?,
        ))
    }

    /// The bear-off tables.
    pub fn bearoff(&self) -> &'static Bearoff {
        Bearoff::get()
    }

    /// The chances of the player on roll of `board` (before rolling), which
    /// must not be over.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> Probs {
        match classify(board) {
            Class::Contact => {
                let mut x = [0.0f32; CONTACT_INPUTS];
                contact_inputs(board, &mut x);
                sane(self.contact.forward(&x))
            }
            Class::Race => {
                let mut x = [0.0f32; RACE_INPUTS];
                race_inputs(board, &mut x);
                sane(self.race.forward(&x))
            }
            Class::Bearoff => Bearoff::get().probs(board),
        }
    }

    /// The chances of the player who just moved, for the board `after`
    /// their move (still seen from their side).
    #[inline]
    pub fn after_move(&self, after: &Board) -> Probs {
        if after.has_won(Side::OnRoll) {
            won(after)
        } else {
            flip(&self.evaluate(&after.swapped()))
        }
    }

    /// The index in `moves` (generated from a position) of the move with
    /// the highest cubeless equity at 1-ply, with its chances.
    pub fn best_move(&self, moves: &MoveList) -> (usize, Probs) {
        let mut best = (f32::NEG_INFINITY, 0usize, [0.0; 5]);
        for (i, after) in moves.boards().iter().enumerate() {
            let p = self.after_move(after);
            let e = equity(&p);
            if e > best.0 {
                best = (e, i, p);
            }
        }
        (best.1, best.2)
    }

    /// The cubeless chances of the player on roll of `board` averaged over
    /// the 21 rolls, each played by [`Evaluator::best_move`] (a 2-ply look).
    pub fn one_roll_ahead(&self, board: &Board, moves: &mut MoveList) -> Probs {
        let mut acc = [0.0f32; 5];
        for dice in Dice::all() {
            let w = if dice.is_double() { 1.0 } else { 2.0 } / 36.0;
            board.legal_moves_into(dice, moves);
            let (_, p) = self.best_move(moves);
            for k in 0..5 {
                acc[k] += w * p[k];
            }
        }
        acc
    }
}
