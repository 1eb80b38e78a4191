//! A UGI engine as someone else would write it: a random mover that
//! implements only what the UGI specification asks (`ugi`/`ugiok`,
//! `isready`, `setoption`, `uginewgame`, `position startpos|fen ... moves
//! ...`, `go` with its limits, `stop`, `query p1turn|gameover|result`,
//! `quit`) and passes over everything else in silence, as UCI engines do.
//! None of grasshopper's extensions (`query fen`, `error` lines, Ponder,
//! MultiPV...). The compliance tests check it as a foreign engine.
//!
//! `--fail illegal` answers every `go` with a move that is not legal;
//! `--fail hang` never answers a `go` (it still answers `isready`).

use grasshopper_rules::{Color, Move, Outcome, Position};
use std::io::{self, BufRead, Write};

struct Engine {
    position: Position,
    seed: u64,
    /// The move of a `go infinite` (or `go` with no limit), until `stop`.
    pending: Option<String>,
    fail: Option<String>,
}

impl Engine {
    fn random(&mut self, n: usize) -> usize {
        self.seed = self.seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        ((self.seed >> 33) as usize) % n
    }

    /// `position startpos|fen <fen> [moves ...]`; a bad one is ignored.
    fn set_position(&mut self, words: &[&str]) {
        let cut = words
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(words.len());
        let mut position = match words.first() {
            Some(&"startpos") => Position::start(14),
            Some(&"fen") => words[1..cut].join(" ").parse().ok(),
            _ => None,
        };
        for text in words.iter().skip(cut + 1) {
            let played = position.and_then(|p| p.play(text.parse().ok()?).ok());
            position = played;
        }
        if let Some(position) = position {
            self.position = position;
        }
    }

    /// The answer to `go`: now, or at `stop` for an unlimited search.
    fn go(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        if self.fail.as_deref() == Some("hang") {
            return Ok(());
        }
        let best = self.choose(words);
        let limits = [
            "depth", "nodes", "movetime", "wtime", "btime", "p1time", "p2time",
        ];
        let unlimited = !words.iter().any(|w| limits.contains(w)) || words.contains(&"infinite");
        if unlimited && !self.position.is_game_over() {
            self.pending = Some(best);
            return Ok(());
        }
        writeln!(out, "bestmove {best}")
    }

    fn choose(&mut self, words: &[&str]) -> String {
        if self.position.is_game_over() {
            return "(none)".to_string();
        }
        if self.fail.as_deref() == Some("illegal") {
            return self.illegal();
        }
        let legal: Vec<Move> = self.position.legal_moves().as_slice().to_vec();
        let listed: Vec<Move> = match words.iter().position(|w| *w == "searchmoves") {
            Some(at) => words[at + 1..]
                .iter()
                .filter_map(|w| w.parse().ok())
                .collect(),
            None => legal.clone(),
        };
        let allowed: Vec<Move> = listed.into_iter().filter(|m| legal.contains(m)).collect();
        let from = if allowed.is_empty() { legal } else { allowed };
        from[self.random(from.len())].to_string()
    }

    /// A move in notation that is not legal here.
    fn illegal(&self) -> String {
        let texts = ["bar/7", "1/7", "24/off", "bar/1", "12/13"];
        let illegal = texts.iter().find(|t| {
            let m: Option<Move> = t.parse().ok();
            m.is_some_and(|m| self.position.play(m).is_err())
        });
        illegal.unwrap_or(&"bar/7").to_string()
    }

    fn query(&self, what: Option<&&str>) -> Option<String> {
        let p = &self.position;
        Some(match *what? {
            "p1turn" => (p.side_to_move() == Color::White).to_string(),
            "gameover" => p.is_game_over().to_string(),
            "result" => match p.outcome() {
                Outcome::Win(Color::White) => "p1win",
                Outcome::Win(Color::Black) => "p2win",
                Outcome::Draw => "draw",
                Outcome::Ongoing => "none",
            }
            .to_string(),
            _ => return None,
        })
    }

    /// One command; false at `quit`.
    fn handle(&mut self, line: &str, out: &mut impl Write) -> io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("ugi") => {
                writeln!(out, "id name ugi-random")?;
                writeln!(out, "id author a foreign author")?;
                writeln!(
                    out,
                    "option name Seed type spin default 1 min 0 max 1000000"
                )?;
                writeln!(out, "ugiok")?;
            }
            Some("isready") => writeln!(out, "readyok")?,
            Some("setoption") if words.get(2) == Some(&"Seed") => {
                self.seed = words.get(4).and_then(|v| v.parse().ok()).unwrap_or(1);
            }
            Some("uginewgame") => self.position = Position::start(14).expect("14"),
            Some("position") => self.set_position(&words[1..]),
            Some("go") => self.go(&words[1..], out)?,
            Some("stop") => {
                if let Some(best) = self.pending.take() {
                    writeln!(out, "bestmove {best}")?;
                }
            }
            Some("query") => {
                if let Some(answer) = self.query(words.get(1)) {
                    writeln!(out, "response {answer}")?;
                }
            }
            Some("quit") => return Ok(false),
            _ => {}
        }
        out.flush()?;
        Ok(true)
    }
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let fail = args
        .iter()
        .position(|a| a == "--fail")
        .and_then(|i| args.get(i + 1));
    let mut engine = Engine {
        position: Position::start(14).expect("14"),
        seed: 1,
        pending: None,
        fail: fail.cloned(),
    };
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        if !engine.handle(&line?, &mut out)? {
            break;
        }
    }
    Ok(())
}
