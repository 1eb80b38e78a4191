//! Who chooses the moves and cube actions: the baselines (a uniformly random
//! mover, pubeval) behind one interface, so the protocol and the match
//! runner treat every player alike. Baselines never double and always take.

use crate::pubeval::{is_race, Pubeval};
use backgammon_rules::{Board, Dice, Move, MoveList};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fmt;
use std::str::FromStr;

/// The kinds of player.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Uniformly random among the legal moves (one per resulting position).
    Random,
    /// The move pubeval scores highest.
    #[default]
    Pubeval,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Random => "random",
            Kind::Pubeval => "pubeval",
        })
    }
}

/// A player name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad backgammon player \"{0}\": expected random or pubeval")]
pub struct ParseKindError(pub String);

impl FromStr for Kind {
    type Err = ParseKindError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "random" => Ok(Kind::Random),
            "pubeval" => Ok(Kind::Pubeval),
            _ => Err(ParseKindError(s.to_string())),
        }
    }
}

/// A player with its state: the random generator, the evaluation weights,
/// and a move list kept between calls (it is large).
pub struct Player {
    kind: Kind,
    rng: Pcg64Mcg,
    seed: Option<u64>,
    pubeval: Pubeval,
    moves: Box<MoveList>,
}

impl Player {
    /// A player of `kind`; `seed` makes a random player repeatable (else it
    /// is seeded from the OS).
    pub fn new(kind: Kind, seed: Option<u64>) -> Player {
        Player {
            kind,
            rng: rng_for(seed),
            seed,
            pubeval: Pubeval::published(),
            moves: Box::default(),
        }
    }

    /// The kind of player.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// A new game: the random generator restarts from its seed, so with a
    /// seed a game's moves depend only on the game.
    pub fn new_game(&mut self) {
        self.rng = rng_for(self.seed);
    }

    /// The chosen move of the player on roll with `dice` (`Move::PASS` when
    /// nothing is legal), with the board it leads to.
    pub fn choose(&mut self, board: &Board, dice: Dice) -> (Move, Board) {
        board.legal_moves_into(dice, &mut self.moves);
        let i = match self.kind {
            Kind::Random => self.rng.random_range(0..self.moves.len()),
            Kind::Pubeval => best_by_pubeval(&self.pubeval, board, &self.moves),
        };
        self.moves.get(i).expect("a legal move list is never empty")
    }

    /// Whether to offer a double now: baselines never do.
    pub fn doubles(&mut self, _board: &Board) -> bool {
        false
    }

    /// Whether to take a double: baselines always take.
    pub fn takes(&mut self, _board: &Board) -> bool {
        true
    }
}

fn rng_for(seed: Option<u64>) -> Pcg64Mcg {
    match seed {
        Some(s) => Pcg64Mcg::seed_from_u64(s),
        None => Pcg64Mcg::from_os_rng(),
    }
}

/// The index of the move whose resulting board pubeval scores highest (the
/// first of equals, in generation order).
fn best_by_pubeval(p: &Pubeval, before: &Board, moves: &MoveList) -> usize {
    let race = is_race(before);
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, after) in moves.boards().iter().enumerate() {
        let s = p.score(after, race);
        if s > best.0 {
            best = (s, i);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_play_legal_moves_and_kinds_round_trip() {
        for kind in [Kind::Random, Kind::Pubeval] {
            assert_eq!(kind.to_string().parse::<Kind>(), Ok(kind));
            let mut p = Player::new(kind, Some(3));
            for dice in Dice::all() {
                let (m, after) = p.choose(&Board::START, dice);
                assert_eq!(Board::START.apply(dice, &m), Ok(after), "{kind} {dice}");
            }
        }
        assert!("gnubg"
            .parse::<Kind>()
            .unwrap_err()
            .to_string()
            .contains("\"gnubg\""));
    }

    #[test]
    fn pubeval_makes_the_standard_opening_points() {
        // 3-1: pubeval makes the 5-point (8/5 6/5), as every strong player does.
        let mut p = Player::new(Kind::Pubeval, None);
        let dice = Dice::new(3, 1).unwrap();
        let (m, _) = p.choose(&Board::START, dice);
        assert_eq!(Board::START.move_text(&m), "8/5 6/5");
    }

    #[test]
    fn a_seeded_random_player_repeats_after_new_game() {
        let mut p = Player::new(Kind::Random, Some(9));
        let dice = Dice::new(6, 5).unwrap();
        let first: Vec<Move> = (0..5).map(|_| p.choose(&Board::START, dice).0).collect();
        p.new_game();
        let again: Vec<Move> = (0..5).map(|_| p.choose(&Board::START, dice).0).collect();
        assert_eq!(first, again);
    }
}
