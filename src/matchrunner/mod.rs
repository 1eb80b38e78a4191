//! `grasshopper match`: plays engines that speak the protocol against each
//! other, refereed by the rules core, and reports statistics.
//!
//! The parts: [`spec`] (engine specifications, time controls, shards),
//! [`engine`] (one engine process with a reader thread and timeouts), [`game`]
//! (the referee), [`openings`], [`records`] (PGN-style game records, written
//! game by game and read back for `--resume` and `match merge`), [`stats`]
//! (Elo, LOS, SPRT), [`summary`] (the tally, progress line and JSON) and
//! [`runner`] (scheduling, concurrency, resume, shards).

pub mod engine;
pub mod game;
pub mod openings;
pub mod records;
pub mod runner;
pub mod spec;
pub mod stats;
pub mod summary;

pub use game::{GameResult, Termination};
pub use records::{parse_records, GameRecord};
pub use spec::{EngineSpec, Schedule, Shard, TimeControl};
pub use stats::{EloEstimate, Pentanomial, Sprt, Trinomial};

use std::fmt;
use std::path::PathBuf;

/// `grasshopper match`: play a match, or `match merge` the records of shards.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, args_override_self = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    #[command(flatten)]
    pub run: RunArgs,
}

/// The subcommands of `match`.
#[derive(clap::Subcommand, Debug)]
pub enum MatchCommand {
    /// Combine the records of several runs (e.g. shards) and report their statistics.
    Merge(MergeArgs),
}

/// Settings of a match.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Time control: [moves/]seconds[+increment], movetime=MS, depth=D or nodes=N.
    #[arg(long, default_value = "movetime=100")]
    pub tc: TimeControl,
    /// Milliseconds an engine may exceed its clock or move time before it forfeits.
    #[arg(long, default_value_t = 100)]
    pub margin: u64,
    /// Milliseconds to wait for the handshake and for readyok before calling a stall.
    #[arg(long, default_value_t = 5000)]
    pub timeout: u64,
    /// Milliseconds a move may take under depth= and nodes= limits.
    #[arg(long, default_value_t = 60000)]
    pub move_timeout: u64,
    /// File of opening positions (one position string a line; # comments).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Without --openings: random legal plies from the start position for
    /// each opening (seeded by the global --seed, default 1).
    #[arg(long, default_value_t = 0)]
    pub random_plies: u32,
    /// Checkers per player in the start position (2, 4, ..., 14).
    #[arg(long, default_value_t = 14)]
    pub checkers: u8,
    /// Game pairs (one opening, colours swapped) per pairing of engines
    /// [default: the number of openings in --openings, else 10].
    #[arg(long)]
    pub pairs: Option<usize>,
    /// Who plays whom.
    #[arg(long, value_enum, default_value = "round-robin")]
    pub schedule: Schedule,
    /// Games played at once (each with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Stop when decided: elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=logistic|normalized].
    #[arg(long, num_args = 1..=5, value_name = "PARAM")]
    pub sprt: Option<Vec<String>>,
    /// Game records file (PGN-style), written game by game.
    #[arg(long, default_value = "match.pgn", value_name = "FILE")]
    pub pgn: PathBuf,
    /// Continue the match recorded in --pgn instead of refusing to touch it.
    #[arg(long)]
    pub resume: bool,
    /// Write a JSON summary here at the end.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// No progress line on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Play only shard I of N of the game pairs (1-based), for many machines.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// The Event tag of the records.
    #[arg(long, default_value = "grasshopper match")]
    pub event: String,
}

/// The `--engine` options, each with its own settings. (Derived clap cannot
/// keep repeated multi-value options apart, so this reads the occurrences.)
#[derive(Debug, Clone, Default)]
pub struct EngineArgs(pub Vec<Vec<String>>);

impl clap::FromArgMatches for EngineArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Ok(EngineArgs(
            m.get_occurrences::<String>("engine")
                .map(|occ| occ.map(|o| o.cloned().collect()).collect())
                .unwrap_or_default(),
        ))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = EngineArgs::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for EngineArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .value_name("SETTING")
                .allow_hyphen_values(false)
                .help(
                    "An engine: cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]... \
                     [proto=ugi|uci]. Give two or more",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// `match merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Records files to combine.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the combined records here.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write a JSON summary here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Report the SPRT's LLR: elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=M].
    #[arg(long, num_args = 1..=5, value_name = "PARAM")]
    pub sprt: Option<Vec<String>>,
}

/// Why a match could not be played (game events such as crashes are not errors).
#[derive(Debug)]
pub enum MatchError {
    /// Bad or inconsistent settings.
    Usage(String),
    /// A file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// A records file is damaged or belongs to another match.
    Records(PathBuf, String),
    /// An engine program could not be started at all.
    Spawn(String, std::io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Usage(m) => f.write_str(m),
            MatchError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            MatchError::Records(p, m) => write!(f, "{}: {m}", p.display()),
            MatchError::Spawn(cmd, e) => write!(f, "cannot start engine \"{cmd}\": {e}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// Runs `grasshopper match ...`; `seed` (the global `--seed`, default 1)
/// seeds the random openings.
pub fn run(args: MatchArgs, seed: Option<u64>) -> Result<(), MatchError> {
    match args.command {
        Some(MatchCommand::Merge(m)) => runner::merge(m),
        None => runner::run_match(args.run, seed.unwrap_or(1)),
    }
}
