//! The one-sided bear-off database: for every way to have up to 15 checkers
//! on the six home points (54,264 positions), the distribution of the
//! number of rolls needed to bear them all off, playing each roll to
//! minimise the expected number of rolls; and for the 15,504 positions with
//! all 15 checkers on the board, the distribution of the rolls needed to
//! bear off the first one (for gammons). Generated here (about 1.3
//! CPU-seconds) with the rules crate's move generator, kept for the
//! process's life, and cached on disk (see [`cache_dir`]) so that the
//! next process reads it in milliseconds instead: an engine's first
//! `isready` must not take seconds on a loaded machine, where match
//! runners call that a stall.
//!
//! When both sides are home (a race of two bear-offs), the chances follow
//! from the two distributions as if the sides were independent: the player
//! on roll who needs `n` rolls wins when the opponent needs `n` or more.

pub use crate::files::cache_dir;
use crate::files::{bytes_f32, f32_bytes, Cached};
use backgammon_rules::{Board, Dice, MoveList, Side};
use std::path::Path;
use std::sync::OnceLock;

/// Home points.
const HOME: usize = 6;
/// Rolls a distribution covers; no position needs more.
pub const MAX_ROLLS: usize = 32;
/// Positions of up to 15 checkers on six points: C(21, 6).
pub const POSITIONS: usize = 54_264;

/// `ways[k][m]`: the ways to put at most `m` checkers on `k` points, C(m + k, k).
const fn ways_table() -> [[u32; 16]; HOME + 1] {
    let mut t = [[0u32; 16]; HOME + 1];
    let mut m = 0;
    while m < 16 {
        t[0][m] = 1;
        m += 1;
    }
    let mut k = 1;
    while k <= HOME {
        let mut m = 0;
        while m < 16 {
            // C(m + k, k) = sum over the count c on the k-th point of C(m - c + k - 1, k - 1).
            let mut c = 0;
            let mut s = 0;
            while c <= m {
                s += t[k - 1][m - c];
                c += 1;
            }
            t[k][m] = s;
            m += 1;
        }
        k += 1;
    }
    t
}

const WAYS: [[u32; 16]; HOME + 1] = ways_table();

/// The index of a home board (`c[i]` checkers on point `i + 1`, at most 15
/// in all) among the 54,264.
#[inline]
pub fn rank(c: &[u8; HOME]) -> usize {
    let mut r = 0u32;
    let mut rem = 15usize;
    for p in (1..=HOME).rev() {
        let n = c[p - 1] as usize;
        for j in 0..n {
            r += WAYS[p - 1][rem - j];
        }
        rem -= n;
    }
    r as usize
}

/// The generated tables.
pub struct Bearoff {
    /// Per position: P(exactly n rolls to bear everything off), n < 32.
    off: Vec<[f32; MAX_ROLLS]>,
    /// Per position of 15 checkers (else zero): P(n rolls to bear off the first).
    first: Vec<[f32; MAX_ROLLS]>,
    /// Expected rolls to bear off, per position.
    mean: Vec<f32>,
}

/// Every home board, with its pips.
fn all_positions() -> Vec<([u8; HOME], u32)> {
    home_boards(15)
}

/// Every home board of at most `checkers` checkers, with its pips, in
/// lexicographic order of the counts (the empty board first).
pub(crate) fn home_boards(checkers: u8) -> Vec<([u8; HOME], u32)> {
    let mut out = Vec::new();
    let mut c = [0u8; HOME];
    fn rec(p: usize, left: u8, c: &mut [u8; HOME], out: &mut Vec<([u8; HOME], u32)>) {
        if p == HOME {
            let pips = c
                .iter()
                .enumerate()
                .map(|(i, &n)| (i as u32 + 1) * n as u32)
                .sum();
            out.push((*c, pips));
            return;
        }
        for n in 0..=left {
            c[p] = n;
            rec(p + 1, left - n, c, out);
        }
        c[p] = 0;
    }
    rec(0, checkers, &mut c, &mut out);
    out
}

/// The board with `c` home for the player on roll and nobody else on it.
pub(crate) fn lone_board(c: &[u8; HOME]) -> Board {
    let mut me = [0u8; 25];
    me[..HOME].copy_from_slice(c);
    Board::from_counts(&me, &[0; 25]).expect("at most 15 checkers")
}

pub(crate) fn home_of(b: &Board) -> [u8; HOME] {
    let c = b.counts(Side::OnRoll);
    std::array::from_fn(|i| c[i])
}

fn mean(d: &[f32; MAX_ROLLS]) -> f32 {
    d.iter().enumerate().map(|(n, p)| n as f32 * p).sum()
}

impl std::fmt::Debug for Bearoff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Bearoff")
    }
}

impl Bearoff {
    /// Generates the tables.
    pub fn generate() -> Bearoff {
        let mut positions = all_positions();
        debug_assert_eq!(positions.len(), POSITIONS);
        positions.sort_by_key(|&(_, pips)| pips);
        let mut off = vec![[0.0f32; MAX_ROLLS]; POSITIONS];
        let mut first = vec![[0.0f32; MAX_ROLLS]; POSITIONS];
        let mut means = vec![0.0f32; POSITIONS];
        let mut moves = Box::<MoveList>::default();
        for &(c, pips) in &positions {
            let r = rank(&c);
            if pips == 0 {
                off[r][0] = 1.0;
                continue;
            }
            let on_board: u8 = c.iter().sum();
            let board = lone_board(&c);
            let mut d = [0.0f64; MAX_ROLLS];
            let mut f = [0.0f64; MAX_ROLLS];
            for dice in Dice::all() {
                let w = if dice.is_double() { 1.0 } else { 2.0 } / 36.0;
                board.legal_moves_into(dice, &mut moves);
                let mut best = (f32::INFINITY, 0usize);
                let mut best_first = (f32::INFINITY, 0usize, false);
                for after in moves.boards() {
                    let h = home_of(after);
                    let s = rank(&h);
                    if means[s] < best.0 {
                        best = (means[s], s);
                    }
                    if on_board == 15 {
                        let bore = h.iter().sum::<u8>() < 15;
                        let m = if bore { 0.0 } else { mean(&first[s]) };
                        if m < best_first.0 {
                            best_first = (m, s, bore);
                        }
                    }
                }
                for n in 1..MAX_ROLLS {
                    d[n] += w * off[best.1][n - 1] as f64;
                }
                if on_board == 15 {
                    if best_first.2 {
                        f[1] += w;
                    } else {
                        for n in 1..MAX_ROLLS {
                            f[n] += w * first[best_first.1][n - 1] as f64;
                        }
                    }
                }
            }
            off[r] = d.map(|x| x as f32);
            means[r] = mean(&off[r]);
            if on_board == 15 {
                first[r] = f.map(|x| x as f32);
            }
        }
        Bearoff {
            off,
            first,
            mean: means,
        }
    }

    /// The tables of this process, on first use read from the cache or
    /// generated (and cached).
    pub fn get() -> &'static Bearoff {
        static TABLES: OnceLock<Bearoff> = OnceLock::new();
        TABLES.get_or_init(|| CACHE.load_or_make())
    }

    /// The tables from the cache file in `dir` if it holds a whole, valid
    /// copy; else generated and written there.
    pub fn cached_in(dir: &Path) -> Bearoff {
        CACHE.load_or_make_in(dir)
    }

    /// The cache file's bytes: [`CACHE_MAGIC`], the two tables as
    /// little-endian f32 (positions in rank order), then a hash.
    pub fn to_bytes(&self) -> Vec<u8> {
        CACHE.to_bytes(self)
    }

    /// The tables from [`Bearoff::to_bytes`]'s bytes; `None` for anything
    /// else (another version, a cut or damaged file).
    pub fn from_bytes(b: &[u8]) -> Option<Bearoff> {
        CACHE.from_bytes(b)
    }

    fn body(&self) -> Vec<u8> {
        f32_bytes(self.off.iter().chain(&self.first).flatten().copied())
    }

    fn read(body: &[u8]) -> Option<Bearoff> {
        if body.len() != 2 * POSITIONS * MAX_ROLLS * 4 {
            return None;
        }
        let mut floats = bytes_f32(body);
        let mut table = || -> Vec<[f32; MAX_ROLLS]> {
            (0..POSITIONS)
                .map(|_| std::array::from_fn(|_| floats.next().unwrap()))
                .collect()
        };
        let (off, first) = (table(), table());
        let mean = off.iter().map(mean).collect();
        Some(Bearoff { off, first, mean })
    }

    /// Expected rolls to bear off a home board.
    pub fn mean_rolls(&self, c: &[u8; HOME]) -> f32 {
        self.mean[rank(c)]
    }

    /// The distribution of rolls to bear off a home board.
    pub fn rolls(&self, c: &[u8; HOME]) -> &[f32; MAX_ROLLS] {
        &self.off[rank(c)]
    }

    /// True when both sides of `board` have every checker home or off.
    pub fn covers(board: &Board) -> bool {
        board.all_home(Side::OnRoll) && board.all_home(Side::Opponent)
    }

    /// The chances of the player on roll (win, win gammon, win backgammon,
    /// lose gammon, lose backgammon) when [`Bearoff::covers`] the board and
    /// nobody has won yet.
    pub fn probs(&self, board: &Board) -> [f32; 5] {
        let me = home_of(board);
        let them = home_of(&board.swapped());
        let (pm, po) = (&self.off[rank(&me)], &self.off[rank(&them)]);
        // P(opponent needs n or more), for n = 0..32.
        let mut tail = [0.0f32; MAX_ROLLS + 1];
        for n in (0..MAX_ROLLS).rev() {
            tail[n] = tail[n + 1] + po[n];
        }
        let win: f32 = (1..MAX_ROLLS).map(|n| pm[n] * tail[n]).sum();
        let tail_of = |d: &[f32; MAX_ROLLS]| {
            let mut t = [0.0f32; MAX_ROLLS + 1];
            for n in (0..MAX_ROLLS).rev() {
                t[n] = t[n + 1] + d[n];
            }
            t
        };
        let win_gammon = if board.off(Side::Opponent) == 0 {
            let fo = tail_of(&self.first[rank(&them)]);
            (1..MAX_ROLLS).map(|n| pm[n] * fo[n]).sum()
        } else {
            0.0
        };
        let lose_gammon = if board.off(Side::OnRoll) == 0 {
            let fm = tail_of(&self.first[rank(&me)]);
            (1..MAX_ROLLS).map(|n| po[n] * fm[n + 1]).sum()
        } else {
            0.0
        };
        [win.clamp(0.0, 1.0), win_gammon, 0.0, lose_gammon, 0.0]
    }
}

/// Names the cache's format and the generation that filled it: change it
/// whenever [`Bearoff::generate`]'s results change.
pub const CACHE_MAGIC: &[u8; 8] = b"GHBOFF01";
/// The cache file in [`cache_dir`].
pub const CACHE_FILE: &str = "bearoff-GHBOFF01.bin";

const CACHE: Cached<Bearoff> = Cached {
    file: CACHE_FILE,
    magic: CACHE_MAGIC,
    make: Bearoff::generate,
    body: Bearoff::body,
    read: Bearoff::read,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_onto_the_positions() {
        let all = all_positions();
        assert_eq!(all.len(), POSITIONS);
        let mut seen = vec![false; POSITIONS];
        for (c, _) in &all {
            let r = rank(c);
            assert!(!seen[r]);
            seen[r] = true;
        }
        assert_eq!(rank(&[0; 6]), 0);
        assert_eq!(rank(&[0, 0, 0, 0, 0, 15]), POSITIONS - 1);
    }

    #[test]
    fn known_bear_offs() {
        let db = Bearoff::get();
        // One checker on the 1-point: one roll. Two on the 1-point: one roll.
        assert_eq!(db.rolls(&[1, 0, 0, 0, 0, 0])[1], 1.0);
        assert_eq!(db.rolls(&[2, 0, 0, 0, 0, 0])[1], 1.0);
        // One checker on the 6-point: off in one roll unless the roll moves
        // fewer than 6 pips: 21, 31, 41, 32 and 11, 9 rolls of 36.
        let d = db.rolls(&[0, 0, 0, 0, 0, 1]);
        assert!((d[1] - 27.0 / 36.0).abs() < 1e-6, "{d:?}");
        // 15 on the 1-point: 8 rolls unless doubles come (each bears off 4).
        assert!(db.mean_rolls(&[15, 0, 0, 0, 0, 0]) < 8.0);
        // Each distribution sums to one.
        for r in [rank(&[3, 2, 4, 1, 0, 5]), rank(&[0, 0, 0, 0, 0, 15])] {
            let s: f32 = db.off[r].iter().sum();
            assert!((s - 1.0).abs() < 1e-4, "{s}");
        }
        let f: f32 = db.first[rank(&[0, 0, 0, 0, 0, 15])].iter().sum();
        assert!((f - 1.0).abs() < 1e-4, "{f}");
    }

    #[test]
    fn a_two_sided_race_is_judged_from_both_distributions() {
        let db = Bearoff::get();
        // Me: one checker on the 1-point (certain win on roll).
        let mut me = [0u8; 25];
        me[0] = 1;
        let mut them = [0u8; 25];
        them[5] = 15;
        let b = Board::from_counts(&me, &them).unwrap();
        assert!(Bearoff::covers(&b));
        let p = db.probs(&b);
        assert_eq!(p[0], 1.0);
        assert!((p[1] - 1.0).abs() < 1e-6, "{p:?}");
        // Seen from them: they lose, a gammon unless their one roll bears a
        // checker off from the 6-point stack: a 6, 5-1, 4-2, 3-3 or 2-2
        // (17 of 36; 5-2 must move 6/4 and 6/1 first, and cannot).
        let q = db.probs(&b.swapped());
        assert!(q[0] < 1e-6 && (q[3] - 19.0 / 36.0).abs() < 1e-6, "{q:?}");
    }

    #[test]
    fn the_cache_gives_back_the_generated_tables_and_refuses_a_damaged_file() {
        let dir = tempfile::tempdir().unwrap();
        let made = Bearoff::cached_in(dir.path());
        let path = dir.path().join(CACHE_FILE);
        let bytes = std::fs::read(&path).expect("the first use writes the cache");
        let read = Bearoff::cached_in(dir.path());
        assert!(read.off == made.off && read.first == made.first && read.mean == made.mean);
        assert!(made.off == Bearoff::get().off && made.first == Bearoff::get().first);
        // A flipped bit, a cut file, another version: refused, regenerated.
        let mut bad = bytes.clone();
        bad[1000] ^= 1;
        assert!(Bearoff::from_bytes(&bad).is_none());
        assert!(Bearoff::from_bytes(&bytes[..bytes.len() - 1]).is_none());
        let mut other = bytes.clone();
        other[7] = b'9';
        assert!(Bearoff::from_bytes(&other).is_none());
        std::fs::write(&path, &bad).unwrap();
        let again = Bearoff::cached_in(dir.path());
        assert!(again.off == made.off);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "the damaged cache is rewritten"
        );
    }
}
