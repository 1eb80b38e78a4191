//! The command line: the daemon (no subcommand), perft, bench, tune,
//! selfplay, match, solve and tablegen. `main` only parses and calls [`run`].

mod matches;

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
    /// Who chooses the daemon's moves: engine, random or greedy (baselines).
    #[arg(long, global = true, default_value = "engine")]
    pub player: crate::search::Player,
    /// Seed of the random player (default: from the clock) and of the
    /// openings of `tune` and `selfplay` (default there: 1).
    #[arg(long, global = true)]
    pub seed: Option<u64>,
}

impl Cli {
    /// The daemon's search options as the command line sets them.
    pub fn search_options(&self) -> crate::search::SearchOptions {
        crate::search::SearchOptions {
            player: self.player,
            seed: self.seed,
            ..Default::default()
        }
    }
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
        /// Search nodes per self-play move (the random openings use --seed, default 1).
        #[arg(long, default_value_t = 2000)]
        nodes: u64,
        /// Gradient descent epochs.
        #[arg(long, default_value_t = 400)]
        epochs: u32,
        /// File for the fitted weights.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Play an in-process match, player A against player B, in game pairs
    /// with colours swapped; prints each game and the score with an Elo estimate.
    Selfplay {
        /// Game pairs to play.
        #[arg(long, default_value_t = 10)]
        pairs: u32,
        /// Player A: engine, random or greedy.
        #[arg(long, default_value = "engine")]
        a: crate::search::Player,
        /// Player B: engine, random or greedy.
        #[arg(long, default_value = "random")]
        b: crate::search::Player,
        /// A's time per move in milliseconds.
        #[arg(long, default_value_t = 50)]
        a_ms: u64,
        /// B's time per move in milliseconds.
        #[arg(long, default_value_t = 50)]
        b_ms: u64,
        /// A's nodes per move (instead of time).
        #[arg(long)]
        a_nodes: Option<u64>,
        /// B's nodes per move (instead of time).
        #[arg(long)]
        b_nodes: Option<u64>,
        /// A's threads.
        #[arg(long, default_value_t = 1)]
        a_threads: usize,
        /// B's threads.
        #[arg(long, default_value_t = 1)]
        b_threads: usize,
        /// Checkers per player.
        #[arg(long, default_value_t = 14, value_parser = parse_checkers)]
        checkers: u8,
        /// A's evaluation weights, a file written by `tune` (default: built in).
        #[arg(long)]
        a_weights: Option<std::path::PathBuf>,
        /// B's evaluation weights, a file written by `tune` (default: built in).
        #[arg(long)]
        b_weights: Option<std::path::PathBuf>,
    },
    /// Play a match between engines that speak the protocol (see README).
    Match(Box<matches::MatchArgs>),
    /// Solve a position exactly: value for the side to move, plies to the
    /// end under optimal play, all optimal moves, and the cost.
    Solve {
        /// Position string to solve (default: the start position).
        #[arg(long)]
        fen: Option<Position>,
        /// Checkers per player for the start position (2, 4, ..., 14).
        #[arg(long, default_value_t = 2, value_parser = parse_checkers)]
        checkers: u8,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 1024)]
        hash_mb: usize,
        /// Endgame table file to use during the solve (from `tablegen`).
        #[arg(long)]
        tables: Option<std::path::PathBuf>,
    },
    /// Generate the endgame tables of the last phase and write them to a file.
    Tablegen {
        /// File to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Most checkers on the board, both players together (2, 4 or 6).
        #[arg(long, default_value_t = 6)]
        max_checkers: u8,
    },
}

fn read_weights(
    path: Option<std::path::PathBuf>,
) -> Result<[i32; crate::search::eval::N_FEATURES], CliError> {
    match path {
        None => Ok(crate::search::eval::WEIGHTS),
        Some(p) => {
            let text = std::fs::read_to_string(&p)?;
            crate::search::eval::parse_weights(&text)
                .map_err(|e| CliError::Weights(format!("{}: {e}", p.display())))
        }
    }
}

fn match_side(
    player: crate::search::Player,
    ms: u64,
    nodes: Option<u64>,
    threads: usize,
    seed: Option<u64>,
) -> grasshopper_lab::selfplay::Side {
    use crate::search::{Limits, SearchOptions};
    // Time per move is the whole budget: no overhead to keep in-process.
    let options = SearchOptions {
        player,
        threads,
        seed,
        move_overhead: std::time::Duration::ZERO,
        ..Default::default()
    };
    let limits = match nodes {
        Some(n) => Limits {
            nodes: Some(n),
            ..Default::default()
        },
        None => Limits {
            movetime: Some(std::time::Duration::from_millis(ms)),
            ..Default::default()
        },
    };
    grasshopper_lab::selfplay::Side { options, limits }
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
    /// A match could not be played.
    Match(match_runner::MatchError),
    /// Generating, reading or writing endgame tables failed.
    Table(crate::solver::TableError),
    /// A weights file that cannot be read.
    Weights(String),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Io(e) => write!(f, "output error: {e}"),
            CliError::Match(e) => write!(f, "match: {e}"),
            CliError::Table(e) => write!(f, "{e}"),
            CliError::Weights(e) => write!(f, "bad weights file {e}"),
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
    let seed = cli.seed;
    let daemon_options = cli.search_options();
    match cli.command {
        None => Ok(crate::protocol::run(
            std::io::BufReader::new(std::io::stdin()),
            std::io::stdout(),
            daemon_options,
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
            nodes,
            epochs,
            out: path,
        }) => {
            let mut file = std::fs::File::create(path)?;
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            let seed = seed.unwrap_or(1);
            grasshopper_lab::tune::run(&mut out, &mut file, games, seed, nodes, epochs)?;
            Ok(())
        }
        Some(Command::Selfplay {
            pairs,
            a,
            b,
            a_ms,
            b_ms,
            a_nodes,
            b_nodes,
            a_threads,
            b_threads,
            checkers,
            a_weights,
            b_weights,
        }) => {
            let mut sa = match_side(a, a_ms, a_nodes, a_threads, Some(seed.unwrap_or(1)));
            sa.options.weights = read_weights(a_weights)?;
            let mut sb = match_side(
                b,
                b_ms,
                b_nodes,
                b_threads,
                Some(seed.unwrap_or(1) ^ 0x5555),
            );
            sb.options.weights = read_weights(b_weights)?;
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            grasshopper_lab::selfplay::run(&mut out, &sa, &sb, pairs, seed.unwrap_or(1), checkers)?;
            Ok(())
        }
        // The global --seed also seeds the match's random openings.
        Some(Command::Match(args)) => matches::run(*args, seed).map_err(CliError::Match),
        Some(Command::Solve {
            fen,
            checkers,
            hash_mb,
            tables,
        }) => {
            let pos = fen.unwrap_or_else(|| Position::start(checkers).expect("checked by clap"));
            let mut solver = crate::solver::Solver::new(hash_mb);
            if let Some(path) = tables {
                let t = crate::solver::Tables::load(path).map_err(CliError::Table)?;
                solver.set_tables(Some(t));
            }
            crate::solver::write_solve(&mut std::io::stdout().lock(), &mut solver, &pos)?;
            Ok(())
        }
        Some(Command::Tablegen { out, max_checkers }) => {
            crate::solver::write_tablegen(&mut std::io::stdout().lock(), max_checkers, &out)
                .map_err(CliError::Table)
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
