//! `retro-quality`: how often the engine's move gives away value, measured
//! with the retrograde tables on positions from engine games.

use grasshopper_engine::{Limits, SearchControl, SearchOptions, Searcher};
use grasshopper_rules::{Move, Position};
use grasshopper_solver::retro::RetroTables;
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// `retro-quality`.
#[derive(clap::Args, Debug)]
pub struct QualityArgs {
    /// Directory of the phase tables (from `solve --retro`); only complete
    /// phases are used.
    #[arg(long, value_name = "DIR")]
    retro: PathBuf,
    /// Checkers per player of the games.
    #[arg(long, default_value_t = 6, value_parser = super::parse_checkers)]
    checkers: u8,
    /// Distinct positions to measure (covered by the tables, at least two
    /// legal moves).
    #[arg(long, default_value_t = 10_000)]
    positions: usize,
    /// Move times to measure, in milliseconds, comma-separated.
    #[arg(long, default_value = "10,100", value_delimiter = ',')]
    movetimes: Vec<u64>,
    /// Node limits to measure as well, comma-separated (a fixed amount of
    /// work, whatever else runs on the machine).
    #[arg(long, value_delimiter = ',')]
    nodes: Vec<u64>,
    /// Nodes per move of the engine in the games that supply the positions.
    #[arg(long, default_value_t = 3000)]
    game_nodes: u64,
    /// Random first plies of each game: 2 to this many.
    #[arg(long, default_value_t = 9)]
    random_plies: u64,
    /// Stop collecting after this many games, with fewer positions if so.
    #[arg(long)]
    max_games: Option<u64>,
    /// Positions measured at once (one search thread each).
    #[arg(long, default_value_t = 1)]
    workers: usize,
}

/// A small deterministic generator (SplitMix64).
struct Mix(u64);

impl Mix {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

fn best_move(s: &mut Searcher, pos: &Position, limits: &Limits) -> (Move, u64) {
    let control = SearchControl::new(false);
    let mut nodes = 0;
    let r = s.search(pos, limits, &control, &mut |r| nodes = r.nodes);
    (r.best.expect("the game goes on"), nodes)
}

/// The value the move keeps for the mover: +1, 0, -1.
fn kept(tables: &RetroTables, pos: &Position, m: Move) -> i8 {
    let child = pos.play(m).expect("legal");
    if child.is_won() {
        1
    } else {
        -tables
            .probe(&child)
            .expect("children of a solved phase are solved")
    }
}

/// Positions the tables cover from engine games (random first plies).
/// Games are counted in `u64`.
fn positions(
    tables: &RetroTables,
    a: &QualityArgs,
    seed: u64,
    log: &mut dyn Write,
) -> Vec<Position> {
    let mut rng = Mix(seed);
    let mut s = Searcher::new(SearchOptions::default());
    let limits = Limits {
        nodes: Some(a.game_nodes),
        ..Default::default()
    };
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut games = 0u64;
    while out.len() < a.positions && a.max_games.is_none_or(|g| games < g) {
        games += 1;
        s.clear();
        let mut p = Position::start(a.checkers).expect("checked");
        let random = 2 + rng.below(a.random_plies.max(2) - 1);
        let mut ply = 0;
        while !p.is_game_over() {
            let moves = p.legal_moves();
            if tables.covers(&p) && moves.len() >= 2 && seen.insert(p.canonical_key()) {
                out.push(p);
            }
            let m = if ply < random {
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                best_move(&mut s, &p, &limits).0
            };
            p.play_unchecked(m);
            ply += 1;
        }
        if games.is_multiple_of(200) {
            let _ = writeln!(log, "quality: {games} games, {} positions", out.len());
        }
    }
    out.truncate(a.positions);
    let _ = writeln!(log, "quality: {games} games gave {} positions", out.len());
    out
}

/// Plays the measurement and prints, per move time: positions, wins and
/// draws among them, moves that gave value away, mean nodes per move.
pub fn run(a: QualityArgs, seed: u64, out: &mut impl Write) -> Result<(), super::CliError> {
    let log = &mut std::io::stderr();
    let tables = RetroTables::open(&a.retro, None)?;
    writeln!(
        out,
        "tables {} units, {} bytes",
        tables.units(),
        tables.bytes()
    )?;
    let ps = positions(&tables, &a, seed, log);
    let values: Vec<i8> = ps
        .iter()
        .map(|p| tables.probe(p).expect("covered"))
        .collect();
    let count = |v: i8| values.iter().filter(|&&x| x == v).count();
    writeln!(
        out,
        "positions {} (wins {}, draws {}, losses {})",
        ps.len(),
        count(1),
        count(0),
        count(-1)
    )?;
    let settings = a.movetimes.iter().map(|&ms| {
        (
            format!("movetime {ms} ms"),
            Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..Default::default()
            },
        )
    });
    let settings = settings.chain(a.nodes.iter().map(|&n| {
        (
            format!("nodes {n}"),
            Limits {
                nodes: Some(n),
                ..Default::default()
            },
        )
    }));
    for (name, limits) in settings {
        let next = AtomicUsize::new(0);
        // Per position: the value kept and the nodes searched.
        let results = Mutex::new(vec![(0i8, 0u64); ps.len()]);
        std::thread::scope(|scope| {
            for _ in 0..a.workers.max(1) {
                scope.spawn(|| {
                    let mut s = Searcher::new(SearchOptions::default());
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(p) = ps.get(i) else { break };
                        s.clear();
                        let (m, nodes) = best_move(&mut s, p, &limits);
                        let k = kept(&tables, p, m);
                        results.lock().expect("no panic")[i] = (k, nodes);
                    }
                });
            }
        });
        let r = results.into_inner().expect("no panic");
        let lost = |v: i8| {
            (0..ps.len())
                .filter(|&i| values[i] == v && r[i].0 < v)
                .count()
        };
        let (lw, ld) = (lost(1), lost(0));
        let nodes = r.iter().map(|x| x.1).sum::<u64>() / ps.len().max(1) as u64;
        let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
        writeln!(
            out,
            "{name}: lost value {} of {} ({:.2}%): win->not win {} of {} ({:.2}%), draw->loss {} of {} ({:.2}%); mean nodes {}",
            lw + ld,
            count(1) + count(0),
            pct(lw + ld, count(1) + count(0)),
            lw,
            count(1),
            pct(lw, count(1)),
            ld,
            count(0),
            pct(ld, count(0)),
            nodes
        )?;
    }
    Ok(())
}
