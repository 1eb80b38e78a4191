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

/// Compares `samples` positions drawn uniformly from the complete units of
/// the game of `n` checkers in `dir` (of level at most `max_level`) with the
/// alpha-beta solver's value (which may use the last-phase endgame tables,
/// an independent generator).
pub fn check(
    dir: &Path,
    n: u8,
    samples: u64,
    seed: u64,
    max_level: Option<u8>,
    hash_mb: usize,
    endgame: Option<crate::Tables>,
    log: &mut dyn Write,
) -> Result<CheckReport, RetroError> {
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
        if report.samples % 200_000 == 0 {
            solver.clear();
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}
