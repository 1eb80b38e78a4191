//! `backgammon rollout-data relevel`: one teacher's ranking at another's
//! level. A family of siblings (the positions after the best moves of one
//! roll, [`siblings`](crate::rollout_data::siblings)) labelled twice, by
//! look-ahead labels and by rollouts of the same positions, gives each
//! sibling its look-ahead label shifted by the family's mean difference:
//! the differences between siblings (the ranking a move choice needs)
//! stay the labels', the family's mean (the level a cube decision needs)
//! becomes the rollouts'. Fitted to 2-ply rollouts alone a crashed net
//! learnt their level but ranked worse (docs/results/backgammon-crn-2026-12-05.md):
//! a rollout's noise and its own play are as large as the differences.

use crate::rollout_data::{DataError, Record};
use backgammon_engine::eval::equity;
use backgammon_rules::Board;

/// The records of `labels` at the level of `rollouts`: both files of the
/// same run's positions (index by index, the same boards), `run` the
/// run's (family, position) in order. Each family's members present in
/// both are shifted, chance by chance, by the mean of (rollout − label)
/// over them, then made consistent ([`consistent`]); a record's error is
/// the largest of its family's rollouts' standard errors (siblings on
/// common dice share their luck, so the mean's error is no smaller).
pub fn relevel(
    labels: &[Record],
    rollouts: &[Record],
    run: &[(usize, Board)],
) -> Result<Vec<Record>, DataError> {
    check_same_positions(labels, rollouts, run)?;
    let n = labels.len().min(rollouts.len());
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    while start < n {
        let family = run[labels[start].index].0;
        let end = (start..n)
            .find(|&i| run[labels[i].index].0 != family)
            .unwrap_or(n);
        out.extend(shifted(&labels[start..end], &rollouts[start..end]));
        start = end;
    }
    Ok(out)
}

/// The labels of one family shifted to its rollouts' mean.
fn shifted(labels: &[Record], rollouts: &[Record]) -> Vec<Record> {
    let count = labels.len() as f32;
    let mut shift = [0f32; 5];
    for (l, r) in labels.iter().zip(rollouts) {
        for (s, (rp, lp)) in shift.iter_mut().zip(r.probs.iter().zip(&l.probs)) {
            *s += (rp - lp) / count;
        }
    }
    let error = rollouts.iter().map(|r| r.error).fold(0.0, f64::max);
    labels
        .iter()
        .map(|l| {
            let probs = consistent(std::array::from_fn(|k| l.probs[k] + shift[k]));
            Record {
                probs,
                equity: equity(&probs) as f64,
                error,
                ..l.clone()
            }
        })
        .collect()
}

/// Chances clipped into what a game allows: each in [0, 1], a gammon no
/// likelier than its win or loss, a backgammon no likelier than its
/// gammon.
pub fn consistent(p: [f32; 5]) -> [f32; 5] {
    let win = p[0].clamp(0.0, 1.0);
    let win_g = p[1].clamp(0.0, win);
    let win_bg = p[2].clamp(0.0, win_g);
    let lose_g = p[3].clamp(0.0, 1.0 - win);
    let lose_bg = p[4].clamp(0.0, lose_g);
    [win, win_g, win_bg, lose_g, lose_bg]
}

/// Both files hold the run's positions in the same order: each record's
/// index is a position of `run`, the two files' records at the same place
/// have the same index, and both have that position.
fn check_same_positions(
    labels: &[Record],
    rollouts: &[Record],
    run: &[(usize, Board)],
) -> Result<(), DataError> {
    let bad = |r: &Record, why: String| DataError::Line {
        line: r.to_string(),
        why,
    };
    for (l, r) in labels.iter().zip(rollouts) {
        if l.index != r.index || l.board != r.board {
            return Err(bad(
                r,
                format!("the labels' record at its place is another position: \"{l}\""),
            ));
        }
        match run.get(l.index) {
            Some((_, b)) if *b == l.board => {}
            Some((_, b)) => {
                return Err(bad(
                    l,
                    format!(
                    "the run's position {} is {}: another run (seed, siblings, class, records?)",
                    l.index,
                    b.position_id()
                ),
                ))
            }
            None => return Err(bad(l, format!("the run has only {} positions", run.len()))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::NetClass;
    use backgammon_rules::Board;

    fn record(index: usize, board: Board, probs: [f32; 5], error: f64) -> Record {
        Record {
            index,
            board,
            class: NetClass::Contact,
            probs,
            equity: equity(&probs) as f64,
            error,
        }
    }

    /// Three distinct positions: the start, a crashed one, and that one
    /// seen by the other side.
    fn boards() -> [Board; 3] {
        let crashed = "bNswCghvNgAABA".parse::<Board>().unwrap();
        [Board::START, crashed, crashed.swapped()]
    }

    #[test]
    fn each_family_keeps_its_labels_differences_at_its_rollouts_mean() {
        let [a, b, c] = boards();
        let run = vec![(0, a), (0, b), (1, c)];
        let labels = vec![
            record(0, a, [0.50, 0.10, 0.01, 0.10, 0.01], 0.0),
            record(1, b, [0.40, 0.10, 0.01, 0.15, 0.01], 0.0),
            record(2, c, [0.60, 0.20, 0.01, 0.05, 0.00], 0.0),
        ];
        let rollouts = vec![
            record(0, a, [0.56, 0.12, 0.01, 0.08, 0.01], 0.02),
            record(1, b, [0.54, 0.10, 0.01, 0.10, 0.01], 0.03),
            record(2, c, [0.30, 0.05, 0.00, 0.20, 0.02], 0.01),
        ];
        let out = relevel(&labels, &rollouts, &run).unwrap();
        // Family 0: win shifted by the mean of +0.06 and +0.14.
        assert!((out[0].probs[0] - 0.60).abs() < 1e-6);
        assert!((out[1].probs[0] - 0.50).abs() < 1e-6);
        assert!((out[0].probs[3] - 0.065).abs() < 1e-6);
        assert_eq!(out[0].error, 0.03);
        // A family of one takes its rollout.
        for k in 0..5 {
            assert!((out[2].probs[k] - rollouts[2].probs[k]).abs() < 1e-6);
        }
        assert_eq!(out[2].error, 0.01);
        // The labels' difference survives; the equity follows the chances.
        let diff = out[0].equity - out[1].equity;
        assert!((diff - (labels[0].equity - labels[1].equity)).abs() < 1e-5);
        assert!((out[2].equity - rollouts[2].equity).abs() < 1e-5);
    }

    #[test]
    fn a_shift_past_what_a_game_allows_is_clipped() {
        let p = consistent([1.04, 0.30, 0.35, 0.02, -0.01]);
        assert_eq!(p, [1.0, 0.30, 0.30, 0.0, 0.0]);
        let q = consistent([0.2, 0.25, 0.0, 0.9, 0.1]);
        assert_eq!(q, [0.2, 0.2, 0.0, 0.8, 0.1]);
    }

    #[test]
    fn files_of_other_positions_are_refused_with_the_place() {
        let [a, b, c] = boards();
        let run = vec![(0, a), (0, b)];
        let p = [0.5, 0.1, 0.0, 0.1, 0.0];
        let labels = vec![record(0, a, p, 0.0), record(1, b, p, 0.0)];
        let other = vec![record(0, a, p, 0.0), record(1, c, p, 0.0)];
        let e = relevel(&labels, &other, &run).unwrap_err().to_string();
        assert!(e.contains("another position"), "{e}");
        let e = relevel(&other, &other, &run).unwrap_err().to_string();
        assert!(e.contains("the run's position 1 is"), "{e}");
        let short = vec![(0, a)];
        let e = relevel(&labels, &labels, &short).unwrap_err().to_string();
        assert!(e.contains("only 1 positions"), "{e}");
    }
}
