//! Retrograde phase tables against independent answers: the minimax oracle
//! on the 2-checker game, the alpha-beta solver and the last-phase endgame
//! tables on the late phases of the 4-checker game; files, checkpoints and
//! resumed runs.

use grasshopper_rules::Position;
use grasshopper_solver::retro::{self, HalfKey, Layout, Retro, RetroOptions, RetroTables};
use grasshopper_solver::{Solver, Tables, Value};
use rand::Rng;
use std::path::PathBuf;
use std::time::Duration;
use testkit::oracle::{Exact, Oracle};
use testkit::rng::{playout, rng};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("retro_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn options(max_level: u8) -> RetroOptions {
    RetroOptions {
        threads: 2,
        max_level: Some(max_level),
        progress_every: Duration::from_secs(3600),
        ..Default::default()
    }
}

fn signed(v: Value) -> i8 {
    match v {
        Value::Win => 1,
        Value::Draw => 0,
        Value::Loss => -1,
    }
}

#[test]
fn the_two_checker_game_needs_no_table_and_every_position_is_a_draw() {
    // Nobody can score twice with one wall's worth of checkers: no unit.
    assert!(retro::units(2).is_empty());
    let dir = temp_dir("n2");
    let mut log = Vec::new();
    let mut r = Retro::new(2, &dir, options(30), &mut log);
    let sum = r.run().unwrap();
    assert_eq!((sum.units, sum.positions), (0, 0));
    let mut oracle = Oracle::new();
    let mut rng = rng(2);
    for _ in 0..300 {
        let plies = rng.random_range(0..12);
        let p = playout(&Position::start(2).unwrap(), plies, &mut rng);
        let want = match oracle.solve(&p).unwrap() {
            Exact::Win(_) => 1,
            Exact::Draw => 0,
            Exact::Loss(_) => -1,
        };
        assert_eq!(r.value(&p), Some(want), "{p}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn late_phases_of_the_four_checker_game_match_the_endgame_tables_and_alpha_beta() {
    // Given the phases of level <= 6 of the 4-checker game, solved
    let dir = temp_dir("n4");
    let mut log = Vec::new();
    let sum = Retro::new(4, &dir, options(6), &mut log).run().unwrap();
    assert_eq!(sum.computed, 6_507_426);
    assert!(!sum.interrupted);
    let tables = RetroTables::open(&dir, None).unwrap();
    // Then every stored position with nothing left to enter has the value
    // of the last-phase endgame tables (a different generator, checked
    // against the solver in tables.rs),
    let endgame = Tables::generate(6).unwrap();
    let mut compared = 0u64;
    let mut seen = [0u64; 3];
    for unit in retro::units(4).into_iter().filter(|u| u.level() <= 6) {
        for key in retro::halves_of(unit) {
            let layout = Layout::new(key);
            for i in 0..layout.size {
                let p = layout.position_at(i).unwrap();
                let v = tables.probe(&p).expect("solved");
                seen[(1 - v) as usize] += 1;
                if key.tm + key.to == 0 {
                    assert_eq!(v, signed(endgame.probe(&p).unwrap().value), "{p}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 6_000_000, "{compared}");
    assert!(seen.iter().all(|&k| k > 0), "{seen:?}");
    // and sampled positions, some with checkers to enter, that of the
    // alpha-beta solver, as do their colour swaps.
    let mut solver = Solver::new(64);
    let mut rng = rng(0x4E7);
    let keys: Vec<HalfKey> = retro::units(4)
        .into_iter()
        .filter(|u| u.level() <= 6)
        .flat_map(retro::halves_of)
        .collect();
    let mut with_entries = 0;
    for _ in 0..1500 {
        let layout = Layout::new(keys[rng.random_range(0..keys.len())]);
        let p = layout
            .position_at(rng.random_range(0..layout.size))
            .unwrap();
        let v = tables.probe(&p).unwrap();
        assert_eq!(v, signed(solver.value(&p)), "{p}");
        assert_eq!(tables.probe(&testkit::given::mirror(&p)), Some(v), "{p}");
        with_entries +=
            (p.to_enter(p.side_to_move()) + p.to_enter(p.side_to_move().opposite()) > 0) as u32;
    }
    assert!(with_entries > 100, "{with_entries}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_stopped_at_checkpoints_resumes_to_the_same_files() {
    // Given one run straight through and one stopped after every slice level
    let (a, b) = (temp_dir("straight"), temp_dir("pieces"));
    let mut log = Vec::new();
    Retro::new(4, &a, options(6), &mut log).run().unwrap();
    // (40 pieces stopped at their first chance, some in the middle of a
    // slice level, then one run to the end)
    let mut pieces = 0;
    let mut done = false;
    while pieces < 40 && !done {
        let o = RetroOptions {
            stop_after: Some(Duration::ZERO),
            ..options(6)
        };
        done = !Retro::new(4, &b, o, &mut log).run().unwrap().interrupted;
        pieces += 1;
    }
    assert!(!done, "a piece stops before the end");
    assert!(
        !Retro::new(4, &b, options(6), &mut log)
            .run()
            .unwrap()
            .interrupted
    );
    let text = String::from_utf8(log).unwrap();
    assert!(text.matches("resuming").count() >= 30, "{text}");
    // Then the unit files are byte for byte the same.
    let mut names: Vec<_> = std::fs::read_dir(&a)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(
        names.len(),
        retro::units(4).iter().filter(|u| u.level() <= 6).count()
    );
    for n in &names {
        assert_eq!(
            std::fs::read(a.join(n)).unwrap(),
            std::fs::read(b.join(n)).unwrap(),
            "{n:?}"
        );
    }
    // And a damaged file is refused.
    let f = a.join(&names[0]);
    let mut bytes = std::fs::read(&f).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&f, bytes).unwrap();
    let e = RetroTables::open(&a, None).unwrap_err().to_string();
    assert!(e.contains("checksum"), "{e}");
    std::fs::remove_dir_all(&a).unwrap();
    std::fs::remove_dir_all(&b).unwrap();
}

#[test]
fn the_minimax_check_values_every_reachable_two_checker_position_alike() {
    // The 2-checker game has no table: the check compares minimax with the
    // settled draws of the rules' reductions, on every reachable position.
    let dir = temp_dir("n2_minimax");
    let mut log = Vec::new();
    let r = retro::check::check_minimax(&dir, 2, &mut log).unwrap();
    assert!(r.samples > 1_000, "{} positions", r.samples);
    assert_eq!(r.wdl, [0, r.samples, 0]);
    assert!(r.mismatches.is_empty(), "{:?}", &r.mismatches[..1]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_checkpoint_is_reported_to_the_callers_log_not_to_stderr() {
    // Given a run stopped at its first chance (it writes a checkpoint)
    let dir = temp_dir("ckpt_log");
    let mut log = Vec::new();
    let o = RetroOptions {
        stop_after: Some(Duration::ZERO),
        ..options(6)
    };
    assert!(Retro::new(4, &dir, o, &mut log).run().unwrap().interrupted);
    // Then the checkpoint's line is in the log the caller gave.
    let text = String::from_utf8(log).unwrap();
    assert!(text.contains("retro: checkpoint at "), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
