//! Move generation speed over a fixed seeded set of (position, dice) pairs
//! (positions of random games and random boards of every kind), and the
//! same set through the published Rust backgammon crates `bkgm` and
//! `backgammon`, with the ratios. Best of several runs (the machine is shared).
//!
//! `cargo bench -p backgammon-rules --bench movegen`; `BENCH_PAIRS` sets the
//! number of random-board pairs (default 10000), `BENCH_SECS` the time
//! each measurement runs (default 1), and `BENCH_PEERS=0` skips the other
//! crates (for profiling ours, e.g. under `valgrind --tool=callgrind`).

#[path = "../tests/support/mod.rs"]
mod support;

use backgammon_rules::{Board, Dice, MoveList, Point, Side};
use std::hint::black_box;
use std::time::{Duration, Instant};
use support::{board_pairs, game_pairs, Rng};

/// Runs `pass` (one pass over all pairs, returning the moves it found)
/// repeatedly for `secs`, three times; the best passes per second.
fn measure(secs: f64, mut pass: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = 0.0f64;
    let mut moves = 0;
    for _ in 0..3 {
        let start = Instant::now();
        let mut passes = 0u32;
        while start.elapsed() < Duration::from_secs_f64(secs) || passes == 0 {
            moves = black_box(pass());
            passes += 1;
        }
        best = best.max(passes as f64 / start.elapsed().as_secs_f64());
    }
    (best, moves)
}

/// The pair as `bkgm` wants it: the mover positive on its own points, the
/// opponent negative, index 25 the mover's bar and 0 the opponent's.
fn to_bkgm(board: &Board, dice: Dice) -> (bkgm::Position<15>, bkgm::Dice) {
    let mut pips = [0i8; 26];
    for p in Point::points() {
        let mirror = p.mirror().unwrap();
        pips[p.index() as usize] =
            board.count(Side::OnRoll, p) as i8 - board.count(Side::Opponent, mirror) as i8;
    }
    pips[25] = board.bar(Side::OnRoll) as i8;
    pips[0] = -(board.bar(Side::Opponent) as i8);
    let (a, b) = dice.values();
    (
        bkgm::Position::try_from(pips).unwrap(),
        bkgm::Dice::new(a as usize, b as usize),
    )
}

/// The pair as the `backgammon` crate wants it: player 0 on roll, each
/// player's checkers on its own numbering, the dice set.
fn to_backgammon(board: &Board, dice: Dice) -> backgammon::rules::Board {
    use backgammon::rules::prelude::*;
    let mut b = Board::new();
    b.empty_board().unwrap();
    for (side, player) in [
        (Side::OnRoll, Player::Player0),
        (Side::Opponent, Player::Player1),
    ] {
        for p in Point::points() {
            let n = board.count(side, p) as i8;
            if n > 0 {
                b.set_checkers(player, Position::Board(p.index() as usize), n)
                    .unwrap();
            }
        }
        for (place, n) in [
            (Position::Bar, board.bar(side)),
            (Position::Off, board.off(side)),
        ] {
            if n > 0 {
                b.set_checkers(player, place, n as i8).unwrap();
            }
        }
    }
    b.set_dice(Player::Player0, dice.values()).unwrap();
    b
}

fn env_number(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let secs = env_number("BENCH_SECS", 1.0);
    let mut rng = Rng::new(7);
    let mut pairs = game_pairs(&mut rng, 100);
    pairs.extend(board_pairs(
        &mut rng,
        env_number("BENCH_PAIRS", 10_000.0) as usize,
    ));
    let n = pairs.len() as f64;
    println!(
        "{} (position, dice) pairs: random games and random boards",
        pairs.len()
    );

    let mut list = MoveList::new();
    let (ours, our_moves) = measure(secs, || {
        let mut total = 0;
        for (board, dice) in &pairs {
            black_box(board).legal_moves_into(*dice, &mut list);
            total += list.len();
        }
        total
    });

    if env_number("BENCH_PEERS", 1.0) == 0.0 {
        println!(
            "backgammon-rules: {:.0} positions/s, {:.0} moves/s, {:.1} ns/position",
            ours * n,
            ours * our_moves as f64,
            1e9 / (ours * n)
        );
        return;
    }
    let bk: Vec<_> = pairs.iter().map(|(b, d)| to_bkgm(b, *d)).collect();
    let (bkgm_rate, bkgm_moves) = measure(secs, || {
        bk.iter()
            .map(|(p, d)| {
                bkgm::legal_positions_with::<bkgm::ClassicRules, 15>(*black_box(p), d).len()
            })
            .sum()
    });
    let disagree = pairs
        .iter()
        .zip(&bk)
        .filter(|((b, d), (p, bd))| {
            let theirs = bkgm::legal_positions_with::<bkgm::ClassicRules, 15>(*p, bd).len();
            theirs != b.legal_moves(*d).len()
        })
        .count();

    let bg: Vec<_> = pairs.iter().map(|(b, d)| to_backgammon(b, *d)).collect();
    let (bg_rate, bg_moves) = measure(secs, || {
        use backgammon::rules::prelude::*;
        bg.iter()
            .map(|b| black_box(b).available_moves(Player::Player0).unwrap().len())
            .sum()
    });

    println!(
        "{:<22} {:>14} {:>14} {:>10} {:>12}",
        "generator", "positions/s", "moves/s", "ns/pos", "ours is"
    );
    for (name, rate, moves) in [
        ("backgammon-rules", ours, our_moves),
        ("bkgm 0.6.0", bkgm_rate, bkgm_moves),
        ("backgammon 0.20.0", bg_rate, bg_moves),
    ] {
        println!(
            "{:<22} {:>14.0} {:>14.0} {:>10.1} {:>11.1}x",
            name,
            rate * n,
            rate * moves as f64,
            1e9 / (rate * n),
            ours / rate
        );
    }
    println!(
        "moves per pass: ours {our_moves} (one per resulting position, pass counted), \
         bkgm {bkgm_moves} (positions), backgammon {bg_moves} (step sequences); \
         bkgm's count differs from ours on {disagree} pairs"
    );
}
