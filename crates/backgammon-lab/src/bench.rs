//! Speed figures (`backgammon bench`): evaluations per second on one
//! thread, and positions searched per second at 2-ply, on a fixed set of
//! positions from seeded self-play games, optionally beside GNU
//! Backgammon's on the same positions. Timed by the thread's CPU time, so
//! other work on the machine does not count against it.

use crate::gnubg::{self, GnubgError, Job};
use crate::selfplay::positions;
use backgammon_engine::bearoff::Bearoff;
use backgammon_engine::eval::NetsError;
use backgammon_engine::eval::{classify, Class, Evaluator};
use backgammon_engine::search::Searcher;
use backgammon_rules::{Board, Dice, MoveList, RollDice, SplitMix};
use std::io::Write;
use std::path::{Path, PathBuf};

/// CPU time of the calling thread, in seconds.
pub fn thread_cpu_seconds() -> f64 {
    // The first field of schedstat: nanoseconds on the CPU.
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(crate::train::cpu_seconds, |ns| ns / 1e9)
}

/// One figure: work done, CPU seconds, and the rate.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rate {
    pub count: u64,
    pub seconds: f64,
}

impl Rate {
    pub fn per_second(&self) -> f64 {
        self.count as f64 / self.seconds.max(1e-9)
    }
}

/// Evaluates `boards` over and over for at least `min_seconds` of CPU.
pub fn evaluations(eval: &Evaluator, boards: &[Board], min_seconds: f64) -> Rate {
    let t0 = thread_cpu_seconds();
    let mut count = 0u64;
    let mut sink = 0.0f32;
    loop {
        for b in boards {
            sink += eval.evaluate(b)[0];
        }
        count += boards.len() as u64;
        let t = thread_cpu_seconds() - t0;
        if t >= min_seconds {
            std::hint::black_box(sink);
            return Rate { count, seconds: t };
        }
    }
}

/// The share of each class among `boards`: contact, crashed, race,
/// bear-off.
pub fn classes(boards: &[Board]) -> [usize; 4] {
    let mut n = [0; 4];
    for b in boards {
        n[match classify(b) {
            Class::Contact => 0,
            Class::Crashed => 1,
            Class::Race => 2,
            Class::Bearoff => 3,
        }] += 1;
    }
    n
}

/// What [`searches`] measured: positions evaluated and the seconds they
/// took (the thread's CPU time, or the wall clock on threads), the
/// decisions, and the slowest decision's seconds.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Searched {
    pub rate: Rate,
    pub decisions: u64,
    pub slowest: f64,
}

/// Searches `n` boards spread over `boards` with a seeded roll each at
/// `plies`, the deepest look-aheads on `threads` threads (timed by the
/// wall clock then: the CPU time of the calling thread would miss the
/// helpers').
pub fn searches(
    eval: &Evaluator,
    boards: &[Board],
    n: usize,
    plies: u8,
    threads: usize,
) -> Searched {
    let mut s = Searcher::new(eval);
    s.set_threads(threads);
    let clock = std::time::Instant::now();
    let now = || {
        if threads > 1 {
            clock.elapsed().as_secs_f64()
        } else {
            thread_cpu_seconds()
        }
    };
    let mut moves = Box::<MoveList>::default();
    let mut rng = SplitMix::new(99);
    let t0 = now();
    let step = (boards.len() / n.max(1)).max(1);
    let mut decisions = 0;
    let mut slowest = 0.0f64;
    for b in boards.iter().step_by(step).take(n) {
        let dice: Dice = rng.dice();
        let t = now();
        s.choose(b, dice, plies, None, &mut moves);
        slowest = slowest.max(now() - t);
        decisions += 1;
    }
    Searched {
        rate: Rate {
            count: s.evals(),
            seconds: now() - t0,
        },
        decisions,
        slowest,
    }
}

/// What `backgammon bench` measures.
#[derive(Clone, Debug)]
pub struct BenchSettings {
    /// Self-play games whose positions are evaluated.
    pub games: u32,
    /// CPU seconds of evaluations to time.
    pub seconds: f64,
    /// Decisions to search at 2-ply (a tenth as many at 3-ply, a fortieth
    /// at 4-ply).
    pub searches: usize,
    /// Nets of a run directory instead of the process's (`grasshopper --nets DIR`, else the shipped ones).
    pub nets: Option<PathBuf>,
    /// GNU Backgammon's binary, to time it on the same positions.
    pub gnubg: Option<PathBuf>,
}

/// Why `backgammon bench` stopped.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Nets(#[from] NetsError),
    #[error(transparent)]
    Gnubg(#[from] GnubgError),
    /// gnubg's output lacks a line the timing needs.
    #[error("gnubg printed no \"{what}\": {stdout}")]
    Missing { what: &'static str, stdout: String },
    /// The timing line does not hold three numbers.
    #[error("gnubg's timing line holds {0:?}")]
    Timing(Vec<f64>),
    /// The calibration line holds no number.
    #[error("gnubg's calibration result is not a number: {0}")]
    Calibration(String),
    /// Writing the report failed.
    #[error("output error: {0}")]
    Output(#[from] std::io::Error),
}

/// Runs `backgammon bench`, writing each figure to `out` as it is measured.
pub fn run(a: &BenchSettings, out: &mut impl Write) -> Result<(), BenchError> {
    let eval = backgammon_engine::player::nets_or_dir(a.nets.as_deref())?;
    let t = thread_cpu_seconds();
    std::hint::black_box(Bearoff::generate());
    let bearoff_s = thread_cpu_seconds() - t;
    let boards = positions(&eval, a.games, 7);
    let [c, x, r, b] = classes(&boards);
    writeln!(out, "bear-off database: generated in {bearoff_s:.2} cpu-s")?;
    writeln!(
        out,
        "positions: {} from {} self-play games (contact {c}, crashed {x}, race {r}, bear-off {b})",
        boards.len(),
        a.games
    )?;
    let e = evaluations(&eval, &boards, a.seconds);
    writeln!(
        out,
        "evaluations: {:.0} per second on one thread ({} in {:.2} cpu-s)",
        e.per_second(),
        e.count,
        e.seconds
    )?;
    let contact: Vec<_> = boards
        .iter()
        .copied()
        .filter(|b| classify(b) == Class::Contact)
        .collect();
    let ec = evaluations(&eval, &contact, a.seconds / 2.0);
    writeln!(
        out,
        "contact evaluations: {:.0} per second",
        ec.per_second()
    )?;
    let cores = backgammon_engine::search::cores();
    let mut plies = vec![
        (2u8, a.searches, 1),
        (3, a.searches / 10, 1),
        (4, a.searches / 40, 1),
    ];
    if cores > 1 {
        plies.push((4, a.searches / 40, cores));
    }
    for (plies, n, threads) in plies.into_iter().filter(|p| p.1 > 0) {
        let Searched {
            rate: s,
            decisions: d,
            slowest,
        } = searches(&eval, &boards, n, plies, threads);
        let on = if threads > 1 {
            format!(" on {threads} threads, wall clock")
        } else {
            String::new()
        };
        writeln!(
            out,
            "{plies}-ply{on}: {:.0} positions evaluated per second, {:.1} decisions per second ({} decisions, {:.0} positions each, the slowest {:.0} ms)",
            s.per_second(),
            d as f64 / s.seconds,
            d,
            s.count as f64 / d as f64,
            slowest * 1000.0
        )?;
    }
    if let Some(gnubg) = &a.gnubg {
        for line in gnubg_timing(gnubg, &boards, e.per_second())? {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// Times GNU Backgammon on the same positions: its 0-ply evaluation
/// through its Python module, and its own `calibrate`, each beside
/// `ours` (our evaluations a second).
fn gnubg_timing(program: &Path, boards: &[Board], ours: f64) -> Result<Vec<String>, BenchError> {
    let ids: String = boards.iter().map(|b| format!("{b}\n")).collect();
    let job = Job {
        inputs: vec![("BG_IDS", ids)],
        ..Job::default()
    };
    let text = gnubg::run(program, gnubg::TIMER, &job)?.stdout;
    let numbers_after = |what: &'static str| -> Result<Vec<f64>, BenchError> {
        let line = text
            .lines()
            // gnubg draws its progress with carriage returns before the result.
            .find_map(|l| l.find(what).map(|i| &l[i + what.len()..]))
            .ok_or_else(|| BenchError::Missing {
                what,
                stdout: text.clone(),
            })?;
        Ok(line
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect())
    };
    let f = numbers_after("gnubg-timing")?;
    let [n, t_eval, t_call] = f[..] else {
        return Err(BenchError::Timing(f));
    };
    let calibrated = numbers_after("Calibration result:")?
        .first()
        .copied()
        .ok_or_else(|| BenchError::Calibration(text.clone()))?;
    Ok(vec![
        format!(
            "gnubg 0-ply evaluations (same positions, its Python module): {:.0} per second; {:.0} per second net of the cost of a Python call to positionid ({:.2} cpu-s, {:.2} cpu-s)",
            n / t_eval,
            n / (t_eval - t_call).max(1e-9),
            t_eval,
            t_call
        ),
        format!(
            "gnubg calibrate (its own timing of static evaluations, one thread, wall clock): {calibrated:.0} per second; ours {:.1} times that",
            ours / calibrated
        ),
    ])
}
