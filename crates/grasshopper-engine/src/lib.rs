//! Search: choosing a move within limits. The protocol talks to it only
//! through [`Searcher`], [`Limits`], [`SearchControl`] and [`Report`], and
//! gets a [`SearchResult`] back:
//!
//! ```
//! use grasshopper_engine::{Limits, SearchControl, SearchOptions, Searcher};
//! use grasshopper_rules::Position;
//!
//! let pos = Position::start(14).unwrap();
//! let mut searcher = Searcher::new(SearchOptions::default());
//! let limits = Limits {
//!     nodes: Some(2_000),
//!     ..Limits::default()
//! };
//! let mut reports = 0;
//! let control = SearchControl::new(false);
//! let result = searcher.search(&pos, &limits, &control, &mut |_| reports += 1);
//! let best = result.best.expect("the start position has moves");
//! assert!(pos.legal_moves().contains(best));
//! assert!(reports > 0);
//! ```
//!
//! This file is that interface. Behind it: the driver (`driver.rs`:
//! iterative deepening in aspiration windows on the main thread, Lazy SMP
//! helper threads, the watchdog that stops them), the alpha-beta worker of
//! one thread (`worker.rs`), the shared lock-free transposition table
//! (`tt.rs`), time management (`time.rs`), the evaluation ([`eval`]), the
//! baseline players (`baseline.rs`) and the benchmark ([`mod@bench`]).

mod baseline;
pub mod bench;
mod driver;
pub mod eval;
mod evaluate;
pub mod midnet;
mod time;
mod tt;
mod worker;

use driver::Bounds;
use grasshopper_rules::{Move, Position};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// `selfplay` match between weight sets) sets others; they serve where
    /// no net does ([`midnet::net_for`]: the 14-checker game only when its
    /// net is switched off).
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
        let moves = candidates(pos, &limits.searchmoves);
        let result = if moves.is_empty() {
            SearchResult {
                best: None,
                ponder: None,
            }
        } else {
            let bounds = Bounds {
                limits,
                control,
                start,
            };
            self.choose(pos, moves, &bounds, report)
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

    /// The options' player chooses among `moves` (not empty).
    fn choose(
        &mut self,
        pos: &Position,
        moves: Vec<Move>,
        bounds: &Bounds<'_>,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let m = match self.options.player {
            Player::Engine => {
                let tables = self.options.tables.as_ref();
                return match driver::table_answer(tables, pos, &moves, bounds.start, report) {
                    Some(result) => result,
                    None => driver::think(&self.options, &self.tt, pos, moves, bounds, report),
                };
            }
            Player::Random => baseline::random_move(&moves, &mut self.rng),
            Player::Greedy => baseline::greedy_move(pos, &moves, &self.options.weights),
        };
        report(&baseline_report(m, bounds.start));
        SearchResult {
            best: Some(m),
            ponder: None,
        }
    }
}

/// The single progress line a baseline player reports.
fn baseline_report(m: Move, start: Instant) -> Report {
    Report {
        depth: 1,
        seldepth: 1,
        multipv: 1,
        score: Score::Cp(0),
        nodes: 1,
        nps: 0,
        hashfull: 0,
        time: start.elapsed(),
        pv: vec![m],
    }
}

/// The root moves to choose from: the legal moves among `searchmoves`, or
/// all legal moves when none of them is.
fn candidates(pos: &Position, searchmoves: &[Move]) -> Vec<Move> {
    let legal = pos.legal_moves();
    let moves: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| searchmoves.contains(m))
        .collect();
    if moves.is_empty() {
        legal.to_vec()
    } else {
        moves
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
