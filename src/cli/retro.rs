//! The retrograde solver's commands: `solve --retro` (phase tables from the
//! last phase to the first, checkpointed) and `retro-check` (the tables
//! against alpha-beta, the endgame tables or a forward solve).

use super::{position_or_start, CliError, SolveArgs};
use grasshopper_solver::retro::{check as checks, RetroOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// `retro-check`.
#[derive(clap::Args, Debug)]
pub struct RetroCheckArgs {
    /// Directory of the phase tables (from `solve --retro`).
    #[arg(long, value_name = "DIR")]
    retro: PathBuf,
    /// Checkers per player of the game whose phases are sampled.
    #[arg(long, value_parser = super::parse_checkers)]
    checkers: u8,
    /// Positions to compare.
    #[arg(long, default_value_t = 10_000)]
    samples: u64,
    /// Sample only phases of at most this level.
    #[arg(long)]
    max_level: Option<u8>,
    /// Transposition table of the alpha-beta solver, in MiB.
    #[arg(long, default_value_t = 1024)]
    hash_mb: usize,
    /// Endgame table file (from `tablegen`) for the alpha-beta solver, or
    /// the reference of `--against endgame`.
    #[arg(long)]
    tables: Option<PathBuf>,
    /// The reference: `solver` (alpha-beta on sampled positions),
    /// `endgame` (every position the endgame tables of --tables hold),
    /// `forward` (every position a forward solve of the start computes) or
    /// `minimax` (every position reachable from the start, valued by plain
    /// minimax; N <= 4).
    #[arg(long, default_value = "solver")]
    against: String,
}

/// `solve --retro DIR`: solves every phase the position leads to and
/// prints its value.
pub fn solve(a: SolveArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos = position_or_start(a.fen, a.checkers);
    let minutes = |m: f64| Duration::from_secs_f64(m * 60.0);
    let mut options = RetroOptions {
        max_level: a.max_level,
        checkpoint_every: minutes(a.checkpoint_mins),
        progress_every: Duration::from_secs_f64(a.progress_secs),
        only_level: a.level,
        shard: a.shard,
        stop_after: a.stop_after_mins.map(minutes),
        ..Default::default()
    };
    if let Some(t) = a.threads {
        options.threads = t;
    }
    let dir = a.retro.expect("called with --retro");
    grasshopper_solver::write_retro(out, &pos, &dir, options, &mut std::io::stderr())?;
    Ok(())
}

/// `retro-check`: compares the tables with the chosen reference and prints
/// the counts and any mismatches.
pub fn check(a: RetroCheckArgs, seed: u64, out: &mut impl Write) -> Result<(), CliError> {
    let tables = a.tables.map(grasshopper_solver::Tables::load).transpose()?;
    let log = &mut std::io::stderr();
    let r = match (a.against.as_str(), tables) {
        ("endgame", Some(t)) => checks::check_endgame(&a.retro, a.checkers, &t, log)?,
        ("forward", _) => checks::check_forward(&a.retro, a.checkers, log)?,
        ("minimax", _) if a.checkers <= 4 => checks::check_minimax(&a.retro, a.checkers, log)?,
        ("solver", t) => {
            let sampling = checks::Sampling {
                samples: a.samples,
                seed,
                max_level: a.max_level,
                hash_mb: a.hash_mb,
            };
            checks::check(&a.retro, a.checkers, &sampling, t, log)?
        }
        (other, _) => {
            return Err(CliError::Usage(format!(
                "--against \"{other}\": expected solver, endgame (with --tables), forward or minimax (N <= 4)"
            )))
        }
    };
    writeln!(out, "units {}", r.units)?;
    writeln!(out, "positions {}", r.positions)?;
    writeln!(out, "samples {}", r.samples)?;
    writeln!(out, "wins {}", r.wdl[0])?;
    writeln!(out, "draws {}", r.wdl[1])?;
    writeln!(out, "losses {}", r.wdl[2])?;
    writeln!(out, "mismatches {}", r.mismatches.len())?;
    for (p, t, s) in r.mismatches.iter().take(20) {
        writeln!(out, "mismatch {p} table {t} solver {s}")?;
    }
    writeln!(out, "time {:.3}", r.seconds)?;
    Ok(())
}
