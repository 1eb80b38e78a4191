//! Rollouts: the value of a position, or of each candidate move for a
//! roll, as the mean outcome of many games played out from it by the
//! engine (cubeless checker play at a chosen ply), with standard errors.
//!
//! - **Trials** are numbered; trial `i`'s dice depend only on the seed and
//!   `i`, and every candidate of a roll is played out with the same dice
//!   (common random numbers: the differences between moves are measured
//!   more tightly than the moves themselves).
//! - **Stratified dice** (GNU Backgammon's quasi-random dice): the `t`-th
//!   roll of trial `i` is `perm_t[(d_0 + … + d_t) mod 36]`, with `d_k` the
//!   base-36 digits of `i` and `perm_t` a seeded permutation of the 36
//!   ordered rolls; so every 36 trials see each first roll once, every
//!   1,296 each pair of first two rolls once, and so on. Levels whose block
//!   exceeds the trials (and every roll after [`STRATIFIED_ROLLS`]) come
//!   from trial `i`'s own generator.
//! - **Variance reduction** (luck adjustment): at each roll of a trial, the
//!   player on roll's luck is the evaluation after the best 1-ply play of
//!   the roll that came minus the mean over the 21 rolls (weighted 1/36
//!   doubles, 2/36 the others) of the same; the trial's value is its
//!   outcome minus the sum of its luck. The luck of a roll has mean zero
//!   over the dice whatever the evaluator's errors, so the estimate stays
//!   unbiased; a good evaluator makes it cancel most of the dice's noise.
//! - **Truncation** after K rolls: the trial's outcome is then the
//!   evaluation of the position reached. **Bear-off**: once both sides are
//!   home the outcome is the bear-off database's chances.
//! - **Cubeful** values come from the rolled-out cubeless chances through
//!   the engine's cube model ([`crate::cube`]: Janowski's interpolation),
//!   not from cube actions inside the trials; their standard errors are the
//!   cubeless ones carried through the model's slope (the delta method).
//!   In the last bear-offs the exact cubeful tables give them instead
//!   ([`crate::player::decide_cube`]), with no error.
//! - **Threads** share the trials; the results are folded in trial order,
//!   so a seed gives the same bits whatever the threads. A checkpoint holds
//!   those sums after the first `n` trials, exactly (as bit patterns): a
//!   resumed rollout ends where an uninterrupted one does.

use crate::cube::CubeState;
use crate::eval::{classify, flip, won, Class, Evaluator, Probs};
use crate::player::decide_cube;
use crate::search::Searcher;
use backgammon_rules::{Board, Dice, MoveList, Side, SplitMix};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Mutex};

/// Rolls of a trial that may be stratified (36^4 trials cover them all).
pub const STRATIFIED_ROLLS: usize = 4;
/// Deepest checker play inside the trials (root-inclusive): a 4-ply move
/// takes a large part of a second, a trial dozens of them.
pub const MAX_PLY: u8 = 3;
/// Games longer than this many rolls are cut (none reaches it).
const MAX_ROLLS: u32 = 1000;

/// How a rollout plays and counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Games played out (per candidate).
    pub trials: u32,
    /// Checker play inside the trials, root-inclusive plies (1..=[`MAX_PLY`]).
    pub ply: u8,
    /// Stop after this many rolls and take the evaluation (None: play out).
    pub truncate: Option<u32>,
    /// Seed of the dice.
    pub seed: u64,
    /// Threads playing trials.
    pub threads: usize,
    /// Luck adjustment.
    pub variance_reduction: bool,
    /// Stratified first rolls.
    pub stratified: bool,
    /// Finish bear-offs (both sides home) with the database.
    pub bearoff: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            trials: 1296,
            ply: 1,
            truncate: None,
            seed: 1,
            threads: 1,
            variance_reduction: true,
            stratified: true,
            bearoff: true,
        }
    }
}

impl fmt::Display for Settings {
    /// The settings that decide the results (threads do not), for checkpoints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "trials {} ply {} truncate {} seed {} vr {} stratified {} bearoff {}",
            self.trials,
            self.ply,
            self.truncate.map_or("none".to_string(), |k| k.to_string()),
            self.seed,
            self.variance_reduction,
            self.stratified,
            self.bearoff
        )
    }
}

/// What is rolled out: the position before its player rolls, or each legal
/// move of the player on roll with these dice.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Target {
    pub board: Board,
    pub dice: Option<Dice>,
    /// The cube, seen from the player on roll.
    pub cube: CubeState,
}

/// Sums of a candidate's trial values (the chances of the player the
/// candidate is judged for): their sum and the sums of their products.
#[derive(Clone, Debug, PartialEq)]
pub struct Sums {
    pub n: u64,
    pub sum: [f64; 5],
    pub cross: [[f64; 5]; 5],
}

impl Sums {
    fn new() -> Sums {
        Sums {
            n: 0,
            sum: [0.0; 5],
            cross: [[0.0; 5]; 5],
        }
    }

    fn add(&mut self, x: &[f64; 5]) {
        self.n += 1;
        for j in 0..5 {
            self.sum[j] += x[j];
            for k in 0..5 {
                self.cross[j][k] += x[j] * x[k];
            }
        }
    }

    /// The mean chances.
    pub fn mean(&self) -> [f64; 5] {
        self.sum.map(|s| s / self.n.max(1) as f64)
    }

    /// The standard error of `g · mean` (a linear function of the chances).
    fn error_of(&self, g: &[f64; 5]) -> f64 {
        let n = self.n as f64;
        if n < 2.0 {
            return 0.0;
        }
        let m = self.mean();
        let mut var = 0.0;
        for j in 0..5 {
            for k in 0..5 {
                let cov = (self.cross[j][k] - n * m[j] * m[k]) / (n - 1.0);
                var += g[j] * g[k] * cov;
            }
        }
        (var.max(0.0) / n).sqrt()
    }
}

/// A candidate's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Index of the move in the position's legal move list (None: the position).
    pub index: Option<usize>,
    /// Mean chances of the player on roll at the start (the mover for a
    /// move), made consistent (luck adjustment can carry a mean a little
    /// past 0 or past another: a backgammon rate of -0.002); the equities
    /// come from the means as they are.
    pub probs: Probs,
    pub cubeless: f64,
    pub cubeless_error: f64,
    /// Cubeful value: money points, or match winning chance in a match.
    pub cubeful: f64,
    pub cubeful_error: f64,
}

/// Where a rollout stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub done: u32,
    pub trials: u32,
    pub outcomes: Vec<Outcome>,
}

/// Why a rollout could not run or resume.
#[derive(Debug, thiserror::Error)]
pub enum RolloutError {
    #[error("the game is over in this position")]
    Over,
    #[error("trials must be at least 1, got {0}")]
    Trials(u32),
    #[error("ply must be 1..={MAX_PLY}, got {0}")]
    Ply(u8),
    #[error("checkpoint {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("checkpoint {path}: line {line}: {why}")]
    Checkpoint {
        path: String,
        line: usize,
        why: String,
    },
}

/// The candidates of a target: the boards after each legal move (seen from
/// the mover), or the position itself.
fn candidates(target: &Target) -> Vec<Option<(usize, Board)>> {
    match target.dice {
        None => vec![None],
        Some(d) => target
            .board
            .legal_moves(d)
            .boards()
            .iter()
            .copied()
            .enumerate()
            .map(Some)
            .collect(),
    }
}

/// The dice of one trial.
struct TrialDice {
    /// The stratified rolls (ordered roll indexes 0..36).
    strata: Vec<u8>,
    rng: SplitMix,
}

/// The seeded permutations of the 36 rolls, one per stratified level.
fn permutations(seed: u64) -> Vec<[u8; 36]> {
    let mut rng = SplitMix::new(seed);
    (0..STRATIFIED_ROLLS)
        .map(|_| {
            let mut p: [u8; 36] = std::array::from_fn(|i| i as u8);
            for i in (1..36).rev() {
                p.swap(i, rng.below(i as u32 + 1) as usize);
            }
            p
        })
        .collect()
}

/// The stratified levels for `trials`: level `t` when 36^t < trials.
fn levels(trials: u32) -> usize {
    let mut t = 0;
    let mut block = 1u64;
    while t < STRATIFIED_ROLLS && block < trials as u64 {
        t += 1;
        block *= 36;
    }
    t.max(1)
}

impl TrialDice {
    fn new(s: &Settings, perms: &[[u8; 36]], i: u32) -> TrialDice {
        let mut strata = Vec::new();
        if s.stratified {
            let (mut rest, mut acc) = (i as u64, 0u64);
            for perm in perms.iter().take(levels(s.trials)) {
                acc += rest % 36;
                rest /= 36;
                strata.push(perm[(acc % 36) as usize]);
            }
        }
        TrialDice {
            strata,
            // Trial i's own generator, from the seed and i, each passed
            // through a SplitMix step so that neighbours start far apart.
            rng: SplitMix::new(
                SplitMix::new(s.seed).next_u64() ^ SplitMix::new(i as u64).next_u64(),
            ),
        }
    }

    /// The `t`-th roll.
    fn roll(&mut self, t: u32) -> Dice {
        let r = match self.strata.get(t as usize) {
            Some(&r) => r,
            None => self.rng.below(36) as u8,
        };
        ordered_roll(r)
    }
}

/// The ordered roll `r` of the 36 (0..36).
pub fn ordered_roll(r: u8) -> Dice {
    Dice::new(r / 6 + 1, r % 6 + 1).expect("0..36")
}

/// One thread's tools: the search and a move list.
struct Worker<'a> {
    eval: &'a Evaluator,
    searcher: Searcher<'a>,
    moves: Box<MoveList>,
    luck_moves: Box<MoveList>,
}

/// Adds the luck `d` of the player on roll to `total`, which is seen from
/// the side the trial is judged for (`mine`: the player on roll is that side).
fn add_luck(total: &mut [f64; 5], d: &[f64; 5], mine: bool) {
    let d = if mine {
        *d
    } else {
        [-d[0], d[3], d[4], d[1], d[2]]
    };
    for k in 0..5 {
        total[k] += d[k];
    }
}

impl Worker<'_> {
    /// The luck of rolling `dice` in `board`: the 1-ply value of its best
    /// play minus the mean of the 21 rolls' (the roller's chances).
    fn luck(&mut self, board: &Board, dice: Dice) -> [f64; 5] {
        let mut mean = [0.0f64; 5];
        let mut got = [0.0f64; 5];
        for d in Dice::all() {
            board.legal_moves_into(d, &mut self.luck_moves);
            let (_, p) = self.eval.best_move(&self.luck_moves);
            let w = if d.is_double() { 1.0 } else { 2.0 } / 36.0;
            for k in 0..5 {
                mean[k] += w * p[k] as f64;
            }
            if d.high() == dice.high() && d.low() == dice.low() {
                got = p.map(f64::from);
            }
        }
        std::array::from_fn(|k| got[k] - mean[k])
    }

    /// Plays trial `dice` out from `board` (the player on roll's turn to
    /// roll); returns the chances of `board`'s player on roll, less luck.
    fn play(&mut self, s: &Settings, board: &Board, dice: &mut TrialDice) -> [f64; 5] {
        let mut b = *board;
        let mut luck = [0.0f64; 5];
        let mut t = 0u32;
        loop {
            let mine = t.is_multiple_of(2);
            let stop = s.truncate.is_some_and(|k| t >= k) || t >= MAX_ROLLS;
            let db = s.bearoff && classify(&b) == Class::Bearoff;
            if stop || db {
                let p = self.eval.evaluate(&b);
                return finish(&p, mine, &luck);
            }
            let roll = dice.roll(t);
            if s.variance_reduction {
                let d = self.luck(&b, roll);
                add_luck(&mut luck, &d, mine);
            }
            let c = self.searcher.choose(&b, roll, s.ply, None, &mut self.moves);
            let after = self.moves.boards()[c.index];
            if after.has_won(Side::OnRoll) {
                return finish(&flip(&won(&after)), !mine, &luck);
            }
            b = after.swapped();
            t += 1;
        }
    }
}

/// The trial value from `p`, the chances of the player on roll at the end
/// (`mine`: the judged side), less the luck.
fn finish(p: &Probs, mine: bool, luck: &[f64; 5]) -> [f64; 5] {
    let p = if mine { *p } else { flip(p) };
    std::array::from_fn(|k| p[k] as f64 - luck[k])
}

/// A checkpoint: the settings and target it belongs to and the sums after
/// the first `done` trials.
#[derive(Clone, Debug, PartialEq)]
struct Checkpoint {
    key: String,
    done: u32,
    sums: Vec<Sums>,
}

const MAGIC: &str = "grasshopper-rollout 1";

fn key_of(target: &Target, s: &Settings) -> String {
    format!(
        "{} dice {} cube {:?} {s}",
        target.board.position_id(),
        target.dice.map_or("none".to_string(), |d| d.to_string()),
        target.cube
    )
}

impl Checkpoint {
    fn text(&self) -> String {
        let mut out = format!("{MAGIC}\nkey {}\ndone {}\n", self.key, self.done);
        for s in &self.sums {
            let mut words = vec![s.n.to_string()];
            words.extend(s.sum.iter().map(|x| format!("{:016x}", x.to_bits())));
            for row in &s.cross {
                words.extend(row.iter().map(|x| format!("{:016x}", x.to_bits())));
            }
            out.push_str(&words.join(" "));
            out.push('\n');
        }
        out
    }

    fn parse(text: &str) -> Result<Checkpoint, (usize, String)> {
        let mut lines = text.lines().enumerate();
        let mut next = |what: &str| {
            lines
                .next()
                .map(|(i, l)| (i + 1, l))
                .ok_or((0, format!("ends before {what}")))
        };
        let (n, magic) = next("the header")?;
        if magic != MAGIC {
            return Err((n, format!("expected \"{MAGIC}\", got \"{magic}\"")));
        }
        let (n, key) = next("the key")?;
        let key = key
            .strip_prefix("key ")
            .ok_or((n, format!("expected \"key ...\", got \"{key}\"")))?;
        let (n, done) = next("the trials done")?;
        let done = done
            .strip_prefix("done ")
            .and_then(|d| d.parse().ok())
            .ok_or((n, format!("expected \"done <trials>\", got \"{done}\"")))?;
        let mut sums = Vec::new();
        for (i, line) in lines {
            sums.push(parse_sums(line).ok_or((i + 1, format!("bad sums \"{line}\"")))?);
        }
        Ok(Checkpoint {
            key: key.to_string(),
            done,
            sums,
        })
    }
}

fn parse_sums(line: &str) -> Option<Sums> {
    let mut w = line.split_whitespace();
    let n = w.next()?.parse().ok()?;
    let mut f = || {
        w.next()
            .and_then(|x| u64::from_str_radix(x, 16).ok())
            .map(f64::from_bits)
    };
    let mut s = Sums::new();
    s.n = n;
    for x in s.sum.iter_mut() {
        *x = f()?;
    }
    for row in s.cross.iter_mut() {
        for x in row.iter_mut() {
            *x = f()?;
        }
    }
    Some(s)
}

/// Where and how often a rollout saves its sums.
#[derive(Clone, Debug)]
pub struct CheckpointFile<'a> {
    pub path: &'a Path,
    /// Trials between saves.
    pub every: u32,
}

fn load(file: &CheckpointFile, key: &str) -> Result<Option<Checkpoint>, RolloutError> {
    let path = file.path.display().to_string();
    let text = match std::fs::read_to_string(file.path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(RolloutError::Io { path, source }),
    };
    let c = Checkpoint::parse(&text).map_err(|(line, why)| RolloutError::Checkpoint {
        path: path.clone(),
        line,
        why,
    })?;
    if c.key != key {
        return Err(RolloutError::Checkpoint {
            path,
            line: 2,
            why: format!("belongs to another rollout: \"{}\", not \"{key}\"", c.key),
        });
    }
    Ok(Some(c))
}

fn save(file: &CheckpointFile, c: &Checkpoint) -> Result<(), RolloutError> {
    let io = |source| RolloutError::Io {
        path: file.path.display().to_string(),
        source,
    };
    crate::files::write_atomic(file.path, c.text().as_bytes()).map_err(io)
}

/// The outcomes from the sums.
fn outcomes(target: &Target, cands: &[Option<(usize, Board)>], sums: &[Sums]) -> Vec<Outcome> {
    cands
        .iter()
        .zip(sums)
        .map(|(c, s)| outcome(target, c.as_ref(), s))
        .collect()
}

/// The cubeful value of mean chances `m` for the judged side.
fn cubeful(target: &Target, cand: Option<&(usize, Board)>, m: &[f64; 5]) -> f64 {
    let p = sane(m);
    match cand {
        None => decide_cube(&target.board, &target.cube, || p).optimal(),
        Some((_, after)) => {
            // The opponent is on roll, with the cube as it was.
            let theirs = after.swapped();
            let opp = decide_cube(&theirs, &target.cube.swapped(), || flip(&p));
            let v = opp.optimal();
            if target.cube.away.is_none() {
                -v
            } else {
                1.0 - v
            }
        }
    }
}

/// Mean chances made consistent (luck adjustment can push them past 0 or 1).
fn sane(m: &[f64; 5]) -> Probs {
    let c = |x: f64| x.clamp(0.0, 1.0) as f32;
    let mut p = m.map(c);
    p[1] = p[1].min(p[0]);
    p[2] = p[2].min(p[1]);
    p[3] = p[3].min(1.0 - p[0]);
    p[4] = p[4].min(p[3]);
    p
}

fn outcome(target: &Target, cand: Option<&(usize, Board)>, s: &Sums) -> Outcome {
    let m = s.mean();
    let eq = [2.0, 1.0, 1.0, -1.0, -1.0];
    let cubeless = 2.0 * m[0] - 1.0 + m[1] + m[2] - m[3] - m[4];
    let f = cubeful(target, cand, &m);
    // The slope of the cubeful value, by central differences.
    let h = 1e-4;
    let grad: [f64; 5] = std::array::from_fn(|k| {
        let (mut up, mut down) = (m, m);
        up[k] += h;
        down[k] -= h;
        (cubeful(target, cand, &up) - cubeful(target, cand, &down)) / (2.0 * h)
    });
    Outcome {
        index: cand.map(|c| c.0),
        probs: sane(&m),
        cubeless,
        cubeless_error: s.error_of(&eq),
        cubeful: f,
        cubeful_error: s.error_of(&grad),
    }
}

/// Rolls `target` out. `progress` hears the standing after each block of
/// trials (36, or the checkpoint's) and at the end, and returns false to
/// stop there; `checkpoint` saves the sums at each block and resumes from
/// them. The result is the standing when the rollout ended.
pub fn rollout(
    eval: &Evaluator,
    target: &Target,
    s: &Settings,
    checkpoint: Option<&CheckpointFile>,
    mut progress: impl FnMut(&Progress) -> bool,
) -> Result<Progress, RolloutError> {
    if s.trials == 0 {
        return Err(RolloutError::Trials(0));
    }
    if !(1..=MAX_PLY).contains(&s.ply) {
        return Err(RolloutError::Ply(s.ply));
    }
    if target.board.has_won(Side::OnRoll) || target.board.has_won(Side::Opponent) {
        return Err(RolloutError::Over);
    }
    let cands = candidates(target);
    let key = key_of(target, s);
    let mut state = Checkpoint {
        key,
        done: 0,
        sums: vec![Sums::new(); cands.len()],
    };
    if let Some(file) = checkpoint {
        if let Some(c) = load(file, &state.key)? {
            if c.sums.len() != cands.len() {
                return Err(RolloutError::Checkpoint {
                    path: file.path.display().to_string(),
                    line: 4,
                    why: format!("{} candidates, expected {}", c.sums.len(), cands.len()),
                });
            }
            state = c;
        }
    }
    let perms = permutations(s.seed);
    let next = AtomicU32::new(state.done);
    let every = checkpoint.map_or(36, |c| c.every.max(1));
    let (tx, rx) = mpsc::channel::<(u32, Vec<[f64; 5]>)>();
    let failure = Mutex::new(None);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..s.threads.max(1) {
            let tx = tx.clone();
            let (next, perms, cands, stop) = (&next, &perms, &cands, &stop);
            scope.spawn(move || {
                let mut w = Worker {
                    eval,
                    searcher: Searcher::new(eval),
                    moves: Box::default(),
                    luck_moves: Box::default(),
                };
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= s.trials {
                        break;
                    }
                    let values = trial(&mut w, s, perms, target, cands, i);
                    if tx.send((i, values)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Fold the trials in their order, whatever order they finish in.
        let mut waiting: BTreeMap<u32, Vec<[f64; 5]>> = BTreeMap::new();
        'fold: for (i, values) in rx {
            waiting.insert(i, values);
            while let Some(values) = waiting.remove(&state.done) {
                for (sum, v) in state.sums.iter_mut().zip(&values) {
                    sum.add(v);
                }
                state.done += 1;
                if state.done.is_multiple_of(every) || state.done == s.trials {
                    if let Some(file) = checkpoint {
                        if let Err(e) = save(file, &state) {
                            *failure.lock().expect("no panic holds it") = Some(e);
                        }
                    }
                    let go_on = progress(&Progress {
                        done: state.done,
                        trials: s.trials,
                        outcomes: outcomes(target, &cands, &state.sums),
                    });
                    if !go_on {
                        stop.store(true, Ordering::Relaxed);
                        break 'fold;
                    }
                }
            }
        }
    });
    if let Some(e) = failure.into_inner().expect("no panic holds it") {
        return Err(e);
    }
    Ok(Progress {
        done: state.done,
        trials: s.trials,
        outcomes: outcomes(target, &cands, &state.sums),
    })
}

/// Trial `i` of every candidate: their judged side's chances less luck.
fn trial(
    w: &mut Worker,
    s: &Settings,
    perms: &[[u8; 36]],
    target: &Target,
    cands: &[Option<(usize, Board)>],
    i: u32,
) -> Vec<[f64; 5]> {
    cands
        .iter()
        .map(|c| {
            let mut dice = TrialDice::new(s, perms, i);
            match c {
                None => w.play(s, &target.board, &mut dice),
                Some((_, after)) if after.has_won(Side::OnRoll) => won(after).map(f64::from),
                Some((_, after)) => {
                    let v = w.play(s, &after.swapped(), &mut dice);
                    [1.0 - v[0], v[3], v[4], v[1], v[2]]
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stratified_first_rolls_cover_the_36_and_pairs_the_1296() {
        let s = Settings {
            trials: 1296,
            ..Settings::default()
        };
        let perms = permutations(s.seed);
        let mut firsts = [0u32; 36];
        let mut pairs = std::collections::HashSet::new();
        for i in 0..1296 {
            let mut d = TrialDice::new(&s, &perms, i);
            let (a, b) = (d.roll(0), d.roll(1));
            if i < 36 {
                let (x, y) = a.values();
                firsts[((x - 1) * 6 + y - 1) as usize] += 1;
            }
            pairs.insert((a, b));
        }
        assert_eq!(firsts, [1; 36]);
        assert_eq!(pairs.len(), 1296);
        // Unstratified, 36 trials miss some first rolls (as dice do).
        let plain = Settings {
            stratified: false,
            ..s
        };
        let seen: std::collections::HashSet<Dice> = (0..36)
            .map(|i| TrialDice::new(&plain, &perms, i).roll(0))
            .collect();
        assert!(seen.len() < 36, "{}", seen.len());
    }

    #[test]
    fn checkpoints_round_trip_exactly() {
        let mut sums = Sums::new();
        sums.add(&[0.1, 0.2, 1.0 / 3.0, -0.25, 1e-300]);
        let c = Checkpoint {
            key: "4HPwATDgc/ABMA dice 31 trials 36".into(),
            done: 7,
            sums: vec![sums.clone(), Sums::new()],
        };
        assert_eq!(Checkpoint::parse(&c.text()), Ok(c));
        let bad = "grasshopper-rollout 1\nkey k\ndone x\n";
        let (line, why) = Checkpoint::parse(bad).unwrap_err();
        assert_eq!(line, 3);
        assert!(why.contains("\"done x\""), "{why}");
    }
}
