//! perft against `fixtures/perft.txt`, against the naive model, against the
//! mirrored positions, and through the real `grasshopper perft` command.

#[path = "common/naive.rs"]
mod naive;
#[path = "common/rules.rs"]
mod rules;

use grasshopper::{perft, perft_divide, Move, Position};
use std::collections::BTreeMap;
use std::process::Command;

/// Depths whose count exceeds this are skipped, to keep `cargo test` fast.
const NODE_LIMIT: u64 = 20_000_000;

/// One line of the fixture.
struct Case {
    /// The comment above it: what it exercises.
    about: String,
    fen: String,
    pos: Position,
    /// `counts[d - 1]` is perft at depth d.
    counts: Vec<u64>,
}

fn fixture() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = Vec::new();
    let mut about = String::new();
    for (i, line) in text.lines().enumerate() {
        let at = format!("{path}:{}", i + 1);
        if let Some(comment) = line.strip_prefix('#') {
            about = comment.trim().to_string();
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split(" ; ");
        let fen = parts.next().unwrap().to_string();
        let pos: Position = fen
            .parse()
            .unwrap_or_else(|e| panic!("{at}: position refused: {e}"));
        let counts = parts
            .enumerate()
            .map(|(k, part)| {
                let want = format!("D{} ", k + 1);
                let n = part
                    .strip_prefix(&want)
                    .unwrap_or_else(|| panic!("{at}: expected \"{want}<count>\", found {part:?}"));
                n.parse()
                    .unwrap_or_else(|_| panic!("{at}: {n:?} is not a count"))
            })
            .collect::<Vec<u64>>();
        assert!(!counts.is_empty(), "{at}: no counts");
        cases.push(Case {
            about: std::mem::take(&mut about),
            fen,
            pos,
            counts,
        });
    }
    cases
}

#[test]
fn the_fixture_holds_at_least_20_described_positions() {
    let cases = fixture();
    assert!(cases.len() >= 20, "only {} positions", cases.len());
    for case in &cases {
        assert!(!case.about.is_empty(), "{} has no comment", case.fen);
        assert_eq!(case.pos.to_string(), case.fen, "not in canonical form");
    }
}

#[test]
fn perft_gives_the_fixture_counts() {
    // Given each fixture position, When perft runs to every depth within the
    // node limit, Then it gives the recorded count.
    let mut checked = 0;
    for case in fixture() {
        assert_eq!(perft(&case.pos, 0), 1, "{}", case.fen);
        for (d, &want) in (1..).zip(&case.counts) {
            if want > NODE_LIMIT {
                break;
            }
            assert_eq!(
                perft(&case.pos, d),
                want,
                "perft {d} of {} ({})",
                case.fen,
                case.about
            );
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} counts checked");
}

#[test]
fn divide_splits_the_fixture_counts_by_root_move() {
    for case in fixture() {
        for (d, &want) in (1..).zip(&case.counts) {
            if want > NODE_LIMIT / 10 {
                break;
            }
            let split = perft_divide(&case.pos, d);
            let moves: Vec<Move> = split.iter().map(|&(m, _)| m).collect();
            assert_eq!(moves, case.pos.legal_moves().to_vec(), "{}", case.fen);
            let total: u64 = split.iter().map(|&(_, n)| n).sum();
            assert_eq!(total, want, "divide {d} of {}", case.fen);
        }
    }
}

#[test]
fn mirrored_positions_have_the_same_counts() {
    // The rules treat both colours alike, so swapping them changes no count.
    for case in fixture() {
        let mirrored = rules::mirror(&case.pos);
        for (d, &want) in (1..).zip(&case.counts) {
            if want > NODE_LIMIT / 10 {
                break;
            }
            assert_eq!(
                perft(&mirrored, d),
                want,
                "perft {d} of {mirrored}, mirror of {}",
                case.fen
            );
        }
    }
}

/// Checks the fixture with the naive model up to `limit` leaves per count.
fn naive_agrees(limit: u64) -> usize {
    let mut checked = 0;
    for case in fixture() {
        let model = naive::Naive::from_fen(&case.fen);
        for (d, &want) in (1..).zip(&case.counts) {
            if want > limit {
                break;
            }
            assert_eq!(
                model.perft(d),
                want,
                "naive perft {d} of {} ({})",
                case.fen,
                case.about
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn the_naive_model_gives_the_fixture_counts_at_small_depths() {
    let checked = naive_agrees(300_000);
    assert!(checked >= 80, "only {checked} counts checked");
}

/// Every count of the fixture by the naive model: minutes of CPU, so run on
/// demand (`cargo test --release --test rules_perft -- --ignored`) whenever
/// the fixture grows.
#[test]
#[ignore]
fn the_naive_model_gives_every_fixture_count() {
    naive_agrees(u64::MAX);
}

// ---- The command line --------------------------------------------------------

fn grasshopper(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grasshopper"))
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
