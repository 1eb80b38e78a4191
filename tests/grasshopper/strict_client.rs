//! A strict client: two processes of the real engine play whole games
//! against each other, and every line either writes goes through
//! ugi-compliance's grammar (a test failure for anything it refuses). Every
//! `bestmove` is refereed by the rules crate (legal in the position; a
//! ponder move only with Ponder true, and legal after the move), every `pv`
//! must be a legal line, `multipv` within MultiPV. The games cover every
//! size (2..14 checkers) and every mode: depth, nodes, movetime, clocks with
//! increments and movestogo, `go infinite` + `stop`, a bare `go` + `stop`,
//! searchmoves, MultiPV > 1, Ponder on and off, `go ponder` + `ponderhit`
//! or `stop` as a GUI ponders, endgame tables (TablePath), and what the
//! engine says when asked to move in a finished game.

use engine_client::Program;
use grasshopper_rules::{Move, Position};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use ugi_compliance::grammar::{Info, Line, Score};
use ugi_compliance::strict::{Fault, Said, StrictEngine};

/// A bound that turns a hang into a failure, not a speed requirement.
const HANG: Duration = Duration::from_secs(20);

/// One engine process behind the strict client.
struct Client {
    e: StrictEngine,
    tag: String,
    ponder: bool,
    multipv: u64,
    /// Lines of every kind seen, for the tests' coverage asserts.
    seen: Seen,
}

#[derive(Default, Debug)]
struct Seen {
    infos: usize,
    multipv_lines: usize,
    ponder_moves: usize,
    mates: usize,
    proved_draws: usize,
    strings: usize,
    none: usize,
}

/// What one search gave.
struct Found {
    best: Option<Move>,
    ponder: Option<Move>,
}

impl Client {
    /// Starts `grasshopper ARGS`, judges its handshake and sets `options`.
    fn start(tag: &str, args: &[&str], options: &[(&str, &str)]) -> Client {
        let program = Program {
            cmd: crate::BIN.to_string(),
            args: args.iter().map(|s| s.to_string()).collect(),
            name: tag.to_string(),
        };
        let mut c = Client {
            e: StrictEngine::spawn(&program).expect("the engine starts"),
            tag: tag.to_string(),
            ponder: false,
            multipv: 1,
            seen: Seen::default(),
        };
        c.send("ugi");
        let (mut ids, mut options_listed) = (0, 0);
        loop {
            let said = c.line("ugiok");
            match said.line {
                Line::IdName(_) | Line::IdAuthor(_) => ids += 1,
                Line::Option(_) => options_listed += 1,
                Line::UgiOk => break,
                _ => c.fail(&format!("{:?} in the handshake", said.text)),
            }
        }
        assert_eq!((ids, options_listed), (2, 7), "{tag}");
        for (name, value) in options {
            c.set(name, value);
        }
        c.sync();
        c
    }

    fn fail(&self, why: &str) -> ! {
        let tail: Vec<&String> = self.e.transcript.iter().rev().take(30).collect();
        let tail: Vec<&String> = tail.into_iter().rev().collect();
        panic!("{}: {why}\nlast lines:\n{tail:#?}", self.tag)
    }

    fn check(&self, r: Result<(), Fault>) {
        if let Err(f) = r {
            self.fail(&f.to_string());
        }
    }

    fn send(&mut self, line: &str) {
        let r = self.e.send(line);
        self.check(r);
    }

    fn set(&mut self, name: &str, value: &str) {
        self.send(&format!("setoption name {name} value {value}"));
        match name {
            "Ponder" => self.ponder = value == "true",
            "MultiPV" => self.multipv = value.parse().unwrap(),
            _ => {}
        }
    }

    fn sync(&mut self) {
        let r = self.e.sync(HANG);
        self.check(r);
    }

    /// The next line: any line the grammar refuses fails the test, and so
    /// does one not spelt as the grammar writes it back (this engine writes
    /// the info fields in protocol.md's order).
    fn line(&mut self, what: &str) -> Said {
        match self.e.next(Instant::now() + HANG, what) {
            Ok(said) if said.line.to_string() == said.text => said,
            Ok(said) => self.fail(&format!(
                "{:?} is not spelt as {:?}",
                said.text,
                said.line.to_string()
            )),
            Err(f) => self.fail(&f.to_string()),
        }
    }

    fn position(&mut self, start: &Position, moves: &[Move]) {
        let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
        self.send(&format!("position fen {start} moves {}", moves.join(" ")));
    }

    fn judge_info(&mut self, pos: &Position, info: &Info, text: &str) {
        self.seen.infos += 1;
        if let Some(text) = &info.string {
            self.seen.strings += 1;
            self.seen.proved_draws += usize::from(text.contains("proved draw"));
        }
        if matches!(info.score, Some(Score::Mate(_))) {
            self.seen.mates += 1;
        }
        if let Some(k) = info.multipv {
            if k > self.multipv {
                self.fail(&format!(
                    "{text:?}: multipv {k} with MultiPV {}",
                    self.multipv
                ));
            }
            if k > 1 {
                self.seen.multipv_lines += 1;
            }
        }
        let mut at = *pos;
        for m in &info.pv {
            at = at
                .play(*m)
                .unwrap_or_else(|e| self.fail(&format!("{text:?}: pv move {m} in {at}: {e}")));
        }
    }

    /// Info lines until bestmove, refereed in `pos`.
    fn bestmove(&mut self, pos: &Position) -> Found {
        loop {
            let said = self.line("bestmove");
            match said.line {
                Line::Info(info) => self.judge_info(pos, &info, &said.text),
                Line::BestMove { mv: None, .. } => {
                    if !pos.is_game_over() {
                        self.fail(&format!("bestmove (none) in {pos}, where the game goes on"));
                    }
                    self.seen.none += 1;
                    return Found {
                        best: None,
                        ponder: None,
                    };
                }
                Line::BestMove {
                    mv: Some(m),
                    ponder,
                } => {
                    let after = pos
                        .play(m)
                        .unwrap_or_else(|e| self.fail(&format!("bestmove {m} in {pos}: {e}")));
                    if let Some(p) = ponder {
                        if !self.ponder {
                            self.fail(&format!("{:?} with Ponder false", said.text));
                        }
                        if let Err(e) = after.check(p) {
                            self.fail(&format!("ponder move {p} after {m} in {pos}: {e}"));
                        }
                        self.seen.ponder_moves += 1;
                    }
                    return Found {
                        best: Some(m),
                        ponder,
                    };
                }
                _ => self.fail(&format!("{:?} during a search", said.text)),
            }
        }
    }

    /// Info lines only, for a little while (a search that must not end).
    fn watch(&mut self, pos: &Position, for_ms: u64) {
        let until = Instant::now() + Duration::from_millis(for_ms);
        loop {
            match self.e.next(until, "") {
                Err(Fault::Timeout { .. }) => return,
                Err(f) => self.fail(&f.to_string()),
                Ok(said) => match said.line {
                    Line::Info(info) if info_spelt(&said) => {
                        self.judge_info(pos, &info, &said.text)
                    }
                    _ => self.fail(&format!("{:?} before stop", said.text)),
                },
            }
        }
    }

    /// `go` in `pos` (already sent as a position), by `mode`.
    fn go(&mut self, pos: &Position, mode: &Mode, clock: &mut [u64; 2]) -> Found {
        match mode {
            Mode::Go(go) => {
                self.send(go);
                self.bestmove(pos)
            }
            Mode::UntilStop(go) => {
                self.send(go);
                self.watch(pos, 5);
                self.send("stop");
                self.bestmove(pos)
            }
            Mode::SearchMoves => {
                let legal = pos.legal_moves();
                let some: Vec<Move> = legal.iter().rev().take(2).copied().collect();
                let text: Vec<String> = some.iter().map(Move::to_string).collect();
                self.send(&format!("go depth 2 searchmoves {}", text.join(" ")));
                let found = self.bestmove(pos);
                if !found.best.is_some_and(|m| some.contains(&m)) {
                    self.fail(&format!("{:?} is not among {text:?}", found.best));
                }
                found
            }
            Mode::Clock { uci, movestogo } => {
                let (t, i) = if *uci {
                    (["wtime", "btime"], ["winc", "binc"])
                } else {
                    (["p1time", "p2time"], ["p1inc", "p2inc"])
                };
                let mut go = format!(
                    "go {} {} {} {} {} 10 {} 10",
                    t[0], clock[0], t[1], clock[1], i[0], i[1]
                );
                if *movestogo {
                    go.push_str(" movestogo 7");
                }
                let side = usize::from(pos.side_to_move() != grasshopper_rules::Color::White);
                let started = Instant::now();
                self.send(&go);
                let found = self.bestmove(pos);
                let used = started.elapsed().as_millis() as u64;
                if used > clock[side] + 1000 {
                    self.fail(&format!(
                        "{used} ms used with {} ms on the clock",
                        clock[side]
                    ));
                }
                clock[side] = clock[side].saturating_sub(used).max(50) + 10;
                found
            }
        }
    }

    /// Asked to move in the finished game `pos`: `bestmove (none)` at once,
    /// also to `go infinite` and with Ponder on.
    fn game_over(&mut self, pos: &Position) {
        for go in ["go depth 3", "go infinite", "go ponder"] {
            self.send(go);
            let found = self.bestmove(pos);
            assert!(found.best.is_none(), "{}: {go} in {pos}", self.tag);
        }
        self.sync();
    }
}

fn info_spelt(said: &Said) -> bool {
    said.line.to_string() == said.text
}

/// How a move is asked for.
#[derive(Clone, Debug)]
enum Mode {
    Go(String),
    UntilStop(String),
    SearchMoves,
    Clock { uci: bool, movestogo: bool },
}

fn modes() -> Vec<Mode> {
    let go = |s: &str| Mode::Go(s.to_string());
    vec![
        go("go depth 2"),
        go("go nodes 400"),
        go("go movetime 5"),
        Mode::Clock {
            uci: false,
            movestogo: false,
        },
        Mode::UntilStop("go infinite".into()),
        go("go depth 1"),
        Mode::Clock {
            uci: true,
            movestogo: true,
        },
        Mode::SearchMoves,
        Mode::UntilStop("go".into()),
        go("go depth 3 nodes 2000"),
    ]
}

/// Plays one game of `n` checkers, `a` White, each move asked by the next
/// mode of `modes` (offset per engine); returns the final position and the
/// number of plies.
fn play(n: u8, a: &mut Client, b: &mut Client, modes: &[Mode]) -> (Position, usize) {
    let start = Position::start(n).unwrap();
    for c in [&mut *a, &mut *b] {
        c.set("Checkers", &n.to_string());
        c.send("uginewgame");
        c.sync();
    }
    let mut pos = start;
    let mut moves = Vec::new();
    let mut clock = [600u64, 600];
    while !pos.is_game_over() {
        let (mover, k) = if moves.len() % 2 == 0 {
            (&mut *a, moves.len() / 2)
        } else {
            (&mut *b, moves.len() / 2 + 3)
        };
        // Half the time the startpos form (with the Checkers option).
        if moves.len() % 4 < 2 {
            let text: Vec<String> = moves.iter().map(Move::to_string).collect();
            mover.send(&format!("position startpos moves {}", text.join(" ")));
        } else {
            mover.position(&start, &moves);
        }
        let found = mover.go(&pos, &modes[k % modes.len()], &mut clock);
        let m = found.best.unwrap_or_else(|| mover.fail("no move"));
        pos = pos.play(m).unwrap();
        moves.push(m);
        assert!(moves.len() < 2000, "a game of {n} checkers without end");
    }
    for c in [&mut *a, &mut *b] {
        c.position(&start, &moves);
        c.game_over(&pos);
    }
    (pos, moves.len())
}

#[test]
fn games_of_every_size_in_every_mode() {
    // White: Ponder on, MultiPV 3; Black: Ponder off, MultiPV 1.
    let mut a = Client::start(
        "white",
        &[],
        &[("Ponder", "true"), ("MultiPV", "3"), ("Hash", "4")],
    );
    let mut b = Client::start("black", &[], &[("Hash", "4")]);
    let modes = modes();
    let mut plies = Vec::new();
    for n in (2..=14).step_by(2) {
        let (mut x, mut y) = (&mut a, &mut b);
        if n % 4 == 0 {
            // Colours swapped every other size.
            std::mem::swap(&mut x, &mut y);
        }
        let (_, p) = play(n, x, y, &modes);
        plies.push((n, p));
    }
    // Every kind of line was seen.
    assert!(a.seen.multipv_lines > 0, "{:?}", a.seen);
    assert!(a.seen.ponder_moves > 0, "{:?}", a.seen);
    assert_eq!(b.seen.ponder_moves, 0);
    assert_eq!(a.seen.none, 7 * 3);
    assert!(a.seen.strings > 0 && b.seen.strings > 0);
    eprintln!("plies by size: {plies:?}");
}

#[test]
fn the_random_and_greedy_players_speak_the_same_lines() {
    let mut random = Client::start("random", &["--player", "random", "--seed", "3"], &[]);
    let mut greedy = Client::start("greedy", &["--player", "greedy"], &[("Ponder", "true")]);
    let modes = modes();
    for n in [4, 14] {
        play(n, &mut random, &mut greedy, &modes);
    }
}

/// A GUI's pondering: after `bestmove X ponder Y` the engine ponders on
/// X Y (`go ponder` with the clocks); when the opponent plays Y it gets
/// `ponderhit`, otherwise `stop` (its answer is discarded) and a new `go`.
#[test]
fn pondering_games_with_ponderhit_and_stop() {
    let options = [("Ponder", "true"), ("MultiPV", "2"), ("Hash", "4")];
    let mut clients = [
        Client::start("p1", &[], &options),
        Client::start("p2", &[], &[("Ponder", "true")]),
    ];
    let (mut hits, mut misses) = (0, 0);
    let limits = [
        "go p1time 150 p2time 150 p1inc 5 p2inc 5",
        "go depth 2",
        "go wtime 200 btime 200 movestogo 20",
        "go movetime 10",
    ];
    for (n, limit) in [6u8, 10, 14, 12].into_iter().zip(limits) {
        let start = Position::start(n).unwrap();
        for c in clients.iter_mut() {
            c.set("Checkers", &n.to_string());
            c.send("uginewgame");
            c.sync();
        }
        let t0 = Instant::now();
        let mut pos = start;
        let mut moves: Vec<Move> = Vec::new();
        // Per engine: the move it ponders on, with the position it searches.
        let mut pondering: [Option<(Move, Position)>; 2] = [None, None];
        while !pos.is_game_over() {
            let side = moves.len() % 2;
            let c = &mut clients[side];
            let found = match pondering[side].take() {
                Some((guess, at)) if moves.last() == Some(&guess) => {
                    hits += 1;
                    c.send("ponderhit");
                    c.bestmove(&at)
                }
                Some((_, at)) => {
                    misses += 1;
                    c.send("stop");
                    c.bestmove(&at);
                    c.position(&start, &moves);
                    c.send(limit);
                    c.bestmove(&pos)
                }
                None => {
                    c.position(&start, &moves);
                    c.send(limit);
                    c.bestmove(&pos)
                }
            };
            let m = found.best.unwrap_or_else(|| c.fail("no move"));
            pos = pos.play(m).unwrap();
            moves.push(m);
            if let Some(p) = found.ponder {
                let at = pos.play(p).unwrap();
                if !at.is_game_over() {
                    let mut line = moves.clone();
                    line.push(p);
                    c.position(&start, &line);
                    c.send(&limit.replacen("go", "go ponder", 1));
                    c.watch(&at, 1);
                    pondering[side] = Some((p, at));
                }
            }
        }
        // A ponder search left running when the game ends is stopped.
        for (side, c) in clients.iter_mut().enumerate() {
            if let Some((_, at)) = pondering[side].take() {
                c.send("stop");
                c.bestmove(&at);
            }
            c.position(&start, &moves);
            c.game_over(&pos);
        }
        eprintln!("{limit}: {} plies in {:?}", moves.len(), t0.elapsed());
    }
    assert!(hits > 0 && misses > 0, "{hits} ponderhits, {misses} stops");
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("strict_client");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn games_with_endgame_tables_report_proved_results() {
    let table = scratch("t4.tbl");
    let out = std::process::Command::new(crate::BIN)
        .args(["tablegen", "--max-checkers", "4", "--out"])
        .arg(&table)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = table.display().to_string();
    let mut a = Client::start("tables", &[], &[("TablePath", &path), ("Ponder", "true")]);
    let mut b = Client::start("plain", &[], &[("MultiPV", "2")]);
    // Fixed depths and node counts only: the same games every run, so the
    // table's verdicts below are sure to come.
    let modes: Vec<Mode> = modes()
        .into_iter()
        .filter(|m| {
            matches!(m, Mode::Go(go) if !go.contains("movetime")) || matches!(m, Mode::SearchMoves)
        })
        .collect();
    assert_eq!(modes.len(), 5);
    for n in [2, 4, 6] {
        play(n, &mut a, &mut b, &modes);
        play(n, &mut b, &mut a, &modes);
    }
    // And against a seeded random player, whose errors the tables punish:
    // these games reach won positions whatever the evaluation's weights
    // (the games above did only through the 6-checker game's weights).
    let mut r = Client::start("random", &["--player", "random", "--seed", "1"], &[]);
    for n in [4, 6] {
        play(n, &mut a, &mut r, &modes);
        play(n, &mut r, &mut a, &modes);
    }
    // The table's verdicts came as mate scores and proved draws.
    assert!(a.seen.mates > 0 && a.seen.proved_draws > 0, "{:?}", a.seen);
    a.set("TablePath", "<empty>");
    a.sync();
}
