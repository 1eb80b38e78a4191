//! Perft speed: bulk-counted leaves per second from the start position on one core.
//! Run with `cargo bench -p grasshopper-rules --bench perft`; prints figures, asserts nothing about time.
//!
//! Both wall-clock and on-CPU time are printed: on a shared machine the wall
//! clock also counts time the thread spent waiting for a core.

use grasshopper_rules::{perft, Position};
use std::time::Instant;

/// Nanoseconds this thread has spent on a CPU (Linux), if the kernel tells.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() {
    let depth: u32 = std::env::var("PERFT_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let pos = Position::start(14).unwrap();
    // Warm up caches and clocks.
    perft(&pos, 6);
    let (mut best_wall, mut best_cpu) = (f64::MAX, f64::MAX);
    let mut leaves = 0;
    for _ in 0..2 {
        let (t, c) = (Instant::now(), cpu_ns());
        leaves = perft(&pos, depth);
        best_wall = best_wall.min(t.elapsed().as_secs_f64());
        if let (Some(c0), Some(c1)) = (c, cpu_ns()) {
            best_cpu = best_cpu.min((c1 - c0) as f64 / 1e9);
        }
    }
    println!(
        "perft({depth}) start N=14: {leaves} leaves; best of 2: wall {best_wall:.3} s = {:.0} M leaves/s",
        leaves as f64 / best_wall / 1e6
    );
    if best_cpu < f64::MAX {
        println!(
            "on-CPU {best_cpu:.3} s = {:.0} M leaves/s per core",
            leaves as f64 / best_cpu / 1e6
        );
    }
}
