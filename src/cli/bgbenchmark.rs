//! `backgammon benchmark` and `backgammon benchmark-build`: their
//! arguments, read into the backgammon lab's settings and run there
//! (`backgammon_lab::benchmark`).

use super::bgerror::BackgammonError;
use backgammon_engine::rollout::Settings;
use backgammon_lab::benchmark::{self, BuildSettings, Recorded, ScoreSettings};
use std::io::Write;
use std::path::PathBuf;

/// `backgammon benchmark`.
#[derive(clap::Args, Debug)]
pub struct BenchmarkArgs {
    /// The benchmark: a directory of plan and shards, or one file of
    /// rolled-out lines (beside its plan).
    #[arg(long, default_value = "fixtures/backgammon-benchmark")]
    pub benchmark: PathBuf,
    /// Our plies to score, comma-separated.
    #[arg(long, default_value = "1,2", value_delimiter = ',')]
    pub plies: Vec<u8>,
    /// Score GNU Backgammon 0-ply's moves too.
    #[arg(long)]
    pub gnubg: bool,
    /// GNU Backgammon's binary.
    #[arg(long, default_value = "/usr/games/gnubg")]
    pub gnubg_bin: PathBuf,
    /// Threads of the rollouts of chosen moves outside the candidates.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Score our plies with these nets (a directory with contact.net,
    /// race.net and maybe crashed.net) instead of the process's (`grasshopper --nets DIR`, else the shipped ones).
    #[arg(long)]
    pub nets: Option<PathBuf>,
}

/// `backgammon benchmark-build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Directory of the plan and the shards (made if missing; rerun to resume).
    #[arg(long, default_value = "fixtures/backgammon-benchmark")]
    pub dir: PathBuf,
    /// Positions in the plan.
    #[arg(long, default_value_t = 2000)]
    pub positions: usize,
    /// Positions a shard.
    #[arg(long, default_value_t = 100)]
    pub shard_size: usize,
    /// Roll out only the first N shards this run (default: all; 0 makes
    /// the plan only).
    #[arg(long, conflicts_with = "shard")]
    pub shards: Option<usize>,
    /// Roll out only shard K (0-based; a Slurm array task's index).
    #[arg(long)]
    pub shard: Option<usize>,
    /// Seed of the self-play positions, their rolls and the rollouts' dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Take the positions from the games recorded in FILE (a match's
    /// `--pgn`) instead of self-play: the turns with a choice, with the
    /// rolls played, spread evenly over the file. The plan names the file
    /// by its digest: give it again to resume the shards.
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Trials a candidate.
    #[arg(long, default_value_t = 324)]
    pub trials: u32,
    /// Checker play in the trials, root-inclusive plies.
    #[arg(long, default_value_t = 1)]
    pub ply: u8,
    /// Stop each trial after this many rolls and take the evaluation (0: play out).
    #[arg(long, default_value_t = 10)]
    pub truncate: u32,
    /// Luck adjustment in the rollouts (at ply 1 it costs more than it saves).
    #[arg(long)]
    pub variance_reduction: bool,
    /// Threads (the results do not depend on them).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// GNU Backgammon's binary (classes and 0-ply candidates of the plan).
    #[arg(long, default_value = "/usr/games/gnubg")]
    pub gnubg: PathBuf,
}

/// Runs `backgammon benchmark`.
pub fn score(a: BenchmarkArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let s = ScoreSettings {
        path: a.benchmark,
        plies: a.plies,
        gnubg: a.gnubg.then_some(a.gnubg_bin),
        threads: a.threads.max(1),
        nets: a.nets,
    };
    Ok(benchmark::score(&s, out)?)
}

/// Runs `backgammon benchmark-build`: progress on stderr.
pub fn build(a: BuildArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let recorded = a.records.as_deref().map(Recorded::read).transpose()?;
    let s = BuildSettings {
        positions: a.positions,
        shard_size: a.shard_size.max(1),
        seed: a.seed,
        records: recorded.as_ref().map(|r| r.digest),
        rollout: Settings {
            trials: a.trials,
            ply: a.ply,
            truncate: (a.truncate > 0).then_some(a.truncate),
            variance_reduction: a.variance_reduction,
            ..Settings::default()
        },
    };
    let shards = match (a.shards, a.shard) {
        (_, Some(k)) => Some(k..k + 1),
        (Some(n), None) => Some(0..n),
        (None, None) => None,
    };
    benchmark::build(
        &a.dir,
        &s,
        recorded.as_ref(),
        shards,
        a.threads.max(1),
        &a.gnubg,
        &mut std::io::stderr(),
    )?;
    let _ = writeln!(out, "benchmark {}: built", a.dir.display());
    Ok(())
}
