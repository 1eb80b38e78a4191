//! The transposition table: a lock-free hash table shared by all search
//! threads, keyed by the exact 114-bit [`Position::key`].
//!
//! Each entry is three atomic words: the two halves of the key, each xored
//! with the data word, and the data word itself. A reader accepts an entry
//! only when both halves decode to its own key, so a torn write (another
//! thread storing at the same time) reads as a miss, never as a wrong entry:
//! mate scores taken from the table can be trusted.

use grasshopper_rules::{Move, Point, Position};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored value says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value is exact (it fell inside the window).
    Exact = 1,
    /// The value is a lower bound (the search failed high).
    Lower = 2,
    /// The value is an upper bound (the search failed low).
    Upper = 3,
}

/// One decoded entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub mv: Option<Move>,
    /// Value with mate scores relative to this node (see [`value_to_tt`]).
    pub value: i32,
    pub depth: i32,
    pub bound: Bound,
    /// True when the value does not depend on any heuristic leaf: it holds
    /// whatever the depth (a proof from game ends only).
    pub proven: bool,
}

struct Slot {
    k0: AtomicU64,
    k1: AtomicU64,
    data: AtomicU64,
}

/// The shared table.
pub(crate) struct Tt {
    slots: Vec<Slot>,
    generation: AtomicU64,
}

const NO_MOVE: u64 = 0x3FF;

/// The move with the given [`Move::index`], rebuilt from public constructors.
pub(crate) fn move_from_index(i: usize) -> Option<Move> {
    let (from, to) = (i / 27, i % 27);
    let pt = |x: usize| Point::from_index(x as u8);
    match (from, to) {
        (26, _) => Some(Move::PASS),
        (24, t) => pt(t).map(Move::enter),
        (f, 25) => pt(f).map(Move::bear_off),
        (f, t) => Move::step(pt(f)?, pt(t)?),
    }
}

impl Tt {
    /// A table of about `mb` MiB (at least one slot).
    pub fn new(mb: usize) -> Tt {
        Tt::with_slots((mb.max(1) * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1))
    }

    /// A table of `n` empty slots. Optimised, the zero fill becomes one
    /// zeroed allocation: the system hands out zero pages as they are first
    /// touched, so even 4 GiB are made in milliseconds.
    fn with_slots(n: usize) -> Tt {
        let mut slots = Vec::with_capacity(n);
        slots.resize_with(n, || Slot {
            k0: AtomicU64::new(0),
            k1: AtomicU64::new(0),
            data: AtomicU64::new(0),
        });
        Tt {
            slots,
            generation: AtomicU64::new(0),
        }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Empties the table: a fresh one of the same size in its place.
    /// Writing zeros over every slot of a 4 GiB table took 13-50 s (each
    /// page faulted in and written, on a loaded machine); a new zeroed
    /// allocation takes milliseconds and its pages come as the search
    /// touches them.
    pub fn clear(&mut self) {
        let n = self.slots.len();
        self.slots = Vec::new(); // the old pages go back first
        *self = Tt::with_slots(n);
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn gen(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & 0xFF
    }

    #[inline(always)]
    fn slot(&self, pos: &Position) -> &Slot {
        let h = pos.hash64();
        // Multiply-shift maps the hash onto 0..len without a division.
        let i = ((h as u128 * self.slots.len() as u128) >> 64) as usize;
        &self.slots[i]
    }

    /// Asks the memory system for `pos`'s slot ahead of its probe: the
    /// table is far larger than the caches, so a probe's load is a miss
    /// that stalled the search for a tenth of its time; a node prefetches
    /// on entry and generates its moves while the line comes.
    #[inline(always)]
    pub fn prefetch(&self, pos: &Position) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = std::ptr::from_ref(self.slot(pos)).cast::<i8>();
            // SAFETY: a prefetch is a hint: it never faults and changes no
            // memory, and `p` points into the table besides.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = pos;
    }

    /// The entry for `pos`, if stored.
    #[inline(always)]
    pub fn probe(&self, pos: &Position) -> Option<Entry> {
        let s = self.slot(pos);
        let data = s.data.load(Ordering::Relaxed);
        if data == 0 {
            return None;
        }
        let key = pos.key();
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        if s.k0.load(Ordering::Relaxed) ^ data != lo || s.k1.load(Ordering::Relaxed) ^ data != hi {
            return None;
        }
        Some(decode(data))
    }

    /// Stores a search result for `pos`.
    #[inline(always)]
    pub fn store(&self, pos: &Position, e: Entry) {
        let s = self.slot(pos);
        let key = pos.key();
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        let gen = self.gen();
        let old = s.data.load(Ordering::Relaxed);
        if old != 0 {
            let same = s.k0.load(Ordering::Relaxed) ^ old == lo
                && s.k1.load(Ordering::Relaxed) ^ old == hi;
            let o = decode(old);
            let old_gen = (old >> 48) & 0xFF;
            if same {
                // Never replace a proof by a guess about the same position.
                if o.proven && !e.proven {
                    return;
                }
            } else if old_gen == gen && (o.proven || o.depth > e.depth + 2) && !e.proven {
                return;
            }
        }
        let data = encode(&e, gen);
        s.k0.store(lo ^ data, Ordering::Relaxed);
        s.k1.store(hi ^ data, Ordering::Relaxed);
        s.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots written during the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let gen = self.gen();
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 48) & 0xFF == gen
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

// Data word: bits 0-9 move index (0x3FF: none), 10-25 value + 32768,
// 26-33 depth, 34-35 bound, 36 proven, 48-55 generation, 63 set (non-zero).
fn encode(e: &Entry, gen: u64) -> u64 {
    let mv = e.mv.map_or(NO_MOVE, |m| m.index() as u64);
    let value = (e.value + 32768).clamp(0, 65535) as u64;
    let depth = e.depth.clamp(0, 255) as u64;
    mv | value << 10
        | depth << 26
        | (e.bound as u64) << 34
        | (e.proven as u64) << 36
        | gen << 48
        | 1 << 63
}

fn decode(d: u64) -> Entry {
    let mi = (d & 0x3FF) as usize;
    Entry {
        mv: if mi as u64 == NO_MOVE {
            None
        } else {
            move_from_index(mi)
        },
        value: ((d >> 10) & 0xFFFF) as i32 - 32768,
        depth: ((d >> 26) & 0xFF) as i32,
        bound: match (d >> 34) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        },
        proven: (d >> 36) & 1 == 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_other_positions_miss() {
        let tt = Tt::new(1);
        let a = Position::start(14).unwrap();
        let b = Position::start(12).unwrap();
        let m = a.legal_moves()[3];
        let e = Entry {
            mv: Some(m),
            value: -29990,
            depth: 7,
            bound: Bound::Lower,
            proven: true,
        };
        tt.store(&a, e);
        assert_eq!(tt.probe(&a), Some(e));
        assert_eq!(tt.probe(&b), None);
    }

    #[test]
    fn every_move_index_decodes_to_its_move() {
        for pos in [Position::start(14).unwrap()] {
            for &m in pos.legal_moves().iter() {
                assert_eq!(move_from_index(m.index()), Some(m));
            }
        }
        assert_eq!(move_from_index(Move::PASS.index()), Some(Move::PASS));
        let w: Position = "w...../w...../w....w/W..... w 8 14 0-0 -".parse().unwrap();
        for &m in w.legal_moves().iter() {
            assert_eq!(move_from_index(m.index()), Some(m));
        }
    }
}
