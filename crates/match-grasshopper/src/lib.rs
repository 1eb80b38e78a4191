//! Grasshopper in the match runner (the `match_runner::Game` impl, in a
//! crate of its own so the runner knows no game): openings (a file of
//! position strings, or seeded random plies from the start position;
//! opening `k` depends only on the source and `k`, so every shard agrees on
//! it) and the referee that plays one game over UGI or UCI, checking every
//! move with the rules core.

use engine_client::conversation::Question;
use engine_client::Engine;
use grasshopper_rules::{Color, Move, Outcome, Position};
use match_runner::clock::Clocks;
use match_runner::game::{Game, GameSettings, Replayed};
use match_runner::outcome::{GameResult, Played, Side, Termination};
use match_runner::spec::{Proto, TimeControl};
use match_runner::turn::ask;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Duration;

/// Where openings come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Openings {
    /// Positions read from a file, used in order and cycled.
    List(Vec<Position>),
    /// `plies` random legal plies from the start position with `checkers`
    /// per player; opening `k` is drawn from `seed` and `k`.
    Random { checkers: u8, plies: u32, seed: u64 },
}

/// The first illegal ply of a record's moves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {mv} is illegal: {error}")]
pub struct IllegalPly {
    /// The ply's number, from 1.
    pub ply: usize,
    pub mv: Move,
    pub error: grasshopper_rules::IllegalMove,
}

/// Why an openings file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    /// Line `line` is not a position string.
    #[error("line {line}: {error}")]
    BadPosition {
        line: usize,
        error: grasshopper_rules::ParsePositionError,
    },
    /// Line `line` holds a position where the game is over.
    #[error("line {line}: \"{text}\" is a finished game, not an opening")]
    Finished { line: usize, text: String },
    /// Only blank lines and comments.
    #[error("no positions in the openings file")]
    Empty,
}

/// Reads an openings file: one position string a line; blank lines and lines
/// starting with `#` are skipped. Finished positions are refused.
pub fn parse_openings(text: &str) -> Result<Vec<Position>, OpeningsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos: Position = line
            .parse()
            .map_err(|error| OpeningsError::BadPosition { line: i + 1, error })?;
        if pos.is_game_over() {
            return Err(OpeningsError::Finished {
                line: i + 1,
                text: line.to_string(),
            });
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

impl Openings {
    /// The opening of game pair round `k`.
    pub fn get(&self, k: usize) -> Position {
        match self {
            Openings::List(list) => list[k % list.len()],
            &Openings::Random {
                checkers,
                plies,
                seed,
            } => random_opening(checkers, plies, seed, k as u64),
        }
    }
}

/// `plies` random legal plies from the start; a line that ends the game early
/// is thrown away and drawn again (up to 1000 tries, then the last try).
fn random_opening(checkers: u8, plies: u32, seed: u64, k: u64) -> Position {
    let start = Position::start(checkers).expect("checked when the match was set up");
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut pos = start;
    for _ in 0..1000 {
        pos = start.playout(plies as usize, |n| rng.random_range(0..n));
        if !pos.is_game_over() {
            break;
        }
    }
    pos
}

/// The seat of a colour: White is player 1.
fn side_of(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// Grasshopper, with the match's openings.
#[derive(Clone, Debug, PartialEq)]
pub struct Grasshopper {
    pub openings: Openings,
}

impl Game for Grasshopper {
    type Opening = Position;
    type Move = Move;

    fn opening(&self, round: usize) -> Position {
        self.openings.get(round)
    }

    fn first_to_move(opening: &Position) -> Side {
        side_of(opening.side_to_move())
    }

    fn play(
        &self,
        engines: [&mut Engine; 2],
        opening: &Position,
        s: &GameSettings,
    ) -> Played<Move> {
        Referee::new(engines, *opening, s).play()
    }

    type ReplayError = IllegalPly;

    fn replay(opening: &Position, moves: &[Move]) -> Result<Replayed, IllegalPly> {
        let mut pos = *opening;
        for (i, &m) in moves.iter().enumerate() {
            pos = pos.play(m).map_err(|error| IllegalPly {
                ply: i + 1,
                mv: m,
                error,
            })?;
        }
        Ok(match pos.outcome() {
            Outcome::Win(c) => Replayed::Over(GameResult::win_for(side_of(c))),
            Outcome::Draw => Replayed::Over(GameResult::Draw),
            Outcome::Ongoing => Replayed::Ongoing {
                to_move: side_of(pos.side_to_move()),
            },
        })
    }
}

/// One game in progress: the engines, the position and what was played.
struct Referee<'a> {
    engines: [&'a mut Engine; 2],
    settings: &'a GameSettings,
    opening: Position,
    pos: Position,
    moves: Vec<Move>,
    notes: Vec<String>,
    clocks: Clocks,
}

impl<'a> Referee<'a> {
    fn new(engines: [&'a mut Engine; 2], opening: Position, settings: &'a GameSettings) -> Self {
        Referee {
            engines,
            settings,
            opening,
            pos: opening,
            moves: Vec::new(),
            notes: Vec::new(),
            clocks: Clocks::new(settings.tc),
        }
    }

    /// Plays to the end: a result by the rules, or a forfeit.
    fn play(mut self) -> Played<Move> {
        if let Err(forfeit) = self.new_game() {
            return forfeit;
        }
        loop {
            match self.pos.outcome() {
                Outcome::Win(c) => return self.end(GameResult::win_for(side_of(c))),
                Outcome::Draw => return self.end(GameResult::Draw),
                Outcome::Ongoing => {}
            }
            if let Err(forfeit) = self.turn() {
                return Played {
                    notes: self.notes,
                    ..forfeit
                };
            }
        }
    }

    fn end(self, result: GameResult) -> Played<Move> {
        Played::normal(result, self.moves, self.notes)
    }

    /// Both engines start a new game and are ready.
    fn new_game(&mut self) -> Result<(), Played<Move>> {
        for side in Side::ALL {
            let e = &mut self.engines[side.index()];
            let word = self.settings.protos[side.index()].new_game();
            e.send(word)
                .and_then(|_| e.sync(self.settings.timeout))
                .map_err(|f| Played::failure(side, &f, Vec::new()))?;
        }
        Ok(())
    }

    /// The side to move is asked for its move, which is refereed and played.
    fn turn(&mut self) -> Result<(), Played<Move>> {
        let side = side_of(self.pos.side_to_move());
        let s = self.settings;
        let go = go_command(&self.clocks, side, s.protos[side.index()]);
        let setup = [self.position_command()];
        let budget = self.clocks.budget(side, s.margin, s.move_timeout);
        let request = Question::new(&setup, &go, "bestmove", budget, s.timeout);
        let tc = self.clocks.tc(side);
        let answer = ask(self.engines[side.index()], &request)
            .map_err(|r| r.forfeit(side, tc, self.moves.clone()))?;
        let m = self.referee(side, &answer.line)?;
        self.pos.play_unchecked(m);
        self.moves.push(m);
        self.notes.push(answer.note());
        self.clocks.charge(side, answer.elapsed);
        Ok(())
    }

    /// `position fen <opening> [moves ...]`: the whole game so far.
    fn position_command(&self) -> String {
        let mut line = format!("position fen {}", self.opening);
        if !self.moves.is_empty() {
            line.push_str(" moves");
            for m in &self.moves {
                line.push(' ');
                line.push_str(&m.to_string());
            }
        }
        line
    }

    /// The move of a `bestmove` line, if it is legal here.
    fn referee(&self, side: Side, line: &str) -> Result<Move, Played<Move>> {
        let illegal =
            |why: String| Played::forfeit(side, Termination::IllegalMove, why, self.moves.clone());
        let Some(token) = line.split_whitespace().nth(1) else {
            return Err(illegal("sent bestmove without a move".to_string()));
        };
        if token == "(none)" {
            return Err(illegal(format!(
                "claimed to have no move (bestmove (none)), but has {}",
                self.pos.legal_moves().len()
            )));
        }
        let m: Move = token
            .parse()
            .map_err(|e| illegal(format!("sent an unreadable move: {e}")))?;
        self.pos
            .check(m)
            .map_err(|why| illegal(format!("played the illegal move {m}: {why}")))?;
        Ok(m)
    }
}

/// The `go` command for `mover` in `proto`'s spelling: both clocks under a
/// clock time control, else the fixed limit.
pub fn go_command(clocks: &Clocks, mover: Side, proto: Proto) -> String {
    match clocks.tc(mover) {
        TimeControl::Clock { .. } => {
            let (t1, t2, i1, i2) = match proto {
                // (A Grasshopper match refuses UBGI engines; UGI's words otherwise.)
                Proto::Ugi | Proto::Ubgi => ("p1time", "p2time", "p1inc", "p2inc"),
                Proto::Uci => ("wtime", "btime", "winc", "binc"),
            };
            let [(w, wi), (b, bi)] = clocks.shown(mover).map(|(t, i)| (ms(t), ms(i)));
            let mut go = format!("go {t1} {w} {t2} {b} {i1} {wi} {i2} {bi}");
            if let Some(n) = clocks.moves_to_go(mover) {
                go.push_str(&format!(" movestogo {n}"));
            }
            go
        }
        TimeControl::MoveTime(t) => format!("go movetime {}", ms(t)),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
    }
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

#[cfg(test)]
mod tests {
    use super::*;
    use grasshopper_rules::Color;

    #[test]
    fn random_openings_are_reproducible_open_and_varied() {
        let o = Openings::Random {
            checkers: 14,
            plies: 6,
            seed: 7,
        };
        let a: Vec<Position> = (0..20).map(|k| o.get(k)).collect();
        let b: Vec<Position> = (0..20).map(|k| o.get(k)).collect();
        assert_eq!(a, b);
        let distinct: std::collections::HashSet<_> = a.iter().map(|p| p.key()).collect();
        assert!(distinct.len() > 15, "{}", distinct.len());
        for p in &a {
            assert!(!p.is_game_over());
            // Six plies from the start: White has entered at least one checker.
            assert!(p.to_enter(Color::White) < 14);
            assert_eq!(p.side_to_move(), Color::White);
        }
        let other = Openings::Random {
            checkers: 14,
            plies: 6,
            seed: 8,
        };
        assert_ne!(other.get(0), o.get(0));
    }

    #[test]
    fn go_commands_carry_both_clocks() {
        let ms = Duration::from_millis;
        let tc = TimeControl::Clock {
            moves: Some(40),
            time: ms(60_000),
            increment: ms(600),
        };
        let mut clocks = Clocks::new([tc, tc]);
        clocks.charge(Side::White, ms(58_500));
        let go = go_command(&clocks, Side::White, Proto::Ugi);
        assert_eq!(
            go,
            "go p1time 2100 p2time 60000 p1inc 600 p2inc 600 movestogo 39"
        );
        let sudden = TimeControl::Clock {
            moves: None,
            time: ms(1000),
            increment: ms(0),
        };
        let go = go_command(&Clocks::new([sudden, sudden]), Side::Black, Proto::Uci);
        assert_eq!(go, "go wtime 1000 btime 1000 winc 0 binc 0");
        let depth = Clocks::new([TimeControl::Depth(2); 2]);
        assert_eq!(go_command(&depth, Side::White, Proto::Ugi), "go depth 2");
    }

    #[test]
    fn openings_files_skip_comments_and_name_bad_lines() {
        let text = "# openings\n\n....../....../....../...... w 14 14 0-0 -\nw...../....../....../...... b 13 14 0-0 -\n";
        assert_eq!(parse_openings(text).unwrap().len(), 2);
        let e = parse_openings("# x\nnot a position\n").unwrap_err();
        assert!(matches!(e, OpeningsError::BadPosition { line: 2, .. }));
        assert!(e.to_string().starts_with("line 2:"), "{e}");
        let finished = "....../....../....../...... w 0 0 1-1 b1";
        let e = parse_openings(&format!("{finished}\n")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("line 1: \"{finished}\" is a finished game, not an opening")
        );
        let e = parse_openings("# only comments\n").unwrap_err();
        assert_eq!(e.to_string(), "no positions in the openings file");
    }
}
