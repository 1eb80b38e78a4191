//! Supervised refinement on the project's own search: positions from
//! self-play of the current nets (with some exploration) are labelled with
//! their 2-ply value (the average over the 21 rolls of the best move's
//! evaluation, GNU Backgammon's 1-ply), and the nets are fitted to those
//! labels by stochastic gradient descent. Repeated, this is fitted value
//! iteration: each round's nets learn what the previous round's saw one
//! roll deeper.
//!
//! Every stage writes its result to the run directory (positions, labels in
//! chunks, nets after each epoch), so a killed run resumes where it was.

use crate::train::{cpu_seconds, versus_pubeval, CURVE_SEED};
use backgammon_engine::eval::{classify, equity, net_inputs, Class, Evaluator, Probs};
use backgammon_engine::features::CONTACT_INPUTS;
use backgammon_engine::files::write_atomic;
use backgammon_engine::net::{Adam, Grads};
use backgammon_engine::search::Searcher;
use backgammon_rules::{Board, KeyError, PositionKey, SplitMix};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why a refinement run stopped.
#[derive(Debug, thiserror::Error)]
pub enum RefineError {
    /// A file or directory of the run that cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    /// A positions file holding something else than position keys.
    #[error("{}: {fault}", path.display())]
    Positions { path: PathBuf, fault: KeyError },
    /// A round marked done (or an epoch counted) whose nets do not read.
    #[error("{}: {why}", dir.display())]
    LostNets { dir: PathBuf, why: &'static str },
}

/// A closure that names `path` in an I/O error.
fn io_at(path: &Path) -> impl FnOnce(io::Error) -> RefineError + '_ {
    move |source| RefineError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The settings of a refinement run.
#[derive(Clone, Debug)]
pub struct RefineConfig {
    pub dir: PathBuf,
    /// The nets of round 0.
    pub start: Evaluator,
    pub seed: u64,
    /// Rounds of (positions, labels, fit).
    pub rounds: u32,
    /// Self-play games per round whose positions are labelled.
    pub games: u32,
    /// Chance that a self-play move is the second best instead of the best.
    pub explore: f32,
    /// Lookahead of the labels, in rolls (1 = 2-ply).
    pub depth: u8,
    /// Passes over the labelled positions per round.
    pub epochs: u32,
    /// Learning rate of the first and last epoch (geometric in between).
    pub alpha: (f32, f32),
    /// Threads for labelling.
    pub threads: usize,
    /// Mirrored pairs against pubeval after each epoch.
    pub eval_pairs: u64,
    /// CPU seconds already spent before this run (for the curve).
    pub cpu_before: f64,
}

/// Positions from `games` self-play games of `eval` at 1-ply, where each
/// move is the second best with chance `explore`. Positions in the
/// bear-off database are left out (they need no net).
pub fn self_play_positions(eval: &Evaluator, games: u32, explore: f32, seed: u64) -> Vec<Board> {
    let mut boards = crate::selfplay::exploring(eval, games, explore, seed);
    boards.retain(|b| classify(b) != Class::Bearoff);
    boards
}

/// The value of each board looking `depth` rolls ahead, on `threads` threads.
pub fn label(eval: &Evaluator, boards: &[Board], depth: u8, threads: usize) -> Vec<Probs> {
    let threads = threads.max(1);
    let chunk = boards.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = boards
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut search = Searcher::new(eval);
                    part.iter()
                        .map(|b| search.position_value(b, depth))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a labelling thread panicked"))
            .collect()
    })
}

fn boards_to_bytes(boards: &[Board]) -> Vec<u8> {
    boards.iter().flat_map(|b| b.key().0).collect()
}

fn boards_from_bytes(bytes: &[u8]) -> Result<Vec<Board>, KeyError> {
    bytes
        .chunks_exact(10)
        .map(|c| Board::from_key(&PositionKey(c.try_into().unwrap())))
        .collect()
}

fn probs_to_bytes(p: &[Probs]) -> Vec<u8> {
    p.iter().flatten().flat_map(|x| x.to_le_bytes()).collect()
}

fn probs_from_bytes(bytes: &[u8]) -> Vec<Probs> {
    bytes
        .chunks_exact(20)
        .map(|c| {
            std::array::from_fn(|k| f32::from_le_bytes(c[4 * k..4 * k + 4].try_into().unwrap()))
        })
        .collect()
}

/// The indices of `n` items in a seeded order.
fn shuffled(n: usize, rng: &mut SplitMix) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        order.swap(i, j);
    }
    order
}

/// One pass of per-sample gradient descent over `data` in a seeded order.
pub fn fit_epoch(eval: &mut Evaluator, data: &[(Board, Probs)], alpha: f32, rng: &mut SplitMix) {
    let mut x = [0.0f32; CONTACT_INPUTS];
    for k in shuffled(data.len(), rng) {
        let (b, target) = &data[k as usize];
        x.fill(0.0);
        let class = classify(b);
        if let Some(net) = eval.net_mut(class) {
            net.train(net_inputs(class, b, &mut x, net.inputs()), target, alpha);
        }
    }
}

/// The classes with a net, in a fixed order.
const NET_CLASSES: [Class; 3] = [Class::Contact, Class::Crashed, Class::Race];

/// Adam's state across the epochs of a fit: one per net.
pub struct AdamFit {
    batch: usize,
    /// Each net's Adam state and its batch gradient, in [`NET_CLASSES`] order.
    adams: Vec<Adam>,
    grads: Vec<Grads>,
    /// Threads a batch's gradient is made on (1: in sample order).
    threads: usize,
    /// On threads: each of the [`PARTS`] parts' gradients, one per net.
    parts: Vec<Vec<Grads>>,
}

/// Parts a batch's gradient is summed in on threads: fixed, not the
/// threads', so that any number of threads gives the same nets (the part
/// sums added in part order; one thread adds sample after sample, a
/// different rounding, so a one-thread fit is not a threaded one's).
const PARTS: usize = 4;

impl AdamFit {
    /// Fresh state for `eval`'s nets, batches of `batch` samples.
    pub fn new(eval: &Evaluator, batch: usize) -> AdamFit {
        AdamFit::on_threads(eval, batch, 1)
    }

    /// The same, each batch's gradient made on `threads` threads (more
    /// than one: in [`PARTS`] parts, the same nets for any number).
    pub fn on_threads(eval: &Evaluator, batch: usize, threads: usize) -> AdamFit {
        let grads = || -> Vec<Grads> {
            NET_CLASSES
                .iter()
                .map(|&c| Grads::new(eval.net(c).expect("a net's class")))
                .collect()
        };
        let adams = NET_CLASSES
            .iter()
            .map(|&c| Adam::new(eval.net(c).expect("a net's class")))
            .collect();
        let threads = threads.max(1);
        let parts = if threads > 1 {
            (0..PARTS).map(|_| grads()).collect()
        } else {
            Vec::new()
        };
        AdamFit {
            batch: batch.max(1),
            adams,
            grads: grads(),
            threads,
            parts,
        }
    }

    /// One pass over `data` in a seeded order, in batches: each batch's
    /// samples add to their net's gradient, then each net with samples in
    /// it takes one Adam step of rate `rate`.
    pub fn epoch(
        &mut self,
        eval: &mut Evaluator,
        data: &[(Board, Probs)],
        rate: f32,
        rng: &mut SplitMix,
    ) {
        for batch in shuffled(data.len(), rng).chunks(self.batch) {
            if self.threads > 1 {
                self.accumulate_in_parts(eval, data, batch);
            } else {
                accumulate(eval, data, batch, &mut self.grads);
            }
            let nets = NET_CLASSES.iter().zip(&mut self.adams).zip(&mut self.grads);
            for ((&c, adam), grads) in nets {
                if grads.samples() > 0 {
                    adam.step(eval.net_mut(c).expect("a net's class"), grads, rate);
                    grads.clear();
                }
            }
        }
    }

    /// The batch's gradient made in [`PARTS`] contiguous parts shared out
    /// among the threads, then added to the nets' gradients in part order.
    fn accumulate_in_parts(&mut self, eval: &Evaluator, data: &[(Board, Probs)], batch: &[u32]) {
        let size = batch.len().div_ceil(PARTS).max(1);
        let threads = self.threads;
        let mut work: Vec<Vec<(&[u32], &mut Vec<Grads>)>> =
            (0..threads).map(|_| Vec::new()).collect();
        for (p, (part, grads)) in batch.chunks(size).zip(&mut self.parts).enumerate() {
            work[p % threads].push((part, grads));
        }
        std::thread::scope(|scope| {
            for jobs in work.into_iter().filter(|w| !w.is_empty()) {
                scope.spawn(move || {
                    for (part, grads) in jobs {
                        accumulate(eval, data, part, grads);
                    }
                });
            }
        });
        for part in &mut self.parts {
            for (total, g) in self.grads.iter_mut().zip(part.iter_mut()) {
                if g.samples() > 0 {
                    total.add(g);
                    g.clear();
                }
            }
        }
    }
}

/// Adds the gradients of the samples `picks` of `data`, each to its
/// class's net's (`grads` in [`NET_CLASSES`] order).
fn accumulate(eval: &Evaluator, data: &[(Board, Probs)], picks: &[u32], grads: &mut [Grads]) {
    let mut x = [0.0f32; CONTACT_INPUTS];
    for &k in picks {
        let (b, target) = &data[k as usize];
        let class = classify(b);
        let (Some(slot), Some(net)) = (
            NET_CLASSES.iter().position(|&c| c == class),
            eval.net(class),
        ) else {
            continue;
        };
        x.fill(0.0);
        net.accumulate(
            net_inputs(class, b, &mut x, net.inputs()),
            target,
            &mut grads[slot],
        );
    }
}

/// Mean squared error of the evaluator's equity against the labels'.
pub fn equity_rmse(eval: &Evaluator, data: &[(Board, Probs)]) -> f64 {
    let n = data.len().max(1) as f64;
    let s: f64 = data
        .iter()
        .map(|(b, t)| {
            let d = equity(&eval.evaluate(b)) - equity(t);
            (d as f64).powi(2)
        })
        .sum();
    (s / n).sqrt()
}

fn read_nets(dir: &Path) -> Option<Evaluator> {
    Evaluator::read_dir(dir).ok()
}

fn save_nets(dir: &Path, e: &Evaluator) -> Result<(), RefineError> {
    e.write_dir(dir).map_err(io_at(dir))
}

/// Runs (or resumes) a refinement; returns the last round's nets.
pub fn run(cfg: &RefineConfig, log: &mut impl Write) -> Result<Evaluator, RefineError> {
    let run = Run::open(cfg)?;
    let mut eval = cfg.start.clone();
    for round in 0..cfg.rounds {
        eval = run.round(round, eval, log)?;
    }
    save_nets(&cfg.dir, &eval)?;
    Ok(eval)
}

/// Labels are computed and appended in chunks of this many positions, so
/// that a killed run loses at most one chunk.
const LABEL_CHUNK: usize = 20_000;

/// A run directory opened for its rounds: its curve, and the CPU time spent
/// before this process and since it started.
struct Run<'a> {
    cfg: &'a RefineConfig,
    curve: PathBuf,
    spent_file: PathBuf,
    spent_before: f64,
    cpu0: f64,
}

impl<'a> Run<'a> {
    /// Creates the directory and the curve's header if they are missing and
    /// reads the CPU time spent by earlier processes.
    fn open(cfg: &'a RefineConfig) -> Result<Run<'a>, RefineError> {
        let dir = &cfg.dir;
        std::fs::create_dir_all(dir).map_err(io_at(dir))?;
        let curve = dir.join("curve.csv");
        if !curve.exists() {
            std::fs::write(&curve, "round,epoch,ppg,ci95,cpu_seconds,rmse\n")
                .map_err(io_at(&curve))?;
        }
        let spent_file = dir.join("cpu-seconds.txt");
        let spent_before: f64 = std::fs::read_to_string(&spent_file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0.0);
        Ok(Run {
            cfg,
            curve,
            spent_file,
            spent_before,
            cpu0: cpu_seconds(),
        })
    }

    /// CPU seconds spent by this run, earlier processes included.
    fn spent(&self) -> f64 {
        self.spent_before + cpu_seconds() - self.cpu0
    }

    /// Records [`Run::spent`] so that a resumed run counts on from it.
    fn save_spent(&self) -> Result<(), RefineError> {
        write_atomic(&self.spent_file, format!("{}", self.spent()).as_bytes())
            .map_err(io_at(&self.spent_file))
    }

    /// One round from `eval` (positions, labels, fit), or its saved nets if
    /// it is done; returns the round's nets.
    fn round(
        &self,
        round: u32,
        eval: Evaluator,
        log: &mut impl Write,
    ) -> Result<Evaluator, RefineError> {
        let rdir = self.cfg.dir.join(format!("round{round}"));
        let done = rdir.join("done");
        if done.exists() {
            return read_nets(&rdir).ok_or_else(|| lost(&rdir, "a finished round lost its nets"));
        }
        std::fs::create_dir_all(&rdir).map_err(io_at(&rdir))?;
        let boards = self.positions(&rdir, round, &eval)?;
        writeln!(log, "round {round}: {} positions", boards.len()).ok();
        let labels = self.labels(&rdir, round, &eval, &boards, log)?;
        let data: Vec<(Board, Probs)> = boards.into_iter().zip(labels).collect();
        let eval = self.fit(&rdir, round, eval, &data, log)?;
        std::fs::write(&done, "").map_err(io_at(&done))?;
        Ok(eval)
    }

    /// The round's positions: read back, or played by `eval` and saved.
    fn positions(
        &self,
        rdir: &Path,
        round: u32,
        eval: &Evaluator,
    ) -> Result<Vec<Board>, RefineError> {
        let pos_file = rdir.join("positions.bin");
        match std::fs::read(&pos_file) {
            Ok(b) => boards_from_bytes(&b).map_err(|fault| RefineError::Positions {
                path: pos_file.clone(),
                fault,
            }),
            Err(_) => {
                let cfg = self.cfg;
                let seed = cfg.seed ^ (round as u64) << 32;
                let b = self_play_positions(eval, cfg.games, cfg.explore, seed);
                write_atomic(&pos_file, &boards_to_bytes(&b)).map_err(io_at(&pos_file))?;
                Ok(b)
            }
        }
    }

    /// The labels of `boards`: those saved, then the rest computed and
    /// appended chunk by chunk.
    fn labels(
        &self,
        rdir: &Path,
        round: u32,
        eval: &Evaluator,
        boards: &[Board],
        log: &mut impl Write,
    ) -> Result<Vec<Probs>, RefineError> {
        let lab_file = rdir.join("labels.bin");
        let mut labels = std::fs::read(&lab_file)
            .map(|b| probs_from_bytes(&b))
            .unwrap_or_default();
        while labels.len() < boards.len() {
            let end = (labels.len() + LABEL_CHUNK).min(boards.len());
            let new = label(
                eval,
                &boards[labels.len()..end],
                self.cfg.depth,
                self.cfg.threads,
            );
            append(&lab_file, &probs_to_bytes(&new))?;
            labels.extend(new);
            self.save_spent()?;
            writeln!(
                log,
                "round {round}: labelled {}/{} ({:.0} cpu-s)",
                labels.len(),
                boards.len(),
                self.spent()
            )
            .ok();
        }
        Ok(labels)
    }

    /// Fits `eval` to `data` epoch by epoch from the last saved epoch,
    /// saving the nets and a curve line after each.
    fn fit(
        &self,
        rdir: &Path,
        round: u32,
        mut eval: Evaluator,
        data: &[(Board, Probs)],
        log: &mut impl Write,
    ) -> Result<Evaluator, RefineError> {
        let cfg = self.cfg;
        let epoch_file = rdir.join("epoch.txt");
        let mut epoch: u32 = std::fs::read_to_string(&epoch_file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0);
        if epoch > 0 {
            eval = read_nets(rdir).ok_or_else(|| lost(rdir, "lost the nets of the last epoch"))?;
        }
        while epoch < cfg.epochs {
            let alpha = epoch_alpha(cfg, epoch);
            let mut rng = SplitMix::new(cfg.seed ^ ((round as u64) << 32) ^ epoch as u64);
            fit_epoch(&mut eval, data, alpha, &mut rng);
            epoch += 1;
            save_nets(rdir, &eval)?;
            write_atomic(&epoch_file, epoch.to_string().as_bytes()).map_err(io_at(&epoch_file))?;
            self.save_spent()?;
            self.measure(round, epoch, alpha, &eval, data, log)?;
        }
        Ok(eval)
    }

    /// Measures the nets after an epoch (equity error on the labels, play
    /// against pubeval), appends the curve's line and logs it.
    fn measure(
        &self,
        round: u32,
        epoch: u32,
        alpha: f32,
        eval: &Evaluator,
        data: &[(Board, Probs)],
        log: &mut impl Write,
    ) -> Result<(), RefineError> {
        let cfg = self.cfg;
        let rmse = equity_rmse(eval, &data[..data.len().min(20_000)]);
        let (ppg, ci) = if cfg.eval_pairs > 0 {
            versus_pubeval(eval, cfg.eval_pairs, CURVE_SEED, 1)
        } else {
            (f64::NAN, f64::NAN)
        };
        let line = format!(
            "{round},{epoch},{ppg:.4},{ci:.4},{:.0},{rmse:.5}\n",
            cfg.cpu_before + self.spent()
        );
        std::fs::OpenOptions::new()
            .append(true)
            .open(&self.curve)
            .and_then(|mut f| f.write_all(line.as_bytes()))
            .map_err(io_at(&self.curve))?;
        writeln!(
            log,
            "round {round} epoch {epoch}: alpha {alpha:.4}, equity rmse {rmse:.4}, vs pubeval {ppg:+.3} ± {ci:.3}"
        )
        .ok();
        Ok(())
    }
}

/// The learning rate of `epoch`: geometric from the first to the last.
fn epoch_alpha(cfg: &RefineConfig, epoch: u32) -> f32 {
    let f = if cfg.epochs > 1 {
        epoch as f32 / (cfg.epochs - 1) as f32
    } else {
        0.0
    };
    cfg.alpha.0 * (cfg.alpha.1 / cfg.alpha.0).powf(f)
}

/// Appends `bytes` to the file at `path`, creating it if missing.
fn append(path: &Path, bytes: &[u8]) -> Result<(), RefineError> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(io_at(path))
}

fn lost(dir: &Path, why: &'static str) -> RefineError {
    RefineError::LostNets {
        dir: dir.to_path_buf(),
        why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_labels_round_trip_through_bytes() {
        let eval = Evaluator::shipped();
        let boards = self_play_positions(&eval, 2, 0.2, 3);
        assert!(boards.len() > 20);
        assert_eq!(
            boards_from_bytes(&boards_to_bytes(&boards)).unwrap(),
            boards
        );
        let labels = label(&eval, &boards[..4], 1, 2);
        assert_eq!(labels.len(), 4);
        assert_eq!(probs_from_bytes(&probs_to_bytes(&labels)), labels);
    }

    #[test]
    fn a_fit_on_threads_fits_the_same_nets_on_any_number_of_them() {
        // Given self-play positions of every class, labelled with the nets'
        // own chances moved towards a win (something for the fit to learn)
        let eval = Evaluator::shipped();
        let data: Vec<(Board, Probs)> = self_play_positions(&eval, 3, 0.2, 5)
            .into_iter()
            .map(|b| {
                let mut p = eval.evaluate(&b);
                p[0] = 0.8 * p[0] + 0.2;
                (b, p)
            })
            .collect();
        assert!(data.len() > 100);
        let fit = |threads: usize| {
            let mut e = eval.clone();
            let mut f = AdamFit::on_threads(&e, 16, threads);
            for epoch in 0..2 {
                f.epoch(&mut e, &data, 1e-3, &mut SplitMix::new(epoch));
            }
            e.digest()
        };
        // When fitted on one, two, three and five threads
        let (one, two, three, five) = (fit(1), fit(2), fit(3), fit(5));
        // Then every fit moved the nets, and the threaded fits agree to the
        // bit (their parts are fixed, not the threads').
        assert!([one, two, three, five].iter().all(|&d| d != eval.digest()));
        assert_eq!(two, three);
        assert_eq!(two, five);
    }
}
