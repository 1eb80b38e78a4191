//! The perft report, as the `perft` command and the `perft` subcommand print it.

use grasshopper_rules::{perft, perft_divide, Position};
use std::io::Write;
use std::time::Instant;

/// Writes a perft report: with `divide`, one `<move>: <count>` line per root
/// move; always a last line `nodes <total>`. Timing goes to the log (stderr).
pub fn write_perft(
    out: &mut impl Write,
    pos: &Position,
    depth: u32,
    divide: bool,
) -> std::io::Result<u64> {
    let start = Instant::now();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for (m, n) in perft_divide(pos, depth) {
            writeln!(out, "{m}: {n}")?;
            total += n;
        }
        total
    } else {
        perft(pos, depth)
    };
    writeln!(out, "nodes {total}")?;
    let secs = start.elapsed().as_secs_f64();
    log::info!(
        "perft {depth}: {total} nodes in {secs:.3} s, {:.0} nodes/s",
        total as f64 / secs.max(1e-9)
    );
    Ok(total)
}
