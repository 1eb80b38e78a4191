//! The search's answers against the rules: proved results agree with a plain
//! minimax, mate lines really end the game where the score says, the search
//! is deterministic, a stop always yields a legal move, MultiPV lines are
//! distinct and ordered, and `searchmoves` is obeyed; and where the
//! evaluation fitted to the tables keeps a win the old one threw away.

use grasshopper_engine::eval::{weight_set, WeightSet};
use grasshopper_engine::{Limits, Report, Score, SearchControl, SearchOptions, Searcher};
use grasshopper_rules::{Move, Outcome, Position};
use std::time::Duration;
use testkit::oracle::{Exact, Oracle};
use testkit::rng::{playout, random_game, rng};

/// Positions `before_end` plies before the end of seeded random games with
/// `n` checkers (near the end, where the whole tree is small).
fn late_positions(n: u8, before_end: usize, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let line = random_game(n, &mut rng);
        if line.len() > before_end {
            out.push(line[line.len() - 1 - before_end]);
        }
    }
    out
}

/// Positions met in seeded random games with `n` checkers, after `plies`.
fn random_positions(n: u8, plies: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let pos = playout(&Position::start(n).unwrap(), plies as usize, &mut rng);
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

fn search(pos: &Position, limits: &Limits, options: SearchOptions) -> (Option<Move>, Vec<Report>) {
    let mut s = Searcher::new(options);
    let control = SearchControl::new(false);
    let mut reports = Vec::new();
    let r = s.search(pos, limits, &control, &mut |r| reports.push(r.clone()));
    (r.best, reports)
}

fn small() -> SearchOptions {
    SearchOptions {
        hash_mb: 4,
        ..Default::default()
    }
}

/// Replays `pv` from `pos` and returns the final position (the PV must be legal).
fn replay(pos: &Position, pv: &[Move]) -> Position {
    let mut p = *pos;
    for &m in pv {
        p = p
            .play(m)
            .unwrap_or_else(|e| panic!("{pos}: pv {pv:?}: {e}"));
    }
    p
}

#[test]
fn proved_results_agree_with_minimax_and_mate_lines_end_as_announced() {
    let mut positions = vec![Position::start(2).unwrap()];
    for (i, n) in [4u8, 6, 8, 14].into_iter().enumerate() {
        for before_end in [3, 6, 9, 12, 16] {
            positions.extend(late_positions(
                n,
                before_end,
                2,
                10 * i as u64 + before_end as u64,
            ));
        }
    }
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for pos in positions {
        // Given the exact value of the position (small enough trees only),
        let Some(exact) = Oracle::bounded(200_000).solve(&pos) else {
            continue;
        };
        // when searched without a depth limit (it stops once it has a proof),
        let limits = Limits {
            depth: Some(120),
            ..Default::default()
        };
        let (best, reports) = search(&pos, &limits, small());
        let last = reports.last().expect("a report");
        let best = best.expect("a move");
        assert_eq!(last.pv.first(), Some(&best), "{pos}");
        // then the score is the proof, and its line ends the game as announced.
        let end = replay(&pos, &last.pv);
        let us = pos.side_to_move();
        match last.score {
            Score::Mate(n) if n > 0 => {
                wins += 1;
                let Exact::Win(plies) = exact else {
                    panic!("{pos}: search says mate {n}, minimax {exact:?}")
                };
                let plies = plies as i32;
                assert_eq!(n, (plies + 1) / 2, "{pos}: mate distance");
                assert_eq!(end.outcome(), Outcome::Win(us), "{pos}: pv {:?}", last.pv);
                assert_eq!(last.pv.len() as i32, plies, "{pos}: pv {:?}", last.pv);
            }
            Score::Mate(n) => {
                losses += 1;
                let Exact::Loss(plies) = exact else {
                    panic!("{pos}: search says mate {n}, minimax {exact:?}")
                };
                let plies = plies as i32;
                assert_eq!(-n, plies / 2, "{pos}: mate distance");
                assert_eq!(
                    end.outcome(),
                    Outcome::Win(us.opposite()),
                    "{pos}: pv {:?}",
                    last.pv
                );
                assert_eq!(last.pv.len() as i32, plies, "{pos}: pv {:?}", last.pv);
            }
            Score::Draw => {
                draws += 1;
                assert_eq!(exact, Exact::Draw, "{pos}: search says draw");
            }
            Score::Cp(cp) => {
                panic!("{pos}: no proof after a full search (cp {cp}, minimax {exact:?})")
            }
        }
    }
    eprintln!("proved: {wins} wins, {losses} losses, {draws} draws");
    // The sample covers all three results.
    assert!(
        wins > 0 && losses > 0 && draws > 0,
        "{wins} {losses} {draws}"
    );
}

#[test]
fn fixed_depth_and_fixed_nodes_searches_repeat_exactly() {
    let positions = random_positions(14, 10, 3, 4);
    for pos in positions {
        for limits in [
            Limits {
                depth: Some(7),
                ..Default::default()
            },
            Limits {
                nodes: Some(20_000),
                ..Default::default()
            },
        ] {
            let a = search(&pos, &limits, small());
            let b = search(&pos, &limits, small());
            let strip = |r: &[Report]| -> Vec<(u32, Score, u64, Vec<Move>)> {
                r.iter()
                    .map(|r| (r.depth, r.score, r.nodes, r.pv.clone()))
                    .collect()
            };
            assert_eq!(a.0, b.0, "{pos}");
            assert_eq!(strip(&a.1), strip(&b.1), "{pos}");
        }
    }
}

#[test]
fn a_stop_at_any_moment_yields_a_legal_move() {
    let pos = random_positions(14, 8, 1, 5)[0];
    let legal = pos.legal_moves();
    for wait_us in [0u64, 10, 100, 1000, 5000] {
        let mut s = Searcher::new(small());
        let control = SearchControl::new(false);
        let limits = Limits {
            infinite: true,
            ..Default::default()
        };
        let best = std::thread::scope(|scope| {
            let h = scope.spawn(|| s.search(&pos, &limits, &control, &mut |_| {}));
            std::thread::sleep(Duration::from_micros(wait_us));
            control.stop();
            h.join().unwrap()
        });
        let m = best.best.expect("a move");
        assert!(legal.contains(m), "{m} after {wait_us} us");
        if let Some(p) = best.ponder {
            let after = pos.play(m).unwrap();
            assert!(after.legal_moves().contains(p), "ponder {p} after {m}");
        }
    }
    // Stopped before it starts, too.
    let mut s = Searcher::new(small());
    let control = SearchControl::new(false);
    control.stop();
    let r = s.search(&pos, &Limits::default(), &control, &mut |_| {});
    assert!(legal.contains(r.best.unwrap()));
}

fn order(s: Score) -> i64 {
    match s {
        Score::Mate(n) if n > 0 => 1_000_000 - n as i64,
        Score::Mate(n) => -1_000_000 - n as i64,
        Score::Draw => 0,
        Score::Cp(c) => c as i64,
    }
}

#[test]
fn multipv_lines_are_distinct_legal_and_ordered() {
    for pos in random_positions(14, 12, 3, 6) {
        let legal = pos.legal_moves();
        let k = 4.min(legal.len());
        let opts = SearchOptions {
            multipv: k,
            ..small()
        };
        let limits = Limits {
            depth: Some(6),
            ..Default::default()
        };
        let (best, reports) = search(&pos, &limits, opts);
        let depth = reports.last().unwrap().depth;
        let lines: Vec<&Report> = reports.iter().filter(|r| r.depth == depth).collect();
        assert_eq!(lines.len(), k, "{pos}");
        let firsts: Vec<Move> = lines.iter().map(|r| r.pv[0]).collect();
        for (i, r) in lines.iter().enumerate() {
            assert_eq!(r.multipv as usize, i + 1);
            assert!(legal.contains(r.pv[0]));
            assert!(
                !firsts[..i].contains(&r.pv[0]),
                "{pos}: repeated {}",
                r.pv[0]
            );
            if i > 0 {
                assert!(
                    order(lines[i - 1].score) >= order(r.score),
                    "{pos}: {lines:?}"
                );
            }
        }
        assert_eq!(best, Some(firsts[0]));
    }
}

#[test]
fn searchmoves_restrict_the_root() {
    for pos in random_positions(14, 9, 3, 7) {
        let legal = pos.legal_moves();
        let allowed: Vec<Move> = legal.iter().rev().take(2).copied().collect();
        let limits = Limits {
            depth: Some(5),
            searchmoves: allowed.clone(),
            ..Default::default()
        };
        let (best, reports) = search(&pos, &limits, small());
        assert!(allowed.contains(&best.unwrap()), "{pos}");
        assert!(reports.iter().all(|r| allowed.contains(&r.pv[0])));
    }
}

#[test]
fn a_ponder_search_waits_for_ponderhit_then_plays_a_legal_move() {
    // Given a ponder search with a short move time,
    let pos = random_positions(14, 10, 1, 8)[0];
    let mut s = Searcher::new(small());
    let control = SearchControl::new(true);
    let limits = Limits {
        movetime: Some(Duration::from_millis(30)),
        ..Default::default()
    };
    let result = std::thread::scope(|scope| {
        let h = scope.spawn(|| s.search(&pos, &limits, &control, &mut |_| {}));
        // when the move time has long passed, it is still pondering,
        std::thread::sleep(Duration::from_millis(100));
        assert!(!h.is_finished(), "returned while pondering");
        // and after ponderhit it finishes on its own, with a legal move.
        control.ponderhit();
        h.join().unwrap()
    });
    assert!(pos.legal_moves().contains(result.best.unwrap()));
}

#[test]
fn retrograde_tables_answer_inside_the_search_and_keep_the_value() {
    use grasshopper_solver::retro::{Retro, RetroOptions, RetroTables};
    use grasshopper_solver::SharedRetro;
    use std::sync::Arc;
    // Given the 4-checker game's phases of level <= 6, solved
    let dir = std::env::temp_dir().join(format!("engine_retro_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = RetroOptions {
        threads: 2,
        max_level: Some(6),
        ..Default::default()
    };
    Retro::new(4, &dir, options, &mut std::io::sink())
        .run()
        .unwrap();
    let tables = Arc::new(RetroTables::open(&dir, None).unwrap());
    let with = SearchOptions {
        retro: Some(SharedRetro(tables.clone())),
        ..small()
    };
    // When the engine searches late positions of random games one ply deep
    let mut checked = 0;
    for pos in [3, 5, 7]
        .into_iter()
        .flat_map(|k| late_positions(4, k, 800, 0x7AB + k as u64))
    {
        let Some(v) = tables.probe(&pos) else {
            continue;
        };
        if pos.legal_moves().len() < 2 || pos.decided().is_some() {
            continue;
        }
        let limits = Limits {
            depth: Some(1),
            ..Default::default()
        };
        let (best, reports) = search(&pos, &limits, with.clone());
        // Then its move keeps the tables' value (the children were probed),
        let child = pos.play(best.unwrap()).unwrap();
        let kept = if child.is_won() {
            1
        } else {
            -tables.probe(&child).unwrap()
        };
        assert_eq!(kept, v, "{pos}: {}", best.unwrap());
        // and the score says what the value is.
        let last = reports.last().unwrap().score;
        match v {
            0 => assert_eq!(last, Score::Draw, "{pos}"),
            1 => assert!(
                matches!(last, Score::Cp(c) if c > 20_000)
                    || matches!(last, Score::Mate(n) if n > 0),
                "{pos} {last:?}"
            ),
            _ => assert!(
                matches!(last, Score::Cp(c) if c < -20_000)
                    || matches!(last, Score::Mate(n) if n < 0),
                "{pos} {last:?}"
            ),
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_weights_fitted_to_the_tables_keep_a_six_checker_win_the_old_ones_threw_away() {
    // Given a late 6-checker position (White has scored once and holds the
    // run; Black has six on the board against four) that Black wins with
    // 9/15 alone (the solver proves it; the tables, the only one:
    // docs/results/engine-late-2026-12-03.md)
    let pos: Position = "bwb.../wwb..w/b...../b.b... b 0 0 1-0 w1".parse().unwrap();
    let mut solver = grasshopper_solver::Solver::new(64);
    let solution = solver.solve(&pos);
    assert_eq!(solution.value, grasshopper_solver::Value::Win);
    let winning = solver.best_moves(&pos, &solution);
    let only: Move = "9/15".parse().unwrap();
    assert_eq!(winning, vec![only]);
    // When the engine searches 14,400 nodes (10 ms on an idle core)
    let limits = Limits {
        nodes: Some(14_400),
        ..Default::default()
    };
    let (best, _) = search(&pos, &limits, SearchOptions::default());
    // Then it keeps the win (with the one set of weights fitted to the
    // tables before 2026-12-03, for both holders of the run, it played
    // 3/9, a draw)
    assert_eq!(best, Some(only));
}

#[test]
fn the_middle_game_net_keeps_a_six_checker_win_the_linear_weights_threw_away() {
    // Given a 6-checker middle-game position (nobody has scored) where the
    // white wall on 10 imprisons Black's lone checkers on 7, 8 and 9, and
    // White wins with 11/13 alone, the other seven moves drawing (the N = 6
    // tables: crates/grasshopper-lab/data/quality/n6-test.truth.gz)
    let pos: Position = "....w./bbbWw./..bb../w.bw.. w 0 0 0-0 -".parse().unwrap();
    assert_eq!(weight_set(&pos), WeightSet::Mid);
    assert!(grasshopper_engine::midnet::mid_net().is_some());
    // When the engine with the shipped net searches 14,400 nodes
    let limits = Limits {
        nodes: Some(14_400),
        ..Default::default()
    };
    let (best, _) = search(&pos, &limits, SearchOptions::default());
    // Then it keeps the win and the prison (with the linear WEIGHTS_MID it
    // played 10/13, freeing the three checkers: a draw;
    // docs/engine-errors.md)
    assert_eq!(best, Some("11/13".parse().unwrap()));
}

#[test]
fn the_late_net_keeps_a_six_checker_win_the_linear_late_weights_threw_away() {
    // Given a late 6-checker position (White has scored once and holds the
    // run) that Black wins with 8/14 alone, the other eighteen moves
    // drawing (the solver proves it; one of the late test set:
    // docs/results/engine-latenet-2026-12-04.md)
    let pos: Position = ".w.w../bb.b../wbb.../w.b... b 0 0 1-0 w1".parse().unwrap();
    assert_eq!(weight_set(&pos), WeightSet::LateThem);
    assert!(grasshopper_engine::midnet::late_net().is_some());
    let mut solver = grasshopper_solver::Solver::new(64);
    let solution = solver.solve(&pos);
    assert_eq!(solution.value, grasshopper_solver::Value::Win);
    let only: Move = "8/14".parse().unwrap();
    assert_eq!(solver.best_moves(&pos, &solution), vec![only]);
    // When the engine with the shipped late net searches 14,400 nodes
    let limits = Limits {
        nodes: Some(14_400),
        ..Default::default()
    };
    let (best, _) = search(&pos, &limits, SearchOptions::default());
    // Then it keeps the win (with WEIGHTS_LATE_THEM it played 15/21, a draw)
    assert_eq!(best, Some(only));
}
