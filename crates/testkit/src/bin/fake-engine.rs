//! `fake-engine`: a small engine for the tests, playing by testkit's naive
//! model of the rules (so a match between it and the real engine also
//! cross-checks the rules), that misbehaves on request.
//!
//! Without `--fail` it speaks protocol.md as a plain, compliant engine:
//! `ugi`/`uci` (options Ponder, MultiPV, Checkers), `isready`, `setoption`,
//! `uginewgame`, `position`, `go` with every limit (it answers at once, or
//! at `stop`/`ponderhit` for `go infinite`/`go ponder`), `stop`,
//! `ponderhit`, `query`, `quit`, and `error` lines with protocol.md's codes.
//! It plays the first legal move (`--mode first`) or one chosen by a hash
//! of the position and `--seed` (`--mode random`), so its games are the
//! same in every process; `--delay MS` makes it think that long per move.
//!
//! `--fail KIND` makes it misbehave at every `go` (a whole session of it),
//! or with `--fail-after N` only at the `go` after N moves of its own in a
//! game (counted from `uginewgame`):
//!
//! - `illegal`: answers `bestmove bar/7` (never legal);
//! - `crash`: exits with status 3;
//! - `silent`: says nothing more, ever (whole session: not even to `ugi`);
//! - `garbage`: noise lines (with bytes that are not UTF-8) and `bestmove
//!   !!@@##`; for a whole session also noise before every answer and a
//!   `ugiokay?` before `ugiok`;
//! - `slow`: thinks 500 ms before an ordinary answer;
//! - `flood`: a 3 MB line, then `bestmove bar/7`;
//! - `stale`: after its move, a second `bestmove` line;
//! - `ponder`: `bestmove <move> ponder <move>` even with the Ponder option
//!   false (the line that hangs a strict UGI runner);
//! - `crlf`: ends its answers with CR LF.
//!
//! `--chatter KIND` makes it write lines without pause from its start to
//! its end, on a thread of its own, whether anyone reads them or not (the
//! engine that floods its client): `info` writes `info string chatter N
//! ...` lines, `noise` writes `noise N ...` lines (not `info`, so a client
//! may not drop them). N counts from 1, so a reader can tell a gap. Its
//! answers to commands come in between, as from any engine.

use std::io::{self, BufRead, Write};
use std::process::exit;
use std::time::Duration;
use testkit::naive::{Naive, NaiveMove, NaiveOutcome, WHITE};

const USAGE: &str = "usage: fake-engine [--mode first|random] [--seed N] [--delay MS] \
                     [--fail illegal|crash|silent|garbage|slow|flood|stale|ponder|crlf [--fail-after N]] \
                     [--chatter info|noise]";

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Fail {
    Illegal,
    Crash,
    Silent,
    Garbage,
    Slow,
    Flood,
    Stale,
    Ponder,
    Crlf,
}

struct Args {
    random: bool,
    seed: u64,
    delay: Duration,
    fail: Option<Fail>,
    /// `None`: at every go (and, for silent and garbage, the whole session).
    fail_after: Option<u32>,
    /// The first word of the lines written without pause (`--chatter`).
    chatter: Option<&'static str>,
}

fn parse_args() -> Args {
    let mut a = Args {
        random: false,
        seed: 0,
        delay: Duration::ZERO,
        fail: None,
        fail_after: None,
        chatter: None,
    };
    let mut it = std::env::args().skip(1);
    let bad = |why: String| -> ! {
        eprintln!("fake-engine: {why}\n{USAGE}");
        exit(2)
    };
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| bad(format!("{flag} needs a value")))
        };
        let number = |v: String| -> u64 {
            v.parse()
                .unwrap_or_else(|_| bad(format!("{flag}: {v:?} is not a number")))
        };
        match flag.as_str() {
            "--mode" => {
                a.random = match value().as_str() {
                    "first" => false,
                    "random" => true,
                    other => bad(format!("unknown mode {other:?}")),
                }
            }
            "--seed" => a.seed = number(value()),
            "--delay" => a.delay = Duration::from_millis(number(value())),
            "--fail-after" => a.fail_after = Some(number(value()) as u32),
            "--chatter" => {
                a.chatter = Some(match value().as_str() {
                    "info" => "info string chatter",
                    "noise" => "noise",
                    other => bad(format!("unknown chatter {other:?}")),
                })
            }
            "--fail" => {
                a.fail = Some(match value().as_str() {
                    "illegal" => Fail::Illegal,
                    "crash" => Fail::Crash,
                    "silent" => Fail::Silent,
                    "garbage" => Fail::Garbage,
                    "slow" => Fail::Slow,
                    "flood" => Fail::Flood,
                    "stale" => Fail::Stale,
                    "ponder" => Fail::Ponder,
                    "crlf" => Fail::Crlf,
                    other => bad(format!("unknown failure {other:?}")),
                })
            }
            other => bad(format!("unknown argument {other:?}")),
        }
    }
    if a.fail_after.is_some() && a.fail.is_none() {
        bad("--fail-after needs --fail".into());
    }
    a
}

/// A search waiting for `stop` (or `ponderhit`).
struct Pending {
    searchmoves: Vec<NaiveMove>,
    /// Whether the go had a limit (so `ponderhit` ends it at once).
    limited: bool,
}

struct Fake {
    args: Args,
    out: io::Stdout,
    pos: Naive,
    checkers: u8,
    ponder: bool,
    multipv: usize,
    own_moves: u32,
    search: Option<Pending>,
    /// Gone silent: reads on, says nothing.
    mute: bool,
    noise: u32,
}

fn start(n: u8) -> Naive {
    Naive::from_fen(&format!("....../....../....../...... w {n} {n} 0-0 -"))
}

fn parse_move(text: &str) -> Option<NaiveMove> {
    let point = |t: &str| -> Option<usize> {
        let p: usize = t.parse().ok()?;
        ((1..=24).contains(&p) && !t.starts_with('0') && !t.starts_with('+')).then_some(p)
    };
    if text == "pass" {
        return Some(NaiveMove::Pass);
    }
    let (a, b) = text.split_once('/')?;
    match (a, b) {
        ("bar", to) => Some(NaiveMove::Enter(point(to)?)),
        (from, "off") => Some(NaiveMove::Off(point(from)?)),
        (from, to) => {
            let (p, q) = (point(from)?, point(to)?);
            (p != q).then_some(NaiveMove::Step(p, q))
        }
    }
}

/// A position string, checked as far as a careful engine would.
fn parse_fen(fields: &[&str]) -> Result<Naive, String> {
    let [board, side, we, be, score, run] = fields else {
        return Err(format!("expected 6 fields, found {}", fields.len()));
    };
    let chars: Vec<char> = board.chars().collect();
    let shape = chars.len() == 27
        && chars.iter().enumerate().all(|(i, &c)| match i {
            6 | 13 | 20 => c == '/',
            _ => ".wWbB".contains(c),
        });
    if !shape {
        return Err(format!("bad board \"{board}\""));
    }
    if !matches!(*side, "w" | "b") {
        return Err(format!("bad side to move \"{side}\""));
    }
    let count = |t: &str| {
        t.parse::<u8>()
            .ok()
            .filter(|&n| n <= 14 && t == n.to_string())
    };
    if count(we).is_none() || count(be).is_none() {
        return Err("bad number of checkers to enter".into());
    }
    let scores = score
        .split_once('-')
        .and_then(|(a, b)| Some((count(a)?, count(b)?)));
    if scores.is_none() {
        return Err(format!("bad score \"{score}\""));
    }
    if !matches!(*run, "-" | "w1" | "w2" | "b1" | "b2") {
        return Err(format!("bad scoring run \"{run}\""));
    }
    let pos = Naive::from_fen(&fields.join(" "));
    let (w, b) = (pos.total(0), pos.total(1));
    if w != b || w % 2 == 1 || !(2..=14).contains(&w) {
        return Err(format!("white has {w} checkers and black {b}"));
    }
    Ok(pos)
}

/// FNV-1a: the same in every process (unlike std's hasher).
fn fnv(seed: u64, text: &str) -> u64 {
    fnv1a::fnv1a_from(fnv1a::OFFSET ^ seed, text.as_bytes())
}

impl Fake {
    fn say(&mut self, line: &str) {
        self.say_bytes(line.as_bytes());
    }

    fn say_bytes(&mut self, bytes: &[u8]) {
        if self.mute {
            return;
        }
        let end: &[u8] = if self.whole_session(Fail::Crlf) {
            b"\r\n"
        } else {
            b"\n"
        };
        let mut out = self.out.lock();
        let ok = out
            .write_all(bytes)
            .and_then(|_| out.write_all(end))
            .and_then(|_| out.flush());
        if ok.is_err() {
            exit(0); // nobody listens any more
        }
    }

    fn error(&mut self, code: &str, message: &str) {
        self.say(&format!("error {code} {message}"));
    }

    /// Misbehave now? At every go for a whole session, else at the go
    /// after `fail_after` own moves.
    fn failing(&self) -> Option<Fail> {
        let fail = self.args.fail?;
        match self.args.fail_after {
            None => Some(fail),
            Some(n) => (self.own_moves == n).then_some(fail),
        }
    }

    fn whole_session(&self, fail: Fail) -> bool {
        self.args.fail == Some(fail) && self.args.fail_after.is_none()
    }

    fn handle(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { return };
        if self.whole_session(Fail::Garbage) {
            self.noise += 1;
            let mut noise = b"zzz \xff\xfe noise ".to_vec();
            noise.extend(self.noise.to_string().bytes());
            self.say_bytes(&noise);
        }
        let busy = self.search.is_some();
        match cmd {
            "ugi" | "uci" => {
                self.say(&format!(
                    "id name fake-engine {}",
                    if self.args.random { "random" } else { "first" }
                ));
                self.say("id author the grasshopper tests");
                self.say("option name Ponder type check default false");
                self.say("option name MultiPV type spin default 1 min 1 max 96");
                self.say("option name Checkers type spin default 14 min 2 max 14");
                if self.whole_session(Fail::Garbage) {
                    self.say(&format!("{cmd}okay?"));
                }
                self.say(&format!("{cmd}ok"));
            }
            "isready" if words.len() == 1 => self.say("readyok"),
            "quit" if words.len() == 1 => {
                self.stop();
                exit(0)
            }
            "stop" if words.len() == 1 => self.stop(),
            "ponderhit" if words.len() == 1 => {
                if self.search.as_ref().is_some_and(|p| p.limited) {
                    self.stop();
                }
            }
            "isready" | "quit" | "stop" | "ponderhit" | "uginewgame" | "ucinewgame"
                if words.len() > 1 =>
            {
                self.error("syntax", &format!("{cmd}: expected end of line"))
            }
            "setoption" | "uginewgame" | "ucinewgame" | "position" | "go" if busy => self.error(
                "busy",
                &format!("{cmd}: a search is running; send stop and wait for bestmove first"),
            ),
            "uginewgame" | "ucinewgame" => {
                self.own_moves = 0;
                self.pos = start(self.checkers);
            }
            "setoption" => self.setoption(&words[1..]),
            "position" => self.position(&words[1..]),
            "go" => self.go(&words[1..]),
            "query" => self.query(&words[1..]),
            _ => self.error(
                "unknown_command",
                &format!("\"{cmd}\" is not a command of this fake engine"),
            ),
        }
    }

    fn setoption(&mut self, words: &[&str]) {
        if words.first() != Some(&"name") || words.len() < 2 {
            return self.error("syntax", "setoption: expected name <option name>");
        }
        let v = words.iter().position(|&w| w == "value");
        let name: String = words[1..v.unwrap_or(words.len())].concat().to_lowercase();
        let value = v.map(|i| words[i + 1..].join(" "));
        let bad = |what: &str| format!("setoption: bad {name} value: expected {what}");
        match (name.as_str(), value.as_deref()) {
            ("ponder", Some("true")) => self.ponder = true,
            ("ponder", Some("false")) => self.ponder = false,
            ("ponder", _) => self.error("bad_option", &bad("true or false")),
            ("multipv", Some(v)) if matches!(v.parse::<usize>(), Ok(1..=96)) => {
                self.multipv = v.parse().expect("checked")
            }
            ("multipv", _) => self.error("bad_option", &bad("a whole number from 1 to 96")),
            ("checkers", Some(v)) if matches!(v.parse::<u8>(), Ok(n) if n % 2 == 0 && (2..=14).contains(&n)) => {
                self.checkers = v.parse().expect("checked")
            }
            ("checkers", _) => self.error("bad_option", &bad("an even number from 2 to 14")),
            _ => self.error(
                "bad_option",
                &format!("setoption: no option named \"{name}\""),
            ),
        }
    }

    fn position(&mut self, words: &[&str]) {
        let (mut pos, rest) = match words.first() {
            Some(&"startpos") => (start(self.checkers), &words[1..]),
            Some(&"fen") if words.len() >= 7 => match parse_fen(&words[1..7]) {
                Ok(p) => (p, &words[7..]),
                Err(why) => return self.error("bad_position", &format!("position: {why}")),
            },
            Some(&"fen") => {
                return self.error("bad_position", "position: a position string has 6 fields")
            }
            _ => return self.error("syntax", "position: expected startpos or fen"),
        };
        let moves = match rest.first() {
            None => &[][..],
            Some(&"moves") => &rest[1..],
            Some(other) => {
                return self.error(
                    "syntax",
                    &format!("position: expected moves or end of line, found \"{other}\""),
                )
            }
        };
        for (i, text) in moves.iter().enumerate() {
            match parse_move(text) {
                Some(m) if pos.legal_moves().contains(&m) => pos = pos.play(m),
                _ => {
                    return self.error(
                        "illegal_move",
                        &format!("position: move {} ({text}) is not legal", i + 1),
                    )
                }
            }
        }
        self.pos = pos;
    }

    fn query(&mut self, words: &[&str]) {
        let pos = &self.pos;
        let over = pos.outcome() != NaiveOutcome::Ongoing;
        let answer = match words {
            ["gameover"] => over.to_string(),
            ["p1turn"] => (pos.side == WHITE).to_string(),
            ["result"] => match pos.outcome() {
                NaiveOutcome::Win(WHITE) => "p1win",
                NaiveOutcome::Win(_) => "p2win",
                NaiveOutcome::Draw => "draw",
                NaiveOutcome::Ongoing => "none",
            }
            .to_string(),
            ["legal", m] => match parse_move(m) {
                None => format!("false bad move \"{m}\""),
                Some(m) if pos.legal_moves().contains(&m) => "true".into(),
                Some(_) => "false not a legal move here".into(),
            },
            ["moves"] => {
                let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
                moves.join(" ")
            }
            ["fen"] => pos.to_fen(),
            _ => {
                return self.error(
                    "syntax",
                    "query: expected gameover, p1turn, result, legal <move>, moves or fen",
                )
            }
        };
        if answer.is_empty() {
            self.say("response");
        } else {
            self.say(&format!("response {answer}"));
        }
    }

    fn go(&mut self, words: &[&str]) {
        let mut limited = false;
        let (mut infinite, mut ponder) = (false, false);
        let mut searchmoves = Vec::new();
        let mut i = 0;
        while i < words.len() {
            match words[i] {
                "infinite" => infinite = true,
                "ponder" => ponder = true,
                "searchmoves" => {
                    for (k, text) in words[i + 1..].iter().enumerate() {
                        match parse_move(text) {
                            Some(m) if self.pos.legal_moves().contains(&m) => searchmoves.push(m),
                            _ => {
                                return self.error(
                                    "illegal_move",
                                    &format!("go: searchmove {} ({text}) is not legal", k + 1),
                                )
                            }
                        }
                    }
                    break;
                }
                key @ ("p1time" | "p2time" | "wtime" | "btime" | "p1inc" | "p2inc" | "winc"
                | "binc" | "movestogo" | "movetime" | "depth" | "nodes") => {
                    let least = u64::from(matches!(key, "depth" | "nodes" | "movestogo"));
                    match words.get(i + 1).and_then(|v| v.parse::<i64>().ok()) {
                        Some(v) if v >= least as i64 || key.contains("time") => {}
                        _ => {
                            return self
                                .error("syntax", &format!("go: expected a number after {key}"))
                        }
                    }
                    limited = true;
                    i += 1;
                }
                other => {
                    return self.error("syntax", &format!("go: unknown parameter \"{other}\""))
                }
            }
            i += 1;
        }
        if self.pos.outcome() != NaiveOutcome::Ongoing {
            self.say("info string game over: no move to search");
            return self.say("bestmove (none)");
        }
        self.search = Some(Pending {
            searchmoves,
            limited,
        });
        // It answers at once when it may; infinite, ponder and a bare go
        // (no limit) wait for stop or ponderhit.
        if limited && !infinite && !ponder {
            self.stop();
        }
    }

    /// Ends the pending search with its answer.
    fn stop(&mut self) {
        let Some(search) = self.search.take() else {
            return;
        };
        let fail = self.failing();
        match fail {
            Some(Fail::Illegal) => return self.say("bestmove bar/7"),
            Some(Fail::Crash) => exit(3),
            Some(Fail::Silent) => {
                self.mute = true;
                return;
            }
            Some(Fail::Garbage) => {
                self.say("info score banana");
                self.say_bytes(b"\x07\x01\x02\x03 ??? info depth banana");
                return self.say("bestmove !!@@##");
            }
            Some(Fail::Flood) => {
                self.say(&"x".repeat(3_000_000));
                return self.say("bestmove bar/7");
            }
            Some(Fail::Slow) => std::thread::sleep(Duration::from_millis(500)),
            Some(Fail::Stale | Fail::Ponder | Fail::Crlf) | None => {}
        }
        if !self.args.delay.is_zero() {
            std::thread::sleep(self.args.delay);
        }
        let mut moves = self.pos.legal_moves();
        if !search.searchmoves.is_empty() {
            moves.retain(|m| search.searchmoves.contains(m));
        }
        let pick = if self.args.random {
            (fnv(self.args.seed, &self.pos.to_fen()) % moves.len() as u64) as usize
        } else {
            0
        };
        let best = moves[pick];
        moves.remove(pick);
        moves.insert(0, best);
        for (k, m) in moves.iter().take(self.multipv).enumerate() {
            let multipv = if self.multipv > 1 {
                format!(" multipv {}", k + 1)
            } else {
                String::new()
            };
            let n = moves.len();
            self.say(&format!(
                "info depth 1{multipv} score cp 0 nodes {n} pv {m}"
            ));
        }
        let after = self.pos.play(best);
        let reply = after.legal_moves().first().copied();
        let line = match reply {
            Some(r) if self.ponder || fail == Some(Fail::Ponder) => {
                format!("bestmove {best} ponder {r}")
            }
            _ => format!("bestmove {best}"),
        };
        self.say(&line);
        if fail == Some(Fail::Stale) {
            self.say(&line);
        }
        self.own_moves += 1;
    }
}

/// Writes numbered `{first} N ...` lines until nobody reads them.
fn chatter(first: &'static str) {
    std::thread::spawn(move || {
        let pad = "-".repeat(64);
        let mut batch = String::new();
        let mut n = 0u64;
        loop {
            // Whole lines, a hundred a write (as fast as a pipe takes
            // them), under the lock: answers to commands come between
            // lines, never inside one.
            batch.clear();
            for _ in 0..100 {
                n += 1;
                batch.push_str(&format!("{first} {n} {pad}\n"));
            }
            let mut out = io::stdout().lock();
            if out
                .write_all(batch.as_bytes())
                .and_then(|_| out.flush())
                .is_err()
            {
                exit(0);
            }
        }
    });
}

fn main() {
    let args = parse_args();
    if let Some(first) = args.chatter {
        chatter(first);
    }
    let mut fake = Fake {
        mute: args.fail == Some(Fail::Silent) && args.fail_after.is_none(),
        args,
        out: io::stdout(),
        pos: start(14),
        checkers: 14,
        ponder: false,
        multipv: 1,
        own_moves: 0,
        search: None,
        noise: 0,
    };
    let stdin = io::stdin();
    let mut line = Vec::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => fake.handle(&String::from_utf8_lossy(&line)),
        }
    }
    // The end of input: like quit, the pending search still answers.
    fake.stop();
}
