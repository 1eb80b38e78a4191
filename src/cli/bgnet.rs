//! `backgammon train`, `duel`, `bench` and `refine`: their arguments, read
//! into the backgammon lab's settings and run there.

use super::bgerror::BackgammonError;
use backgammon_engine::Evaluator;
use backgammon_lab::bench::{self, BenchSettings};
use backgammon_lab::players::{run_duel as duel, DuelSettings};
use backgammon_lab::refine::{self, RefineConfig};
use backgammon_lab::train::{self, TrainConfig};
use std::io::Write;
use std::path::PathBuf;

/// `backgammon train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Run directory: checkpoint, nets and learning curve; an existing
    /// checkpoint there is resumed.
    #[arg(long)]
    pub dir: PathBuf,
    /// Train until this many self-play games in all.
    #[arg(long, default_value_t = 1_000_000)]
    pub games: u64,
    /// Stop (with a checkpoint) after this many games in all, with the
    /// learning rate still scheduled over --games; rerun to go on.
    #[arg(long)]
    pub stop_at: Option<u64>,
    /// Seed of the dice and the initial weights.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Learning rate at the start.
    #[arg(long, default_value_t = 0.1)]
    pub alpha: f32,
    /// Learning rate at the last game (linear in between).
    #[arg(long, default_value_t = 0.02)]
    pub alpha_end: f32,
    /// λ of the TD(λ) returns.
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Hidden units of the contact net.
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// Hidden units of the race net.
    #[arg(long, default_value_t = 64)]
    pub race_hidden: usize,
    /// Games between checkpoints.
    #[arg(long, default_value_t = 5000)]
    pub checkpoint_every: u64,
    /// Games between points of the learning curve (0: none).
    #[arg(long, default_value_t = 25_000)]
    pub eval_every: u64,
    /// Mirrored game pairs against pubeval per point of the curve.
    #[arg(long, default_value_t = 500)]
    pub eval_pairs: u64,
    /// Start a fresh run from the nets in this directory (contact.net, race.net).
    #[arg(long)]
    pub from: Option<PathBuf>,
}

/// `backgammon duel`.
#[derive(clap::Args, Debug)]
pub struct DuelArgs {
    /// The first player: net[:DIR][@PLIES] (the nets of a run directory,
    /// default the process's: `grasshopper --nets DIR` or the shipped ones; searched to PLIES, default 1), pubeval or
    /// random.
    #[arg(long, default_value = "net")]
    pub a: String,
    /// The second player, as --a.
    #[arg(long, default_value = "pubeval")]
    pub b: String,
    /// Mirrored game pairs.
    #[arg(long, default_value_t = 2500)]
    pub pairs: u64,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Runs `backgammon train`.
pub fn train(a: TrainArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let start = a.from.as_deref().map(Evaluator::read_dir).transpose()?;
    let cfg = TrainConfig {
        dir: a.dir,
        seed: a.seed,
        games: a.games,
        stop_at: a.stop_at,
        alpha: (a.alpha, a.alpha_end),
        lambda: a.lambda,
        hidden: (a.hidden, a.race_hidden),
        checkpoint_every: a.checkpoint_every.max(1),
        eval_every: a.eval_every,
        eval_pairs: a.eval_pairs,
        start,
    };
    train::run(&cfg, out)?;
    Ok(())
}

/// Runs `backgammon duel`.
pub fn run_duel(a: DuelArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let settings = DuelSettings {
        a: a.a,
        b: a.b,
        pairs: a.pairs,
        seed: a.seed,
        threads: a.threads,
    };
    let line = duel(&settings)?;
    let _ = writeln!(out, "{line}");
    Ok(())
}

/// `backgammon bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Self-play games whose positions are evaluated.
    #[arg(long, default_value_t = 200)]
    pub games: u32,
    /// CPU seconds of evaluations to time.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Decisions to search at 2-ply (a tenth as many at 3-ply, a fortieth at 4-ply).
    #[arg(long, default_value_t = 400)]
    pub searches: usize,
    /// Nets of a run directory instead of the process's (`grasshopper --nets DIR`, else the shipped ones).
    #[arg(long)]
    pub nets: Option<PathBuf>,
    /// Also time GNU Backgammon's evaluation of the same positions
    /// (its `gnubg` Python module, through this program) and its own
    /// `calibrate`, with the ratio of ours to it.
    #[arg(long)]
    pub gnubg: Option<PathBuf>,
}

/// Runs `backgammon bench`.
pub fn bench(a: BenchArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let settings = BenchSettings {
        games: a.games,
        seconds: a.seconds,
        searches: a.searches,
        nets: a.nets,
        gnubg: a.gnubg,
    };
    Ok(bench::run(&settings, out)?)
}

/// `backgammon refine`.
#[derive(clap::Args, Debug)]
pub struct RefineArgs {
    /// Run directory (rounds, labels, nets, curve); resumed if it exists.
    #[arg(long)]
    pub dir: PathBuf,
    /// The nets of round 0 (a run directory with contact.net and race.net).
    #[arg(long)]
    pub from: PathBuf,
    /// Seed of the self-play dice, exploration and shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rounds of positions, labels and fitting.
    #[arg(long, default_value_t = 3)]
    pub rounds: u32,
    /// Self-play games per round whose positions are labelled.
    #[arg(long, default_value_t = 5000)]
    pub games: u32,
    /// Chance of playing the second-best move in those games.
    #[arg(long, default_value_t = 0.1)]
    pub explore: f32,
    /// Rolls of lookahead of the labels (1 = 2-ply, 2 = 3-ply).
    #[arg(long, default_value_t = 1)]
    pub depth: u8,
    /// Passes over the labelled positions per round.
    #[arg(long, default_value_t = 6)]
    pub epochs: u32,
    /// Learning rate of the first epoch.
    #[arg(long, default_value_t = 0.02)]
    pub alpha: f32,
    /// Learning rate of the last epoch.
    #[arg(long, default_value_t = 0.002)]
    pub alpha_end: f32,
    /// Threads for labelling.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Mirrored pairs against pubeval after each epoch (0: none).
    #[arg(long, default_value_t = 500)]
    pub eval_pairs: u64,
    /// CPU seconds spent before (e.g. by TD training), for the curve.
    #[arg(long, default_value_t = 0.0)]
    pub cpu_before: f64,
}

/// Runs `backgammon refine`.
pub fn refine(a: RefineArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let cfg = RefineConfig {
        dir: a.dir,
        start: Evaluator::read_dir(&a.from)?,
        seed: a.seed,
        rounds: a.rounds,
        games: a.games,
        explore: a.explore,
        depth: a.depth.clamp(1, 2),
        epochs: a.epochs,
        alpha: (a.alpha, a.alpha_end),
        threads: a.threads,
        eval_pairs: a.eval_pairs,
        cpu_before: a.cpu_before,
    };
    refine::run(&cfg, out)?;
    Ok(())
}
