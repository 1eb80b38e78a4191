//! The inputs of the neural nets, designed for this project: a raw
//! description of each side's checkers (truncated unary counts per point)
//! and a few hand-made features that a one-layer net finds hard to compute
//! (shots, pips lost to a hit, primes, escapes of the rearmost checker)
//! and, for nets that read them, a few more at the end ([`contact_extra`]:
//! home points, containment, anchor, contact still to break).
//!
//! Both sides are encoded the same way in their own numbering: first the
//! player on roll, then the opponent. The features of a side are computed as
//! if that side were on roll against the other.

use backgammon_rules::{Board, Side};

/// Inputs per side of the contact net's first part.
pub const CONTACT_SIDE: usize = 106;
/// Inputs of a contact net without the extra features (generations 0-2).
pub const CONTACT_BASE: usize = 2 * CONTACT_SIDE;
/// Extra inputs per side ([`contact_extra`]).
pub const CONTACT_EXTRA_SIDE: usize = 5;
/// Inputs of a contact net with the extra features: the most a contact
/// (or crashed) net reads, so the size of the input buffers.
pub const CONTACT_INPUTS: usize = CONTACT_BASE + 2 * CONTACT_EXTRA_SIDE;
/// The input counts a contact or crashed net may have.
pub const CONTACT_WIDTHS: [usize; 2] = [CONTACT_BASE, CONTACT_INPUTS];
/// Inputs per side of the race net.
pub const RACE_SIDE: usize = 101;
/// Inputs of the race net.
pub const RACE_INPUTS: usize = 2 * RACE_SIDE;

/// Bits 1..=24 of a point mask.
const POINTS: u32 = 0x01FF_FFFE;

/// One side's checkers in its own numbering, with bit masks of its points.
#[derive(Copy, Clone, Debug)]
pub struct SideView {
    /// Index 0..=23: points 1..=24; index 24: the bar.
    pub counts: [u8; 25],
    pub off: u8,
    /// Bit p: at least one checker on p (bit 25: the bar).
    pub occ: u32,
    /// Bit p: two or more checkers on p (1..=24).
    pub made: u32,
    /// Bit p: exactly one checker on p (1..=24).
    pub blots: u32,
}

impl SideView {
    /// The view of `side` of `board`.
    #[inline]
    pub fn new(board: &Board, side: Side) -> SideView {
        let counts = board.counts(side);
        let (mut occ, mut made, mut blots) = (0u32, 0u32, 0u32);
        for (i, &c) in counts.iter().enumerate() {
            let bit = 1u32 << (i + 1);
            if c > 0 {
                occ |= bit;
            }
            if i < 24 {
                if c >= 2 {
                    made |= bit;
                } else if c == 1 {
                    blots |= bit;
                }
            }
        }
        SideView {
            counts,
            off: board.off(side),
            occ,
            made,
            blots,
        }
    }

    /// Checkers on the bar.
    #[inline]
    pub fn bar(&self) -> u8 {
        self.counts[24]
    }

    /// Pips to bear off (the bar counts 25).
    #[inline]
    pub fn pips(&self) -> u32 {
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as u32 + 1) * c as u32)
            .sum()
    }

    /// The highest occupied place (25 for the bar), 0 when all are off.
    #[inline]
    pub fn rearmost(&self) -> u32 {
        if self.occ == 0 {
            0
        } else {
            31 - self.occ.leading_zeros()
        }
    }
}

/// A mask of points in one side's numbering turned into the other's
/// (`p` becomes `25 - p`); only points 1..=24 are kept.
#[inline(always)]
pub fn mirror(mask: u32) -> u32 {
    (mask & POINTS).reverse_bits() >> 6
}

/// The four truncated-unary inputs of `n` checkers on a point.
#[inline(always)]
fn unary(out: &mut [f32], n: u8) {
    if n >= 1 {
        out[0] = 1.0;
        if n >= 2 {
            out[1] = 1.0;
            if n >= 3 {
                out[2] = 1.0;
                if n > 3 {
                    out[3] = (n - 3) as f32 * 0.5;
                }
            }
        }
    }
}

/// The 36 rolls as (first die, second die, how many of the 36 they are).
pub const ROLLS: [(u32, u32, u32); 21] = {
    let mut r = [(0, 0, 0); 21];
    let mut i = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = 1;
        while b <= a {
            r[i] = (a, b, if a == b { 1 } else { 2 });
            i += 1;
            b += 1;
        }
        a += 1;
    }
    r
};

/// Shots of `a` (as if on roll) at `b`'s blots: the rolls of 36 that hit
/// at least one, and the sum over those rolls of the pips the farthest
/// advanced blot hit would lose.
pub fn shots(a: &SideView, b: &SideView) -> (u32, u32) {
    let blots = mirror(b.blots);
    if blots == 0 {
        return (0, 0);
    }
    let open = !mirror(b.made) & POINTS;
    let src = a.occ & POINTS;
    let bar = a.bar() as u32;
    let (mut count, mut loss) = (0, 0);
    for &(x, y, w) in &ROLLS {
        let hit = if x == y {
            let mut steps = 4u32;
            let mut from = src;
            let mut hit = 0;
            if bar > 0 {
                let e = 1u32 << (25 - x);
                if open & e == 0 {
                    continue;
                }
                hit |= e & blots;
                steps = steps.saturating_sub(bar);
                from = if bar >= 4 { 0 } else { src | e };
            }
            let mut cur = from;
            for _ in 0..steps {
                cur = (cur >> x) & open;
                hit |= cur & blots;
            }
            hit
        } else if bar >= 2 {
            ((1u32 << (25 - x)) | (1u32 << (25 - y))) & blots
        } else if bar == 1 {
            let mut hit = 0;
            for (p, q) in [(x, y), (y, x)] {
                let e = 1u32 << (25 - p);
                if open & e != 0 {
                    hit |= e & blots;
                    hit |= ((src | e) >> q) & blots;
                }
            }
            hit
        } else {
            let sx = (src >> x) & open;
            let sy = (src >> y) & open;
            ((sx | sy) | (sx >> y) | (sy >> x)) & blots
        };
        if hit != 0 {
            count += w;
            loss += w * (31 - hit.leading_zeros());
        }
    }
    (count, loss)
}

/// The longest run of made points.
#[inline]
pub fn longest_prime(made: u32) -> u32 {
    let mut m = made;
    let mut n = 0;
    while m != 0 {
        m &= m >> 1;
        n += 1;
    }
    n
}

/// Rolls of 36 with which `a`'s rearmost checker, moving alone through
/// open points, gets past the lowest point `b` holds within the 8 points in
/// front of it (36 when nothing of `b`'s blocks it there).
pub fn escapes(a: &SideView, b: &SideView) -> u32 {
    escapes_from(a.rearmost(), mirror(b.made))
}

/// Rolls of 36 with which a lone checker on `s` (0: none) gets past the
/// lowest of `blocks` within the 8 points in front of it.
fn escapes_from(s: u32, blocks: u32) -> u32 {
    if s == 0 {
        return 36;
    }
    let window = blocks & ((1u32 << s) - 1) & !((1u32 << s.saturating_sub(8)) - 1);
    if window == 0 {
        return 36;
    }
    let line = window.trailing_zeros();
    let open = |p: i32| p <= 0 || blocks & (1u32 << p) == 0;
    let s = s as i32;
    let mut n = 0;
    for &(x, y, w) in &ROLLS {
        let (x, y) = (x as i32, y as i32);
        let ok = if x == y {
            let mut p = s;
            let mut ok = false;
            for _ in 0..4 {
                p -= x;
                if !open(p) {
                    break;
                }
                if p < line as i32 {
                    ok = true;
                    break;
                }
            }
            ok
        } else {
            let end = s - x - y;
            let single =
                (s - x < line as i32 && open(s - x)) || (s - y < line as i32 && open(s - y));
            single || (end < line as i32 && open(end) && (open(s - x) || open(s - y)))
        };
        if ok {
            n += w;
        }
    }
    n
}

/// [`escapes_from`] for each pattern of blocks on the 12 points in front
/// of a checker (bit k: the point 12 - k ahead), looked up with the
/// checker on 13: no escape looks further ahead (a 6-6 is past any block
/// within 8 points after two steps).
static ESCAPES_12: std::sync::LazyLock<[u8; 4096]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|pat| escapes_from(13, (pat as u32) << 1) as u8)
});

/// The fewest rolls of 36 with which a lone checker of `b`'s opponent, on
/// any of the points 15 to 24 of its own numbering, escapes `b`'s blocks:
/// how well `b` contains the other side.
pub fn escapes_worst(b: &SideView) -> u32 {
    let blocks = mirror(b.made);
    let table = &*ESCAPES_12;
    (15..=24)
        .map(|s| table[((blocks >> (s - 12)) & 0xFFF) as usize] as u32)
        .min()
        .unwrap_or(36)
}

/// Pips `a` must still move to get every checker past `b`'s rearmost one:
/// the contact left to break.
pub fn contact_pips(a: &SideView, b: &SideView) -> u32 {
    let line = 25 - b.rearmost().min(25);
    a.counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as u32 + 1).saturating_sub(line) * c as u32)
        .sum()
}

/// `a`'s most advanced anchor in `b`'s home board or on its bar point
/// (points 18 to 24 in `a`'s numbering), 0 for none.
pub fn anchor(a: &SideView) -> u32 {
    let back = a.made & (0x7F << 18);
    if back == 0 {
        0
    } else {
        back.trailing_zeros()
    }
}

/// Writes the extra inputs of side `a` against `b` into `out`
/// ([`CONTACT_EXTRA_SIDE`] of them): points made in the home board, and
/// its square (the chance that a checker on the bar stays there), how
/// badly `a` is contained ([`escapes_worst`]), `a`'s anchor, and the pips
/// before contact is broken.
fn contact_extra(a: &SideView, b: &SideView, out: &mut [f32]) {
    let home = (a.made & 0x7E).count_ones() as f32;
    out[0] = home / 6.0;
    out[1] = home * home / 36.0;
    out[2] = 1.0 - escapes_worst(b) as f32 / 36.0;
    let anchor = anchor(a);
    out[3] = if anchor == 0 {
        0.0
    } else {
        (25 - anchor) as f32 / 7.0
    };
    out[4] = contact_pips(a, b) as f32 / 167.0;
}

/// Writes the contact inputs of `board` (seen from the player on roll)
/// into `out`, which must be zero: the first `width` of them (one of
/// [`CONTACT_WIDTHS`]).
pub fn contact_inputs(board: &Board, out: &mut [f32; CONTACT_INPUTS], width: usize) {
    let me = SideView::new(board, Side::OnRoll);
    let them = SideView::new(board, Side::Opponent);
    for (k, (a, b)) in [(&me, &them), (&them, &me)].into_iter().enumerate() {
        let o = &mut out[k * CONTACT_SIDE..(k + 1) * CONTACT_SIDE];
        for (i, &c) in a.counts.iter().enumerate() {
            unary(&mut o[4 * i..4 * i + 4], c);
        }
        o[100] = a.off as f32 / 15.0;
        o[101] = a.pips() as f32 / 167.0;
        let (hits, loss) = shots(a, b);
        o[102] = hits as f32 / 36.0;
        o[103] = loss as f32 / (36.0 * 12.0);
        o[104] = longest_prime(a.made).min(8) as f32 / 6.0;
        o[105] = escapes(a, b) as f32 / 36.0;
    }
    if width > CONTACT_BASE {
        let extra = &mut out[CONTACT_BASE..];
        let (first, second) = extra.split_at_mut(CONTACT_EXTRA_SIDE);
        contact_extra(&me, &them, first);
        contact_extra(&them, &me, second);
    }
}

/// Writes the race inputs of `board` into `out`, which must be zero.
pub fn race_inputs(board: &Board, out: &mut [f32; RACE_INPUTS]) {
    for (k, side) in [Side::OnRoll, Side::Opponent].into_iter().enumerate() {
        let a = SideView::new(board, side);
        let o = &mut out[k * RACE_SIDE..(k + 1) * RACE_SIDE];
        for (i, &c) in a.counts[..24].iter().enumerate() {
            unary(&mut o[4 * i..4 * i + 4], c);
        }
        o[96] = a.off as f32 / 15.0;
        o[97] = (a.off > 0) as u8 as f32;
        o[98] = a.pips() as f32 / 100.0;
        let (mut cross, mut outside) = (0u32, 0u32);
        for (i, &c) in a.counts.iter().enumerate().skip(6) {
            cross += c as u32 * (i as u32 / 6);
            outside += c as u32;
        }
        o[99] = cross as f32 / 30.0;
        o[100] = outside as f32 / 15.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(me: &[(usize, u8)], them: &[(usize, u8)]) -> Board {
        let mut a = [0u8; 25];
        let mut b = [0u8; 25];
        for &(p, n) in me {
            a[p - 1] = n;
        }
        for &(p, n) in them {
            b[p - 1] = n;
        }
        Board::from_counts(&a, &b).unwrap()
    }

    #[test]
    fn mirror_maps_points_to_the_other_numbering() {
        assert_eq!(mirror(1 << 1), 1 << 24);
        assert_eq!(mirror(1 << 6 | 1 << 13), 1 << 19 | 1 << 12);
        assert_eq!(mirror(1 << 25 | 1), 0);
    }

    #[test]
    fn shots_count_direct_and_combination_hits() {
        // My checker on 10, their blot on their 20 = my 5: a direct 5 hits
        // (11 rolls), and 4-1, 3-2 (4 rolls) and 1-1 (5 = 1+1+1+1+1? no:
        // four steps reach 6) do not; 3-2, 4-1 do: 15 rolls in all.
        let b = board(&[(10, 1)], &[(20, 1)]);
        let me = SideView::new(&b, Side::OnRoll);
        let them = SideView::new(&b, Side::Opponent);
        let (n, loss) = shots(&me, &them);
        assert_eq!(n, 15);
        assert_eq!(loss, 15 * 5);
        // No blots, no shots.
        let s = SideView::new(&Board::START, Side::OnRoll);
        assert_eq!(shots(&s, &s), (0, 0));
    }

    #[test]
    fn a_blocked_intermediate_point_stops_a_combination() {
        // Their point on my 7 (their 18) blocks 10/7/5 with 3-2 but 10/8/5 is open.
        let b = board(&[(10, 1)], &[(20, 1), (18, 2)]);
        let (n, _) = shots(
            &SideView::new(&b, Side::OnRoll),
            &SideView::new(&b, Side::Opponent),
        );
        assert_eq!(n, 15);
    }

    #[test]
    fn the_containment_table_agrees_with_escapes_checker_by_checker() {
        let mut rng = backgammon_rules::SplitMix::new(3);
        for _ in 0..2000 {
            let made = rng.next_u64() as u32 & POINTS & rng.next_u64() as u32;
            let view = SideView {
                counts: [0; 25],
                off: 0,
                occ: made,
                made,
                blots: 0,
            };
            let blocks = mirror(made);
            let naive = (15..=24).map(|s| escapes_from(s, blocks)).min().unwrap();
            assert_eq!(escapes_worst(&view), naive, "{made:#x}");
        }
    }

    #[test]
    fn the_extra_inputs_read_like_the_board() {
        // Mine: 6, 5, 4 made (three home points), an anchor on 20, a
        // checker on 22; theirs: their rearmost on their 18 (my 7).
        let b = board(
            &[(6, 3), (5, 2), (4, 2), (20, 2), (22, 1), (8, 5)],
            &[(18, 2), (6, 13)],
        );
        let me = SideView::new(&b, Side::OnRoll);
        let them = SideView::new(&b, Side::Opponent);
        assert_eq!(anchor(&me), 20);
        assert_eq!(anchor(&them), 18);
        // Past their checker on my 7: 8 (5 x 1), 20 (2 x 13), 22 (15).
        assert_eq!(contact_pips(&me, &them), 5 + 26 + 15);
        let mut x = [0.0; CONTACT_INPUTS];
        contact_inputs(&b, &mut x, CONTACT_INPUTS);
        let mine = &x[CONTACT_BASE..CONTACT_BASE + CONTACT_EXTRA_SIDE];
        assert_eq!(mine[0], 0.5);
        assert_eq!(mine[1], 0.25);
        assert_eq!(mine[3], 5.0 / 7.0);
        // The base inputs do not depend on the width.
        let mut y = [0.0; CONTACT_INPUTS];
        contact_inputs(&b, &mut y, CONTACT_BASE);
        assert_eq!(x[..CONTACT_BASE], y[..CONTACT_BASE]);
        assert!(y[CONTACT_BASE..].iter().all(|&v| v == 0.0));
        // A full prime lets nothing out; no blocks let everything out.
        let full = board(
            &[(9, 2), (8, 2), (7, 2), (6, 2), (5, 2), (4, 2)],
            &[(24, 2)],
        );
        let prime = SideView::new(&full, Side::OnRoll);
        assert_eq!(escapes_worst(&prime), 0);
        let open = SideView::new(&board(&[(1, 15)], &[(1, 15)]), Side::OnRoll);
        assert_eq!(escapes_worst(&open), 36);
    }

    #[test]
    fn primes_and_escapes() {
        assert_eq!(longest_prime(0b0111_0110), 3);
        let s = SideView::new(&Board::START, Side::OnRoll);
        let e = escapes(&s, &s);
        assert!(e > 0 && e < 36, "{e}");
        let mut x = [0.0; CONTACT_INPUTS];
        contact_inputs(&Board::START, &mut x, CONTACT_BASE);
        assert_eq!(&x[92..96], &[1.0, 1.0, 0.0, 0.0]);
        assert_eq!(x[101], 1.0);
        let mut r = [0.0; RACE_INPUTS];
        race_inputs(&Board::START, &mut r);
        assert_eq!(r[98], 1.67);
    }
}
