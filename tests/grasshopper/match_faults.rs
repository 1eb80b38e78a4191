//! Misbehaving engines: each produces the right termination, loses, is
//! restarted for the next game, and the match completes.

use crate::support::{fake_cmd as fake, records, running, scratch, GameRecord};
use match_runner::{GameResult, Termination};
use std::process::Command;

/// Plays `pairs` pairs of the naive engine against `bad` (engine settings)
/// and returns the records.
fn match_against(tag: &str, bad: &[&str], pairs: u32, extra: &[&str]) -> Vec<GameRecord> {
    let pgn = scratch("match_faults", &format!("{tag}.pgn"));
    let out = Command::new(crate::BIN)
        .arg("match")
        .args(["--engine", &fake(), "name=naive"])
        .arg("--engine")
        .args(bad)
        .args(["--tc", "depth=1", "--checkers", "4", "--random-plies", "2"])
        .args(["--pairs", &pairs.to_string(), "-q", "--timeout", "1000"])
        .arg("--pgn")
        .arg(&pgn)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{tag}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    records(&pgn)
}

/// Every game lost by `loser` with `termination`, the detail containing `why`.
fn assert_all_lost(games: &[GameRecord], loser: &str, termination: Termination, why: &str) {
    assert!(!games.is_empty());
    for g in games {
        let want = if g.white == loser {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        };
        assert_eq!(g.result, want, "{g}");
        assert_eq!(g.termination, termination, "{g}");
        let detail = g.detail.as_deref().unwrap_or("");
        assert!(detail.contains(why), "wanted \"{why}\" in \"{detail}\"");
    }
}

/// The fake engine misbehaving as `fail` says at every go (and, for silent
/// and garbage, for its whole session).
fn failing(fail: &str) -> Vec<String> {
    vec![
        fake(),
        "name=bad".into(),
        "arg=--fail".into(),
        format!("arg={fail}"),
    ]
}

/// The fake engine misbehaving as `fail` says at its go after `after`
/// moves of its own in a game.
fn failing_after(fail: &str, after: u32) -> Vec<String> {
    let mut v = failing(fail);
    v.extend(["arg=--fail-after".into(), format!("arg={after}")]);
    v
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn an_illegal_move_loses_with_the_move_and_the_reason() {
    // Given an engine that answers every go with bar/7
    let games = match_against("illegal", &strs(&failing("illegal")), 1, &[]);
    // Then both games end as illegal moves, quoting the move and the rule
    assert_eq!(games.len(), 2);
    assert_all_lost(
        &games,
        "bad",
        Termination::IllegalMove,
        "bar/7: checkers enter only on points 1-6",
    );
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    // Given an engine that dies at its first go
    let games = match_against("crash", &strs(&failing("crash")), 2, &[]);
    // Then every game (four: the engine was started again each time) is a crash
    assert_eq!(games.len(), 4);
    assert_all_lost(&games, "bad", Termination::Crash, "exited");
}

#[test]
fn a_crash_in_mid_game_keeps_the_moves_and_the_next_game_gets_a_fresh_process() {
    // Given a naive engine that exits after two moves of its own in a game
    let games = match_against("crash_mid", &strs(&failing_after("crash", 2)), 1, &[]);
    assert_all_lost(&games, "bad", Termination::Crash, "exited");
    // Then each game has the moves before the crash: the restarted process
    // played its two moves in game 2 as well.
    for g in &games {
        assert!(g.moves.len() >= 4, "{g}");
    }
}

#[test]
fn an_engine_that_never_answers_stalls() {
    // Given an engine that never says anything
    let games = match_against(
        "silent",
        &strs(&failing("silent")),
        1,
        &["--timeout", "1500"],
    );
    assert_all_lost(
        &games,
        "bad",
        Termination::Stall,
        "engine gave no answer to ugi",
    );
}

#[test]
fn an_engine_that_stops_answering_mid_game_stalls() {
    let games = match_against(
        "silent_mid",
        &strs(&failing_after("silent", 1)),
        1,
        &["--timeout", "1500", "--move-timeout", "300"],
    );
    assert_all_lost(&games, "bad", Termination::Stall, "no answer to isready");
}

#[test]
fn garbage_is_skipped_and_an_unreadable_move_loses() {
    // Given an engine that prints noise and invalid UTF-8 around its answers
    let games = match_against("garbage", &strs(&failing("garbage")), 1, &[]);
    // Then the handshake survives the noise, and its "move" is refused
    assert_all_lost(
        &games,
        "bad",
        Termination::IllegalMove,
        "unreadable move: bad move \"!!@@##\"",
    );
}

#[test]
fn a_flood_of_output_is_read_in_pieces_and_the_move_after_it_counts() {
    // Given an engine that prints a 3 MB line before its move bar/7
    let games = match_against("flood", &strs(&failing("flood")), 1, &[]);
    // Then the runner reads past the flood and refuses the move
    assert_all_lost(
        &games,
        "bad",
        Termination::IllegalMove,
        "bar/7: checkers enter only on points 1-6",
    );
}

#[test]
fn a_slow_engine_forfeits_on_time() {
    // Given an engine that thinks 500 ms on its second move, under movetime=50
    let games = match_against(
        "slow",
        &strs(&failing_after("slow", 1)),
        1,
        &["--tc", "movetime=50", "--margin", "50", "--timeout", "3000"],
    );
    assert_all_lost(&games, "bad", Termination::TimeForfeit, "within 100 ms");
}

#[test]
fn a_stale_second_bestmove_is_a_protocol_error_naming_the_line() {
    // Given an engine that sends its bestmove twice
    let games = match_against("stale", &strs(&failing("stale")), 1, &[]);
    // Then the isready before its next go catches the second one
    assert_eq!(games.len(), 2);
    assert_all_lost(&games, "bad", Termination::Protocol, "sent \"bestmove bar/");
    for g in &games {
        let detail = g.detail.as_deref().unwrap_or("");
        assert!(detail.contains("when no search was running"), "{detail}");
        assert!(!g.moves.is_empty(), "{g}");
    }
}

#[test]
fn a_missing_program_is_an_error_not_a_game() {
    let out = Command::new(crate::BIN)
        .arg("match")
        .args(["--engine", "cmd=/nonexistent/engine", "name=a"])
        .args(["--engine", &fake(), "name=b"])
        .args(["--tc", "depth=1", "--pairs", "1", "-q"])
        .arg("--pgn")
        .arg(scratch("match_faults", "missing.pgn"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot start engine \"/nonexistent/engine\""),
        "{err}"
    );
}

#[test]
fn ctrl_c_ends_the_engines_and_what_they_started() {
    interrupt_ends_the_engines("INT", 130);
}

#[test]
fn sigterm_ends_the_engines_and_exits_as_terminated() {
    // Slurm and service managers send SIGTERM: 128 + 15 tells them apart.
    interrupt_ends_the_engines("TERM", 143);
}

fn interrupt_ends_the_engines(signal: &str, code: i32) {
    // An engine behind a wrapper that leaves a child (`sleep`) in the
    // engine's process group: the terminal's Ctrl-C reaches the runner
    // only, so the runner must end the groups itself.
    let tag = format!("interrupt-{signal}");
    let pidfile = scratch("match_faults", &format!("{tag}.pid"));
    let script = format!(
        "sleep 1000 & echo $! > '{}'; exec '{}'",
        pidfile.display(),
        testkit::fake_engine().display()
    );
    let mut runner = Command::new(crate::BIN)
        .arg("match")
        .args(["--engine", &fake(), "name=naive"])
        .args(["--engine", "cmd=sh", "name=wrapped", "arg=-c"])
        .arg(format!("arg={script}"))
        .args([
            "--tc",
            "depth=1",
            "--checkers",
            "4",
            "--pairs",
            "100000",
            "-q",
        ])
        .arg("--pgn")
        .arg(scratch("match_faults", &format!("{tag}.pgn")))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let child = loop {
        let pid = std::fs::read_to_string(&pidfile)
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok());
        match pid {
            Some(pid) if running(pid) => break pid,
            _ if std::time::Instant::now() > until => panic!("the wrapper never started"),
            _ => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    };
    // Games are being played: now Ctrl-C, as a terminal sends it.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &runner.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = runner.wait().unwrap();
    assert_eq!(status.code(), Some(code), "{status:?}");
    let gone = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while running(child) && std::time::Instant::now() < gone {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        !running(child),
        "the wrapper's child {child} outlived the runner"
    );
}
