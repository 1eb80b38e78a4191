//! Exact cube decisions at the end of a money game: a two-sided table of
//! cubeful equities for every bear-off where each side has at most
//! [`CHECKERS`] checkers left, all home (852,000 positions, the same reach
//! as GNU Backgammon's two-sided database).
//!
//! Janowski's model, which prices the cube everywhere else, treats the
//! cube's future as a fixed fraction of a fully live cube. In the last
//! rolls of a game that is far off: when the opponent finishes next roll
//! whatever happens, owning the cube is worth nothing and a player with 64%
//! must double (the take is worth 0.556 against the no double's 0.278),
//! where the model's 0.6 efficiency said no double. Here the equities come
//! from the game itself, by backward induction over the rolls: no gammon
//! is possible (each side has borne off at least nine checkers), so a game
//! is worth one cube to its winner, and each player plays each roll to
//! maximise their cubeful equity.
//!
//! Equities are per cube (multiply by the cube's value), for the player on
//! roll, before the roll, without doubling now, for each owner of the cube:
//! [`CubefulBearoff::no_double`]. The decision follows:
//! [`CubefulBearoff::decide`].

use crate::bearoff::{home_boards, home_of, lone_board, rank, POSITIONS};
use crate::cube::{CubeDecision, CubeState, Owner};
use crate::files::{bytes_f32, f32_bytes, Cached};
use crate::search::weight;
use backgammon_rules::{Board, Dice, MoveList, Side};
use std::path::Path;
use std::sync::OnceLock;

/// Checkers each side has left, at most, in the table.
pub const CHECKERS: u8 = 6;
/// Home boards of at most [`CHECKERS`] checkers: C(6 + 6, 6).
const SIDES: usize = 924;

/// The owner index of the cube seen from the other side.
const fn flipped(owner: usize) -> usize {
    [0, 2, 1][owner]
}

/// The table's index of a cube owner: centred, the player on roll, the
/// opponent.
const fn owner_index(owner: Owner) -> usize {
    match owner {
        Owner::Centred => 0,
        Owner::Me => 1,
        Owner::Opponent => 2,
    }
}

/// The generated table.
pub struct CubefulBearoff {
    /// Index among the table's home boards of each of the one-sided
    /// database's 54,264 ranks; `u16::MAX` beyond [`CHECKERS`].
    index: Vec<u16>,
    /// `nd[(me * SIDES + them) * 3 + owner]`: the no-double equity per
    /// cube of the player on roll with home board `me` against `them`.
    nd: Vec<f32>,
}

impl std::fmt::Debug for CubefulBearoff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CubefulBearoff")
    }
}

/// Every home board of at most [`CHECKERS`] checkers with its pips, in
/// order of pips (the empty board first).
fn small_boards() -> Vec<([u8; 6], u32)> {
    let mut out = home_boards(CHECKERS);
    debug_assert_eq!(out.len(), SIDES);
    out.sort_by_key(|&(_, pips)| pips);
    out
}

/// The table's index of each of the one-sided database's ranks
/// (`u16::MAX` where a board has too many checkers).
fn index_of(boards: &[([u8; 6], u32)]) -> Vec<u16> {
    let mut index = vec![u16::MAX; POSITIONS];
    for (i, (c, _)) in boards.iter().enumerate() {
        index[rank(c)] = i as u16;
    }
    index
}

/// The cache of the table: 10 MB, read in milliseconds where generating
/// takes a third of a CPU-second (an engine's `isready` makes it).
const CACHE: Cached<CubefulBearoff> = Cached {
    file: "bearoff-cube-GHBOFC01.bin",
    magic: b"GHBOFC01",
    make: CubefulBearoff::generate,
    body: CubefulBearoff::body,
    read: CubefulBearoff::read,
};

/// Per board and roll, the distinct boards its legal moves leave.
fn successors(boards: &[([u8; 6], u32)], index: &[u16]) -> Vec<[Vec<u16>; 21]> {
    let mut moves = Box::<MoveList>::default();
    boards
        .iter()
        .map(|(c, _)| {
            let board = lone_board(c);
            let rolls: Vec<Vec<u16>> = Dice::all()
                .map(|dice| {
                    board.legal_moves_into(dice, &mut moves);
                    let mut after: Vec<u16> = moves
                        .boards()
                        .iter()
                        .map(|b| index[rank(&home_of(b))])
                        .collect();
                    after.sort_unstable();
                    after.dedup();
                    after
                })
                .collect();
            rolls.try_into().expect("21 rolls")
        })
        .collect()
}

impl CubefulBearoff {
    /// Generates the table (about a third of a CPU-second).
    pub fn generate() -> CubefulBearoff {
        let boards = small_boards();
        let index = index_of(&boards);
        let next = successors(&boards, &index);
        let weights: Vec<f32> = Dice::all().map(weight).collect();
        let mut nd = vec![0.0f32; SIDES * SIDES * 3];
        // A pair's successors have fewer pips in all: fill by the sum.
        let mut pairs: Vec<(usize, usize)> = (1..SIDES)
            .flat_map(|m| (1..SIDES).map(move |t| (m, t)))
            .collect();
        pairs.sort_by_key(|&(m, t)| boards[m].1 + boards[t].1);
        for (me, them) in pairs {
            let mut e = [0.0f32; 3];
            for (roll, w) in next[me].iter().zip(&weights) {
                let mut best = [f32::NEG_INFINITY; 3];
                for &a in roll {
                    let after = match a {
                        0 => [1.0; 3],
                        a => values(&nd, them, a as usize).map(|v| -v),
                    };
                    for (o, b) in best.iter_mut().enumerate() {
                        // The opponent sees the cube's owner flipped.
                        *b = b.max(after[flipped(o)]);
                    }
                }
                for (eo, b) in e.iter_mut().zip(best) {
                    *eo += w * b;
                }
            }
            nd[(me * SIDES + them) * 3..][..3].copy_from_slice(&e);
        }
        CubefulBearoff { index, nd }
    }

    /// The table of this process, on first use read from the cache (see
    /// [`crate::files::cache_dir`]) or generated and cached.
    pub fn get() -> &'static CubefulBearoff {
        static TABLE: OnceLock<CubefulBearoff> = OnceLock::new();
        TABLE.get_or_init(|| CACHE.load_or_make())
    }

    /// The table from the cache file in `dir`, or generated and cached there.
    pub fn cached_in(dir: &Path) -> CubefulBearoff {
        CACHE.load_or_make_in(dir)
    }

    fn body(&self) -> Vec<u8> {
        f32_bytes(self.nd.iter().copied())
    }

    fn read(body: &[u8]) -> Option<CubefulBearoff> {
        if body.len() != SIDES * SIDES * 3 * 4 {
            return None;
        }
        Some(CubefulBearoff {
            index: index_of(&small_boards()),
            nd: bytes_f32(body).collect(),
        })
    }

    /// True when both sides of `board` are home with at most [`CHECKERS`]
    /// checkers left and nobody has won.
    pub fn covers(board: &Board) -> bool {
        let left = |s: Side| 15 - board.off(s);
        board.all_home(Side::OnRoll)
            && board.all_home(Side::Opponent)
            && (1..=CHECKERS).contains(&left(Side::OnRoll))
            && (1..=CHECKERS).contains(&left(Side::Opponent))
    }

    /// The table's indices of the two home boards of a covered `board`.
    fn pair(&self, board: &Board) -> (usize, usize) {
        let me = self.index[rank(&home_of(board))] as usize;
        let them = self.index[rank(&home_of(&board.swapped()))] as usize;
        (me, them)
    }

    /// The equity per cube of the player on roll of a covered `board`, who
    /// does not double now, with the cube owned by `owner`.
    pub fn no_double(&self, board: &Board, owner: Owner) -> f64 {
        let (me, them) = self.pair(board);
        self.nd[(me * SIDES + them) * 3 + owner_index(owner)] as f64
    }

    /// The money cube decision on a covered `board` (the cube as `state`
    /// says; gammons cannot happen, so the Jacoby rule changes nothing):
    /// equities in points, as [`crate::cube::decide`] gives them.
    pub fn decide(&self, board: &Board, state: &CubeState) -> CubeDecision {
        let v = state.cube as f64;
        CubeDecision {
            no_double: v * self.no_double(board, state.owner),
            double_take: 2.0 * v * self.no_double(board, Owner::Opponent),
            double_pass: v,
        }
    }
}

/// The equities per cube of the player on roll with `me` against `them`,
/// for each owner of the cube (in [`owner_index`]'s order), doubling where
/// that is best: the opponent then owns a cube of twice the value, or
/// passes.
fn values(nd: &[f32], me: usize, them: usize) -> [f32; 3] {
    let e: [f32; 3] = nd[(me * SIDES + them) * 3..][..3].try_into().unwrap();
    let opp = owner_index(Owner::Opponent);
    let doubled = (2.0 * e[opp]).min(1.0);
    std::array::from_fn(|o| if o == opp { e[o] } else { e[o].max(doubled) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_last_roll_is_doubled_and_taken_at_its_cubeless_odds() {
        // GNU Backgammon 2-ply on BAAASAAAAAAAAA (its two-sided database):
        // cubeless equity +0.278, no double +0.278, double/take +0.556:
        // the opponent comes off next roll whatever happens, so owning the
        // cube is worth nothing and the double is right.
        let table = CubefulBearoff::get();
        let b: Board = "BAAASAAAAAAAAA".parse().unwrap();
        assert!(CubefulBearoff::covers(&b));
        let d = table.decide(&b, &CubeState::money(true));
        assert!((d.no_double - 0.278).abs() < 0.001, "{d:?}");
        assert!((d.double_take - 0.556).abs() < 0.001, "{d:?}");
        assert!(d.double() && d.take());
    }

    #[test]
    fn the_cache_gives_back_the_generated_table() {
        let dir = tempfile::tempdir().unwrap();
        let made = CubefulBearoff::cached_in(dir.path());
        assert!(dir.path().join(CACHE.file).exists());
        let read = CubefulBearoff::cached_in(dir.path());
        assert!(read.nd == made.nd && read.index == made.index);
        let mut bytes = CACHE.to_bytes(&made);
        bytes[100] ^= 1;
        assert!(CACHE.from_bytes(&bytes).is_none());
    }
}
