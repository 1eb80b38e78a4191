//! The bench: a fixed search of fixed positions. Its node total is a
//! signature of the search (it changes only when the search does), and its
//! speed figures are the engine's nodes per second.

use super::{Limits, SearchControl, SearchOptions, Searcher};
use grasshopper_rules::Position;
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// The bench positions, one position string a line (`#` starts a comment).
const POSITIONS: &str = include_str!("../data/bench.txt");

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 10;

/// The positions of [`POSITIONS`].
fn positions() -> Vec<Position> {
    POSITIONS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.parse().unwrap_or_else(|e| panic!("data/bench.txt: {e}")))
        .collect()
}

fn options() -> SearchOptions {
    SearchOptions {
        hash_mb: 16,
        threads: 1,
        ..Default::default()
    }
}

/// Writes the depth reached in one second from the 14-checker start
/// position and its speed: `start position: depth <d> in 1 s, <n> nodes <m> nps`.
pub fn one_second(out: &mut impl Write) -> io::Result<(u32, u64)> {
    let mut searcher = Searcher::new(options());
    let control = SearchControl::new(false);
    let limits = Limits {
        movetime: Some(Duration::from_millis(1000) + super::time::MOVETIME_MARGIN),
        ..Default::default()
    };
    let mut last = None;
    let start = Instant::now();
    searcher.search(
        &Position::start(14).expect("14 checkers"),
        &limits,
        &control,
        &mut |r| last = Some((r.depth, r.nodes)),
    );
    let secs = start.elapsed().as_secs_f64();
    let (depth, nodes) = last.unwrap_or((0, 0));
    let nps = (nodes as f64 / secs.max(1e-9)) as u64;
    writeln!(
        out,
        "start position: depth {depth} in 1 s, {nodes} nodes {nps} nps"
    )?;
    Ok((depth, nps))
}

/// Searches every bench position to `depth` with one thread and a fresh
/// 16 MiB table, one line per position, then `<N> nodes <M> nps`. Returns
/// (N, M).
pub fn run(out: &mut impl Write, depth: u32) -> io::Result<(u64, u64)> {
    run_until(out, depth, &SearchControl::new(false))
}

/// [`run`], until `control` is stopped: then the position being searched
/// and the later ones are left out, and so is the total line (the figures
/// returned are those of the positions done).
pub fn run_until(
    out: &mut impl Write,
    depth: u32,
    control: &SearchControl,
) -> io::Result<(u64, u64)> {
    let mut total = 0u64;
    let mut busy = Duration::ZERO;
    let mut searcher = Searcher::new(options());
    for (i, pos) in positions().iter().enumerate() {
        searcher.clear();
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let mut last = None;
        let start = Instant::now();
        let result = searcher.search(pos, &limits, control, &mut |r| last = Some(r.clone()));
        busy += start.elapsed();
        if control.is_stopped() {
            return Ok((total, 0));
        }
        let best = result.best.map_or("(none)".to_string(), |m| m.to_string());
        match last {
            Some(r) => {
                total += r.nodes;
                writeln!(
                    out,
                    "{:2} {pos}: depth {} score {:?} nodes {} bestmove {best}",
                    i + 1,
                    r.depth,
                    r.score,
                    r.nodes
                )?;
            }
            None => writeln!(out, "{:2} {pos}: game over", i + 1)?,
        }
    }
    let nps = (total as f64 / busy.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "{total} nodes {nps} nps")?;
    Ok((total, nps))
}
