//! Text reports of the `solve` and `tablegen` commands (written to any
//! `Write`, so tests can read them).

use super::{Solution, Solver, TableError, Tables};
use grasshopper_rules::Position;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// The figures of one `solve` run.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveReport {
    pub solution: Solution,
    pub visited: u64,
    pub stored: u64,
    pub seconds: f64,
    pub peak_rss_kib: Option<u64>,
}

/// Peak resident memory of this process (VmHWM), in KiB, where the system
/// reports it (Linux).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Solves `pos` and writes one `key value` line per figure:
/// `position`, `value` (win/draw/loss for the side to move), `plies` (`-`
/// for a draw), `mate` (the mover's own moves, signed), `bestmoves`,
/// `visited`, `stored`, `replaced`, `table_mib`, `time`, `peak_rss_mib`.
pub fn write_solve(
    out: &mut impl Write,
    solver: &mut Solver,
    pos: &Position,
) -> std::io::Result<SolveReport> {
    let start = Instant::now();
    let solution = solver.solve(pos);
    let best = solver.best_moves(pos, &solution);
    let seconds = start.elapsed().as_secs_f64();
    let counts = solver.counts();
    let peak = peak_rss_kib();
    let dash = |o: Option<String>| o.unwrap_or_else(|| "-".to_string());
    writeln!(out, "position {pos}")?;
    writeln!(out, "value {}", solution.value)?;
    writeln!(out, "plies {}", dash(solution.plies.map(|p| p.to_string())))?;
    writeln!(
        out,
        "mate {}",
        dash(solution.mate_moves().map(|n| n.to_string()))
    )?;
    let moves: Vec<String> = best.iter().map(|m| m.to_string()).collect();
    writeln!(out, "bestmoves {}", moves.join(" "))?;
    writeln!(out, "visited {}", counts.visited)?;
    writeln!(out, "stored {}", solver.stored())?;
    writeln!(out, "replaced {}", solver.replaced())?;
    writeln!(out, "table_hits {}", counts.table_hits)?;
    writeln!(out, "table_mib {}", solver.table_bytes() >> 20)?;
    writeln!(out, "time {seconds:.3}")?;
    writeln!(
        out,
        "peak_rss_mib {}",
        dash(peak.map(|k| (k / 1024).to_string()))
    )?;
    Ok(SolveReport {
        solution,
        visited: counts.visited,
        stored: solver.stored(),
        seconds,
        peak_rss_kib: peak,
    })
}

/// Generates the tables of bound `bound`, writes them to `path` and reports
/// `bound`, `entries`, `wins`, `draws`, `losses`, `bytes`, `time`.
pub fn write_tablegen(out: &mut impl Write, bound: u8, path: &Path) -> Result<(), TableError> {
    let start = Instant::now();
    let tables = Tables::generate(bound)?;
    tables.save(path)?;
    let (w, d, l) = tables.census();
    let bytes = std::fs::metadata(path)?.len();
    writeln!(out, "bound {bound}")?;
    writeln!(out, "entries {}", tables.len())?;
    writeln!(out, "wins {w}")?;
    writeln!(out, "draws {d}")?;
    writeln!(out, "losses {l}")?;
    writeln!(out, "bytes {bytes}")?;
    writeln!(out, "time {:.3}", start.elapsed().as_secs_f64())?;
    Ok(())
}
