//! `backgammon rollout-data relevel`: one teacher's ranking at another's
//! level. A family of siblings (the positions after the best moves of one
//! roll, [`siblings`](crate::rollout_data::siblings)) labelled by the
//! look-ahead, some or all of its members also rolled out, gives each
//! sibling its look-ahead label shifted by the family's mean difference:
//! the differences between siblings (the ranking a move choice needs)
//! stay the labels', the family's level (what a cube decision needs)
//! becomes the rollouts'. Our crashed net's 3-ply is 0.09-0.12 from GNU
//! Backgammon's 2-ply equity on crashed positions (root mean square) where
//! our own rollouts are 0.03-0.04; fitted to the rollouts themselves it
//! learnt their level but ranked worse
//! (docs/results/backgammon-crn-2026-12-05.md).

use crate::rollout_data::{DataError, Record};
use backgammon_engine::eval::equity;
use backgammon_rules::{Board, PositionKey};
use std::collections::HashMap;

/// The records of `labels` at the level of `rollouts`. `run` is the
/// labels' run: its (family, position) in order, so that each label's
/// index names its family. The rollouts are matched to the labels by
/// position (a rollout run of the families' best siblings alone, say:
/// `generate --siblings 1` of the same seed). Each family with at least
/// one of its members rolled out is shifted, chance by chance, by the mean
/// of (rollout − label) over those members, then made consistent
/// ([`consistent`]); a family none of whose members was rolled out is left
/// out. A record's error is the largest of its family's rollouts' standard
/// errors (siblings on common dice share their luck, so the mean's error
/// is no smaller).
pub fn relevel(
    labels: &[Record],
    rollouts: &[Record],
    run: &[(usize, Board)],
) -> Result<Vec<Record>, DataError> {
    check_run(labels, run)?;
    let rolled: HashMap<PositionKey, &Record> =
        rollouts.iter().map(|r| (r.board.key(), r)).collect();
    let mut out = Vec::with_capacity(labels.len());
    for family in labels.chunk_by(|a, b| run[a.index].0 == run[b.index].0) {
        let pairs: Vec<(&Record, &Record)> = family
            .iter()
            .filter_map(|l| rolled.get(&l.board.key()).map(|r| (l, *r)))
            .collect();
        if !pairs.is_empty() {
            out.extend(shifted(family, &pairs));
        }
    }
    if out.is_empty() && !labels.is_empty() {
        return Err(DataError::Line {
            line: labels[0].to_string(),
            why: "no family of the labels has a position rolled out: another run?".to_string(),
        });
    }
    Ok(out)
}

/// The labels of one family shifted by the mean of its (label, rollout)
/// pairs' differences.
fn shifted(family: &[Record], pairs: &[(&Record, &Record)]) -> Vec<Record> {
    let count = pairs.len() as f32;
    let mut shift = [0f32; 5];
    for (l, r) in pairs {
        for (s, (rp, lp)) in shift.iter_mut().zip(r.probs.iter().zip(&l.probs)) {
            *s += (rp - lp) / count;
        }
    }
    let error = pairs.iter().map(|(_, r)| r.error).fold(0.0, f64::max);
    family
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

/// Each label is the run's position of its index, and the labels come in
/// the run's order (a family's members together).
fn check_run(labels: &[Record], run: &[(usize, Board)]) -> Result<(), DataError> {
    let bad = |l: &Record, why: String| DataError::Line {
        line: l.to_string(),
        why,
    };
    for (k, l) in labels.iter().enumerate() {
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
        if k > 0 && labels[k - 1].index >= l.index {
            return Err(bad(l, "the labels are not in the run's order".to_string()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::NetClass;

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

    /// Four distinct positions: the start, two crashed ones, and the first
    /// crashed one seen by the other side.
    fn boards() -> [Board; 4] {
        let crashed = "bNswCghvNgAABA".parse::<Board>().unwrap();
        let other = "7ywAAMG2DWiEAA".parse::<Board>().unwrap();
        [Board::START, crashed, crashed.swapped(), other]
    }

    #[test]
    fn each_family_keeps_its_labels_differences_at_its_rollouts_mean() {
        let [a, b, c, _] = boards();
        let run = vec![(0, a), (0, b), (1, c)];
        let labels = vec![
            record(0, a, [0.50, 0.10, 0.01, 0.10, 0.01], 0.0),
            record(1, b, [0.40, 0.10, 0.01, 0.15, 0.01], 0.0),
            record(2, c, [0.60, 0.20, 0.01, 0.05, 0.00], 0.0),
        ];
        // In another order and numbering: matched by position.
        let rollouts = vec![
            record(7, c, [0.30, 0.05, 0.00, 0.20, 0.02], 0.01),
            record(5, a, [0.56, 0.12, 0.01, 0.08, 0.01], 0.02),
            record(6, b, [0.54, 0.10, 0.01, 0.10, 0.01], 0.03),
        ];
        let out = relevel(&labels, &rollouts, &run).unwrap();
        assert_eq!(out.iter().map(|r| r.index).collect::<Vec<_>>(), [0, 1, 2]);
        // Family 0: win shifted by the mean of +0.06 and +0.14, lose
        // gammon by the mean of -0.02 and -0.05.
        assert!((out[0].probs[0] - 0.60).abs() < 1e-6);
        assert!((out[1].probs[0] - 0.50).abs() < 1e-6);
        assert!((out[0].probs[3] - 0.065).abs() < 1e-6);
        assert_eq!(out[0].error, 0.03);
        // A family of one takes its rollout.
        for k in 0..5 {
            assert!((out[2].probs[k] - rollouts[0].probs[k]).abs() < 1e-6);
        }
        assert_eq!(out[2].error, 0.01);
        // The labels' difference survives; the equity follows the chances.
        let diff = out[0].equity - out[1].equity;
        assert!((diff - (labels[0].equity - labels[1].equity)).abs() < 1e-5);
        assert!((out[2].equity - rollouts[0].equity).abs() < 1e-5);
    }

    #[test]
    fn one_rolled_out_member_levels_its_family_and_a_family_without_is_left_out() {
        let [a, b, c, d] = boards();
        let run = vec![(0, a), (0, b), (1, c), (1, d)];
        let p = [0.50, 0.10, 0.01, 0.10, 0.01];
        let q = [0.40, 0.10, 0.01, 0.15, 0.01];
        let labels = vec![
            record(0, a, p, 0.0),
            record(1, b, q, 0.0),
            record(2, c, p, 0.0),
            record(3, d, q, 0.0),
        ];
        let rollouts = vec![record(0, a, [0.45, 0.08, 0.01, 0.12, 0.01], 0.02)];
        let out = relevel(&labels, &rollouts, &run).unwrap();
        assert_eq!(out.len(), 2);
        assert!((out[0].probs[0] - 0.45).abs() < 1e-6);
        assert!((out[1].probs[0] - 0.35).abs() < 1e-6);
        assert!((out[1].probs[3] - 0.17).abs() < 1e-6);
    }

    #[test]
    fn a_shift_past_what_a_game_allows_is_clipped() {
        let p = consistent([1.04, 0.30, 0.35, 0.02, -0.01]);
        assert_eq!(p, [1.0, 0.30, 0.30, 0.0, 0.0]);
        let q = consistent([0.2, 0.25, 0.0, 0.9, 0.1]);
        assert_eq!(q, [0.2, 0.2, 0.0, 0.8, 0.1]);
    }

    #[test]
    fn labels_of_another_run_or_without_rollouts_are_refused_with_the_place() {
        let [a, b, c, _] = boards();
        let run = vec![(0, a), (0, b)];
        let p = [0.5, 0.1, 0.0, 0.1, 0.0];
        let labels = vec![record(0, a, p, 0.0), record(1, b, p, 0.0)];
        let other = vec![record(0, a, p, 0.0), record(1, c, p, 0.0)];
        let e = relevel(&other, &labels, &run).unwrap_err().to_string();
        assert!(e.contains("the run's position 1 is"), "{e}");
        let e = relevel(&labels, &labels, &run[..1])
            .unwrap_err()
            .to_string();
        assert!(e.contains("only 1 positions"), "{e}");
        let e = relevel(&labels, &[record(0, c, p, 0.0)], &run)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no family"), "{e}");
    }
}
