//! The `perft` subcommand against `fixtures/perft.txt`.

use grasshopper_rules::Move;
use std::collections::BTreeMap;
use std::process::Command;
use testkit::perft_cases as fixture;

fn grasshopper(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(crate::BIN)
        .args(args)
        .output()
        .expect("the grasshopper binary runs");
    (
        out.status.success(),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

#[test]
fn perft_divide_prints_one_line_per_root_move_then_the_total() {
    for case in fixture() {
        let depth = (1..=3u32)
            .rev()
            .find(|&d| {
                case.counts
                    .get(d as usize - 1)
                    .is_some_and(|&n| n <= 100_000)
            })
            .expect("a small depth");
        let want = case.counts[depth as usize - 1];
        // When `grasshopper perft D --fen F --divide` runs
        let d = depth.to_string();
        let (ok, stdout, stderr) = grasshopper(&["perft", &d, "--fen", &case.fen, "--divide"]);
        assert!(ok, "{}: {stderr}", case.fen);
        // Then every line but the last is `<move>: <count>`, one per legal move
        let lines: Vec<&str> = stdout.lines().collect();
        let (last, divide) = lines.split_last().expect("some output");
        let mut per_move = BTreeMap::new();
        for line in divide {
            let (m, n) = line
                .split_once(": ")
                .unwrap_or_else(|| panic!("{}: line {line:?} is not <move>: <count>", case.fen));
            let m: Move = m.parse().unwrap_or_else(|e| panic!("{line:?}: {e}"));
            let n: u64 = n.parse().unwrap_or_else(|e| panic!("{line:?}: {e}"));
            assert!(per_move.insert(m, n).is_none(), "{m} printed twice");
        }
        let mut legal = case.pos.legal_moves().to_vec();
        legal.sort();
        assert_eq!(
            per_move.keys().copied().collect::<Vec<_>>(),
            legal,
            "{}",
            case.fen
        );
        // And the last line is `nodes <total>`, the sum and the fixture count
        let total: u64 = per_move.values().sum();
        assert_eq!(*last, format!("nodes {total}"), "{}", case.fen);
        assert_eq!(total, want, "{}", case.fen);
    }
}

#[test]
fn perft_without_divide_prints_only_the_total() {
    let (ok, stdout, _) = grasshopper(&["perft", "4"]);
    assert!(ok);
    assert_eq!(stdout, "nodes 2880\n");
    let (ok, stdout, _) = grasshopper(&["perft", "0", "--divide"]);
    assert!(ok);
    assert_eq!(stdout, "nodes 1\n");
    let (ok, stdout, _) = grasshopper(&["perft", "5", "--checkers", "2"]);
    assert!(ok);
    assert_eq!(stdout, "nodes 31320\n");
    // A finished game: no root moves, nothing below.
    let won = "....../....../....../...... b 0 4 2-0 w2";
    let (ok, stdout, _) = grasshopper(&["perft", "2", "--fen", won, "--divide"]);
    assert!(ok);
    assert_eq!(stdout, "nodes 0\n");
}

#[test]
fn perft_refuses_a_bad_position_on_stderr_and_fails() {
    let (ok, stdout, stderr) = grasshopper(&[
        "perft",
        "2",
        "--fen",
        "....../....../....../...... x 14 14 0-0 -",
    ]);
    assert!(!ok);
    assert_eq!(stdout, "");
    assert!(stderr.contains("bad side to move \"x\""), "{stderr}");
    let (ok, stdout, stderr) = grasshopper(&["perft", "2", "--checkers", "7"]);
    assert!(!ok);
    assert_eq!(stdout, "");
    assert!(stderr.contains("7 checkers"), "{stderr}");
}
