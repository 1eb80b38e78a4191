//! `backgammon rollout` (and `backgammon rollout-check`): their arguments,
//! read into the backgammon lab's settings and run there.

use super::bgerror::BackgammonError;
use backgammon_engine::rollout::Settings;
use backgammon_lab::rollout::{self, RolloutRequest};
use backgammon_lab::rollout_check::{self, CheckSettings};
use std::io::Write;
use std::path::PathBuf;

/// `backgammon rollout`.
#[derive(clap::Args, Debug)]
pub struct RolloutArgs {
    /// GNU Backgammon's PositionID[:MatchID], or an XGID.
    #[arg(long)]
    pub position: String,
    /// Roll out each legal move of these dice, e.g. 52 (default: the dice
    /// rolled in the position's Match ID or XGID, else the position before
    /// the roll).
    #[arg(long, default_value = "")]
    pub dice: String,
    /// Games played out per candidate.
    #[arg(long, default_value_t = 1296)]
    pub trials: u32,
    /// Checker play in the trials, root-inclusive plies (1 = the net's
    /// evaluation of each move, GNU Backgammon's 0-ply).
    #[arg(long, default_value_t = 1)]
    pub ply: u8,
    /// Stop each trial after this many rolls and take the evaluation.
    #[arg(long)]
    pub truncate: Option<u32>,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (the result does not depend on them).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Save the sums here as the rollout goes, and resume from them.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// No luck adjustment (variance reduction).
    #[arg(long)]
    pub no_variance_reduction: bool,
    /// Plain random dice instead of stratified first rolls.
    #[arg(long)]
    pub no_stratified: bool,
    /// Play bear-offs out instead of reading them from the database.
    #[arg(long)]
    pub no_bearoff: bool,
}

/// Runs `backgammon rollout`: progress on stderr, the table on `out`.
pub fn run(a: RolloutArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let req = RolloutRequest {
        position: a.position,
        dice: a.dice,
        settings: Settings {
            trials: a.trials,
            ply: a.ply,
            truncate: a.truncate,
            seed: a.seed,
            threads: a.threads.max(1),
            variance_reduction: !a.no_variance_reduction,
            stratified: !a.no_stratified,
            bearoff: !a.no_bearoff,
        },
        checkpoint: a.checkpoint,
    };
    let lines = rollout::run(&req, |l| eprintln!("{l}"))?;
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    Ok(())
}

/// `backgammon rollout-check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Positions of each class (contact, crashed, race, as gnubg classes them).
    #[arg(long, default_value_t = 50)]
    pub per_class: usize,
    /// Trials per position, each program.
    #[arg(long, default_value_t = 1296)]
    pub trials: u32,
    /// Our ply; gnubg rolls out at one less (its 0-ply is our 1).
    #[arg(long, default_value_t = 1)]
    pub ply: u8,
    /// Seed of the self-play positions and of both programs' dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Self-play games the positions are drawn from.
    #[arg(long, default_value_t = 400)]
    pub games: u32,
    /// Our threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Both programs without variance reduction.
    #[arg(long)]
    pub no_variance_reduction: bool,
    /// GNU Backgammon's binary.
    #[arg(long, default_value = "/usr/games/gnubg")]
    pub gnubg: PathBuf,
    /// Roll out these positions (Position IDs, comma-separated) instead of
    /// self-play ones: every one of a compared class.
    #[arg(long, value_delimiter = ',')]
    pub ids: Vec<String>,
    /// Only these classes (comma-separated: contact, crashed, race); all
    /// three if not given.
    #[arg(long, value_delimiter = ',', value_parser = class_names())]
    pub classes: Vec<String>,
}

/// The classes `--classes` accepts: the check's own.
fn class_names() -> clap::builder::PossibleValuesParser {
    rollout_check::CLASSES.map(|(name, _)| name).into()
}

/// Runs `backgammon rollout-check`: the table on `out`, progress on stderr.
pub fn check(a: CheckArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let s = CheckSettings {
        per_class: a.per_class,
        trials: a.trials,
        ply: a.ply.max(1),
        seed: a.seed,
        games: a.games,
        threads: a.threads.max(1),
        variance_reduction: !a.no_variance_reduction,
        gnubg: a.gnubg,
        ids: a.ids,
        classes: a.classes,
    };
    Ok(rollout_check::run(&s, out, &mut std::io::stderr())?)
}
