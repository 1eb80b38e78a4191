//! perft: counting the leaves of the game tree to a fixed depth, the standard
//! check that move generation is exactly right.

use super::mask::{ABC, ALL, QA, QB, QC, QD};
use super::movegen::{lone_reach, next_quadrant, smear_down, smear_up};
use super::moves::Move;
use super::position::Position;

/// Number of leaf nodes `depth` plies below `pos`.
///
/// perft(p, 0) = 1; a finished game has no moves, so it counts 0 at any depth
/// of 1 or more; a forced pass is one move. The last two plies are
/// bulk-counted (see [`perft2`]).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        2 => perft2(pos),
        _ => {
            let mut total = 0;
            for &m in pos.legal_moves().iter() {
                let mut child = *pos;
                child.play_unchecked(m);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

/// perft split by root move, in generation order: `(move, count)` pairs.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}

/// perft(pos, 2) without playing most of the moves.
///
/// The opponent's action count is linear in the per-quadrant numbers of empty
/// points and of "open" empty points (before the quadrant's first wall), with
/// coefficients that depend only on the opponent's checkers and on the walls.
/// A step that neither builds nor breaks a wall, and an entry, change only
/// which points are empty, so the opponent's count after each such move is the
/// current count plus a per-point delta for the vacated point minus one for the
/// filled point. Summing over a checker's destinations needs a few popcounts.
/// Moves that change walls or the score (builds, wall tops, bear-offs), and
/// children where the opponent might have to pass, are played out.
pub fn perft2(pos: &Position) -> u64 {
    if pos.is_won() {
        return 0;
    }
    let s = pos.side.index();
    let o = 1 - s;
    if pos.count_actions(pos.side) == 0 {
        let mut child = *pos;
        child.play_unchecked(Move::PASS);
        return if pos.count_actions(pos.side.opposite()) == 0 {
            0
        } else {
            child.count_legal_moves() as u64
        };
    }
    let walls = pos.wall[0] | pos.wall[1];
    let empty = !(pos.lone[0] | pos.lone[1] | walls) & ALL;
    let open = !smear_up(walls) & ALL;
    let free_o = pos.lone[o] & !smear_down(walls);
    let pc = |m: u32| m.count_ones() as i64;

    // What filling an empty point costs the opponent, per quadrant, and the
    // extra cost when the point is open.
    let fill_a = (pos.to_enter[o] > 0) as i64;
    let fill_c = pc(pos.wall[o] & QB);
    let fill_d = pc(pos.wall[o] & QC);
    let open_b = pc(free_o & QA);
    let open_c = pc(free_o & QB);
    let open_d = pc(free_o & QC);
    let delta = |t: u32| -> i64 {
        let to = t & open;
        fill_a * pc(t & QA)
            + fill_c * pc(t & QC)
            + fill_d * pc(t & QD)
            + open_b * pc(to & QB)
            + open_c * pc(to & QC)
            + open_d * pc(to & QD)
    };
    let max_delta = fill_a.max(open_b).max(fill_c + open_c).max(fill_d + open_d);
    let c0 = pos.count_actions(pos.side.opposite()) as i64;

    let mut total: i64 = 0;
    let played = |m: Move| {
        let mut child = *pos;
        child.play_unchecked(m);
        child.count_legal_moves() as u64
    };
    let mut explicit: u64 = 0;

    if pos.to_enter[s] > 0 {
        let targets = empty & QA;
        if c0 - fill_a > 0 {
            total += pc(targets) * (c0 - fill_a);
        } else {
            for q in bits(targets) {
                explicit += played(Move::enter(point(q)));
            }
        }
    }
    let own_lone = pos.lone[s];
    for p in bits(own_lone & ABC) {
        let reachable = lone_reach(p, walls);
        let targets = empty & reachable;
        let base = c0 + delta(1 << p);
        if base - max_delta > 0 {
            total += pc(targets) * base - delta(targets);
        } else {
            for q in bits(targets) {
                explicit += played(Move::step_unchecked(point(p), point(q)));
            }
        }
        let build = own_lone & reachable & (1 << (p + 6));
        if build != 0 {
            explicit += played(Move::step_unchecked(point(p), point(p + 6)));
        }
    }
    let own_wall = pos.wall[s];
    for p in bits(own_wall & ABC) {
        for q in bits((empty | (own_lone & (1 << (p + 6)))) & next_quadrant(p)) {
            explicit += played(Move::step_unchecked(point(p), point(q)));
        }
    }
    for p in bits(own_wall & QD) {
        explicit += played(Move::bear_off(point(p)));
    }
    total as u64 + explicit
}

#[inline(always)]
fn point(i: u32) -> super::types::Point {
    super::types::Point::from_index_unchecked(i as u8)
}

/// The indices of the set bits of `m`, lowest first.
#[inline(always)]
fn bits(mut m: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros();
            m &= m - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// perft(p, 2) the slow way: play every move, count every reply.
    fn perft2_by_playing(pos: &Position) -> u64 {
        pos.legal_moves()
            .iter()
            .map(|&m| {
                let mut child = *pos;
                child.play_unchecked(m);
                child.count_legal_moves() as u64
            })
            .sum()
    }

    #[test]
    fn bulk_depth_two_equals_playing_every_move_along_random_games() {
        // Given positions from seeded random playouts of every size N,
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for game in 0..3000 {
            let n = 2 * (1 + game % 7) as u8;
            let mut pos = Position::start(n).unwrap();
            loop {
                // When depth 2 is counted in bulk, Then it equals playing it out.
                assert_eq!(perft2(&pos), perft2_by_playing(&pos), "{pos}");
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
