//! `Position::forced` (results the walls in D force by an exchange of
//! scores) against plain minimax (testkit's oracle), on positions of random
//! games, and its line played out by `forced_move`.

use grasshopper_rules::{Forced, MoveKind, Position};
use rand::Rng;
use testkit::oracle::{Exact, Oracle};
use testkit::rng::{rng, TestRng};

/// Every position of a game of random moves that bears off only one time in
/// four when it could, unless it must answer a threat: walls pile up in D on
/// both sides, and exchanges of scores follow.
fn hoarding_game(checkers: u8, r: &mut TestRng) -> Vec<Position> {
    let mut pos = Position::start(checkers).expect("an even number from 2 to 14");
    let mut seen = vec![pos];
    while !pos.is_game_over() {
        let moves = pos.legal_moves();
        let quiet: Vec<_> = moves
            .iter()
            .filter(|m| !matches!(m.kind(), MoveKind::BearOff(_)))
            .collect();
        let threatened = pos.run().is_some_and(|run| run.color != pos.side_to_move());
        let m = if threatened && quiet.len() < moves.len() {
            *moves
                .iter()
                .find(|m| !quiet.contains(m))
                .expect("a bear-off")
        } else if quiet.is_empty() || r.random_range(0..4) == 0 {
            moves[r.random_range(0..moves.len())]
        } else {
            *quiet[r.random_range(0..quiet.len())]
        };
        pos = pos.play(m).expect("legal moves play");
        seen.push(pos);
    }
    seen
}

/// The oracle's verdict in `Forced`'s terms (`None` for a draw).
fn as_forced(e: Exact) -> Option<Forced> {
    match e {
        Exact::Win(plies) => Some(Forced { wins: true, plies }),
        Exact::Loss(plies) => Some(Forced { wins: false, plies }),
        Exact::Draw => None,
    }
}

/// Plays `forced_move` from `pos` to the end: the plies it took, and
/// whether the side to move at `pos` won.
fn play_out(pos: &Position) -> (u32, bool) {
    let mover = pos.side_to_move();
    let (mut p, mut plies) = (*pos, 0);
    while let Some(m) = p.forced_move() {
        p = p.play(m).expect("forced moves are legal");
        plies += 1;
    }
    assert!(p.is_won(), "{pos}: the forced line ends in {p}, not a win");
    // The player who moved last won.
    (plies, p.side_to_move() != mover)
}

/// Checks `pos` and every position of its forced line that `decided`
/// does not already settle against minimax; counts (wins, losses) checked,
/// `None` when the oracle gave up.
fn check_line(pos: &Position) -> Option<(u32, u32)> {
    let mut oracle = Oracle::bounded(300_000);
    let (mut wins, mut losses) = (0, 0);
    let mut p = *pos;
    while let Some(f) = p.forced() {
        if let Some(d) = p.decided() {
            assert_eq!(f, d.into(), "{p}: forced disagrees with decided");
            break;
        }
        assert_eq!(
            Some(f),
            as_forced(oracle.solve(&p)?),
            "{p}: forced against minimax"
        );
        assert_eq!(play_out(&p), (f.plies, f.wins), "{p}: its line");
        if f.wins {
            wins += 1;
        } else {
            losses += 1;
        }
        p = p.play(p.forced_move()?).expect("forced moves are legal");
    }
    Some((wins, losses))
}

#[test]
fn forced_results_are_exact_and_their_lines_end_as_announced() {
    let mut r = rng(28);
    let (mut wins, mut losses, mut skipped) = (0, 0, 0);
    for game in 0..300 {
        let checkers = [6, 8][game % 2];
        for pos in hoarding_game(checkers, &mut r) {
            if pos.forced().is_none() || pos.decided().is_some() {
                continue;
            }
            match check_line(&pos) {
                Some((w, l)) => {
                    wins += w;
                    losses += l;
                }
                None => skipped += 1,
            }
        }
    }
    // The random games must keep meeting both kinds of exchange.
    assert!(wins >= 20, "wins {wins} losses {losses}");
    assert!(skipped * 4 < wins, "{skipped} not solved");
}

/// A position of the 6-checker game with `walls` (White's, Black's) in D,
/// the other checkers still to play lone in A to C (two each) or to enter,
/// `run` ("-", "w1" or "b1") and the mover: exchanges of every size.
fn exchange(walls: [u32; 2], run: &str, mover: char, r: &mut TestRng) -> Option<Position> {
    let scores: [u32; 2] = match run {
        "w1" => [1, 0],
        "b1" => [0, 1],
        _ => [0, 0],
    };
    let mut board = ['.'; 24];
    let mut to_enter = [0; 2];
    for (side, (lone, wall)) in [('w', 'W'), ('b', 'B')].into_iter().enumerate() {
        let left = 6i32 - 2 * (walls[side] + scores[side]) as i32;
        if left < 0 {
            return None;
        }
        for k in 0..walls[side] as usize {
            board[18 + 2 * k + side] = wall;
        }
        let on_board = left.min(2);
        for _ in 0..on_board {
            let free: Vec<usize> = (0..18).filter(|&i| board[i] == '.').collect();
            board[free[r.random_range(0..free.len())]] = lone;
        }
        to_enter[side] = left - on_board;
    }
    let quadrants: Vec<String> = board.chunks(6).map(|q| q.iter().collect()).collect();
    let text = format!(
        "{} {mover} {} {} {}-{} {run}",
        quadrants.join("/"),
        to_enter[0],
        to_enter[1],
        scores[0],
        scores[1]
    );
    Some(text.parse().unwrap_or_else(|e| panic!("{text}: {e:?}")))
}

#[test]
fn exchanges_of_every_size_are_exact() {
    let mut r = rng(6);
    let (mut wins, mut losses) = (0, 0);
    for w in 0..=3 {
        for b in 0..=3 {
            for run in ["-", "w1", "b1"] {
                for mover in ['w', 'b'] {
                    let Some(pos) = exchange([w, b], run, mover, &mut r) else {
                        continue;
                    };
                    if pos.forced().is_none() || pos.decided().is_some() {
                        continue;
                    }
                    let (w, l) = check_line(&pos).unwrap_or_else(|| panic!("{pos}: too big"));
                    wins += w;
                    losses += l;
                }
            }
        }
    }
    assert!(wins >= 10 && losses >= 5, "wins {wins} losses {losses}");
}

#[test]
fn an_exchange_of_scores_is_counted_wall_by_wall() {
    let forced = |text: &str| text.parse::<Position>().unwrap().forced();
    // Black scored last with two walls in D, White has one: White answers,
    // Black answers back, White has nothing left. White loses in 4 plies.
    assert_eq!(
        forced("....../....../....../W..BB. w 4 0 1-2 b1"),
        Some(Forced {
            wins: false,
            plies: 4
        })
    );
    // Nobody has scored; White has two walls in D, Black none: White scores,
    // then scores again whatever Black does. White wins in 3 plies.
    assert_eq!(
        forced("....../....../b...../WW.... w 0 3 0-0 -"),
        Some(Forced {
            wins: true,
            plies: 3
        })
    );
    // Two against one with nobody holding the run is not settled.
    assert_eq!(forced("....../....../....../WW.B.. w 0 2 0-0 -"), None);
}
