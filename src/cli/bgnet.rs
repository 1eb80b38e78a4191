//! `backgammon train`, `backgammon duel` and `backgammon bench`: training
//! the nets, in-process matches between players, and the speed figures.

use backgammon_engine::duel::{duel, Chooser, DuelResult, PubevalChooser, RandomChooser};
use backgammon_engine::rng::SplitMix;
use backgammon_engine::train::{self, TrainConfig};
use backgammon_engine::{Evaluator, Pubeval};
use std::io::Write;
use std::path::{Path, PathBuf};

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
    /// The first player: net[:DIR] (the nets of a run directory; default
    /// the shipped ones), pubeval or random.
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

/// Reads the nets of a directory.
pub fn load_nets(dir: &Path) -> Result<Evaluator, String> {
    let read =
        |f: &str| std::fs::read(dir.join(f)).map_err(|e| format!("{}: {e}", dir.join(f).display()));
    Evaluator::from_bytes(&read("contact.net")?, &read("race.net")?)
        .map_err(|e| format!("{}: {e}", dir.display()))
}

/// A player of a duel.
enum Duelist {
    Net(Box<Evaluator>),
    Pubeval(Box<PubevalChooser>),
    Random(RandomChooser),
}

impl Chooser for Duelist {
    fn choose(
        &mut self,
        board: &backgammon_rules::Board,
        dice: backgammon_rules::Dice,
        moves: &backgammon_rules::MoveList,
    ) -> usize {
        match self {
            Duelist::Net(e) => e.choose(board, dice, moves),
            Duelist::Pubeval(p) => p.choose(board, dice, moves),
            Duelist::Random(r) => r.choose(board, dice, moves),
        }
    }
}

/// What a player spec names, ready to be cloned per thread.
#[derive(Clone)]
enum Spec {
    Net(Box<Evaluator>),
    Pubeval,
    Random,
}

fn parse_spec(s: &str) -> Result<Spec, String> {
    match s.split_once(':') {
        None if s == "net" => Ok(Spec::Net(Box::new(Evaluator::shipped()))),
        None if s == "pubeval" => Ok(Spec::Pubeval),
        None if s == "random" => Ok(Spec::Random),
        Some(("net", dir)) => Ok(Spec::Net(Box::new(load_nets(Path::new(dir))?))),
        _ => Err(format!(
            "bad player \"{s}\": expected net, net:DIR, pubeval or random"
        )),
    }
}

fn make(spec: &Spec, seed: u64) -> Duelist {
    match spec {
        Spec::Net(e) => Duelist::Net(e.clone()),
        Spec::Pubeval => Duelist::Pubeval(Box::new(PubevalChooser(Pubeval::published()))),
        Spec::Random => Duelist::Random(RandomChooser(SplitMix::new(seed))),
    }
}

/// Runs `backgammon train`.
pub fn train(a: TrainArgs, out: &mut impl Write) -> Result<(), String> {
    let start = a.from.as_deref().map(load_nets).transpose()?;
    let cfg = TrainConfig {
        dir: a.dir,
        seed: a.seed,
        games: a.games,
        alpha: (a.alpha, a.alpha_end),
        lambda: a.lambda,
        hidden: (a.hidden, a.race_hidden),
        checkpoint_every: a.checkpoint_every.max(1),
        eval_every: a.eval_every,
        eval_pairs: a.eval_pairs,
        start,
    };
    train::run(&cfg, out).map(|_| ())
}

/// Runs `backgammon duel`.
pub fn run_duel(a: DuelArgs, out: &mut impl Write) -> Result<(), String> {
    let (sa, sb) = (parse_spec(&a.a)?, parse_spec(&a.b)?);
    let t0 = std::time::Instant::now();
    let c0 = train::cpu_seconds();
    let r: DuelResult = duel(
        || make(&sa, a.seed ^ 1),
        || make(&sb, a.seed ^ 2),
        a.pairs,
        a.seed,
        a.threads,
    );
    let _ = writeln!(
        out,
        "{} vs {}: {:+.4} ± {:.4} points per game ({} games in mirrored pairs, seed {}; {:.0} s, {:.0} cpu-s)",
        a.a,
        a.b,
        r.ppg(),
        r.ci95(),
        r.games(),
        a.seed,
        t0.elapsed().as_secs_f64(),
        train::cpu_seconds() - c0
    );
    Ok(())
}
