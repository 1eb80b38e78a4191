//! Backgammon in the match runner (the `match_runner::Game` impl, in a
//! crate of its own so the runner knows no game). A runner game is one
//! money game or one whole N-point match, from a seeded dice stream (the
//! "opening": the rules and the seed, [`Setup`]); the pair's second game
//! uses the same stream with the seats swapped, so each engine gets the
//! other's dice. The referee speaks UBGI: `position gnubgid
//! <PositionID>:<MatchID>` (or the Position ID alone to an engine that
//! reads only the draft's form, [`PositionForm`]), `dice`, `go cube` (before a roll, when the
//! player on roll may double), `go take` (to the doubled player), `go
//! chequer`; it checks every answer with the rules core. Records hold one
//! word per turn ([`Turn`]); each game can also be written as a `.mat` file
//! GNU Backgammon imports ([`mat`]).

pub mod mat;
mod position;
mod referee;
mod table;
mod token;

pub use position::{board_lines, PositionForm};
pub use table::{player_of, side_of, ApplyError, Due, Event, PositionError, Table};
pub use token::{CubeAction, Roll, Turn};

use engine_client::Engine;
use match_runner::game::GameRecord;
use match_runner::game::{Game, GameSettings, Replayed, Scoring};
use match_runner::outcome::{GameResult, Played, Side};
use match_runner::spec::Proto;
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

    type ReplayError = ReplayError;

    fn replay(opening: &Setup, moves: &[Turn]) -> Result<Replayed, ReplayError> {
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

/// Why a record's moves do not replay: the first turn that does not apply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("turn {turn} ({text}): {error}")]
pub struct ReplayError {
    /// The turn's number, from 1.
    pub turn: usize,
    /// The turn as the record writes it.
    pub text: String,
    pub error: ApplyError,
}

/// The table after `moves` from `opening`, and what is due then.
pub fn replay(opening: &Setup, moves: &[Turn]) -> Result<(Table, Due), ReplayError> {
    let mut t = Table::new(*opening);
    for (i, m) in moves.iter().enumerate() {
        t.apply(m).map_err(|error| ReplayError {
            turn: i + 1,
            text: m.to_string(),
            error,
        })?;
    }
    let due = t.due();
    Ok((t, due))
}

#[cfg(test)]
mod tests {
    use super::*;
    use match_runner::outcome::Termination;
    use match_runner::records::{self, parse_records};

    /// A runner game played out on the table: the first legal move each
    /// turn, a double at turn `double_at` (taken).
    fn played(setup: Setup, double_at: usize) -> (Vec<Turn>, GameResult) {
        let mut t = Table::new(setup);
        loop {
            match t.due() {
                Due::Cube(_) if t.turns().len() == double_at => t.double().unwrap(),
                Due::Cube(_) => t.roll(),
                Due::Take(_) => t.take().unwrap(),
                Due::Move(_, dice) => {
                    let b = *t.game().board();
                    let m = b.legal_moves(dice).moves()[0];
                    t.play(&b.move_text(&m)).unwrap();
                }
                Due::Over(r) => return (t.turns().to_vec(), r),
            }
        }
    }

    fn record(opening: Setup, moves: Vec<Turn>, result: GameResult) -> GameRecord<Backgammon> {
        GameRecord {
            event: "test".into(),
            date: "2026.11.30".into(),
            pair: 0,
            game: 1,
            white: "white one".into(),
            black: "black".into(),
            opening,
            tc: "movetime=1000".into(),
            result,
            termination: Termination::Normal,
            detail: None,
            notes: Vec::new(),
            moves,
        }
    }

    #[test]
    fn records_of_matches_round_trip_replay_and_become_mat_files() {
        let bg = Backgammon::new(
            "match=3 cube=on crawford=on holland=off dice=0000000000000000"
                .parse()
                .unwrap(),
            5,
        );
        let opening = bg.opening(0);
        let (moves, result) = played(opening, 4);
        let g = record(opening, moves, result);
        let text = g.to_string();
        let back = parse_records::<Backgammon>(&text).unwrap().games;
        assert_eq!(back, vec![g.clone()]);
        assert_eq!(g.replay(), Ok(Replayed::Over(result)));
        assert!(text.contains("double+take+"), "{text}");
        // Numbered by who played: a row per White turn.
        let movers = Backgammon::movers(&opening, &g.moves);
        assert_eq!(movers.len(), g.moves.len());
        let mat = mat::write(&g).unwrap();
        assert!(
            mat.contains("\n 3 point match\n\n Game 1\n white_one : 0 "),
            "{mat}"
        );
        assert!(mat.contains(" Doubles => 2"), "{mat}");
        assert!(mat.contains("Wins "), "{mat}");
        // A wrong result is caught.
        let mut wrong = g.clone();
        wrong.result = match result == GameResult::points(1, 3) {
            true => GameResult::points(3, 1),
            false => GameResult::points(1, 3),
        };
        let e = wrong.replay().unwrap_err();
        assert!(matches!(e, records::ReplayError::OtherResult { .. }), "{e}");
        assert!(e.to_string().contains("the moves end in"));
    }

    #[test]
    fn forfeits_are_checked_against_their_value() {
        let opening: Setup = "money cube=on jacoby=off dice=0000000000000007"
            .parse()
            .unwrap();
        let (moves, _) = played(opening, 2);
        // Cut after the double was taken: the doubler is to move.
        let cut: Vec<Turn> = moves[..3].to_vec();
        let (_, due) = replay(&opening, &cut).unwrap();
        let loser = due.side().unwrap();
        let mut g = record(
            opening,
            cut.clone(),
            GameResult::points_for(loser.opposite(), 6),
        );
        g.termination = Termination::Crash;
        g.detail = Some("crashed".into());
        assert!(g.replay().is_ok(), "{g}");
        // A backgammon at cube 2 is 6; a plain win is not the forfeit's value.
        g.result = GameResult::win_for(loser.opposite());
        let e = g.replay().unwrap_err();
        assert!(
            matches!(e, records::ReplayError::NotTheMoversLoss { .. }),
            "{g}"
        );
        assert!(e.to_string().contains("should be a loss"), "{g}");
    }

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
