//! `tune` and `selfplay`: the lab tools' command lines.

use super::{parse_checkers, CliError};
use grasshopper_engine::eval::N_FEATURES;
use grasshopper_engine::Player;
use grasshopper_lab::selfplay::{read_weights, Side, WeightsFileError};
use std::path::PathBuf;

/// `tune`: fit the evaluation weights to self-play results (Texel tuning);
/// writes the fitted weights as a Rust array to --out.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
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
    out: PathBuf,
}

/// `selfplay`: an in-process match, player A against player B, in game
/// pairs with colours swapped.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// Game pairs to play.
    #[arg(long, default_value_t = 10)]
    pairs: u32,
    /// Player A: engine, random or greedy.
    #[arg(long, default_value = "engine")]
    a: Player,
    /// Player B: engine, random or greedy.
    #[arg(long, default_value = "random")]
    b: Player,
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
    a_weights: Option<PathBuf>,
    /// B's evaluation weights, a file written by `tune` (default: built in).
    #[arg(long)]
    b_weights: Option<PathBuf>,
}

/// Runs `tune`.
pub fn tune(args: TuneArgs, seed: u64) -> Result<(), CliError> {
    let mut file = std::fs::File::create(&args.out)?;
    let mut out = std::io::stdout().lock();
    grasshopper_lab::tune::run(
        &mut out,
        &mut file,
        args.games,
        seed,
        args.nodes,
        args.epochs,
    )?;
    Ok(())
}

/// Runs `selfplay`.
pub fn selfplay(args: SelfplayArgs, seed: u64) -> Result<(), CliError> {
    let a = Side::new(
        args.a,
        args.a_threads,
        seed,
        weights(args.a_weights)?,
        args.a_ms,
        args.a_nodes,
    );
    let b = Side::new(
        args.b,
        args.b_threads,
        seed ^ 0x5555,
        weights(args.b_weights)?,
        args.b_ms,
        args.b_nodes,
    );
    let mut out = std::io::stdout().lock();
    grasshopper_lab::selfplay::run(&mut out, &a, &b, args.pairs, seed, args.checkers)?;
    Ok(())
}

/// A side's weights (`read_weights`), its errors as the command line's.
fn weights(path: Option<PathBuf>) -> Result<[i32; N_FEATURES], CliError> {
    read_weights(path.as_deref()).map_err(|e| match e {
        WeightsFileError::Read { source, .. } => CliError::Io(source),
        WeightsFileError::Parse { path, error } => CliError::Weights {
            path: path.display().to_string(),
            error,
        },
    })
}
