//! The solver against a plain memoised minimax written here from the rules
//! alone: every position reachable in the 2-checker game, every position
//! reachable from sampled 4-checker middle games, and random 4-checker
//! positions; plus the consistency of values with the children's values.

use grasshopper::{Move, Position, Solution, Solver, Value};
use std::collections::{HashMap, HashSet};

/// The reference: value and distance by exhaustive minimax, memoised on the
/// exact key. Preference for the mover: a shorter win, then a longer win,
/// then a draw, then a longer loss, then a shorter loss.
struct Minimax {
    memo: HashMap<u128, Solution>,
}

fn rank(s: &Solution) -> i64 {
    match (s.value, s.plies) {
        (Value::Win, Some(d)) => 1000 - d as i64,
        (Value::Loss, Some(d)) => -1000 + d as i64,
        (Value::Draw, None) => 0,
        other => panic!("malformed solution {other:?}"),
    }
}

impl Minimax {
    fn new() -> Minimax {
        Minimax {
            memo: HashMap::new(),
        }
    }

    /// The result of playing `m` in `pos`, seen from `pos`'s mover.
    fn after(&mut self, pos: &Position, m: Move) -> Solution {
        let mut child = *pos;
        child.play_unchecked(m);
        let c = self.solve(&child);
        match c.value {
            Value::Win => Solution {
                value: Value::Loss,
                plies: c.plies.map(|d| d + 1),
            },
            Value::Loss => Solution {
                value: Value::Win,
                plies: c.plies.map(|d| d + 1),
            },
            Value::Draw => c,
        }
    }

    fn solve(&mut self, pos: &Position) -> Solution {
        if let Some(&s) = self.memo.get(&pos.key()) {
            return s;
        }
        let moves = pos.legal_moves();
        let s = if moves.is_empty() {
            match pos.outcome() {
                grasshopper::Outcome::Win(_) => Solution {
                    value: Value::Loss,
                    plies: Some(0),
                },
                _ => Solution {
                    value: Value::Draw,
                    plies: None,
                },
            }
        } else {
            moves
                .iter()
                .map(|&m| self.after(pos, m))
                .max_by_key(rank)
                .expect("moves is not empty")
        };
        self.memo.insert(pos.key(), s);
        s
    }

    fn best_moves(&mut self, pos: &Position) -> Vec<Move> {
        let best = self.solve(pos);
        pos.legal_moves()
            .iter()
            .copied()
            .filter(|&m| self.after(pos, m) == best)
            .collect()
    }
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

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The position after `plies` random moves from the start of the N-checker
/// game (or the end of the game, if it comes first).
fn playout(n: u8, plies: usize, rng: &mut Rng) -> Position {
    let mut p = Position::start(n).unwrap();
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.play_unchecked(moves[rng.below(moves.len())]);
    }
    p
}

#[test]
fn every_position_of_the_two_checker_game_matches_minimax() {
    // Given every position reachable in the 2-checker game
    let all = reachable(&Position::start(2).unwrap());
    assert!(all.len() > 30_000, "{}", all.len());
    let mut reference = Minimax::new();
    let mut solver = Solver::new(16);
    // When both solve each, then they agree on value and distance
    for p in &all {
        assert_eq!(solver.solve(p), reference.solve(p), "{p}");
    }
    // and on the set of optimal moves, on a sample.
    for p in all.iter().step_by(97) {
        let s = solver.solve(p);
        assert_eq!(solver.best_moves(p, &s), reference.best_moves(p), "{p}");
    }
}

#[test]
fn every_position_below_sampled_four_checker_middle_games_matches_minimax() {
    // Given positions reached by random play in the 4-checker game, late
    // enough that the whole game below them can be enumerated
    let mut rng = Rng(0x5EED_0004);
    let mut checked = 0;
    let mut values = HashSet::new();
    for _ in 0..6 {
        let root = playout(4, 18 + rng.below(6), &mut rng);
        let all = reachable(&root);
        let mut reference = Minimax::new();
        // (a fresh, small table, so that replacement is exercised too)
        let mut solver = Solver::new(1);
        // When both solve every one of them, then they agree
        for p in &all {
            let s = solver.solve(p);
            assert_eq!(s, reference.solve(p), "{p}");
            values.insert(s.value);
        }
        checked += all.len();
        for p in all.iter().step_by(31) {
            let s = solver.solve(p);
            assert_eq!(solver.best_moves(p, &s), reference.best_moves(p), "{p}");
        }
    }
    assert!(checked > 10_000, "only {checked} positions checked");
    // (the sample must contain wins and losses, not only draws)
    assert!(values.contains(&Value::Win) && values.contains(&Value::Loss));
}

#[test]
fn values_are_the_best_of_the_childrens_values() {
    // Given random positions of the 4-checker game
    let mut rng = Rng(0xC0FF_EE04);
    let mut solver = Solver::new(64);
    let mut decisive = 0;
    for _ in 0..40 {
        let p = playout(4, 14 + rng.below(16), &mut rng);
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
