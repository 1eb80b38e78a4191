//! The search driver: iterative deepening with aspiration windows on the
//! main thread, which reports each finished iteration and watches the
//! limits; Lazy SMP helper threads that search the same root over the shared
//! table; the watchdog that stops them all. The alpha-beta search of one
//! thread is the [`Worker`]'s.

use crate::eval;
use crate::time::{self, TimeCheck};
use crate::tt::Tt;
use crate::worker::{RootMove, Shared, Worker, INF, MATE, MATE_BOUND, MAX_PLY};
use crate::{Limits, Report, Score, SearchControl, SearchOptions, SearchResult};
use grasshopper_rules::{Move, Position};
use grasshopper_solver::SharedTables;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::PoisonError;
use std::time::{Duration, Instant};

/// What bounds one search: its limits, its control (`stop`, `ponderhit`)
/// and when its time started.
pub(crate) struct Bounds<'a> {
    pub limits: &'a Limits,
    pub control: &'a SearchControl,
    pub start: Instant,
}

/// At a root in the endgame tables' phase: the tables' optimal move,
/// reported with its proved result (`score mate n`, or a proved draw).
pub(crate) fn table_answer(
    tables: Option<&SharedTables>,
    pos: &Position,
    moves: &[Move],
    start: Instant,
    report: &mut dyn FnMut(&Report),
) -> Option<SearchResult> {
    let tables = tables?;
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
pub(crate) fn think(
    options: &SearchOptions,
    tt: &Tt,
    pos: &Position,
    moves: Vec<Move>,
    bounds: &Bounds<'_>,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let Bounds {
        limits,
        control,
        start,
    } = *bounds;
    tt.new_search();
    let root = root_moves(tt, pos, &moves);
    let threads = options.threads.max(1);
    let mut budget = time::budget(pos, limits, options);
    if root.len() == 1 {
        // A forced move: answer at once (after one iteration).
        budget.soft = budget.soft.map(|_| Duration::ZERO);
    }
    let max_depth = max_depth(limits);
    let shared = Shared {
        tt,
        endgame: options.tables.as_ref().map(|t| t.0.as_ref()),
        retro: options.retro.as_ref().map(|t| t.0.as_ref()),
        stop: AtomicBool::new(false),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
    };
    let weights = options.weights;
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
        let mut w = main_worker(&shared, root, weights, bounds, budget);
        let multipv = options.multipv.clamp(1, w.root_moves.len());
        let line = MainLine {
            pos,
            multipv,
            start,
            tt,
        };
        let found = line.deepen(&mut w, max_depth, report);
        shared.stop.store(true, Ordering::Relaxed);
        control.notify(); // wakes the watchdog
        found
    });
    SearchResult {
        best: Some(best),
        ponder: ponder.filter(|&p| is_reply(pos, best, p)),
    }
}

/// The deepest iteration: the depth limit, kept inside the worker's stacks.
fn max_depth(limits: &Limits) -> i32 {
    limits.depth.map_or(MAX_PLY as i32 - 8, |d| {
        (d as i32).clamp(1, MAX_PLY as i32 - 8)
    })
}

/// The main thread's worker: the only one that counts nodes against the
/// limit and watches the clock.
fn main_worker<'a>(
    shared: &'a Shared<'a>,
    root: Vec<RootMove>,
    weights: [i32; eval::N_FEATURES],
    bounds: &Bounds<'a>,
    budget: time::Budget,
) -> Worker<'a> {
    let Bounds {
        limits,
        control,
        start,
    } = *bounds;
    let mut w = Worker::new(0, shared, root);
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
    w
}

/// Whether `reply` is a legal answer to `best`: a ponder move must be.
fn is_reply(pos: &Position, best: Move, reply: Move) -> bool {
    pos.play(best)
        .is_ok_and(|after| after.legal_moves().contains(reply))
}

/// The root moves to search, the table's move first.
fn root_moves(tt: &Tt, pos: &Position, moves: &[Move]) -> Vec<RootMove> {
    let tt_move = tt.probe(pos).and_then(|e| e.mv);
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
                score: to_score(rm.score, proven),
                nodes,
                nps,
                hashfull,
                time: elapsed,
                pv: complete_line(self.pos, &rm.pv),
            });
        }
    }
}

/// Converts an internal value to a protocol score. `proven` says whether
/// a value of 0 is a proof.
fn to_score(v: i32, proven: bool) -> Score {
    if v > MATE_BOUND {
        let plies = MATE - v;
        Score::Mate((plies + 1) / 2)
    } else if v < -MATE_BOUND {
        let plies = MATE + v;
        Score::Mate(-(plies / 2).max(1))
    } else if v == 0 && proven {
        Score::Draw
    } else {
        Score::Cp(v)
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

/// Final line of play for a report: the searched line, completed by the
/// forced end that the search knows without playing it out (an exchange of
/// scores, see [`Position::forced`]), so that a mate line ends where its
/// score says.
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
    while let Some(m) = p.forced_move() {
        p.play_unchecked(m);
        out.push(m);
    }
    out
}
