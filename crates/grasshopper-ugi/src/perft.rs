//! The perft report, as the `perft` command and the `perft` subcommand print it.

use grasshopper_engine::SearchControl;
use grasshopper_rules::{perft, Position};
use std::io::Write;
use std::time::Instant;

/// The deepest `perft` the protocol command runs. From the start position
/// perft 10 counts 1.5e10 leaves in 14 s and each ply multiplies the count
/// by about 14, so depth 12 is already most of an hour and about depth 18
/// would overflow the 64-bit count.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Below this depth a subtree is counted by the rules' perft without
/// looking at the stop flag: such a count takes milliseconds.
const UNSTOPPABLE_DEPTH: u32 = 4;

/// Writes a perft report: with `divide`, one `<move>: <count>` line per root
/// move; always a last line `nodes <total>`. Timing goes to the log (stderr).
pub fn write_perft(
    out: &mut impl Write,
    pos: &Position,
    depth: u32,
    divide: bool,
) -> std::io::Result<u64> {
    let never = SearchControl::new(false);
    Ok(write_perft_until(out, pos, depth, divide, &never)?.unwrap_or(0))
}

/// [`write_perft`] until `stop` is stopped: then the count ends within
/// milliseconds, the root moves counted so far have their lines, and the
/// last line is `info string perft stopped ...` instead of the total
/// (`Ok(None)`).
pub fn write_perft_until(
    out: &mut impl Write,
    pos: &Position,
    depth: u32,
    divide: bool,
    stop: &SearchControl,
) -> std::io::Result<Option<u64>> {
    let start = Instant::now();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        let moves = pos.legal_moves();
        for (i, &m) in moves.iter().enumerate() {
            let mut child = *pos;
            child.play_unchecked(m);
            let Some(n) = count(&child, depth - 1, stop) else {
                writeln!(
                    out,
                    "info string perft stopped: {i} of {} root moves counted, no total",
                    moves.len()
                )?;
                return Ok(None);
            };
            if divide {
                writeln!(out, "{m}: {n}")?;
            }
            total += n;
        }
    }
    writeln!(out, "nodes {total}")?;
    let secs = start.elapsed().as_secs_f64();
    log::info!(
        "perft {depth}: {total} nodes in {secs:.3} s, {:.0} nodes/s",
        total as f64 / secs.max(1e-9)
    );
    Ok(Some(total))
}

/// The leaves `depth` plies below `pos`, or `None` once `stop` is stopped.
fn count(pos: &Position, depth: u32, stop: &SearchControl) -> Option<u64> {
    if stop.is_stopped() {
        return None;
    }
    if depth < UNSTOPPABLE_DEPTH {
        return Some(perft(pos, depth));
    }
    let mut total = 0;
    for &m in pos.legal_moves().iter() {
        let mut child = *pos;
        child.play_unchecked(m);
        total += count(&child, depth - 1, stop)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stoppable_count_is_the_rules_perft() {
        let mut pos = Position::start(14).unwrap();
        for m in ["bar/1", "bar/2", "1/7", "bar/3"] {
            pos = pos.play(m.parse().unwrap()).unwrap();
        }
        for depth in 0..=5 {
            let mut out = Vec::new();
            let n = write_perft(&mut out, &pos, depth, true).unwrap();
            assert_eq!(n, perft(&pos, depth), "depth {depth}");
            let text = String::from_utf8(out).unwrap();
            assert!(text.ends_with(&format!("nodes {n}\n")), "{text}");
        }
    }

    #[test]
    fn a_stopped_count_says_so_and_gives_no_total() {
        let stop = SearchControl::new(false);
        stop.stop();
        let mut out = Vec::new();
        let pos = Position::start(14).unwrap();
        let got = write_perft_until(&mut out, &pos, MAX_PERFT_DEPTH, true, &stop).unwrap();
        assert_eq!(got, None);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "info string perft stopped: 0 of 6 root moves counted, no total\n"
        );
    }
}
