//! The command line: the daemon (no subcommand), perft, bench, tune,
//! selfplay, match, compliance, solve and tablegen. `main` only parses and calls [`run`];
//! each subcommand is a short function over the crates that do the work.

mod backgammon;
mod bgbenchmark;
mod bgcube;
mod bgdata;
mod bgerror;
mod bgerrors;
mod bgnet;
mod bgrollout;
mod compliance;
mod daemon;
mod external;
mod lab;
mod matches;
mod quality;
mod retro;
mod serve;

use clap::{Parser, Subcommand};
use grasshopper_engine::midnet::NetRole;
use grasshopper_rules::Position;
use std::path::PathBuf;

/// Grasshopper engine (and backgammon). With no subcommand it runs the protocol
/// daemon on stdin/stdout: UGI/UCI for Grasshopper, UBGI for backgammon.
#[derive(Parser, Debug)]
#[command(
    name = "grasshopper",
    version,
    about = "An engine for Grasshopper (dice-less backgammon) and classic backgammon: UGI/UCI and UBGI on stdin/stdout, a match runner, an exact solver, a board in the browser"
)]
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
    /// Backgammon: play with the nets of this directory (contact.net,
    /// race.net and crashed.net, as `backgammon rollout-data fit` and
    /// `backgammon train` write them) instead of the shipped ones; given
    /// before the subcommand (`grasshopper --nets DIR external ...`). The
    /// backgammon subcommands with a `--nets` (or `--from`) of their own
    /// default to these.
    #[arg(long, value_name = "DIR")]
    pub nets: Option<PathBuf>,
    /// Grasshopper: evaluate the middle game (at most six checkers left
    /// each) with this net (`tune --mid-net-out FILE`) instead of the
    /// shipped one, or with the linear WEIGHTS_MID (`none`); given before
    /// the subcommand.
    #[arg(long, value_name = "FILE")]
    pub mid_net: Option<PathBuf>,
    /// Grasshopper: evaluate the late phases (few checkers left each,
    /// somebody has scored) with this net (`tune --late-net-out FILE`)
    /// instead of the shipped one, or with the linear late weights
    /// (`none`); given before the subcommand.
    #[arg(long, value_name = "FILE")]
    pub late_net: Option<PathBuf>,
    /// Grasshopper: evaluate the 14-checker game (more than six checkers
    /// left) with this net (`distill fit --out FILE`) instead of the
    /// shipped one, or with the linear WEIGHTS (`none`); given before the
    /// subcommand.
    #[arg(long, value_name = "FILE")]
    pub main_net: Option<PathBuf>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the game tree to DEPTH (move generation check).
    Perft(PerftArgs),
    /// Search the fixed bench positions (crates/grasshopper-engine/data/bench.txt) to a fixed depth;
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
    /// Labels for the 14-checker game's net from self-play (each position
    /// with its search's score and the game's result), and the net's fit.
    #[command(subcommand)]
    Distill(lab::DistillCommand),
    /// Play a match between engines that speak the protocol (see docs/match-runner.md).
    Match(Box<matches::MatchArgs>),
    /// Check that any engine speaks UGI (the core, and our extensions where
    /// offered) or, with --ubgi, UBGI (by the draft's conformance levels):
    /// drives `CMD ARGS...` through every command, prints `PASS`, `FAIL` or
    /// `SKIP` per check and a summary, and fails if any check fails.
    Compliance(compliance::ComplianceArgs),
    /// Solve a position exactly: value for the side to move, plies to the
    /// end under optimal play, all optimal moves, and the cost.
    Solve(SolveArgs),
    /// Classic backgammon's rules: the legal moves of a position, or its board.
    #[command(subcommand)]
    Backgammon(backgammon::BackgammonCommand),
    /// Serve a board for people in the browser (see docs/board.md): a local web
    /// server that referees every move and plays the engine as a protocol client.
    Serve(serve::ServeArgs),
    /// Play GNU Backgammon as its external player on a TCP port
    /// (docs/gnubg-external.md): `set player 1 external 127.0.0.1:PORT` in gnubg.
    External(external::ExternalArgs),
    /// Compare retrograde phase tables with the alpha-beta solver on
    /// positions drawn uniformly from the solved phases.
    RetroCheck(retro::RetroCheckArgs),
    /// Measure how often the engine's move loses value (win -> not win,
    /// draw -> loss) on positions of engine games that the retrograde
    /// tables cover.
    RetroQuality(quality::QualityArgs),
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
    /// Solve by retrograde analysis instead, every phase of the game, with
    /// the phase tables in this directory (a killed run resumes from it).
    #[arg(long, value_name = "DIR")]
    retro: Option<PathBuf>,
    /// Retrograde: worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Retrograde: solve only the phases of at most this level
    /// (3 x checkers to enter + checkers on the board, both players).
    #[arg(long)]
    max_level: Option<u8>,
    /// Retrograde: solve only the phases of this level (those below must
    /// be solved): one level of a cluster run.
    #[arg(long)]
    level: Option<u8>,
    /// Retrograde: `I/K`, solve only every K-th phase from the I-th on (in
    /// solving order): one task of an array job.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// Retrograde: minutes between checkpoints of the phase in progress.
    #[arg(long, default_value_t = 15.0)]
    checkpoint_mins: f64,
    /// Retrograde: stop after this many minutes (at a checkpoint), to run
    /// the solve in pieces; the next run resumes.
    #[arg(long)]
    stop_after_mins: Option<f64>,
    /// Retrograde: seconds between progress lines (on stderr).
    #[arg(long, default_value_t = 30.0)]
    progress_secs: f64,
}

/// A `--checkers` or `--shard` value that does not read (clap prints it).
#[derive(Debug, thiserror::Error)]
pub(crate) enum ArgError {
    /// Not a number at all.
    #[error("\"{0}\" is not a number of checkers: expected 2, 4, ..., 14")]
    NotCheckers(String),
    /// A number that is no variant's size.
    #[error("{0} checkers: expected an even number from 2 to 14")]
    NoVariant(u8),
    /// Not `I/K` with 1 <= I <= K.
    #[error("\"{0}\" is not a shard: expected I/K with 1 <= I <= K")]
    Shard(String),
}

/// Reads a number of checkers per player: 2, 4, ..., 14.
pub(crate) fn parse_checkers(s: &str) -> Result<u8, ArgError> {
    let n: u8 = s
        .parse()
        .map_err(|_| ArgError::NotCheckers(s.to_string()))?;
    Position::start(n).map(|_| n).ok_or(ArgError::NoVariant(n))
}

/// Reads `I/K` with 1 <= I <= K.
fn parse_shard(s: &str) -> Result<(usize, usize), ArgError> {
    let bad = || ArgError::Shard(s.to_string());
    let (i, k) = s.split_once('/').ok_or_else(bad)?;
    let (i, k) = (i.parse().map_err(|_| bad())?, k.parse().map_err(|_| bad())?);
    (1 <= i && i <= k).then_some((i, k)).ok_or_else(bad)
}

/// Ctrl-C, SIGTERM or SIGHUP: ends every engine's process group, then
/// exits as the signal would have (128 + its number: 130, 143, 129), so
/// that a shell or Slurm can tell an interrupt from a termination. The
/// engines lead process groups of their own (engine-client), which a
/// terminal's signal does not reach: an engine that ignores the end of its
/// input, or a wrapper's children, would outlive the runner.
fn end_engines_on_interrupt() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("grasshopper: engines will not be ended on Ctrl-C: {e}");
            return;
        }
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            engine_client::kill_all_engines();
            std::process::exit(128 + signal);
        }
    });
}

/// `--nets DIR`: the nets every backgammon player of this process uses
/// (and for its cube decisions the directory's `crashed-cube.net`, if it
/// has one).
fn use_nets(dir: &std::path::Path) -> Result<(), CliError> {
    use backgammon_engine::Evaluator;
    let bad = |e: &dyn std::fmt::Display| CliError::Usage(format!("--nets {}: {e}", dir.display()));
    let eval = Evaluator::read_dir(dir).map_err(|e| bad(&e))?;
    let cube = eval.cube_in_dir(dir).map_err(|e| bad(&e))?;
    backgammon_engine::player::use_nets(eval, cube).map_err(|e| bad(&e))
}

/// `--mid-net FILE` or `--late-net FILE`: the net of `role` in every
/// Grasshopper search of this process (`none`: the linear weights).
fn use_net(role: NetRole, path: &std::path::Path) -> Result<(), CliError> {
    let option = format!("--{}-net", role.name());
    let net = match path.to_str() {
        Some("none") => None,
        _ => Some(read_mid_net(&option, path)?),
    };
    grasshopper_engine::midnet::use_net(role, net)
        .map_err(|e| CliError::Usage(format!("{option} {}: {e}", path.display())))
}

/// The Grasshopper net in `path`'s text form, given by `option`: an
/// unreadable or malformed file is a usage error quoting both.
fn read_mid_net(
    option: &str,
    path: &std::path::Path,
) -> Result<grasshopper_engine::midnet::MidNet, CliError> {
    let bad =
        |e: &dyn std::fmt::Display| CliError::Usage(format!("{option} {}: {e}", path.display()));
    let text = std::fs::read_to_string(path).map_err(|e| bad(&e))?;
    text.parse().map_err(|e| bad(&e))
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
    /// An engine failed protocol-compliance checks.
    #[error("compliance: {0} check(s) failed")]
    Compliance(usize),
    /// Generating, reading or writing endgame tables failed.
    #[error("{0}")]
    Table(#[from] grasshopper_solver::TableError),
    /// Bad input to a command (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// Reading or writing retrograde phase tables failed.
    #[error("{0}")]
    Retro(#[from] grasshopper_solver::retro::RetroError),
    /// A `retro-quality` record file that cannot be read or written.
    #[error("{0}")]
    Record(#[from] quality::RecordError),
    /// A truth file (`retro-quality --export-truth`) that cannot be read.
    #[error("{0}")]
    Truth(#[from] grasshopper_lab::truth::TruthError),
    /// A weights file that cannot be read.
    #[error("bad weights file {path}: {error}")]
    Weights {
        path: String,
        error: grasshopper_engine::eval::WeightsError,
    },
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    if let Some(dir) = &cli.nets {
        use_nets(dir)?;
    }
    if let Some(path) = &cli.mid_net {
        use_net(NetRole::Mid, path)?;
    }
    if let Some(path) = &cli.late_net {
        use_net(NetRole::Late, path)?;
    }
    if let Some(path) = &cli.main_net {
        use_net(NetRole::Main, path)?;
    }
    let Some(command) = cli.command else {
        return Ok(daemon::run(cli.player, cli.seed)?);
    };
    if matches!(
        command,
        Command::Match(_) | Command::Serve(_) | Command::Compliance(_)
    ) {
        end_engines_on_interrupt();
    }
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
        Command::Distill(c) => lab::distill(c, seed)?,
        Command::Match(args) => matches::run(*args, seed)?,
        Command::Compliance(args) => match compliance::run(args, &mut out)? {
            0 => {}
            failed => return Err(CliError::Compliance(failed)),
        },
        Command::Solve(a) if a.retro.is_some() => retro::solve(a, &mut out)?,
        Command::Solve(a) => {
            let pos = position_or_start(a.fen, a.checkers);
            let mut solver = grasshopper_solver::Solver::new(a.hash_mb);
            if let Some(path) = a.tables {
                solver.set_tables(Some(grasshopper_solver::Tables::load(path)?));
            }
            grasshopper_solver::write_solve(&mut out, &mut solver, &pos)?;
        }
        Command::Backgammon(command) => {
            // Exit code 2, as for bad input (the message is the lab's).
            backgammon::run(command, &mut out)?.map_err(|e| CliError::Usage(e.to_string()))?
        }
        Command::Serve(args) => serve::run(args, cli.player)?,
        Command::External(args) => external::run(args, cli.player, cli.seed)?,
        Command::RetroQuality(a) => quality::run(a, seed, &mut out)?,
        Command::RetroCheck(a) => retro::check(a, seed, &mut out)?,
        Command::Tablegen {
            out: file,
            max_checkers,
        } => grasshopper_solver::write_tablegen(&mut out, max_checkers, &file)?,
    }
    Ok(())
}
