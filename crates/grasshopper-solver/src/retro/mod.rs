//! Retrograde analysis by phase: the win/draw/loss value of every position
//! of a game, phase by phase from the last to the first.
//!
//! # Phases
//!
//! Every action enters a checker, moves one a quadrant forward or bears a
//! wall off, so no position repeats. A position's *half-phase*
//! ([`HalfKey`]) is what only entering and bearing off change: checkers to
//! enter and on the board of the mover and of the other, and the scoring run
//! relative to the mover. The score itself does not matter (only the
//! checkers left do), nor does N: one table serves every game size in which
//! its half-phase occurs. Colour-swapped positions have the same value for
//! the side to move, so positions are stored with the mover as White.
//!
//! A step or a pass leads from a half-phase to its flip (the same counts
//! seen by the other player); the two together form a *unit*, solved at
//! once. Entering and bearing off lead to units of a lower *level*
//! `3 * (to enter) + (on the board)`, two lower, which are solved first and
//! read from disk. Inside a unit every step moves one checker one quadrant
//! forward, so the sum of the checkers' quadrants (the slice level) grows by
//! one at each step: the slices are solved from the highest slice level
//! down, each position once, from its children's values. A pass (the same
//! board, the other to move) is evaluated through its one child on the spot.
//!
//! # Reductions
//!
//! Colour symmetry (half the positions), scores (only the run relative to
//! the mover is kept), positions settled within two plies (the last scorer
//! has a wall in D: [`grasshopper_rules::Decided`]) and half-phases where
//! nobody can win any more are not stored at all. The index has no holes
//! ([`index`]).

pub mod check;
pub mod forward;
mod index;
mod store;

pub use index::{HalfKey, Layout, MAX_N};
pub use store::{halves_of, unit_of, unit_path, Half, RetroError, StepTarget, Store};

use index::SliceCursor;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use grasshopper_rules::{Move, MoveKind, Position};

/// How a retrograde solve runs.
#[derive(Clone, Debug)]
pub struct RetroOptions {
    /// Worker threads.
    pub threads: usize,
    /// Write a checkpoint of the unit in progress at a slice-level boundary
    /// once this long has passed since the last one.
    pub checkpoint_every: Duration,
    /// Solve only units of at most this level (all when `None`).
    pub max_level: Option<u8>,
    /// Seconds between progress lines.
    pub progress_every: Duration,
    /// Solve only the units of this level (their successors must be on
    /// disk): one level of a cluster run.
    pub only_level: Option<u8>,
    /// `(i, k)`: of the units to solve, only those whose position in the
    /// solving order is `i - 1` modulo `k` (one task of `k`).
    pub shard: Option<(usize, usize)>,
    /// Stop once this long has passed (at the next slice-level boundary,
    /// after writing a checkpoint): one piece of a longer run.
    pub stop_after: Option<Duration>,
}

impl Default for RetroOptions {
    fn default() -> Self {
        RetroOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            checkpoint_every: Duration::from_secs(900),
            max_level: None,
            progress_every: Duration::from_secs(30),
            stop_after: None,
            only_level: None,
            shard: None,
        }
    }
}

/// Every unit of the game of `n` checkers each, in solving order (by
/// level, then key).
pub fn units(n: u8) -> Vec<HalfKey> {
    let mut set = BTreeSet::new();
    for tm in 0..=n {
        for bm in 0..=n - tm {
            for to in 0..=n {
                for bo in 0..=n - to {
                    for r in 0..3 {
                        let k = HalfKey { tm, bm, to, bo, r };
                        if k.occurs_in(n) && k.someone_can_win() {
                            set.insert(unit_of(k));
                        }
                    }
                }
            }
        }
    }
    let mut v: Vec<HalfKey> = set.into_iter().collect();
    v.sort_by_key(|k| (k.level(), *k));
    v
}

/// The units the positions of `unit` lead to by entering or bearing off.
pub fn successors(unit: HalfKey) -> Vec<HalfKey> {
    let mut out = BTreeSet::new();
    for h in halves_of(unit) {
        let flip_r = [0, 2, 1][h.r as usize];
        if h.tm > 0 {
            out.insert(HalfKey {
                tm: h.to,
                bm: h.bo,
                to: h.tm - 1,
                bo: h.bm + 1,
                r: flip_r,
            });
        }
        if h.r != 1 && h.bm >= 2 {
            out.insert(HalfKey {
                tm: h.to,
                bm: h.bo,
                to: h.tm,
                bo: h.bm - 2,
                r: 2,
            });
        }
    }
    out.into_iter()
        .filter(|k| k.someone_can_win())
        .map(unit_of)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// True when the complete tables of a game hold `pos`: it is not won, not
/// settled by the rules within two plies, and someone can still win. Needs
/// no tables (it is what [`RetroTables::covers`] answers once every unit of
/// the game is loaded).
pub fn is_stored(pos: &Position) -> bool {
    !pos.is_won() && index::locate(pos).is_ok()
}

/// Positions stored for a unit.
pub fn unit_size(unit: HalfKey) -> u64 {
    halves_of(unit).iter().map(|&k| Layout::new(k).size).sum()
}

/// The value of `pos` (not won) for the side to move from its children's
/// values in `store`: +1 win, 0 draw, -1 loss. Panics when a child's value
/// is missing (its phase must be solved first).
pub fn evaluate(store: &Store, pos: &Position) -> i8 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return 0;
    }
    if moves[0].is_pass() {
        let mut child = *pos;
        child.play_unchecked(Move::PASS);
        return -evaluate(store, &child);
    }
    let mut best = -1;
    let steps = store.step_target(pos);
    // Bear-offs come last in generation order and win most often.
    for &m in moves.iter().rev() {
        let mut child = *pos;
        child.play_unchecked(m);
        let value = match m.kind() {
            MoveKind::Step(..) => store.step_value(steps, &child),
            _ if child.is_won() => return 1,
            _ => store.value(&child),
        };
        let v = -value.unwrap_or_else(|| panic!("no value for {child}, a child of {pos}"));
        if v == 1 {
            return 1;
        }
        best = best.max(v);
    }
    best
}

/// Counters shared with the progress line.
struct Progress {
    done: AtomicU64,
}

/// Where a sweep stands: the slice level in progress and the first work
/// item of that level not known to be complete (all before it are).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    pub level: u8,
    pub item: u64,
}

impl Resume {
    /// The "next level" field of a checkpoint file: level in the low 8 bits,
    /// first work item above.
    fn encode(self) -> u64 {
        self.level as u64 | self.item << 8
    }

    fn decode(x: u64) -> Resume {
        Resume {
            level: (x & 0xFF) as u8,
            item: x >> 8,
        }
    }
}

/// What the sweep asks its caller between work items.
enum Pause {
    /// Go on.
    Continue,
    /// Write a checkpoint (the workers go on meanwhile).
    Checkpoint,
    /// Write a checkpoint and stop.
    Stop,
}

/// The work items of one slice level: (half, slice, first, end) ranges.
fn items_of(halves: &[Arc<Half>], level: u8) -> Vec<(usize, usize, u64, u64)> {
    const CHUNK: u64 = 1 << 16;
    let mut items = Vec::new();
    for (hi, h) in halves.iter().enumerate() {
        for (si, s) in h.layout.slices.iter().enumerate() {
            if s.level == level {
                let mut a = 0;
                while a < s.size {
                    let b = (a + CHUNK).min(s.size);
                    items.push((hi, si, a, b));
                    a = b;
                }
            }
        }
    }
    items
}

/// Evaluates the positions of one work item and stores their values.
fn solve_item(store: &Store, halves: &[Arc<Half>], item: (usize, usize, u64, u64)) {
    let (hi, si, a, b) = item;
    let half = &halves[hi];
    let slice = &half.layout.slices[si];
    let key = half.layout.key;
    let mut cur = SliceCursor::new(slice, a);
    let (mut word, mut acc) = (u64::MAX, 0u64);
    for j in a..b {
        let (lone, wall) = cur.masks();
        let pos = key
            .position(lone, wall)
            .expect("every index names a position");
        let code = match evaluate(store, &pos) {
            1 => 1u64,
            0 => 2,
            _ => 3,
        };
        let i = slice.offset + j;
        if i / 32 != word {
            if acc != 0 {
                half.data[word as usize].fetch_or(acc, Ordering::Relaxed);
            }
            word = i / 32;
            acc = 0;
        }
        acc |= code << (2 * (i % 32));
        cur.advance();
    }
    if acc != 0 {
        half.data[word as usize].fetch_or(acc, Ordering::Relaxed);
    }
}

/// What the sweep's main thread asks between work items. One value answers
/// both questions, so that both can write to the same log.
trait SweepHost {
    /// Whether to checkpoint or stop, at slice level `level`.
    fn pause(&mut self, level: u8) -> Pause;
    /// Writes a checkpoint resuming at `at`.
    fn checkpoint(&mut self, at: Resume) -> Result<(), RetroError>;
}

/// Solves the halves of one unit (already inserted in `store`, with every
/// successor unit) from `from` down to slice level 0. Every 5 ms the main
/// thread asks `host.pause` (with the current level) whether to checkpoint
/// or stop; a checkpoint is written by `host.checkpoint` while the workers go on:
/// the items before the resume point are complete, and items after it that
/// are written already hold their final values (recomputing them on resume
/// stores the same bits again). Returns true when stopped.
fn sweep(
    store: &Store,
    halves: &[Arc<Half>],
    from: Resume,
    threads: usize,
    progress: &Progress,
    host: &mut impl SweepHost,
) -> Result<bool, RetroError> {
    let threads = threads.max(1);
    for level in (0..=from.level).rev() {
        let items = items_of(halves, level);
        let first = if level == from.level {
            from.item as usize
        } else {
            0
        };
        if first >= items.len() {
            continue;
        }
        let next = AtomicUsize::new(first);
        let done: Vec<AtomicBool> = (0..items.len()).map(|_| AtomicBool::new(false)).collect();
        let stop = AtomicBool::new(false);
        let finished = AtomicUsize::new(0);
        let mut result = Ok(false);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&item) = items.get(i) else {
                            break;
                        };
                        solve_item(store, halves, item);
                        done[i].store(true, Ordering::Release);
                        progress.done.fetch_add(item.3 - item.2, Ordering::Relaxed);
                    }
                    finished.fetch_add(1, Ordering::Release);
                });
            }
            let mut mark = first;
            let watermark = |mark: &mut usize| {
                while *mark < items.len() && done[*mark].load(Ordering::Acquire) {
                    *mark += 1;
                }
                Resume {
                    level,
                    item: *mark as u64,
                }
            };
            while finished.load(Ordering::Acquire) < threads {
                std::thread::sleep(Duration::from_millis(5));
                match host.pause(level) {
                    Pause::Continue => {}
                    Pause::Checkpoint => {
                        if let Err(e) = host.checkpoint(watermark(&mut mark)) {
                            result = Err(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    Pause::Stop => {
                        stop.store(true, Ordering::Relaxed);
                        while finished.load(Ordering::Acquire) < threads {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        let at = watermark(&mut mark);
                        result = host.checkpoint(at).map(|()| true);
                    }
                }
            }
        });
        match result {
            Ok(false) => {}
            other => return other,
        }
    }
    Ok(false)
}

/// What a retrograde solve did.
#[derive(Clone, Debug, Default)]
pub struct RetroSummary {
    /// Units of the game, and how many are complete on disk.
    pub units: usize,
    pub complete: usize,
    /// Positions of the game (stored ones), and those complete on disk.
    pub positions: u64,
    pub positions_complete: u64,
    /// Positions computed by this run.
    pub computed: u64,
    /// Bytes of the unit files in the directory.
    pub disk_bytes: u64,
    /// Census of the units solved by this run: wins, draws, losses.
    pub wdl: [u64; 3],
    /// True when the run stopped early (`stop_after`), leaving a checkpoint.
    pub interrupted: bool,
}

/// A retrograde solve of the game of `n` checkers in the directory `dir`,
/// resumable: complete units on disk are kept, a checkpointed unit goes on
/// from its checkpoint.
pub struct Retro<'a> {
    pub n: u8,
    pub dir: PathBuf,
    pub options: RetroOptions,
    pub store: Store,
    log: &'a mut dyn Write,
}

fn fmt_secs(s: f64) -> String {
    let s = s.max(0.0) as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

/// The units of a run (scheduling): every unit of the game in solving
/// order, their sizes, and the indices of those this run solves.
struct Plan {
    all: Vec<HalfKey>,
    sizes: Vec<u64>,
    todo: Vec<usize>,
    todo_positions: u64,
}

/// A unit ready to sweep: its halves (empty or from a checkpoint), where
/// the sweep starts, and the positions already done at that point.
struct UnitStart {
    halves: Vec<Arc<Half>>,
    from: Resume,
    resumed: u64,
}

/// The run's clock for the progress lines: its start, the positions its
/// workers computed, and those of the units it finished.
struct RunClock {
    start: Instant,
    progress: Progress,
    before: u64,
}

/// Positions of `halves` already done when a sweep starts at `from`: every
/// slice above its level and the items of its level before its item.
fn resumed_positions(halves: &[Arc<Half>], from: Resume) -> u64 {
    halves
        .iter()
        .flat_map(|h| h.layout.slices.iter())
        .filter(|s| s.level > from.level)
        .map(|s| s.size)
        .sum::<u64>()
        + items_of(halves, from.level)
            .iter()
            .take(from.item as usize)
            .map(|it| it.3 - it.2)
            .sum::<u64>()
}

/// Writes a solved unit's file, removes its checkpoint, and returns its
/// census (uncomputed, wins, draws, losses; the first must be 0).
fn finish_unit(
    dir: &Path,
    unit: HalfKey,
    refs: &[&Half],
    ckpt: &Path,
) -> Result<[u64; 4], RetroError> {
    let path = unit_path(dir, unit, "wdl");
    store::write_unit(&path, refs, store::COMPLETE)?;
    if ckpt.exists() {
        std::fs::remove_file(ckpt).map_err(|e| RetroError::Io(ckpt.to_path_buf(), e))?;
    }
    let census = census(refs);
    assert_eq!(census[0], 0, "unit {unit:?} has uncomputed entries");
    Ok(census)
}

/// Census of a unit: its entries by code (uncomputed, wins, draws, losses).
fn census(halves: &[&Half]) -> [u64; 4] {
    let mut census = [0u64; 4];
    for h in halves {
        let c = h.census();
        for j in 0..4 {
            census[j] += c[j];
        }
    }
    census
}

/// Watches one unit's sweep: writes the progress lines and the
/// checkpoints, and says when to checkpoint or stop.
struct UnitWatch<'s> {
    log: &'s mut dyn Write,
    options: &'s RetroOptions,
    clock: &'s RunClock,
    /// The unit's place in the run (from 0) and the run's number of units.
    step: usize,
    steps: usize,
    unit_positions: u64,
    todo_positions: u64,
    /// Positions of the unit done before this run (at its checkpoint).
    resumed: u64,
    last_ckpt: Instant,
    last_line: Instant,
    /// A stop was asked: go on until the workers have finished.
    stopping: bool,
    ckpt: &'s Path,
    refs: &'s [&'s Half],
}

impl UnitWatch<'_> {
    /// Progress: one line on the unit and the run, at slice level `level`.
    fn progress_line(&mut self, level: u8) {
        let clock = self.clock;
        let done = clock.progress.done.load(Ordering::Relaxed);
        let rate = done as f64 / clock.start.elapsed().as_secs_f64().max(1e-9);
        let in_unit = done - clock.before + self.resumed;
        let left = self.todo_positions.saturating_sub(done + self.resumed);
        let _ = writeln!(
            self.log,
            "retro: unit {}/{} slice level {level}: {:.1}% of unit, {:.3e}/{:.3e} positions this run, {:.3e} pos/s, unit ETA {}, total ETA {}",
            self.step + 1,
            self.steps,
            100.0 * in_unit as f64 / self.unit_positions.max(1) as f64,
            done as f64,
            self.todo_positions as f64,
            rate,
            fmt_secs((self.unit_positions.saturating_sub(in_unit)) as f64 / rate),
            fmt_secs(left as f64 / rate),
        );
    }
}

impl SweepHost for UnitWatch<'_> {
    fn pause(&mut self, level: u8) -> Pause {
        if self.last_line.elapsed() >= self.options.progress_every {
            self.last_line = Instant::now();
            self.progress_line(level);
        }
        if self.stopping {
            Pause::Continue
        } else if self
            .options
            .stop_after
            .is_some_and(|d| self.clock.start.elapsed() >= d)
        {
            self.stopping = true;
            Pause::Stop
        } else if self.last_ckpt.elapsed() >= self.options.checkpoint_every {
            self.last_ckpt = Instant::now();
            Pause::Checkpoint
        } else {
            Pause::Continue
        }
    }

    fn checkpoint(&mut self, at: Resume) -> Result<(), RetroError> {
        let t = Instant::now();
        store::write_unit(self.ckpt, self.refs, at.encode())?;
        let _ = writeln!(
            self.log,
            "retro: checkpoint at {at:?} written in {:.1} s",
            t.elapsed().as_secs_f64()
        );
        Ok(())
    }
}

impl<'a> Retro<'a> {
    pub fn new(n: u8, dir: &Path, options: RetroOptions, log: &'a mut dyn Write) -> Retro<'a> {
        Retro {
            n,
            dir: dir.to_path_buf(),
            options,
            store: Store::new(),
            log,
        }
    }

    /// Loads a complete unit into the store (if not held yet).
    pub fn load(&mut self, unit: HalfKey) -> Result<(), RetroError> {
        if self.store.get(unit).is_some() {
            return Ok(());
        }
        let path = unit_path(&self.dir, unit, "wdl");
        if !path.exists() {
            return Err(RetroError::Missing(path));
        }
        let (halves, next) = store::read_unit(&path, unit)?;
        if next != store::COMPLETE {
            return Err(RetroError::Format(path, "not complete".into()));
        }
        for h in halves {
            self.store.insert(Arc::new(h));
        }
        Ok(())
    }

    /// Solves every unit not complete on disk (up to the level limit).
    pub fn run(&mut self) -> Result<RetroSummary, RetroError> {
        std::fs::create_dir_all(&self.dir).map_err(|e| RetroError::Io(self.dir.clone(), e))?;
        let plan = self.plan();
        let mut sum = RetroSummary {
            units: plan.all.len(),
            positions: plan.sizes.iter().sum(),
            ..Default::default()
        };
        let _ = writeln!(
            self.log,
            "retro: N={} units {} positions {} ({} bytes at 2 bits); to solve: {} units, {} positions",
            self.n,
            plan.all.len(),
            sum.positions,
            sum.positions.div_ceil(4),
            plan.todo.len(),
            plan.todo_positions
        );
        let mut clock = RunClock {
            start: Instant::now(),
            progress: Progress {
                done: AtomicU64::new(0),
            },
            before: 0,
        };
        for step in 0..plan.todo.len() {
            if !self.solve_unit(&plan, step, &mut clock, &mut sum)? {
                sum.interrupted = true;
                break;
            }
        }
        self.count_on_disk(&plan, &mut sum);
        Ok(sum)
    }

    /// Scheduling: the units of the game in solving order, and those of
    /// them this run solves (within the options' level limits and shard,
    /// and not complete on disk).
    fn plan(&self) -> Plan {
        let all = units(self.n);
        let sizes: Vec<u64> = all.iter().map(|&u| unit_size(u)).collect();
        let o = &self.options;
        let todo: Vec<usize> = (0..all.len())
            .filter(|&i| {
                o.max_level.is_none_or(|m| all[i].level() <= m)
                    && o.only_level.is_none_or(|l| all[i].level() == l)
                    && o.shard.is_none_or(|(s, k)| i % k == s - 1)
                    && !unit_path(&self.dir, all[i], "wdl").exists()
            })
            .collect();
        let todo_positions = todo.iter().map(|&i| sizes[i]).sum();
        Plan {
            all,
            sizes,
            todo,
            todo_positions,
        }
    }

    /// Solves the `step`-th unit of the plan (from its checkpoint if there
    /// is one), writes it and adds its census to `sum`. Returns false when
    /// the run stopped in it (`stop_after`), leaving a checkpoint.
    fn solve_unit(
        &mut self,
        plan: &Plan,
        step: usize,
        clock: &mut RunClock,
        sum: &mut RetroSummary,
    ) -> Result<bool, RetroError> {
        let i = plan.todo[step];
        let unit = plan.all[i];
        let needed = self.hold_successors(unit)?;
        let ckpt = unit_path(&self.dir, unit, "ckpt");
        let UnitStart {
            halves,
            from,
            resumed,
        } = self.start_unit(unit, &ckpt)?;
        for h in &halves {
            self.store.insert(h.clone());
        }
        let _ = writeln!(
            self.log,
            "retro: unit {}/{} {:?} level {} positions {} (successors {:?}, in memory {} MiB)",
            step + 1,
            plan.todo.len(),
            unit,
            unit.level(),
            plan.sizes[i],
            needed,
            self.store.bytes() >> 20
        );
        let unit_start = Instant::now();
        let refs: Vec<&Half> = halves.iter().map(|h| h.as_ref()).collect();
        let mut watch = UnitWatch {
            log: &mut *self.log,
            options: &self.options,
            clock: &*clock,
            step,
            steps: plan.todo.len(),
            unit_positions: plan.sizes[i],
            todo_positions: plan.todo_positions,
            resumed,
            last_ckpt: Instant::now(),
            last_line: Instant::now(),
            stopping: false,
            ckpt: &ckpt,
            refs: &refs,
        };
        let interrupted = sweep(
            &self.store,
            &halves,
            from,
            self.options.threads,
            &clock.progress,
            &mut watch,
        )?;
        if interrupted {
            let _ = writeln!(self.log, "retro: stopped; checkpoint {ckpt:?} written");
            return Ok(false);
        }
        let census = finish_unit(&self.dir, unit, &refs, &ckpt)?;
        for j in 0..3 {
            sum.wdl[j] += census[j + 1];
        }
        clock.before += plan.sizes[i] - resumed;
        sum.computed += plan.sizes[i] - resumed;
        let _ = writeln!(
            self.log,
            "retro: unit {:?} done in {}: wins {} draws {} losses {}",
            unit,
            fmt_secs(unit_start.elapsed().as_secs_f64()),
            census[1],
            census[2],
            census[3]
        );
        Ok(true)
    }

    /// Eviction: holds exactly the successors of `unit` in the store (and
    /// nothing else), loading those not held yet. Returns the successors.
    fn hold_successors(&mut self, unit: HalfKey) -> Result<Vec<HalfKey>, RetroError> {
        let needed = successors(unit);
        for k in self.store.keys() {
            if !needed.contains(&unit_of(k)) {
                self.store.remove(k);
            }
        }
        for &s in &needed {
            self.load(s)?;
        }
        Ok(needed)
    }

    /// Checkpoints: the halves of `unit` from its checkpoint file `ckpt`
    /// when there is one, else empty from the highest slice level.
    fn start_unit(&mut self, unit: HalfKey, ckpt: &Path) -> Result<UnitStart, RetroError> {
        let (halves, from) = if ckpt.exists() {
            let (h, next) = store::read_unit(ckpt, unit)?;
            let from = Resume::decode(next);
            let _ = writeln!(self.log, "retro: resuming {ckpt:?} at {from:?}");
            (h, from)
        } else {
            let h: Vec<Half> = halves_of(unit).into_iter().map(Half::empty).collect();
            let top = h
                .iter()
                .flat_map(|h| h.layout.slices.iter().map(|s| s.level))
                .max()
                .unwrap_or(0);
            (
                h,
                Resume {
                    level: top,
                    item: 0,
                },
            )
        };
        let halves: Vec<Arc<Half>> = halves.into_iter().map(Arc::new).collect();
        let resumed = resumed_positions(&halves, from);
        Ok(UnitStart {
            halves,
            from,
            resumed,
        })
    }

    /// The units complete on disk, their positions and bytes, into `sum`.
    fn count_on_disk(&self, plan: &Plan, sum: &mut RetroSummary) {
        for (i, &u) in plan.all.iter().enumerate() {
            let p = unit_path(&self.dir, u, "wdl");
            if let Ok(m) = std::fs::metadata(&p) {
                sum.complete += 1;
                sum.positions_complete += plan.sizes[i];
                sum.disk_bytes += m.len();
            }
        }
    }

    /// The value of `pos` for the side to move from the tables on disk
    /// (+1, 0, -1), or `None` when its unit is not solved.
    pub fn value(&mut self, pos: &Position) -> Option<i8> {
        if pos.is_won() {
            return Some(-1);
        }
        if let Ok((key, ..)) = index::locate(pos) {
            self.load(unit_of(key)).ok()?;
        }
        self.store.value(pos)
    }
}

/// Win/draw/loss tables loaded from a directory of unit files, for probing
/// (the engine and the solver use them where they cover a position).
pub struct RetroTables {
    store: Store,
    units: usize,
    bytes: u64,
}

impl std::fmt::Debug for RetroTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "RetroTables {{ units: {}, bytes: {} }}",
            self.units, self.bytes
        )
    }
}

impl RetroTables {
    /// Loads every complete unit file (`*.wdl`) of `dir` whose level is at
    /// most `max_level` (all when `None`).
    pub fn open(dir: &Path, max_level: Option<u8>) -> Result<RetroTables, RetroError> {
        let io = |e| RetroError::Io(dir.to_path_buf(), e);
        let mut store = Store::new();
        let mut units = 0;
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let Some(unit) = parse_unit_name(name) else {
                continue;
            };
            if max_level.is_some_and(|m| unit.level() > m) {
                continue;
            }
            let (halves, next) = store::read_unit(&path, unit)?;
            if next != store::COMPLETE {
                continue;
            }
            for h in halves {
                store.insert(Arc::new(h));
            }
            units += 1;
        }
        let bytes = store.bytes();
        Ok(RetroTables {
            store,
            units,
            bytes,
        })
    }

    /// Units loaded.
    pub fn units(&self) -> usize {
        self.units
    }

    /// Bytes of values held in memory.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The value of `pos` for the side to move (+1 win, 0 draw, -1 loss)
    /// when the tables cover it (or it is settled without them).
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<i8> {
        if pos.is_won() {
            return Some(-1);
        }
        self.store.value(pos)
    }

    /// True when the tables hold the phase of `pos` (a table answers it,
    /// not a rule that settles it without one).
    pub fn covers(&self, pos: &Position) -> bool {
        !pos.is_won()
            && matches!(index::locate(pos), Ok((key, ..)) if self.store.get(key).is_some())
    }

    /// The store, for evaluating positions from their children.
    pub fn store(&self) -> &Store {
        &self.store
    }
}

/// The unit key of a file name `u-TM-BM-TO-BO-R.wdl`.
fn parse_unit_name(name: &str) -> Option<HalfKey> {
    let rest = name.strip_prefix("u-")?.strip_suffix(".wdl")?;
    let v: Vec<u8> = rest
        .split('-')
        .map(|s| s.parse().ok())
        .collect::<Option<_>>()?;
    let [tm, bm, to, bo, r] = v[..] else {
        return None;
    };
    let k = HalfKey { tm, bm, to, bo, r };
    (r < 3 && tm + bm <= MAX_N && to + bo <= MAX_N && unit_of(k) == k).then_some(k)
}
