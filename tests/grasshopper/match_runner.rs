//! Whole matches through the `grasshopper match` command: records, JSON
//! summary, resume after a kill, shards and merge, SPRT stop, schedules,
//! openings files and concurrency. The engines are testkit's fake engine
//! (which plays by testkit's naive model of the rules) in its deterministic
//! modes, so every run of the same match gives the same games.

use crate::support::records;
use match_grasshopper::Grasshopper;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn scratch_in(name: &str) -> PathBuf {
    crate::support::scratch("match_runner", name)
}

fn naive() -> String {
    format!("cmd={}", testkit::fake_engine().display())
}

/// The engines: "first" plays the first legal move, "random" a seeded
/// pseudo-random one; both deterministic.
fn two_engines(delay_ms: u32) -> Vec<String> {
    let d = delay_ms.to_string();
    let mut a = vec!["--engine".into(), naive(), "name=first".into()];
    let mut b = vec![
        "--engine".into(),
        naive(),
        "name=random".into(),
        "arg=--mode".into(),
        "arg=random".into(),
        "arg=--seed".into(),
        "arg=11".into(),
    ];
    if delay_ms > 0 {
        for e in [&mut a, &mut b] {
            e.extend(["arg=--delay".to_string(), format!("arg={d}")]);
        }
    }
    a.extend(b);
    a
}

fn common(pairs: u32) -> Vec<String> {
    [
        "--tc",
        "depth=1",
        "--checkers",
        "6",
        "--random-plies",
        "3",
        "--seed",
        "5",
        "-q",
        "--pairs",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([pairs.to_string()])
    .collect()
}

fn grasshopper() -> Command {
    let mut c = Command::new(crate::BIN);
    c.arg("match");
    c
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn run(args: &[String], pgn: &Path, json: &Path, extra: &[&str]) -> String {
    ok(grasshopper()
        .args(args)
        .arg("--pgn")
        .arg(pgn)
        .arg("--json")
        .arg(json)
        .args(extra)
        .output()
        .unwrap())
}

/// A JSON summary, read.
fn summary(json: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(json).unwrap()).expect("the summary is JSON")
}

/// The statistics part of a JSON summary.
fn totals(json: &Path) -> serde_json::Value {
    summary(json)["pairings"].clone()
}

/// Games sorted by pair, as comparable tuples.
fn games(pgn: &Path) -> Vec<(usize, u8, String, String)> {
    let mut g: Vec<_> = records(pgn)
        .into_iter()
        .map(|g| {
            let moves: Vec<String> = g.moves.iter().map(|m| m.to_string()).collect();
            (g.pair, g.game, g.result.to_string(), moves.join(" "))
        })
        .collect();
    g.sort();
    g
}

#[test]
fn a_match_writes_records_that_replay_and_a_summary() {
    // Given two deterministic engines and 4 pairs
    let (pgn, json) = (scratch_in("basic.pgn"), scratch_in("basic.json"));
    let report = run(&[two_engines(0), common(4)].concat(), &pgn, &json, &[]);
    // Then 8 games are recorded, in pairs with colours swapped, and replay
    let recs = records(&pgn);
    assert_eq!(recs.len(), 8);
    for pair in recs.chunks(2) {
        assert_eq!(pair[0].pair, pair[1].pair);
        assert_eq!(
            (pair[0].white.as_str(), pair[1].white.as_str()),
            ("first", "random")
        );
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!(pair[0].tc, "depth=1");
    }
    // And the summary counts them all
    let summary = summary(&json);
    assert_eq!(summary["games"], 8, "{summary}");
    assert_eq!(summary["pairs"], 4, "{summary}");
    let wins = recs
        .iter()
        .filter(|g| {
            g.result.half_points(if g.white == "first" {
                match_runner::Side::White
            } else {
                match_runner::Side::Black
            }) == 2
        })
        .count();
    assert_eq!(summary["pairings"][0]["wins"], wins, "{summary}");
    assert!(report.contains("first vs random"), "{report}");
    // And the same match again gives the same games (the engines are deterministic)
    let (pgn2, json2) = (scratch_in("basic2.pgn"), scratch_in("basic2.json"));
    run(
        &[two_engines(0), common(4)].concat(),
        &pgn2,
        &json2,
        &["--concurrency", "3"],
    );
    assert_eq!(games(&pgn), games(&pgn2));
    assert_eq!(totals(&json), totals(&json2));
}

#[test]
fn an_existing_records_file_is_not_overwritten_without_resume() {
    let (pgn, json) = (scratch_in("keep.pgn"), scratch_in("keep.json"));
    std::fs::write(&pgn, "[Event \"precious\"]\n").unwrap();
    let out = grasshopper()
        .args([two_engines(0), common(1)].concat())
        .arg("--pgn")
        .arg(&pgn)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resume"));
    assert_eq!(
        std::fs::read_to_string(&pgn).unwrap(),
        "[Event \"precious\"]\n"
    );
}

#[test]
fn resume_after_a_kill_gives_the_same_totals_as_an_uninterrupted_run() {
    let args = [two_engines(3), common(5)].concat();
    // Given an uninterrupted run
    let (full, full_json) = (scratch_in("full.pgn"), scratch_in("full.json"));
    run(&args, &full, &full_json, &[]);
    // When the same match is killed after three games were recorded
    let (cut, cut_json) = (scratch_in("killed.pgn"), scratch_in("killed.json"));
    let mut child = grasshopper()
        .args(&args)
        .arg("--pgn")
        .arg(&cut)
        .arg("--json")
        .arg(&cut_json)
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let text = std::fs::read_to_string(&cut).unwrap_or_default();
        if text.matches("[Plies").count() >= 3 || Instant::now() > until {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = std::fs::read_to_string(&cut).unwrap();
    assert!(
        before.matches("[Plies").count() < 10,
        "the match finished before it could be killed"
    );
    // And resumed
    run(&args, &cut, &cut_json, &["--resume"]);
    // Then the totals and the games are those of the uninterrupted run
    assert_eq!(totals(&cut_json), totals(&full_json));
    assert_eq!(games(&cut), games(&full));
}

#[test]
fn resume_drops_a_cut_off_record_and_keeps_every_finished_game() {
    let args = [two_engines(0), common(4)].concat();
    let (full, full_json) = (scratch_in("whole.pgn"), scratch_in("whole.json"));
    run(&args, &full, &full_json, &[]);
    // Given the records cut in the middle of game 6 (pair 3 is half played)
    let text = std::fs::read_to_string(&full).unwrap();
    let sixth = text.match_indices("[Event").nth(5).unwrap().0;
    let (part, part_json) = (scratch_in("part.pgn"), scratch_in("part.json"));
    std::fs::write(&part, &text[..sixth + 120]).unwrap();
    // When resumed by a runner that cannot start its engines (it rewrites
    // the records, then stops)
    let missing: Vec<String> = args
        .iter()
        .map(|a| match a.starts_with("cmd=") {
            true => "cmd=/nonexistent/engine".to_string(),
            false => a.clone(),
        })
        .collect();
    let out = grasshopper()
        .args(&missing)
        .arg("--pgn")
        .arg(&part)
        .arg("--resume")
        .output()
        .unwrap();
    assert!(!out.status.success());
    // Then the five finished games, game 1 of the half pair among them, are
    // all kept, byte for byte, and only the cut-off record is gone
    assert_eq!(std::fs::read_to_string(&part).unwrap(), text[..sixth]);
    // When resumed with the engines
    let out = run(&args, &part, &part_json, &["--resume"]);
    // Then the match completes with the same totals and games, byte for byte
    assert!(out.contains("Games: 8"), "{out}");
    assert_eq!(totals(&part_json), totals(&full_json));
    // (the replayed games' thinking times are measured anew)
    let resumed = std::fs::read_to_string(&part).unwrap();
    assert_eq!(without_times(&resumed), without_times(&text));
}

/// Records text with the milliseconds of the move comments left out
/// (`{cp 0 depth 1 3ms}` reads `{cp 0 depth 1 ms}`): they are measured, so
/// two runs of the same seeded match differ there only.
fn without_times(text: &str) -> String {
    let pieces: Vec<&str> = text.split("ms}").collect();
    let last = pieces.len() - 1;
    let cut = |(i, piece): (usize, &&str)| match i < last {
        true => piece
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .to_string(),
        false => piece.to_string(),
    };
    let kept: Vec<String> = pieces.iter().enumerate().map(cut).collect();
    kept.join("ms}")
}

#[test]
fn a_second_runner_on_the_same_records_is_refused() {
    let args = [two_engines(5), common(20)].concat();
    let (pgn, json) = (scratch_in("shared.pgn"), scratch_in("shared.json"));
    // Given a runner that has recorded a game (so it holds the records)
    let mut first = grasshopper()
        .args(&args)
        .arg("--pgn")
        .arg(&pgn)
        .arg("--json")
        .arg(&json)
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_to_string(&pgn)
        .unwrap_or_default()
        .contains("[Plies")
        && Instant::now() < until
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    // When a second runner resumes the same file
    let second = grasshopper()
        .args(&args)
        .arg("--pgn")
        .arg(&pgn)
        .arg("--resume")
        .output()
        .unwrap();
    let still_running = first.try_wait().unwrap().is_none();
    first.kill().unwrap();
    first.wait().unwrap();
    // Then it is refused, naming the file, and the first runner's records
    // read back
    assert!(
        still_running,
        "the first runner ended before the second started"
    );
    assert!(!second.status.success());
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(err.contains("another match runner"), "{err}");
    assert!(err.contains("shared.pgn"), "{err}");
    let bytes = std::fs::read(&pgn).unwrap();
    let parsed = match_runner::parse_record_bytes::<Grasshopper>(&bytes).unwrap();
    assert!(!parsed.games.is_empty());
}

#[test]
fn resume_reads_records_cut_inside_a_character_and_names_the_line_of_bad_utf8() {
    let event = "tournoi d\u{2019}\u{e9}t\u{e9} \u{2603}";
    let args = [
        two_engines(0),
        common(3),
        vec!["--event".into(), event.into()],
    ]
    .concat();
    let (full, full_json) = (scratch_in("utf8.pgn"), scratch_in("utf8.json"));
    run(&args, &full, &full_json, &[]);
    let text = std::fs::read_to_string(&full).unwrap();
    // Given the records cut inside the snowman of the fourth record's Event tag
    let fourth = text.match_indices("[Event").nth(3).unwrap().0;
    let snowman = fourth + text[fourth..].find('\u{2603}').unwrap();
    let (cut, cut_json) = (scratch_in("utf8-cut.pgn"), scratch_in("utf8-cut.json"));
    std::fs::write(&cut, &text.as_bytes()[..snowman + 2]).unwrap();
    // When resumed, then the match completes with the same games
    run(&args, &cut, &cut_json, &["--resume"]);
    assert_eq!(games(&cut), games(&full));
    assert_eq!(totals(&cut_json), totals(&full_json));
    // Given a byte that is not UTF-8 in the second record's White tag
    let second = text.match_indices("[White").nth(1).unwrap().0;
    let line = 1 + text[..second].matches('\n').count();
    let mut bytes = text.clone().into_bytes();
    bytes[second + 9] = 0xFF;
    let bad = scratch_in("utf8-bad.pgn");
    std::fs::write(&bad, &bytes).unwrap();
    // Then resume and merge refuse it, naming its line and column
    let resumed = grasshopper()
        .args(&args)
        .arg("--pgn")
        .arg(&bad)
        .arg("--resume")
        .output()
        .unwrap();
    let merged = grasshopper().arg("merge").arg(&bad).output().unwrap();
    for out in [resumed, merged] {
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        let want = format!("line {line}: invalid UTF-8 (byte 0xFF at column 10)");
        assert!(err.contains(&want), "{err}");
    }
    // And the file is left as it was
    assert_eq!(std::fs::read(&bad).unwrap(), bytes);
}

#[test]
fn resume_refuses_records_of_another_match() {
    let args = [two_engines(0), common(2)].concat();
    let (pgn, json) = (scratch_in("other.pgn"), scratch_in("other.json"));
    run(&args, &pgn, &json, &[]);
    // Given records played at depth=1, resumed at depth=2
    let mut other = args.clone();
    let tc = other.iter().position(|a| a == "depth=1").unwrap();
    other[tc] = "depth=2".into();
    let out = grasshopper()
        .args(&other)
        .arg("--pgn")
        .arg(&pgn)
        .arg("--resume")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("played at depth=1, but this match is at depth=2"),
        "{err}"
    );
}

#[test]
fn shards_merge_into_the_whole_match() {
    let args = [two_engines(0), common(5)].concat();
    let (full, full_json) = (scratch_in("all.pgn"), scratch_in("all.json"));
    run(&args, &full, &full_json, &[]);
    // Given the match played as three shards
    let mut shard_files = Vec::new();
    for i in 1..=3 {
        let (pgn, json) = (
            scratch_in(&format!("shard{i}.pgn")),
            scratch_in(&format!("shard{i}.json")),
        );
        run(&args, &pgn, &json, &["--shard", &format!("{i}/3")]);
        let recs = records(&pgn);
        assert!(recs.iter().all(|g| g.pair % 3 == i - 1));
        shard_files.push(pgn);
    }
    // When merged
    let (merged, merged_json) = (scratch_in("merged.pgn"), scratch_in("merged.json"));
    let out = ok(grasshopper()
        .arg("merge")
        .args(&shard_files)
        .arg("--pgn")
        .arg(&merged)
        .arg("--json")
        .arg(&merged_json)
        .output()
        .unwrap());
    // Then the statistics and games are those of the whole match
    assert!(out.contains("Games: 10"), "{out}");
    assert_eq!(totals(&merged_json), totals(&full_json));
    assert_eq!(games(&merged), games(&full));
    // And merging a shard twice is refused
    let twice = grasshopper()
        .arg("merge")
        .arg(&shard_files[0])
        .arg(&shard_files[0])
        .output()
        .unwrap();
    assert!(!twice.status.success());
    assert!(String::from_utf8_lossy(&twice.stderr).contains("given twice"));
}

#[test]
fn the_sprt_stops_the_match_when_it_decides() {
    // Given the first-move engine against the random mover (which it beats
    // clearly), an SPRT for 0 vs 50 Elo and room for 100 pairs
    let (pgn, json) = (scratch_in("sprt.pgn"), scratch_in("sprt.json"));
    let report = run(
        &[two_engines(0), common(100)].concat(),
        &pgn,
        &json,
        &[
            "--checkers",
            "14",
            "--sprt",
            "elo0=0",
            "elo1=50",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    // Then the match stops early with H1 accepted, after whole pairs
    let n = records(&pgn).len();
    assert!(n < 200 && n.is_multiple_of(2), "{n} games");
    assert!(report.contains("H1 accepted"), "{report}");
    let summary = std::fs::read_to_string(&json).unwrap();
    assert!(
        summary.contains("\"decision\": \"H1 accepted\""),
        "{summary}"
    );
}

#[test]
fn round_robin_and_gauntlet_pair_the_engines() {
    let mut three = two_engines(0);
    three.extend([
        "--engine".to_string(),
        naive(),
        "name=other".to_string(),
        "arg=--mode".to_string(),
        "arg=random".to_string(),
        "arg=--seed".to_string(),
        "arg=99".to_string(),
    ]);
    for (schedule, games_each, pairings) in [("round-robin", 8, 3), ("gauntlet", 8, 2)] {
        let (pgn, json) = (
            scratch_in(&format!("{schedule}.pgn")),
            scratch_in(&format!("{schedule}.json")),
        );
        let report = run(
            &[three.clone(), common(2)].concat(),
            &pgn,
            &json,
            &["--schedule", schedule],
        );
        let recs = records(&pgn);
        assert_eq!(recs.len(), 4 * pairings, "{schedule}");
        let first_games = recs
            .iter()
            .filter(|g| g.white == "first" || g.black == "first")
            .count();
        assert_eq!(first_games, games_each, "{schedule}");
        assert!(report.contains("Standings:"), "{report}");
    }
}

#[test]
fn openings_come_from_the_file_in_order() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/openings.txt");
    let lines: Vec<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let (pgn, json) = (scratch_in("book.pgn"), scratch_in("book.json"));
    let mut args = two_engines(0);
    args.extend(["--tc", "depth=1", "-q", "--openings"].map(String::from));
    args.push(file.display().to_string());
    run(&args, &pgn, &json, &[]);
    let recs = records(&pgn);
    // One pair per opening by default
    assert_eq!(recs.len(), 2 * lines.len());
    for g in recs {
        assert_eq!(g.opening.to_string(), lines[g.pair], "pair {}", g.pair + 1);
    }
}

#[test]
fn bad_settings_are_answered_with_what_was_expected() {
    for (args, want) in [
        (
            vec!["--engine", "cmd=x", "--tc", "depth=1"],
            "two or more --engine",
        ),
        (
            vec!["--engine", "cmd=x", "--engine", "cmd=x"],
            "two engines are named \"x\"",
        ),
        (
            vec![
                "--engine", "cmd=x", "name=a", "--engine", "cmd=x", "name=b", "--sprt", "elo0=1",
            ],
            "needs both",
        ),
        (vec!["--engine", "nocmd", "--engine", "cmd=y"], "\"nocmd\""),
        (vec!["--tc", "fast"], "\"fast\""),
        (vec!["--shard", "4/3"], "\"4/3\""),
    ] {
        let out = grasshopper().args(&args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
