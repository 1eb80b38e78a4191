//! The checks of our extensions to UGI (protocol.md): `uci`, `query legal`,
//! `query moves`, `query fen`, pondering, MultiPV and `error` lines with
//! codes. Each runs only where the probe found the extension offered.

use super::core::{read_identity, unexpected};
use super::search::MOVETIME_MS;
use super::session::{wrong, Check, Session};
use crate::grammar::{quote, Answer, ErrorCode, Line, OptionKind, Question};
use grasshopper_rules::{Move, Position};
use std::time::{Duration, Instant};

pub fn handshake_uci(s: &mut Session) -> Check {
    s.send("uci")?;
    let deadline = s.deadline();
    let mut engine = s.take_engine()?;
    let identity = read_identity(&mut engine, deadline, Line::UciOk, "uci");
    s.adopt(engine);
    identity.map(|_| ())
}

/// Moves to ask `query legal` about beside the legal ones: illegal or not
/// moves at all.
const NOT_LEGAL: [&str; 6] = ["bar/7", "1/7", "24/off", "pass", "xyz", "bar/25"];

pub fn query_legal(s: &mut Session) -> Check {
    let p = &s.positions;
    let start = s.start_position();
    for pos in [start, p.white, p.black, p.pass, p.white_won, p.draw] {
        s.set(&pos)?;
        let mut probes: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        probes.extend(NOT_LEGAL.map(String::from));
        for text in probes {
            judge_legal(s, &pos, &text)?;
        }
    }
    s.sync()
}

fn judge_legal(s: &mut Session, pos: &Position, text: &str) -> Check {
    let legal = text.parse::<Move>().is_ok_and(|m| pos.check(m).is_ok());
    match s.ask(&format!("legal {text}"), Question::Legal)? {
        Answer::Legal(got) if got.is_ok() == legal => Ok(()),
        Answer::Legal(got) => Err(wrong(format!(
            "query legal {text} in {pos}: {} (it is {})",
            got.is_ok(),
            if legal { "legal" } else { "not legal" }
        ))),
        _ => unreachable!("a legal answer"),
    }
}

pub fn go_ponder_hit(s: &mut Session) -> Check {
    let pos = s.positions.black;
    s.set(&pos)?;
    s.sync()?;
    let go = format!("go ponder movetime {MOVETIME_MS}");
    s.send(&go)?;
    s.watch(&pos, &go)?;
    s.send("ponderhit")?;
    let hit = Instant::now();
    let allowed = Duration::from_millis(MOVETIME_MS) + s.settings.margin;
    let deadline = hit + allowed + s.settings.timeout;
    let found = s.bestmove(&pos, hit, deadline, "bestmove after ponderhit")?;
    if found.elapsed > allowed {
        return Err(wrong(format!(
            "bestmove {} ms after ponderhit, {} allowed for movetime {MOVETIME_MS}",
            found.elapsed.as_millis(),
            allowed.as_millis()
        )));
    }
    s.send("ponderhit")?;
    s.quiet("ponderhit without a search")?;
    s.sync()
}

pub fn go_ponder_stop(s: &mut Session) -> Check {
    s.until_stop("go ponder")
}

/// With Ponder true, `bestmove <m> ponder <m>` is allowed (its ponder move
/// legal after the move, judged by `judge_bestmove`), never at game end.
pub fn ponder_on(s: &mut Session) -> Check {
    s.send("setoption name Ponder value true")?;
    s.ponder = true;
    s.sync()?;
    let p = &s.positions;
    for pos in [p.white, p.black, p.white_won] {
        s.search(&pos, "go depth 3", None)?;
    }
    s.send("setoption name Ponder value false")?;
    s.ponder = false;
    s.sync()?;
    let white = s.positions.white;
    s.search(&white, "go depth 3", None).map(|_| ())
}

/// MultiPV 3: lines 1..3 of a depth begin with different moves.
pub fn multipv(s: &mut Session) -> Check {
    s.send("setoption name MultiPV value 3")?;
    s.multipv = 3;
    s.sync()?;
    let pos = s.positions.white;
    let found = s.search(&pos, "go depth 3", None)?;
    let mut firsts: Vec<(u64, u64, Move)> = Vec::new();
    for info in &found.infos {
        if let (Some(d), Some(k), Some(&m)) = (info.depth, info.multipv, info.pv.first()) {
            if firsts
                .iter()
                .any(|&(d2, k2, m2)| d2 == d && k2 != k && m2 == m)
            {
                return Err(wrong(format!(
                    "two lines of depth {d} begin with {m} (multipv lines are different moves)"
                )));
            }
            firsts.push((d, k, m));
        }
    }
    s.send("setoption name MultiPV value 1")?;
    s.multipv = 1;
    s.sync()
}

/// One `error <code> ...` line and nothing else.
fn expect_error(s: &mut Session, sent: &str, code: ErrorCode) -> Check {
    s.send(sent)?;
    let said = s.next_line(&format!("error {code} after {sent}"))?;
    match said.line {
        Line::Error { code: c, .. } if c == code => s.quiet(sent),
        _ => Err(unexpected(
            said.text,
            &format!("error {code} ... after {}", quote(sent)),
        )),
    }
}

/// The commands that must be refused with `code` (busy has its own check).
fn refused_with(s: &Session, code: ErrorCode) -> Vec<String> {
    let texts: &[&str] = match code {
        ErrorCode::UnknownCommand => &["flibbertigibbet", "isreadyy", "Go depth 1"],
        ErrorCode::Syntax => &[
            "go depth banana",
            "go depth 0",
            "isready now",
            "query",
            "position",
        ],
        ErrorCode::BadPosition => &[
            "position fen ....../....../....../...... x 14 14 0-0 -",
            "position fen ....../....../...... w 14 14 0-0 -",
            "position fen wwwwww/....../....../...... w 14 14 0-0 -",
        ],
        ErrorCode::IllegalMove => return illegal_moves(s),
        ErrorCode::BadOption => return bad_options(s),
        ErrorCode::Busy => &[],
    };
    texts.iter().map(|t| t.to_string()).collect()
}

fn illegal_moves(s: &Session) -> Vec<String> {
    let first = s.start_position().legal_moves()[0];
    vec![
        format!("position startpos moves {first} {first}"),
        "position startpos moves bar/7".to_string(),
        "position startpos moves xyz".to_string(),
        format!("position fen {} moves bar/1", s.positions.white_won),
        // An illegal searchmove: an error and no bestmove.
        "go depth 1 searchmoves bar/7".to_string(),
    ]
}

fn bad_options(s: &Session) -> Vec<String> {
    let mut commands = vec!["setoption name NoSuchOption value 1".to_string()];
    let spin = s
        .options
        .iter()
        .find(|(_, kind)| matches!(kind, OptionKind::Spin { .. }));
    if let Some((name, _)) = spin {
        commands.push(format!("setoption name {name} value lots"));
        commands.push(format!("setoption name {name}"));
    }
    if s.option_named("Ponder").is_some() {
        commands.push("setoption name Ponder value perhaps".to_string());
    }
    commands
}

/// Each command refused with `code`, and the position unchanged after.
pub fn error(s: &mut Session, code: ErrorCode) -> Check {
    let pos = s.positions.white;
    s.set(&pos)?;
    if code == ErrorCode::Busy {
        busy(s, &pos)?;
    }
    for command in refused_with(s, code) {
        expect_error(s, &command, code)?;
    }
    s.expect_position(&pos, "the refused commands")?;
    s.sync()
}

/// During `go infinite`: `error busy` for what needs an idle engine.
fn busy(s: &mut Session, pos: &Position) -> Check {
    s.sync()?;
    s.send("go infinite")?;
    for command in ["position startpos", "go depth 1", "uginewgame"] {
        s.send(command)?;
        loop {
            let said = s.next_line(&format!("error busy after {command}"))?;
            match said.line {
                Line::Info(info) => s.judge_info(pos, &info, &said.text)?,
                Line::Error {
                    code: ErrorCode::Busy,
                    ..
                } => break,
                _ => {
                    let expected = format!("error busy ... after {command} during a search");
                    return Err(unexpected(said.text, &expected));
                }
            }
        }
    }
    s.send("stop")?;
    let now = Instant::now();
    let deadline = s.deadline();
    s.bestmove(pos, now, deadline, "bestmove after stop")
        .map(|_| ())
}

/// `perft 1` and `perft 2`: one `<move>: <count>` line per legal move with
/// the count the rules give, then `nodes <total>`.
pub fn perft(s: &mut Session) -> Check {
    let p = &s.positions;
    for pos in [s.start_position(), p.white, p.black, p.pass] {
        s.set(&pos)?;
        for depth in [1, 2] {
            judge_perft(s, &pos, depth)?;
        }
    }
    s.sync()
}

fn judge_perft(s: &mut Session, pos: &Position, depth: u32) -> Check {
    s.send(&format!("perft {depth}"))?;
    let mut want: Vec<(Move, u64)> = pos
        .legal_moves()
        .iter()
        .map(|&m| (m, leaves(&pos.play(m).expect("legal"), depth - 1)))
        .collect();
    let mut got = Vec::new();
    let total = loop {
        let said = s.next_line(&format!("nodes after perft {depth}"))?;
        match said.line {
            Line::PerftMove { mv, count } => got.push((mv, count)),
            Line::Nodes(total) => break total,
            _ => return Err(unexpected(said.text, "<move>: <count> lines, then nodes")),
        }
    };
    want.sort();
    got.sort();
    let sum: u64 = want.iter().map(|(_, n)| n).sum();
    if got != want || total != sum {
        return Err(wrong(format!(
            "perft {depth} in {pos}: {got:?} nodes {total}, expected {want:?} nodes {sum}"
        )));
    }
    Ok(())
}

/// The leaves `depth` plies below `pos` (a finished game is one leaf).
fn leaves(pos: &Position, depth: u32) -> u64 {
    if depth == 0 || pos.is_game_over() {
        return 1;
    }
    let children = pos.legal_moves();
    children
        .iter()
        .map(|&m| leaves(&pos.play(m).expect("legal"), depth - 1))
        .sum()
}
