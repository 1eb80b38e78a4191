//! `backgammon train`, `backgammon duel` and `backgammon bench`: training
//! the nets, in-process matches between players, and the speed figures.

use backgammon_engine::duel::{duel, Chooser, DuelResult, PubevalChooser, RandomChooser};
use backgammon_engine::rng::SplitMix;
use backgammon_engine::train::{self, TrainConfig};
use backgammon_engine::{Evaluator, Pubeval};
use backgammon_rules::Board;
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
    /// default the shipped ones; searched to PLIES, default 1), pubeval or
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

/// Reads the nets of a directory.
pub fn load_nets(dir: &Path) -> Result<Evaluator, String> {
    let read =
        |f: &str| std::fs::read(dir.join(f)).map_err(|e| format!("{}: {e}", dir.join(f).display()));
    Evaluator::from_bytes(&read("contact.net")?, &read("race.net")?)
        .map_err(|e| format!("{}: {e}", dir.display()))
}

/// A player of a duel.
enum Duelist {
    Net(Box<Evaluator>, u8, Box<backgammon_rules::MoveList>),
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
            Duelist::Net(e, 1, _) => e.choose(board, dice, moves),
            Duelist::Net(e, plies, list) => {
                let c = backgammon_engine::search::Searcher::new(e)
                    .choose(board, dice, *plies, None, list);
                c.index
            }
            Duelist::Pubeval(p) => p.choose(board, dice, moves),
            Duelist::Random(r) => r.choose(board, dice, moves),
        }
    }
}

/// What a player spec names, ready to be cloned per thread.
#[derive(Clone)]
enum Spec {
    Net(Box<Evaluator>, u8),
    Pubeval,
    Random,
}

fn parse_spec(text: &str) -> Result<Spec, String> {
    let bad = || {
        format!(
            "bad player \"{text}\": expected net[:DIR][@PLIES] (plies 1 to 3), pubeval or random"
        )
    };
    let (s, plies) = match text.rsplit_once('@') {
        Some((s, p)) => (
            s,
            p.parse::<u8>()
                .ok()
                .filter(|p| (1..=3).contains(p))
                .ok_or_else(bad)?,
        ),
        None => (text, 1),
    };
    match s.split_once(':') {
        None if s == "net" => Ok(Spec::Net(Box::new(Evaluator::shipped()), plies)),
        None if s == "pubeval" => Ok(Spec::Pubeval),
        None if s == "random" => Ok(Spec::Random),
        Some(("net", dir)) => Ok(Spec::Net(Box::new(load_nets(Path::new(dir))?), plies)),
        _ => Err(bad()),
    }
}

fn make(spec: &Spec, seed: u64) -> Duelist {
    match spec {
        Spec::Net(e, plies) => Duelist::Net(e.clone(), *plies, Box::default()),
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
        stop_at: a.stop_at,
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

/// `backgammon bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Self-play games whose positions are evaluated.
    #[arg(long, default_value_t = 200)]
    pub games: u32,
    /// CPU seconds of evaluations to time.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Decisions to search at 2-ply (and a tenth as many at 3-ply).
    #[arg(long, default_value_t = 400)]
    pub searches: usize,
    /// Nets of a run directory instead of the shipped ones.
    #[arg(long)]
    pub nets: Option<PathBuf>,
    /// Also time GNU Backgammon's evaluation of the same positions
    /// (its `gnubg` Python module, through this program) and its own
    /// `calibrate`, with the ratio of ours to it.
    #[arg(long)]
    pub gnubg: Option<PathBuf>,
}

/// The Python script gnubg runs to time its 0-ply evaluation; it reads the
/// Position IDs from the file named by BG_IDS and prints `gnubg-timing <n>
/// <cpu-s> <cpu-s>`, then gnubg's own `calibrate` (static evaluations a
/// second timed inside gnubg, free of the Python calls' cost).
const GNUBG_TIMER: &str = r#"
import gnubg, os, time
gnubg.command("set threads 1")
ids = [l.strip() for l in open(os.environ["BG_IDS"]) if l.strip()]
boards = [gnubg.positionfromid(i) for i in ids]
ec = gnubg.evalcontext(0, 0, 0, 0, 0.0)
ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)
t = time.process_time()
for b in boards:
    gnubg.evaluate(b, ci, ec)
t1 = time.process_time() - t
t = time.process_time()
for b in boards:
    gnubg.positionid(b)
t2 = time.process_time() - t
print("gnubg-timing %d %.6f %.6f" % (len(boards), t1, t2))
gnubg.command("calibrate 300")
"#;

/// Runs `backgammon bench`.
pub fn bench(a: BenchArgs, out: &mut impl Write) -> Result<(), String> {
    use backgammon_engine::bench::{classes, evaluations, searches};
    use backgammon_engine::selfplay::positions;
    let eval = match &a.nets {
        Some(dir) => load_nets(dir)?,
        None => Evaluator::shipped(),
    };
    let t = backgammon_engine::bench::thread_cpu_seconds();
    std::hint::black_box(backgammon_engine::bearoff::Bearoff::generate());
    let bearoff_s = backgammon_engine::bench::thread_cpu_seconds() - t;
    let boards = positions(&eval, a.games, 7);
    let [c, r, b] = classes(&boards);
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    w(
        out,
        format!("bear-off database: generated in {bearoff_s:.2} cpu-s"),
    )?;
    w(
        out,
        format!(
            "positions: {} from {} self-play games (contact {c}, race {r}, bear-off {b})",
            boards.len(),
            a.games
        ),
    )?;
    let e = evaluations(&eval, &boards, a.seconds);
    w(
        out,
        format!(
            "evaluations: {:.0} per second on one thread ({} in {:.2} cpu-s)",
            e.per_second(),
            e.count,
            e.seconds
        ),
    )?;
    let contact: Vec<_> = boards
        .iter()
        .copied()
        .filter(|b| backgammon_engine::eval::classify(b) == backgammon_engine::eval::Class::Contact)
        .collect();
    let ec = evaluations(&eval, &contact, a.seconds / 2.0);
    w(
        out,
        format!("contact evaluations: {:.0} per second", ec.per_second()),
    )?;
    for (plies, n) in [(2u8, a.searches), (3, a.searches / 10)] {
        let (s, d) = searches(&eval, &boards, n, plies);
        w(
            out,
            format!(
                "{plies}-ply: {:.0} positions evaluated per second, {:.1} decisions per second ({} decisions, {:.0} positions each)",
                s.per_second(),
                d as f64 / s.seconds,
                d,
                s.count as f64 / d as f64
            ),
        )?;
    }
    if let Some(gnubg) = a.gnubg {
        for line in gnubg_timing(&gnubg, &boards, e.per_second())? {
            w(out, line)?;
        }
    }
    Ok(())
}

/// Times GNU Backgammon on the same positions: its 0-ply evaluation
/// through its Python module, and its own `calibrate`, each beside
/// `ours` (our evaluations a second).
fn gnubg_timing(gnubg: &Path, boards: &[Board], ours: f64) -> Result<Vec<String>, String> {
    let dir = std::env::temp_dir().join(format!("gh-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let ids: String = boards.iter().map(|b| format!("{b}\n")).collect();
    std::fs::write(dir.join("ids.txt"), ids).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("timer.py"), GNUBG_TIMER).map_err(|e| e.to_string())?;
    let o = std::process::Command::new(gnubg)
        .args(["-t", "-q", "-p"])
        .arg(dir.join("timer.py"))
        .env("BG_IDS", dir.join("ids.txt"))
        .output()
        .map_err(|e| format!("{}: {e}", gnubg.display()));
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&o?.stdout).into_owned();
    let numbers_after = |prefix: &str| -> Result<Vec<f64>, String> {
        let line = text
            .lines()
            // gnubg draws its progress with carriage returns before the result.
            .find_map(|l| l.find(prefix).map(|i| &l[i + prefix.len()..]))
            .ok_or_else(|| format!("gnubg printed no \"{prefix}\": {text}"))?;
        Ok(line
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect())
    };
    let f = numbers_after("gnubg-timing")?;
    let [n, t_eval, t_call] = f[..] else {
        return Err(format!("gnubg's timing line holds {f:?}"));
    };
    let calibrated = numbers_after("Calibration result:")?
        .first()
        .copied()
        .ok_or_else(|| format!("gnubg's calibration result is not a number: {text}"))?;
    Ok(vec![
        format!(
            "gnubg 0-ply evaluations (same positions, its Python module): {:.0} per second; {:.0} per second net of the cost of a Python call to positionid ({:.2} cpu-s, {:.2} cpu-s)",
            n / t_eval,
            n / (t_eval - t_call).max(1e-9),
            t_eval,
            t_call
        ),
        format!(
            "gnubg calibrate (its own timing of static evaluations, one thread, wall clock): {calibrated:.0} per second; ours {:.1} times that",
            ours / calibrated
        ),
    ])
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
pub fn refine(a: RefineArgs, out: &mut impl Write) -> Result<(), String> {
    let cfg = backgammon_engine::refine::RefineConfig {
        dir: a.dir,
        start: load_nets(&a.from)?,
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
    backgammon_engine::refine::run(&cfg, out).map(|_| ())
}
