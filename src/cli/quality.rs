//! `retro-quality`: its arguments, read into the Grasshopper lab's settings
//! and measured there (`grasshopper_lab::quality`).

use super::CliError;
pub use grasshopper_lab::quality::RecordError;
use grasshopper_lab::quality::{self, QualityError, QualitySettings};
use std::io::Write;
use std::path::PathBuf;

/// `retro-quality`.
#[derive(clap::Args, Debug)]
pub struct QualityArgs {
    /// Directory of the phase tables (from `solve --retro`); only complete
    /// phases are used. Without it, positions are those the complete tables
    /// of the game would hold and nothing is scored (see --record).
    #[arg(long, value_name = "DIR", required_unless_present_any = ["record", "truth", "replay"])]
    retro: Option<PathBuf>,
    /// Score with a truth file (`--export-truth`) instead of the tables:
    /// the positions of --replay or --positions-from that it covers.
    #[arg(long, value_name = "FILE", conflicts_with = "retro")]
    truth: Option<PathBuf>,
    /// Write the exact values of the measured positions and of every move
    /// in them to FILE, a truth file that scores their records without the
    /// tables (`--truth`); needs --retro.
    #[arg(long, value_name = "FILE", requires = "retro")]
    export_truth: Option<PathBuf>,
    /// Write the positions and the engine's moves to FILE (one line per
    /// position and setting: position, setting, move, nodes, tab-separated).
    #[arg(long, value_name = "FILE", conflicts_with = "replay")]
    record: Option<PathBuf>,
    /// Score the moves of a --record file instead of searching (its
    /// settings replace --movetimes and --nodes); needs --retro or --truth.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Search the positions of a --record file (its moves ignored) instead
    /// of those of new engine games: a changed engine on the same positions.
    #[arg(long, value_name = "FILE", conflicts_with = "replay")]
    positions_from: Option<PathBuf>,
    /// Explain every move that loses value into FILE (tab-separated: the
    /// phase, the value lost, the engine's move and score, the moves that
    /// keep the value, the depth from which a deeper search finds one, the
    /// plies to a lost win) and print counts by class; needs --retro.
    #[arg(long, value_name = "FILE", requires = "retro")]
    errors: Option<PathBuf>,
    /// Checkers per player of the games.
    #[arg(long, default_value_t = 6, value_parser = super::parse_checkers)]
    checkers: u8,
    /// Distinct positions to measure (covered by the tables, at least two
    /// legal moves); default 10,000. With --positions-from, the file's first
    /// this many (default all of them).
    #[arg(long)]
    positions: Option<usize>,
    /// Move times to measure, in milliseconds, comma-separated; `none` for
    /// none (only the --nodes limits).
    #[arg(long, default_value = "10,100", value_delimiter = ',', value_parser = parse_movetime)]
    movetimes: Vec<Option<u64>>,
    /// Node limits to measure as well, comma-separated (a fixed amount of
    /// work, whatever else runs on the machine).
    #[arg(long, value_delimiter = ',')]
    nodes: Vec<u64>,
    /// Nodes per move of the engine in the games that supply the positions.
    #[arg(long, default_value_t = 3000)]
    game_nodes: u64,
    /// Random first plies of each game: 2 to this many.
    #[arg(long, default_value_t = 9)]
    random_plies: u64,
    /// Stop collecting after this many games, with fewer positions if so.
    #[arg(long)]
    max_games: Option<u64>,
    /// Positions measured at once.
    #[arg(long, default_value_t = 1)]
    workers: usize,
    /// Search threads of each position's search (the engine's `Threads`
    /// option, Lazy SMP); workers times threads should not pass the cores.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
}

/// Runs `retro-quality`, progress on stderr.
pub fn run(a: QualityArgs, seed: u64, out: &mut impl Write) -> Result<(), CliError> {
    if a.replay.is_some() && a.retro.is_none() && a.truth.is_none() {
        let why = "--replay scores a record: give the tables (--retro) or a truth file (--truth)";
        return Err(CliError::Usage(why.into()));
    }
    let searches = a.movetimes.iter().flatten().count() + a.nodes.len();
    if searches == 0 && a.replay.is_none() && a.export_truth.is_none() {
        let why = "--movetimes none and no --nodes: nothing to measure";
        return Err(CliError::Usage(why.into()));
    }
    let positions = match (a.positions, &a.positions_from) {
        (Some(n), _) => n,
        (None, Some(_)) => usize::MAX,
        (None, None) => 10_000,
    };
    let settings = QualitySettings {
        retro: a.retro,
        record: a.record,
        replay: a.replay,
        truth: a.truth,
        export_truth: a.export_truth,
        positions_from: a.positions_from,
        errors: a.errors,
        checkers: a.checkers,
        positions,
        movetimes: a.movetimes.into_iter().flatten().collect(),
        nodes: a.nodes,
        game_nodes: a.game_nodes,
        random_plies: a.random_plies,
        max_games: a.max_games,
        workers: a.workers,
        threads: a.threads as usize,
    };
    quality::run(&settings, seed, out, &mut std::io::stderr()).map_err(|e| match e {
        QualityError::Retro(e) => CliError::Retro(e),
        QualityError::Record(e) => CliError::Record(e),
        QualityError::Truth(e) => CliError::Truth(e),
        e @ QualityError::TruthWithoutRecord => CliError::Usage(e.to_string()),
        QualityError::Output(e) => CliError::Io(e),
        e @ QualityError::Checkers(_) => CliError::Usage(e.to_string()),
    })
}

/// One `--movetimes` value: milliseconds, or `none`.
fn parse_movetime(s: &str) -> Result<Option<u64>, String> {
    if s == "none" {
        return Ok(None);
    }
    s.parse()
        .map(Some)
        .map_err(|_| format!("expected milliseconds or `none`, got {s:?}"))
}
