//! Training the nets by TD(λ) self-play: the evaluator plays itself at
//! 1-ply (greedy in cubeless money equity); after each game every position
//! the nets judged (contact, crashed and race; the bear-off database needs
//! no training) is moved towards its λ-return, the mix of the next positions'
//! values and the game's outcome.
//!
//! A run is reproducible from its seed: the dice come from one generator
//! whose state is saved in each checkpoint with the nets, so a killed run
//! resumed from its directory continues exactly where it was. Every
//! `eval_every` games the evaluator plays pubeval (mirrored pairs on fixed
//! dice) and a line is added to `curve.csv`: the learning curve.

use crate::duel::{duel, PubevalChooser};
use backgammon_engine::eval::{classify, flip, net_inputs, Class, Evaluator, Probs};
use backgammon_engine::features::{CONTACT_BASE, CONTACT_INPUTS, RACE_INPUTS};
use backgammon_engine::files::write_atomic;
use backgammon_engine::net::{check_hidden, Net, NetError};
use backgammon_engine::pubeval::Pubeval;
use backgammon_rules::{Board, Dice, MoveList, RollDice, Side, SplitMix};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Where checkpoints, nets and the curve go (created if missing).
    pub dir: PathBuf,
    /// Seed of the dice and of the initial weights.
    pub seed: u64,
    /// Train until this many games have been played in all.
    pub games: u64,
    /// Stop (at a checkpoint) once this many games are played, before
    /// `games`; the learning-rate schedule still runs to `games`, so a
    /// later run with a larger `stop_at` resumes on the same schedule.
    pub stop_at: Option<u64>,
    /// Learning rate at the start and at `games` (linear in between).
    pub alpha: (f32, f32),
    /// λ of the returns.
    pub lambda: f32,
    /// Hidden units of the contact and race nets of a fresh run.
    pub hidden: (usize, usize),
    /// Games between checkpoints.
    pub checkpoint_every: u64,
    /// Games between points of the learning curve (0: none).
    pub eval_every: u64,
    /// Mirrored pairs against pubeval per point of the curve.
    pub eval_pairs: u64,
    /// Start from these nets instead of random ones (a fresh run only).
    pub start: Option<Evaluator>,
}

/// What a checkpoint holds.
pub struct State {
    pub games: u64,
    pub rng: SplitMix,
    pub cpu_seconds: f64,
    pub eval: Evaluator,
}

/// Why a training run stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A file or directory of the run that cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    /// A checkpoint that is not one (wrong magic, cut short).
    #[error("{}: bad checkpoint", path.display())]
    Checkpoint { path: PathBuf },
    /// A checkpoint whose nets do not read.
    #[error("{}: {source}", path.display())]
    CheckpointNets { path: PathBuf, source: NetError },
    /// A fresh run asked for nets the evaluation cannot hold.
    #[error("the {net} net: {source}")]
    Hidden { net: &'static str, source: NetError },
}

/// Why checkpoint bytes do not read.
#[derive(Debug)]
enum BadCheckpoint {
    Format,
    Nets(NetError),
}

impl BadCheckpoint {
    fn at(self, path: &Path) -> TrainError {
        let path = path.to_path_buf();
        match self {
            BadCheckpoint::Format => TrainError::Checkpoint { path },
            BadCheckpoint::Nets(source) => TrainError::CheckpointNets { path, source },
        }
    }
}

/// A closure that names `path` in an I/O error.
fn io_at(path: &Path) -> impl FnOnce(io::Error) -> TrainError + '_ {
    move |source| TrainError::Io {
        path: path.to_path_buf(),
        source,
    }
}

const MAGIC: &[u8; 8] = b"GHBGTRN1";

impl State {
    fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&self.games.to_le_bytes());
        out.extend_from_slice(&self.rng.0.to_le_bytes());
        out.extend_from_slice(&self.cpu_seconds.to_le_bytes());
        // Contact and race first (the checkpoints made before the crashed
        // net read as ever), then the crashed net.
        for net in [&self.eval.contact, &self.eval.race, &self.eval.crashed] {
            let b = net.to_bytes();
            out.extend_from_slice(&(b.len() as u64).to_le_bytes());
            out.extend_from_slice(&b);
        }
        out
    }

    fn from_bytes(b: &[u8]) -> Result<State, BadCheckpoint> {
        let bad = || BadCheckpoint::Format;
        if b.len() < 32 || &b[..8] != MAGIC {
            return Err(bad());
        }
        let word = |at: usize| -> Result<u64, BadCheckpoint> {
            Ok(u64::from_le_bytes(
                b.get(at..at + 8).ok_or_else(bad)?.try_into().unwrap(),
            ))
        };
        let games = word(8)?;
        let rng = SplitMix(word(16)?);
        let cpu_seconds = f64::from_bits(word(24)?);
        let mut at = 32;
        let mut nets = Vec::new();
        while at < b.len() && nets.len() < 3 {
            let n = word(at)? as usize;
            nets.push(b.get(at + 8..at + 8 + n).ok_or_else(bad)?);
            at += 8 + n;
        }
        if nets.len() < 2 {
            return Err(bad());
        }
        let eval = Evaluator::from_bytes(nets[0], nets.get(2).copied(), nets[1])
            .map_err(BadCheckpoint::Nets)?;
        Ok(State {
            games,
            rng,
            cpu_seconds,
            eval,
        })
    }

    /// Loads the checkpoint of a run directory, if there is one.
    pub fn load(dir: &Path) -> Result<Option<State>, TrainError> {
        let path = dir.join("checkpoint.bin");
        match std::fs::read(&path) {
            Ok(b) => State::from_bytes(&b).map(Some).map_err(|e| e.at(&path)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_at(&path)(e)),
        }
    }

    /// Writes the checkpoint and the nets (atomically: a kill leaves the
    /// previous files whole).
    pub fn save(&self, dir: &Path) -> io::Result<()> {
        write_atomic(&dir.join("checkpoint.bin"), &self.to_bytes())?;
        self.eval.write_dir(dir)
    }
}

/// CPU seconds this process has used (user and system), from the system's
/// process clock (`cpu-time`; 0 where the system has none).
pub fn cpu_seconds() -> f64 {
    cpu_time::ProcessTime::try_now().map_or(0.0, |t| t.as_duration().as_secs_f64())
}

/// One position of a game: which net judged it, its inputs, and the
/// mover's chances after the move chosen.
pub struct Step {
    class: Class,
    x: [f32; CONTACT_INPUTS],
    /// How many of `x` its net reads.
    inputs: usize,
    after: Probs,
}

/// Plays one self-play game from `start` and trains on it.
pub fn train_game(
    eval: &mut Evaluator,
    rng: &mut SplitMix,
    alpha: f32,
    lambda: f32,
    moves: &mut MoveList,
    steps: &mut Vec<Step>,
) {
    steps.clear();
    let mut dice = opening_dice(rng);
    let mut board = Board::START;
    loop {
        let class = classify(&board);
        board.legal_moves_into(dice, moves);
        let (i, p) = eval.best_move(moves);
        let after = moves.boards()[i];
        let mut x = [0.0f32; CONTACT_INPUTS];
        let width = eval.net(class).map_or(0, |n| n.inputs());
        let inputs = net_inputs(class, &board, &mut x, width).len();
        steps.push(Step {
            class,
            x,
            inputs,
            after: p,
        });
        if after.has_won(Side::OnRoll) {
            break;
        }
        board = after.swapped();
        dice = rng.dice();
    }
    // λ-returns, from the end: G_t = (1 - λ) V_t + λ flip(G_{t+1}).
    let mut g = steps.last().expect("a game has a move").after;
    for t in (0..steps.len()).rev() {
        if t + 1 < steps.len() {
            let next = flip(&g);
            let v = steps[t].after;
            g = std::array::from_fn(|k| (1.0 - lambda) * v[k] + lambda * next[k]);
        }
        let s = &steps[t];
        if let Some(net) = eval.net_mut(s.class) {
            net.train(&s.x[..s.inputs], &g, alpha);
        }
    }
}

/// The seed of the fixed dice the learning curve is measured on.
pub const CURVE_SEED: u64 = 0x0063_7572_7665;

/// Plays `pairs` mirrored pairs of the evaluator (1-ply) against pubeval:
/// (points per game, 95% half-interval).
pub fn versus_pubeval(eval: &Evaluator, pairs: u64, seed: u64, threads: usize) -> (f64, f64) {
    let r = duel(
        || eval.clone(),
        || PubevalChooser(Pubeval::published()),
        pairs,
        seed,
        threads,
    );
    (r.ppg(), r.ci95())
}

/// Runs (or resumes) a training run, reporting progress on `log`.
pub fn run(cfg: &TrainConfig, log: &mut impl Write) -> Result<State, TrainError> {
    let dir = &cfg.dir;
    std::fs::create_dir_all(dir).map_err(io_at(dir))?;
    let mut state = match State::load(dir)? {
        Some(s) => {
            writeln!(log, "resuming {} at game {}", dir.display(), s.games).ok();
            s
        }
        None => {
            let eval = match &cfg.start {
                Some(start) => start.clone(),
                None => fresh_nets(cfg.hidden, cfg.seed)?,
            };
            State {
                games: 0,
                rng: SplitMix::new(cfg.seed),
                cpu_seconds: 0.0,
                eval,
            }
        }
    };
    let curve = dir.join("curve.csv");
    if !curve.exists() {
        std::fs::write(&curve, "games,ppg,ci95,cpu_seconds\n").map_err(io_at(&curve))?;
    }
    let mut moves = Box::<MoveList>::default();
    let mut steps = Vec::with_capacity(200);
    let cpu0 = cpu_seconds() - state.cpu_seconds;
    if state.games == 0 && cfg.eval_every > 0 {
        point_of_curve(cfg, &state, &curve, log)?;
    }
    let last = cfg.stop_at.map_or(cfg.games, |s| s.min(cfg.games));
    while state.games < last {
        let f = state.games as f32 / cfg.games.max(1) as f32;
        let alpha = cfg.alpha.0 + (cfg.alpha.1 - cfg.alpha.0) * f;
        train_game(
            &mut state.eval,
            &mut state.rng,
            alpha,
            cfg.lambda,
            &mut moves,
            &mut steps,
        );
        state.games += 1;
        let g = state.games;
        if g % cfg.checkpoint_every == 0 || g == last {
            state.cpu_seconds = cpu_seconds() - cpu0;
            state.save(dir).map_err(io_at(dir))?;
            writeln!(
                log,
                "games {g} alpha {alpha:.4} cpu {:.0}s ({:.0} games/cpu-s overall)",
                state.cpu_seconds,
                g as f64 / state.cpu_seconds.max(1e-9)
            )
            .ok();
        }
        if cfg.eval_every > 0 && g % cfg.eval_every == 0 {
            point_of_curve(cfg, &state, &curve, log)?;
        }
    }
    Ok(state)
}

/// Random nets of `hidden` (contact, race) units from `seed`; hidden
/// layers the evaluation cannot hold are refused (they would panic in
/// [`Net::random`]).
fn fresh_nets(hidden: (usize, usize), seed: u64) -> Result<Evaluator, TrainError> {
    for (net, h) in [("contact", hidden.0), ("race", hidden.1)] {
        check_hidden(h).map_err(|source| TrainError::Hidden { net, source })?;
    }
    // The crashed net starts as the contact net: crashed positions are
    // contact positions of one kind.
    // Without the extra inputs, as generation 0 was trained.
    let contact = Net::random(CONTACT_BASE, hidden.0, seed ^ 1);
    Ok(Evaluator::new(
        contact.clone(),
        contact,
        Net::random(RACE_INPUTS, hidden.1, seed ^ 2),
    ))
}

/// Measures the evaluator against pubeval and appends the curve's line.
fn point_of_curve(
    cfg: &TrainConfig,
    state: &State,
    curve: &Path,
    log: &mut impl Write,
) -> Result<(), TrainError> {
    // A point is recorded once: a resumed run does not measure it again.
    let text = std::fs::read_to_string(curve).unwrap_or_default();
    if text
        .lines()
        .any(|l| l.split(',').next() == Some(&state.games.to_string()))
    {
        return Ok(());
    }
    let (ppg, ci) = versus_pubeval(&state.eval, cfg.eval_pairs, CURVE_SEED, 1);
    let line = format!(
        "{},{ppg:.4},{ci:.4},{:.0}\n",
        state.games, state.cpu_seconds
    );
    std::fs::OpenOptions::new()
        .append(true)
        .open(curve)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .map_err(io_at(curve))?;
    writeln!(
        log,
        "games {} vs pubeval {ppg:+.3} ± {ci:.3} ppg ({} games)",
        state.games,
        2 * cfg.eval_pairs
    )
    .ok();
    Ok(())
}

/// A roll that is not a double, as the opening roll is.
pub fn opening_dice(rng: &mut SplitMix) -> Dice {
    loop {
        let d = rng.dice();
        if !d.is_double() {
            return d;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_round_trip_and_training_is_repeatable() {
        let mk = || {
            Evaluator::new(
                Net::random(CONTACT_INPUTS, 16, 1),
                Net::random(CONTACT_INPUTS, 16, 3),
                Net::random(RACE_INPUTS, 8, 2),
            )
        };
        let (mut a, mut b) = (mk(), mk());
        let (mut ra, mut rb) = (SplitMix::new(5), SplitMix::new(5));
        let mut moves = Box::<MoveList>::default();
        let mut steps = Vec::new();
        for _ in 0..3 {
            train_game(&mut a, &mut ra, 0.1, 0.7, &mut moves, &mut steps);
            train_game(&mut b, &mut rb, 0.1, 0.7, &mut moves, &mut steps);
        }
        assert_eq!(a.contact, b.contact);
        assert_ne!(a.contact, mk().contact);
        let s = State {
            games: 3,
            rng: ra,
            cpu_seconds: 1.5,
            eval: a,
        };
        let back = State::from_bytes(&s.to_bytes()).unwrap();
        assert_eq!((back.games, back.rng, back.cpu_seconds), (3, ra, 1.5));
        assert_eq!(back.eval.contact, s.eval.contact);
        assert_eq!(back.eval.race, s.eval.race);
    }

    #[test]
    fn a_fresh_run_refuses_hidden_layers_the_evaluation_cannot_hold() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = |hidden| TrainConfig {
            dir: dir.path().join("run"),
            seed: 1,
            games: 1,
            stop_at: None,
            alpha: (0.1, 0.1),
            lambda: 0.7,
            hidden,
            checkpoint_every: 1,
            eval_every: 0,
            eval_pairs: 0,
            start: None,
        };
        let e = run(&cfg((12, 8)), &mut Vec::new()).err().expect("refused");
        assert_eq!(
            e.to_string(),
            "the contact net: 12 hidden units: expected a positive multiple of 8 up to 512"
        );
        let e = run(&cfg((16, 0)), &mut Vec::new()).err().expect("refused");
        assert!(matches!(e, TrainError::Hidden { net: "race", .. }), "{e}");
        let state = run(&cfg((16, 8)), &mut Vec::new()).unwrap();
        assert_eq!(state.games, 1);
    }
}
