//! The `match` subcommand's command line: clap's view of the match
//! runner's settings, turned into [`MatchSettings`] and the game: a
//! [`Grasshopper`] game with its openings, or [`Backgammon`] (money games
//! or N-point matches from seeded dice). The runner returns its report and
//! hands over its progress lines; this module prints both.

use match_backgammon::{Backgammon, Setup};
use match_grasshopper::{parse_openings, Grasshopper, Openings};
use match_runner::{
    EngineSpec, MatchError, MatchOutcome, MatchSettings, MergeSettings, NoProgress, ProgressSink,
    Proto, Schedule, Shard, Sprt, TimeControl,
};
use std::io::{IsTerminal, Write};
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

/// The games the runner referees.
#[derive(clap::ValueEnum, Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum GameChoice {
    /// Grasshopper over UGI or UCI.
    #[default]
    Grasshopper,
    /// Backgammon over UBGI: money games or matches (--length), seeded dice.
    Backgammon,
}

/// A rule switched on or off.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum OnOff {
    On,
    Off,
}

impl OnOff {
    fn on(self) -> bool {
        self == OnOff::On
    }
}

/// Settings of a match.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The game: grasshopper, or backgammon (engines speak UBGI).
    #[arg(long, value_enum, default_value = "grasshopper")]
    pub game: GameChoice,
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Time control: [moves/]seconds[+increment], movetime=MS, depth=D or
    /// nodes=N [default: movetime=100; backgammon: movetime=1000, the limit of
    /// each decision, as UBGI's go carries no time].
    #[arg(long)]
    pub tc: Option<TimeControl>,
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
    #[command(flatten)]
    pub backgammon: BackgammonArgs,
}

/// The backgammon settings of `match --game backgammon`.
#[derive(clap::Args, Debug, Default)]
pub struct BackgammonArgs {
    /// Backgammon: each runner game is a match to this many points (Crawford
    /// and post-Crawford games included) [default: 0, money games].
    #[arg(long, value_name = "POINTS")]
    pub length: Option<u16>,
    /// Backgammon: the doubling cube [default: on].
    #[arg(long, value_enum)]
    pub cube: Option<OnOff>,
    /// Backgammon money games: the Jacoby rule [default: on with the cube;
    /// always off without it, so cubeless games count gammons].
    #[arg(long, value_enum)]
    pub jacoby: Option<OnOff>,
    /// Backgammon matches: the Crawford rule [default: on].
    #[arg(long, value_enum)]
    pub crawford: Option<OnOff>,
    /// Backgammon matches: the Holland rule after the Crawford game [default: off].
    #[arg(long, value_enum)]
    pub holland: Option<OnOff>,
    /// Backgammon: also write each game (or match) as a GNU Backgammon .mat
    /// file into DIR (pair-00001-1.mat, ...).
    #[arg(long, value_name = "DIR")]
    pub mat: Option<PathBuf>,
    /// Backgammon: turns one game may last before the side to act is said
    /// to stall [default: 5000].
    #[arg(long)]
    pub max_turns: Option<u32>,
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
                     [tc=TC] [proto=ugi|uci|ubgi]. Give two or more",
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
    /// The game the records are of.
    #[arg(long, value_enum, default_value = "grasshopper")]
    pub game: GameChoice,
    /// Backgammon: also write each game as a GNU Backgammon .mat file into DIR.
    #[arg(long, value_name = "DIR")]
    pub mat: Option<PathBuf>,
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
/// seeds the random openings and the backgammon dice.
pub fn run(args: MatchArgs, seed: u64) -> Result<(), MatchError> {
    let outcome = outcome(args, seed)?;
    print!("{}", outcome.report);
    Ok(())
}

/// Plays the match (or merges the shards) that `args` ask for.
fn outcome(args: MatchArgs, seed: u64) -> Result<MatchOutcome, MatchError> {
    match args.command {
        Some(MatchCommand::Merge(m)) => {
            let game = m.game;
            let settings = merge_settings(m)?;
            match game {
                GameChoice::Grasshopper => match_runner::merge::<Grasshopper>(settings),
                GameChoice::Backgammon => match_runner::merge::<Backgammon>(settings),
            }
        }
        None => match args.run.game {
            GameChoice::Grasshopper => {
                let (game, default_rounds) = grasshopper_game(&args.run, seed)?;
                let mut progress = progress_sink(args.run.quiet);
                let settings = match_settings(args.run, default_rounds, Proto::Ugi)?;
                match_runner::run_match(game, settings, progress.as_mut())
            }
            GameChoice::Backgammon => {
                let game = backgammon_game(&args.run, seed)?;
                let mut progress = progress_sink(args.run.quiet);
                let settings = match_settings(args.run, 10, Proto::Ubgi)?;
                match_runner::run_match(game, settings, progress.as_mut())
            }
        },
    }
}

/// Backgammon with the rules of the command line.
fn backgammon_game(args: &RunArgs, seed: u64) -> Result<Backgammon, MatchError> {
    let usage = |m: &str| Err(MatchError::Usage(m.to_string()));
    if args.openings.is_some() || args.random_plies != 0 || args.checkers != 14 {
        return usage(
            "--openings, --random-plies and --checkers are Grasshopper's; backgammon \
             games start from the start position with seeded dice (--seed)",
        );
    }
    let b = &args.backgammon;
    let length = b.length.unwrap_or(0);
    let cube = b.cube.is_none_or(OnOff::on);
    if length == 0 && (b.crawford.is_some() || b.holland.is_some()) {
        return usage("--crawford and --holland are match rules: give --length N too");
    }
    if length > 0 && b.jacoby.is_some() {
        return usage("--jacoby is a money rule; matches always count gammons");
    }
    if !cube && b.jacoby == Some(OnOff::On) {
        return usage("--jacoby on needs the cube (--cube on)");
    }
    let rules = Setup {
        length,
        cube,
        jacoby: length == 0 && cube && b.jacoby.is_none_or(OnOff::on),
        crawford: length > 0 && b.crawford.is_none_or(OnOff::on),
        holland: length > 0 && b.holland.is_some_and(OnOff::on),
        dice: 0,
    };
    let mut game = Backgammon::new(rules, seed);
    if let Some(n) = b.max_turns {
        game.max_turns = n.max(1);
    }
    Ok(game)
}

/// The game with its openings, and the number of pairs when --pairs is not
/// given (one per opening of a file, else 10).
fn grasshopper_game(args: &RunArgs, seed: u64) -> Result<(Grasshopper, usize), MatchError> {
    let b = &args.backgammon;
    let backgammon_only = [
        b.length.is_some(),
        b.cube.is_some(),
        b.jacoby.is_some(),
        b.crawford.is_some(),
        b.holland.is_some(),
        b.mat.is_some(),
        b.max_turns.is_some(),
    ];
    if backgammon_only.contains(&true) {
        return Err(MatchError::Usage(
            "--length, --cube, --jacoby, --crawford, --holland, --mat and --max-turns \
             are backgammon's: add --game backgammon"
                .to_string(),
        ));
    }
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
            Openings::List(
                parse_openings(&text)
                    .map_err(|e| MatchError::Records(path.clone(), e.to_string()))?,
            )
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

fn match_settings(
    args: RunArgs,
    default_rounds: usize,
    proto: Proto,
) -> Result<MatchSettings, MatchError> {
    let engines = args
        .engines
        .0
        .iter()
        .map(|tokens| EngineSpec::from_tokens_or(tokens, proto).map_err(|e| MatchError::Usage(e.0)))
        .collect::<Result<Vec<_>, _>>()?;
    let default_tc = match args.game {
        GameChoice::Grasshopper => TimeControl::MoveTime(Duration::from_millis(100)),
        GameChoice::Backgammon => TimeControl::MoveTime(Duration::from_millis(1000)),
    };
    Ok(MatchSettings {
        engines,
        tc: args.tc.unwrap_or(default_tc),
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
        shard: args.shard,
        event: args.event,
        transcripts: args.backgammon.mat,
    })
}

fn merge_settings(args: MergeArgs) -> Result<MergeSettings, MatchError> {
    Ok(MergeSettings {
        files: args.files,
        pgn: args.pgn,
        json: args.json,
        sprt: parse_sprt(&args.sprt)?,
        transcripts: args.mat,
    })
}

/// The progress line's sink: stderr, or nothing with `--quiet`.
fn progress_sink(quiet: bool) -> Box<dyn ProgressSink> {
    if quiet {
        Box::new(NoProgress)
    } else {
        Box::new(StderrProgress {
            tty: std::io::stderr().is_terminal(),
        })
    }
}

/// The live progress line on stderr: rewritten in place on a terminal, one
/// line per update otherwise (logs stay readable).
struct StderrProgress {
    tty: bool,
}

impl ProgressSink for StderrProgress {
    fn show(&mut self, line: &str) {
        let mut err = std::io::stderr().lock();
        let _ = if self.tty {
            write!(err, "\r{line}\x1b[K")
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }

    fn finish(&mut self) {
        if self.tty {
            eprintln!();
        }
    }
}
