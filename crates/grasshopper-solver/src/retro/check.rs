//! The tables against the alpha-beta solver: sampled positions of the solved
//! units, each solved independently by [`crate::Solver`].

use super::{halves_of, unit_size, units, Retro, RetroError, RetroOptions};
use crate::{Solver, Value};
use grasshopper_rules::Position;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// What a comparison found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Positions compared.
    pub samples: u64,
    /// Positions where the two disagree: the position, the table's value
    /// and the solver's (+1, 0, -1).
    pub mismatches: Vec<(Position, i8, i8)>,
    /// Wins, draws, losses among the samples.
    pub wdl: [u64; 3],
    /// Units sampled from, and their positions.
    pub units: usize,
    pub positions: u64,
    pub seconds: f64,
}

/// A small deterministic generator (SplitMix64).
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// What [`check`] samples and how it solves.
#[derive(Clone, Debug)]
pub struct Sampling {
    /// Positions to compare.
    pub samples: u64,
    /// Seed of the sample.
    pub seed: u64,
    /// Sample only units of at most this level.
    pub max_level: Option<u8>,
    /// The alpha-beta solver's table, in MiB.
    pub hash_mb: usize,
}

/// Compares positions drawn uniformly from the complete units of the game of
/// `n` checkers in `dir` with the alpha-beta solver's value (which may use
/// the last-phase endgame tables, an independent generator).
pub fn check(
    dir: &Path,
    n: u8,
    sampling: &Sampling,
    endgame: Option<crate::Tables>,
    log: &mut dyn Write,
) -> Result<CheckReport, RetroError> {
    let Sampling {
        samples,
        seed,
        max_level,
        hash_mb,
    } = *sampling;
    let start = Instant::now();
    let mut sink = std::io::sink();
    let mut retro = Retro::new(n, dir, RetroOptions::default(), &mut sink);
    let chosen: Vec<_> = units(n)
        .into_iter()
        .filter(|u| max_level.is_none_or(|m| u.level() <= m))
        .filter(|&u| super::unit_path(dir, u, "wdl").exists())
        .collect();
    let mut halves = Vec::new();
    for &u in &chosen {
        retro.load(u)?;
        for k in halves_of(u) {
            halves.push(retro.store.get(k).expect("loaded").clone());
        }
    }
    let total: u64 = chosen.iter().map(|&u| unit_size(u)).sum();
    let mut report = CheckReport {
        units: chosen.len(),
        positions: total,
        ..Default::default()
    };
    if total == 0 {
        return Ok(report);
    }
    let mut solver = Solver::new(hash_mb);
    solver.set_tables(endgame);
    let mut rng = Mix(seed);
    let mut last = Instant::now();
    while report.samples < samples {
        let mut i = rng.next() % total;
        let half = halves
            .iter()
            .find(|h| {
                if i < h.layout.size {
                    true
                } else {
                    i -= h.layout.size;
                    false
                }
            })
            .expect("index below the total");
        let pos = half.layout.position_at(i).expect("a position");
        let table = retro.store.value(&pos).expect("solved");
        let solved = match solver.value(&pos) {
            Value::Win => 1,
            Value::Draw => 0,
            Value::Loss => -1,
        };
        if table != solved {
            report.mismatches.push((pos, table, solved));
        }
        report.wdl[(1 - solved) as usize] += 1;
        report.samples += 1;
        if last.elapsed().as_secs() >= 30 {
            last = Instant::now();
            let _ = writeln!(
                log,
                "check: {} of {samples} positions, {} mismatches, {:.0} s",
                report.samples,
                report.mismatches.len(),
                start.elapsed().as_secs_f64()
            );
        }
        // Keep the solver's table from filling with one region only.
        if report.samples.is_multiple_of(200_000) {
            solver.clear();
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Compares every stored position of the complete units of the game of `n`
/// checkers in `dir` that the last-phase endgame tables also hold (nothing
/// to enter, at most their bound on the board) with those tables' value.
pub fn check_endgame(
    dir: &Path,
    n: u8,
    endgame: &crate::Tables,
    log: &mut dyn Write,
) -> Result<CheckReport, RetroError> {
    let start = Instant::now();
    let mut sink = std::io::sink();
    let mut retro = Retro::new(n, dir, RetroOptions::default(), &mut sink);
    let mut report = CheckReport::default();
    for u in units(n) {
        let covered = |k: super::HalfKey| k.tm + k.to == 0 && k.bm + k.bo <= endgame.bound();
        if !halves_of(u).into_iter().any(covered) || !super::unit_path(dir, u, "wdl").exists() {
            continue;
        }
        retro.load(u)?;
        report.units += 1;
        for k in halves_of(u).into_iter().filter(|&k| covered(k)) {
            let h = retro.store.get(k).expect("loaded").clone();
            report.positions += h.layout.size;
            for i in 0..h.layout.size {
                let pos = h.layout.position_at(i).expect("a position");
                let table = retro.store.value(&pos).expect("solved");
                let want = match endgame.probe(&pos).expect("in the endgame phase").value {
                    Value::Win => 1,
                    Value::Draw => 0,
                    Value::Loss => -1,
                };
                if table != want {
                    report.mismatches.push((pos, table, want));
                }
                report.wdl[(1 - want) as usize] += 1;
                report.samples += 1;
            }
        }
        let _ = writeln!(
            log,
            "check: {} positions compared, {} mismatches",
            report.samples,
            report.mismatches.len()
        );
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Solves the start of the game of `n` checkers with the forward solver
/// (a different traversal: depth-first from the start over the positions
/// it needs) and compares every value it computed with the tables in `dir`
/// (all units of the game must be complete there).
pub fn check_forward(dir: &Path, n: u8, log: &mut dyn Write) -> Result<CheckReport, RetroError> {
    let start = Instant::now();
    let mut f = super::forward::Forward::new(n);
    let root = Position::start(n).expect("a game size");
    let v = f.value(&root);
    let _ = writeln!(
        log,
        "check: forward value {v}, {} positions computed",
        f.computed
    );
    let mut sink = std::io::sink();
    let mut retro = Retro::new(n, dir, RetroOptions::default(), &mut sink);
    let mut report = CheckReport::default();
    for u in units(n) {
        retro.load(u)?;
        report.units += 1;
        for k in halves_of(u) {
            let (a, b) = (
                f.store.get(k).expect("allocated"),
                retro.store.get(k).expect("loaded"),
            );
            report.positions += a.layout.size;
            for i in 0..a.layout.size {
                let fv = a.get(i);
                if fv == 0 {
                    continue;
                }
                let rv = b.get(i);
                let signed = |c: u8| [0i8, 1, 0, -1][c as usize];
                if fv != rv {
                    let pos = a.layout.position_at(i).expect("a position");
                    report.mismatches.push((pos, signed(rv), signed(fv)));
                }
                report.wdl[(1 - signed(fv)) as usize] += 1;
                report.samples += 1;
            }
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}
