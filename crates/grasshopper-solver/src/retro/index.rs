//! Perfect indexing of the positions of a half-phase.
//!
//! A position is taken colour-normalised (the side to move is called the
//! mover) and split into its *half-phase*: checkers each player has to enter,
//! checkers each has on the board, and the scoring run relative to the mover
//! (none, the mover scored last, the other scored last). Inside a half-phase
//! the positions fall into *slices*: one per pair of quadrant profiles
//! (per player and quadrant: lone checkers and walls). Inside a slice a
//! position is one arrangement per quadrant of the slice's checkers on the
//! quadrant's six points, numbered by its rank among the arrangements of the
//! same composition; the four ranks are the digits of a mixed-radix number.
//! No index is wasted: every index of a slice names a position.
//!
//! Slices whose value is settled without a search (see
//! [`grasshopper_rules::Decided`]) get no room: the last scorer has a wall in
//! D. Half-phases in which neither player can still win (too few checkers
//! left) are all draws and get no room either.

use grasshopper_rules::{Color, Decided, Parts, Position, Run};
use std::sync::OnceLock;

/// Points per quadrant.
const Q: u32 = 6;
/// Quadrant contents: 6 base-5 digits (empty, mover lone, mover wall, other
/// lone, other wall).
const CODES: usize = 15_625;
/// Largest number of checkers per player.
pub const MAX_N: u8 = 14;

/// Per-quadrant tables, built once.
struct Quads {
    /// `p5[m]`: the sum of `5^i` over the bits `i` of the 6-bit mask `m`.
    p5: [u16; 64],
    /// Rank of a code among the codes of its composition (ascending).
    rank: Vec<u16>,
    /// The codes of each composition, ascending.
    codes: Vec<Vec<u16>>,
    /// The four 6-bit masks of a code: mover lone, mover wall, other lone,
    /// other wall, at bits 0, 6, 12, 18.
    masks: Vec<u32>,
}

/// The id of a composition: counts of mover lone, mover wall, other lone,
/// other wall checkers (points) in a quadrant.
#[inline(always)]
const fn comp_id(a: u32, b: u32, c: u32, e: u32) -> usize {
    (a + 7 * (b + 7 * (c + 7 * e))) as usize
}

fn quads() -> &'static Quads {
    static Q6: OnceLock<Quads> = OnceLock::new();
    Q6.get_or_init(|| {
        let mut p5 = [0u16; 64];
        for (m, v) in p5.iter_mut().enumerate() {
            *v = (0..6)
                .filter(|i| m >> i & 1 == 1)
                .map(|i| 5u16.pow(i))
                .sum();
        }
        let mut rank = vec![0u16; CODES];
        let mut codes = vec![Vec::new(); 7 * 7 * 7 * 7];
        let mut masks = vec![0u32; CODES];
        for (code, (r, mk)) in rank.iter_mut().zip(masks.iter_mut()).enumerate() {
            let mut x = code;
            let mut ms = [0u32; 4];
            for i in 0..6 {
                let d = x % 5;
                x /= 5;
                if d > 0 {
                    ms[d - 1] |= 1 << i;
                }
            }
            let c = comp_id(
                ms[0].count_ones(),
                ms[1].count_ones(),
                ms[2].count_ones(),
                ms[3].count_ones(),
            );
            *r = codes[c].len() as u16;
            codes[c].push(code as u16);
            *mk = ms[0] | ms[1] << 6 | ms[2] << 12 | ms[3] << 18;
        }
        Quads {
            p5,
            rank,
            codes,
            masks,
        }
    })
}

/// One player's quadrant profile: lone checkers and walls per quadrant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    pub lone: [u8; 4],
    pub wall: [u8; 4],
}

impl Profile {
    /// Dense code (3 bits per count; A holds no wall).
    #[inline(always)]
    fn code(lone: u32, wall: u32) -> usize {
        let c = |m: u32, q: u32| (m >> (Q * q) & 0x3F).count_ones() as usize;
        c(lone, 0)
            | c(lone, 1) << 3
            | c(wall, 1) << 6
            | c(lone, 2) << 9
            | c(wall, 2) << 12
            | c(lone, 3) << 15
            | c(wall, 3) << 18
    }

    fn code_of(&self) -> usize {
        let (l, w) = (&self.lone, &self.wall);
        l[0] as usize
            | (l[1] as usize) << 3
            | (w[1] as usize) << 6
            | (l[2] as usize) << 9
            | (w[2] as usize) << 12
            | (l[3] as usize) << 15
            | (w[3] as usize) << 18
    }

    /// Checkers on the board.
    pub fn checkers(&self) -> u8 {
        (0..4).map(|q| self.lone[q] + 2 * self.wall[q]).sum()
    }

    /// Sum over checkers of their quadrant (0 for A .. 3 for D): every step
    /// adds exactly one.
    pub fn progress(&self) -> u8 {
        (0..4)
            .map(|q| q as u8 * (self.lone[q] + 2 * self.wall[q]))
            .sum()
    }
}

/// Every profile, by number of checkers on the board.
struct Profiles {
    by_b: Vec<Vec<Profile>>,
    /// Profile code to its number among the profiles with as many checkers.
    id: Vec<u16>,
}

fn profiles() -> &'static Profiles {
    static P: OnceLock<Profiles> = OnceLock::new();
    P.get_or_init(|| {
        let mut by_b = vec![Vec::new(); MAX_N as usize + 1];
        let mut id = vec![u16::MAX; 1 << 21];
        let r = 0..=6u8;
        for la in r.clone() {
            for lb in r.clone() {
                for wb in 0..=6 - lb {
                    for lc in r.clone() {
                        for wc in 0..=6 - lc {
                            for ld in r.clone() {
                                for wd in 0..=6 - ld {
                                    let p = Profile {
                                        lone: [la, lb, lc, ld],
                                        wall: [0, wb, wc, wd],
                                    };
                                    let b = p.checkers();
                                    if b <= MAX_N {
                                        id[p.code_of()] = by_b[b as usize].len() as u16;
                                        by_b[b as usize].push(p);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        Profiles { by_b, id }
    })
}

/// A half-phase: checkers to enter and on the board of the mover (`tm`,
/// `bm`) and of the other (`to`, `bo`), and the run relative to the mover:
/// 0 nobody has scored, 1 the mover scored last, 2 the other did.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HalfKey {
    pub tm: u8,
    pub bm: u8,
    pub to: u8,
    pub bo: u8,
    pub r: u8,
}

/// Number of dense half-phase ids.
pub const HALF_IDS: usize = 15 * 15 * 15 * 15 * 3;

impl HalfKey {
    /// The same phase seen by the other player (after a step or a pass).
    pub const fn flip(self) -> HalfKey {
        HalfKey {
            tm: self.to,
            bm: self.bo,
            to: self.tm,
            bo: self.bm,
            r: [0, 2, 1][self.r as usize],
        }
    }

    /// A dense number below [`HALF_IDS`].
    #[inline(always)]
    pub const fn dense(self) -> usize {
        (((self.tm as usize * 15 + self.bm as usize) * 15 + self.to as usize) * 15
            + self.bo as usize)
            * 3
            + self.r as usize
    }

    /// Checkers the mover and the other have left (to enter and on the board).
    pub const fn left(self) -> (u8, u8) {
        (self.tm + self.bm, self.to + self.bo)
    }

    /// True when the half-phase occurs in the game of `n` checkers each:
    /// even counts left, nobody has scored exactly when both have all `n`,
    /// and scores alternate until the winning one.
    pub fn occurs_in(self, n: u8) -> bool {
        let (lm, lo) = self.left();
        if lm % 2 != 0 || lo % 2 != 0 || lm > n || lo > n {
            return false;
        }
        match self.r {
            0 => lm == n && lo == n,
            1 => (lo == lm || lo == lm + 2) && lm + 2 <= n,
            _ => (lm == lo || lm == lo + 2) && lo + 2 <= n,
        }
    }

    /// True unless neither player has checkers enough to score twice in
    /// succession (then every position of the half-phase is a draw).
    pub fn someone_can_win(self) -> bool {
        let (lm, lo) = self.left();
        let need = |left: u8, scored_last: bool| left >= 4 || (left >= 2 && scored_last);
        need(lm, self.r == 1) || need(lo, self.r == 2)
    }

    /// The phase level: `3 * (to enter) + (on the board)` over both players.
    /// Entering lowers it by 2 and so does bearing off; nothing else changes it.
    pub const fn level(self) -> u8 {
        3 * (self.tm + self.to) + self.bm + self.bo
    }

    /// The half-phase of a position that is not won, else `None`.
    pub fn of(pos: &Position) -> Option<HalfKey> {
        let me = pos.side_to_move();
        let r = match pos.run() {
            None => 0,
            Some(Run { count: 2, .. }) => return None,
            Some(Run { color, .. }) if color == me => 1,
            Some(_) => 2,
        };
        let other = me.opposite();
        Some(HalfKey {
            tm: pos.to_enter(me),
            bm: pos.on_board(me),
            to: pos.to_enter(other),
            bo: pos.on_board(other),
            r,
        })
    }

    /// A position of this half-phase with White to move, from the masks of
    /// the mover and the other, with the least scores that fit the run.
    pub fn position(self, lone: [u32; 2], wall: [u32; 2]) -> Option<Position> {
        let (lm, lo) = self.left();
        let white = Color::White;
        let (score, run) = match self.r {
            0 => ([0, 0], None),
            1 => (
                if lo == lm { [1, 1] } else { [1, 0] },
                Some(Run {
                    color: white,
                    count: 1,
                }),
            ),
            _ => (
                if lo == lm { [1, 1] } else { [0, 1] },
                Some(Run {
                    color: white.opposite(),
                    count: 1,
                }),
            ),
        };
        Position::from_parts(Parts {
            lone,
            wall,
            to_enter: [self.tm, self.to],
            score,
            run,
            side: white,
        })
    }
}

/// One slice of a half-phase.
#[derive(Clone, Debug)]
pub struct Slice {
    /// First index of the slice in its half-phase.
    pub offset: u64,
    /// Positions in the slice.
    pub size: u64,
    /// Sum of both players' progress: a step leads to a slice one higher.
    pub level: u8,
    /// Composition of each quadrant.
    comps: [u16; 4],
    /// Arrangements of each quadrant.
    radix: [u64; 4],
}

/// The index of one half-phase.
pub struct Layout {
    pub key: HalfKey,
    np_o: usize,
    /// `slice_of[pm * np_o + po]`: the slice of a pair of profile ids.
    slice_of: Vec<u32>,
    pub slices: Vec<Slice>,
    pub size: u64,
}

/// True when every position of the slice is settled (see [`Decided`]): the
/// last scorer has a wall in D (a win for the mover when it is the mover, a
/// loss when it is the other and the mover has no wall in D to answer).
fn decided_slice(r: u8, pm: &Profile, po: &Profile) -> bool {
    match r {
        1 => pm.wall[3] > 0,
        2 => po.wall[3] > 0 && pm.wall[3] == 0,
        _ => false,
    }
}

impl Layout {
    /// The layout of `key` (empty when nobody can win in it).
    pub fn new(key: HalfKey) -> Layout {
        let ps = profiles();
        let q = quads();
        let (pms, pos) = (&ps.by_b[key.bm as usize], &ps.by_b[key.bo as usize]);
        let np_o = pos.len();
        let mut slice_of = vec![u32::MAX; pms.len() * np_o];
        let mut slices = Vec::new();
        let mut offset = 0u64;
        if key.someone_can_win() {
            for (i, pm) in pms.iter().enumerate() {
                'other: for (j, po) in pos.iter().enumerate() {
                    if decided_slice(key.r, pm, po) {
                        continue;
                    }
                    let mut comps = [0u16; 4];
                    let mut radix = [0u64; 4];
                    for k in 0..4 {
                        let (a, b, c, e) = (pm.lone[k], pm.wall[k], po.lone[k], po.wall[k]);
                        if a + b + c + e > 6 {
                            continue 'other;
                        }
                        let id = comp_id(a as u32, b as u32, c as u32, e as u32);
                        comps[k] = id as u16;
                        radix[k] = q.codes[id].len() as u64;
                    }
                    let size = radix.iter().product::<u64>();
                    slice_of[i * np_o + j] = slices.len() as u32;
                    slices.push(Slice {
                        offset,
                        size,
                        level: pm.progress() + po.progress(),
                        comps,
                        radix,
                    });
                    offset += size;
                }
            }
        }
        Layout {
            key,
            np_o,
            slice_of,
            slices,
            size: offset,
        }
    }

    /// The index of a position given as White-to-move masks (mover first),
    /// when its slice has room in this layout.
    #[inline(always)]
    pub fn index(&self, lone: [u32; 2], wall: [u32; 2]) -> Option<u64> {
        self.index_with(MoverPart::new(lone[0], wall[0]), lone[1], wall[1])
    }

    /// [`Layout::index`] with the mover's part worked out beforehand and the
    /// other's masks.
    #[inline(always)]
    pub fn index_with(&self, mover: MoverPart, lone: u32, wall: u32) -> Option<u64> {
        let io = profiles().id[Profile::code(lone, wall)] as usize;
        let s = *self.slice_of.get(mover.id * self.np_o + io)?;
        let slice = self.slices.get(s as usize)?;
        let q = quads();
        let mut idx = 0u64;
        for k in 0..4 {
            let sh = Q * k as u32;
            let code = mover.digits[k]
                + 3 * q.p5[(lone >> sh & 0x3F) as usize] as u32
                + 4 * q.p5[(wall >> sh & 0x3F) as usize] as u32;
            idx = idx * slice.radix[k] + q.rank[code as usize] as u64;
        }
        Some(slice.offset + idx)
    }

    /// The slice holding `index`.
    pub fn slice_at(&self, index: u64) -> Option<&Slice> {
        let i = self.slices.partition_point(|s| s.offset <= index);
        let s = self.slices.get(i.checked_sub(1)?)?;
        (index < s.offset + s.size).then_some(s)
    }

    /// The masks (mover first) of the position at `index`.
    pub fn masks_at(&self, index: u64) -> Option<([u32; 2], [u32; 2])> {
        let s = self.slice_at(index)?;
        let mut cur = SliceCursor::new(s, index - s.offset);
        Some(cur.masks())
    }

    /// The position (White to move) at `index`.
    pub fn position_at(&self, index: u64) -> Option<Position> {
        let (lone, wall) = self.masks_at(index)?;
        self.key.position(lone, wall)
    }
}

/// What the mover's masks contribute to an index: the mover's profile id
/// and, per quadrant, the mover's base-5 digits. Positions that share the
/// mover's board (the children of one parent by the other's steps) share it.
#[derive(Copy, Clone, Debug)]
pub struct MoverPart {
    id: usize,
    digits: [u32; 4],
}

impl MoverPart {
    #[inline(always)]
    pub fn new(lone: u32, wall: u32) -> MoverPart {
        let q = quads();
        let digit = |k: u32| {
            let sh = Q * k;
            q.p5[(lone >> sh & 0x3F) as usize] as u32
                + 2 * q.p5[(wall >> sh & 0x3F) as usize] as u32
        };
        MoverPart {
            id: profiles().id[Profile::code(lone, wall)] as usize,
            digits: [digit(0), digit(1), digit(2), digit(3)],
        }
    }
}

/// Walks the positions of a slice in index order.
pub struct SliceCursor<'a> {
    slice: &'a Slice,
    digits: [u64; 4],
    /// The masks of each quadrant's current arrangement, shifted in place.
    parts: [[u32; 4]; 4],
}

impl<'a> SliceCursor<'a> {
    /// A cursor at index `i` of the slice.
    pub fn new(slice: &'a Slice, mut i: u64) -> SliceCursor<'a> {
        let mut digits = [0u64; 4];
        for k in (0..4).rev() {
            digits[k] = i % slice.radix[k];
            i /= slice.radix[k];
        }
        let mut c = SliceCursor {
            slice,
            digits,
            parts: [[0; 4]; 4],
        };
        for k in 0..4 {
            c.load(k);
        }
        c
    }

    #[inline(always)]
    fn load(&mut self, k: usize) {
        let q = quads();
        let code = q.codes[self.slice.comps[k] as usize][self.digits[k] as usize];
        let m = q.masks[code as usize];
        let sh = Q * k as u32;
        self.parts[k] = [
            (m & 0x3F) << sh,
            (m >> 6 & 0x3F) << sh,
            (m >> 12 & 0x3F) << sh,
            (m >> 18 & 0x3F) << sh,
        ];
    }

    /// Lone and wall masks (mover first) of the current position.
    #[inline(always)]
    pub fn masks(&mut self) -> ([u32; 2], [u32; 2]) {
        let p = &self.parts;
        let or = |j: usize| p[0][j] | p[1][j] | p[2][j] | p[3][j];
        ([or(0), or(2)], [or(1), or(3)])
    }

    /// Moves to the next index (wrapping at the end of the slice).
    #[inline(always)]
    pub fn advance(&mut self) {
        for k in (0..4).rev() {
            self.digits[k] += 1;
            if self.digits[k] < self.slice.radix[k] {
                self.load(k);
                return;
            }
            self.digits[k] = 0;
            self.load(k);
        }
    }
}

/// Where a position (not won) is stored: its half-phase and the White-to-move
/// masks, or its settled value for the side to move as +1, 0, -1 (settled
/// within two plies, or nobody can win any more).
#[inline(always)]
pub fn locate(pos: &Position) -> Result<(HalfKey, [u32; 2], [u32; 2]), i8> {
    match pos.decided() {
        Some(Decided::WinsNow) => return Err(1),
        Some(_) => return Err(-1),
        None => {}
    }
    let me = pos.side_to_move();
    if !pos.can_still_win(me) && !pos.can_still_win(me.opposite()) {
        return Err(0);
    }
    let key = HalfKey::of(pos).ok_or(-1i8)?;
    let other = me.opposite();
    Ok((
        key,
        [pos.lone_mask(me), pos.lone_mask(other)],
        [pos.wall_mask(me), pos.wall_mask(other)],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_of_a_layout_names_a_position_that_indexes_back() {
        let key = HalfKey {
            tm: 0,
            bm: 4,
            to: 1,
            bo: 3,
            r: 2,
        };
        let l = Layout::new(key);
        assert!(l.size > 100_000, "{}", l.size);
        let mut i = 0;
        while i < l.size {
            let p = l.position_at(i).expect("a position");
            let (k, lone, wall) = locate(&p).expect("stored");
            assert_eq!(k, key);
            assert_eq!(l.index(lone, wall), Some(i), "{p}");
            i += 7;
        }
    }

    #[test]
    fn slice_cursors_walk_in_index_order() {
        let key = HalfKey {
            tm: 0,
            bm: 2,
            to: 0,
            bo: 4,
            r: 1,
        };
        let l = Layout::new(key);
        for s in l.slices.iter().take(50) {
            let mut c = SliceCursor::new(s, 0);
            for j in 0..s.size {
                let (lone, wall) = c.masks();
                assert_eq!(l.index(lone, wall), Some(s.offset + j));
                c.advance();
            }
        }
    }

    #[test]
    fn sizes_match_an_independent_count() {
        // All boards with one lone checker each and nothing else: 24 * 23
        // ordered pairs of points, no decided slices with r = 0.
        let key = HalfKey {
            tm: 3,
            bm: 1,
            to: 3,
            bo: 1,
            r: 0,
        };
        assert_eq!(Layout::new(key).size, 24 * 23);
        // With two checkers left each nobody can win: no table.
        let none = HalfKey {
            tm: 1,
            to: 1,
            ..key
        };
        assert_eq!(Layout::new(none).size, 0);
    }
}
