//! perft against `fixtures/perft.txt`, against the naive model and against
//! the mirrored positions.

use grasshopper_rules::{perft, perft_divide, Move};
use testkit::naive;
use testkit::perft_cases as fixture;

/// Depths whose count exceeds this are skipped, to keep `cargo test` fast.
const NODE_LIMIT: u64 = 20_000_000;

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
        let mirrored = testkit::given::mirror(&case.pos);
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
/// demand (`cargo test --release -p grasshopper-rules --test rules -- --ignored`) whenever
/// the fixture grows.
#[test]
#[ignore]
fn the_naive_model_gives_every_fixture_count() {
    naive_agrees(u64::MAX);
}

// ---- The command line --------------------------------------------------------
