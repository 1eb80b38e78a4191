//! Rollouts: repeatable for a seed whatever the threads, resumable from a
//! checkpoint, and right where the answer is known (a bear-off, against
//! the database).

use backgammon_engine::bearoff_cube::CubefulBearoff;
use backgammon_engine::cube::{self, CubeState};
use backgammon_engine::eval::equity;
use backgammon_engine::player;
use backgammon_engine::player::nets;
use backgammon_engine::rollout::{rollout, CheckpointFile, Progress, Settings, Target};
use backgammon_engine::search::Searcher;
use backgammon_rules::{Board, Dice};

fn target(board: Board, dice: Option<Dice>) -> Target {
    Target {
        board,
        dice,
        cube: CubeState::money(true),
    }
}

fn run(t: &Target, s: &Settings) -> Progress {
    rollout(nets(), t, s, None, |_| true).expect("rolls out")
}

#[test]
fn a_seed_repeats_exactly_whatever_the_threads() {
    let t = target(Board::START, Dice::new(6, 6));
    let s = Settings {
        trials: 40,
        truncate: Some(3),
        threads: 1,
        ..Settings::default()
    };
    let one = run(&t, &s);
    assert_eq!(one.done, 40);
    assert_eq!(
        one.outcomes.len(),
        Board::START.legal_moves(Dice::new(6, 6).unwrap()).len()
    );
    let three = run(&t, &Settings { threads: 3, ..s });
    assert_eq!(one, three);
    assert_eq!(one, run(&t, &s));
    // Another seed plays other dice.
    let other = run(&t, &Settings { seed: 2, ..s });
    assert_ne!(one.outcomes, other.outcomes);
    // Played to the end, too (the position, no dice).
    let whole = Settings {
        trials: 8,
        truncate: None,
        ..s
    };
    let p = target(Board::START, None);
    assert_eq!(
        run(&p, &whole),
        run(
            &p,
            &Settings {
                threads: 2,
                ..whole
            }
        )
    );
}

#[test]
fn a_killed_rollout_resumes_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.ckpt");
    let file = CheckpointFile {
        path: &path,
        every: 10,
    };
    let t = target(Board::START, Dice::new(6, 6));
    let s = Settings {
        trials: 50,
        truncate: Some(4),
        threads: 2,
        ..Settings::default()
    };
    let whole = run(&t, &s);
    // Stop after 20 trials (as a kill after the second save would).
    let cut = rollout(nets(), &t, &s, Some(&file), |p| p.done < 20).unwrap();
    assert_eq!(cut.done, 20);
    let mut first_seen = None;
    let resumed = rollout(nets(), &t, &s, Some(&file), |p| {
        first_seen.get_or_insert(p.done);
        true
    })
    .unwrap();
    assert_eq!(first_seen, Some(30), "resumed after the 20 saved trials");
    assert_eq!(resumed, whole);
    // A checkpoint of another rollout is refused, naming what it holds.
    let other = Settings { seed: 9, ..s };
    let e = rollout(nets(), &t, &other, Some(&file), |_| true).unwrap_err();
    assert!(e.to_string().contains("another rollout"), "{e}");
}

#[test]
fn a_bear_off_rolled_out_matches_the_database() {
    // Both sides home, so the database knows the chances; the rollout plays
    // it out (bear-off finishing off) and must agree within its error.
    let mut me = [0u8; 25];
    me[..6].copy_from_slice(&[3, 2, 1, 0, 0, 0]);
    let mut them = [0u8; 25];
    them[..6].copy_from_slice(&[2, 2, 2, 0, 0, 0]);
    let b = Board::from_counts(&me, &them).unwrap();
    let db = equity(&nets().evaluate(&b)) as f64;
    let s = Settings {
        trials: 1296,
        bearoff: false,
        variance_reduction: false,
        threads: 2,
        ..Settings::default()
    };
    let plain = run(&target(b, None), &s).outcomes[0].clone();
    assert!(
        (plain.cubeless - db).abs() <= 3.0 * plain.cubeless_error,
        "rollout {} ± {} against the database's {db}",
        plain.cubeless,
        plain.cubeless_error
    );
    // Luck adjustment keeps the mean and shrinks the error a hundredfold.
    // Its value is then that of the rollout's players, who play for wins,
    // where the one-sided database assumes each side plays for its fewest
    // rolls: here that differs by about 0.001.
    let vr = Settings {
        variance_reduction: true,
        ..s
    };
    let reduced = run(&target(b, None), &vr).outcomes[0].clone();
    assert!(reduced.cubeless_error > 0.0);
    assert!(reduced.cubeless_error < plain.cubeless_error / 100.0);
    assert!((reduced.cubeless - plain.cubeless).abs() <= 3.0 * plain.cubeless_error);
    assert!(
        (reduced.cubeless - db).abs() < 0.003,
        "rollout {} ± {} against the database's {db}",
        reduced.cubeless,
        reduced.cubeless_error
    );
}

#[test]
fn a_last_bear_off_rolled_out_has_the_exact_tables_cubeful_value() {
    // The opponent is off next roll whatever happens; the player on roll
    // wins 64%: double/take, +0.556, where Janowski's model on the
    // rolled-out chances gives +0.389.
    let b: Board = "BAAASAAAAAAAAA".parse().unwrap();
    let s = Settings {
        trials: 72,
        threads: 2,
        ..Settings::default()
    };
    let o = run(&target(b, None), &s).outcomes[0].clone();
    // The cubeful value is the exact table's, with no error, as in play.
    let money = CubeState::money(true);
    let exact = CubefulBearoff::get().decide(&b, &money).optimal();
    assert!((exact - 0.556).abs() < 0.001, "{exact}");
    assert_eq!((o.cubeful, o.cubeful_error), (exact, 0.0));
    let janowski = cube::decide(&money, &o.probs, player::efficiency(&b)).optimal();
    assert!(exact - janowski > 0.1, "{janowski} {exact}");
}

/// Stratified dice make a rollout truncated after `k` rolls, without luck
/// adjustment, over 36^k trials the exact mean over the first `k` rolls:
/// the evaluator's own look `k` rolls ahead (two implementations, one
/// answer).
#[test]
fn a_rollout_truncated_over_every_roll_is_the_look_ahead() {
    let contact = Board::from_position_id("sOfIAQawM3gAVg").expect("a position ID");
    for board in [Board::START, contact] {
        for (rolls, trials) in [(1u8, 36u32), (2, 1296)] {
            let s = Settings {
                trials,
                truncate: Some(rolls as u32),
                variance_reduction: false,
                threads: 2,
                ..Settings::default()
            };
            let rolled = run(&target(board, None), &s).outcomes[0].clone();
            let look = Searcher::new(nets()).look_ahead(&board, rolls, None);
            for (k, (r, l)) in rolled.probs.iter().zip(look).enumerate() {
                assert!(
                    (r - l).abs() < 1e-4,
                    "{} {rolls} rolls, chance {k}: rollout {r} look-ahead {l}",
                    board.position_id(),
                );
            }
        }
    }
}
