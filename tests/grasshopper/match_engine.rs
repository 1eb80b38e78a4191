//! Matches with the real engine (`grasshopper` with no arguments speaks the
//! protocol): two instances of it, the engine against the fake engine's
//! random mover, under depth, clock and UCI spellings, and a resume
//! that reproduces an uninterrupted run at fixed depth.

use crate::support::{records, GameRecord};
use match_runner::Termination;
use std::path::PathBuf;
use std::process::Command;

const ENGINE: &str = crate::BIN;

fn scratch_in(name: &str) -> PathBuf {
    crate::support::scratch("match_engine", name)
}

fn random_mover() -> Vec<String> {
    [
        "--engine".to_string(),
        crate::support::fake_cmd(),
        "name=random".into(),
        "arg=--mode".into(),
        "arg=random".into(),
    ]
    .to_vec()
}

fn play(tag: &str, args: &[String], extra: &[&str]) -> (Vec<GameRecord>, serde_json::Value) {
    let (pgn, json) = (
        scratch_in(&format!("{tag}.pgn")),
        scratch_in(&format!("{tag}.json")),
    );
    let out = Command::new(ENGINE)
        .arg("match")
        .args(args)
        .args(["-q", "--pgn"])
        .arg(&pgn)
        .arg("--json")
        .arg(&json)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{tag}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = std::fs::read_to_string(&json).unwrap();
    (
        records(&pgn),
        serde_json::from_str(&summary).expect("the summary is JSON"),
    )
}

fn all_normal(games: &[GameRecord]) {
    for g in games {
        assert_eq!(g.termination, Termination::Normal, "{g}");
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn two_instances_of_the_engine_play_whole_games() {
    let args = strings(&[
        "--engine",
        &format!("cmd={ENGINE}"),
        "name=a",
        "--engine",
        &format!("cmd={ENGINE}"),
        "name=b",
        "option.Hash=1",
        "--tc",
        "depth=1",
        "--pairs",
        "3",
        "--random-plies",
        "4",
        "--checkers",
        "10",
    ]);
    let (games, json) = play("self", &args, &[]);
    assert_eq!(games.len(), 6);
    all_normal(&games);
    assert_eq!(json["games"], 6, "{json}");
}

#[test]
fn the_engine_plays_the_random_mover_on_a_clock_and_in_uci() {
    // Given the engine on a 0.6 s + 20 ms clock, once in UGI and once in UCI spelling
    for (tag, proto) in [("clock_ugi", "proto=ugi"), ("clock_uci", "proto=uci")] {
        let mut args = strings(&[
            "--engine",
            &format!("cmd={ENGINE}"),
            "name=engine",
            proto,
            "--tc",
            "0.6+0.02",
            "--pairs",
            "1",
            "--random-plies",
            "2",
            "--checkers",
            "6",
            "--margin",
            "1000",
        ]);
        args.extend(random_mover());
        let (games, _) = play(tag, &args, &[]);
        // Then the games end by the rules: no forfeits, no illegal moves
        assert_eq!(games.len(), 2);
        all_normal(&games);
    }
}

#[test]
fn the_engine_plays_its_own_random_mover() {
    // Given the engine at depth 2 against `grasshopper --player random`
    let args = strings(&[
        "--engine",
        &format!("cmd={ENGINE}"),
        "name=engine",
        "--engine",
        &format!("cmd={ENGINE}"),
        "name=random",
        "arg=--player",
        "arg=random",
        "arg=--seed",
        "arg=7",
        "--tc",
        "depth=2",
        "--pairs",
        "2",
        "--random-plies",
        "2",
        "--checkers",
        "8",
    ]);
    let (games, json) = play("random", &args, &[]);
    // Then the games are complete and counted
    assert_eq!(games.len(), 4);
    all_normal(&games);
    assert!(
        json["pairings"][0]["first"] == "engine" && json["pairings"][0]["second"] == "random",
        "{json}"
    );
}

#[test]
fn time_odds_give_each_engine_its_own_limit() {
    // Given the engine at depth 2 against itself at depth 1 (tc= in its settings)
    let args = strings(&[
        "--engine",
        &format!("cmd={ENGINE}"),
        "name=deep",
        "--engine",
        &format!("cmd={ENGINE}"),
        "name=shallow",
        "tc=depth=1",
        "--tc",
        "depth=2",
        "--pairs",
        "2",
        "--random-plies",
        "2",
        "--checkers",
        "8",
    ]);
    let (games, _) = play("odds", &args, &[]);
    // Then the records say who had which limit, and the games are complete
    assert_eq!(games.len(), 4);
    all_normal(&games);
    for g in &games {
        let want = if g.white == "deep" {
            "depth=2 vs depth=1"
        } else {
            "depth=1 vs depth=2"
        };
        assert_eq!(g.tc, want);
    }
}

#[test]
fn resume_at_fixed_depth_reproduces_the_uninterrupted_match() {
    let args = strings(&[
        "--engine",
        &format!("cmd={ENGINE}"),
        "name=a",
        "--engine",
        &format!("cmd={ENGINE}"),
        "name=b",
        "--tc",
        "depth=2",
        "--pairs",
        "3",
        "--random-plies",
        "3",
        "--checkers",
        "8",
    ]);
    let (full, full_json) = play("full", &args, &[]);
    // Given the records cut after game 3 (pair 2 half played)
    let text = std::fs::read_to_string(scratch_path("full.pgn")).unwrap();
    let fourth = text.match_indices("[Event").nth(3).unwrap().0;
    let cut = scratch_in("cut.pgn");
    std::fs::write(&cut, &text[..fourth]).unwrap();
    // When resumed
    let (resumed, resumed_json) = play("cut", &args, &["--resume"]);
    // Then it ends with the same games and totals
    let key = |g: &GameRecord| (g.pair, g.game, g.result, g.moves.clone());
    let mut a: Vec<_> = full.iter().map(key).collect();
    let mut b: Vec<_> = resumed.iter().map(key).collect();
    a.sort_by_key(|k| (k.0, k.1));
    b.sort_by_key(|k| (k.0, k.1));
    assert_eq!(a, b);
    assert_eq!(full_json["pairings"], resumed_json["pairings"]);
}

fn scratch_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("match_engine")
        .join(name)
}
