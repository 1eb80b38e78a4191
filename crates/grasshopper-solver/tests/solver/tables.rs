//! Endgame tables: probes agree with the solver, files round-trip, damaged
//! files are refused with a reason.

use grasshopper_rules::Position;
use grasshopper_solver::{Solver, TableError, Tables, Value};
use rand::Rng;
use testkit::rng::{playout, rng};

fn check_sample(tables: &Tables, samples: usize, seed: u64) -> (usize, [usize; 3]) {
    let mut rng = rng(seed);
    let mut solver = Solver::new(64);
    let mut seen = [0usize; 3];
    let mut checked = 0;
    while checked < samples {
        let Some(p) = tables.position_at(rng.random_range(0..tables.len())) else {
            continue;
        };
        // A table position is a real position: its string reads back.
        assert_eq!(p.to_string().parse::<Position>(), Ok(p));
        let probe = tables.probe(&p).expect("a table position is in the table");
        let solved = solver.solve(&p);
        assert_eq!(probe, solved, "{p}");
        // The table's move is one of the solver's optimal moves.
        let moves = p.legal_moves();
        match tables.best_move(&p, &moves) {
            Some((m, kept)) => {
                assert_eq!(kept, solved, "{p}");
                assert!(solver.best_moves(&p, &solved).contains(&m), "{p} {m}");
            }
            None => assert!(moves.is_empty(), "{p}"),
        }
        // The colour-swapped position (other side to move) probes the same.
        let q = testkit::given::mirror(&p);
        assert_eq!(tables.probe(&q), Some(probe), "{q}");
        seen[match solved.value {
            Value::Win => 0,
            Value::Draw => 1,
            Value::Loss => 2,
        }] += 1;
        checked += 1;
    }
    (checked, seen)
}

#[test]
fn table_probes_agree_with_the_solver() {
    // Given the tables of at most 4 and at most 6 checkers on the board
    for (bound, samples) in [(4u8, 1500), (6, 300)] {
        let tables = Tables::generate(bound).unwrap();
        // When sampled positions are probed and solved, then they agree,
        let (n, seen) = check_sample(&tables, samples, 0xAB + bound as u64);
        assert_eq!(n, samples);
        // and the sample holds wins, draws and losses.
        assert!(seen.iter().all(|&k| k > 0), "{seen:?}");
    }
}

#[test]
fn positions_outside_the_phase_are_not_probed() {
    let tables = Tables::generate(4).unwrap();
    for text in [
        // checkers still to enter
        "w...../....../....../b..... w 1 1 0-0 -",
        // 6 checkers on the board, bound 4
        "w.w.../.w.w../....../bb.bb. w 0 0 0-0 -",
        // the game is won
        "....../....../....../b.b... b 0 0 2-1 w2",
    ] {
        let p: Position = text.parse().unwrap();
        assert_eq!(tables.probe(&p), None, "{text}");
    }
    let inside: Position = "w.w.../....../....../b.b... w 0 0 1-1 b1".parse().unwrap();
    assert!(tables.probe(&inside).is_some());
}

#[test]
fn a_solver_with_tables_gives_the_same_results() {
    // Given a solver with tables and one without
    let tables = Tables::generate(4).unwrap();
    let mut with = Solver::new(16);
    with.set_tables(Some(tables));
    let mut without = Solver::new(16);
    let mut rng = rng(7);
    for _ in 0..30 {
        // When both solve positions of random 4-checker games
        let plies = rng.random_range(20..30);
        let p = playout(&Position::start(4).unwrap(), plies, &mut rng);
        // Then they agree.
        assert_eq!(with.solve(&p), without.solve(&p), "{p}");
    }
    assert!(with.counts().table_hits > 0);
}

#[test]
fn table_files_round_trip_and_damage_is_reported() {
    let tables = Tables::generate(4).unwrap();
    let mut bytes = Vec::new();
    tables.write_to(&mut bytes).unwrap();
    assert_eq!(&bytes[..8], b"GHOPTBL\0");
    assert_eq!(bytes.len() as u64, 32 + tables.len());
    let back = Tables::read_from(&bytes[..]).unwrap();
    assert_eq!(back.bound(), 4);
    assert_eq!(back.census(), tables.census());

    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert!(matches!(
        Tables::read_from(&bad[..]),
        Err(TableError::NotATable)
    ));
    let mut bad = bytes.clone();
    bad[8] = 9;
    let e = Tables::read_from(&bad[..]).unwrap_err();
    assert!(matches!(e, TableError::Version(9)));
    assert!(e.to_string().contains("expected version 1"), "{e}");
    let mut bad = bytes.clone();
    bad[12] = 3;
    assert!(matches!(
        Tables::read_from(&bad[..]),
        Err(TableError::Bound(3))
    ));
    let truncated = &bytes[..bytes.len() - 10];
    let e = Tables::read_from(truncated).unwrap_err();
    assert!(e.to_string().contains("truncated"), "{e}");
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x40;
    assert!(matches!(
        Tables::read_from(&bad[..]),
        Err(TableError::Checksum)
    ));
    assert!(matches!(Tables::generate(5), Err(TableError::Bound(5))));
}
