//! The command line: the daemon (no subcommand), perft, bench, tune,
//! selfplay, match, solve and tablegen. `main` only parses and calls [`run`];
//! each subcommand is a short function over the crates that do the work.

mod backgammon;
mod bgnet;
mod daemon;
mod lab;
mod matches;

use clap::{Parser, Subcommand};
use grasshopper_rules::Position;
use std::path::PathBuf;

/// Grasshopper engine (and backgammon). With no subcommand it runs the protocol
/// daemon on stdin/stdout: UGI/UCI for Grasshopper, UBGI for backgammon.
#[derive(Parser, Debug)]
#[command(name = "grasshopper", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Who chooses the daemon's moves: the engine, or a baseline (random,
    /// greedy, pubeval).
    #[arg(long, global = true, value_enum, default_value = "engine")]
    pub player: daemon::PlayerChoice,
    /// Seed of the random player (default: from the OS) and of the
    /// openings of `tune`, `selfplay` and `match` (default there: 1).
    #[arg(long, global = true)]
    pub seed: Option<u64>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the game tree to DEPTH (move generation check).
    Perft(PerftArgs),
    /// Search the fixed bench positions (fixtures/bench.txt) to a fixed depth;
    /// ends with `<N> nodes <M> nps` (N is a signature of the search).
    Bench {
        /// Depth of every search.
        #[arg(long, default_value_t = grasshopper_engine::bench::DEFAULT_DEPTH)]
        depth: u32,
    },
    /// Fit the evaluation weights to self-play results (Texel tuning); writes
    /// the fitted weights as a Rust array to --out.
    Tune(lab::TuneArgs),
    /// Play an in-process match, player A against player B, in game pairs
    /// with colours swapped; prints each game and the score with an Elo estimate.
    Selfplay(lab::SelfplayArgs),
    /// Play a match between engines that speak the protocol (see README).
    Match(Box<matches::MatchArgs>),
    /// Solve a position exactly: value for the side to move, plies to the
    /// end under optimal play, all optimal moves, and the cost.
    Solve(SolveArgs),
    /// Classic backgammon's rules: the legal moves of a position, or its board.
    #[command(subcommand)]
    Backgammon(backgammon::BackgammonCommand),
    /// Generate the endgame tables of the last phase and write them to a file.
    Tablegen {
        /// File to write.
        #[arg(long)]
        out: PathBuf,
        /// Most checkers on the board, both players together (2, 4 or 6).
        #[arg(long, default_value_t = 6)]
        max_checkers: u8,
    },
}

/// `perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
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
}

/// `solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
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
    tables: Option<PathBuf>,
}

/// Reads a number of checkers per player: 2, 4, ..., 14.
fn parse_checkers(s: &str) -> Result<u8, String> {
    let n: u8 = s
        .parse()
        .map_err(|_| format!("\"{s}\" is not a number of checkers: expected 2, 4, ..., 14"))?;
    Position::start(n)
        .map(|_| n)
        .ok_or_else(|| format!("{n} checkers: expected an even number from 2 to 14"))
}

/// The given position, or the start position with `checkers` per player.
fn position_or_start(fen: Option<Position>, checkers: u8) -> Position {
    fen.unwrap_or_else(|| Position::start(checkers).expect("checked by clap"))
}

/// Errors that end a command-line run.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Writing to stdout or a file failed (e.g. a closed pipe).
    #[error("output error: {0}")]
    Io(#[from] std::io::Error),
    /// A match could not be played.
    #[error("match: {0}")]
    Match(#[from] match_runner::MatchError),
    /// Generating, reading or writing endgame tables failed.
    #[error("{0}")]
    Table(#[from] grasshopper_solver::TableError),
    /// Bad input to a command (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// A weights file that cannot be read.
    #[error("bad weights file {path}: {error}")]
    Weights {
        path: String,
        error: grasshopper_engine::eval::WeightsError,
    },
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    let Some(command) = cli.command else {
        return Ok(daemon::run(cli.player, cli.seed)?);
    };
    let seed = cli.seed.unwrap_or(1);
    let mut out = std::io::stdout().lock();
    match command {
        Command::Perft(a) => {
            let pos = position_or_start(a.fen, a.checkers);
            grasshopper_ugi::perft::write_perft(&mut out, &pos, a.depth, a.divide)?;
        }
        Command::Bench { depth } => {
            grasshopper_engine::bench::one_second(&mut out)?;
            grasshopper_engine::bench::run(&mut out, depth)?;
        }
        Command::Tune(args) => lab::tune(args, seed)?,
        Command::Selfplay(args) => lab::selfplay(args, seed)?,
        Command::Match(args) => matches::run(*args, seed)?,
        Command::Solve(a) => {
            let pos = position_or_start(a.fen, a.checkers);
            let mut solver = grasshopper_solver::Solver::new(a.hash_mb);
            if let Some(path) = a.tables {
                solver.set_tables(Some(grasshopper_solver::Tables::load(path)?));
            }
            grasshopper_solver::write_solve(&mut out, &mut solver, &pos)?;
        }
        Command::Backgammon(command) => {
            backgammon::run(command, &mut out)?.map_err(CliError::Usage)?
        }
        Command::Tablegen {
            out: file,
            max_checkers,
        } => grasshopper_solver::write_tablegen(&mut out, max_checkers, &file)?,
    }
    Ok(())
}
