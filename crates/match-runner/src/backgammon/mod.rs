//! Backgammon in the match runner. A runner game is one money game or one
//! whole N-point match, from a seeded dice stream (the "opening": the
//! rules and the seed, [`Setup`]); the pair's second game uses the same
//! stream with the seats swapped, so each engine gets the other's dice.
//! The referee speaks UBGI: `position gnubgid <PositionID>:<MatchID>`,
//! `dice`, `go cube` (before a roll, when the player on roll may double),
//! `go take` (to the doubled player), `go chequer`; it checks every answer
//! with the rules core. Records hold one word per turn ([`Turn`]); each
//! game can also be written as a `.mat` file GNU Backgammon imports
//! ([`mat`]).

pub mod mat;
mod referee;
mod table;
mod token;

pub use table::{player_of, side_of, Due, Event, Table};
pub use token::{CubeAction, Roll, Turn};

use super::game::{Game, GameSettings, Replayed, Scoring};
use super::outcome::{GameResult, Played, Side};
use super::records::GameRecord;
use super::spec::Proto;
use engine_client::Engine;
use std::fmt;
use std::str::FromStr;

/// The rules of a runner game and the seed of its dice: what the records'
/// FEN tag holds, e.g. `money cube=on jacoby=on dice=00000000075bcd15` or
/// `match=7 cube=on crawford=on holland=off dice=...`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Points to win the match; 0 for a money game.
    pub length: u16,
    /// The doubling cube is in play (else nobody is asked to double).
    pub cube: bool,
    /// Money play: gammons count single until the cube is turned.
    pub jacoby: bool,
    /// Matches: no doubling in the Crawford game.
    pub crawford: bool,
    /// Matches: the Holland rule after the Crawford game.
    pub holland: bool,
    /// The seed of the dice.
    pub dice: u64,
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.length {
            0 => write!(
                f,
                "money cube={} jacoby={}",
                on_off(self.cube),
                on_off(self.jacoby)
            )?,
            n => write!(
                f,
                "match={n} cube={} crawford={} holland={}",
                on_off(self.cube),
                on_off(self.crawford),
                on_off(self.holland)
            )?,
        }
        write!(f, " dice={:016x}", self.dice)
    }
}

impl FromStr for Setup {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |why: String| format!("bad backgammon setup \"{s}\": {why}");
        let mut words = s.split_whitespace();
        let mut setup = Setup {
            length: 0,
            cube: true,
            jacoby: false,
            crawford: false,
            holland: false,
            dice: 0,
        };
        match words.next() {
            Some("money") => {}
            Some(w) if w.starts_with("match=") => {
                setup.length = w[6..]
                    .parse()
                    .ok()
                    .filter(|&n| (1..32768).contains(&n))
                    .ok_or_else(|| bad(format!("\"{w}\" is not a match length 1-32767")))?;
            }
            _ => return Err(bad("expected money or match=N first".into())),
        }
        let mut dice = None;
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| bad(format!("\"{w}\" is not key=value")))?;
            let flag = || match v {
                "on" => Ok(true),
                "off" => Ok(false),
                _ => Err(bad(format!("{k}={v}: expected on or off"))),
            };
            match (k, setup.length) {
                ("cube", _) => setup.cube = flag()?,
                ("jacoby", 0) => setup.jacoby = flag()?,
                ("crawford", 1..) => setup.crawford = flag()?,
                ("holland", 1..) => setup.holland = flag()?,
                ("dice", _) if v.len() == 16 => {
                    dice = Some(
                        u64::from_str_radix(v, 16)
                            .map_err(|_| bad(format!("dice={v} is not 16 hex digits")))?,
                    )
                }
                _ => return Err(bad(format!("unexpected \"{w}\""))),
            }
        }
        setup.dice = dice.ok_or_else(|| bad("no dice=SEED".into()))?;
        Ok(setup)
    }
}

/// Backgammon, with the match's rules and the seed its dice come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backgammon {
    /// The rules of every runner game (its `dice` is unused).
    pub rules: Setup,
    /// The match's seed: pair k's dice are drawn from it and k.
    pub seed: u64,
    /// Turns a backgammon game may last before the side to act is said to
    /// stall (a safety bound; real games last well under 500).
    pub max_turns: u32,
}

impl Backgammon {
    /// The default safety bound on turns per backgammon game.
    pub const MAX_TURNS: u32 = 5000;

    /// Money games (`length` 0) or matches with these rules.
    pub fn new(rules: Setup, seed: u64) -> Backgammon {
        Backgammon {
            rules,
            seed,
            max_turns: Backgammon::MAX_TURNS,
        }
    }
}

impl Game for Backgammon {
    type Opening = Setup;
    type Move = Turn;

    const PROTOCOLS: &'static [Proto] = &[Proto::Ubgi];
    const TRANSCRIPT: Option<&'static str> = Some("mat");

    fn opening(&self, round: usize) -> Setup {
        let k = round as u64;
        Setup {
            dice: (self.seed ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03))
                .wrapping_mul(0xBF58_476D_1CE4_E5B9)
                .rotate_left(31)
                ^ k,
            ..self.rules
        }
    }

    fn first_to_move(opening: &Setup) -> Side {
        let mut t = Table::new(*opening);
        t.due().side().unwrap_or(Side::White)
    }

    fn play(&self, engines: [&mut Engine; 2], opening: &Setup, s: &GameSettings) -> Played<Turn> {
        referee::Referee::new(engines, *opening, s, self.max_turns).play()
    }

    fn replay(opening: &Setup, moves: &[Turn]) -> Result<Replayed, String> {
        let table = replay(opening, moves)?;
        Ok(match table.1 {
            Due::Over(r) => Replayed::Over(r),
            due => Replayed::Ongoing {
                to_move: due.side().expect("a game going on has a side to act"),
            },
        })
    }

    fn scoring(opening: &Setup) -> Scoring {
        match opening.length {
            0 => Scoring::Points,
            _ => Scoring::Matches,
        }
    }

    fn movers(opening: &Setup, moves: &[Turn]) -> Vec<Side> {
        let mut t = Table::new(*opening);
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            let side = t.due().side().unwrap_or(Side::White);
            if t.apply(m).is_err() {
                break;
            }
            out.push(side);
        }
        out
    }

    fn forfeit_result(opening: &Setup, moves: &[Turn], loser: Side) -> GameResult {
        match replay(opening, moves) {
            Ok((t, _)) => t.forfeit_result(loser),
            Err(_) => GameResult::win_for(loser.opposite()),
        }
    }

    fn transcript(record: &GameRecord<Self>) -> Option<String> {
        mat::write(record).ok()
    }
}

/// The table after `moves` from `opening`, and what is due then.
pub fn replay(opening: &Setup, moves: &[Turn]) -> Result<(Table, Due), String> {
    let mut t = Table::new(*opening);
    for (i, m) in moves.iter().enumerate() {
        t.apply(m)
            .map_err(|e| format!("turn {} ({m}): {e}", i + 1))?;
    }
    let due = t.due();
    Ok((t, due))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setups_round_trip_and_pairs_get_their_own_dice() {
        let bg = Backgammon::new(
            Setup {
                length: 7,
                cube: true,
                jacoby: false,
                crawford: true,
                holland: true,
                dice: 0,
            },
            1,
        );
        let a = bg.opening(0);
        assert_eq!(
            a.to_string()[..42].to_string(),
            "match=7 cube=on crawford=on holland=on dic"
        );
        assert_eq!(a.to_string().parse::<Setup>(), Ok(a));
        assert_ne!(bg.opening(1).dice, a.dice);
        let money: Setup = "money cube=off jacoby=off dice=00000000000000ff"
            .parse()
            .unwrap();
        assert_eq!(money.dice, 255);
        assert!(!money.cube);
        assert_eq!(
            money.to_string(),
            "money cube=off jacoby=off dice=00000000000000ff"
        );
        for bad in [
            "money",
            "match=0 dice=00000000000000ff",
            "money crawford=on dice=00000000000000ff",
            "money cube=maybe dice=00000000000000ff",
            "chess dice=00000000000000ff",
        ] {
            assert!(bad.parse::<Setup>().is_err(), "{bad}");
        }
    }
}
