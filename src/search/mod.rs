//! Search: choosing a move within limits. The protocol talks to it only
//! through [`Searcher`], [`Limits`], [`SearchControl`] and [`Report`].
//!
//! The body of [`Searcher::search`] is a placeholder until issue 5 (strong
//! search) lands: it honours every limit and stop signal, and plays the first
//! legal move. The interface is the contract between search and protocol.

use crate::rules::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    /// Spend exactly this long (less the move overhead).
    pub movetime: Option<Duration>,
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Search until `stop`, whatever else is set.
    pub infinite: bool,
    /// Only consider these root moves (empty: all).
    pub searchmoves: Vec<Move>,
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
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(25),
        }
    }
}

/// Signals from the protocol to a running search, shared between threads.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl SearchControl {
    /// A control for a normal (`pondering == false`) or ponder search.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
        }
    }

    /// Ask the search to finish now and report its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the pondered move: from now on the time limits count.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
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
/// for each `go`.
#[derive(Debug, Default)]
pub struct Searcher {
    options: SearchOptions,
}

impl Searcher {
    /// A searcher with the given options.
    pub fn new(options: SearchOptions) -> Searcher {
        Searcher { options }
    }

    /// The current options.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes the options (resizes the hash table when its size changes).
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
    }

    /// Forgets everything learnt from earlier searches (`uginewgame`).
    pub fn clear(&mut self) {}

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
        let start = Instant::now();
        let moves = pos.legal_moves();
        let best = moves
            .iter()
            .copied()
            .find(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m));
        if let Some(m) = best {
            report(&Report {
                depth: 1,
                seldepth: 1,
                multipv: 1,
                score: Score::Cp(0),
                nodes: moves.len() as u64,
                nps: 0,
                hashfull: 0,
                time: start.elapsed(),
                pv: vec![m],
            });
        }
        // Placeholder: it has nothing to think about, but it must still wait
        // while told to (infinite, ponder) and return at once on stop.
        while (limits.infinite || control.is_pondering()) && !control.is_stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        SearchResult { best, ponder: None }
    }
}
