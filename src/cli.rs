//! The command line: subcommands for perft (and, as they land, the daemon,
//! match runner, solver and bench). `main` only parses and calls [`run`].

use crate::rules::{perft, perft_divide, Position};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::time::Instant;

/// Grasshopper engine. With no subcommand it runs the protocol daemon on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "grasshopper", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the game tree to DEPTH (move generation check).
    Perft {
        /// Plies to count.
        depth: u32,
        /// Position string to start from (default: the start position).
        #[arg(long)]
        fen: Option<Position>,
        /// Checkers per player for the start position (2, 4, ..., 14).
        #[arg(long, default_value_t = 14, value_parser = parse_checkers)]
        checkers: u8,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Search the fixed bench positions (fixtures/bench.txt) to a fixed depth;
    /// ends with `<N> nodes <M> nps` (N is a signature of the search).
    Bench {
        /// Depth of every search.
        #[arg(long, default_value_t = crate::search::bench::DEFAULT_DEPTH)]
        depth: u32,
    },
    /// Fit the evaluation weights to self-play results (Texel tuning); writes
    /// the fitted weights as a Rust array to --out.
    Tune {
        /// Self-play games to generate.
        #[arg(long, default_value_t = 1000)]
        games: u32,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Search nodes per self-play move.
        #[arg(long, default_value_t = 2000)]
        nodes: u64,
        /// Gradient descent epochs.
        #[arg(long, default_value_t = 400)]
        epochs: u32,
        /// File for the fitted weights.
        #[arg(long)]
        out: std::path::PathBuf,
    },
}

fn parse_checkers(s: &str) -> Result<u8, String> {
    let n: u8 = s
        .parse()
        .map_err(|_| format!("\"{s}\" is not a number of checkers: expected 2, 4, ..., 14"))?;
    Position::start(n)
        .map(|_| n)
        .ok_or_else(|| format!("{n} checkers: expected an even number from 2 to 14"))
}

/// Errors that end a command-line run.
#[derive(Debug)]
pub enum CliError {
    /// Writing to stdout failed (e.g. a closed pipe).
    Io(std::io::Error),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Io(e) => write!(f, "output error: {e}"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Io(e)
    }
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        None => Ok(crate::protocol::run(
            std::io::BufReader::new(std::io::stdin()),
            std::io::stdout(),
            crate::search::SearchOptions::default(),
        )?),
        Some(Command::Perft {
            depth,
            fen,
            checkers,
            divide,
        }) => {
            let pos = fen.unwrap_or_else(|| Position::start(checkers).expect("checked by clap"));
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            write_perft(&mut out, &pos, depth, divide)?;
            Ok(())
        }
        Some(Command::Bench { depth }) => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            crate::search::bench::one_second(&mut out)?;
            crate::search::bench::run(&mut out, depth)?;
            Ok(())
        }
        Some(Command::Tune {
            games,
            seed,
            nodes,
            epochs,
            out: path,
        }) => {
            let mut file = std::fs::File::create(path)?;
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            crate::search::tune::run(&mut out, &mut file, games, seed, nodes, epochs)?;
            Ok(())
        }
    }
}

/// Writes a perft report: with `divide`, one `<move>: <count>` line per root
/// move; always a last line `nodes <total>`. Timing goes to the log (stderr).
pub fn write_perft(
    out: &mut impl Write,
    pos: &Position,
    depth: u32,
    divide: bool,
) -> std::io::Result<u64> {
    let start = Instant::now();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for (m, n) in perft_divide(pos, depth) {
            writeln!(out, "{m}: {n}")?;
            total += n;
        }
        total
    } else {
        perft(pos, depth)
    };
    writeln!(out, "nodes {total}")?;
    let secs = start.elapsed().as_secs_f64();
    log::info!(
        "perft {depth}: {total} nodes in {secs:.3} s, {:.0} nodes/s",
        total as f64 / secs.max(1e-9)
    );
    Ok(total)
}
