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

/// CPU time (user + system) of this process so far, in seconds, from the
/// system's process clock (`cpu-time`: clock_gettime's process CPU clock, no
/// tick rate assumed).
pub fn cpu_seconds() -> Option<f64> {
    cpu_time::ProcessTime::try_now()
        .ok()
        .map(|t| t.as_duration().as_secs_f64())
}

/// Solves the game of `pos.checkers()` by retrograde analysis in `dir`
/// (resuming what is there), then reports `pos`'s value and the costs:
/// `position`, `value` (`unknown` when its phase is beyond `max_level`),
/// `method`, `units`, `positions`, `computed`, `wins`/`draws`/`losses` of
/// the units solved by this run, `time`, `cpu`, `peak_rss_mib`, `disk_bytes`.
pub fn write_retro(
    out: &mut impl Write,
    pos: &Position,
    dir: &Path,
    options: crate::retro::RetroOptions,
    log: &mut dyn Write,
) -> Result<Option<i8>, crate::retro::RetroError> {
    let start = Instant::now();
    let cpu0 = cpu_seconds();
    let mut retro = crate::retro::Retro::new(pos.checkers(), dir, options, log);
    let sum = retro.run()?;
    let value = retro.value(pos);
    let seconds = start.elapsed().as_secs_f64();
    let io = |e| crate::retro::RetroError::Io(dir.to_path_buf(), e);
    let name = |v: Option<i8>| match v {
        Some(1) => "win",
        Some(0) => "draw",
        Some(_) => "loss",
        None => "unknown",
    };
    let mut lines = vec![
        format!("position {pos}"),
        format!("value {}", name(value)),
        "method retrograde".to_string(),
        format!("units {}/{}", sum.complete, sum.units),
        format!("interrupted {}", sum.interrupted),
        format!("positions {}/{}", sum.positions_complete, sum.positions),
        format!("computed {}", sum.computed),
        format!("wins {}", sum.wdl[0]),
        format!("draws {}", sum.wdl[1]),
        format!("losses {}", sum.wdl[2]),
        format!("time {seconds:.3}"),
    ];
    if let (Some(a), Some(b)) = (cpu0, cpu_seconds()) {
        lines.push(format!("cpu {:.2}", b - a));
    }
    lines.push(format!(
        "peak_rss_mib {}",
        peak_rss_kib().map_or("-".to_string(), |k| (k / 1024).to_string())
    ));
    lines.push(format!("disk_bytes {}", sum.disk_bytes));
    for l in lines {
        writeln!(out, "{l}").map_err(io)?;
    }
    Ok(value)
}
