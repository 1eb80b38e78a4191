//! The checks of what UGI itself requires, judged with only what UGI
//! offers: the checker keeps the position itself (the rules crate plays the
//! moves it sends) and checks that the engine holds it by `query p1turn`
//! and `query gameover` (by `query fen` where the engine offers it), and
//! judges every `bestmove` against it.

use super::search::{MOVETIME_MS, WATCH};
use super::session::{normalise, wrong, Check, Session};
use crate::grammar::{Answer, GameResult, Line, OptionKind, Question};
use crate::strict::{Fault, StrictEngine};
use grasshopper_rules::{Color, Move, Outcome, Position};
use std::time::{Duration, Instant};

pub fn handshake(s: &mut Session) -> Check {
    let mut engine = s.spawn().inspect_err(|f| {
        s.dead = Some(format!("the handshake failed: {f}"));
    })?;
    engine.send("ugi")?;
    match read_identity(&mut engine, s.deadline(), Line::UgiOk, "ugi") {
        Ok(options) => {
            s.options = options;
            s.adopt(engine);
            Ok(())
        }
        Err(f) => {
            // Fatal for what follows only if no ugiok ever comes.
            if matches!(f, Fault::Timeout { .. } | Fault::Closed(_)) {
                s.dead = Some(format!("the handshake failed: {f}"));
            }
            engine.kill();
            Err(f)
        }
    }
}

/// The answer to `ugi`/`uci`: `id name`, `id author` (once each, first),
/// option lines (distinct names), then `ok`.
pub fn read_identity(
    engine: &mut StrictEngine,
    deadline: Instant,
    ok: Line,
    hello: &str,
) -> Result<Vec<(String, OptionKind)>, Fault> {
    let (mut name, mut author) = (false, false);
    let mut options: Vec<(String, OptionKind)> = Vec::new();
    loop {
        let said = engine.next(deadline, &format!("{ok} after {hello}"))?;
        let unexpected = |expected: &str| Fault::Unexpected {
            text: said.text.clone(),
            expected: expected.to_string(),
        };
        match &said.line {
            l if *l == ok => break,
            Line::IdName(_) if !name && options.is_empty() => name = true,
            Line::IdAuthor(_) if !author && options.is_empty() => author = true,
            Line::IdName(_) | Line::IdAuthor(_) => {
                return Err(unexpected("each id line once, before the options"))
            }
            Line::Option(o) if options.iter().any(|(n, _)| same_name(n, &o.name)) => {
                return Err(unexpected("each option listed once"))
            }
            Line::Option(o) => options.push((o.name.clone(), o.kind.clone())),
            _ => {
                return Err(unexpected(&format!(
                    "id, option or {ok} lines after {hello}"
                )))
            }
        }
    }
    match (name, author) {
        (true, true) => Ok(options),
        (false, _) => Err(wrong(format!("no id name line before {ok}"))),
        (true, false) => Err(wrong(format!("no id author line before {ok}"))),
    }
}

fn same_name(a: &str, b: &str) -> bool {
    normalise(a) == normalise(b)
}

pub fn isready(s: &mut Session) -> Check {
    s.sync()?;
    s.sync()
}

pub fn setoption(s: &mut Session) -> Check {
    for (name, kind) in s.options.clone() {
        let value = match kind {
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Check { default } => default.to_string(),
            OptionKind::String { default } => default,
        };
        s.send(&format!("setoption name {name} value {value}"))?;
        s.quiet(&format!("setoption {name} to its default"))?;
    }
    s.sync()
}

pub fn position_startpos(s: &mut Session) -> Check {
    let start = s.start_position();
    s.send("position startpos")?;
    s.expect_position(&start, "position startpos")?;
    let (mut pos, mut moves) = (start, Vec::new());
    for k in 0..5 {
        let legal = pos.legal_moves();
        let m = legal[(k * 5 + 1) % legal.len()];
        pos = pos.play(m).expect("legal");
        moves.push(m.to_string());
    }
    let line = format!("position startpos moves {}", moves.join(" "));
    s.send(&line)?;
    s.expect_position(&pos, &line)?;
    go_limit(s, "go depth 1", pos, None, false)?;
    s.send("position startpos moves")?;
    s.expect_position(&start, "position startpos moves")?;
    s.sync()
}

pub fn position_fen(s: &mut Session) -> Check {
    let (n, moves, end) = s.positions.line.clone();
    let start = Position::start(n).expect("N");
    let text: Vec<String> = moves.iter().map(Move::to_string).collect();
    let line = format!("position fen {start} moves {}", text.join(" "));
    s.send(&line)?;
    s.expect_position(&end, &line)?;
    go_limit(s, "go depth 1", end, None, false)?;
    let p = &s.positions;
    for pos in [p.white, p.black, p.pass, p.draw] {
        s.set(&pos)?;
        if let Some(&m) = pos.legal_moves().first() {
            let line = format!("position fen {pos} moves {m}");
            s.send(&line)?;
            s.expect_position(&pos.play(m).expect("legal"), &line)?;
        }
    }
    // The last move of a game, and "moves" with nothing after it.
    let won = s.positions.white_won;
    s.send(&format!("position fen {won} moves"))?;
    s.expect_position(&won, "position fen ... moves")?;
    s.sync()
}

/// `uginewgame` (and `ucinewgame`): no answer, and the next game is played.
pub fn uginewgame(s: &mut Session) -> Check {
    for command in ["uginewgame", "ucinewgame"] {
        s.send(command)?;
        s.quiet(command)?;
        let pos = s.positions.black;
        go_limit(s, "go depth 1", pos, None, false)?;
    }
    s.sync()
}

/// The positions every query is asked in.
fn query_positions(s: &Session) -> Vec<Position> {
    let p = &s.positions;
    let start = s.start_position();
    vec![
        start,
        p.white,
        p.black,
        p.pass,
        p.white_won,
        p.black_won,
        p.draw,
    ]
}

/// The answer the rules give to `question` in `pos` (not `legal`).
fn expected_answer(question: Question, pos: &Position) -> Answer {
    match question {
        Question::GameOver => Answer::Bool(pos.is_game_over()),
        Question::P1Turn => Answer::Bool(pos.side_to_move() == Color::White),
        Question::Result => Answer::Result(match pos.outcome() {
            Outcome::Win(Color::White) => GameResult::P1Win,
            Outcome::Win(Color::Black) => GameResult::P2Win,
            Outcome::Draw => GameResult::Draw,
            Outcome::Ongoing => GameResult::None,
        }),
        Question::Moves => Answer::Moves(sorted(pos.legal_moves().as_slice())),
        Question::Fen => Answer::Fen(*pos),
        Question::Legal => unreachable!("query legal has its own check"),
    }
}

pub fn sorted(moves: &[Move]) -> Vec<Move> {
    let mut moves = moves.to_vec();
    moves.sort();
    moves
}

/// `query <word>` in each position, answered as the rules answer it.
pub fn query_each(s: &mut Session, word: &str, question: Question) -> Check {
    for pos in query_positions(s) {
        s.set(&pos)?;
        let mut got = s.ask(word, question)?;
        if let Answer::Moves(moves) = &mut got {
            // Any order.
            *moves = sorted(moves);
        }
        let want = expected_answer(question, &pos);
        if got != want {
            return Err(wrong(format!(
                "query {word} in {pos}: {got:?} instead of {want:?}"
            )));
        }
    }
    s.sync()
}

/// `go ...` in `pos`: a move (or `(none)` where the game is over) within
/// `limit` (plus the margin) or the timeout.
pub fn go_limit(
    s: &mut Session,
    go: &str,
    pos: Position,
    limit: Option<Duration>,
    must_move: bool,
) -> Check {
    let found = s.search(&pos, go, limit)?;
    if must_move && found.best.is_none() {
        return Err(wrong(format!("no move in {pos}")));
    }
    Ok(())
}

pub fn go_depth(s: &mut Session) -> Check {
    let pos = s.positions.white;
    go_limit(s, "go depth 2", pos, None, true)
}

pub fn go_nodes(s: &mut Session) -> Check {
    let pos = s.positions.black;
    go_limit(s, "go nodes 1000", pos, None, true)
}

pub fn go_movetime(s: &mut Session) -> Check {
    let pos = s.positions.white;
    let limit = Some(Duration::from_millis(MOVETIME_MS));
    go_limit(s, &format!("go movetime {MOVETIME_MS}"), pos, limit, true)
}

/// The mover's clock counts: White to move with 300 ms, Black to move with
/// 300 ms (the other clock long).
pub fn go_clocks(s: &mut Session) -> Check {
    let (white, black) = (s.positions.white, s.positions.black);
    let short = Some(Duration::from_millis(300));
    go_limit(
        s,
        "go p1time 300 p2time 10000 p1inc 10 p2inc 10",
        white,
        short,
        true,
    )?;
    go_limit(
        s,
        "go p1time 10000 p2time 300 p1inc 10 p2inc 10",
        black,
        short,
        true,
    )
}

pub fn go_movestogo(s: &mut Session) -> Check {
    let go = "go p1time 10000 p2time 300 p1inc 0 p2inc 0 movestogo 2";
    let pos = s.positions.black;
    go_limit(s, go, pos, Some(Duration::from_millis(300)), true)
}

pub fn go_uci_clocks(s: &mut Session) -> Check {
    let go = "go wtime 300 btime 10000 winc 10 binc 10";
    let pos = s.positions.white;
    go_limit(s, go, pos, Some(Duration::from_millis(300)), true)
}

pub fn go_searchmoves(s: &mut Session) -> Check {
    let pos = s.positions.white;
    let legal = pos.legal_moves();
    let allowed: Vec<Move> = legal.as_slice()[legal.len() - 2..].to_vec();
    let go = format!("go depth 2 searchmoves {} {}", allowed[0], allowed[1]);
    match s.search(&pos, &go, None)?.best {
        Some(m) if allowed.contains(&m) => Ok(()),
        other => Err(wrong(format!(
            "bestmove {other:?} is not one of the searchmoves {} {}",
            allowed[0], allowed[1]
        ))),
    }
}

pub fn go_infinite(s: &mut Session) -> Check {
    s.until_stop("go infinite")
}

/// `go` with no limit: UGI leaves open whether it searches until `stop`; a
/// legal `bestmove` of its own, or one after `stop`, passes.
pub fn go_no_limit(s: &mut Session) -> Check {
    let pos = s.positions.white;
    s.set(&pos)?;
    s.sync()?;
    s.send("go")?;
    let sent = Instant::now();
    let until = sent + WATCH;
    let found = loop {
        match s.line_by(until)? {
            None => break None,
            Some(said) => match said.line {
                Line::Info(info) => s.judge_info(&pos, &info, &said.text)?,
                Line::BestMove { mv, ponder } => break Some((mv, ponder, said.text)),
                _ => return Err(unexpected(said.text, "info lines, then bestmove")),
            },
        }
    };
    match found {
        Some((mv, ponder, text)) => s.judge_bestmove(&pos, mv, ponder, &text)?,
        None => {
            s.send("stop")?;
            let deadline = s.deadline();
            s.bestmove(&pos, sent, deadline, "bestmove after stop")?;
        }
    }
    s.sync()
}

pub fn unexpected(text: String, expected: &str) -> Fault {
    Fault::Unexpected {
        text,
        expected: expected.to_string(),
    }
}

pub fn isready_while_searching(s: &mut Session) -> Check {
    let pos = s.positions.white;
    s.set(&pos)?;
    s.sync()?;
    s.send("go infinite")?;
    s.send("isready")?;
    loop {
        let said = s.next_line("readyok after isready")?;
        match said.line {
            Line::Info(info) => s.judge_info(&pos, &info, &said.text)?,
            Line::ReadyOk => break,
            _ => {
                let expected = "readyok (the search goes on until stop)";
                return Err(unexpected(said.text, expected));
            }
        }
    }
    s.watch(&pos, "go infinite")?;
    s.send("stop")?;
    let now = Instant::now();
    let deadline = s.deadline();
    s.bestmove(&pos, now, deadline, "bestmove after stop")?;
    s.sync()
}

pub fn stop_idle(s: &mut Session) -> Check {
    s.sync()?;
    s.send("stop")?;
    s.quiet("stop without a search")?;
    s.sync()
}

pub fn game_end(s: &mut Session) -> Check {
    let p = &s.positions;
    for pos in [p.white_won, p.black_won, p.draw] {
        if s.search(&pos, "go depth 3", None)?.best.is_some() {
            return Err(wrong(format!("a move in the finished game {pos}")));
        }
    }
    Ok(())
}

/// Answered at once, without a stop.
pub fn game_end_infinite(s: &mut Session) -> Check {
    let pos = s.positions.black_won;
    s.search(&pos, "go infinite", Some(Duration::ZERO))
        .map(|_| ())
}

/// Commands the engine does not know: whatever it writes about them (an
/// `info string`, an `error` line), it goes on, and `isready` is answered.
pub fn unknown_commands(s: &mut Session) -> Check {
    let pos = s.positions.white;
    s.set(&pos)?;
    for command in ["flibbertigibbet", "isreadyy now", "Go depth 1"] {
        s.send(command)?;
        s.send("isready")?;
        loop {
            let said = s.next_line(&format!("readyok after {command} and isready"))?;
            match said.line {
                Line::ReadyOk => break,
                Line::Info(_) | Line::Error { .. } => {}
                _ => {
                    let expected = format!("nothing but readyok, error or info after {command}");
                    return Err(unexpected(said.text, &expected));
                }
            }
        }
    }
    s.expect_position(&pos, "the unknown commands")?;
    go_limit(s, "go depth 1", pos, None, true)
}

pub fn no_stray_output(s: &mut Session) -> Check {
    s.sync()?;
    s.engine()?
        .quiet(Duration::from_millis(300), "readyok, with nothing sent")?;
    s.sync()
}

pub fn quit(s: &mut Session) -> Check {
    s.sync()?;
    s.send("quit")?;
    exits(s, "quit")
}

pub fn end_of_input(s: &mut Session) -> Check {
    s.sync()?;
    s.engine()?.close_input();
    exits(s, "the end of input")
}

/// After `quit` or the end of input: no more output, exit status 0.
fn exits(s: &mut Session, after: &str) -> Check {
    let deadline = s.deadline();
    let mut engine = s.take_engine()?;
    let verdict = match engine.next(deadline, "") {
        Ok(said) => Err(unexpected(said.text, &format!("nothing after {after}"))),
        Err(Fault::Closed(_)) => match engine.wait_exit(s.settings.timeout) {
            Some(status) if status.success() => Ok(()),
            Some(status) => Err(wrong(format!("exited with {status} after {after}"))),
            None => Err(wrong(format!("still running after {after}"))),
        },
        Err(f @ Fault::Timeout { .. }) => Err(wrong(format!("did not exit after {after} ({f})"))),
        Err(f) => Err(f),
    };
    engine.kill();
    verdict
}
