//! The fast rules core against the naive model of `common/naive.rs`, on
//! positions from random playouts and on random crowded boards: same legal
//! moves, same counts, same outcome, same position after every move.

use grasshopper_rules::{Color, Move, Outcome, Point, Position};
use rand::Rng;
use std::collections::HashSet;
use std::time::Instant;
use testkit::naive::{self, Naive, NaiveMove, NaiveOutcome, BLACK, WHITE};
use testkit::rng::rng;

fn point(n: usize) -> Point {
    Point::new(n as u8).unwrap()
}

/// The engine's move for a move of the model.
fn to_move(m: NaiveMove) -> Move {
    match m {
        NaiveMove::Enter(q) => Move::enter(point(q)),
        NaiveMove::Step(p, q) => Move::step(point(p), point(q)).unwrap(),
        NaiveMove::Off(p) => Move::bear_off(point(p)),
        NaiveMove::Pass => Move::PASS,
    }
}

/// What the playouts met, so the test fails if they stop exercising a rule.
#[derive(Default, Debug)]
struct Seen {
    positions: u64,
    passes: u64,
    draws: u64,
    wins: [u64; 2],
    bear_offs: u64,
    lone_builds: u64,
    top_builds: u64,
    top_jumps: u64,
    blocked_lone: u64,
    waiting_in_d: u64,
}

impl Seen {
    /// Records the features of a position (judged with the model).
    fn note(&mut self, model: &Naive, legal: &[NaiveMove]) {
        self.positions += 1;
        match model.outcome() {
            NaiveOutcome::Draw => self.draws += 1,
            NaiveOutcome::Win(c) => self.wins[c] += 1,
            NaiveOutcome::Ongoing => {}
        }
        let cell = |p: usize| model.board[p - 1];
        let is_wall = |p: usize| cell(p).is_some_and(|c| c.count == 2);
        for &m in legal {
            match m {
                NaiveMove::Pass => self.passes += 1,
                NaiveMove::Off(_) => self.bear_offs += 1,
                NaiveMove::Step(p, q) => {
                    let top = is_wall(p);
                    if cell(q).is_some() {
                        if top {
                            self.top_builds += 1;
                        } else {
                            self.lone_builds += 1;
                        }
                    }
                    if top && (p + 1..q).any(is_wall) {
                        self.top_jumps += 1;
                    }
                }
                NaiveMove::Enter(_) => {}
            }
        }
        for p in 1..=18 {
            let lone_of_mover = cell(p).is_some_and(|c| c.count == 1 && c.owner == model.side);
            if lone_of_mover {
                let next = naive::quadrant(p) + 1;
                let behind_wall = (next * 6 + 1..=next * 6 + 6)
                    .any(|q| cell(q).is_none() && (p + 1..q).any(is_wall));
                self.blocked_lone += behind_wall as u64;
            }
        }
        self.waiting_in_d += (19..=24)
            .filter(|&p| cell(p).is_some_and(|c| c.count == 1))
            .count() as u64;
    }
}

/// Compares engine and model on one position; `deep` adds the costlier checks
/// (every well-formed move through checked play, perft 2).
fn compare(pos: &Position, deep: bool, all_moves: &[Move], seen: &mut Seen) -> Naive {
    let text = pos.to_string();
    let model = Naive::from_fen(&text);
    assert_eq!(
        model.to_fen(),
        text,
        "the model reads and writes {text} differently"
    );

    // Legal moves: the same set, no duplicates, counted right.
    let legal = model.legal_moves();
    let mut want: Vec<Move> = legal.iter().map(|&m| to_move(m)).collect();
    want.sort();
    let list = pos.legal_moves();
    let mut got: Vec<Move> = list.to_vec();
    got.sort();
    assert_eq!(got, want, "legal moves of {text}");
    got.dedup();
    assert_eq!(got.len(), list.len(), "duplicate moves in {text}: {list:?}");
    assert_eq!(
        pos.count_legal_moves() as usize,
        list.len(),
        "count_legal_moves of {text}"
    );
    for (c, color) in [(WHITE, Color::White), (BLACK, Color::Black)] {
        assert_eq!(
            pos.count_actions(color) as usize,
            model.actions(c).len(),
            "count_actions({color}) of {text}"
        );
    }

    // Outcome.
    let outcome = match model.outcome() {
        NaiveOutcome::Ongoing => Outcome::Ongoing,
        NaiveOutcome::Win(WHITE) => Outcome::Win(Color::White),
        NaiveOutcome::Win(_) => Outcome::Win(Color::Black),
        NaiveOutcome::Draw => Outcome::Draw,
    };
    assert_eq!(pos.outcome(), outcome, "outcome of {text}");
    assert_eq!(pos.is_game_over(), outcome != Outcome::Ongoing, "{text}");
    assert_eq!(list.is_empty(), outcome != Outcome::Ongoing, "{text}");

    // Every move gives the same position through checked play, unchecked
    // play and the model; distinct moves give distinct positions and keys.
    let mut keys = HashSet::new();
    for &m in &legal {
        let fast = to_move(m);
        let child = pos
            .play(fast)
            .unwrap_or_else(|e| panic!("{m} generated in {text} but refused: {e}"));
        let mut unchecked = *pos;
        unchecked.play_unchecked(fast);
        assert_eq!(unchecked, child, "play_unchecked {m} in {text}");
        assert_eq!(
            child.to_string(),
            model.play(m).to_fen(),
            "{m} played in {text}"
        );
        assert!(keys.insert(child.key()), "two moves give one key in {text}");
        assert_ne!(child.key(), pos.key(), "{m} in {text} changes nothing");
    }

    if deep {
        for &m in all_moves {
            let accepted = pos.play(m).is_ok();
            assert_eq!(accepted, list.contains(m), "checked play of {m} in {text}");
        }
        assert_eq!(
            grasshopper_rules::perft(pos, 2),
            model.perft(2),
            "perft 2 of {text}"
        );
    }
    seen.note(&model, &legal);
    model
}

/// How a playout picks its moves: uniformly, or shunning or seeking
/// bear-offs (which crowds the board, or ends games by scoring).
#[derive(Copy, Clone)]
enum Policy {
    Uniform,
    AvoidBearOff,
    SeekBearOff,
}

#[test]
fn the_fast_generator_agrees_with_the_naive_rules_on_random_playouts() {
    // Given random playouts from start positions of every N
    let started = Instant::now();
    let all_moves: Vec<Move> = Move::all().collect();
    let mut rng = rng(0x5EED_2026);
    let mut seen = Seen::default();
    let mut games = 0;
    while seen.positions < 100_000 {
        games += 1;
        let n = 2 * (1 + rng.random_range(0..7)) as u8;
        let policy =
            [Policy::Uniform, Policy::AvoidBearOff, Policy::SeekBearOff][rng.random_range(0..3)];
        let mut pos = Position::start(n).unwrap();
        loop {
            // When both generators look at each position
            let deep = rng.random_range(0..4) == 0;
            let model = compare(&pos, deep, &all_moves, &mut seen);
            let legal = model.legal_moves();
            if legal.is_empty() {
                break;
            }
            let offs: Vec<NaiveMove> = legal
                .iter()
                .copied()
                .filter(|m| matches!(m, NaiveMove::Off(_)))
                .collect();
            let others: Vec<NaiveMove> = legal
                .iter()
                .copied()
                .filter(|m| !matches!(m, NaiveMove::Off(_)))
                .collect();
            let pool = match policy {
                Policy::AvoidBearOff if !others.is_empty() => &others,
                Policy::SeekBearOff if !offs.is_empty() => &offs,
                _ => &legal,
            };
            let m = pool[rng.random_range(0..pool.len())];
            pos.play_unchecked(to_move(m));
        }
    }
    // Then they agreed everywhere, and the playouts met every rule
    eprintln!(
        "naive comparison: {} positions from {games} playouts in {:.2} s: {seen:?}",
        seen.positions,
        started.elapsed().as_secs_f64()
    );
    assert!(seen.passes > 100, "{seen:?}");
    assert!(seen.draws > 100, "{seen:?}");
    assert!(seen.wins[WHITE] > 100 && seen.wins[BLACK] > 100, "{seen:?}");
    assert!(seen.bear_offs > 1000, "{seen:?}");
    assert!(seen.lone_builds > 1000, "{seen:?}");
    assert!(seen.top_builds > 1000, "{seen:?}");
    assert!(seen.top_jumps > 1000, "{seen:?}");
    assert!(seen.blocked_lone > 1000, "{seen:?}");
    assert!(seen.waiting_in_d > 1000, "{seen:?}");
}

#[test]
fn the_fast_generator_agrees_with_the_naive_rules_on_random_crowded_boards() {
    // Given random boards that parse (any density, any score history)
    let started = Instant::now();
    let all_moves: Vec<Move> = Move::all().collect();
    let mut rng = rng(0xB0A2D);
    let mut seen = Seen::default();
    while seen.positions < 30_000 {
        let text = naive::random_fen(&mut rng);
        // The generator only makes boards the rules allow.
        let pos: Position = text
            .parse()
            .unwrap_or_else(|e| panic!("random board {text} refused: {e}"));
        // When both generators look at it, Then they agree
        compare(&pos, rng.random_range(0..4) == 0, &all_moves, &mut seen);
    }
    eprintln!(
        "naive comparison: {} random boards in {:.2} s: {seen:?}",
        seen.positions,
        started.elapsed().as_secs_f64()
    );
    assert!(seen.passes > 10 && seen.draws > 5, "{seen:?}");
}
