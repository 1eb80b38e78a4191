//! `backgammon errors`: the move error rate of our checker play, judged by
//! GNU Backgammon at 2-ply, beside GNU Backgammon 0-ply's own rate on the
//! same positions. Every legal move's resulting position is evaluated by
//! gnubg (cubeless money equity, its Python module run by this program);
//! a player's error on a position is the best move's equity less that of
//! the move it chose, in millipoints.

use crate::class::NetClass;
use crate::gnubg::{self, GnubgError, Job};
use crate::recorded::{self, RecordsError};
use crate::selfplay::positions;
use backgammon_engine::eval::{equity, won};
use backgammon_engine::search::Searcher;
use backgammon_rules::{Board, Dice, MoveList, RollDice, Side, SplitMix};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `backgammon errors` judges.
#[derive(Clone, Debug)]
pub struct ErrorsSettings {
    /// Positions with a choice (at least two legal moves) to judge.
    pub positions: usize,
    /// Seed of the self-play games the positions come from and of their rolls.
    pub seed: u64,
    /// Take the positions from these match records instead of self-play:
    /// the positions where a player moved with a choice, spread evenly
    /// over the file.
    pub records: Option<PathBuf>,
    /// Our plies to judge (1 = every move by the net).
    pub plies: Vec<u8>,
    /// GNU Backgammon's binary.
    pub gnubg: PathBuf,
    /// The judge's plies in GNU Backgammon's counting (2 = its 2-ply).
    pub judge_plies: u8,
    /// Only positions of this class (ours, which is gnubg's), to judge the
    /// net of one class where it is a small part of the games.
    pub class: Option<NetClass>,
    /// List this many of the first player's worst moves (after the rates).
    pub worst: usize,
}

/// Why `backgammon errors` stopped.
#[derive(Debug, thiserror::Error)]
pub enum ErrorsError {
    /// The records file cannot be read or is not records of backgammon
    /// games.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// The records hold no move with a choice.
    #[error("{}: no position with a choice", .0.display())]
    NoChoice(PathBuf),
    #[error(transparent)]
    Gnubg(#[from] GnubgError),
    /// The judge's file is missing.
    #[error("gnubg ({status}) wrote no judgements: {source}")]
    NoJudgements {
        status: std::process::ExitStatus,
        source: std::io::Error,
    },
    /// The judge's file has a line per position judged.
    #[error("gnubg judged {judged} of {wanted} positions")]
    Count { judged: usize, wanted: usize },
    /// A value of the judge's file that is not a pair of numbers.
    #[error("bad gnubg value \"{0}\"")]
    Value(String),
    /// A line of the judge's file with fewer values than live moves.
    #[error("gnubg gave too few values")]
    TooFew,
    /// Writing the report failed.
    #[error("output error: {0}")]
    Output(#[from] std::io::Error),
}

/// One position to judge: the legal moves' results and our choices.
struct Case {
    /// Per move: the position after it, or the mover's value if it wins.
    afters: Vec<Result<Board, f32>>,
    /// Our chosen move per entry of `plies`.
    ours: Vec<usize>,
}

/// Runs `backgammon errors`.
pub fn run(a: &ErrorsSettings, out: &mut impl Write) -> Result<(), ErrorsError> {
    let (rolls, origin) = match &a.records {
        Some(path) => (
            record_rolls(path, a.positions, a.class)?,
            format!("the records of {}", path.display()),
        ),
        None => (
            self_play_rolls(a),
            format!("seeded self-play of the net (seed {})", a.seed),
        ),
    };
    let cases = cases(a, &rolls);
    let judged = judge(a, &cases)?;
    writeln!(
        out,
        "{} {}positions with a choice from {origin}, judged by gnubg {}-ply, cubeless money equity",
        cases.len(),
        a.class.map_or(String::new(), |c| format!("{c} ")),
        a.judge_plies
    )?;
    // gnubg 0-ply's choice: its best move at 0-ply.
    let zero: Vec<f64> = judged
        .iter()
        .map(|v| error_of(v, argmax(v.iter().map(|x| x.0))))
        .collect();
    writeln!(out, "{}", summary("gnubg 0-ply", &zero))?;
    for (k, plies) in a.plies.iter().enumerate() {
        let e: Vec<f64> = judged
            .iter()
            .zip(&cases)
            .map(|(v, c)| error_of(v, c.ours[k]))
            .collect();
        writeln!(out, "{}", summary(&format!("grasshopper {plies}-ply"), &e))?;
    }
    if a.worst > 0 && !a.plies.is_empty() {
        worst(out, a, &rolls, &cases, &judged)?;
    }
    Ok(())
}

/// The `a.worst` positions where our first player errs most, worst first:
/// the position (gnubg position ID, player on roll), the dice, our move and
/// the judge's best with their equities, and gnubg 0-ply's move.
fn worst(
    out: &mut impl Write,
    a: &ErrorsSettings,
    rolls: &[(Board, Dice)],
    cases: &[Case],
    judged: &[Vec<(f64, f64)>],
) -> Result<(), ErrorsError> {
    let cost = |i: usize| error_of(&judged[i], cases[i].ours[0]);
    let mut idx: Vec<usize> = (0..cases.len()).filter(|&i| cost(i) > 0.0).collect();
    idx.sort_by(|&x, &y| cost(y).total_cmp(&cost(x)));
    writeln!(out, "worst moves of grasshopper {}-ply", a.plies[0])?;
    let mut moves = Box::<MoveList>::default();
    for &i in idx.iter().take(a.worst) {
        let (board, dice) = rolls[i];
        board.legal_moves_into(dice, &mut moves);
        let v = &judged[i];
        let text = |k: usize| board.move_text(&moves.moves()[k]);
        let (ours, best) = (cases[i].ours[0], argmax(v.iter().map(|x| x.1)));
        let zero = argmax(v.iter().map(|x| x.0));
        writeln!(
            out,
            "  {} {dice}: ours {} {:+.3}, judge's best {} {:+.3}, gnubg 0-ply {}: error {:.1}",
            board.position_id(),
            text(ours),
            v[ours].1,
            text(best),
            v[best].1,
            text(zero),
            1000.0 * cost(i)
        )?;
    }
    Ok(())
}

/// Positions with a roll that leaves a choice: every 5th position of
/// seeded self-play games, each with a fresh roll.
fn self_play_rolls(a: &ErrorsSettings) -> Vec<(Board, Dice)> {
    let eval = backgammon_engine::player::nets();
    let mut rng = SplitMix::new(a.seed ^ 0x5eed);
    let mut moves = Box::<MoveList>::default();
    let mut out = Vec::new();
    let mut games = (a.positions as u32 / 8).max(1);
    while out.len() < a.positions {
        for board in positions(eval, games, a.seed + games as u64)
            .into_iter()
            .step_by(5)
        {
            let dice: Dice = rng.dice();
            board.legal_moves_into(dice, &mut moves);
            if moves.len() >= 2 && out.len() < a.positions && of_class(a.class, &board) {
                out.push((board, dice));
            }
        }
        games *= 2;
    }
    out
}

/// Up to `n` positions where a player of the recorded games moved with a
/// choice (board seen by the mover, and the dice), spread evenly over the
/// records.
fn record_rolls(
    path: &Path,
    n: usize,
    class: Option<NetClass>,
) -> Result<Vec<(Board, Dice)>, ErrorsError> {
    let (_, mut all) = recorded::choices(path)?;
    all.retain(|(board, _)| of_class(class, board));
    if all.is_empty() {
        return Err(ErrorsError::NoChoice(path.to_path_buf()));
    }
    Ok(recorded::spread(&all, n))
}

/// True when `board` is of `class` (any board when there is none).
fn of_class(class: Option<NetClass>, board: &Board) -> bool {
    class.is_none_or(|c| NetClass::of(board) == Some(c))
}

/// Each position's legal moves and our choices among them.
fn cases(a: &ErrorsSettings, rolls: &[(Board, Dice)]) -> Vec<Case> {
    let mut searcher = Searcher::new(backgammon_engine::player::nets());
    let mut moves = Box::<MoveList>::default();
    rolls
        .iter()
        .map(|&(board, dice)| {
            board.legal_moves_into(dice, &mut moves);
            let afters = moves.boards().iter().map(after).collect();
            let ours = a
                .plies
                .iter()
                .map(|&p| searcher.choose(&board, dice, p, None, &mut moves).index)
                .collect();
            Case { afters, ours }
        })
        .collect()
}

/// The position after a move with the opponent on roll, or the mover's
/// value when the move wins.
fn after(b: &Board) -> Result<Board, f32> {
    if b.has_won(Side::OnRoll) {
        Err(equity(&won(b)))
    } else {
        Ok(b.swapped())
    }
}

/// Per case, per move: the mover's equity at gnubg 0-ply and at the judge.
fn judge(a: &ErrorsSettings, cases: &[Case]) -> Result<Vec<Vec<(f64, f64)>>, ErrorsError> {
    let ids: String = cases
        .iter()
        .map(|c| {
            let live: Vec<String> = c.afters.iter().flatten().map(|b| b.to_string()).collect();
            live.join(" ") + "\n"
        })
        .collect();
    let job = Job {
        inputs: vec![("BG_IDS", ids)],
        outputs: vec!["BG_OUT"],
        vars: vec![("BG_PLIES", a.judge_plies.to_string())],
    };
    let mut ran = gnubg::run(&a.gnubg, gnubg::JUDGE, &job)?;
    let status = ran.status;
    let text = ran
        .outputs
        .remove(0)
        .map_err(|source| ErrorsError::NoJudgements { status, source })?;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != cases.len() {
        return Err(ErrorsError::Count {
            judged: lines.len(),
            wanted: cases.len(),
        });
    }
    cases.iter().zip(lines).map(|(c, l)| merge(c, l)).collect()
}

/// A case's values: gnubg's for the live positions, in move order, and
/// the exact value of winning moves at both depths.
fn merge(c: &Case, line: &str) -> Result<Vec<(f64, f64)>, ErrorsError> {
    let mut judged = line.split(',').filter(|s| !s.is_empty()).map(|pair| {
        let v: Vec<f64> = pair.split(' ').filter_map(|x| x.parse().ok()).collect();
        (v.len() == 2)
            .then(|| (v[0], v[1]))
            .ok_or_else(|| ErrorsError::Value(pair.to_string()))
    });
    c.afters
        .iter()
        .map(|m| match m {
            Ok(_) => judged.next().unwrap_or(Err(ErrorsError::TooFew)),
            Err(v) => Ok((*v as f64, *v as f64)),
        })
        .collect()
}

/// Index of the largest value (the first of equals).
fn argmax(v: impl Iterator<Item = f64>) -> usize {
    v.enumerate()
        .fold(
            (0, f64::NEG_INFINITY),
            |b, (i, x)| if x > b.1 { (i, x) } else { b },
        )
        .0
}

/// The judge's best equity less that of move `i`.
fn error_of(v: &[(f64, f64)], i: usize) -> f64 {
    let best = v.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
    best - v[i].1
}

/// Mean error in millipoints a move with a 95% interval, and the share of
/// moves that are not the judge's best.
fn summary(who: &str, errors: &[f64]) -> String {
    let n = errors.len() as f64;
    let mean = errors.iter().sum::<f64>() / n;
    let var = errors.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let wrong = errors.iter().filter(|&&e| e > 1e-9).count();
    format!(
        "{who}: {:.1} ± {:.1} millipoints a move; not the judge's best in {wrong} of {} ({:.1}%)",
        1000.0 * mean,
        1000.0 * 1.96 * (var / n).sqrt(),
        errors.len(),
        100.0 * wrong as f64 / n
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_moves_keep_their_place_among_gnubg_values() {
        let case = Case {
            afters: vec![Ok(Board::START), Err(1.0), Ok(Board::START)],
            ours: vec![1],
        };
        let v = merge(&case, "0.1 0.2,-0.3 -0.4").unwrap();
        assert_eq!(v, vec![(0.1, 0.2), (1.0, 1.0), (-0.3, -0.4)]);
        assert!(merge(&case, "0.1 0.2").is_err());
        assert!(merge(&case, "0.1,0.2 0.3").is_err());
        assert_eq!(argmax(v.iter().map(|x| x.0)), 1);
        assert_eq!(error_of(&v, 1), 0.0);
        assert!((error_of(&v, 2) - 1.4).abs() < 1e-12);
        assert!(summary("x", &[0.0, 0.002]).starts_with("x: 1.0 ± "));
    }

    #[test]
    fn the_worst_list_names_our_move_and_the_judges_best() {
        let dice = Dice::new(3, 1).unwrap();
        let moves = Board::START.legal_moves(dice);
        let afters: Vec<_> = moves.boards().iter().map(after).collect();
        let n = afters.len();
        let case = |ours| Case {
            afters: afters.clone(),
            ours: vec![ours],
        };
        // The judge likes move 2 best; we chose move 0 in the first
        // position (error 0.25) and move 2 in the second (no error).
        let values: Vec<(f64, f64)> = (0..n)
            .map(|k| if k == 2 { (0.0, 0.15) } else { (0.1, -0.1) })
            .collect();
        let a = ErrorsSettings {
            positions: 2,
            seed: 1,
            records: None,
            plies: vec![1],
            gnubg: PathBuf::new(),
            judge_plies: 2,
            class: None,
            worst: 5,
        };
        let rolls = [(Board::START, dice), (Board::START, dice)];
        let mut out = Vec::new();
        worst(
            &mut out,
            &a,
            &rolls,
            &[case(0), case(2)],
            &[values.clone(), values],
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        let text_of = |k: usize| Board::START.move_text(&moves.moves()[k]);
        let expected = format!(
            "  4HPwATDgc/ABMA 31: ours {} -0.100, judge's best {} +0.150, gnubg 0-ply {}: error 250.0",
            text_of(0),
            text_of(2),
            text_of(0)
        );
        assert_eq!(lines[1], expected);
    }

    #[test]
    fn record_positions_are_the_movers_boards_with_a_choice() {
        // The workspace's fixture, the records of a money session.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let path = root.join("fixtures/backgammon-money.pgn");
        let all = record_rolls(&path, 1000, None).unwrap();
        // Black opens with 5-6 from the start position (1... 56:24/13).
        assert_eq!(all[0], (Board::START, Dice::new(5, 6).unwrap()));
        // 48 plies, of which the passes and forced moves offer no choice.
        assert!(all.len() > 10 && all.len() < 48, "{}", all.len());
        for (board, dice) in &all {
            assert!(board.legal_moves(*dice).len() >= 2);
        }
        let five = record_rolls(&path, 5, None).unwrap();
        assert_eq!(five.len(), 5);
        assert_eq!(five[0], all[0]);
        assert!(five.iter().all(|r| all.contains(r)));
        assert!(record_rolls(Path::new("no/such.pgn"), 5, None).is_err());
        // One class only: the race positions of the game, all of them race.
        let race = record_rolls(&path, 1000, Some(NetClass::Race)).unwrap();
        assert!(!race.is_empty() && race.len() < all.len(), "{}", race.len());
        assert!(race
            .iter()
            .all(|(b, _)| NetClass::of(b) == Some(NetClass::Race)));
        assert!(race.iter().all(|r| all.contains(r)));
    }
}
