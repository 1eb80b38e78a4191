//! The solver against a plain memoised minimax written here from the rules
//! alone: every position reachable in the 2-checker game, every position
//! reachable from sampled 4-checker middle games, and random 4-checker
//! positions; plus the consistency of values with the children's values.

use grasshopper_rules::{Move, Position};
use grasshopper_solver::{Solution, Solver, Value};
use rand::Rng;
use std::collections::HashSet;
use testkit::oracle::{Exact, Oracle};
use testkit::rng::{playout, rng};

/// The oracle's answer in the solver's terms.
fn solution(e: Exact) -> Solution {
    let (value, plies) = match e {
        Exact::Win(d) => (Value::Win, Some(d)),
        Exact::Draw => (Value::Draw, None),
        Exact::Loss(d) => (Value::Loss, Some(d)),
    };
    Solution { value, plies }
}

/// The reference: the oracle's value and distance.
fn reference(oracle: &mut Oracle, pos: &Position) -> Solution {
    solution(oracle.solve(pos).expect("unbounded"))
}

/// The reference's optimal moves: those whose child is worth the best.
fn reference_best_moves(oracle: &mut Oracle, pos: &Position) -> Vec<Move> {
    let best = oracle.solve(pos).expect("unbounded");
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| {
            oracle
                .solve(&pos.play(m).unwrap())
                .expect("unbounded")
                .parent()
                == best
        })
        .collect()
}

/// Every position reachable from `root`, root included.
fn reachable(root: &Position) -> Vec<Position> {
    let mut seen = HashSet::from([root.key()]);
    let mut all = vec![*root];
    let mut i = 0;
    while i < all.len() {
        let p = all[i];
        i += 1;
        for &m in p.legal_moves().iter() {
            let mut c = p;
            c.play_unchecked(m);
            if seen.insert(c.key()) {
                all.push(c);
            }
        }
    }
    all
}

#[test]
fn every_position_of_the_two_checker_game_matches_minimax() {
    // Given every position reachable in the 2-checker game
    let all = reachable(&Position::start(2).unwrap());
    assert!(all.len() > 30_000, "{}", all.len());
    let mut oracle = Oracle::new();
    let mut solver = Solver::new(16);
    // When both solve each, then they agree on value and distance
    for p in &all {
        assert_eq!(solver.solve(p), reference(&mut oracle, p), "{p}");
    }
    // and on the set of optimal moves, on a sample.
    for p in all.iter().step_by(97) {
        let s = solver.solve(p);
        assert_eq!(
            solver.best_moves(p, &s),
            reference_best_moves(&mut oracle, p),
            "{p}"
        );
    }
}

#[test]
fn every_position_below_sampled_four_checker_middle_games_matches_minimax() {
    // Given positions reached by random play in the 4-checker game, late
    // enough that the whole game below them can be enumerated
    let mut rng = rng(0x5EED_0004);
    let mut checked = 0;
    let mut values = HashSet::new();
    for _ in 0..6 {
        let plies = rng.random_range(18..24);
        let root = playout(&Position::start(4).unwrap(), plies, &mut rng);
        let all = reachable(&root);
        let mut oracle = Oracle::new();
        // (a fresh, small table, so that replacement is exercised too)
        let mut solver = Solver::new(1);
        // When both solve every one of them, then they agree
        for p in &all {
            let s = solver.solve(p);
            assert_eq!(s, reference(&mut oracle, p), "{p}");
            values.insert(s.value);
        }
        checked += all.len();
        for p in all.iter().step_by(31) {
            let s = solver.solve(p);
            assert_eq!(
                solver.best_moves(p, &s),
                reference_best_moves(&mut oracle, p),
                "{p}"
            );
        }
    }
    assert!(checked > 10_000, "only {checked} positions checked");
    // (the sample must contain wins and losses, not only draws)
    assert!(values.contains(&Value::Win) && values.contains(&Value::Loss));
}

#[test]
fn values_are_the_best_of_the_childrens_values() {
    // Given random positions of the 4-checker game
    let mut rng = rng(0xC0FF_EE04);
    let mut solver = Solver::new(64);
    let mut decisive = 0;
    for _ in 0..40 {
        let plies = rng.random_range(14..30);
        let p = playout(&Position::start(4).unwrap(), plies, &mut rng);
        let s = solver.solve(&p);
        let moves = p.legal_moves();
        if moves.is_empty() {
            assert!(p.is_game_over());
            continue;
        }
        // When each child is solved
        let children: Vec<(Move, Solution)> = moves
            .iter()
            .map(|&m| {
                let mut c = p;
                c.play_unchecked(m);
                (m, solver.solve(&c))
            })
            .collect();
        // Then the value is the best a child leaves the opponent
        let wins: Vec<u32> = children
            .iter()
            .filter(|(_, c)| c.value == Value::Loss)
            .map(|(_, c)| c.plies.unwrap() + 1)
            .collect();
        let best = solver.best_moves(&p, &s);
        match s.value {
            Value::Win => {
                decisive += 1;
                // and a win's distance is one more than the quickest losing child's.
                assert_eq!(s.plies, wins.iter().min().copied(), "{p}");
                for (m, c) in &children {
                    let optimal =
                        c.value == Value::Loss && c.plies.unwrap() + 1 == s.plies.unwrap();
                    assert_eq!(best.contains(m), optimal, "{p} {m}");
                }
            }
            Value::Draw => {
                assert!(wins.is_empty(), "{p}");
                assert!(children.iter().any(|(_, c)| c.value == Value::Draw), "{p}");
                for (m, c) in &children {
                    assert_eq!(best.contains(m), c.value == Value::Draw, "{p} {m}");
                }
            }
            Value::Loss => {
                decisive += 1;
                // A loss: every child wins for the opponent; the loser takes the longest.
                assert!(children.iter().all(|(_, c)| c.value == Value::Win), "{p}");
                let longest = children.iter().map(|(_, c)| c.plies.unwrap() + 1).max();
                assert_eq!(s.plies, longest, "{p}");
            }
        }
    }
    assert!(decisive > 0);
}
