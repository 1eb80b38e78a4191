//! Perft speed: bulk-counted leaves per second from the start position on one core.
//! Run with `cargo bench --bench perft`; prints figures, asserts nothing about time.

use grasshopper::{perft, Position};
use std::time::Instant;

fn main() {
    let depth: u32 = std::env::var("PERFT_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(9);
    let pos = Position::start(14).unwrap();
    // Warm up caches and clocks.
    perft(&pos, 6);
    let mut best = f64::MAX;
    let mut leaves = 0;
    for _ in 0..3 {
        let t = Instant::now();
        leaves = perft(&pos, depth);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "perft({depth}) start N=14: {leaves} leaves, best of 3 {best:.3} s, {:.1} M leaves/s",
        leaves as f64 / best / 1e6
    );
}
