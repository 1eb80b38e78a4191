//! The fake engine answers as its docs say (and, being asked for here,
//! `cargo test --workspace` builds it before any test that uses it runs).

use std::io::Write;
use std::process::{Command, Stdio};

/// Feeds `input` to `fake-engine ARGS` and returns its output lines.
fn session(args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fake-engine"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn it_plays_the_first_legal_move_and_answers_queries() {
    let out = session(
        &[],
        "ugi\nisready\nposition startpos moves bar/1\ngo depth 1\nquery fen\nquery legal bar/1\nquit\n",
    );
    assert_eq!(out[0], "id name fake-engine first");
    assert!(out.contains(&"ugiok".to_string()), "{out:?}");
    let tail: Vec<&str> = out.iter().rev().take(4).rev().map(String::as_str).collect();
    assert_eq!(
        tail,
        [
            "info depth 1 score cp 0 nodes 5 pv bar/2",
            "bestmove bar/2",
            "response w...../....../....../...... b 13 14 0-0 -",
            "response false not a legal move here",
        ]
    );
}

#[test]
fn infinite_waits_for_stop_and_ponder_names_a_reply() {
    let out = session(
        &[],
        "setoption name Ponder value true\ngo infinite\nisready\nstop\n",
    );
    assert_eq!(out[0], "readyok");
    assert_eq!(out.last().unwrap(), "bestmove bar/1 ponder bar/2");
}

#[test]
fn stale_sends_a_second_bestmove_and_illegal_enters_on_seven() {
    let stale = session(&["--fail", "stale"], "go depth 1\n");
    assert_eq!(stale[1..], ["bestmove bar/1", "bestmove bar/1"]);
    let late = session(
        &["--fail", "illegal", "--fail-after", "1"],
        "go depth 1\nposition startpos moves bar/1 bar/2\ngo depth 1\n",
    );
    assert_eq!(late.last().unwrap(), "bestmove bar/7");
    assert_eq!(late[1], "bestmove bar/1");
}

#[test]
fn a_whole_silent_session_says_nothing() {
    assert!(session(&["--fail", "silent"], "ugi\nisready\ngo depth 1\n").is_empty());
}

#[test]
fn errors_carry_protocol_codes() {
    let out = session(
        &[],
        "flibbertigibbet\nposition startpos moves bar/7\nsetoption name Colour value red\n\
         go infinite\nposition startpos\nstop\n",
    );
    let codes: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("error "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        codes,
        ["unknown_command", "illegal_move", "bad_option", "busy"]
    );
}

#[test]
fn the_ubgi_fault_relay_answers_for_the_engine_and_fails_on_request() {
    // Relayed to a fake UGI engine, which answers ugi with ugiok only; the
    // relay waits for ubgiok, so ask it only what any engine answers.
    let run = |args: &[&str], input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ubgi-fault"))
            .args(args)
            .args(["--", env!("CARGO_BIN_EXE_fake-engine")])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(run(&[], "isready\nquit\n"), "readyok\n");
    assert_eq!(run(&["--double"], "go cube\nquit\n"), "bestcube double\n");
    assert_eq!(run(&["--drop"], "go take\nquit\n"), "besttake drop\n");
    assert_eq!(
        run(
            &["--fail-at", "1", "--fail", "illegal"],
            "go chequer\nquit\n"
        ),
        "bestmove 24/1\n"
    );
    assert_eq!(
        run(&["--fail-on", "take", "--fail", "error"], "go take\nquit\n"),
        "error bad_state I will not\n"
    );
}
