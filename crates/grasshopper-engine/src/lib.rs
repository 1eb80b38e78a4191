//! Search: choosing a move within limits. The protocol talks to it only
//! through [`Searcher`], [`Limits`], [`SearchControl`] and [`Report`].
//!
//! The interface is the contract between search and protocol. Behind it:
//! iterative deepening alpha-beta ([`engine`]), a shared lock-free
//! transposition table ([`tt`]), Lazy SMP threads, time management ([`time`]),
//! the evaluation ([`eval`]) and the baseline players ([`baseline`]).

pub mod baseline;
pub mod bench;
mod engine;
pub mod eval;
mod time;
mod tt;

use engine::{RootMove, Shared, TimeCheck, Worker, INF, MATE_BOUND};
use grasshopper_rules::{Decided, Move, Position};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tt::Tt;

/// A player's clock as the GUI reports it at `go`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub time: Duration,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// What bounds one search. All `None`/`false` with no clock means: search
/// until told to stop.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The mover's clock (the search budgets its own time from it).
    pub clock: Option<Clock>,
    /// Spend this long, less a small fixed safety margin (not the move
    /// overhead, which belongs to clocks).
    pub movetime: Option<Duration>,
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Search until `stop`, whatever else is set.
    pub infinite: bool,
    /// Only consider these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// When this move's time started (when the client's `go` was read);
    /// `None`: when `search` is called. Time the request spent waiting for
    /// a thread counts against the move, as it does on the client's clock.
    pub started: Option<Instant>,
}

/// Engine settings that persist between searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Number of best moves to report.
    pub multipv: usize,
    /// Time kept in reserve per move for communication delays.
    pub move_overhead: Duration,
    /// Who chooses the moves: the engine or a baseline player.
    pub player: Player,
    /// Seed of the random player (`None`: seeded from the clock).
    pub seed: Option<u64>,
    /// Endgame tables (`TablePath` naming a file): at a root in their phase
    /// the engine plays the tables' move and reports the proved result;
    /// inside the search they answer every node of their phase.
    pub tables: Option<grasshopper_solver::SharedTables>,
    /// Retrograde win/draw/loss phase tables (`TablePath` naming a
    /// directory): probed at every node of the search that they cover.
    pub retro: Option<grasshopper_solver::SharedRetro>,
    /// Evaluation weights: [`eval::WEIGHTS`] unless an experiment (a
    /// `selfplay` match between weight sets) sets others.
    pub weights: [i32; eval::N_FEATURES],
}

/// Who chooses the moves.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Player {
    /// The full search.
    #[default]
    Engine,
    /// A uniformly random legal move.
    Random,
    /// The best move one ply deep by the evaluation, a winning move first.
    Greedy,
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Engine => "engine",
            Player::Random => "random",
            Player::Greedy => "greedy",
        })
    }
}

/// Error from parsing a [`Player`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePlayerError(pub String);

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad player \"{}\": expected engine, random or greedy",
            self.0
        )
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for Player {
    type Err = ParsePlayerError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "engine" => Ok(Player::Engine),
            "random" => Ok(Player::Random),
            "greedy" => Ok(Player::Greedy),
            _ => Err(ParsePlayerError(s.to_string())),
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(25),
            player: Player::Engine,
            seed: None,
            tables: None,
            retro: None,
            weights: eval::WEIGHTS,
        }
    }
}

/// Signals from the protocol to a running search, shared between threads.
/// The flags are atomics (the search polls them); the mutex and condition
/// variable let a finished infinite or ponder search sleep until released.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    signal: Mutex<()>,
    changed: Condvar,
}

impl SearchControl {
    /// A control for a normal (`pondering == false`) or ponder search.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            pondering: AtomicBool::new(pondering),
            ..Default::default()
        }
    }

    /// Ask the search to finish now and report its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.notify();
    }

    /// The opponent played the pondered move: from now on the time limits count.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
        self.notify();
    }

    fn notify(&self) {
        // Taking the lock orders the flag change before a waiter's check.
        let _guard = self.signal.lock().unwrap_or_else(PoisonError::into_inner);
        self.changed.notify_all();
    }

    /// Blocks until `stop`, or until `ponderhit` when `until_stop` is false.
    fn wait_for_release(&self, until_stop: bool) {
        let mut guard = self.signal.lock().unwrap_or_else(PoisonError::into_inner);
        while !self.is_stopped() && (until_stop || self.is_pondering()) {
            guard = self
                .changed
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// True once [`SearchControl::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// True while pondering (time limits do not count yet).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// A search score from the mover's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Heuristic value in centi-points (hundredths of a scored wall).
    Cp(i32),
    /// Proved win in `n` of the mover's own moves (`n > 0`) or proved loss
    /// after `-n` of them (`n < 0`).
    Mate(i32),
    /// Proved draw.
    Draw,
}

/// One line of progress, turned into `info ...` by the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based rank of this line among the MultiPV lines.
    pub multipv: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// The answer to one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is over.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
}

/// The engine's searcher, owned by the protocol and moved to a search thread
/// for each `go`. It keeps the transposition table between searches.
pub struct Searcher {
    options: SearchOptions,
    tt: Tt,
    /// The random player's generator.
    rng: Pcg64Mcg,
}

impl fmt::Debug for Searcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searcher")
            .field("options", &self.options)
            .field("tt_slots", &self.tt.len())
            .finish()
    }
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(SearchOptions::default())
    }
}

/// The random player's generator: seeded by `--seed`, else from the OS.
fn seed_of(options: &SearchOptions) -> Pcg64Mcg {
    match options.seed {
        Some(seed) => Pcg64Mcg::seed_from_u64(seed),
        None => Pcg64Mcg::from_os_rng(),
    }
}

/// Final line of play for a report: the searched line, completed by the
/// forced end that the search knows without playing it out (a winning
/// bear-off, or any move before the opponent's winning bear-off), so that a
/// mate line ends where its score says.
fn complete_line(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut out = Vec::with_capacity(line.len() + 2);
    let mut p = *pos;
    for &m in line {
        match p.play(m) {
            Ok(next) => {
                p = next;
                out.push(m);
            }
            Err(_) => return out,
        }
    }
    // A settled end (see `Decided`) is played out: the winning bear-off,
    // or any move before the opponent's.
    while let Some(d) = p.decided() {
        let m = match d {
            Decided::Lost => break,
            Decided::WinsNow => p.winning_bear_off().expect("a wall in D"),
            Decided::LosesNext => p.legal_moves()[0],
        };
        p.play_unchecked(m);
        out.push(m);
    }
    out
}

impl Searcher {
    /// A searcher with the given options.
    pub fn new(options: SearchOptions) -> Searcher {
        Searcher {
            tt: Tt::new(options.hash_mb),
            rng: seed_of(&options),
            options,
        }
    }

    /// The current options.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes the options (resizes the hash table when its size changes).
    pub fn set_options(&mut self, options: SearchOptions) {
        if options.hash_mb != self.options.hash_mb {
            // The old table goes first: never both in memory at once.
            self.tt = Tt::new(1);
            self.tt = Tt::new(options.hash_mb);
        }
        if options.seed != self.options.seed {
            self.rng = seed_of(&options);
        }
        self.options = options;
    }

    /// Forgets everything learnt from earlier searches (`uginewgame`), and
    /// restarts the random player's generator from its seed: with `--seed`,
    /// a game's moves then depend only on the game, not on how many games
    /// the process played before (so sharded matches replay the same games).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.rng = seed_of(&self.options);
    }

    /// Searches `pos` within `limits`, calling `report` with progress, until a
    /// limit is reached or `control` says stop. While `control` is pondering,
    /// or with `limits.infinite`, it returns only after `stop` (after
    /// `ponderhit`, the time limits count from that moment).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let start = limits.started.unwrap_or_else(Instant::now);
        let legal = pos.legal_moves();
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if moves.is_empty() {
            moves = legal.to_vec();
        }
        let result = if moves.is_empty() {
            SearchResult {
                best: None,
                ponder: None,
            }
        } else {
            match self.options.player {
                Player::Engine => match self.table_answer(pos, &moves, report, start) {
                    Some(result) => result,
                    None => self.think(pos, moves, limits, control, report, start),
                },
                Player::Random => {
                    let m = baseline::random_move(&moves, &mut self.rng);
                    report(&baseline::report_for(m, start));
                    SearchResult {
                        best: Some(m),
                        ponder: None,
                    }
                }
                Player::Greedy => {
                    let m = baseline::greedy_move(pos, &moves, &self.options.weights);
                    report(&baseline::report_for(m, start));
                    SearchResult {
                        best: Some(m),
                        ponder: None,
                    }
                }
            }
        };
        // Infinite and ponder searches, and searches without any limit,
        // answer only when told to (even when the game is solved).
        let unlimited = limits.clock.is_none()
            && limits.movetime.is_none()
            && limits.depth.is_none()
            && limits.nodes.is_none();
        if limits.infinite || unlimited || control.is_pondering() {
            control.wait_for_release(limits.infinite || unlimited);
        }
        result
    }

    /// At a root in the endgame tables' phase: the tables' optimal move,
    /// reported with its proved result (`score mate n`, or a proved draw).
    fn table_answer(
        &self,
        pos: &Position,
        moves: &[Move],
        report: &mut dyn FnMut(&Report),
        start: Instant,
    ) -> Option<SearchResult> {
        let tables = self.options.tables.as_ref()?;
        let (best, solution) = tables.0.best_move(pos, moves)?;
        report(&Report {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: solution.mate_moves().map_or(Score::Draw, Score::Mate),
            nodes: moves.len() as u64,
            nps: 0,
            hashfull: 0,
            time: start.elapsed(),
            pv: vec![best],
        });
        Some(SearchResult {
            best: Some(best),
            ponder: None,
        })
    }

    /// The engine proper: Lazy SMP over the shared table, the calling thread
    /// being the main thread that reports and watches the limits.
    fn think(
        &mut self,
        pos: &Position,
        moves: Vec<Move>,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&Report),
        start: Instant,
    ) -> SearchResult {
        self.tt.new_search();
        let root = self.root_moves(pos, &moves);
        let threads = self.options.threads.max(1);
        let mut budget = time::budget(pos, limits, &self.options);
        if root.len() == 1 {
            // A forced move: answer at once (after one iteration).
            budget.soft = budget.soft.map(|_| Duration::ZERO);
        }
        let max_depth = limits.depth.map_or(engine::MAX_PLY as i32 - 8, |d| {
            (d as i32).clamp(1, engine::MAX_PLY as i32 - 8)
        });
        let shared = Shared {
            tt: &self.tt,
            endgame: self.options.tables.as_ref().map(|t| t.0.as_ref()),
            retro: self.options.retro.as_ref().map(|t| t.0.as_ref()),
            stop: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        };
        let weights = self.options.weights;
        let (best, ponder) = std::thread::scope(|scope| {
            let clock = Watchdog {
                shared: &shared,
                control,
                start,
                hard: budget.hard.filter(|_| !limits.infinite),
            };
            scope.spawn(move || clock.watch());
            for id in 1..threads {
                let (shared, helper_root, pos) = (&shared, root.clone(), *pos);
                scope.spawn(move || helper(id, shared, helper_root, &pos, max_depth, weights));
            }
            let mut w = Worker::new(0, &shared, root);
            w.weights = weights;
            w.node_limit = limits.nodes;
            w.time = Some(TimeCheck {
                control,
                start,
                was_pondering: control.is_pondering(),
                hard: budget.hard,
                soft: budget.soft,
                infinite: limits.infinite,
            });
            let multipv = self.options.multipv.clamp(1, w.root_moves.len());
            let line = MainLine {
                pos,
                multipv,
                start,
                tt: &self.tt,
            };
            let found = line.deepen(&mut w, max_depth, report);
            shared.stop.store(true, Ordering::Relaxed);
            control.notify(); // wakes the watchdog
            found
        });
        // A ponder move is only ever a legal reply to the best move.
        let ponder = ponder.filter(|&p| {
            pos.play(best)
                .is_ok_and(|after| after.legal_moves().contains(p))
        });
        SearchResult {
            best: Some(best),
            ponder,
        }
    }

    /// The root moves to search, the table's move first.
    fn root_moves(&self, pos: &Position, moves: &[Move]) -> Vec<RootMove> {
        let tt_move = self.tt.probe(pos).and_then(|e| e.mv);
        let mut root: Vec<RootMove> = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                proven: false,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        if let Some(i) = root.iter().position(|r| Some(r.mv) == tt_move) {
            root[..=i].rotate_right(1);
        }
        root
    }
}

/// Ends every thread of a search at the hard time limit, or at once on
/// `stop`, from a thread of its own that sleeps until then. The main thread
/// checks the clock too, but only every thousand nodes of its own: with more
/// search threads than cores it may wait hundreds of milliseconds for the
/// processor, and the helpers would search on meanwhile.
struct Watchdog<'a> {
    shared: &'a Shared<'a>,
    control: &'a SearchControl,
    start: Instant,
    /// The hard limit; `None` for a search without one (or infinite).
    hard: Option<Duration>,
}

impl Watchdog<'_> {
    fn watch(self) {
        let (mut start, mut pondering) = (self.start, self.control.is_pondering());
        let mut guard = self
            .control
            .signal
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        loop {
            if self.shared.stop.load(Ordering::Relaxed) {
                return;
            }
            if pondering && !self.control.is_pondering() {
                // After ponderhit the limits count from now, as for the main thread.
                (start, pondering) = (Instant::now(), false);
            }
            let deadline = self.hard.filter(|_| !pondering).map(|h| start + h);
            if self.control.is_stopped() || deadline.is_some_and(|d| Instant::now() >= d) {
                self.shared.stop.store(true, Ordering::Relaxed);
                return;
            }
            guard = match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    let waited = self.control.changed.wait_timeout(guard, left);
                    waited.unwrap_or_else(PoisonError::into_inner).0
                }
                None => self
                    .control
                    .changed
                    .wait(guard)
                    .unwrap_or_else(PoisonError::into_inner),
            };
        }
    }
}

/// A Lazy SMP helper thread: searches deeper and deeper until told to stop,
/// filling the shared table. Helpers start at staggered depths so that they
/// fill the table with different subtrees.
fn helper(
    id: usize,
    shared: &Shared<'_>,
    root: Vec<RootMove>,
    pos: &Position,
    max_depth: i32,
    weights: [i32; eval::N_FEATURES],
) {
    let mut w = Worker::new(id, shared, root);
    w.weights = weights;
    let mut depth = 1 + (id % 2) as i32;
    while depth <= max_depth && !shared.stop.load(Ordering::Relaxed) {
        w.start_iteration();
        w.root_search(pos, depth, -INF, INF, 0);
        depth += 1 + (id % 3 == 2 && depth > 4) as i32;
    }
    w.publish_nodes();
}

/// The main thread's iterative deepening: what it searches and reports.
struct MainLine<'a> {
    pos: &'a Position,
    multipv: usize,
    start: Instant,
    tt: &'a Tt,
}

impl MainLine<'_> {
    /// Deepens until the depth limit, the soft time limit, a proof of the
    /// root's value, or a stop; returns the best move and the expected reply.
    fn deepen(
        &self,
        w: &mut Worker<'_>,
        max_depth: i32,
        report: &mut dyn FnMut(&Report),
    ) -> (Move, Option<Move>) {
        let mut best = (w.root_moves[0].mv, None);
        for depth in 1..=max_depth {
            w.start_iteration();
            let root_proven = self.iterate(w, depth);
            if !w.stopped {
                best = (w.root_moves[0].mv, w.root_moves[0].pv.get(1).copied());
                self.report(w, depth, root_proven, report);
            }
            let solved = root_proven && w.root_moves[..self.multipv].iter().all(|r| r.proven);
            let t = w.time.as_mut().expect("main thread has a clock");
            if w.stopped || solved || t.soft_passed() {
                break;
            }
        }
        if w.stopped {
            // The iteration in progress was cut short: its best move so far
            // (sorted first) is at least as informed as the last one. The
            // ponder move must come from that move's own line.
            best = (w.root_moves[0].mv, w.root_moves[0].pv.get(1).copied());
        }
        best
    }

    /// One iteration over the MultiPV lines; whether the first line's value
    /// is proved.
    fn iterate(&self, w: &mut Worker<'_>, depth: i32) -> bool {
        let mut root_proven = false;
        for pv_idx in 0..self.multipv {
            let proven = aspirate(w, self.pos, depth, pv_idx);
            if w.stopped {
                break;
            }
            if pv_idx == 0 {
                root_proven = proven;
            }
        }
        root_proven
    }

    /// Reports the lines of a finished iteration.
    fn report(
        &self,
        w: &Worker<'_>,
        depth: i32,
        root_proven: bool,
        report: &mut dyn FnMut(&Report),
    ) {
        w.publish_nodes();
        let nodes = w.total_nodes();
        let elapsed = self.start.elapsed();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
        let hashfull = self.tt.hashfull();
        for (i, rm) in w.root_moves[..self.multipv].iter().enumerate() {
            let proven = rm.proven && (i > 0 || root_proven);
            report(&Report {
                depth: depth as u32,
                seldepth: rm.seldepth.max(depth as u32),
                multipv: i as u32 + 1,
                score: engine::to_score(rm.score, proven),
                nodes,
                nps,
                hashfull,
                time: elapsed,
                pv: complete_line(self.pos, &rm.pv),
            });
        }
    }
}

/// Searches line `pv_idx` at `depth` in an aspiration window around its
/// last score, widening on a fail; whether the value found is proved.
fn aspirate(w: &mut Worker<'_>, pos: &Position, depth: i32, pv_idx: usize) -> bool {
    let prev = w.root_moves[pv_idx].prev_score;
    let mut delta = 25;
    let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
        (prev - delta, prev + delta)
    } else {
        (-INF, INF)
    };
    loop {
        let (v, proven) = w.root_search(pos, depth, alpha, beta, pv_idx);
        if w.stopped {
            return false;
        }
        if v <= alpha && alpha > -INF {
            alpha = (v - delta).max(-INF);
        } else if v >= beta && beta < INF {
            beta = (v + delta).min(INF);
        } else {
            return proven;
        }
        delta *= 2;
        if delta > 400 {
            (alpha, beta) = (-INF, INF);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_round_trip_through_text() {
        for p in [Player::Engine, Player::Random, Player::Greedy] {
            assert_eq!(p.to_string().parse::<Player>(), Ok(p));
        }
        let e = "smart".parse::<Player>().unwrap_err().to_string();
        assert!(e.contains("\"smart\""), "{e}");
    }
}
