//! `grasshopper backgammon moves`, `show`, `rollout`, `rollout-check`, `cube-errors` and `benchmark`, as scripts run them.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(crate::BIN).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn moves_lists_every_legal_move_then_the_count() {
    // 3-1 from the start: 16 distinct resulting positions, as GNU Backgammon counts.
    let (code, out, _) = run(&[
        "backgammon",
        "moves",
        "--position",
        "4HPwATDgc/ABMA",
        "--dice",
        "31",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"moves 16"));
    assert!(lines.contains(&"8/5 6/5"), "{out}");
    // The Match ID's dice are used when --dice is not given: player 1 rolled 5-2.
    let (code, out, _) = run(&[
        "backgammon",
        "moves",
        "--position",
        "4HPwATDgc/ABMA:QYkqASAAIAAA",
    ]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l == "13/11 13/8"), "{out}");
    // Nothing enters a closed board: the one move is pass.
    let (code, out, _) = run(&[
        "backgammon",
        "moves",
        "--position",
        "27YBBwDg/wcAQA",
        "--dice",
        "65",
    ]);
    assert_eq!((code, out.as_str()), (0, "pass\nmoves 1\n"));
}

#[test]
fn show_draws_the_board_and_decodes_the_ids() {
    let xgid = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7:10";
    let (code, out, _) = run(&["backgammon", "show", "--position", xgid]);
    assert_eq!(code, 0);
    assert!(out.contains("Position ID: 4HPwATDgc/ABMA"), "{out}");
    assert!(out.contains("7-point match, score 2-4"), "{out}");
}

#[test]
fn bad_input_names_the_option_and_exits_with_2() {
    let (code, _, err) = run(&[
        "backgammon",
        "moves",
        "--position",
        "4HPwATDgc/ABMA",
        "--dice",
        "71",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--dice") && err.contains("\"71\""), "{err}");
    let (code, _, err) = run(&["backgammon", "show", "--position", "nonsense"]);
    assert_eq!(code, 2);
    assert!(err.contains("--position"), "{err}");
}

#[test]
fn rollout_prints_a_table_and_a_finished_checkpoint_gives_it_again() {
    let (_, moves, _) = run(&[
        "backgammon",
        "moves",
        "--position",
        "326BAQC7AAAAAA",
        "--dice",
        "65",
    ]);
    let count: usize = moves.lines().last().unwrap()[6..].parse().unwrap();
    let args = [
        "backgammon",
        "rollout",
        "--position",
        "326BAQC7AAAAAA",
        "--dice",
        "65",
        "--trials",
        "72",
        "--threads",
        "2",
    ];
    let (code, table, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("rollout: 72/72 trials"), "{err}");
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines[0].starts_with("rollout of 326BAQC7AAAAAA dice 65: 72 trials"),
        "{table}"
    );
    assert_eq!(lines.len(), 2 + count, "{table}");
    // With a checkpoint: the same table; run again, the finished checkpoint
    // is read back and gives it once more without playing a trial.
    let ckpt = crate::support::scratch("backgammon_cli", "rollout.ckpt");
    let _ = std::fs::remove_file(&ckpt);
    let with: Vec<&str> = args
        .iter()
        .copied()
        .chain(["--checkpoint", ckpt.to_str().unwrap()])
        .collect();
    let (code, first, _) = run(&with);
    assert_eq!((code, first.as_str()), (0, table.as_str()));
    let (code, again, err) = run(&with);
    assert_eq!((code, again.as_str()), (0, table.as_str()));
    assert!(!err.contains("rollout: 36/72"), "{err}");
    let (code, _, err) = run(&[
        "backgammon",
        "rollout",
        "--position",
        "326BAQC7AAAAAA",
        "--dice",
        "75",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--dice") && err.contains("\"75\""), "{err}");
}

/// `backgammon cube-errors` end to end with GNU Backgammon as the judge:
/// a few decisions from self-play and from the money fixture's records.
#[test]
fn cube_errors_judges_with_gnubg() {
    let (code, out, err) = run(&[
        "backgammon",
        "cube-errors",
        "--decisions",
        "6",
        "--plies",
        "1",
        "--judge-plies",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("6 cube decisions (of 36 positions) from seeded self-play"));
    for row in [
        "gnubg 0-ply",
        "grasshopper 1-ply",
        "our formulas on gnubg 0-ply's chances",
    ] {
        assert!(out.lines().any(|l| l == row), "{row}: {out}");
    }
    assert!(out.contains("  all      doubles    6 "), "{out}");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/backgammon-money.pgn");
    let (code, out, err) = run(&[
        "backgammon",
        "cube-errors",
        "--records",
        fixture,
        "--plies",
        "1",
        "--judge-plies",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("from the records of"), "{out}");
    let (code, _, err) = run(&["backgammon", "cube-errors", "--jacoby", "maybe"]);
    assert_eq!(code, 2);
    assert!(err.contains("--jacoby"), "{err}");
}

/// `backgammon rollout-check --classes` rolls out only the positions of
/// the classes named (gnubg classes them): of a race position and the
/// opening (contact), `--classes race` keeps the race one.
#[test]
fn rollout_check_keeps_only_the_classes_asked_for() {
    let race = "fwCAAHa7AQAAAA";
    let ids = format!("{race},4HPwATDgc/ABMA");
    let (code, out, err) = run(&[
        "backgammon",
        "rollout-check",
        "--ids",
        &ids,
        "--classes",
        "race",
        "--trials",
        "36",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().filter(|l| l.contains(race)).collect();
    assert_eq!(rows.len(), 1, "{out}");
    assert!(rows[0].starts_with("race "), "{out}");
    assert!(!out.contains("4HPwATDgc/ABMA"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("race     1 ")), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("contact")), "{out}");
    let (code, _, err) = run(&["backgammon", "rollout-check", "--classes", "bearoff"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("'bearoff'") && err.contains("contact, crashed, race"),
        "{err}"
    );
}

#[test]
fn benchmark_scores_a_committed_shard_per_class() {
    let shard = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/backgammon-benchmark/shard-000.txt");
    let (code, out, err) = run(&[
        "backgammon",
        "benchmark",
        "--benchmark",
        shard.to_str().unwrap(),
        "--plies",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("100 positions of "), "{out}");
    // A row per class present and one for all, each with its count.
    let all = lines
        .iter()
        .find(|l| l.contains(" all "))
        .expect("an all row");
    let words: Vec<&str> = all.split_whitespace().collect();
    assert_eq!(&words[..4], ["grasshopper", "1-ply", "all", "100"], "{out}");
    assert!(lines.iter().any(|l| l.contains(" contact ")), "{out}");
    let (code, _, err) = run(&["backgammon", "benchmark", "--benchmark", "no/such/dir"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such"), "{err}");
}
