//! The `match` subcommand's command line: clap's view of the match
//! runner's settings, turned into [`MatchSettings`] and a [`Grasshopper`]
//! game with its openings.

use match_runner::grasshopper::{parse_openings, Grasshopper, Openings};
use match_runner::{
    EngineSpec, MatchError, MatchSettings, MergeSettings, Schedule, Shard, Sprt, TimeControl,
};
use std::path::PathBuf;
use std::time::Duration;

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
    /// Who plays whom: round-robin or gauntlet.
    #[arg(long, default_value = "round-robin")]
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

/// Runs `grasshopper match ...`; `seed` (the global `--seed`, default 1)
/// seeds the random openings.
pub fn run(args: MatchArgs, seed: u64) -> Result<(), MatchError> {
    match args.command {
        Some(MatchCommand::Merge(m)) => match_runner::merge::<Grasshopper>(merge_settings(m)?),
        None => {
            let (game, default_rounds) = grasshopper_game(&args.run, seed)?;
            let settings = match_settings(args.run, default_rounds)?;
            match_runner::run_match(game, settings)
        }
    }
}

/// The game with its openings, and the number of pairs when --pairs is not
/// given (one per opening of a file, else 10).
fn grasshopper_game(args: &RunArgs, seed: u64) -> Result<(Grasshopper, usize), MatchError> {
    if grasshopper_rules::Position::start(args.checkers).is_none() {
        return Err(MatchError::Usage(format!(
            "--checkers {}: expected an even number from 2 to 14",
            args.checkers
        )));
    }
    let openings = match &args.openings {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| MatchError::Io(path.clone(), e))?;
            Openings::List(parse_openings(&text).map_err(|e| MatchError::Records(path.clone(), e))?)
        }
        None => Openings::Random {
            checkers: args.checkers,
            plies: args.random_plies,
            seed,
        },
    };
    let rounds = match &openings {
        Openings::List(l) => l.len(),
        Openings::Random { .. } => 10,
    };
    Ok((Grasshopper { openings }, rounds))
}

fn parse_sprt(tokens: &Option<Vec<String>>) -> Result<Option<Sprt>, MatchError> {
    tokens
        .as_ref()
        .map(|t| {
            t.join(" ")
                .parse::<Sprt>()
                .map_err(|e| MatchError::Usage(e.to_string()))
        })
        .transpose()
}

fn match_settings(args: RunArgs, default_rounds: usize) -> Result<MatchSettings, MatchError> {
    let engines = args
        .engines
        .0
        .iter()
        .map(|tokens| EngineSpec::from_tokens(tokens).map_err(|e| MatchError::Usage(e.0)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(MatchSettings {
        engines,
        tc: args.tc,
        margin: Duration::from_millis(args.margin),
        timeout: Duration::from_millis(args.timeout),
        move_timeout: Duration::from_millis(args.move_timeout),
        rounds: args.pairs.unwrap_or(default_rounds),
        schedule: args.schedule,
        concurrency: args.concurrency,
        sprt: parse_sprt(&args.sprt)?,
        pgn: args.pgn,
        resume: args.resume,
        json: args.json,
        quiet: args.quiet,
        shard: args.shard,
        event: args.event,
        transcripts: None,
    })
}

fn merge_settings(args: MergeArgs) -> Result<MergeSettings, MatchError> {
    Ok(MergeSettings {
        files: args.files,
        pgn: args.pgn,
        json: args.json,
        sprt: parse_sprt(&args.sprt)?,
        transcripts: None,
    })
}
