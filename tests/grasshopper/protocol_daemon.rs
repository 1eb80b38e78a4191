//! The daemon's machinery with the real binary: answers during a search,
//! one legal bestmove per go under every limit, stop/quit/end of input, and
//! whitespace tolerance. Timings are printed, never asserted tightly.

use grasshopper_rules::{Move, Position};
use std::time::{Duration, Instant};
use testkit::transcript::Engine;

/// Reads up to `bestmove`, checks there is exactly one and that it is legal
/// in `pos` (and among `only`, if given), and returns it.
fn legal_bestmove(e: &mut Engine, pos: &Position, only: &[Move]) -> Move {
    let lines = e.recv_until(|l| l.starts_with("bestmove"));
    for l in &lines[..lines.len() - 1] {
        assert!(
            l.starts_with("info "),
            "unexpected line before bestmove: {l:?}"
        );
    }
    let last = lines.last().unwrap();
    let words: Vec<&str> = last.split(' ').collect();
    let m: Move = words[1]
        .parse()
        .unwrap_or_else(|err| panic!("{last:?}: {err}"));
    assert!(
        pos.legal_moves().contains(m),
        "bestmove {m} is not legal in {pos}"
    );
    if !only.is_empty() {
        assert!(only.contains(&m), "bestmove {m} is not among {only:?}");
    }
    if words.len() > 2 {
        assert_eq!(words[2], "ponder", "{last:?}");
        let after = pos.play(m).unwrap();
        let p: Move = words[3].parse().unwrap();
        assert!(
            after.legal_moves().contains(p),
            "ponder move {p} is not legal"
        );
    }
    // Exactly one: the next reply is to the next command.
    e.send("isready");
    let next = e.recv_until(|l| !l.starts_with("info "));
    assert_eq!(next.last().unwrap(), "readyok", "a second bestmove?");
    m
}

fn positions() -> Vec<(String, Position)> {
    let start = Position::start(14).unwrap();
    let mut mid = start;
    for m in ["bar/1", "bar/2", "1/7", "bar/3", "bar/1", "2/8"] {
        mid = mid.play(m.parse().unwrap()).unwrap();
    }
    let fen = "w...../W...../....../b....B b 9 9 1-1 w1";
    vec![
        ("position startpos".to_string(), start),
        (
            "position startpos moves bar/1 bar/2 1/7 bar/3 bar/1 2/8".to_string(),
            mid,
        ),
        (format!("position fen {fen}"), fen.parse().unwrap()),
    ]
}

#[test]
fn every_limit_ends_in_exactly_one_legal_bestmove() {
    let mut e = Engine::start(crate::BIN, &[]);
    let limits = [
        "go depth 1",
        "go depth 3",
        "go nodes 1000",
        "go movetime 30",
        "go p1time 2000 p2time 2000",
        "go wtime 300 btime 300 winc 20 binc 20 movestogo 10",
        "go p1time 0 p2time 0",
        "go p1time -50 p2time -50",
    ];
    for (setup, pos) in positions() {
        for go in limits {
            e.send(&setup);
            let started = Instant::now();
            e.send(go);
            let m = legal_bestmove(&mut e, &pos, &[]);
            eprintln!("{setup} / {go}: bestmove {m} after {:?}", started.elapsed());
        }
        // Limits that only stop tells to end.
        for go in ["go infinite", "go", "go ponder", "go ponder depth 2"] {
            e.send(&setup);
            e.send(go);
            std::thread::sleep(Duration::from_millis(20));
            e.send("stop");
            legal_bestmove(&mut e, &pos, &[]);
        }
        // searchmoves restricts the choice to the moves given.
        let some: Vec<Move> = pos.legal_moves().iter().rev().take(2).copied().collect();
        let list: Vec<String> = some.iter().map(|m| m.to_string()).collect();
        e.send(&setup);
        e.send(&format!("go depth 2 searchmoves {}", list.join(" ")));
        legal_bestmove(&mut e, &pos, &some);
    }
    e.send("quit");
    let (status, rest) = e.finish();
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn isready_is_answered_while_a_search_runs() {
    let mut e = Engine::start(crate::BIN, &[]);
    e.send("position startpos moves bar/1 bar/2 bar/3");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    let mut latencies = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        e.send("isready");
        let lines = e.recv_until(|l| !l.starts_with("info "));
        latencies.push(t.elapsed());
        assert_eq!(lines.last().unwrap(), "readyok");
        std::thread::sleep(Duration::from_millis(5));
    }
    latencies.sort();
    eprintln!(
        "isready during a search: median {:?}, max {:?} over {} round trips",
        latencies[latencies.len() / 2],
        latencies.last().unwrap(),
        latencies.len()
    );
    // Generous on purpose: this catches an engine that waits for the
    // search, not a slow machine.
    assert!(*latencies.last().unwrap() < Duration::from_secs(2));
    e.send("stop");
    let pos = Position::start(14)
        .unwrap()
        .play("bar/1".parse().unwrap())
        .unwrap()
        .play("bar/2".parse().unwrap())
        .unwrap()
        .play("bar/3".parse().unwrap())
        .unwrap();
    legal_bestmove(&mut e, &pos, &[]);
}

#[test]
fn crlf_tabs_and_blank_lines_are_tolerated() {
    let mut e = Engine::start(crate::BIN, &[]);
    e.send_bytes(b"isready\r\n");
    e.expect("readyok");
    e.send_bytes(b"\r\n   \t \n  position \t startpos   moves  bar/1\t \r\n");
    e.send_bytes(b"query fen\r\n");
    e.expect("response w...../....../....../...... b 13 14 0-0 -");
    // A last line without a line break is still read.
    e.send_bytes(b"query p1turn");
    let (status, rest) = e.finish();
    assert!(status.success());
    assert_eq!(rest, vec!["response false".to_string()]);
}

#[test]
fn quit_during_a_search_writes_its_bestmove_and_exits_0() {
    let mut e = Engine::start(crate::BIN, &[]);
    e.send("position startpos");
    e.send("go infinite");
    e.send("quit");
    let (status, rest) = e.finish();
    assert!(status.success(), "{status}");
    let best: Vec<&String> = rest.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{rest:?}");
}

#[test]
fn end_of_input_during_a_search_writes_its_bestmove_and_exits_0() {
    let mut e = Engine::start(crate::BIN, &[]);
    e.send("position startpos");
    e.send("go ponder");
    let (status, rest) = e.finish();
    assert!(status.success(), "{status}");
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{rest:?}"
    );
}

#[test]
fn end_of_input_lets_a_perft_finish() {
    let mut e = Engine::start(crate::BIN, &[]);
    e.send("perft 3");
    let (status, rest) = e.finish();
    assert!(status.success());
    let total = grasshopper_rules::perft(&Position::start(14).unwrap(), 3);
    assert_eq!(rest.last(), Some(&format!("nodes {total}")), "{rest:?}");
    assert_eq!(rest.len(), 7, "six root moves and the total: {rest:?}");
}

#[test]
fn quit_abandons_a_perft_that_would_run_for_ages() {
    let mut e = Engine::start(crate::BIN, &[]);
    e.send("position startpos moves bar/1 bar/2 bar/3 bar/4 bar/5 bar/6");
    e.send("perft 12");
    e.send("isready");
    e.expect("readyok");
    e.send("go depth 1");
    e.expect("error busy go: perft is running; send stop or wait for its nodes line first");
    let t = Instant::now();
    e.send("quit");
    let (status, _) = e.finish();
    assert!(status.success());
    eprintln!("quit during perft: exited after {:?}", t.elapsed());
}

#[test]
fn a_refused_position_keeps_the_previous_one_for_go() {
    let mut e = Engine::start(crate::BIN, &[]);
    e.send("position startpos moves bar/1");
    e.send("position startpos moves bar/2 bar/2");
    e.expect("error illegal_move position: move 2 (bar/2): point 2 is occupied");
    e.send("go depth 1");
    let pos = Position::start(14)
        .unwrap()
        .play("bar/1".parse().unwrap())
        .unwrap();
    let m = legal_bestmove(&mut e, &pos, &[]);
    assert!(m.to_string().starts_with("bar/"));
}

#[test]
fn end_of_input_stops_a_deep_perft() {
    // Before: `perft 40` ran until killed, long after its client had gone.
    let mut e = Engine::start(crate::BIN, &[]);
    e.send("perft 12");
    let (status, rest) = e.finish();
    assert!(status.success(), "{status}");
    assert_eq!(
        rest.last().map(String::as_str),
        Some("info string perft stopped: 0 of 6 root moves counted, no total"),
        "{rest:?}"
    );
}

#[test]
fn stop_ends_a_perft_and_a_bench() {
    let mut e = Engine::start(crate::BIN, &[]);
    e.send("perft 12");
    e.send("stop");
    e.expect("info string perft stopped: 0 of 6 root moves counted, no total");
    e.send("bench 200");
    std::thread::sleep(Duration::from_millis(1200));
    e.send("stop");
    let lines = e.recv_until(|l| l.starts_with("info string bench stopped"));
    assert!(lines[0].starts_with("start position: depth "), "{lines:?}");
    e.send("isready");
    e.expect("readyok");
}

/// `mkfifo path`.
fn fifo(name: &str) -> std::path::PathBuf {
    let path = crate::support::scratch("protocol_daemon", name);
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    path
}

#[test]
fn a_table_path_that_is_a_fifo_is_refused_and_the_session_goes_on() {
    // Before: opening the FIFO blocked the session for ever (no writer).
    let path = fifo("tables.fifo");
    let mut e = Engine::start(crate::BIN, &[]);
    e.send(&format!(
        "setoption name TablePath value {}",
        path.display()
    ));
    e.send("isready");
    let refusal = e.recv();
    assert!(
        refusal.starts_with("error bad_option setoption: bad TablePath value")
            && refusal.contains(&format!(
                "{} is a FIFO; expected a regular file",
                path.display()
            )),
        "{refusal}"
    );
    e.expect("readyok");
    e.send("query gameover");
    e.expect("response false");
}

#[test]
fn quit_is_read_while_a_table_loads() {
    // A slow load holds isready, not quit. A FIFO is refused before it is
    // opened; a table that is read slowly is modelled by a large Hash.
    let mut e = Engine::start(crate::BIN, &[]);
    e.send("setoption name Hash value 1024");
    e.send("isready");
    e.send("quit");
    let (status, rest) = e.finish();
    assert!(status.success(), "{status}");
    // readyok if the table was made before quit was read; a refusal if the
    // machine is short of memory just now.
    let ok = |l: &String| l == "readyok" || l.starts_with("error bad_option");
    assert!(rest.iter().all(ok), "{rest:?}");
}

#[test]
fn a_hash_beyond_the_address_space_limit_is_refused_and_the_old_table_kept() {
    // Before: the allocation failed and the process aborted.
    let script = format!("ulimit -v 1200000 && exec {}", crate::BIN);
    let mut e = Engine::start("sh", &["-c", &script]);
    e.send("setoption name Hash value 4096");
    e.send("isready");
    let refusal = e.recv();
    assert!(
        refusal.starts_with("error bad_option setoption: bad Hash value \"4096\"")
            && refusal.contains("does not fit: the address-space limit (ulimit -v) leaves")
            && refusal.ends_with("the table stays 16 MiB)"),
        "{refusal}"
    );
    e.expect("readyok");
    e.send("setoption name Hash value 64");
    e.send("position startpos");
    e.send("go depth 3");
    legal_bestmove(&mut e, &Position::start(14).unwrap(), &[]);
}
