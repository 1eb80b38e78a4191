//! A UBGI engine as someone else would write it: a random mover that
//! implements the UBGI v0.2 playable core only (`ubgi`, `isready`,
//! `newgame`, `position gnubgid`, `dice`, `go`/`go chequer`, `set`, `get`,
//! `keys`, `quit`, the four error codes) and refuses the cube (`go cube`,
//! `go turn`: `error unsupported`), XGIDs and the v0.1 spellings. It writes
//! its moves as single-die steps (`24/18 18/14`). The compliance tests
//! check it as a foreign backgammon engine.
//!
//! `--fail illegal` answers every `go` with a move that is not legal;
//! `--fail hang` never answers a `go` (it still answers `isready`).

use backgammon_rules::{Board, Dice};
use std::io::{self, BufRead, Write};

const KEY: &str = "key engine.seed int * 1 ! random seed";

#[derive(Default)]
struct Engine {
    board: Option<Board>,
    dice: Option<Dice>,
    seed: u64,
    /// The generator's state (seeded by `engine.seed`).
    rng: u64,
    fail: Option<String>,
}

/// An answer, or an error line's code and detail.
type Answer = Result<Option<String>, (&'static str, String)>;

impl Engine {
    fn random(&mut self, n: usize) -> usize {
        self.rng = self.rng.wrapping_mul(6364136223846793005).wrapping_add(1);
        ((self.rng >> 33) as usize) % n
    }

    fn position(&mut self, words: &[&str]) -> Answer {
        match words {
            ["gnubgid", id] => {
                let board = Board::from_position_id(id)
                    .map_err(|e| ("bad_value", format!("position: {e}")))?;
                self.board = Some(board);
                self.dice = None;
                Ok(None)
            }
            ["xgid", ..] => Err(("unsupported", "position xgid".into())),
            _ => Err(("bad_command", "expected: position gnubgid <id>".into())),
        }
    }

    fn dice(&mut self, words: &[&str]) -> Answer {
        let dice = match words {
            [a, b] => format!("{a}{b}").parse::<Dice>().ok(),
            _ => None,
        };
        self.dice = Some(dice.ok_or(("bad_value", "dice: expected two numbers 1-6".into()))?);
        Ok(None)
    }

    fn go(&mut self, words: &[&str]) -> Answer {
        match words {
            [] | ["chequer"] => {}
            [what, ..] => return Err(("unsupported", format!("go {what}"))),
        }
        let board = self.board.ok_or(("bad_state", "missing position".into()))?;
        let dice = self.dice.ok_or(("bad_state", "missing dice".into()))?;
        if self.fail.as_deref() == Some("hang") {
            return Ok(None);
        }
        if self.fail.as_deref() == Some("illegal") {
            return Ok(Some("bestmove 24/1".into()));
        }
        let legal = board.legal_moves(dice);
        let moves = legal.moves();
        let chosen = moves[self.random(moves.len())];
        Ok(Some(format!(
            "bestmove {}",
            board.move_steps_text(&chosen, false)
        )))
    }

    fn set(&mut self, words: &[&str]) -> Answer {
        match words {
            ["engine.seed", value] => {
                self.seed = value
                    .parse()
                    .map_err(|_| ("bad_value", "engine.seed".into()))?;
                self.rng = self.seed;
                Ok(None)
            }
            [key, _] => Err(("unsupported", format!("key {key}"))),
            _ => Err(("bad_command", "expected: set <key> <value>".into())),
        }
    }

    fn handle(&mut self, words: &[&str]) -> Answer {
        match words {
            ["ubgi"] => Ok(Some(format!(
                "id name ubgi-random\nid author a foreign author\nproto 0.2\n{KEY}\nubgiok"
            ))),
            ["isready"] => Ok(Some("readyok".into())),
            ["newgame"] => {
                (self.board, self.dice) = (None, None);
                Ok(None)
            }
            ["position", rest @ ..] => self.position(rest),
            ["dice", rest @ ..] => self.dice(rest),
            ["go", rest @ ..] => self.go(rest),
            ["set", rest @ ..] => self.set(rest),
            ["get", "engine.seed"] => Ok(Some(format!("value engine.seed {}", self.seed))),
            ["get", key] => Err(("unsupported", format!("key {key}"))),
            ["keys"] => Ok(Some(KEY.into())),
            ["stop"] => Ok(None),
            _ => Err((
                "bad_command",
                format!("unknown command {}", words.join(" ")),
            )),
        }
    }
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let fail = args
        .iter()
        .position(|a| a == "--fail")
        .and_then(|i| args.get(i + 1));
    let mut engine = Engine {
        seed: 1,
        rng: 1,
        fail: fail.cloned(),
        ..Engine::default()
    };
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => continue,
            ["quit"] => break,
            _ => {}
        }
        match engine.handle(&words) {
            Ok(None) => {}
            Ok(Some(answer)) => writeln!(out, "{answer}")?,
            Err((code, detail)) => writeln!(out, "error {code} {detail}")?,
        }
        out.flush()?;
    }
    Ok(())
}
