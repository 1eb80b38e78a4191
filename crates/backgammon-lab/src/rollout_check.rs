//! `backgammon rollout-check`: our rollouts beside GNU Backgammon's on the
//! same positions. Positions come from seeded self-play of the shipped nets,
//! classed by gnubg (contact, crashed, race); the first `per_class` of each
//! class (in a seeded shuffle) are rolled out, cubeless, before the roll,
//! by both programs at the same depth (our ply P is gnubg's P - 1), with
//! stratified (quasi-random) dice and variance reduction as asked. Per
//! class it prints the mean absolute difference, the bias (ours − gnubg's,
//! with its standard error) and the count of positions whose difference
//! lies beyond the joint 95% interval (1.96 √(se² + se'²)), and each
//! program's trials per CPU-second.

use crate::gnubg::{self, GnubgError, Job, CLASSIFY, ROLLOUT};
use crate::selfplay;
use backgammon_engine::cube::CubeState;
use backgammon_engine::eval::{classify, Class};
use backgammon_engine::player::nets;
use backgammon_engine::rollout::{rollout, RolloutError, Settings, Target};
use backgammon_rules::{Board, SplitMix};
use cpu_time::ProcessTime;
use std::io::Write;
use std::path::PathBuf;

/// What `rollout-check` runs.
#[derive(Clone, Debug)]
pub struct CheckSettings {
    /// Positions of each class.
    pub per_class: usize,
    /// Trials per position (each program).
    pub trials: u32,
    /// Our ply (gnubg rolls out at ply − 1).
    pub ply: u8,
    pub seed: u64,
    /// Self-play games the positions are drawn from.
    pub games: u32,
    /// Our threads (the speed is counted per CPU-second).
    pub threads: usize,
    pub variance_reduction: bool,
    pub gnubg: PathBuf,
    /// These positions (Position IDs, player on roll) instead of self-play
    /// ones, all of them, classed by gnubg.
    pub ids: Vec<String>,
    /// Only these classes (names of [`CLASSES`]); empty: all three.
    pub classes: Vec<String>,
}

/// Why the check failed.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Gnubg(#[from] GnubgError),
    #[error("gnubg: {0}")]
    Output(String),
    #[error(transparent)]
    Rollout(#[from] RolloutError),
    #[error("output: {0}")]
    Io(#[from] std::io::Error),
    #[error("--ids: {0}")]
    Id(String),
}

/// gnubg's classes we compare, by its ClassifyPosition numbers.
pub const CLASSES: [(&str, u32); 3] = [("contact", 10), ("crashed", 9), ("race", 8)];

/// One position's two rollouts (cubeless equity, standard error).
#[derive(Clone, Debug)]
struct Pair {
    class: &'static str,
    id: String,
    ours: (f64, f64),
    theirs: (f64, f64),
    /// CPU seconds of each rollout (ours, gnubg's).
    seconds: (f64, f64),
}

/// One program's rollouts: per position the cubeless equity and its
/// standard error, and the CPU seconds it took.
type Rolled = (Vec<(f64, f64)>, Vec<f64>);

/// Distinct non-bear-off positions of seeded self-play, shuffled.
fn sample(games: u32, seed: u64) -> Vec<Board> {
    let mut seen = std::collections::HashSet::new();
    let mut v: Vec<Board> = selfplay::positions(nets(), games, seed)
        .into_iter()
        .filter(|b| classify(b) != Class::Bearoff && seen.insert(b.key()))
        .collect();
    let mut rng = SplitMix::new(seed ^ 0xC0FFEE);
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u32 + 1) as usize);
    }
    v
}

/// The first `n` positions of each class, as gnubg classes them.
fn choose(s: &CheckSettings) -> Result<Vec<(&'static str, Board)>, CheckError> {
    let boards = if s.ids.is_empty() {
        sample(s.games, s.seed)
    } else {
        s.ids
            .iter()
            .map(|id| Board::from_position_id(id).map_err(|e| CheckError::Id(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?
    };
    let per_class = if s.ids.is_empty() {
        s.per_class
    } else {
        usize::MAX
    };
    let ids: String = boards.iter().map(|b| b.position_id() + "\n").collect();
    let job = Job {
        inputs: vec![("BG_IDS", ids)],
        outputs: vec!["BG_OUT"],
        vars: vec![],
    };
    let ran = gnubg::run(&s.gnubg, CLASSIFY, &job)?;
    let text = ran.outputs.into_iter().next().expect("one output");
    let text = text.map_err(|e| CheckError::Output(format!("no classes: {e}")))?;
    let mut chosen = Vec::new();
    let wanted = |name: &str| s.classes.is_empty() || s.classes.iter().any(|c| c == name);
    for (name, number) in CLASSES.into_iter().filter(|(name, _)| wanted(name)) {
        chosen.extend(
            boards
                .iter()
                .zip(text.lines())
                .filter(|(_, c)| c.trim().parse::<u32>().ok() == Some(number))
                .take(per_class)
                .map(|(b, _)| (name, *b)),
        );
    }
    Ok(chosen)
}

/// gnubg's final results in its terminal output: per rollout, the
/// cubeless equity and its standard error (the numbers after `CL` on the
/// mean line and on the bracketed line below it).
pub fn parse_gnubg_rollouts(text: &str) -> Vec<(f64, f64)> {
    let lines: Vec<&str> = text
        .split(['\r', '\n'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let after_cl = |l: &str| -> Option<f64> {
        let rest = l.split(" CL ").nth(1)?;
        rest.split_whitespace()
            .next()?
            .trim_end_matches(']')
            .parse()
            .ok()
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].starts_with("Rollout done") {
            let mean = lines[i..]
                .iter()
                .position(|l| l.contains(" CL ") && !l.starts_with('['));
            if let Some(m) = mean {
                let m = i + m;
                let se = lines.get(m + 1).and_then(|l| after_cl(l));
                if let (Some(e), Some(s)) = (after_cl(lines[m]), se) {
                    out.push((e, s));
                }
                i = m;
            }
        }
        i += 1;
    }
    out
}

/// Rolls each position out with gnubg; returns the results and each one's
/// CPU seconds.
fn gnubg_rollouts(
    s: &CheckSettings,
    boards: &[(&'static str, Board)],
) -> Result<Rolled, CheckError> {
    let ids: String = boards.iter().map(|(_, b)| b.position_id() + "\n").collect();
    let job = Job {
        inputs: vec![("BG_IDS", ids)],
        outputs: vec!["BG_OUT"],
        vars: vec![
            ("BG_TRIALS", s.trials.to_string()),
            ("BG_PLIES", (s.ply - 1).to_string()),
            ("BG_SEED", s.seed.to_string()),
            (
                "BG_VR",
                if s.variance_reduction { "1" } else { "0" }.to_string(),
            ),
        ],
    };
    let ran = gnubg::run_on_terminal(&s.gnubg, ROLLOUT, &job)?;
    let results = parse_gnubg_rollouts(&ran.stdout);
    if results.len() != boards.len() {
        return Err(CheckError::Output(format!(
            "{} rollouts read from gnubg's output, expected {}",
            results.len(),
            boards.len()
        )));
    }
    let times = ran.outputs.into_iter().next().expect("one output");
    let seconds: Vec<f64> = times
        .map_err(|e| CheckError::Output(format!("no times: {e}")))?
        .lines()
        .filter_map(|l| l.trim().parse::<f64>().ok())
        .collect();
    if seconds.len() != boards.len() {
        return Err(CheckError::Output(format!(
            "{} times, expected {}",
            seconds.len(),
            boards.len()
        )));
    }
    Ok((results, seconds))
}

/// Rolls each position out with ours; returns the results and each one's
/// CPU seconds (all threads').
fn our_rollouts(
    s: &CheckSettings,
    boards: &[(&'static str, Board)],
    log: &mut impl Write,
) -> Result<Rolled, CheckError> {
    let settings = Settings {
        trials: s.trials,
        ply: s.ply,
        seed: s.seed,
        threads: s.threads,
        variance_reduction: s.variance_reduction,
        ..Settings::default()
    };
    let mut out = Vec::new();
    let mut seconds = Vec::new();
    for (n, (_, b)) in boards.iter().enumerate() {
        let start = ProcessTime::now();
        let target = Target {
            board: *b,
            dice: None,
            cube: CubeState::money(true),
        };
        let r = rollout(nets(), &target, &settings, None, |_| true)?;
        let o = &r.outcomes[0];
        out.push((o.cubeless, o.cubeless_error));
        seconds.push(start.elapsed().as_secs_f64());
        writeln!(log, "ours {}/{}: {}", n + 1, boards.len(), b.position_id())?;
    }
    Ok((out, seconds))
}

/// A class's figures.
struct Summary {
    n: usize,
    mad: f64,
    bias: f64,
    bias_error: f64,
    beyond: usize,
    /// CPU seconds, ours and gnubg's.
    seconds: (f64, f64),
}

/// The figures of a class (None: no position of it).
fn summary(pairs: &[Pair], class: &str) -> Option<Summary> {
    let d: Vec<f64> = pairs
        .iter()
        .filter(|p| p.class == class)
        .map(|p| p.ours.0 - p.theirs.0)
        .collect();
    let n = d.len();
    if n == 0 {
        return None;
    }
    let mad = d.iter().map(|x| x.abs()).sum::<f64>() / n as f64;
    let bias = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - bias).powi(2)).sum::<f64>() / (n.max(2) - 1) as f64;
    let beyond = pairs
        .iter()
        .filter(|p| p.class == class)
        .filter(|p| {
            let joint = (p.ours.1.powi(2) + p.theirs.1.powi(2)).sqrt();
            (p.ours.0 - p.theirs.0).abs() > 1.96 * joint
        })
        .count();
    let of = pairs.iter().filter(|p| p.class == class);
    let seconds = of.fold((0.0, 0.0), |a, p| (a.0 + p.seconds.0, a.1 + p.seconds.1));
    Some(Summary {
        n,
        mad,
        bias,
        bias_error: (var / n as f64).sqrt(),
        beyond,
        seconds,
    })
}

/// Runs the check, printing each position and the summary to `out`
/// (progress to `log`).
pub fn run(
    s: &CheckSettings,
    out: &mut impl Write,
    log: &mut impl Write,
) -> Result<(), CheckError> {
    let boards = choose(s)?;
    writeln!(
        log,
        "rollout-check: {} positions; gnubg rolls out first",
        boards.len()
    )?;
    let (theirs, their_cpu) = gnubg_rollouts(s, &boards)?;
    let (ours, our_cpu) = our_rollouts(s, &boards, log)?;
    let pairs: Vec<Pair> = (0..boards.len())
        .map(|i| Pair {
            class: boards[i].0,
            id: boards[i].1.position_id(),
            ours: ours[i],
            theirs: theirs[i],
            seconds: (our_cpu[i], their_cpu[i]),
        })
        .collect();
    writeln!(
        out,
        "rollout-check: {} trials, our ply {} (gnubg {}-ply), variance reduction {}, seed {}",
        s.trials,
        s.ply,
        s.ply - 1,
        if s.variance_reduction { "on" } else { "off" },
        s.seed
    )?;
    writeln!(
        out,
        "class    position        ours             gnubg            diff"
    )?;
    for p in &pairs {
        writeln!(
            out,
            "{:<8} {:<15} {:+.4} ± {:.4} {:+.4} ± {:.4} {:+.4}",
            p.class,
            p.id,
            p.ours.0,
            p.ours.1,
            p.theirs.0,
            p.theirs.1,
            p.ours.0 - p.theirs.0
        )?;
    }
    writeln!(
        out,
        "class    n   mean |diff|  bias (ours-gnubg)  beyond joint 95%  trials/CPU-s ours  gnubg"
    )?;
    for (class, _) in CLASSES {
        if let Some(m) = summary(&pairs, class) {
            let trials = (m.n as u64 * s.trials as u64) as f64;
            writeln!(
                out,
                "{class:<8} {:<3} {:.4}       {:+.4} ± {:.4}    {:<17} {:<18.1} {:.1}",
                m.n,
                m.mad,
                m.bias,
                m.bias_error,
                m.beyond,
                trials / m.seconds.0.max(1e-9),
                trials / m.seconds.1.max(1e-9),
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnubg_final_results_are_read() {
        let text = "Current Position:\r\n  0.52 0.1 0.0 - 0.4 0.1 0.0 CL +0.200\r\n \
            [0.1 0.1 0.1 - 0.1 0.1 0.0 CL  0.050] 1r\r\n\
            Rollout done. Printing final results.\r\nCurrent Position:\r\n\
            \x20 0.526 0.142 0.000 - 0.474 0.089 0.005 CL +0.095\r\n\
            \x20[0.010 0.013 0.023 - 0.010 0.017 0.001 CL  0.033] 1r\r\n\
            Rollout done. Printing final results.\nCurrent Position:\n\
            \x20 0.3 0.0 0.0 - 0.7 0.2 0.0 CL -0.612\n [0.0 0.0 0.0 - 0.0 0.0 0.0 CL  0.004]\n";
        assert_eq!(
            parse_gnubg_rollouts(text),
            vec![(0.095, 0.033), (-0.612, 0.004)]
        );
    }
}
